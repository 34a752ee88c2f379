//! Every profile that passes validation solves, without a panic, on the start position and on
//! random positions of M=3 and M=4; a board far outside `boards::bounds` is an error, not a
//! panic (issue 17: `on_ohms = 1e-300` panicked in the Cholesky factorisation).

use boards::bounds::{self, Bound};
use boards::{ARDUINO_MEGA, NUCLEO_F446RE, Profile, Pullups};
use emulator::physical::{Board, Build, PullupState, SolveError, solve, solve_on_cage};
use heuristic::{Position, Side, Size};
use proptest::prelude::*;

/// A value of `bound`: its ends half the time (where rounding bites), else anywhere in it.
fn value(bound: &'static Bound) -> impl Strategy<Value = u32> {
    prop_oneof![Just(bound.min), Just(bound.max), bound.min..=bound.max]
}

prop_compose! {
    fn profile()(
        nucleo in any::<bool>(),
        supply in value(&bounds::SUPPLY_MILLIVOLTS),
        resistor in value(&bounds::CAGE_OHMS),
        series in value(&bounds::CAGE_OHMS),
        wire in value(&bounds::WIRE_MILLIOHMS),
        pullup in value(&bounds::PULLUP_OHMS),
        tolerance in value(&bounds::TOLERANCE_PPM),
        on in value(&bounds::SWITCH_ON_MILLIOHMS),
        leakage in value(&bounds::SWITCH_LEAKAGE_PICOAMPS),
        fitted in any::<bool>(),
    ) -> Profile {
        let mut p = if nucleo { NUCLEO_F446RE } else { ARDUINO_MEGA };
        p.supply_millivolts = supply;
        p.resistors.nominal_ohms = resistor;
        p.resistors.tolerance.ppm = tolerance;
        p.series_ohms = series;
        p.wire_milliohms = wire;
        p.pullups = match p.pullups {
            Pullups::InternalAlwaysOn { .. } => Pullups::InternalAlwaysOn {
                min_ohms: pullup,
                max_ohms: pullup.max(bounds::PULLUP_OHMS.max / 2),
            },
            Pullups::SwitchedPerNode { controls, .. } => {
                Pullups::SwitchedPerNode { ohms: pullup, controls }
            }
            Pullups::SharedRail { control, released, .. } => {
                Pullups::SharedRail { ohms: pullup, control, released }
            }
        };
        p.fixture = p.fixture.filter(|_| fitted).map(|mut f| {
            f.switch_on_milliohms = on;
            f.switch_off_leakage_picoamps = leakage;
            f
        });
        p
    }
}

/// Solves `position` on `build` with the pull-ups on and released: no error, finite volts.
fn assert_solves(board: &Board, build: &Build, position: &Position) {
    for pullups in [PullupState::On, PullupState::Released] {
        let solution = solve_on_cage(board, &build.parts, position, pullups)
            .unwrap_or_else(|e| panic!("{position:?}: {e} ({board:?})"));
        assert!(solution.all_volts().iter().flatten().all(|v| v.is_finite()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_valid_profile_solves(p in profile(), seed in any::<u64>(), moves in any::<u64>()) {
        prop_assert_eq!(p.validate(), Ok(()));
        let board = Board::from_profile(&p);
        for size in [Size::M3, Size::M4] {
            for build_seed in [None, Some(seed)] {
                let build = Build::draw(&board, size, build_seed);
                let mut position = Position::new(size, Side::Cut);
                assert_solves(&board, &build, &position);
                // A random game: the move at index `moves` mod the legal ones, every ply.
                let mut pick = moves;
                while position.winner().is_none() {
                    let legal: Vec<_> = position.resistors().collect();
                    let edge = legal[(pick % legal.len() as u64) as usize];
                    pick = pick.rotate_left(7) ^ 0x9e37_79b9;
                    position.play_edge(edge).unwrap();
                    assert_solves(&board, &build, &position);
                }
            }
        }
    }
}

#[test]
fn a_board_far_outside_the_bounds_is_an_error_not_a_panic() {
    let mut board = Board::from_profile(&NUCLEO_F446RE);
    for on_ohms in [1e-300, 1e-320] {
        board.switches.as_mut().unwrap().on_ohms = on_ohms;
        let build = Build::draw(&board, Size::M4, None);
        // c5 is shorted by the fixture's bypass switch: a conductance of 1e300 or more.
        let game = Position::from_record(Size::M4, Side::Cut, "A7,c5").unwrap();
        let result = solve(&board, &build.parts, &game, PullupState::On);
        assert!(
            matches!(result, Err(SolveError::NotPositiveDefinite { .. })),
            "on_ohms = {on_ohms}: {result:?}"
        );
    }
}
