//! [`Study`]: what every study is to the shard model, so one driver ([`drive`]) runs any of
//! them whole, as a shard, merged, on Slurm or as a status. A study is its options (serde:
//! they are its shards' spec; clap with feature `clap`: they are its command line), its plan
//! (made from the options), a shard's findings and the report written from them. A new study
//! is one file that implements it and one line in the CLI's table of studies.

use std::path::{Path, PathBuf};

use heuristic::Size;
use serde::{Deserialize, Serialize};
use shards::{Job, Mode, Outcome, ShardId};

use crate::Control;
use crate::positions::{PositionSet, RecordsError};
use crate::report::{FileError, Output, OutputError, WriteError};

/// A study run in shards: shard K is a pure function of (the plan, K).
pub trait Study: Sized + Sync {
    /// Its name: `birdcage study NAME`, the shard files' stem.
    const NAME: &'static str;
    /// What its progress counts (`decisions`, `boards`, `cases`).
    const UNIT: &'static str;
    /// Its options: the command line's (feature `clap`), and its shards' spec.
    type Options: Serialize;
    /// One shard's findings.
    type Shard;

    /// The plan the options make, checked before any folder is made; `command` is the
    /// command a person would type again, for the report.
    fn plan(options: &Self::Options, command: &str) -> Result<Self, StudyError>;
    /// The contents the report depends on besides the options (a profile file's, a records
    /// file's), by digest: an input edited between two shards makes them two specs.
    fn inputs(options: &Self::Options) -> Result<Inputs, StudyError>;
    /// Shard `id`'s findings; `rows`: the one-process run's folder, to stream rows into as
    /// it goes (a kill keeps them).
    fn run_shard(
        &self,
        id: ShardId,
        control: &Control<'_>,
        rows: Option<&Output>,
    ) -> Result<Self::Shard, StudyError>;
    /// Whether the shard finished all it owns (Ctrl-C stops a study between chunks).
    fn finished(&self, shard: &Self::Shard, id: ShardId) -> bool;
    /// The shard's file body. By value: a big shard's findings (the split study's records,
    /// gigabytes at M=5) become the body without a second copy in memory.
    fn shard_bytes(&self, shard: Self::Shard) -> Result<Vec<u8>, StudyError>;
    /// A shard read back from its file body.
    fn read_shard(&self, bytes: &[u8]) -> Result<Self::Shard, StudyError>;
    /// Writes the report from every shard's findings, in shard order, into `out` (`streamed`:
    /// the rows were written as the one-process run went); returns its Markdown summary.
    fn write_report(
        &self,
        shards: Vec<Self::Shard>,
        out: &Output,
        streamed: bool,
    ) -> Result<String, StudyError>;
    /// A way of running of the study's own that stands in for the shard driver with these
    /// options (the quantisation study's ply walk, `--ply-walk P`), in `mode` into `dir`;
    /// `job`: the driver's job for the options (its command and version). `None`: the
    /// driver runs the study.
    fn run_own(
        &self,
        _options: &Self::Options,
        _dir: &Path,
        _mode: &Mode,
        _job: &Job,
        _control: &Control<'_>,
        _force: bool,
    ) -> Option<Result<OwnReply, StudyError>> {
        None
    }
    /// The same report by the study's independent reference: one plain loop, no shard, no
    /// merge (`birdcage study NAME --reference`), what a merged report is checked against.
    fn write_reference(&self, out: &Output) -> Result<String, StudyError>;
}

/// What a study's own way of running ([`Study::run_own`]) tells its user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnReply {
    /// The words (a report's summary, a shard stored, a status).
    pub text: String,
    /// A status with something not done: a CLI exits non-zero on it.
    pub not_all_done: bool,
}

/// The contents a study's report depends on besides its options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Inputs {
    /// The records file's bytes, by SHA-256.
    pub records_sha256: Option<String>,
    /// The board profile's validated values (a file's or a built-in's), by SHA-256.
    pub board_profile_sha256: Option<String>,
    /// The geng a study that enumerates graphs lists them with, as it names itself, checked
    /// to list every graph (no PRUNE hook): another geng is another spec. Absent for the
    /// studies that list none, so their specs are what they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geng: Option<String>,
}

/// The spec a study's shards are hashed from: its name, options and inputs (the inputs'
/// digests at the top, so a merge refused names the one that differs).
pub fn spec<S: Study>(options: &S::Options) -> Result<serde_json::Value, StudyError> {
    /// The hashed value.
    #[derive(Serialize)]
    struct Spec<'a, O> {
        study: &'static str,
        options: &'a O,
        #[serde(flatten)]
        inputs: Inputs,
    }
    Ok(serde_json::to_value(Spec {
        study: S::NAME,
        options,
        inputs: S::inputs(options)?,
    })?)
}

