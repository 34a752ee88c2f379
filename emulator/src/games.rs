//! Random legal games and board variants, for tests, benchmarks and studies. Seeded: the
//! same seed gives the same games.

use boards::RailRelease;
use heuristic::{Position, Side, Size};
use rand::Rng;

use crate::physical::{Board, Parts, PullupState, Pullups};

pub use switching::random::random_position;

/// A random position of a random length: anything from the start to a finished game.
pub fn any_position<R: Rng>(rng: &mut R, size: Size) -> Position {
    let first = if rng.random_bool(0.8) {
        Side::Cut
    } else {
        Side::Short
    };
    let plies = rng.random_range(0..=size.edge_count());
    random_position(rng, size, first, plies)
}

/// A random physical case: a board variant, its parts, a position and the pull-up state.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardCase {
    /// One of the profiles with a random pull-up arrangement, with or without the fixture.
    pub board: Board,
    /// Drawn (80 %) or nominal parts.
    pub parts: Parts,
    /// Any position of M=3 or M=4.
    pub position: Position,
    /// Pull-ups on or released.
    pub pullups: PullupState,
}

/// Draws a [`BoardCase`]: both profiles, every pull-up arrangement (internal, per node,
/// shared rail driven low or floating), fixture or not, on M=3 and M=4.
pub fn random_board_case<R: Rng>(rng: &mut R) -> BoardCase {
    let profile = boards::PROFILES[rng.random_range(0..boards::PROFILES.len())];
    let mut board = Board::from_profile(profile);
    let ohms = board.resistor_ohms * 30.0;
    board.pullups = match rng.random_range(0..4) {
        0 => Pullups::Internal {
            min_ohms: 20_000.0,
            max_ohms: 50_000.0,
        },
        1 => Pullups::PerNode { ohms },
        2 => Pullups::SharedRail {
            ohms,
            released: RailRelease::DrivenLow,
        },
        _ => Pullups::SharedRail {
            ohms,
            released: RailRelease::Floating,
        },
    };
    board.switches = if rng.random_bool(0.5) {
        None
    } else {
        Board::from_profile(&boards::NUCLEO_F446RE).switches
    };
    let m = rng.random_range(3..=4);
    let size = Size::new(m).unwrap_or_else(|_| unreachable!("3 and 4 are sizes"));
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
    BoardCase {
        board,
        parts,
        position: any_position(rng, size),
        pullups,
    }
}
