//! The bench's sharded jobs behind one trait, [`Campaign`], and one driver ([`drive`]) that
//! runs any of them whole, as a shard, merged, on Slurm or as a status: the games of one
//! board or of a sweep ([`games`]), the cage's fault campaign and the virtual board's board
//! faults ([`faults`]), the glitch campaign ([`glitches`]). A campaign is planned from the
//! run's [`RunSpec`]; its shards, merge and report are `shard`'s. A new campaign is one file
//! here (its plan and its `impl Campaign`) and one row in `hil-tests`' table of jobs.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use shards::{Job, Mode, ModelError, Outcome, ShardId};

use crate::config::{ConfigError, RunSpec, RunSpecError};
use crate::report::{Depends, Existing, ReportError};

pub mod fail_on;
pub mod faults;
pub mod games;
#[cfg(feature = "probe")]
pub mod glitches;
#[cfg(test)]
mod tests;

/// A long run in shards, as the command line drives it: shard K is a pure function of (the
/// run's spec, K), and the merge writes the report a one-process run writes.
pub trait Campaign: Sized {
    /// Its name where `--fail-on` is refused (`--scenario NAME`).
    const NAME: &'static str;
    /// What its progress counts (`games`, `faults`, `trials`).
    const UNIT: &'static str;
    /// The classes of its trials `--fail-on` may name; none for games, which fail on a fault.
    const CLASSES: &'static [&'static str];
    /// The classes that fail it when `--fail-on` is not given.
    const FAILS: &'static [&'static str];
    /// The files of its report in `--out`; the first is the one a report is known by.
    const FILES: &'static [&'static str];
    /// What its report is called when one is refused (`fault report`).
    const REPORT: &'static str;
    /// What a stopped one-process run keeps (`the faults finished`).
    const KEPT: &'static str;
    /// What a shard's file that does not read is not (`the bench's games`).
    const BODY: &'static str;
    /// One shard's findings, as its file holds them (JSON).
    type Body: Serialize + DeserializeOwned;
    /// The campaign merged from every shard's findings.
    type Merged;

    /// An option of the run it has no use for, refused in words before anything is built.
    fn refuse(spec: &RunSpec, given: Given) -> Option<&'static str>;
    /// The campaign the spec asks for, checked before any folder is made.
    fn plan(
        spec: &RunSpec,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> Result<Self, JobError>;
    /// What its bytes depend on besides the spec: its shards' hash holds it.
    fn depends(&self) -> &Depends;
    /// The progress bar shown before the first item (`whole`: a one-process run), if any.
    fn bar(&self, whole: bool) -> Option<Tick>;
    /// Shard `id`'s findings; `progress` after each item stops the run by breaking.
    fn run_shard(
        &self,
        id: ShardId,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Result<Self::Body, JobError>;
    /// Merges every shard's findings (in shard order) and writes the report in `dir`, its
    /// verdict line (if it has one) from `verdict`; returns the campaign and its Markdown.
    fn merge(
        &self,
        dir: &Path,
        bodies: Vec<Self::Body>,
        verdict: &dyn Fn(&Self::Merged) -> String,
    ) -> Result<(Self::Merged, String), JobError>;
    /// What the run is judged by.
    fn trials(merged: &Self::Merged) -> Trials<'_>;
    /// The campaign as JUnit, a class `fails` names failed; `None`: it has none.
    fn junit(
        &self,
        merged: &Self::Merged,
        fails: &dyn Fn(&str) -> bool,
    ) -> Option<quick_junit::Report>;
    /// A line printed after the report (the glitch campaign's timing).
    fn timing(_merged: &Self::Merged) -> Option<String> {
        None
    }
    /// The one-process run stored in this many chunks as it goes, of its items, so that a
    /// kill loses one chunk and `--resume` goes on (the glitch campaign); `None`: one shard.
    fn chunks(&self) -> Option<(u32, u64)> {
        None
    }
    /// A one-process run of its own under the folder's lock, which writes its report as it
    /// goes (a sweep of boards, each resumable); `None`: one shard, then the merge.
    fn whole(
        &self,
        _dir: &Path,
        _job: &Job,
        _existing: Existing,
        _progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Option<Result<(Self::Merged, String), JobError>> {
        None
    }
}

/// The run's options besides its spec, as far as a campaign may refuse them.
#[derive(Clone, Copy, Debug)]
pub struct Given {
    /// A one-process run (no `--shard`, `--merge`, `--slurm` or `--status`).
    pub whole: bool,
    /// `--resume`.
    pub resume: bool,
    /// `--calibrate`.
    pub calibrate: bool,
    /// `--junit`.
    pub junit: bool,
}

/// Progress: `done` of `all` items, on the bar whose line starts with `prefix` (`M=3 `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tick {
    /// The bar's prefix: a new prefix is a new bar.
    pub prefix: String,
    /// Items done.
    pub done: usize,
    /// Items known.
    pub all: usize,
}

/// What a merged campaign is judged by.
#[derive(Debug)]
pub enum Trials<'m> {
    /// Each trial's class word, for `--fail-on`.
    Classes(Vec<&'m str>),
    /// Games: the steps that were a board or firmware fault, of those checked.
    Steps {
        /// Failed steps.
        failures: usize,
        /// Steps checked.
        steps: usize,
    },
}

/// A merged campaign and its report's Markdown.
#[derive(Debug)]
pub struct Merged<M> {
    /// The campaign.
    pub merged: M,
    /// The report's summary.
    pub markdown: String,
}

/// Why a campaign could not be planned, run or merged.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The games failed.
    #[error(transparent)]
    Games(#[from] crate::shard::games::GamesError),
    /// A fault campaign failed.
    #[error(transparent)]
    Faults(#[from] crate::shard::faults::FaultShardError),
    /// The glitch campaign failed.
    #[cfg(feature = "probe")]
    #[error(transparent)]
    Glitches(#[from] crate::shard::glitches::GlitchShardError),
    /// The glitch campaign's report could not be written.
    #[cfg(feature = "probe")]
    #[error(transparent)]
    Glitch(#[from] crate::faults::glitches::GlitchError),
    /// A target that could not be opened.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The spec's rules.
    #[error(transparent)]
    Spec(#[from] RunSpecError),
    /// The scenario's games could not be made.
    #[error(transparent)]
    Scenario(#[from] crate::run::kind::ScenarioChoiceError),
    /// A board size out of range.
    #[error(transparent)]
    Size(#[from] heuristic::SizeError),
    /// The report folder.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The shard model's refusal (a foreign shard, a lock, a missing shard).
    #[error(transparent)]
    Model(#[from] ModelError),
    /// A shard's body that is not this campaign's (the shard model's hashes already refuse
    /// a damaged or foreign file).
    #[error("shard {shard}: {why}")]
    Body {
        /// The shard, `K/P`.
        shard: String,
        /// What is wrong.
        why: String,
    },
    /// A stopped one-process campaign's chunks, which neither `--resume` nor `--force` was
    /// given for.
    #[error(
        "{} holds {stored} of a stopped campaign's {count} chunks: --resume goes on, --force \
         starts over", .dir.display()
    )]
    Chunks {
        /// The report folder.
        dir: PathBuf,
        /// Chunks stored.
        stored: usize,
        /// Chunks in all.
        count: u32,
    },
    /// A one-process campaign in chunks stopped by its progress: the chunks before are kept.
    #[error("after {done} of {all} {unit}; `--resume` goes on from them ({})", .dir.display())]
    Stopped {
        /// Items stored.
        done: usize,
        /// Items in all.
        all: usize,
        /// What they are.
        unit: &'static str,
        /// The report folder.
        dir: PathBuf,
    },
    /// A shard stopped by a signal before its last item: nothing stored.
    #[error("shard {shard} was stopped before its end: nothing stored; run it again")]
    ShardStopped {
        /// The shard.
        shard: ShardId,
    },
    /// A campaign with no board size to play.
    #[error("the board-fault campaign has no board size to play")]
    NoSize,
    /// A file of an earlier report that `--force` could not remove.
    #[error("cannot remove {}: {error}", .path.display())]
    Remove {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// Runs `campaign` in `mode` into `dir` under `job`: a shard stores its findings, a merge
/// (and a one-process run, after its one shard or chunks) writes the report, judged by
/// `judge` where the report holds its verdict. `existing`: what a one-process run does with
/// a report already in `dir`.
pub fn drive<C: Campaign>(
    campaign: &C,
    dir: &Path,
    job: &Job,
    mode: &Mode,
    existing: Existing,
    progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    judge: &dyn Fn(&Trials<'_>) -> String,
) -> Result<Outcome<Merged<C::Merged>>, JobError> {
    let merge = |bodies: Vec<Vec<u8>>| -> Result<Merged<C::Merged>, JobError> {
        let count = bodies.len();
        let bodies = bodies
            .iter()
            .enumerate()
            .map(|(k, bytes)| {
                serde_json::from_slice(bytes).map_err(|e| JobError::Body {
                    shard: format!("{}/{count}", k + 1),
                    why: format!("not {} ({e})", C::BODY),
                })
            })
            .collect::<Result<Vec<C::Body>, _>>()?;
        let (merged, markdown) = campaign.merge(dir, bodies, &|m| judge(&C::trials(m)))?;
        Ok(Merged { merged, markdown })
    };
    if *mode == Mode::Whole {
        if let Some((count, items)) = campaign.chunks() {
            return chunked(
                campaign,
                dir,
                job,
                (count, items),
                existing,
                progress,
                merge,
            );
        }
        if let Some(written) = campaign.whole(dir, job, existing, progress) {
            let (merged, markdown) = written?;
            return Ok(Outcome::Merged(Merged { merged, markdown }));
        }
    }
    // A shard whose run was stopped is never stored as whole, whatever the campaign's
    // run_shard returned (a one-process run may keep what it finished; a shard file may not).
    let broke = std::cell::Cell::new(false);
    let mut watched = |tick: &Tick| {
        let flow = progress(tick);
        broke.set(broke.get() | flow.is_break());
        flow
    };
    shards::drive(
        dir,
        job,
        mode,
        |id| {
            let found = campaign.run_shard(id, &mut watched)?;
            if broke.get() && matches!(mode, Mode::Shard(_)) {
                return Err(JobError::ShardStopped { shard: id });
            }
            body(&found)
        },
        merge,
    )
}

/// A shard's findings as its file holds them.
fn body<B: Serialize>(body: &B) -> Result<Vec<u8>, JobError> {
    Ok(serde_json::to_vec(body).expect("a shard's body serialises"))
}

/// The one-process run in `count` chunks of its `items`, each stored as a shard file when it
/// is done (a chunk already stored is kept: `--resume`), then the merge.
fn chunked<C: Campaign>(
    campaign: &C,
    dir: &Path,
    job: &Job,
    (count, items): (u32, u64),
    existing: Existing,
    progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    merge: impl FnOnce(Vec<Vec<u8>>) -> Result<Merged<C::Merged>, JobError>,
) -> Result<Outcome<Merged<C::Merged>>, JobError> {
    // `--force` removes nothing while another run holds the folder: a running campaign's
    // chunks hold it shared, so its finished chunk is not deleted under it (issue 62).
    let _folder = match existing {
        Existing::Overwrite => Some(
            shards::lock_folder(dir, &job.command_with(&["--force"]))
                .map_err(|e| JobError::Model(e.into()))?,
        ),
        _ => None,
    };
    let stored: Vec<ShardId> = ShardId::all(count)
        .filter(|&id| shards::shard_path(dir, job, id).is_file())
        .collect();
    match existing {
        Existing::Overwrite => {
            for name in C::FILES {
                remove(&dir.join(name))?;
            }
            for id in &stored {
                remove(&shards::shard_path(dir, job, *id))?;
            }
        }
        Existing::Refuse if !stored.is_empty() => {
            return Err(JobError::Chunks {
                dir: dir.to_path_buf(),
                stored: stored.len(),
                count,
            });
        }
        Existing::Refuse | Existing::Resume => {}
    }
    // The chunks take their own locks (the folder's shared): this one must go first.
    drop(_folder);
    let all = items as usize;
    let mut before = 0;
    for id in ShardId::all(count) {
        let owned = (0..items).filter(|&k| id.owns(k)).count();
        let stopped = std::cell::Cell::new(false);
        let mut ticked = |tick: &Tick| {
            let flow = progress(&Tick {
                prefix: tick.prefix.clone(),
                done: before + tick.done,
                all,
            });
            stopped.set(stopped.get() | flow.is_break());
            flow
        };
        let done = shards::drive(
            dir,
            job,
            &Mode::Shard(id),
            |id| {
                let found = campaign.run_shard(id, &mut ticked)?;
                // A chunk cut short is not stored: `--resume` plays it again.
                match stopped.get() {
                    true => Err(JobError::ShardStopped { shard: id }),
                    false => body(&found),
                }
            },
            |_| -> Result<Merged<C::Merged>, JobError> { unreachable!("a shard does not merge") },
        );
        if let Err(e) = done {
            if stopped.get() {
                return Err(JobError::Stopped {
                    done: before,
                    all,
                    unit: C::UNIT,
                    dir: dir.to_path_buf(),
                });
            }
            return Err(e);
        }
        before += owned;
    }
    shards::drive(
        dir,
        job,
        &Mode::Merge(Some(count)),
        |_| -> Result<Vec<u8>, JobError> { unreachable!("a merge runs no shard") },
        merge,
    )
}

/// Removes `path` if it is there.
fn remove(path: &Path) -> Result<(), JobError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(JobError::Remove {
            path: path.to_path_buf(),
            error,
        }),
    }
}
