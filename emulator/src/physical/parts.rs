//! One build of a board: the actual value of every part, drawn from the tolerance model.

use boards::{Distribution, Tolerance};
use heuristic::{Edge, Node, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution as _, StandardNormal};

use super::{Board, Pullups};

/// The parts of one build: what a multimeter would read on each.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    /// The cage they fit.
    pub size: Size,
    /// Each edge's resistor, in [`Size::edges`] order, ohms.
    pub edge_ohms: Vec<f64>,
    /// Each node's pull-up in [`Size::nodes`] order, ohms; the entry for Q is unused (Q has
    /// none).
    pub pullup_ohms: Vec<f64>,
    /// Series resistor, ohms.
    pub series_ohms: f64,
    /// The seed they were drawn from; `None` for nominal values.
    pub seed: Option<u64>,
}

impl Parts {
    /// Every part at its nominal value (internal pull-ups at the middle of their range).
    pub fn nominal(board: &Board, size: Size) -> Parts {
        let pullup = match board.pullups {
            Pullups::Internal { min_ohms, max_ohms } => (min_ohms + max_ohms) / 2.0,
            Pullups::PerNode { ohms } | Pullups::SharedRail { ohms, .. } => ohms,
        };
        Parts {
            size,
            edge_ohms: vec![board.resistor_ohms; size.edge_count()],
            pullup_ohms: vec![pullup; size.node_count()],
            series_ohms: board.series_ohms,
            seed: None,
        }
    }

    /// One build drawn from `seed`: every resistor (edges, series, external pull-ups) from the
    /// board's tolerance model, internal pull-ups uniformly over their range. The same seed
    /// gives the same parts.
    pub fn draw(board: &Board, size: Size, seed: u64) -> Parts {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let tolerance = board.tolerance;
        let edge_ohms = (0..size.edge_count())
            .map(|_| board.resistor_ohms * factor(tolerance, &mut rng))
            .collect();
        let series_ohms = board.series_ohms * factor(tolerance, &mut rng);
        let pullup_ohms = (0..size.node_count())
            .map(|_| match board.pullups {
                Pullups::Internal { min_ohms, max_ohms } => {
                    min_ohms + (max_ohms - min_ohms) * rng.random::<f64>()
                }
                Pullups::PerNode { ohms } | Pullups::SharedRail { ohms, .. } => {
                    ohms * factor(tolerance, &mut rng)
                }
            })
            .collect();
        Parts {
            size,
            edge_ohms,
            pullup_ohms,
            series_ohms,
            seed: Some(seed),
        }
    }

    /// The resistor on `edge`.
    pub fn edge(&self, edge: Edge) -> f64 {
        self.edge_ohms[edge.index(self.size)]
    }

    /// The pull-up on `node`.
    pub fn pullup(&self, node: Node) -> f64 {
        self.pullup_ohms[node.index(self.size)]
    }
}

/// A part's value relative to nominal, 1 + e with e inside ±tolerance, spread as the
/// tolerance's distribution says.
///
/// ```
/// use boards::{Distribution, Tolerance};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let binned = Tolerance { ppm: 50_000, distribution: Distribution::Binned { hole_ppm: 10_000 } };
/// for _ in 0..1000 {
///     let e = (emulator::physical::factor(binned, &mut rng) - 1.0).abs();
///     assert!((0.01..=0.05).contains(&e));
/// }
/// ```
pub fn factor<R: Rng>(tolerance: Tolerance, rng: &mut R) -> f64 {
    let band = tolerance.fraction();
    if band == 0.0 {
        return 1.0;
    }
    let e = match tolerance.distribution {
        Distribution::Uniform => band * (2.0 * rng.random::<f64>() - 1.0),
        Distribution::TruncatedGaussian { sigmas } => {
            truncated_normal(rng, band / f64::from(sigmas.max(1)), 0.0, band)
        }
        // Sorted parts: the customary ±3σ process with the tighter grade taken out.
        Distribution::Binned { hole_ppm } => {
            let hole = f64::from(hole_ppm) / 1e6;
            truncated_normal(rng, band / 3.0, hole.min(band), band)
        }
    };
    1.0 + e
}

/// A normal deviate of standard deviation `sigma` with magnitude in `[low, high]`, by
/// rejection; falls back to a uniform draw in the band if rejection keeps failing (a band far
/// out in the tail).
fn truncated_normal<R: Rng>(rng: &mut R, sigma: f64, low: f64, high: f64) -> f64 {
    for _ in 0..1000 {
        let z: f64 = StandardNormal.sample(rng);
        let e = z * sigma;
        if (low..=high).contains(&e.abs()) {
            return e;
        }
    }
    let magnitude = low + (high - low) * rng.random::<f64>();
    if rng.random::<bool>() {
        magnitude
    } else {
        -magnitude
    }
}
