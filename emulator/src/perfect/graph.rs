//! A position as the game sees it: Short's wires contracted, Cut's gaps deleted, every
//! resistor an edge of a multigraph between the contracted vertices.

use heuristic::{Edge, EdgeState, Node, Position};

/// The reduced multigraph of a position.
///
/// A resistor whose ends the wires already join is a loop here: neither side gains by
/// playing it, and it never enters a forest.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// Vertices after contraction, numbered `0..vertices`.
    pub vertices: usize,
    /// Every resistor in reading order with the vertices it joins.
    pub resistors: Vec<(Edge, [u8; 2])>,
    /// The vertex holding Q.
    pub top: u8,
    /// The vertex holding 0.
    pub bottom: u8,
}

impl Reduced {
    /// Contracts the wires of `position` and keeps its resistors.
    pub fn new(position: &Position) -> Reduced {
        let size = position.size();
        // Union-find over node indices; each group's smallest index is its root.
        let mut parent: Vec<usize> = (0..size.node_count()).collect();
        fn root(parent: &[usize], mut i: usize) -> usize {
            while parent[i] != i {
                i = parent[i];
            }
            i
        }
        for (i, &state) in position.states().iter().enumerate() {
            if state == EdgeState::Short {
                let (a, b) = size.edge_ends(i);
                let (ra, rb) = (root(&parent, a), root(&parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        // Number the groups densely.
        let mut vertex = vec![u8::MAX; size.node_count()];
        let mut vertices = 0;
        for i in 0..size.node_count() {
            let r = root(&parent, i);
            if vertex[r] == u8::MAX {
                vertex[r] = vertices;
                vertices += 1;
            }
            vertex[i] = vertex[r];
        }
        let resistors = position
            .edges()
            .enumerate()
            .filter(|&(_, (_, s))| s == EdgeState::Resistor)
            .map(|(i, (edge, _))| {
                let (a, b) = size.edge_ends(i);
                (edge, [vertex[a], vertex[b]])
            })
            .collect();
        Reduced {
            vertices: usize::from(vertices),
            resistors,
            top: vertex[Node::Top.index(size)],
            bottom: vertex[Node::Bottom.index(size)],
        }
    }
}
