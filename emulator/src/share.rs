//! Drops as a person reads them: a share of the supply in percent, with three significant
//! digits, or more when three would print the largest drop and the runner-up alike; and the
//! ranking in words (the tied set, the margin to the runner-up). Exact values stay in the
//! JSON and behind `analyze --exact`.

use std::fmt::Display;

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// Significant digits at least.
pub const MIN_DIGITS: usize = 3;

/// Significant digits at most (an f64 holds about 15).
pub const MAX_DIGITS: usize = 12;

/// `drop` (a share of the supply, exact) in percent with `digits` significant digits:
/// `1/3` is `33.3`, `1/240` is `0.417`, zero is `0`.
///
/// ```
/// use num_rational::BigRational;
/// let third = BigRational::new(1.into(), 3.into());
/// assert_eq!(emulator::share::percent(&third, 3), "33.3");
/// assert_eq!(emulator::share::percent(&third, 5), "33.333");
/// assert_eq!(emulator::share::percent(&BigRational::new(1.into(), 240.into()), 3), "0.417");
/// ```
pub fn percent(drop: &BigRational, digits: usize) -> String {
    let x = drop.to_f64().unwrap_or(0.0) * 100.0;
    if drop.is_zero() || x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i64;
    let decimals = (digits as i64 - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// The fewest significant digits, from [`MIN_DIGITS`] to [`MAX_DIGITS`], at which the largest
/// of `drops` and the next smaller one print differently.
///
/// ```
/// use num_rational::BigRational;
/// let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// // 1/3 and 33,334/100,000 agree to four digits in percent: 33.33 and 33.33.
/// assert_eq!(emulator::share::digits_to_rank(&[r(1, 3), r(33_334, 100_000)]), 5);
/// assert_eq!(emulator::share::digits_to_rank(&[r(1, 2), r(1, 4)]), 3);
/// ```
pub fn digits_to_rank<'a>(drops: impl IntoIterator<Item = &'a BigRational>) -> usize {
    let mut values: Vec<&BigRational> = drops.into_iter().collect();
    values.sort_by(|a, b| b.cmp(a));
    values.dedup();
    match values.as_slice() {
        [first, second, ..] => (MIN_DIGITS..=MAX_DIGITS)
            .find(|&d| percent(first, d) != percent(second, d))
            .unwrap_or(MAX_DIGITS),
        _ => MIN_DIGITS,
    }
}

/// The ranking in words: the largest drop and where, exactly tied edges named, and the
/// runner-up with its margin in percentage points.
///
/// ```
/// use num_rational::BigRational;
/// let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// let drops = [("A1", r(1, 2)), ("B2", r(1, 4)), ("C1", r(1, 2))];
/// assert_eq!(
///     emulator::share::ranking(&drops, 3),
///     "Largest drop 50.0 % of the supply, on A1 and C1 (exactly equal).\n\
///      Runner-up 25.0 %, on B2: 25.0 points less.\n"
/// );
/// ```
pub fn ranking<E: Display>(drops: &[(E, BigRational)], digits: usize) -> String {
    ranking_naming(drops, digits, usize::MAX)
}

/// [`ranking`] naming at most `most` edges of a set (the rest counted: `A1, B2 and 62
/// more`), for a page whose panel has no room for M=8's 64 equal drops.
///
/// ```
/// use num_rational::BigRational;
/// let half = BigRational::new(1.into(), 2.into());
/// let drops: Vec<_> = ["A1", "B2", "C3", "D4"].iter().map(|e| (*e, half.clone())).collect();
/// assert_eq!(
///     emulator::share::ranking_naming(&drops, 3, 2),
///     "Largest drop 50.0 % of the supply, on A1, B2 and 2 more (exactly equal).\n"
/// );
/// ```
pub fn ranking_naming<E: Display>(
    drops: &[(E, BigRational)],
    digits: usize,
    most: usize,
) -> String {
    let Some(largest) = drops.iter().map(|(_, d)| d).max() else {
        return "No resistor carries current.\n".to_string();
    };
    let names = |value: &BigRational| -> Vec<String> {
        drops
            .iter()
            .filter(|(_, d)| d == value)
            .map(|(e, _)| e.to_string())
            .collect()
    };
    let list = |names: &[String]| match names {
        [one] => one.clone(),
        all if all.len() > most => {
            format!("{} and {} more", all[..most].join(", "), all.len() - most)
        }
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => String::new(),
    };
    let top = names(largest);
    let mut out = format!(
        "Largest drop {} % of the supply, on {}{}.\n",
        percent(largest, digits),
        list(&top),
        if top.len() > 1 {
            " (exactly equal)"
        } else {
            ""
        }
    );
    if let Some(second) = drops.iter().map(|(_, d)| d).filter(|d| *d < largest).max() {
        let margin = largest - second;
        let runners = names(second);
        out.push_str(&format!(
            "Runner-up {} %, on {}: {} points less.\n",
            percent(second, digits),
            list(&runners),
            percent(&margin, MIN_DIGITS)
        ));
    }
    out
}
