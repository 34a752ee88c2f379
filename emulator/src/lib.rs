//! Bird Cage networks on the host.
//!
//! - [`exact`]: exact rational node voltages of the `ideal` and `reference` models (and of
//!   any integer-conductance circuit), so ties are exact ties;
//! - [`analysis`]: everything `birdcage analyze` reports about a position;
//! - [`diagram`]: the board drawn as the original program drew it;
//! - [`perfect`]: perfect play (Lehman's theorem by matroid partition);
//! - [`players`]: the heuristic and the perfect players, and `birdcage play`'s opponents;
//! - [`beat`]: the search for a Short strategy that always beats the heuristic;
//! - [`study`]: quantisation, tolerance and pull-up studies over whole position sets.
//!
//! The rules, notation and the heuristic itself come from [`heuristic`]; nothing here
//! re-implements them.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod args;
pub mod beat;
pub mod diagram;
pub mod emulated;
pub mod exact;
pub mod export;
pub mod games;
pub mod perfect;
pub mod physical;
pub mod players;
pub mod reading;
pub mod study;
