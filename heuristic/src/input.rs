//! User input, as errors repeat it and as numbers are read from it, one way for every
//! binary of the workspace.
//!
//! [`Echo`]: a heap-string error repeats input once, escaped, and at most [`ECHO_CHARS`]
//! characters of it, so that a 200 KB line gives a short error, not a 200 KB one
//! (fixed-size errors use [`crate::escaped`], which escapes the same way). [`whole`]: a
//! number option out of its range says the range in words, not the type's limits.

use core::fmt;

/// The most characters of user input an error repeats; the rest is replaced by a count.
pub const ECHO_CHARS: usize = 80;

/// `text` as an error quotes it: in backticks, control characters escaped (`\n`), cut after
/// [`ECHO_CHARS`] characters with `…` and how many characters were left out.
///
/// ```
/// use heuristic::Echo;
/// assert_eq!(Echo("A5,\nc5").to_string(), "`A5,\\nc5`");
/// let long = "x".repeat(200_000);
/// assert_eq!(
///     Echo(&long).to_string(),
///     format!("`{}…` (199920 more characters)", "x".repeat(80))
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a>(pub &'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`")?;
        let mut chars = self.0.chars();
        for c in chars.by_ref().take(ECHO_CHARS) {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        match chars.count() {
            0 => f.write_str("`"),
            rest => write!(f, "…` ({rest} more characters)"),
        }
    }
}

/// A number that is not a whole number in `low..=high`; the message says the range in
/// words, and not the text (the caller, clap, already repeats it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("must be a whole number{}", RangeWords(*.low, *.high))]
pub struct RangeError {
    /// The smallest allowed.
    pub low: u64,
    /// The largest allowed (`u64::MAX`: no upper bound worth saying).
    pub high: u64,
}

/// ` from 3 to 12`, `, at least 1` or `, 0 or more`.
struct RangeWords(u64, u64);

impl fmt::Display for RangeWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (0, u64::MAX) => f.write_str(", 0 or more"),
            (low, u64::MAX) => write!(f, ", at least {low}"),
            (low, high) => write!(f, " from {low} to {high}"),
        }
    }
}

/// `text` as a whole number in `low..=high`. A sign, digits past `u64` and anything out of
/// range are refused alike, with the range.
///
/// ```
/// use heuristic::whole;
/// assert_eq!(whole(" 12", 3, 12), Ok(12));
/// assert_eq!(whole("0", 1, u64::MAX).unwrap_err().to_string(), "must be a whole number, at least 1");
/// assert_eq!(whole("-3", 2, 8).unwrap_err().to_string(), "must be a whole number from 2 to 8");
/// assert_eq!(whole("x", 0, u64::MAX).unwrap_err().to_string(), "must be a whole number, 0 or more");
/// assert!(whole("99999999999999999999999", 0, u64::MAX).is_err());
/// ```
pub fn whole(text: &str, low: u64, high: u64) -> Result<u64, RangeError> {
    let err = RangeError { low, high };
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err);
    }
    let n: u64 = digits.parse().map_err(|_| err)?;
    if (negative && n != 0) || n < low || n > high {
        return Err(err);
    }
    Ok(n)
}
