//! Studies: how often, and why, the move the firmware makes from its ADC codes differs from
//! the heuristic's exact choice, over whole sets of positions.
//!
//! - [`positions`]: the sets studied (the tree of the heuristic against every Short reply,
//!   random games, a records file), with parent links to print any position's record;
//! - [`quantisation`]: ADC resolution 6..=16 bits, ideal converter then each board's, every
//!   divergence classified;
//! - [`tolerance`]: Monte Carlo over boards drawn from each tolerance and distribution, with
//!   the outcome impact under perfect play;
//! - [`pullups`]: pull-up value and topology, on decisions and on the game-over reading;
//! - [`strength`]: how strong Shannon's heuristic is on graphs other than the cage;
//! - [`stats`]: Wilson score intervals; [`report`]: JSON, CSV and Markdown; [`plot`]: SVG plots;
//!   [`sheet`]: a sheet of small link drawings (`birdcage links`).
//!
//! Every study is deterministic for a seed: work is cut into chunks solved in parallel
//! (rayon) and gathered in order. A [`Control`] carries the stop flag (Ctrl-C) checked
//! between chunks, so an interrupted run still reports what it finished.

pub mod outcome;
pub mod plot;
pub mod positions;
pub mod pullups;
pub mod quantisation;
pub mod report;
pub mod sheet;
pub mod stats;
pub mod strength;
pub mod tolerance;

use std::sync::atomic::{AtomicBool, Ordering};

use ::heuristic::{Edge, MAX_EDGES, Model, Position, Size};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use emulator::exact;
use emulator::physical::Adc;
use emulator::reading::{code_move, node_codes};

/// How a running study is watched and stopped.
pub struct Control<'a> {
    /// Set (by a Ctrl-C handler) to stop after the chunk in hand.
    pub stop: &'a AtomicBool,
    /// Called with (work done, work in all) after each chunk.
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

/// One LSB of an ideal `bits` converter whose full scale is `reference` (a fraction of the
/// supply: 1 when the converter is ratiometric), as a share of the supply. The one conversion
/// between codes and shares of the supply the studies use.
///
/// ```
/// assert_eq!(studies::lsb_share(10, 1.0), 1.0 / 1024.0);
/// ```
pub fn lsb_share(bits: u8, reference: f64) -> f64 {
    reference / f64::from(1u32 << bits)
}

/// The exact `ideal` truth of a decision position, in f64 where the study needs floats.
#[derive(Clone, Debug, PartialEq)]
pub struct Truth {
    /// The heuristic's exact move.
    pub choice: Edge,
    /// Every edge tied with it, one bit per edge index (M=8 has 113 edges).
    pub tied: u128,
    /// Node voltages as fractions of the supply; `None` where undefined.
    pub volts: Vec<Option<f64>>,
    /// Every edge's exact drop as a fraction of the supply (0 for a cut edge), by edge index.
    pub drops: [f64; MAX_EDGES],
    /// The largest drop.
    pub best: f64,
    /// The largest drop below it, if any.
    pub runner_up: Option<f64>,
}

impl Truth {
    /// Solves `position` on the exact `ideal` network; `None` when no resistor is left.
    pub fn of(position: &Position) -> Option<Truth> {
        Truth::from_exact(position, &exact::solve_model(position, Model::Ideal))
    }

    /// The same from voltages already solved.
    pub fn from_exact(position: &Position, exact: &exact::ExactVoltages) -> Option<Truth> {
        let size = position.size();
        let ranking = exact.rank()?;
        let det = exact.denominator();
        let fraction = |n: &BigInt| fraction(n, det);
        let mut drops = [0.0; MAX_EDGES];
        for e in position.resistors() {
            if let Some(d) = ::heuristic::edge_drop(position, exact.scaled(), e) {
                drops[e.index(size)] = fraction(&d);
            }
        }
        Some(Truth {
            choice: ranking.choice,
            tied: mask(size, &ranking.tied),
            volts: size
                .nodes()
                .zip(exact.scaled())
                .map(|(n, v)| (!exact.is_floating(n)).then(|| fraction(&v.0)))
                .collect(),
            drops,
            best: fraction(&ranking.best),
            runner_up: ranking.runner_up.as_ref().map(fraction),
        })
    }

    /// Whether `edge` is one of the exact choices.
    pub fn is_tied(&self, size: Size, edge: Edge) -> bool {
        self.tied & (1 << edge.index(size)) != 0
    }

    /// best − runner-up, as a fraction of the supply.
    pub fn margin(&self) -> Option<f64> {
        self.runner_up.map(|r| self.best - r)
    }

    /// How much smaller than the best `edge`'s exact drop is, as a fraction of the supply.
    pub fn shortfall(&self, size: Size, edge: Edge) -> f64 {
        self.best - self.drops[edge.index(size)]
    }
}

/// n / d as the nearest f64: one correctly rounded division while both are exact in f64
/// (|x| < 2^53, the usual case), the rational's own conversion otherwise.
fn fraction(n: &BigInt, d: &BigInt) -> f64 {
    const EXACT: i64 = 1 << 53;
    match (n.to_i64(), d.to_i64()) {
        (Some(a), Some(b)) if a.abs() < EXACT && b.abs() < EXACT && b != 0 => a as f64 / b as f64,
        _ => BigRational::new(n.clone(), d.clone())
            .to_f64()
            .unwrap_or(0.0),
    }
}

/// One bit per edge of `edges`.
pub fn mask(size: Size, edges: &[Edge]) -> u128 {
    edges.iter().fold(0, |m, e| m | (1 << e.index(size)))
}

/// The firmware's move on `position` when `adc` converts `volts` with its static transfer
/// (no noise): the heuristic over the codes.
pub fn code_choice(position: &Position, adc: &Adc, volts: &[Option<f64>]) -> Option<Edge> {
    let codes = node_codes(position.size(), adc, volts, |v| adc.transfer(v));
    code_move(position, &codes)
}
