//! Steane's sieve (section 3.1): conditions every graph must meet, with its terminals, to
//! carry a minimal weak link, so that the search solves only the few pairs left.
//!
//! Each [`Condition`] is necessary, never sufficient, and holds for links of five vertices or
//! more (W1, on three, breaks several; four vertices carry none); smaller graphs are searched
//! whole. Each cites its source. The seed's text lost the paper's equations (1)-(13), the
//! degree bounds of theorems 1-3, so those bounds are not used; the conditions here are the
//! ones whose statement survives, plus the dead-vertex rules they rest on. The tests check
//! each condition against a search with no sieve at all on every graph of up to 8 vertices.

use super::{Link, Set, bits, reach};
use crate::link::MAX_VERTICES;

/// A graph of at most [`MAX_VERTICES`] vertices as adjacency masks, with what the
/// conditions ask of it computed once.
#[derive(Clone, Debug)]
pub struct Shape {
    n: usize,
    adjacency: [Set; MAX_VERTICES],
    /// Vertices with no edge among their neighbours.
    triangle_free: Set,
    /// Vertices of degree 1.
    pendants: Set,
}

impl Shape {
    /// The shape of the graph with these adjacency masks.
    pub fn new(adjacency: &[Set]) -> Shape {
        let n = adjacency.len();
        assert!(n <= MAX_VERTICES, "{n} vertices: at most {MAX_VERTICES}");
        let mut adj = [0; MAX_VERTICES];
        adj[..n].copy_from_slice(adjacency);
        let mut triangle_free = 0;
        let mut pendants = 0;
        for v in 0..n {
            let around = adj[v];
            if bits(around).all(|u| adj[u] & around == 0) {
                triangle_free |= 1 << v;
            }
            if around.count_ones() == 1 {
                pendants |= 1 << v;
            }
        }
        Shape {
            n,
            adjacency: adj,
            triangle_free,
            pendants,
        }
    }

    /// The shape of a link's graph.
    pub fn of(link: &Link) -> Shape {
        let adjacency: Vec<Set> = (0..link.vertices()).map(|v| link.neighbours(v)).collect();
        Shape::new(&adjacency)
    }

    /// The number of vertices.
    pub fn vertices(&self) -> usize {
        self.n
    }

    /// The adjacency masks.
    pub fn adjacency(&self) -> &[Set] {
        &self.adjacency[..self.n]
    }

    fn all(&self) -> Set {
        if self.n == 32 {
            Set::MAX
        } else {
            (1 << self.n) - 1
        }
    }

    fn degree(&self, v: usize) -> u32 {
        self.adjacency[v].count_ones()
    }

    /// Whether the graph less the vertices of `removed` is connected (true when empty).
    fn connected_without(&self, removed: Set) -> bool {
        let keep = self.all() & !removed;
        if keep == 0 {
            return true;
        }
        let seen = reach(self.adjacency(), keep.trailing_zeros() as usize, keep);
        seen == keep
    }

    /// The cut vertices (articulation points).
    fn cut_vertices(&self) -> Set {
        (0..self.n)
            .filter(|&v| !self.connected_without(1 << v))
            .fold(0, |m, v| m | 1 << v)
    }
}

/// One condition of the sieve. Graph conditions hold of the graph whatever its terminals;
/// pair conditions of the graph with a pair of terminals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    /// At most one vertex of degree 1 (lemma 2).
    OnePendant,
    /// At least three triangle-free vertices: two terminals and a pivot (sieve 5).
    ThreeTriangleFree,
    /// A pendant's neighbour is triangle-free and of degree at least 3 (sieve 7).
    PendantNeighbour,
    /// No vertex of degree 2 or more has a clique for neighbourhood: such a vertex is dead
    /// unless it is a terminal, and terminals are triangle-free (lemma 3's proof, TSD.13).
    NoSimplicial,
    /// At most one cut vertex (theorem 4).
    OneCutVertex,
    /// The terminals are not adjacent (the link would be strong) and have no common
    /// neighbour (it would contain W1) (theorem 1's proof).
    TerminalsApart,
    /// Both terminals are triangle-free: an edge across a terminal is dead (TSD.15).
    TerminalsTriangleFree,
    /// A pendant is a terminal, and not both terminals are pendants (lemma 2).
    PendantIsTerminal,
    /// No vertex is surrounded by a terminal (its neighbours all the terminal or the
    /// terminal's neighbours), which would make it dead (TSD.16).
    NothingSurrounded,
    /// No two adjacent non-terminal vertices of degree 2: such a pair threaten each other and
    /// are lost (sieve 11 and 14).
    NoLostPair,
    /// A cut vertex separates the terminals: a leaf block without a terminal is dead
    /// (theorem 4's proof).
    CutSeparates,
    /// From six vertices on, no neighbour of one terminal has two neighbours next to the
    /// other: the link would contain W3 (sieve 13, theorem 2's proof).
    NoW3,
    /// The centre (vertices next to neither terminal) has at least one vertex from six
    /// vertices on, two from eight on (theorem 1; the proofs exclude W3, then the W5 links,
    /// so they hold from weights 4 and 6).
    CentreSize,
    /// From six vertices on, a border vertex (next to a terminal) has degree at most c + 2,
    /// c the centre's size: its terminal, one vertex of the other border, the centre
    /// (theorem 2's first bound; the tighter c + 1 is proved in the paper's appendix for
    /// weights the seed's text no longer shows, so it is not used).
    BorderDegree,
    /// Some non-terminal vertex can be a pivot: triangle-free, and the pendant terminal's
    /// neighbour if there is one (sieve 12, lemma 5).
    CandidatePivot,
}

