//! The graph file: a board a person can write by hand.
//!
//! ```text
//! # A diamond with a diagonal: Short joins s and t.
//! terminals s t
//! s a
//! s b
//! a b diagonal
//! a t
//! b t
//! ```
//!
//! `#` starts a comment (to the end of the line); blank lines are ignored. One line
//! `terminals S T` names the two terminals; every other line is an edge `u v` or
//! `u v NAME`. Names are tokens of at most 64 characters without spaces, control
//! characters, commas or `#`. An unnamed edge is
//! named `u-v`, and its parallel copies `u-v#2`, `u-v#3`, …

use std::path::{Path, PathBuf};
use std::str::FromStr;

use boards::read::ReadError;

use crate::graph::{Builder, Graph, GraphError};

/// The largest graph file read, 64 MiB: [`MAX_EDGES`](crate::graph::MAX_EDGES) lines of 64 bytes. Names are at
/// most [`MAX_NAME`](crate::MAX_NAME) characters, so a file near the edge limit with long names may be refused
/// for its size first. Past this a file is refused before it is parsed.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A graph file that could not be read or is not a board, with the file's name.
#[derive(Debug, thiserror::Error)]
pub enum ReadGraphError {
    /// Not a regular file, too large, not text, or an I/O error.
    #[error("cannot read graph file {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: ReadError,
    },
    /// The text is not a board.
    #[error("{}: {error}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, and on which line.
        error: ParseGraphError,
    },
}

/// Reads and checks a graph file: a regular file (a FIFO or a device is refused before it
/// is opened) of at most [`MAX_FILE_BYTES`], in time linear in its size.
pub fn read(path: &Path) -> Result<Graph, ReadGraphError> {
    let text = boards::read::text(path, MAX_FILE_BYTES).map_err(|error| ReadGraphError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    text.parse().map_err(|error| ReadGraphError::Parse {
        path: path.to_path_buf(),
        error,
    })
}

/// A graph file that is not a board, with the line that says so.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseGraphError {
    /// A line that is neither `terminals S T` nor an edge.
    #[error(
        "line {line}: {} is not `terminals S T`, `u v` or `u v NAME`",
        heuristic::Echo(text)
    )]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The line, comment removed.
        text: String,
    },
    /// A second `terminals` line.
    #[error("line {line}: a second `terminals` line (the first is line {first})")]
    TerminalsTwice {
        /// 1-based line number.
        line: usize,
        /// Where the first one is.
        first: usize,
    },
    /// No `terminals` line at all.
    #[error("no `terminals S T` line: name the two vertices Short joins")]
    NoTerminals,
    /// No edges at all.
    #[error("no edges: list one edge per line, `u v` or `u v NAME`")]
    NoEdges,
    /// A line that breaks a rule of [`Graph`].
    #[error("line {line}: {error}")]
    Graph {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        error: GraphError,
    },
}

impl ParseGraphError {
    /// The 1-based line at fault, if one is.
    pub fn line(&self) -> Option<usize> {
        match *self {
            ParseGraphError::Syntax { line, .. }
            | ParseGraphError::TerminalsTwice { line, .. }
            | ParseGraphError::Graph { line, .. } => Some(line),
            ParseGraphError::NoTerminals | ParseGraphError::NoEdges => None,
        }
    }
}

impl FromStr for Graph {
    type Err = ParseGraphError;

    /// Reads a graph file.
    ///
    /// ```
    /// let g: switching::Graph = "terminals s t\ns a\na t\ns t\ns t".parse().unwrap();
    /// assert_eq!(g.edges()[3].name, "s-t#2");
    /// let err = "terminals s t\ns s".parse::<switching::Graph>().unwrap_err();
    /// assert_eq!(err.to_string(), "line 2: edge s-s is a loop at s: an edge must join two different vertices");
    /// ```
    fn from_str(text: &str) -> Result<Graph, ParseGraphError> {
        let mut builder = Builder::default();
        let mut terminals: Option<(usize, String, String)> = None;
        let mut edges = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let body = raw.split('#').next().unwrap_or_default();
            let tokens: Vec<&str> = body.split_whitespace().collect();
            match tokens.as_slice() {
                [] => {}
                ["terminals", s, t] => {
                    if let Some((first, ..)) = terminals {
                        return Err(ParseGraphError::TerminalsTwice { line, first });
                    }
                    terminals = Some((line, (*s).to_owned(), (*t).to_owned()));
                }
                ["terminals", ..] => {
                    return Err(ParseGraphError::Syntax {
                        line,
                        text: body.trim().to_owned(),
                    });
                }
                [u, v] | [u, v, _] => {
                    let name = tokens.get(2).copied();
                    builder
                        .edge(u, v, name)
                        .map_err(|error| ParseGraphError::Graph { line, error })?;
                    edges += 1;
                }
                _ => {
                    return Err(ParseGraphError::Syntax {
                        line,
                        text: body.trim().to_owned(),
                    });
                }
            }
        }
        let Some((line, s, t)) = terminals else {
            return Err(ParseGraphError::NoTerminals);
        };
        if edges == 0 {
            return Err(ParseGraphError::NoEdges);
        }
        builder
            .finish(&s, &t)
            .map_err(|error| ParseGraphError::Graph { line, error })
    }
}
