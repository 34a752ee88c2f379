//! Exact (Clopper-Pearson) 95 % intervals of a campaign's class counts, and for a count of 0
//! in N trials, which is not a rate of 0, its one-sided 95 % upper bound, 1 - 0.05^(1/N),
//! about 3/N (the "rule of three"): what a campaign that saw none can claim. The two-sided
//! interval's upper end, 1 - 0.025^(1/N) (about 3.7/N), is a one-sided 97.5 % bound, which
//! the tables once called "the 95 % upper bound" (issue 62).

use statrs::distribution::{Beta, ContinuousCDF};

/// Half the 5 % a 95 % interval leaves out, on each side.
const TAIL: f64 = 0.025;

/// What a one-sided 95 % bound leaves out.
const ONE_SIDED: f64 = 0.05;

/// The one-sided 95 % upper bound of a rate of which `total` trials saw none:
/// 1 - 0.05^(1/N), the Clopper-Pearson bound's closed form at 0. 1 for no trials.
pub fn upper_bound_of_none(total: u64) -> f64 {
    if total == 0 {
        return 1.0;
    }
    1.0 - ONE_SIDED.powf(1.0 / total as f64)
}

/// The 95 % Clopper-Pearson interval of `count` events in `total` trials, as fractions:
/// the beta distribution's quantiles (Clopper and Pearson, Biometrika 26, 1934). `(0, 1)`
/// for no trials.
pub fn clopper_pearson(count: u64, total: u64) -> (f64, f64) {
    if total == 0 || count > total {
        return (0.0, 1.0);
    }
    let (x, n) = (count as f64, total as f64);
    let quantile = |a: f64, b: f64, p: f64| Beta::new(a, b).map_or(f64::NAN, |d| d.inverse_cdf(p));
    let low = if count == 0 {
        0.0
    } else {
        quantile(x, n - x + 1.0, TAIL)
    };
    let high = if count == total {
        1.0
    } else {
        quantile(x + 1.0, n - x, 1.0 - TAIL)
    };
    (low, high)
}

/// A percentage to two significant figures, for the tables.
fn percent(fraction: f64) -> String {
    let p = 100.0 * fraction;
    let decimals = if p > 0.0 {
        (1 - p.log10().floor() as i32).max(0) as usize
    } else {
        0
    };
    format!("{p:.decimals$}")
}

/// `count` with its two-sided 95 % interval in percent, `12 (0.62–2.1 %)`, or for none its
/// one-sided 95 % upper bound, `0 (≤ 0.015 %)`.
pub fn with_interval(count: u64, total: u64) -> String {
    let (low, high) = clopper_pearson(count, total);
    if count == 0 {
        format!("{count} (≤ {} %)", percent(upper_bound_of_none(total)))
    } else {
        format!("{count} ({}–{} %)", percent(low), percent(high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values from R 4.3's `binom.test(x, n)$conf.int` (its exact interval), to
    /// six figures, and the closed forms at the ends.
    #[test]
    fn the_intervals_are_those_of_the_reference() {
        let close = |a: f64, b: f64| (a - b).abs() < 2e-6;
        for (x, n, low, high) in [
            (5, 10, 0.187086, 0.812914),
            (1, 100, 0.000253, 0.054460),
            (0, 10, 0.0, 0.308497),
        ] {
            let (l, h) = clopper_pearson(x, n);
            assert!(close(l, low) && close(h, high), "{x}/{n}: {l} {h}");
        }
        // 0 in N: the upper bound is 1 - 0.025^(1/N), about 3.7/N.
        let (l, h) = clopper_pearson(0, 20_000);
        assert_eq!(l, 0.0);
        assert!(close(h, 1.0 - 0.025f64.powf(1.0 / 20_000.0)), "{h}");
        // N in N: the lower bound is 0.025^(1/N).
        let (l, h) = clopper_pearson(7, 7);
        assert!(close(l, 0.025f64.powf(1.0 / 7.0)) && h == 1.0, "{l}");
        assert_eq!(clopper_pearson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn a_count_is_written_with_its_interval() {
        // The one-sided Clopper-Pearson bound at 0 is the Beta(1, N) quantile at 95 %: the
        // closed form checked against statrs' quantile, not against itself.
        assert_eq!(with_interval(0, 20_000), "0 (≤ 0.015 %)");
        for n in [1, 10, 20_000] {
            let beta = Beta::new(1.0, n as f64).unwrap().inverse_cdf(0.95);
            assert!((upper_bound_of_none(n) - beta).abs() < 1e-9, "{n}");
        }
        assert_eq!(with_interval(0, 10_000), "0 (≤ 0.030 %)");
        assert_eq!(with_interval(5, 10), "5 (19–81 %)");
        assert_eq!(with_interval(1, 100), "1 (0.025–5.4 %)");
    }
}
