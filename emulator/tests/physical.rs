//! The physical network against the exact models it must reduce to, Kirchhoff's current
//! law on real boards, parts cut off from the terminals, tolerance draws and the ADC.

use boards::{Distribution, RailRelease, Tolerance};
use emulator::exact::solve_model;
use emulator::games::any_position;
use emulator::physical::{Adc, Board, End, Parts, PullupState, Pullups, branches, factor, solve};
use heuristic::{EdgeState, Model, Node, Position, Side, Size};
use num_traits::ToPrimitive;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

/// A board whose parts are the reference model's (R = 1, pull-ups 30, series 1, supply 1)
/// with near-ideal wires, or the ideal model's when the pull-ups are released.
fn model_board() -> Board {
    let mut b = Board::from_profile(&boards::ARDUINO_MEGA);
    b.supply_volts = 1.0;
    b.resistor_ohms = 1.0;
    b.series_ohms = 1.0;
    // Small enough to stand for an ideal wire at 1e-6, large enough to keep the system
    // well conditioned.
    b.wire_ohms = 1e-8;
    b.pullups = Pullups::PerNode { ohms: 30.0 };
    b.switches = None;
    b
}

#[test]
fn physical_model_reduces_to_the_exact_reference_network() {
    let board = model_board();
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut compared = 0;
    for m in 2..=5 {
        let parts = Parts::nominal(&board, size(m));
        for _ in 0..300 {
            let p = any_position(&mut rng, size(m));
            let exact = solve_model(&p, Model::Reference);
            let phys = solve(&board, &parts, &p, PullupState::On).unwrap();
            for node in p.size().nodes() {
                let want = exact.voltage(node).unwrap().to_f64().unwrap();
                let got = phys.volts(node).expect("every node is pulled up");
                assert!((got - want).abs() < 1e-6, "{node}: {got} vs {want}");
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000);
}

#[test]
fn released_pullups_give_the_ideal_network_with_the_same_floating_parts() {
    let mut board = model_board();
    board.series_ohms = 1e-8;
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let mut floating_seen = 0;
    for m in 2..=5 {
        let parts = Parts::nominal(&board, size(m));
        for _ in 0..300 {
            let p = any_position(&mut rng, size(m));
            if p.winner() == Some(Side::Short) {
                // The ideal model defines the joined terminals as the supply; a real
                // circuit divides between wires and the series resistor.
                continue;
            }
            let exact = solve_model(&p, Model::Ideal);
            let phys = solve(&board, &parts, &p, PullupState::Released).unwrap();
            for node in p.size().nodes() {
                match (exact.voltage(node), phys.volts(node)) {
                    (None, None) => floating_seen += 1,
                    (Some(want), Some(got)) => {
                        let want = want.to_f64().unwrap();
                        assert!((got - want).abs() < 1e-6, "{node}: {got} vs {want}");
                    }
                    (want, got) => panic!("{node}: exact {want:?}, physical {got:?}"),
                }
            }
            // Cut-off parts carry nothing.
            branches(&board, &parts, &p, PullupState::Released, |b| {
                let i = phys.current(&b);
                assert!(i.is_finite());
                if phys.end_volts(b.a).is_none() || phys.end_volts(b.b).is_none() {
                    assert_eq!(i, 0.0, "{:?}", b.part);
                }
            });
        }
    }
    assert!(floating_seen > 100, "only {floating_seen} floating nodes");
}

fn end_index(size: Size, end: End) -> Option<usize> {
    match end {
        End::Node(Node::Top) | End::Supply | End::Ground => None,
        End::Node(n) => Some(n.index(size)),
        End::Rail => Some(size.node_count()),
    }
}

#[test]
fn kirchhoff_current_law_holds_at_every_free_node_of_real_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    for _ in 0..1500 {
        let c = emulator::games::random_board_case(&mut rng);
        let size = c.position.size();
        let sol = solve(&c.board, &c.parts, &c.position, c.pullups).unwrap();
        let mut net = vec![0.0f64; size.node_count() + 1];
        let mut scale = vec![0.0f64; size.node_count() + 1];
        // The residual is judged against the row's own size, Σ g·(|Va| + |Vb|), as a
        // backward error: a node tied by a 50 mΩ wire carries amperes of "scale" even when
        // the wire carries nothing.
        branches(&c.board, &c.parts, &c.position, c.pullups, |b| {
            let i = sol.current(&b);
            assert!(i.is_finite(), "{:?}", b.part);
            let (va, vb) = (sol.end_volts(b.a), sol.end_volts(b.b));
            let size_of = (va.unwrap_or(0.0).abs() + vb.unwrap_or(0.0).abs()) / b.ohms;
            if let Some(k) = end_index(size, b.a) {
                net[k] -= i;
                scale[k] += size_of;
            }
            if let Some(k) = end_index(size, b.b) {
                net[k] += i;
                scale[k] += size_of;
            }
        });
        for (k, (n, s)) in net.iter().zip(&scale).enumerate() {
            assert!(n.abs() <= 1e-12 * s, "slot {k}: {n} of {s}");
        }
        for v in sol.all_volts().iter().flatten() {
            let s = c.board.supply_volts;
            assert!(
                v.is_finite() && *v >= -1e-9 * s && *v <= s * (1.0 + 1e-9),
                "{v}"
            );
        }
    }
}

/// M=3 with A2 and C2 (joined by the resistor B2) cut off from both terminals, while
/// Q still reaches 0 down column E.
fn isolated_pair() -> Position {
    Position::from_record(size(3), Side::Cut, "A3,b4,C3,d4,A1,e5,C1,e1,D2").unwrap()
}

#[test]
fn cut_off_nodes_follow_the_pullup_arrangement() {
    let p = isolated_pair();
    assert_eq!(p.winner(), None);
    let m3 = p.size();
    let top: Vec<Node> = [1, 3]
        .iter()
        .map(|&x| Node::internal(m3, x, 2).unwrap())
        .collect();
    let mut board = Board::from_profile(&boards::NUCLEO_F446RE);
    board.switches = None;
    let parts = Parts::draw(&board, m3, 5);

    // Pulled up: the cut-off nodes sit at the supply.
    let on = solve(&board, &parts, &p, PullupState::On).unwrap();
    for n in &top {
        assert!((on.volts(*n).unwrap() - board.supply_volts).abs() < 1e-12);
    }
    // Rail driven low: they are pulled to ground.
    let low = solve(&board, &parts, &p, PullupState::Released).unwrap();
    for n in &top {
        assert!(low.volts(*n).unwrap().abs() < 1e-12);
    }
    // Rail floating: it joins them to the rest through two pull-ups; they sit at the rail.
    board.pullups = Pullups::SharedRail {
        ohms: 30_000.0,
        released: RailRelease::Floating,
    };
    let floating = solve(&board, &parts, &p, PullupState::Released).unwrap();
    let rail = floating
        .rail_volts()
        .expect("the rail is joined to the cage");
    assert!(rail > 0.0 && rail < board.supply_volts);
    for n in &top {
        assert!((floating.volts(*n).unwrap() - rail).abs() < 1e-12);
    }
    // Per-node pull-ups released: nothing defines them.
    board.pullups = Pullups::PerNode { ohms: 30_000.0 };
    let released = solve(&board, &parts, &p, PullupState::Released).unwrap();
    for n in &top {
        assert_eq!(released.volts(*n), None);
    }
    assert!(released.volts(Node::Bottom).is_some());
    // The fixture's leakage defines them again (as the physics says), at a finite value.
    board.switches = Board::from_profile(&boards::NUCLEO_F446RE).switches;
    let leaky = solve(&board, &parts, &p, PullupState::Released).unwrap();
    for n in &top {
        let v = leaky.volts(*n).unwrap();
        assert!(v.is_finite() && v > 0.0 && v < board.supply_volts);
    }
}

#[test]
fn a_short_through_the_fixture_conducts_through_its_switch() {
    let board = Board::from_profile(&boards::NUCLEO_F446RE);
    let m3 = size(3);
    let parts = Parts::nominal(&board, m3);
    let p = Position::from_record(m3, Side::Short, "c5").unwrap();
    let s = solve(&board, &parts, &p, PullupState::On).unwrap();
    let c4 = Node::internal(m3, 3, 4).unwrap();
    let drop = board.supply_volts - s.volts(c4).unwrap();
    // The current through the bypass times its on-resistance.
    let mut bypass_current = 0.0;
    branches(&board, &parts, &p, PullupState::On, |b| {
        if matches!(b.part, emulator::physical::Element::Bypass(_)) {
            bypass_current = s.current(&b);
        }
    });
    assert!(bypass_current > 0.0);
    assert!((drop - bypass_current * 2.5).abs() < 1e-9);
    assert!(p.state(heuristic::Edge::parse(m3, "C5").unwrap()) == EdgeState::Short);
}

#[test]
fn tolerance_draws_stay_in_their_band_and_spread_as_specified() {
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let band = 0.05;
    let draw = |rng: &mut ChaCha8Rng, distribution| -> Vec<f64> {
        let t = Tolerance {
            ppm: 50_000,
            distribution,
        };
        (0..20_000).map(|_| factor(t, rng) - 1.0).collect()
    };
    let std = |v: &[f64]| (v.iter().map(|e| e * e).sum::<f64>() / v.len() as f64).sqrt();

    let gauss = draw(&mut rng, Distribution::TruncatedGaussian { sigmas: 3 });
    assert!(gauss.iter().all(|e| e.abs() <= band));
    // σ = band/3, a little less after truncation at 3σ.
    let s = std(&gauss);
    assert!(s > 0.9 * band / 3.0 && s < band / 3.0, "{s}");

    let uniform = draw(&mut rng, Distribution::Uniform);
    assert!(uniform.iter().all(|e| e.abs() <= band));
    let s = std(&uniform);
    assert!((s - band / 3f64.sqrt()).abs() < 0.02 * band, "{s}");
    assert!(uniform.iter().any(|e| *e > 0.99 * band) && uniform.iter().any(|e| *e < -0.99 * band));

    let binned = draw(&mut rng, Distribution::Binned { hole_ppm: 10_000 });
    assert!(binned.iter().all(|e| (0.01..=band).contains(&e.abs())));

    // The same seed draws the same board; another seed, another board.
    let board = Board::from_profile(&boards::ARDUINO_MEGA);
    let a = Parts::draw(&board, size(4), 9);
    assert_eq!(a, Parts::draw(&board, size(4), 9));
    assert_ne!(a.edge_ohms, Parts::draw(&board, size(4), 10).edge_ohms);
    // AVR pull-ups come from their datasheet range.
    assert!(
        a.pullup_ohms
            .iter()
            .all(|r| (20_000.0..=50_000.0).contains(r))
    );
    let spread = a.pullup_ohms.iter().cloned().fold(f64::NAN, f64::max)
        - a.pullup_ohms.iter().cloned().fold(f64::NAN, f64::min);
    assert!(spread > 5_000.0, "{spread}");
}

#[test]
fn ideal_adc_rounds_with_its_first_transition_at_half_an_lsb() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    for bits in 6..=16u8 {
        let adc = Adc::ideal(bits, 3.3);
        let levels = f64::from(1u32 << bits);
        for _ in 0..2000 {
            let v = rng.random_range(-0.5..4.0);
            let want = (v / 3.3 * levels + 0.5).floor().clamp(0.0, levels - 1.0) as u16;
            assert_eq!(adc.transfer(v), want, "{bits} bits, {v} V");
        }
        assert_eq!(adc.transfer(3.3), adc.full_scale());
        assert_eq!(adc.transfer(f64::NAN), 0);
    }
}

