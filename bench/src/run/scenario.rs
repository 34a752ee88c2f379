//! Scenarios: the games the bench plays. Each game is a script for Short (and, for replays,
//! the Cut moves the record expects); the board always plays Cut itself.

use heuristic::{Edge, Position, Record, Side, Size};
use rand::SeedableRng;
use rand::seq::IteratorRandom;
use rand_chacha::ChaCha8Rng;

use crate::report::tally::TREE;

/// What Short does in one game.
/// The largest records file read (`--scenario records:FILE`): a record is under a kilobyte,
/// so 16 MiB is some twenty thousand games.
pub const MAX_RECORDS_BYTES: u64 = 16 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Script {
    /// A fixed record: Short's moves are played, Cut's are what the board is expected to
    /// play (the replay stops where the board plays another edge).
    Record(Box<Record>),
    /// Short plays a random resistor, drawn from this seed.
    Random(u64),
    /// Short shorts the resistor the heuristic would cut: the largest drop on the exact
    /// ideal network, ties to the first in reading order (Bridj-It 2.0's machine plays Short
    /// so). The machine against its mirror: no seed, and a long game across the whole board.
    Mirror,
    /// A branch of the tree: Short's replies as indices into the position's resistors in
    /// reading order; the game stops at the first Short turn past them, and only the board's
    /// decisions after the last of them are checked (the earlier ones belong to the branch's
    /// parents).
    Branch(Vec<u8>),
    /// An operator-guided game ([`crate::run::guided`]): Short's moves are typed by the operator,
    /// or drawn from this seed when they just press Enter.
    Guided(u64),
}

/// A named list of games of one size.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// What it is, for the report.
    pub name: String,
    /// Board size.
    pub size: Size,
    /// The games.
    pub games: Vec<Script>,
    /// SHA-256 of the file the games were read from (`records:FILE`), for the report's
    /// [`crate::report::Depends`].
    pub source_sha256: Option<String>,
}

/// A scenario that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// A records file line that does not parse or replay.
    #[error("{origin} line {line}: {error}")]
    Record {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        error: heuristic::RecordError,
    },
}

impl Scenario {
    /// Every position the board reaches playing Cut itself against every reply of Short:
    /// the tree is grown as the run goes (each game is one branch, see [`Script::Branch`]),
    /// so it is the board's own tree, not the ideal heuristic's.
    pub fn tree(size: Size) -> Scenario {
        Scenario {
            name: format!("{TREE}{}", size.get()),
            size,
            games: vec![Script::Branch(Vec::new())],
            source_sha256: None,
        }
    }

    /// Whether the games grow from the first one (a tree).
    pub fn is_tree(&self) -> bool {
        matches!(self.games.as_slice(), [Script::Branch(_)])
    }

    /// `games` games of `script`, game `i` seeded with `seed + i`.
    fn seeded(
        kind: &str,
        size: Size,
        games: usize,
        seed: u64,
        script: fn(u64) -> Script,
    ) -> Scenario {
        Scenario {
            name: format!("{kind}{} ({games} games, seed {seed})", size.get()),
            size,
            games: (0..games as u64)
                .map(|i| script(seed.wrapping_add(i)))
                .collect(),
            source_sha256: None,
        }
    }

    /// `games` games where Short plays random resistors; game `i` draws from `seed + i`.
    pub fn random(size: Size, games: usize, seed: u64) -> Scenario {
        Scenario::seeded("random", size, games, seed, Script::Random)
    }

    /// `games` operator-guided games (boards without an edge fixture): the operator makes
    /// every move on the cage; game `i` draws Short's random replies from `seed + i`.
    pub fn guided(size: Size, games: usize, seed: u64) -> Scenario {
        Scenario::seeded("guided", size, games, seed, Script::Guided)
    }

    /// Whether the operator makes the moves on the cage.
    pub fn is_guided(&self) -> bool {
        matches!(self.games.first(), Some(Script::Guided(_)))
    }

    /// The games of a records file: one record per line (`A7,c5,...`), blank lines and
    /// lines starting with `#` skipped.
    pub fn records(size: Size, text: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        let mut games = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |error| ScenarioError::Record {
                origin: origin.to_string(),
                line: i + 1,
                error,
            };
            let record = Record::read(size, Side::Cut, line).map_err(bad)?;
            games.push(Script::Record(Box::new(record)));
        }
        Ok(Scenario {
            name: format!("records {origin}"),
            size,
            games,
            source_sha256: Some(crate::report::Depends::file(text.as_bytes())),
        })
    }
}

/// Short's random reply: a uniformly drawn resistor.
pub fn random_short(rng: &mut ChaCha8Rng, position: &Position) -> Option<Edge> {
    position.resistors().choose(rng)
}

/// The generator of one random game.
pub fn game_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
