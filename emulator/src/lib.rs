//! Bird Cage networks on the host.
//!
//! - [`exact`]: exact rational node voltages of the `ideal` and `reference` models (and of
//!   any integer-conductance circuit), so ties are exact ties;
//! - [`graphs`]: the same models on any graph ([`switching::Graph`]: the seed systems
//!   beyond the cage), solved exactly by the same elimination, and the heuristic's move
//!   there (Cut cuts the largest drop, Bridj-It 2.0's Short shorts it);
//! - [`mesh`]: Bridj-It 2.0's own solver, loop currents of the `ideal` network on any
//!   graph, a second exact solver that checks the nodal one;
//! - [`physical`]: the network as a real board builds it (drawn parts, wires, fixture
//!   switches, pull-ups, series resistor) solved in f64, the ADC that reads it, and the one
//!   seeded draw of a build (`physical::Build`);
//! - [`reading`]: what the firmware would read on a position (volts, codes) and the move it
//!   makes from them;
//! - [`emulated`]: the in-process board (SIL) on which the firmware's application runs;
//! - [`analysis`]: everything `birdcage analyze` reports about a position;
//! - [`diagram`]: the board drawn as the original program drew it;
//! - [`export`]: positions as ngspice netlists and CircuitJS1 circuits;
//! - [`games`]: seeded random legal games and board variants for tests, benches and studies;
//! - [`players`]: the heuristic and the perfect players, and `birdcage play`'s opponents;
//! - [`beat`]: the search for a Short strategy that always beats the heuristic, and from
//!   any position for either side, on the cage or a graph;
//! - [`beaten`]: how `beat` beat the machine at M=3..8, the lines the hint tries first;
//! - [`hint`]: the hint of a game against the machine (`birdcage play`, the web app);
//! - [`truth`]: the exact `ideal` truth of a position (best set, best drop, runner-up), the
//!   one the studies, SIL and the bench judge moves against;
//! - [`verdict`]: the judgement of a move (agree, benign tie, or diverges and why), the one
//!   classification the studies and the bench share;
//! - [`quantisation`]: the quantisation study's computation (positions x converters x
//!   resolutions -> judgements, margins, losses); `cargo test -p emulator` runs it and prints
//!   its M=3 table.
//!
//! The rules, notation and the heuristic itself come from [`heuristic`]; nothing here
//! re-implements them. The `birdcage` command line is a crate of its own on top of this one,
//! so that nothing here carries its dependencies.
#![forbid(unsafe_code)]

pub mod analysis;
mod bareiss;
pub mod beat;
pub mod beaten;
pub mod diagram;
pub mod emulated;
pub mod exact;
pub mod export;
pub mod games;
pub mod graphs;
pub mod hint;
mod margin;
pub mod mesh;
pub mod physical;
pub mod players;
pub mod quantisation;
pub mod reading;
pub mod session;
pub mod share;
pub mod truth;
pub mod verdict;