/// The options of a study over a set of the cage's positions: the size, the seed, the board
/// and the set (the tree, random games or a records file). Field order is the command's
/// (`birdcage study NAME --size M --seed S ...`, printed in the report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct CageOptions {
    /// Board size M: the tree of the heuristic against every Short reply for M <= 4, random
    /// games above.
    #[serde(with = "size_words")]
    #[cfg_attr(feature = "clap", arg(long, short = 's', value_name = "M", default_value = "3",
          value_parser = size, allow_negative_numbers = true))]
    pub size: Size,
    /// Seed of every random draw (parts, ADC devices, noise, random games).
    #[cfg_attr(feature = "clap", arg(long, value_name = "S", default_value_t = 1,
          allow_negative_numbers = true, value_parser = shards::whole::<u64>(0, u64::MAX)))]
    pub seed: u64,
    /// Board profile or profile file (default: every profile for quantisation, nucleo-f446re
    /// for the others); `ideal` for the quantisation study's ideal converter alone.
    #[cfg_attr(feature = "clap", arg(long, value_name = "PROFILE"))]
    pub board: Option<String>,
    /// Boards drawn per tolerance and distribution (tolerance), per pull-up case (pullups).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = shards::whole::<u64>(1, u64::MAX)))]
    pub boards: Option<u64>,
    /// Study random games instead of the tree: Cut plays the heuristic, Short at random.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = shards::whole::<u64>(1, u64::MAX), conflicts_with = "records"))]
    pub random_games: Option<u64>,
    /// Study the games of a file: one record per line (Cut first), `#` comments.
    #[cfg_attr(feature = "clap", arg(long, value_name = "FILE"))]
    pub records: Option<PathBuf>,
    /// The quantisation study of the tree (any M) split at ply D: each shard rebuilds plies
    /// 0..D and walks the subtrees of its share of ply D, so none holds the whole tree.
    /// Absent from the spec when not given, so the shards made without it are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "clap", arg(long, value_name = "D", allow_negative_numbers = true,
          value_parser = shards::whole::<u32>(0, 255),
          conflicts_with_all = ["records", "random_games"]))]
    pub split_ply: Option<u32>,
    /// The quantisation study of the tree walked a ply at a time in P partitions on disk
    /// (every decision read once, no process holding more than a partition of a ply): with
    /// --out alone the whole walk and its report, resuming from the last finished ply; with
    /// --ply K --shard I/P one shard; --status, --merge; --slurm --shards P a job array per
    /// ply, each after the one before it, then the merge. A finished ply's input files are
    /// removed once the next ply is finished (the findings stay). Not in the spec: the walk's
    /// files carry P themselves.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "P", allow_negative_numbers = true,
          value_parser = shards::whole::<u32>(1, u64::from(shards::MAX_SHARDS)),
          conflicts_with_all = ["records", "random_games", "split_ply"]))]
    pub ply_walk: Option<u32>,
    /// With --ply-walk and --shard I/P: the ply whose shard I runs.
    #[serde(skip)]
    #[cfg_attr(feature = "clap", arg(long, value_name = "K", allow_negative_numbers = true,
          value_parser = shards::whole::<u32>(0, 255), requires = "ply_walk"))]
    pub ply: Option<u32>,
}

/// M for clap, in the words of every whole-number option.
#[cfg(feature = "clap")]
fn size(text: &str) -> Result<Size, String> {
    let (low, high) = (heuristic::MIN_SIZE.into(), heuristic::MAX_SIZE.into());
    let m: u32 = shards::whole(low, high)(text).map_err(|e| e.to_string())?;
    Size::new(m).map_err(|e| e.to_string())
}

