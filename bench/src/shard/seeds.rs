//! `--board-seeds A..B`: the boards of a sweep, one drawn board per seed.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The seeds of a sweep of drawn boards: `A..B` (A to B-1, as Rust's ranges) or `A..=B` (A to
/// B). Held as its first and last seed, so every range a person can write is one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSeeds {
    first: u64,
    last: u64,
}

/// Most boards in one sweep: each is its own report folder.
pub const MAX_BOARDS: u64 = 10_000;

/// Text that is not a sweep of seeds. The message says what is wrong, not the text: whoever
/// read it (clap) names the option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardSeedsError {
    /// Not `A..B` or `A..=B` with whole numbers.
    #[error("expected A..B (seeds A to B-1) or A..=B (A to B), whole numbers from 0, e.g. 1..9")]
    Syntax,
    /// No seed between the two ends.
    #[error("{0} holds no seed: the end must be past the start")]
    Empty(String),
    /// More boards than a sweep draws.
    #[error("{text} is {count} boards; a sweep draws at most {MAX_BOARDS}")]
    TooMany {
        /// The range as written.
        text: String,
        /// Its boards.
        count: u128,
    },
}

impl BoardSeeds {
    /// Seeds `first` to `last`, both included.
    pub fn new(first: u64, last: u64) -> Result<BoardSeeds, BoardSeedsError> {
        let text = format!("{first}..={last}");
        if last < first {
            return Err(BoardSeedsError::Empty(text));
        }
        let count = u128::from(last - first) + 1;
        if count > u128::from(MAX_BOARDS) {
            return Err(BoardSeedsError::TooMany { text, count });
        }
        Ok(BoardSeeds { first, last })
    }

    /// How many boards.
    pub fn len(&self) -> usize {
        (self.last - self.first) as usize + 1
    }

    /// Never: a sweep holds a board at least.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The seeds in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + use<> {
        self.first..=self.last
    }
}

impl FromStr for BoardSeeds {
    type Err = BoardSeedsError;
    fn from_str(text: &str) -> Result<BoardSeeds, BoardSeedsError> {
        let text = text.trim();
        let (a, b, inclusive) = match text.split_once("..=") {
            Some((a, b)) => (a, b, true),
            None => {
                let (a, b) = text.split_once("..").ok_or(BoardSeedsError::Syntax)?;
                (a, b, false)
            }
        };
        let number =
            |t: &str| heuristic::whole(t, 0, u64::MAX).map_err(|_| BoardSeedsError::Syntax);
        // A sign is no seed, though `whole` takes `+7`.
        if [a, b]
            .iter()
            .any(|t| !t.trim().bytes().all(|c| c.is_ascii_digit()))
        {
            return Err(BoardSeedsError::Syntax);
        }
        let (a, b) = (number(a)?, number(b)?);
        if inclusive {
            BoardSeeds::new(a, b)
        } else if b <= a {
            Err(BoardSeedsError::Empty(text.to_string()))
        } else {
            BoardSeeds::new(a, b - 1).map_err(|e| match e {
                BoardSeedsError::TooMany { count, .. } => BoardSeedsError::TooMany {
                    text: text.to_string(),
                    count,
                },
                e => e,
            })
        }
    }
}

impl fmt::Display for BoardSeeds {
    /// `A..B` (B excluded), or `A..=B` when B would not be a seed (`u64::MAX`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.last.checked_add(1) {
            Some(end) => write!(f, "{}..{end}", self.first),
            None => write!(f, "{}..={}", self.first, self.last),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_and_print_back() {
        let seeds: BoardSeeds = "1..9".parse().unwrap();
        assert_eq!(seeds.iter().collect::<Vec<_>>(), (1..9).collect::<Vec<_>>());
        assert_eq!(seeds.len(), 8);
        assert_eq!(seeds.to_string(), "1..9");
        let inclusive: BoardSeeds = "1..=8".parse().unwrap();
        assert_eq!(inclusive, seeds);
        assert_eq!(
            " 0..1 "
                .parse::<BoardSeeds>()
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            [0]
        );
        let top = format!("{}..={}", u64::MAX - 2, u64::MAX);
        let high: BoardSeeds = top.parse().unwrap();
        assert_eq!(high.len(), 3);
        assert_eq!(high.to_string(), top);
        assert_eq!(high.to_string().parse::<BoardSeeds>().unwrap(), high);
    }

    #[test]
    fn what_is_no_sweep_is_refused_in_words() {
        for bad in [
            "", "7", "1-9", "1...9", "a..9", "1..b", "-1..4", "+1..4", "1..", "..9", "1..9..12",
        ] {
            assert_eq!(
                bad.parse::<BoardSeeds>(),
                Err(BoardSeedsError::Syntax),
                "{bad}"
            );
        }
        assert_eq!(
            "5..5".parse::<BoardSeeds>().unwrap_err().to_string(),
            "5..5 holds no seed: the end must be past the start"
        );
        assert!(matches!(
            "9..=3".parse::<BoardSeeds>(),
            Err(BoardSeedsError::Empty(_))
        ));
        assert_eq!(
            "0..20000".parse::<BoardSeeds>().unwrap_err().to_string(),
            "0..20000 is 20000 boards; a sweep draws at most 10000"
        );
        assert!("0..10000".parse::<BoardSeeds>().is_ok());
        assert!(matches!(
            format!("0..={}", u64::MAX).parse::<BoardSeeds>(),
            Err(BoardSeedsError::TooMany { .. })
        ));
    }
}