#[test]
fn a_drawn_adc_stays_within_its_datasheet_figures() {
    for profile in boards::PROFILES {
        let board = Board::from_profile(profile);
        let acc = board.adc.accuracy;
        for seed in 0..40 {
            let adc = Adc::draw(&board, seed);
            let e = adc.errors();
            let bound =
                |f: boards::LsbFigure| f.max_lsb().or(f.typ_lsb().map(|t| 2.0 * t)).unwrap_or(0.0);
            let offset_bound = bound(if acc.offset.typ_lsb().is_some() {
                acc.offset
            } else {
                acc.total
            });
            assert!(e.offset.abs() <= offset_bound + 1e-12);
            assert!(e.inl.abs() <= bound(acc.inl) + 1e-12);
            // Monotonic, and never further from the ideal code than the errors allow.
            let ideal = Adc::ideal(board.adc.bits, board.reference_volts());
            let worst = e.offset.abs() + e.gain.abs() + e.inl + e.dnl + 1.0;
            let mut last = 0;
            for k in 0..=4000 {
                let v = board.reference_volts() * f64::from(k) / 4000.0;
                let code = adc.transfer(v);
                assert!(code >= last);
                last = code;
                let diff = (f64::from(code) - f64::from(ideal.transfer(v))).abs();
                assert!(diff <= worst.ceil(), "{}: {diff} > {worst}", profile.name);
            }
        }
    }
}

