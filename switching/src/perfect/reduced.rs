//! A position as the game sees it: Short's wires contracted, Cut's gaps deleted, every
//! resistor an edge of a multigraph between the contracted vertices.

use heuristic::EdgeState;
use petgraph::unionfind::UnionFind;

/// The reduced multigraph of a position.
///
/// A resistor whose ends the wires already join is a loop here: neither side gains by
/// playing it, and it never enters a forest.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// Vertices after contraction, numbered `0..vertices`.
    pub vertices: usize,
    /// Every resistor in edge order: its index on the board and the vertices it joins.
    pub resistors: Vec<(usize, [u32; 2])>,
    /// The vertices holding the two terminals.
    pub terminals: [u32; 2],
}

impl Reduced {
    /// Contracts the wires among `edges` (the ends and state of every edge of a board
    /// with `vertices` vertices, in order) and keeps the resistors.
    pub fn new(
        vertices: usize,
        terminals: [usize; 2],
        edges: impl Iterator<Item = ([usize; 2], EdgeState)> + Clone,
    ) -> Reduced {
        let mut wires = UnionFind::<usize>::new(vertices);
        for ([a, b], state) in edges.clone() {
            if state == EdgeState::Short {
                wires.union(a, b);
            }
        }
        // Number the groups densely, in order of their first vertex.
        let mut vertex = vec![u32::MAX; vertices];
        let mut count = 0u32;
        for i in 0..vertices {
            let r = wires.find(i);
            if vertex[r] == u32::MAX {
                vertex[r] = count;
                count += 1;
            }
            vertex[i] = vertex[r];
        }
        let resistors = edges
            .enumerate()
            .filter(|(_, (_, state))| *state == EdgeState::Resistor)
            .map(|(i, ([a, b], _))| (i, [vertex[a], vertex[b]]))
            .collect();
        Reduced {
            vertices: count as usize,
            resistors,
            terminals: terminals.map(|t| vertex[t]),
        }
    }
}
