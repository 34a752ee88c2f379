//! Rates with confidence intervals.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A count out of a total, with its 95 % Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Events.
    pub count: u64,
    /// Trials.
    pub total: u64,
    /// count / total (0 for no trials).
    pub rate: f64,
    /// Lower end of the 95 % Wilson interval.
    pub low: f64,
    /// Upper end of the 95 % Wilson interval.
    pub high: f64,
}

impl Rate {
    /// `count` events in `total` trials.
    ///
    /// ```
    /// let r = studies::stats::Rate::new(0, 100);
    /// assert_eq!((r.rate, r.low), (0.0, 0.0));
    /// assert!((r.high - 0.037).abs() < 1e-3); // the "rule of three" neighbourhood
    /// let r = studies::stats::Rate::new(50, 100);
    /// assert!(r.low < 0.5 && r.high > 0.5);
    /// ```
    pub fn new(count: u64, total: u64) -> Rate {
        let (low, high) = wilson(count, total, Z95);
        Rate {
            count,
            total,
            rate: if total == 0 {
                0.0
            } else {
                count as f64 / total as f64
            },
            low,
            high,
        }
    }
}

/// The Wilson score interval of `count` successes in `total` trials at `z`; (0, 1) without
/// trials.
pub fn wilson(count: u64, total: u64, z: f64) -> (f64, f64) {
    if total == 0 {
        return (0.0, 1.0);
    }
    let n = total as f64;
    let p = count as f64 / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    // At the ends the interval reaches 0 or 1 exactly (rounding would leave 1e-18).
    let low = if count == 0 {
        0.0
    } else {
        ((centre - spread) / denominator).max(0.0)
    };
    let high = if count == total {
        1.0
    } else {
        ((centre + spread) / denominator).min(1.0)
    };
    (low, high)
}
