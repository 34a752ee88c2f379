//! The resistor network as a real board builds it: parts drawn from their tolerance model,
//! wires with contact resistance, the fixture's switches, the series resistor, pull-ups as
//! the board has them, and the ADC that reads the result. Solved in f64.
//!
//! - [`Board`]: a board's electrical values, derived from a checked [`boards::Profile`];
//! - [`Parts`]: one build's actual part values, nominal or drawn from a seed;
//! - [`Build`]: the one draw of a build from a seed (parts, ADC device, noise) that SIL,
//!   `analyze --board`, the studies and the bench share;
//! - [`branches`]: the circuit a position makes, one list for the solver and the exports;
//! - [`solve`]: node voltages, with parts cut off from both terminals left undefined;
//! - [`Incremental`]: the same along a game, updating the factor move by move;
//! - [`Adc`]: what codes those voltages become.

mod adc;
mod board;
mod build;
mod incremental;
mod network;
mod parts;
mod solve;

pub use adc::{Adc, StaticErrors};
pub use board::{AdcSpec, Board, Pullups, Reference, Switches};
pub use build::{Build, cage_for, check_solves, game_volts, solve_on_cage, wired};
pub use incremental::{Incremental, PlayError};
pub use network::{Branch, Element, End, PullupState, branches};
pub use parts::{Parts, factor};
pub use solve::{Solution, SolveError, solve};
