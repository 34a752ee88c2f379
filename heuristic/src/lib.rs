//! Shannon's Bird Cage: the rules and Shannon's largest-drop heuristic, for the firmware
//! and the host alike.
//!
//! `no_std`, no alloc, no unsafe. Every collection has a fixed capacity set by
//! [`MAX_SIZE`], so the same code and the same decisions run on a Cortex-M4F and on a PC.
//!
//! - geometry and notation: [`Size`], [`Edge`], [`Node`], [`Move`];
//! - rules: [`Position`] (legal moves, typed errors, the winner);
//! - game records both ways: [`Record`];
//! - the heuristic over measured node values: [`rank`], [`choose`];
//! - networks: [`Model`], [`Circuit`], the float solver [`solve`], and the
//!   [`Reduction`] that exact solvers build on.
//!
//! The crate has no public modules: one concept per private module, every item re-exported
//! here.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod choice;
mod circuit;
mod column;
mod edge;
mod geometry;
mod input;
mod node;
mod notation;
mod position;
mod record;
mod reduction;
mod side;
mod size;
mod solver;
mod union_find;

pub use choice::{NodeValue, Ranking, ValuesError, choose, edge_drop, rank};
pub use circuit::{Circuit, Model, ModelError};
pub use column::column_letter;
pub use edge::{Edge, Orientation};
pub use geometry::cage_edges;
pub use input::{ECHO_CHARS, Echo, RangeError, whole};
pub use node::Node;
pub use notation::{Move, NotationError, TOKEN_CAPACITY, Token, escaped};
pub use position::{EdgeState, MoveError, PlayError, Position};
pub use record::{ParseRecordError, Record, RecordError, RecordFull};
pub use reduction::{Reduction, Slot, Stamp};
pub use side::Side;
pub use size::{MAX_EDGES, MAX_NODES, MAX_SIZE, MIN_SIZE, Size, SizeError};
pub use solver::{SolveError, Voltages, solve, solve_in};
pub use union_find::UnionFind;
