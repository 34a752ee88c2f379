//! A graph with two terminals: the board of the Shannon switching game.
//!
//! Vertices and edges are numbered in the order they first appear in the file; that order
//! is the order of ties everywhere (the heuristic, the lists of winning moves). Parallel
//! edges are allowed (they are what the game's positions reduce to); loops are not.

use std::collections::HashMap;
use std::fmt;

use heuristic::Size;

/// A vertex, numbered from 0 in order of first appearance.
pub type Vertex = usize;

/// One edge of a [`Graph`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GraphEdge {
    /// The edge's name, unique in its graph: as written, or `u-v` (`u-v#2`, … for copies).
    pub name: String,
    /// Its two distinct ends.
    pub ends: [Vertex; 2],
}

/// A connected board: named vertices, named edges, and the two terminals Short joins.
///
/// Built only by [`Graph::parse`](crate::file), [`Graph::cage`] or [`Graph::new`], which
/// check it, so every `Graph` has distinct terminals that its edges join.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    vertices: Vec<String>,
    edges: Vec<GraphEdge>,
    terminals: [Vertex; 2],
    by_name: HashMap<String, usize>,
}

/// Why a list of vertices, edges and terminals is not a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// An edge joins a vertex to itself.
    #[error("edge {name} is a loop at {vertex}: an edge must join two different vertices")]
    Loop {
        /// The edge.
        name: String,
        /// Its one vertex.
        vertex: String,
    },
    /// Two edges have the same name.
    #[error("edge name {0} is used twice")]
    DuplicateName(String),
    /// A name that a record could not hold.
    #[error(
        "name {0:?} is not a token: names are non-empty, without spaces, control characters, \
         commas or '#'"
    )]
    BadName(String),
    /// A name longer than [`MAX_NAME`] characters (the name itself is not repeated).
    #[error("a name of {0} characters: names are at most {max} characters", max = MAX_NAME)]
    NameTooLong(usize),
    /// The two terminals are one vertex.
    #[error("the terminals are the same vertex {0}")]
    SameTerminals(String),
    /// A terminal no edge touches.
    #[error("terminal {0} is on no edge")]
    UnknownTerminal(String),
    /// No path joins the terminals even before a move.
    #[error("terminals {0} and {1} are not connected: Cut would have won before a move")]
    Disconnected(String, String),
    /// More vertices or edges than a game can count.
    #[error("{0} edges: at most {max} are supported", max = MAX_EDGES)]
    TooLarge(usize),
}

/// The most edges a graph may have: vertex and edge indices are stored in 32 bits, and
/// records are lists a person reads.
pub const MAX_EDGES: usize = 1 << 20;

/// The longest vertex or edge name a graph takes, in characters: names are read in records
/// and lined up in tables, not stored text. A default name `u-v#k` may be longer (it is
/// built from two names).
pub const MAX_NAME: usize = 64;

/// Whether `name` can be written in a graph file and a record.
pub(crate) fn is_token(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(|c: char| c.is_whitespace() || c.is_control() || c == ',' || c == '#')
}

/// Checks a written name: not too long (checked first, so that a long name is never
/// repeated in an error), and a token.
pub(crate) fn check_name(name: &str) -> Result<(), GraphError> {
    // At most 4 bytes a character: a short string needs no count.
    if name.len() > MAX_NAME && name.chars().count() > MAX_NAME {
        return Err(GraphError::NameTooLong(name.chars().count()));
    }
    if !is_token(name) {
        return Err(GraphError::BadName(name.to_owned()));
    }
    Ok(())
}

