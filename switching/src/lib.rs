//! The Shannon switching game with no circuit in it: boards, games and perfect play.
//!
//! - [`graph`]: a board, any connected multigraph with two terminals (the bird cage is one:
//!   [`Graph::cage`]);
//! - [`file`]: the graph file a person writes by hand, read and written;
//! - [`play`]: a game in progress on a graph, its records and winner;
//! - [`perfect`]: who wins with perfect play and with which moves (Lehman's theorem by
//!   matroid partition), on the cage and on any graph;
//! - [`random`]: seeded random boards for tests, benches and studies;
//! - [`graph6`]: nauty's graph6 format for simple graphs, read and written;
//! - [`enumerate`]: every game on a few vertices up to isomorphism, from nauty and by
//!   brute force;
//! - [`link`]: the vertex Shannon game and Steane's links, strong and weak, minimal and
//!   reducible;
//! - [`links`]: the search for every minimal weak link on N vertices, in parts;
//! - [`brute`]: minimal links by the rules alone (plain minimax, its own graph6 and
//!   canonical form), sharing no code with the search, to check it and its reports.
//!
//! Rules on the cage and the heuristic come from [`heuristic`]; the resistor networks of
//! these graphs are solved in `emulator`, which is where circuits live.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

pub mod brute;
pub mod enumerate;
pub mod file;
pub mod graph;
pub mod graph6;
pub mod link;
pub mod links;
pub mod perfect;
pub mod play;
pub mod random;

pub use file::{ParseGraphError, ReadGraphError};
pub use graph::{Graph, GraphEdge, GraphError, MAX_NAME, Vertex};
pub use play::{GraphMoveError, GraphRecordError, Play};
