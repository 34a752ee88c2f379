//! Random boards for the physical-network tests: both profiles, every pull-up arrangement,
//! with and without the edge fixture, nominal or drawn parts.

use boards::RailRelease;
use emulator::games::any_position;
use emulator::physical::{Board, Parts, PullupState, Pullups};
use heuristic::{Position, Size};
use rand::Rng;

/// One random case: a board variant, its parts, a position and the pull-up state.
pub struct Case {
    pub board: Board,
    pub parts: Parts,
    pub position: Position,
    pub pullups: PullupState,
}

pub fn random_case<R: Rng>(rng: &mut R) -> Case {
    let profile = boards::PROFILES[rng.random_range(0..boards::PROFILES.len())];
    let mut board = Board::from_profile(profile);
    board.pullups = match rng.random_range(0..4) {
        0 => Pullups::Internal {
            min_ohms: 20_000.0,
            max_ohms: 50_000.0,
        },
        1 => Pullups::PerNode { ohms: 30_000.0 },
        2 => Pullups::SharedRail {
            ohms: 30_000.0,
            released: RailRelease::DrivenLow,
        },
        _ => Pullups::SharedRail {
            ohms: 30_000.0,
            released: RailRelease::Floating,
        },
    };
    if rng.random_bool(0.5) {
        board.switches = None;
    } else if board.switches.is_none() {
        board.switches = Board::from_profile(&boards::NUCLEO_F446RE).switches;
    }
    let size = Size::new(rng.random_range(3..=4)).unwrap();
    let parts = if rng.random_bool(0.8) {
        Parts::draw(&board, size, rng.random())
    } else {
        Parts::nominal(&board, size)
    };
    let pullups = if rng.random_bool(0.5) {
        PullupState::On
    } else {
        PullupState::Released
    };
    Case {
        board,
        parts,
        position: any_position(rng, size),
        pullups,
    }
}