/// A size as its M in a spec's JSON.
mod size_words {
    use heuristic::Size;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(size: &Size, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(size.get().into())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Size, D::Error> {
        Size::new(u32::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl CageOptions {
    /// The positions studied: the records file, `--random-games` random games, or the tree
    /// (random games, 1000 of them, above M=4, where the tree is too large).
    pub fn positions(&self) -> Result<PositionSet, StudyError> {
        Ok(match self.positions_unless_tree()? {
            Some(set) => set,
            None => PositionSet::tree(self.size),
        })
    }

    /// [`CageOptions::positions`], or `None` for the tree, which the quantisation study
    /// builds as it reads it.
    pub fn positions_unless_tree(&self) -> Result<Option<PositionSet>, StudyError> {
        // The split tree is never held whole: only the quantisation study walks it.
        if self.ply_walk.is_some() {
            return Err(StudyError::DoesNotApply(
                "--ply-walk walks the quantisation study's tree; the tolerance and pull-up \
                 studies hold their positions whole",
            ));
        }
        if self.split_ply.is_some() {
            return Err(StudyError::DoesNotApply(
                "--split-ply splits the quantisation study's tree; the tolerance and pull-up \
                 studies hold their positions whole",
            ));
        }
        if let Some(path) = &self.records {
            return Ok(Some(PositionSet::read_records(self.size, path)?));
        }
        let games = match self.random_games {
            Some(n) => Some(n),
            None if self.size.get() > 4 => Some(1000),
            None => None,
        };
        Ok(games.map(|n| PositionSet::random_games(self.size, n as usize, self.seed)))
    }

    /// The records file's and the profile's digests (`ideal` has none).
    pub fn inputs(&self) -> Result<Inputs, StudyError> {
        let records_sha256 = match &self.records {
            Some(path) => Some(shards::sha256_hex(&std::fs::read(path).map_err(
                |error| StudyError::Read {
                    path: path.clone(),
                    error,
                },
            )?)),
            None => None,
        };
        // A profile file enters by what it holds, not by its path: shards made before and
        // after an edit of the file are of two specs, and never merge.
        let board_profile_sha256 = match self.board.as_deref() {
            Some(spec) if spec != "ideal" => Some(shards::sha256_hex(
                format!("{:?}", boards::file::load(spec)?).as_bytes(),
            )),
            _ => None,
        };
        Ok(Inputs {
            records_sha256,
            board_profile_sha256,
            geng: None,
        })
    }

    /// `--board` loaded and checked to solve at `--size`; `None` when not given.
    pub fn named_board(&self) -> Result<Option<(String, emulator::physical::Board)>, StudyError> {
        let Some(spec) = self.board.as_deref() else {
            return Ok(None);
        };
        let board = emulator::physical::Board::from_profile(boards::file::load(spec)?);
        emulator::physical::check_solves(&board, self.size).map_err(|error| StudyError::Board {
            board: spec.to_string(),
            why: error.to_string(),
        })?;
        Ok(Some((spec.to_string(), board)))
    }

    /// `--board`, or the Nucleo the tolerance and pull-up studies default to.
    pub fn board_or_nucleo(&self) -> Result<(String, emulator::physical::Board), StudyError> {
        Ok(match self.named_board()? {
            Some(board) => board,
            None => (
                boards::NUCLEO_F446RE.name.to_string(),
                emulator::physical::Board::from_profile(&boards::NUCLEO_F446RE),
            ),
        })
    }
}

/// Why a study could not run, merge or write its report.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// An option the study does not use, refused by name.
    #[error("{0}")]
    DoesNotApply(&'static str),
    /// A board that does not load.
    #[error(transparent)]
    Profile(#[from] boards::file::FileError),
    /// A board that does not solve at the size.
    #[error("board {board}: {why}")]
    Board {
        /// The board as named.
        board: String,
        /// Why.
        why: String,
    },
    /// A records file that does not read.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// An input file that does not read.
    #[error("reading {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The report folder may not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A file of the report could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The report could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A board value out of range (the quantisation study's ADC bits).
    #[error(transparent)]
    BoardValue(#[from] boards::ProfileError),
    /// nauty could not enumerate the heuristic study's games.
    #[error(transparent)]
    Nauty(#[from] switching::enumerate::NautyError),
    /// A shard's body that is not this study's.
    #[error("shard {index}/{count}: not this study's part: {why}")]
    Shard {
        /// Which.
        index: usize,
        /// Of how many.
        count: usize,
        /// Why.
        why: String,
    },
    /// A shard's findings that do not serialise (a bug, not input).
    #[error("cannot write a shard's findings: {0}")]
    Json(#[from] serde_json::Error),
    /// A shard stopped (Ctrl-C) before it finished: not stored.
    #[error("interrupted: shard {0} not stored")]
    Interrupted(ShardId),
    /// The tree split at a ply that does not fit the size or the shards, or shards that
    /// do not merge into the tree.
    #[error(transparent)]
    Split(#[from] crate::tree_split::SplitError),
    /// The tree walked a ply at a time cannot run, resume or merge.
    #[error(transparent)]
    Walk(#[from] crate::walk_error::WalkError),
    /// The shard model's refusal (a foreign shard, a lock, a missing shard).
    #[error(transparent)]
    Model(#[from] shards::ModelError),
}

/// Runs `study` in `mode` into `dir` under `job`: the one-process run streams its rows and
/// merges its one shard; a shard stores its findings (a stopped one is not stored); a merge
/// writes the report from every shard's. `force`: a report already in `dir` is replaced.
pub fn drive<S: Study>(
    study: &S,
    dir: &Path,
    job: &Job,
    mode: &Mode,
    control: &Control<'_>,
    force: bool,
) -> Result<Outcome<String>, StudyError> {
    let whole = *mode == Mode::Whole;
    shards::drive(
        dir,
        job,
        mode,
        |id| -> Result<Vec<u8>, StudyError> {
            let streamed = match whole {
                true => Some(Output::fresh(dir, force)?),
                false => None,
            };
            let shard = study.run_shard(id, control, streamed.as_ref())?;
            if !whole && !study.finished(&shard, id) {
                return Err(StudyError::Interrupted(id));
            }
            study.shard_bytes(shard)
        },
        |bodies| {
            let out = match whole {
                true => Output::new(dir)?,
                false => Output::fresh(dir, force)?,
            };
            let count = bodies.len();
            let shards = bodies
                .iter()
                .zip(1..)
                .map(|(body, index)| {
                    study.read_shard(body).map_err(|e| match e {
                        StudyError::Shard { why, .. } => StudyError::Shard { index, count, why },
                        other => other,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            study.write_report(shards, &out, whole)
        },
    )
}

/// A shard's JSON body read back, for the studies that write JSON ([`drive`] says which
/// shard an error is of).
pub fn from_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StudyError> {
    serde_json::from_slice(bytes).map_err(|e| StudyError::Shard {
        index: 0,
        count: 0,
        why: e.to_string(),
    })
}
