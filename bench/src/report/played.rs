//! What a run saw of the games it played, beyond the report's lines: for JUnit only. The
//! report's bytes stay the same whenever and however fast a game is played (a resumed or
//! sharded run's report is the one-process run's, byte for byte), so times and resends are
//! kept in memory by the process that played the games.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

/// The games this process played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// When this process opened the report: the run's start (for a resumed run, the
    /// resumption's start; the games finished before it are not timed).
    pub started: SystemTime,
    /// Per game played in this process, by index.
    pub games: BTreeMap<usize, GamePlayed>,
}

impl Played {
    /// A run starting now, no game played yet.
    pub fn now() -> Played {
        Played {
            started: SystemTime::now(),
            games: BTreeMap::new(),
        }
    }
}

/// One game played in this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GamePlayed {
    /// Commands sent again after a lost reply (a flaky link).
    pub resent: u64,
    /// How long the game took on the target, measured around its play (its report lines
    /// written after).
    pub took: Duration,
}
