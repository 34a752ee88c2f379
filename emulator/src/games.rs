//! Random legal games, for tests, benchmarks and studies. Seeded: the same seed gives
//! the same games.

use heuristic::{Position, Side, Size};
use rand::Rng;
use rand::seq::IteratorRandom;

/// Plays up to `plies` random legal moves from the start position (fewer if somebody
/// wins first).
pub fn random_position<R: Rng>(rng: &mut R, size: Size, first: Side, plies: usize) -> Position {
    let mut position = Position::new(size, first);
    for _ in 0..plies {
        if position.winner().is_some() {
            break;
        }
        let Some(edge) = position.resistors().choose(rng) else {
            break;
        };
        if position.play_edge(edge).is_err() {
            break;
        }
    }
    position
}

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