impl Condition {
    /// The graph conditions, cheapest first.
    pub const GRAPH: [Condition; 5] = [
        Condition::OnePendant,
        Condition::ThreeTriangleFree,
        Condition::PendantNeighbour,
        Condition::NoSimplicial,
        Condition::OneCutVertex,
    ];

    /// The pair conditions, cheapest first.
    pub const PAIR: [Condition; 10] = [
        Condition::TerminalsApart,
        Condition::TerminalsTriangleFree,
        Condition::PendantIsTerminal,
        Condition::CentreSize,
        Condition::BorderDegree,
        Condition::NothingSurrounded,
        Condition::NoLostPair,
        Condition::NoW3,
        Condition::CandidatePivot,
        Condition::CutSeparates,
    ];

    /// Whether this graph condition holds.
    ///
    /// # Panics
    /// For a pair condition.
    pub fn holds_for_graph(self, shape: &Shape) -> bool {
        let n = shape.n;
        match self {
            Condition::OnePendant => shape.pendants.count_ones() <= 1,
            Condition::ThreeTriangleFree => shape.triangle_free.count_ones() >= 3,
            Condition::PendantNeighbour => bits(shape.pendants).all(|p| {
                let q = shape.adjacency[p].trailing_zeros() as usize;
                shape.triangle_free >> q & 1 == 1 && shape.degree(q) >= 3
            }),
            Condition::NoSimplicial => (0..n).all(|v| {
                shape.degree(v) < 2 || {
                    let around = shape.adjacency[v];
                    !bits(around).all(|u| (shape.adjacency[u] | 1 << u) & around == around)
                }
            }),
            Condition::OneCutVertex => shape.cut_vertices().count_ones() <= 1,
            _ => panic!("{self:?} is a pair condition"),
        }
    }

    /// Whether this pair condition holds with terminals `s` and `t`.
    ///
    /// # Panics
    /// For a graph condition.
    pub fn holds_for_pair(self, shape: &Shape, [s, t]: [usize; 2]) -> bool {
        let adj = &shape.adjacency;
        let terminals: Set = 1 << s | 1 << t;
        let others = shape.all() & !terminals;
        match self {
            Condition::TerminalsApart => adj[s] >> t & 1 == 0 && adj[s] & adj[t] == 0,
            Condition::TerminalsTriangleFree => shape.triangle_free & terminals == terminals,
            Condition::PendantIsTerminal => {
                shape.pendants & others == 0 && shape.pendants & terminals != terminals
            }
            Condition::NothingSurrounded => {
                bits(others).all(|v| [s, t].iter().all(|&x| adj[v] & !(adj[x] | 1 << x) != 0))
            }
            Condition::NoLostPair => {
                let two = bits(others)
                    .filter(|&v| shape.degree(v) == 2)
                    .fold(0, |m: Set, v| m | 1 << v);
                bits(two).all(|v| adj[v] & two == 0)
            }
            Condition::CutSeparates => {
                let cut = shape.cut_vertices();
                bits(cut).all(|c| {
                    c != s && c != t && {
                        // s and t in different components of the graph less c, and only two.
                        let keep = shape.all() & !(1 << c);
                        let from_s = reach(adj, s, keep);
                        from_s >> t & 1 == 0 && from_s | reach(adj, t, keep) == keep
                    }
                })
            }
            Condition::NoW3 => {
                shape.n < 6
                    || [(s, t), (t, s)]
                        .iter()
                        .all(|&(a, b)| bits(adj[a]).all(|u| (adj[u] & adj[b]).count_ones() <= 1))
            }
            Condition::CentreSize => {
                let centre = (others & !adj[s] & !adj[t]).count_ones();
                let least = match shape.n {
                    ..6 => 0,
                    6 | 7 => 1,
                    _ => 2,
                };
                centre >= least
            }
            Condition::BorderDegree => {
                let centre = (others & !adj[s] & !adj[t]).count_ones();
                shape.n < 6 || bits(adj[s] | adj[t]).all(|v| shape.degree(v) <= centre + 2)
            }
            Condition::CandidatePivot => {
                let pendant_terminal = shape.pendants & terminals;
                if pendant_terminal != 0 {
                    let p = pendant_terminal.trailing_zeros() as usize;
                    adj[p] & shape.triangle_free != 0
                } else {
                    shape.triangle_free & others != 0
                }
            }
            _ => panic!("{self:?} is a graph condition"),
        }
    }
}

/// The terminal pairs `[s, t]`, `s < t`, that pass the whole sieve: none when a graph
/// condition fails. Graphs of fewer than five vertices are not sieved: every pair.
pub fn candidate_pairs(shape: &Shape) -> Vec<[usize; 2]> {
    let n = shape.n;
    let pairs = (0..n).flat_map(|s| (s + 1..n).map(move |t| [s, t]));
    if n < 5 {
        return pairs.collect();
    }
    let cheap = &Condition::GRAPH[..Condition::GRAPH.len() - 1];
    if !cheap.iter().all(|c| c.holds_for_graph(shape)) {
        return Vec::new();
    }
    let (last, early) = Condition::PAIR.split_last().expect("conditions");
    // Only pairs of triangle-free vertices can pass `TerminalsTriangleFree`: drawn from those
    // alone (in the same order), the other pairs are never looked at.
    let free = shape.triangle_free;
    let survivors: Vec<[usize; 2]> = bits(free)
        .flat_map(|s| bits(free & !(Set::MAX >> (31 - s))).map(move |t| [s, t]))
        .filter(|&pair| early.iter().all(|c| c.holds_for_pair(shape, pair)))
        .collect();
    if survivors.is_empty() || !Condition::OneCutVertex.holds_for_graph(shape) {
        return Vec::new();
    }
    survivors
        .into_iter()
        .filter(|&pair| last.holds_for_pair(shape, pair))
        .collect()
}