#[test]
fn averaging_conversions_shrinks_the_noise() {
    let mut board = Board::from_profile(&boards::NUCLEO_F446RE)
        .with_adc_bits(12)
        .unwrap();
    let spread = |board: &Board| {
        let adc = Adc::draw(board, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(36);
        let codes: Vec<f64> = (0..4000)
            .map(|_| f64::from(adc.read(1.234_567, &mut rng)))
            .collect();
        let mean = codes.iter().sum::<f64>() / codes.len() as f64;
        (codes.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / codes.len() as f64).sqrt()
    };
    board.adc.samples = 1;
    let single = spread(&board);
    board.adc.samples = 16;
    let averaged = spread(&board);
    // 1 LSB rms at 12 bits: one conversion spreads about 1 LSB; 16 average to about 1/4
    // (plus the rounding of the average).
    assert!(single > 0.8 && single < 1.3, "{single}");
    assert!(averaged < 0.5 * single, "{averaged} vs {single}");
}

#[test]
fn move_by_move_updates_match_solving_from_scratch() {
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let (mut moves, mut worst) = (0, 0.0f64);
    for _ in 0..150 {
        let c = emulator::games::random_board_case(&mut rng);
        let size = c.position.size();
        let first = if rng.random_bool(0.8) {
            Side::Cut
        } else {
            Side::Short
        };
        let mut game = emulator::physical::Incremental::new(
            &c.board,
            &c.parts,
            Position::new(size, first),
            c.pullups,
        )
        .unwrap();
        while game.position().winner().is_none() {
            let edges: Vec<_> = game.position().resistors().collect();
            let edge = edges[rng.random_range(0..edges.len())];
            let side = game.position().to_move().unwrap();
            game.play(heuristic::Move { edge, side }).unwrap();
            moves += 1;
            let fresh = solve(&c.board, &c.parts, game.position(), c.pullups).unwrap();
            let updated = game.solution().unwrap();
            for (a, b) in updated.all_volts().iter().zip(fresh.all_volts()) {
                match (a, b) {
                    (Some(a), Some(b)) => worst = worst.max((a - b).abs() / c.board.supply_volts),
                    (a, b) => assert_eq!(a.is_some(), b.is_some()),
                }
            }
        }
    }
    assert!(moves > 1500, "{moves}");
    eprintln!("{moves} moves, largest difference {worst:.1e} of the supply");
    // Updates and downdates lose a little to the conditioning (50 mΩ wires beside
    // 10 pA leakage paths): far below a 16-bit LSB (1.5e-5).
    assert!(worst < 2e-6, "{worst}");
}