impl Graph {
    /// Checks and builds a board. `edges` are `(u, v, name)` with vertex names; an edge
    /// without a name is named `u-v`, or `u-v#k` with the smallest free k ≥ 2.
    ///
    /// ```
    /// let g = switching::Graph::new(
    ///     ("s", "t"),
    ///     [("s", "a", None), ("a", "t", None), ("s", "t", Some("direct")), ("s", "a", None)],
    /// )
    /// .unwrap();
    /// let names: Vec<_> = g.edges().iter().map(|e| e.name.as_str()).collect();
    /// assert_eq!(names, ["s-a", "a-t", "direct", "s-a#2"]);
    /// ```
    pub fn new<'a>(
        terminals: (&str, &str),
        edges: impl IntoIterator<Item = (&'a str, &'a str, Option<&'a str>)>,
    ) -> Result<Graph, GraphError> {
        let mut builder = Builder::default();
        for (u, v, name) in edges {
            builder.edge(u, v, name)?;
        }
        builder.finish(terminals.0, terminals.1)
    }

    /// The bird cage of size M: vertices named as [`heuristic::Node`] prints them (`Q`,
    /// `0`, `A4`, …), edges as squares in reading order, terminals `Q` and `0`. Edge i is
    /// the cage's edge with reading-order index i, so records and ties carry over.
    ///
    /// ```
    /// let g = switching::Graph::cage(heuristic::Size::new(3).unwrap());
    /// assert_eq!(g.edges().len(), 13);
    /// assert_eq!(g.edges()[0].name, "A5");
    /// assert_eq!(g.terminal_names(), ["Q", "0"]);
    /// ```
    pub fn cage(size: Size) -> Graph {
        Graph::cage_of(size.get())
    }

    /// The bird cage (Gale's board) of any size from 2 to 13, past what the firmware's
    /// [`Size`] holds; the same graph as [`Graph::cage`] where both exist.
    ///
    /// ```
    /// assert_eq!(switching::Graph::cage_of(10).edges().len(), 181);
    /// ```
    pub fn cage_of(m: u8) -> Graph {
        let names: Vec<[String; 3]> = heuristic::cage_edges(m)
            .map(|(edge, a, b)| [a.to_string(), b.to_string(), edge.to_string()])
            .collect();
        Graph::new(
            ("Q", "0"),
            names
                .iter()
                .map(|[a, b, e]| (a.as_str(), b.as_str(), Some(e.as_str()))),
        )
        .expect("the bird cage is a board")
    }

    /// Vertex names, by index.
    pub fn vertices(&self) -> &[String] {
        &self.vertices
    }

    /// Edges in file order.
    pub fn edges(&self) -> &[GraphEdge] {
        &self.edges
    }

    /// The two terminals (as written in the file).
    pub fn terminals(&self) -> [Vertex; 2] {
        self.terminals
    }

    /// The terminals' names.
    pub fn terminal_names(&self) -> [&str; 2] {
        self.terminals.map(|t| self.vertices[t].as_str())
    }

    /// The index of the edge called `name`.
    pub fn edge_named(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The edge a person means by `name`: the edge of that exact name, or else the one
    /// edge whose name differs only in case (so that `c5`, a move of Short's in the cage's
    /// records, names the cage graph's edge `C5`). `None` when no edge or several match.
    ///
    /// ```
    /// let g: switching::Graph = "terminals s t\ns t A\ns t a\ns t B".parse().unwrap();
    /// assert_eq!(g.find_edge("a"), Some(1));
    /// assert_eq!(g.find_edge("b"), Some(2));
    /// assert_eq!(g.find_edge("c"), None);
    /// ```
    pub fn find_edge(&self, name: &str) -> Option<usize> {
        if let Some(e) = self.edge_named(name) {
            return Some(e);
        }
        let mut matches = self
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.name.eq_ignore_ascii_case(name))
            .map(|(i, _)| i);
        match (matches.next(), matches.next()) {
            (Some(e), None) => Some(e),
            _ => None,
        }
    }
}

/// Collects vertices and edges in order, naming and checking as it goes.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    vertices: Vec<String>,
    vertex: HashMap<String, Vertex>,
    edges: Vec<GraphEdge>,
    by_name: HashMap<String, usize>,
    /// For each default name `u-v` taken, the smallest k that `u-v#k` might still be free at.
    next_copy: HashMap<String, usize>,
}

