//! Studies: how often, and why, the move the firmware makes from its ADC codes differs from
//! the heuristic's exact choice, over whole sets of positions.
//!
//! - [`positions`]: the sets studied (the tree of the heuristic against every Short reply,
//!   random games, a records file), with parent links to print any position's record;
//! - [`quantisation`]: ADC resolution 6..=16 bits, ideal converter then each board's, every
//!   divergence classified (the computation is [`emulator::quantisation`]; this reports it);
//! - [`tolerance`]: Monte Carlo over boards drawn from each tolerance and distribution, with
//!   the outcome impact under perfect play;
//! - [`pullups`]: pull-up value and topology, on decisions and on the game-over reading;
//! - [`strength`]: how strong Shannon's heuristic is on graphs other than the cage;
//! - [`study`]: the [`Study`] trait every study implements, and the one driver that runs any
//!   of them in the shard model ([`study::drive`]);
//! - [`stats`]: Wilson score intervals; [`report`]: JSON, CSV and Markdown; [`plot`]: SVG plots;
//!   [`sheet`]: a sheet of small link drawings (`birdcage links`).
//!
//! Every study is deterministic for a seed: work is cut into chunks solved in parallel
//! (rayon) and gathered in order. A [`Control`] carries the stop flag (Ctrl-C) checked
//! between chunks, so an interrupted run still reports what it finished.

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

pub mod outcome;
pub mod plot;
pub mod ply_key;
pub mod positions;
pub mod pullups;
pub mod quantisation;
pub mod report;
pub mod sheet;
pub mod stats;
pub mod strength;
pub mod study;
pub mod tolerance;
pub mod tree_split;
pub mod walk_error;

use std::sync::atomic::{AtomicBool, Ordering};

pub use study::{Study, StudyError};

/// How a running study is watched and stopped.
pub struct Control<'a> {
    /// Set (by a Ctrl-C handler) to stop after the chunk in hand.
    pub stop: &'a AtomicBool,
    /// Called with (work done, work in all) after each chunk; work in all is 0 while it is
    /// not known (a tree built as it is read), never the work done so far.
    pub progress: &'a (dyn Fn(u64, u64) + Sync),
}

/// Never set: the stop flag of a study nobody interrupts.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

impl Control<'static> {
    /// A run nobody watches or stops (tests, benches, scripts).
    pub fn unattended() -> Control<'static> {
        Control {
            stop: &NEVER_STOPPED,
            progress: &|_, _| {},
        }
    }
}

impl std::fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control").field("stop", &self.stop).finish()
    }
}

impl Control<'_> {
    /// Whether the run was asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Positions handed to the workers at a time: large enough to keep both cores busy, small
/// enough that Ctrl-C stops within a fraction of a second.
pub const CHUNK: usize = 4096;

/// Resolutions the studies sweep: every one a board profile may use.
pub const BITS: std::ops::RangeInclusive<u8> = boards::ADC_BITS;

/// One LSB as a share of the supply ([`emulator::quantisation::lsb_share`]).
pub use emulator::quantisation::lsb_share;
/// The firmware's move from an ideal static transfer ([`emulator::reading::code_choice`]).
pub use emulator::reading::code_choice;
/// The exact `ideal` truth of a position and the tied mask ([`emulator::truth`]).
pub use emulator::truth::{Truth, mask};
