//! The bench's games in shards: the games of a scenario (`random4`, `records:FILE`) on one
//! board, or on each board of a sweep of drawn boards (`--board-seeds A..B`). Game `g` of
//! board `b` is item `b * games + g`; shard K/P plays the items it owns
//! ([`ShardId::owns`]), each on a board made afresh for the shard, and keeps each game's report
//! lines as the one-process run writes them. The merge writes them in order through the same
//! [`Report`], so its `steps.jsonl`, summaries and plot are the one-process run's, byte for
//! byte.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use shards::ShardId;

use crate::dut::retry::RetryStats;
use crate::dut::{Dut, DutError};
use crate::report::tally::Tally;
use crate::report::{Collected, Existing, Header, Report, ReportError};
use crate::run::scenario::Scenario;
use crate::run::{PlayError, header, play_scenario};
use crate::shard::seeds::BoardSeeds;
use crate::shard::sweep;

/// Which boards a run plays on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Boards {
    /// One board: drawn from this seed, or nominal. Its report is the folder itself.
    One(Option<u64>),
    /// A board per seed, each report in `board-SEED/` inside the folder, with `sweep.md`
    /// and `sweep.csv` beside them.
    Sweep(BoardSeeds),
}

impl Boards {
    /// The boards' seeds, in order.
    pub fn seeds(&self) -> Vec<Option<u64>> {
        match self {
            Boards::One(seed) => vec![*seed],
            Boards::Sweep(seeds) => seeds.iter().map(Some).collect(),
        }
    }

    /// Where the report of the board drawn from `seed` goes in `dir`.
    pub fn dir(&self, dir: &Path, seed: Option<u64>) -> PathBuf {
        match (self, seed) {
            (Boards::Sweep(_), Some(seed)) => dir.join(sweep::board_folder(seed)),
            _ => dir.to_path_buf(),
        }
    }
}

/// Why the games of a shard could not be played or merged.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// A game or the report failed.
    #[error(transparent)]
    Campaign(#[from] PlayError),
    /// The target did not identify itself.
    #[error(transparent)]
    Dut(#[from] DutError),
    /// A report could not be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A scenario whose games depend on each other (the tree grows from its first game's
    /// branches) or on an operator.
    #[error("--scenario {0} cannot be split into shards: {1}")]
    NotSplit(String, &'static str),
    /// A shard's body that is not this job's (a bug or a hand-made file: the shard model's
    /// hashes already refuse a damaged or foreign one).
    #[error("shard {shard}: {why}")]
    Body {
        /// The shard, `K/P`.
        shard: String,
        /// What is wrong.
        why: String,
    },
}

/// One board's part of a shard.
#[derive(Debug, Serialize, Deserialize)]
struct BoardPart {
    /// Index of the board in [`Boards::seeds`].
    board: usize,
    /// The report's header, as the board identified itself.
    header: Header,
    /// What the link went through, if it recovers lost frames.
    retry: Option<RetryStats>,
    /// Each game's report lines (bodies, unsealed), by game index.
    games: Vec<(usize, Vec<String>)>,
}

/// One board's report as the merge gathers it: its header, its link's figures, and each
/// game's lines once a shard gave them.
type Merging = (Header, Option<RetryStats>, Vec<Option<Vec<String>>>);

/// What a shard writes: each board's part of it.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Body {
    boards: Vec<BoardPart>,
}

/// The games of a run and the boards they are played on.
#[derive(Debug)]
pub struct Games<'a> {
    /// The board the bench predicts with.
    pub profile: &'static boards::Profile,
    /// The games.
    pub scenario: &'a Scenario,
    /// The boards.
    pub boards: Boards,
    /// `--board` as given: recorded in the header when it is not the board's own name (a
    /// profile file).
    pub board_arg: String,
    /// The digest of the firmware driven (PIL, HIL), for the header.
    pub elf_sha256: Option<String>,
}

/// What a one-process run or a merge wrote: the Markdown to show (one board's summary, or
/// the sweep's table).
#[derive(Debug)]
pub struct Written {
    /// The summary.
    pub markdown: String,
    /// Steps that failed their game, over every board ([`Tally::failures`]).
    pub failures: usize,
    /// Steps checked, over every board: what a pass counts.
    pub steps: usize,
}