impl Builder {
    fn vertex(&mut self, name: &str) -> Result<Vertex, GraphError> {
        if let Some(&v) = self.vertex.get(name) {
            return Ok(v);
        }
        check_name(name)?;
        self.vertices.push(name.to_owned());
        self.vertex.insert(name.to_owned(), self.vertices.len() - 1);
        Ok(self.vertices.len() - 1)
    }

    /// The name an unnamed edge from `u` to `v` gets now: `u-v`, or `u-v#k` with the
    /// smallest free k ≥ 2. Names are only ever added, so the smallest free k of a base
    /// never decreases: the search resumes where the last one for that base stopped, and
    /// n copies of one edge cost O(n) probes in all, not O(n²).
    pub(crate) fn default_name(&mut self, u: &str, v: &str) -> String {
        let base = format!("{u}-{v}");
        if !self.by_name.contains_key(&base) {
            return base;
        }
        let from = self.next_copy.get(&base).copied().unwrap_or(2);
        let (k, name) = (from..)
            .map(|k| (k, format!("{base}#{k}")))
            .find(|(_, n)| !self.by_name.contains_key(n))
            .expect("a free name");
        self.next_copy.insert(base, k);
        name
    }

    pub(crate) fn edge(&mut self, u: &str, v: &str, name: Option<&str>) -> Result<(), GraphError> {
        if self.edges.len() == MAX_EDGES {
            return Err(GraphError::TooLarge(MAX_EDGES + 1));
        }
        check_name(u)?;
        check_name(v)?;
        let name = match name {
            Some(n) => {
                check_name(n)?;
                n.to_owned()
            }
            None => self.default_name(u, v),
        };
        if u == v {
            return Err(GraphError::Loop {
                name,
                vertex: u.to_owned(),
            });
        }
        if self.by_name.contains_key(&name) {
            return Err(GraphError::DuplicateName(name));
        }
        let ends = [self.vertex(u)?, self.vertex(v)?];
        self.by_name.insert(name.clone(), self.edges.len());
        self.edges.push(GraphEdge { name, ends });
        Ok(())
    }

    pub(crate) fn finish(self, s: &str, t: &str) -> Result<Graph, GraphError> {
        check_name(s)?;
        check_name(t)?;
        if s == t {
            return Err(GraphError::SameTerminals(s.to_owned()));
        }
        let find = |name: &str| {
            self.vertex
                .get(name)
                .copied()
                .ok_or_else(|| GraphError::UnknownTerminal(name.to_owned()))
        };
        let terminals = [find(s)?, find(t)?];
        let mut sets = petgraph::unionfind::UnionFind::new(self.vertices.len());
        for e in &self.edges {
            sets.union(e.ends[0], e.ends[1]);
        }
        if !sets.equiv(terminals[0], terminals[1]) {
            return Err(GraphError::Disconnected(s.to_owned(), t.to_owned()));
        }
        Ok(Graph {
            vertices: self.vertices,
            edges: self.edges,
            terminals,
            by_name: self.by_name,
        })
    }
}

/// The graph in the file format ([`crate::file`]): it reads back as the same graph.
/// Names that the file would give anyway are left out.
impl fmt::Display for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [s, t] = self.terminal_names();
        writeln!(f, "terminals {s} {t}")?;
        let mut names = Builder::default();
        for e in &self.edges {
            let [u, v] = e.ends.map(|x| self.vertices[x].as_str());
            if names.default_name(u, v) == e.name {
                writeln!(f, "{u} {v}")?;
            } else {
                writeln!(f, "{u} {v} {}", e.name)?;
            }
            names
                .edge(u, v, Some(&e.name))
                .or_else(|_| names.edge(u, v, None))
                .expect("names of a graph are unique");
        }
        Ok(())
    }
}
