//! graph6, nauty's one-line format for simple undirected graphs, read and written.
//!
//! The format (Brendan McKay, `formats.txt` shipped with nauty): printable bytes 63..=126,
//! each carrying 6 bits (byte − 63). First the vertex count `N(n)`: one byte `n + 63` for
//! `n <= 62`; `126` and three bytes (18 bits, big-endian) for `n <= 258047`; `126 126` and
//! six bytes (36 bits) above. Then the upper triangle of the adjacency matrix in column
//! order, `x(0,1) x(0,2) x(1,2) x(0,3) x(1,3) x(2,3) …`, padded with zeros to a multiple of
//! 6 bits. An optional header `>>graph6<<` may start a file; lines end with a newline.
//!
//! ```
//! use switching::graph6::SimpleGraph;
//! // nauty's example: n = 5, edges 0-2, 0-4, 1-3, 3-4.
//! let g: SimpleGraph = "DQc".parse().unwrap();
//! assert_eq!(g.vertices(), 5);
//! assert_eq!(g.edges(), [[0, 2], [1, 3], [0, 4], [3, 4]]);
//! assert_eq!(g.to_string(), "DQc");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::graph::{Graph, GraphError};

/// The optional header of a graph6 file.
pub const HEADER: &str = ">>graph6<<";

/// The most vertices this reader accepts: the largest count of graph6's 4-byte size form
/// (larger graphs would need gigabytes of adjacency bits).
pub const MAX_VERTICES: usize = 258_047;

/// A simple undirected graph on vertices `0..n`: no loops, no parallel edges.
///
/// Edges are kept as `[u, v]` with `u < v`, in graph6's column order (by `v`, then `u`),
/// so two equal graphs have equal edge lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SimpleGraph {
    vertices: usize,
    edges: Vec<[usize; 2]>,
}

/// A graph6 line, or a list of edges, that is not a simple graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Graph6Error {
    /// Nothing to read.
    #[error("empty graph6 string")]
    Empty,
    /// Another of nauty's formats.
    #[error("this is {0}, not graph6")]
    OtherFormat(&'static str),
    /// A byte outside graph6's range 63..=126.
    #[error(
        "byte {index} ({byte:#04x}) is not a graph6 character: they run from '?' (63) to '~' (126)"
    )]
    BadByte {
        /// 0-based index in the string (after any header).
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// Fewer or more bytes than the vertex count calls for.
    #[error("{vertices} vertices need {expected} bytes of graph6, found {found}")]
    Length {
        /// The vertex count read.
        vertices: usize,
        /// The length the count calls for, the size bytes included.
        expected: usize,
        /// The length of the string.
        found: usize,
    },
    /// The string ends inside the vertex count.
    #[error("the vertex count is cut short: its long form needs {expected} bytes, found {found}")]
    ShortCount {
        /// Bytes the count's form needs.
        expected: usize,
        /// The length of the string.
        found: usize,
    },
    /// The last byte's padding bits are not zero.
    #[error("the padding bits of the last byte are not zero")]
    Padding,
    /// A vertex count graph6 can write but this reader does not hold.
    #[error("{0} vertices: at most {max} are supported", max = MAX_VERTICES)]
    TooLarge(u64),
    /// An edge from a vertex to itself.
    #[error("edge {0}-{0} is a loop: graph6 holds simple graphs")]
    Loop(usize),
    /// An edge to a vertex that is not there.
    #[error("edge {0}-{1} names a vertex outside 0..{2}")]
    OutOfRange(usize, usize, usize),
    /// The same edge twice.
    #[error("edge {0}-{1} is listed twice: graph6 holds simple graphs")]
    Parallel(usize, usize),
}

impl SimpleGraph {
    /// Checks and builds a simple graph on `0..vertices`; edges may come in any order and
    /// either direction.
    ///
    /// ```
    /// use switching::graph6::{Graph6Error, SimpleGraph};
    /// let g = SimpleGraph::new(3, [[2, 0], [0, 1]]).unwrap();
    /// assert_eq!(g.edges(), [[0, 1], [0, 2]]);
    /// assert_eq!(SimpleGraph::new(3, [[0, 1], [1, 0]]), Err(Graph6Error::Parallel(0, 1)));
    /// ```
    pub fn new(
        vertices: usize,
        edges: impl IntoIterator<Item = [usize; 2]>,
    ) -> Result<SimpleGraph, Graph6Error> {
        if vertices > MAX_VERTICES {
            return Err(Graph6Error::TooLarge(vertices as u64));
        }
        let mut list = Vec::new();
        for [a, b] in edges {
            if a >= vertices || b >= vertices {
                return Err(Graph6Error::OutOfRange(a, b, vertices));
            }
            if a == b {
                return Err(Graph6Error::Loop(a));
            }
            list.push([a.min(b), a.max(b)]);
        }
        list.sort_by_key(|&[u, v]| (v, u));
        if let Some(w) = list.windows(2).find(|w| w[0] == w[1]) {
            return Err(Graph6Error::Parallel(w[0][0], w[0][1]));
        }
        Ok(SimpleGraph {
            vertices,
            edges: list,
        })
    }