impl Games<'_> {
    /// The header of the report of the board drawn from `seed`, as `target` identifies
    /// itself: the one every run of these games writes.
    pub fn header(&self, target: &mut dyn Dut, seed: Option<u64>) -> Result<Header, DutError> {
        let mut header = header(target, self.profile, self.scenario, seed)?;
        header.profile = (self.board_arg != header.board).then(|| self.board_arg.clone());
        header.depends.elf_sha256 = self.elf_sha256.clone();
        Ok(header)
    }

    fn splittable(&self) -> Result<(), GamesError> {
        let name = || {
            self.scenario
                .name
                .split(' ')
                .next()
                .unwrap_or_default()
                .to_string()
        };
        if self.scenario.is_tree() {
            return Err(GamesError::NotSplit(
                name(),
                "the tree grows from its first game's branches, one game after another",
            ));
        }
        if self.scenario.is_guided() {
            return Err(GamesError::NotSplit(name(), "an operator makes its moves"));
        }
        Ok(())
    }

    /// Plays shard `id`'s games, each board from `connect`, and returns the shard's body.
    /// `progress(done, all)` counts the run's items (a shard skips those it does not own),
    /// and stops it by breaking: a stopped shard writes nothing.
    pub fn run_shard<E>(
        &self,
        id: ShardId,
        connect: &mut dyn FnMut(Option<u64>) -> Result<Box<dyn Dut>, E>,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<Body, E>
    where
        E: From<GamesError>,
    {
        if id != ShardId::WHOLE {
            self.splittable()?;
        }
        let games = self.scenario.games.len();
        let seeds = self.boards.seeds();
        let all = games * seeds.len();
        let mut body = Body::default();
        for (b, seed) in seeds.iter().enumerate() {
            let owns = |g: usize| id.owns((b * games + g) as u64);
            if !(0..games).any(owns) {
                continue;
            }
            let mut target = connect(*seed)?;
            let header = self
                .header(target.as_mut(), *seed)
                .map_err(GamesError::from)?;
            let mut collected = Collected::new(&owns);
            let played = play_scenario(
                target.as_mut(),
                self.profile,
                self.scenario,
                &mut collected,
                &mut |done, _| progress(b * games + done, all),
            );
            played.map_err(GamesError::from)?;
            body.boards.push(BoardPart {
                board: b,
                header,
                retry: target.retry_stats(),
                games: collected.into_games(),
            });
        }
        Ok(body)
    }

    /// Writes the report of every board from the shards' bodies (in shard order), as the
    /// one-process run writes it, and the sweep's table.
    pub fn merge(&self, dir: &Path, bodies: Vec<Body>) -> Result<Written, GamesError> {
        let games = self.scenario.games.len();
        let seeds = self.boards.seeds();
        let count = bodies.len();
        let mut boards: BTreeMap<usize, Merging> = BTreeMap::new();
        for (k, body) in bodies.into_iter().enumerate() {
            let shard = format!("{}/{count}", k + 1);
            let bad = |why: String| GamesError::Body {
                shard: shard.clone(),
                why,
            };
            for part in body.boards {
                if part.board >= seeds.len() {
                    return Err(bad(format!("board {} of {}", part.board + 1, seeds.len())));
                }
                let entry = boards
                    .entry(part.board)
                    .or_insert_with(|| (part.header.clone(), None, vec![None; games]));
                if entry.0 != part.header {
                    return Err(bad(format!(
                        "board {} identified itself otherwise than in an earlier shard \
                         (another firmware or board: {:?})",
                        part.board + 1,
                        part.header.firmware
                    )));
                }
                if let Some(retry) = part.retry {
                    *entry.1.get_or_insert_with(RetryStats::default) += retry;
                }
                for (g, lines) in part.games {
                    match entry.2.get_mut(g) {
                        Some(slot @ None) => *slot = Some(lines),
                        Some(Some(_)) => return Err(bad(format!("game {g} twice"))),
                        None => return Err(bad(format!("game {g} of {games}"))),
                    }
                }
            }
        }
        let mut tallies = Vec::new();
        let mut markdown = String::new();
        for (b, seed) in seeds.iter().enumerate() {
            let missing = |what: String| GamesError::Body {
                shard: format!("*/{count}"),
                why: what,
            };
            let (header, retry, lines) = boards
                .remove(&b)
                .ok_or_else(|| missing(format!("no shard holds board {}", b + 1)))?;
            let mut report = Report::open(
                &self.boards.dir(dir, *seed),
                header.clone(),
                Existing::Overwrite,
            )?;
            for (g, game) in lines.into_iter().enumerate() {
                let game = game.ok_or_else(|| {
                    missing(format!("no shard holds game {g} of board {}", b + 1))
                })?;
                for line in &game {
                    report.replay(line)?;
                }
            }
            report.set_retry_stats(retry);
            markdown = report.finish()?;
            tallies.push((*seed, header, report.tally().clone()));
        }
        self.written(dir, markdown, &tallies)
    }

    /// The sweep's table after its boards' reports (one board: its summary as it is).
    fn written(
        &self,
        dir: &Path,
        markdown: String,
        tallies: &[(Option<u64>, Header, Tally)],
    ) -> Result<Written, GamesError> {
        let failures = tallies.iter().map(|(_, _, t)| t.failures()).sum();
        let steps = tallies.iter().map(|(_, _, t)| t.steps).sum();
        match self.boards {
            Boards::One(_) => Ok(Written {
                markdown,
                failures,
                steps,
            }),
            Boards::Sweep(seeds) => Ok(Written {
                markdown: sweep::write(dir, seeds, tallies)?,
                failures,
                steps,
            }),
        }
    }

    /// The one-process run of a sweep: each board's report written as it goes (a resumed
    /// run keeps each board's finished games), then the sweep's table. On an interruption
    /// the board in hand's summaries are marked INTERRUPTED and the error says why.
    pub fn sweep<E>(
        &self,
        dir: &Path,
        existing: Existing,
        connect: &mut dyn FnMut(Option<u64>) -> Result<Box<dyn Dut>, E>,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<Written, E>
    where
        E: From<GamesError>,
    {
        let games = self.scenario.games.len();
        let seeds = self.boards.seeds();
        let all = games * seeds.len();
        let mut tallies = Vec::new();
        let mut markdown = String::new();
        for (b, seed) in seeds.iter().enumerate() {
            let mut target = connect(*seed)?;
            let header = self
                .header(target.as_mut(), *seed)
                .map_err(GamesError::from)?;
            let mut report = Report::open(&self.boards.dir(dir, *seed), header.clone(), existing)
                .map_err(GamesError::from)?;
            let played = play_scenario(
                target.as_mut(),
                self.profile,
                self.scenario,
                &mut report,
                &mut |done, _| progress(b * games + done, all),
            );
            report.set_retry_stats(target.retry_stats());
            if let Err(stopped) = played {
                let _ = report.interrupted(&stopped.to_string());
                return Err(GamesError::from(stopped).into());
            }
            markdown = report.finish().map_err(GamesError::from)?;
            tallies.push((*seed, header, report.tally().clone()));
        }
        Ok(self.written(dir, markdown, &tallies)?)
    }
}
