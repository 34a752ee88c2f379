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

impl Reduced {
    /// Which resistors lie on some simple path between the terminals: the block (the
    /// biconnected component) of the graph plus a virtual terminal-to-terminal edge that
    /// holds that edge. Only these matter to either side: a circuit of the two-forest
    /// matroid through the terminals' edge lies in one block, and a move elsewhere is a
    /// pass. Found by Tarjan's low-point search over edge ids (parallel edges count).
    pub fn relevant(&self) -> Vec<bool> {
        let n = self.vertices;
        let m = self.resistors.len();
        // Element m is the virtual edge between the terminals.
        let ends = |e: usize| {
            if e == m {
                self.terminals
            } else {
                self.resistors[e].1
            }
        };
        // Adjacency lists in one buffer: vertex v's are `slots[start[v]..start[v + 1]]`.
        let mut start = vec![0usize; n + 1];
        for e in 0..=m {
            let [a, b] = ends(e).map(|v| v as usize);
            if a != b {
                start[a + 1] += 1;
                start[b + 1] += 1;
            }
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut next = start.clone();
        let mut slots = vec![(0usize, 0usize); start[n]];
        for e in 0..=m {
            let [a, b] = ends(e).map(|v| v as usize);
            if a != b {
                for (v, w) in [(a, b), (b, a)] {
                    slots[next[v]] = (w, e);
                    next[v] += 1;
                }
            }
        }
        let adj = |v: usize| &slots[start[v]..start[v + 1]];
        let mut relevant = vec![false; m];
        let [s, _] = self.terminals.map(|v| v as usize);
        if self.terminals[0] == self.terminals[1] {
            return relevant;
        }
        let mut disc = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut clock = 0;
        let mut edges: Vec<usize> = Vec::new();
        // Frames: vertex, the edge it was entered by, next adjacency index.
        let mut stack: Vec<(usize, usize, usize)> = vec![(s, usize::MAX, 0)];
        disc[s] = clock;
        low[s] = clock;
        clock += 1;
        while let Some(&mut (v, via, ref mut k)) = stack.last_mut() {
            if let Some(&(w, e)) = adj(v).get(*k) {
                *k += 1;
                if e == via {
                    continue;
                }
                if disc[w] == usize::MAX {
                    edges.push(e);
                    disc[w] = clock;
                    low[w] = clock;
                    clock += 1;
                    stack.push((w, e, 0));
                } else if disc[w] < disc[v] {
                    edges.push(e);
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                stack.pop();
                if let Some(&(u, _, _)) = stack.last() {
                    low[u] = low[u].min(low[v]);
                    if low[v] >= disc[u] {
                        // `u` separates the block entered by `via`: pop its edges.
                        let mut block = Vec::new();
                        while let Some(e) = edges.pop() {
                            block.push(e);
                            if e == via {
                                break;
                            }
                        }
                        if block.contains(&m) {
                            for e in block {
                                if e < m {
                                    relevant[e] = true;
                                }
                            }
                        }
                    }
                }
            }
        }
        relevant
    }
}
