//! Links: the **vertex** Shannon game, as Steane studies it ("Minimal and irreducible links in
//! the Shannon game", the seed `004_…`).
//!
//! Players claim vertices, not edges. Short owns the two terminals from the start and wins
//! when his vertices join them by a path; Cut deletes the vertices he claims and wins when no
//! path is left. A game with its terminals is a *link*:
//!
//! - **strong** when Short wins moving second;
//! - **weak** when Short wins moving first but not second;
//! - **none** when Short loses even moving first.
//!
//! A *pivot* of a weak link is a vertex whose shorting makes it strong: Short's winning
//! first moves. A link is *minimal* when deleting any one edge weakens it.
//!
//! - [`solve`]: the solver, negamax over (Short's set, Cut's set) with a memo;
//! - [`minimax`]: plain minimax with no memo and no early end, the solver's reference;
//! - [`sieve`]: the paper's conditions that rule out graphs with no minimal weak link;
//! - [`reduce`]: Steane's S- and T-reductions.
//!
//! ```
//! use switching::graph6::SimpleGraph;
//! use switching::link::{Link, Strength};
//! // W1: a path of three vertices between its ends, the smallest weak link.
//! let w1 = Link::new(&"BW".parse::<SimpleGraph>().unwrap(), [0, 1]).unwrap();
//! assert_eq!(w1.strength(), Strength::Weak);
//! assert_eq!(w1.pivots(), vec![2]);
//! assert!(w1.is_minimal());
//! ```

pub mod minimax;
pub mod reduce;
pub mod sieve;
pub mod solve;

use std::fmt;

use crate::graph::Graph;
use crate::graph6::SimpleGraph;

/// The most vertices a [`Link`] holds: vertex sets are 32-bit masks.
pub const MAX_VERTICES: usize = 32;

/// The most play-area vertices the solver takes on (3^k positions at worst).
pub const MAX_PLAY: usize = 24;

/// A set of vertices, bit `v` for vertex `v`.
pub type Set = u32;

/// Who wins a link, moving first and moving second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// Short loses even moving first.
    None,
    /// Short wins moving first, loses moving second.
    Weak,
    /// Short wins moving second (so also first).
    Strong,
}

impl Strength {
    /// `none`, `weak` or `strong`.
    pub fn as_str(self) -> &'static str {
        match self {
            Strength::None => "none",
            Strength::Weak => "weak",
            Strength::Strong => "strong",
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a graph is not a link the solver takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Too many vertices for the sets.
    #[error("{0} vertices: links hold at most {MAX_VERTICES}")]
    TooManyVertices(usize),
    /// Too large a play area to solve by search.
    #[error("{0} vertices besides the terminals: the solver takes at most {MAX_PLAY}")]
    TooManyPlay(usize),
    /// A terminal outside the graph.
    #[error("terminal {0} is not a vertex (the graph has vertices 0..{1})")]
    NoSuchTerminal(usize, usize),
    /// Both terminals are one vertex.
    #[error("the terminals are the same vertex {0}")]
    SameTerminals(usize),
    /// The vertex game is played on a simple graph.
    #[error(
        "edges {0} and {1} join the same two vertices: the vertex game is played on a simple graph"
    )]
    Parallel(String, String),
}

/// A simple graph of at most [`MAX_VERTICES`] vertices with two terminals, as adjacency
/// masks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Link {
    adjacency: Vec<Set>,
    terminals: [usize; 2],
}

impl Link {
    /// The link on `graph` between `terminals`.
    pub fn new(graph: &SimpleGraph, terminals: [usize; 2]) -> Result<Link, LinkError> {
        Link::from_edges(graph.vertices(), graph.edges(), terminals)
    }

    /// The link on `vertices` vertices with these edges (distinct, no loops) between
    /// `terminals`.
    pub fn from_edges(
        vertices: usize,
        edges: &[[usize; 2]],
        terminals: [usize; 2],
    ) -> Result<Link, LinkError> {
        if vertices > MAX_VERTICES {
            return Err(LinkError::TooManyVertices(vertices));
        }
        if vertices.saturating_sub(2) > MAX_PLAY {
            return Err(LinkError::TooManyPlay(vertices - 2));
        }
        for t in terminals {
            if t >= vertices {
                return Err(LinkError::NoSuchTerminal(t, vertices));
            }
        }
        if terminals[0] == terminals[1] {
            return Err(LinkError::SameTerminals(terminals[0]));
        }
        let mut adjacency = vec![0; vertices];
        for &[u, v] in edges {
            adjacency[u] |= 1 << v;
            adjacency[v] |= 1 << u;
        }
        Ok(Link {
            adjacency,
            terminals,
        })
    }

    /// The link on the graph with these adjacency masks (symmetric, no loops) between
    /// `terminals`.
    pub fn from_adjacency(adjacency: &[Set], terminals: [usize; 2]) -> Result<Link, LinkError> {
        let n = adjacency.len();
        let edges: Vec<[usize; 2]> = (0..n)
            .flat_map(|v| {
                (0..v)
                    .filter(move |&u| adjacency[v] >> u & 1 == 1)
                    .map(move |u| [u, v])
            })
            .collect();
        Link::from_edges(n, &edges, terminals)
    }

