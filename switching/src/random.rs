//! Seeded random boards: connected multigraphs for the tests and the benches, and the
//! families the heuristic study samples.

use heuristic::{Position, Side, Size};
use rand::Rng;
use rand::seq::{IteratorRandom, SliceRandom};

use crate::graph::Graph;

/// A connected multigraph on `vertices` vertices (named `v0`, `v1`, …) with `edges`
/// edges: a random spanning tree, then random extra edges (parallel ones allowed), shuffled
/// so that the tree is not first in file order; terminals `v0` and a random other vertex.
/// Needs `vertices >= 2` and `edges >= vertices - 1`.
pub fn multigraph<R: Rng>(rng: &mut R, vertices: usize, edges: usize) -> Graph {
    assert!(
        vertices >= 2 && edges + 1 >= vertices,
        "no such connected graph"
    );
    let mut list: Vec<(usize, usize)> =
        (1..vertices).map(|v| (rng.random_range(0..v), v)).collect();
    while list.len() < edges {
        let a = rng.random_range(0..vertices);
        let b = rng.random_range(0..vertices - 1);
        let b = if b >= a { b + 1 } else { b };
        list.push((a, b));
    }
    list.shuffle(rng);
    let names: Vec<String> = (0..vertices).map(|v| format!("v{v}")).collect();
    let t = rng.random_range(1..vertices);
    Graph::new(
        (&names[0], &names[t]),
        list.iter()
            .map(|&(a, b)| (names[a].as_str(), names[b].as_str(), None)),
    )
    .expect("a spanning tree keeps it connected")
}

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
