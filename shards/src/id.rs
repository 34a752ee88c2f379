//! Which shard: `K/P`, shard K of P, numbered from 1 as a person and a Slurm array
//! (`--array=1-P`) count.

use std::fmt;
use std::str::FromStr;

/// The most shards a job may be split into: every `K/P` read (`--shard`, a shard file's
/// header or name) and every `--shards P` is refused above it, so a header claiming
/// `1/4294967295` cannot have a merge list four billion missing shards.
pub const MAX_SHARDS: u32 = 1_000_000;

/// Shard `index` of `count`, 1 <= index <= count <= [`MAX_SHARDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShardId {
    /// 1..=count.
    pub index: u32,
    /// How many shards the job has (P).
    pub count: u32,
}

impl ShardId {
    /// Shard `index` of `count`; `None` unless 1 <= index <= count <= [`MAX_SHARDS`].
    pub fn new(index: u32, count: u32) -> Option<ShardId> {
        ((1..=count).contains(&index) && count <= MAX_SHARDS).then_some(ShardId { index, count })
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
pub enum ShardIdError {
    /// Not two whole numbers with 1 <= K <= P.
    #[error("not K/P with 1 <= K <= P (e.g. 3/16)")]
    NotShard,
    /// P above [`MAX_SHARDS`].
    #[error("P = {0} is more than {MAX_SHARDS}, the most shards a job may have")]
    TooMany(u64),
}

impl FromStr for ShardId {
    type Err = ShardIdError;
    fn from_str(text: &str) -> Result<ShardId, ShardIdError> {
        use ShardIdError::{NotShard, TooMany};
        let (k, p) = text.split_once('/').ok_or(NotShard)?;
        let index: u32 = k.trim().parse().map_err(|_| NotShard)?;
        let count: u64 = p.trim().parse().map_err(|_| NotShard)?;
        if count > u64::from(MAX_SHARDS) {
            return Err(TooMany(count));
        }
        ShardId::new(index, count as u32).ok_or(NotShard)
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
            assert_eq!(bad.parse::<ShardId>(), Err(ShardIdError::NotShard), "{bad}");
        }
        assert_eq!(
            ShardIdError::NotShard.to_string(),
            "not K/P with 1 <= K <= P (e.g. 3/16)"
        );
    }

    #[test]
    fn more_shards_than_the_cap_are_refused() {
        // `--shard 1/10000000` grew memory to an abort; a header's 1/4294967295 made every
        // later merge of the folder abort.
        assert_eq!("1/1000000".parse::<ShardId>().unwrap().count, 1_000_000);
        for (text, p) in [("1/1000001", 1_000_001), ("1/10000000", 10_000_000u64)] {
            assert_eq!(text.parse::<ShardId>(), Err(ShardIdError::TooMany(p)));
        }
        let e = "1/4294967295".parse::<ShardId>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "P = 4294967295 is more than 1000000, the most shards a job may have"
        );
        assert_eq!(ShardId::new(1, 1_000_001), None);
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