    /// The number of vertices.
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    /// The edges `[u, v]`, `u < v`, in graph6's column order.
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }

    /// The graph with its vertices renamed: vertex `v` becomes `map[v]` (a permutation of
    /// `0..n`).
    ///
    /// # Panics
    /// If `map` is not a permutation of `0..n`.
    pub fn relabel(&self, map: &[usize]) -> SimpleGraph {
        let mut seen = vec![false; self.vertices];
        assert!(
            map.len() == self.vertices
                && map
                    .iter()
                    .all(|&v| v < self.vertices && !std::mem::replace(&mut seen[v], true)),
            "not a permutation of 0..{}",
            self.vertices
        );
        SimpleGraph::new(self.vertices, self.edges.iter().map(|e| e.map(|v| map[v])))
            .expect("a permutation keeps a simple graph simple")
    }

    /// Whether every vertex is joined to every other by a path (a graph of one vertex is).
    pub fn is_connected(&self) -> bool {
        let mut sets = petgraph::unionfind::UnionFind::new(self.vertices);
        for &[a, b] in &self.edges {
            sets.union(a, b);
        }
        (1..self.vertices).all(|v| sets.equiv(0, v))
    }

    /// The board with vertices named `0`, `1`, … and terminals `s` and `t`; edges in
    /// graph6's column order, named `u-v`.
    ///
    /// ```
    /// let g: switching::graph6::SimpleGraph = "Bw".parse().unwrap(); // the triangle
    /// let board = g.game(0, 1).unwrap();
    /// assert_eq!(board.terminal_names(), ["0", "1"]);
    /// assert_eq!(board.edges().len(), 3);
    /// ```
    pub fn game(&self, s: usize, t: usize) -> Result<Graph, GraphError> {
        let names: Vec<String> = (0..self.vertices).map(|v| v.to_string()).collect();
        let name = |v: usize| names.get(v).map_or("?", String::as_str);
        Graph::new(
            (name(s), name(t)),
            self.edges.iter().map(|&[u, v]| (name(u), name(v), None)),
        )
    }

    /// The graph6 line (without header or newline).
    pub fn to_graph6(&self) -> String {
        let n = self.vertices;
        let mut out = Vec::new();
        if n <= 62 {
            out.push(n as u8 + 63);
        } else {
            out.push(126);
            out.extend((0..3).rev().map(|k| ((n >> (6 * k)) & 63) as u8 + 63));
        }
        let bits = n * n.saturating_sub(1) / 2;
        let mut body = vec![0u8; bits.div_ceil(6)];
        for &[u, v] in &self.edges {
            let i = v * (v - 1) / 2 + u;
            body[i / 6] |= 1 << (5 - i % 6);
        }
        out.extend(body.iter().map(|b| b + 63));
        String::from_utf8(out).expect("graph6 bytes are ASCII")
    }
}

impl fmt::Display for SimpleGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_graph6())
    }
}

impl FromStr for SimpleGraph {
    type Err = Graph6Error;

    /// Reads one graph6 line; a leading `>>graph6<<` and a trailing newline are allowed.
    ///
    /// ```
    /// use switching::graph6::{Graph6Error, SimpleGraph};
    /// assert_eq!("D Q".parse::<SimpleGraph>(), Err(Graph6Error::BadByte { index: 1, byte: b' ' }));
    /// let err = "DQ".parse::<SimpleGraph>().unwrap_err();
    /// assert_eq!(err.to_string(), "5 vertices need 3 bytes of graph6, found 2");
    /// ```
    fn from_str(text: &str) -> Result<SimpleGraph, Graph6Error> {
        let text = text.strip_prefix(HEADER).unwrap_or(text);
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        let bytes = text.as_bytes();
        match bytes.first() {
            None => return Err(Graph6Error::Empty),
            Some(b':') => return Err(Graph6Error::OtherFormat("sparse6")),
            Some(b'&') => return Err(Graph6Error::OtherFormat("digraph6")),
            Some(b'>') if text.starts_with(">>") => {
                return Err(Graph6Error::OtherFormat("a header of another format"));
            }
            Some(_) => {}
        }
        if let Some(index) = bytes.iter().position(|b| !(63..=126).contains(b)) {
            return Err(Graph6Error::BadByte {
                index,
                byte: bytes[index],
            });
        }
        let six = |i: usize| u64::from(bytes[i] - 63);
        let need = |count: usize| {
            if bytes.len() < count {
                Err(Graph6Error::ShortCount {
                    expected: count,
                    found: bytes.len(),
                })
            } else {
                Ok(())
            }
        };
        let (n, start) = if bytes[0] != 126 {
            (six(0), 1)
        } else if bytes.get(1) != Some(&126) {
            need(4)?;
            ((1..4).fold(0, |n, i| n << 6 | six(i)), 4)
        } else {
            need(8)?;
            ((2..8).fold(0, |n, i| n << 6 | six(i)), 8)
        };
        if n > MAX_VERTICES as u64 {
            return Err(Graph6Error::TooLarge(n));
        }
        let n = n as usize;
        let bits = n * n.saturating_sub(1) / 2;
        let expected = start + bits.div_ceil(6);
        if bytes.len() != expected {
            return Err(Graph6Error::Length {
                vertices: n,
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[start..];
        if !bits.is_multiple_of(6) {
            let last = body[body.len() - 1] - 63;
            if last & ((1 << (6 - bits % 6)) - 1) != 0 {
                return Err(Graph6Error::Padding);
            }
        }
        let mut edges = Vec::new();
        let mut i = 0;
        for v in 1..n {
            for u in 0..v {
                if (body[i / 6] - 63) >> (5 - i % 6) & 1 == 1 {
                    edges.push([u, v]);
                }
                i += 1;
            }
        }
        Ok(SimpleGraph { vertices: n, edges })
    }
}
