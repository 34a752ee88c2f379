//! The study's findings over a set of positions: counts per judgement, margins and the
//! divergences that gave away most, per column; the exact margins' histogram.

use heuristic::Edge;

use super::Decision;
use crate::verdict::Judgement;

/// Bins of [`Tally::margin_histogram`].
pub const MARGIN_BINS: usize = 20;

/// The resolution the margins' histogram counts LSB in.
pub const MARGIN_BITS: u8 = 10;

/// The log2 of the lower edge of bin 1, in LSB at [`MARGIN_BITS`]: bin k ≥ 1 holds margins in
/// [2^(k + MARGIN_LOW_EXP − 1), 2^(k + MARGIN_LOW_EXP)) LSB.
const MARGIN_LOW_EXP: i32 = -7;

/// The bin of [`Tally::margin_histogram`] an exact margin (a share of the supply) falls in.
///
/// ```
/// use emulator::quantisation::{margin_bin, margin_bin_edges};
/// // 1 LSB at 10 bits is the lower edge of bin 8; 1 LSB at 6 bits (16 LSB at 10) of bin 12.
/// assert_eq!(margin_bin(1.0 / 1024.0), 8);
/// assert_eq!(margin_bin_edges(12).0, 16.0);
/// assert_eq!(margin_bin(1e-9), 0);
/// ```
pub fn margin_bin(margin: f64) -> usize {
    let lsb = margin / super::lsb_share(MARGIN_BITS, 1.0);
    let bin = lsb.log2().floor() - f64::from(MARGIN_LOW_EXP) + 1.0;
    bin.clamp(0.0, (MARGIN_BINS - 1) as f64) as usize
}

/// The edges of bin `k` in LSB at [`MARGIN_BITS`]: [low, high); the first bin starts at 0 and
/// the last has no upper edge (infinite).
pub fn margin_bin_edges(k: usize) -> (f64, f64) {
    let edge = |k: usize| 2f64.powi(k as i32 + MARGIN_LOW_EXP - 1);
    let low = if k == 0 { 0.0 } else { edge(k) };
    let high = if k + 1 >= MARGIN_BINS {
        f64::INFINITY
    } else {
        edge(k + 1)
    };
    (low, high)
}

/// A divergence kept for the report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lost {
    /// The exact drop given away, as a share of the supply.
    pub lost: f64,
    /// The position's index in the set.
    pub index: u32,
    /// The move from the codes.
    pub chosen: Edge,
    /// Its judgement (a divergence).
    pub judgement: Judgement,
}

/// One column (converter and resolution) over the positions tallied.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Count per judgement, in [`Judgement::ALL`] order.
    pub counts: [u64; 6],
    /// The smallest exact margin (best − runner-up) of the positions with a runner-up, as a
    /// share of the supply.
    pub min_margin: Option<f64>,
    /// The divergences that gave away most, largest first (ties by position index).
    pub worst: Vec<Lost>,
}

impl Column {
    /// Positions read.
    pub fn decisions(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// How many were judged `j`.
    pub fn count(&self, j: Judgement) -> u64 {
        self.counts[j.index()]
    }

    /// Moves outside the exact tied set.
    pub fn diverged(&self) -> u64 {
        Judgement::ALL
            .iter()
            .filter(|j| j.diverges())
            .map(|&j| self.count(j))
            .sum()
    }
}

/// The study's findings so far, added to position by position in set order.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// One per column of the [`super::Quantiser`].
    pub columns: Vec<Column>,
    /// Exact margins (best − runner-up), as shares of the supply, binned by [`margin_bin`].
    pub margin_histogram: Vec<u64>,
    /// Positions whose exact move is tied with another edge.
    pub exact_ties: u64,
    keep: usize,
}

impl Tally {
    /// Nothing tallied yet over `columns` columns, keeping `worst` divergences (at least one)
    /// per column.
    pub fn new(columns: usize, worst: usize) -> Tally {
        Tally {
            columns: vec![
                Column {
                    counts: [0; 6],
                    min_margin: None,
                    worst: Vec::new(),
                };
                columns
            ],
            margin_histogram: vec![0; MARGIN_BINS],
            exact_ties: 0,
            keep: worst.max(1),
        }
    }

    /// How many divergences each column keeps.
    pub fn keep(&self) -> usize {
        self.keep
    }

    /// Adds another tally of other positions, as if its positions had been added here one by
    /// one: counts and histograms add, minima take the least, and the worst lists keep the
    /// same total order (largest loss first, then position index), so the tally of a set
    /// split into shards and merged equals the tally of the set, bit for bit.
    pub fn merge(&mut self, other: Tally) {
        for (c, o) in self.columns.iter_mut().zip(other.columns) {
            for (a, b) in c.counts.iter_mut().zip(o.counts) {
                *a += b;
            }
            c.min_margin = match (c.min_margin, o.min_margin) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            c.worst.extend(o.worst);
            c.worst
                .sort_by(|x, y| y.lost.total_cmp(&x.lost).then(x.index.cmp(&y.index)));
            c.worst.truncate(self.keep);
        }
        for (a, b) in self.margin_histogram.iter_mut().zip(other.margin_histogram) {
            *a += b;
        }
        self.exact_ties += other.exact_ties;
    }

    /// Adds position `index`'s decision.
    pub fn add(&mut self, index: u32, decision: &Decision) {
        let truth = &decision.truth;
        if truth.tied.count_ones() > 1 {
            self.exact_ties += 1;
        }
        let margin = truth.margin();
        if let Some(m) = margin {
            self.margin_histogram[margin_bin(m)] += 1;
        }
        for (c, r) in self.columns.iter_mut().zip(&decision.moves) {
            c.counts[r.judgement.index()] += 1;
            if let Some(m) = margin {
                c.min_margin = Some(c.min_margin.map_or(m, |x| x.min(m)));
            }
            if r.judgement.diverges() {
                c.worst.push(Lost {
                    lost: r.lost,
                    index,
                    chosen: r.chosen,
                    judgement: r.judgement,
                });
                c.worst
                    .sort_by(|x, y| y.lost.total_cmp(&x.lost).then(x.index.cmp(&y.index)));
                c.worst.truncate(self.keep);
            }
        }
    }
}
