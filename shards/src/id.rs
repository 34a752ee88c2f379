//! Which shard: `K/P`, shard K of P, numbered from 1 as a person and a Slurm array
//! (`--array=1-P`) count.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, 1 <= index <= count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShardId {
    /// 1..=count.
    pub index: u32,
    /// How many shards the job has (P).
    pub count: u32,
}

impl ShardId {
    /// Shard `index` of `count`; `None` unless 1 <= index <= count.
    pub fn new(index: u32, count: u32) -> Option<ShardId> {
        (1..=count)
            .contains(&index)
            .then_some(ShardId { index, count })
    }

    /// The one shard of a one-process run (P = 1).
    pub const WHOLE: ShardId = ShardId { index: 1, count: 1 };

    /// Every shard of a job of `count` shards, in order.
    pub fn all(count: u32) -> impl Iterator<Item = ShardId> {
        (1..=count).map(move |index| ShardId { index, count })
    }

    /// Whether item `i` (0-based) of a job's items falls in this shard: items are dealt
    /// round-robin, so every shard gets a like share of cheap and dear items.
    pub fn owns(&self, i: u64) -> bool {
        i % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl fmt::Display for ShardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, so a width (`{id:<9}`) lines shards up in a table.
        f.pad(&format!("{}/{}", self.index, self.count))
    }
}

/// A `K/P` that is not a shard. The message does not repeat the text: whoever read it (clap,
/// a shard file's reader) says where it came from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not K/P with 1 <= K <= P (e.g. 3/16)")]
pub struct ShardIdError;

impl FromStr for ShardId {
    type Err = ShardIdError;
    fn from_str(text: &str) -> Result<ShardId, ShardIdError> {
        let (k, p) = text.split_once('/').ok_or(ShardIdError)?;
        let index: u32 = k.trim().parse().map_err(|_| ShardIdError)?;
        let count: u32 = p.trim().parse().map_err(|_| ShardIdError)?;
        ShardId::new(index, count).ok_or(ShardIdError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses() {
        for text in ["1/1", "3/16", "16/16", "4096/4096"] {
            let id: ShardId = text.parse().unwrap();
            assert_eq!(id.to_string(), text);
        }
        assert_eq!(
            "3/16".parse(),
            Ok(ShardId {
                index: 3,
                count: 16
            })
        );
        for bad in ["0/4", "5/4", "3", "/4", "a/4", "3/", "-1/4", "1/0", ""] {
            assert_eq!(bad.parse::<ShardId>(), Err(ShardIdError), "{bad}");
        }
        assert_eq!(
            ShardIdError.to_string(),
            "not K/P with 1 <= K <= P (e.g. 3/16)"
        );
    }

    #[test]
    fn items_are_dealt_once_each() {
        let count = 5;
        for i in 0..100u64 {
            let owners: Vec<u32> = ShardId::all(count)
                .filter(|s| s.owns(i))
                .map(|s| s.index)
                .collect();
            assert_eq!(owners, vec![(i % 5) as u32 + 1]);
        }
        assert!((0..10).all(|i| ShardId::WHOLE.owns(i)));
    }
}
