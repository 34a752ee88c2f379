//! Bird Cage networks on the host.
//!
//! - [`exact`]: exact rational node voltages of the `ideal` and `reference` models (and of
//!   any integer-conductance circuit), so ties are exact ties;
//! - [`analysis`]: everything `birdcage analyze` reports about a position;
//! - [`diagram`]: the board drawn as the original program drew it.
//!
//! The rules, notation and the heuristic itself come from [`heuristic`]; nothing here
//! re-implements them.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod diagram;
pub mod emulated;
pub mod exact;
pub mod export;
pub mod games;
pub mod physical;
pub mod reading;
pub mod study;