    /// The link on a board read from a graph file: its vertices in file order, its
    /// terminals. Refuses parallel edges, which the vertex game has no use for.
    pub fn from_graph(graph: &Graph) -> Result<Link, LinkError> {
        let mut seen = std::collections::HashMap::new();
        let mut edges = Vec::new();
        for edge in graph.edges() {
            let [a, b] = edge.ends;
            let key = [a.min(b), a.max(b)];
            if let Some(first) = seen.insert(key, &edge.name) {
                return Err(LinkError::Parallel(first.clone(), edge.name.clone()));
            }
            edges.push(key);
        }
        Link::from_edges(graph.vertices().len(), &edges, graph.terminals())
    }

    /// The number of vertices, terminals included.
    pub fn vertices(&self) -> usize {
        self.adjacency.len()
    }

    /// The two terminals.
    pub fn terminals(&self) -> [usize; 2] {
        self.terminals
    }

    /// The neighbours of `v`.
    pub fn neighbours(&self, v: usize) -> Set {
        self.adjacency[v]
    }

    /// The degree of `v`.
    pub fn degree(&self, v: usize) -> u32 {
        self.adjacency[v].count_ones()
    }

    /// Every vertex.
    pub fn all(&self) -> Set {
        if self.vertices() == 32 {
            Set::MAX
        } else {
            (1 << self.vertices()) - 1
        }
    }

    /// The play area: every vertex but the terminals.
    pub fn play_area(&self) -> Set {
        self.all() & !(1 << self.terminals[0]) & !(1 << self.terminals[1])
    }

    /// The edges `[u, v]`, `u < v`, by `v` then `u` (graph6's order).
    pub fn edges(&self) -> Vec<[usize; 2]> {
        (0..self.vertices())
            .flat_map(|v| {
                (0..v)
                    .filter(move |&u| self.adjacency[v] >> u & 1 == 1)
                    .map(move |u| [u, v])
            })
            .collect()
    }

    /// The same link without the edge `u`–`v`.
    pub fn without_edge(&self, [u, v]: [usize; 2]) -> Link {
        let mut out = self.clone();
        out.adjacency[u] &= !(1 << v);
        out.adjacency[v] &= !(1 << u);
        out
    }

    /// The simple graph under the link.
    pub fn graph(&self) -> SimpleGraph {
        SimpleGraph::new(self.vertices(), self.edges()).expect("a link's edges are simple")
    }

    /// The adjacency masks, by vertex.
    pub fn adjacency(&self) -> &[Set] {
        &self.adjacency
    }

    /// Whether the first terminal reaches the second through vertices of `through`.
    pub fn joined(&self, through: Set) -> bool {
        let [s, t] = self.terminals;
        reach(&self.adjacency, s, through | 1 << t) >> t & 1 == 1
    }

    /// Who wins: strong, weak or none.
    pub fn strength(&self) -> Strength {
        solve::Solver::new(self).strength()
    }

    /// Short's winning first moves, in vertex order: the pivots when the link is weak,
    /// every free vertex when it is strong (so a strong link has no pivots in the paper's
    /// sense; [`Link::pivots`] returns none for it).
    pub fn winning_first_moves(&self) -> Vec<usize> {
        solve::Solver::new(self).winning_first_moves()
    }

    /// The pivots of a weak link (vertices whose shorting makes it strong); none otherwise.
    pub fn pivots(&self) -> Vec<usize> {
        let mut solver = solve::Solver::new(self);
        if solver.strength() == Strength::Weak {
            solver.winning_first_moves()
        } else {
            Vec::new()
        }
    }

    /// Whether deleting any one edge weakens the link (strong to weak or none, weak to
    /// none). A link that is none is not minimal.
    pub fn is_minimal(&self) -> bool {
        let strength = self.strength();
        strength != Strength::None && self.is_minimal_at(strength)
    }

    /// [`Link::is_minimal`] for a link already known to have `strength`.
    pub fn is_minimal_at(&self, strength: Strength) -> bool {
        self.edges().into_iter().all(|e| {
            let smaller = self.without_edge(e);
            match strength {
                Strength::Strong => !solve::Solver::new(&smaller).short_wins(false),
                Strength::Weak => !solve::Solver::new(&smaller).short_wins(true),
                Strength::None => false,
            }
        })
    }
}

/// The vertices `from` reaches through vertices of `allowed` (itself included).
pub fn reach(adjacency: &[Set], from: usize, allowed: Set) -> Set {
    let mut seen: Set = 1 << from;
    let mut frontier = seen;
    while frontier != 0 {
        let v = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = adjacency[v] & allowed & !seen;
        seen |= new;
        frontier |= new;
    }
    seen
}

/// The vertices of a set, in increasing order.
pub fn bits(mut set: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let v = set.trailing_zeros() as usize;
            set &= set - 1;
            v
        })
    })
}
