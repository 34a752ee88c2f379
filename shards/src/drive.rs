//! The one driver every sharded command shares: the mode its flags chose, and what each
//! mode does with the job's two functions (run one shard, merge the shards' bodies).
//!
//! | flags | mode | does |
//! | --- | --- | --- |
//! | `--out DIR` | [`Mode::Whole`] | shard 1/1 in this process, then the merge (P = 1) |
//! | `--shard K/P --out DIR` | [`Mode::Shard`] | shard K/P into `DIR/NAME.K-of-P.shard` |
//! | `--merge --out DIR` | [`Mode::Merge`] | the report from the shards in DIR |
//! | `--slurm --shards P --out DIR` | [`Mode::Slurm`] | an array job of the shards not done, and a merge job |
//! | `--status --out DIR` | [`Mode::Status`] | each shard: done, running, failed or missing |

use std::path::{Path, PathBuf};

use crate::slurm::{self, SlurmError, Status, Submission};
use crate::{
    FileError, Job, LockError, ShardError, ShardId, lock_folder, lock_shard, read_shards,
    write_shard,
};

/// What a sharded command was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The one-process run: every shard here (P = 1), then the merge.
    Whole,
    /// One shard, into its file.
    Shard(ShardId),
    /// The report from the shards in the folder; P from `--shards`, else from the files.
    Merge(Option<u32>),
    /// Submit the shards not done to Slurm, and the merge after them.
    Slurm {
        /// P.
        count: u32,
        /// How each task is sized.
        options: slurm::Options,
        /// Write the scripts only.
        dry_run: bool,
    },
    /// Each shard's state; P from `--shards`, else from the files or the record.
    Status(Option<u32>),
}

/// What the run did.
#[derive(Debug)]
pub enum Outcome<T> {
    /// The report (a whole run or a merge).
    Merged(T),
    /// A shard's file was written (or was there whole already: `kept`).
    Shard {
        /// The file.
        path: PathBuf,
        /// It was there already and was not run again.
        kept: bool,
    },
    /// What was submitted.
    Submitted(Submission),
    /// The shards' states.
    Status(Status),
}

impl<T> Outcome<T> {
    /// A status with a shard not done (running, failed or missing): the run answered, and
    /// the answer is "not yet", which a CLI exits non-zero on.
    pub fn not_all_done(&self) -> bool {
        matches!(self, Outcome::Status(s) if !s.all_done())
    }

    /// What a run that made no report tells its user: the shard's file stored (or kept),
    /// the submission, the shards' states; `None` for a report (its caller shows it).
    pub fn text(&self, job: &Job, dir: &Path) -> Option<String> {
        Some(match self {
            Outcome::Merged(_) => return None,
            Outcome::Shard { path, kept: false } => format!("stored {}\n", path.display()),
            Outcome::Shard { path, kept: true } => {
                format!("{} is whole already: kept, not run again\n", path.display())
            }
            Outcome::Submitted(s) => {
                let count = s.shards.len() + s.done + s.queued.len();
                s.text(job, dir, count as u32)
            }
            Outcome::Status(s) => s.text(job, dir),
        })
    }
}

/// Why the model refused (the job's own errors pass through as they are).
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A shard that cannot be merged.
    #[error(transparent)]
    Shards(#[from] ShardError),
    /// The folder is in use.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Slurm.
    #[error(transparent)]
    Slurm(#[from] SlurmError),
    /// No shards to merge or to report on, and no P given.
    #[error("{} holds no shards of {job}: give --shards P, or run them first (`{command}`)", .dir.display())]
    NoShards {
        /// The folder.
        dir: PathBuf,
        /// The job's name.
        job: String,
        /// The shard command.
        command: String,
    },
    /// Shards of several splits.
    #[error("{} holds shards of {job} split {counts} ways; give --shards P", .dir.display())]
    Splits {
        /// The folder.
        dir: PathBuf,
        /// The job's name.
        job: String,
        /// The splits found, e.g. `8 and 16`.
        counts: String,
    },
    /// Writing a shard's file, or something not a regular file in its place.
    #[error(transparent)]
    File(#[from] FileError),
}

/// Runs `job` in `dir` as `mode` asks: `run` makes one shard's body (a pure function of the
/// shard id), `merge` makes and writes the report from every body in order. The one-process
/// run is `merge(vec![run(1/1)])`, under the folder's lock.
pub fn drive<T, E>(
    dir: &Path,
    job: &Job,
    mode: &Mode,
    run: impl FnOnce(ShardId) -> Result<Vec<u8>, E>,
    merge: impl FnOnce(Vec<Vec<u8>>) -> Result<T, E>,
) -> Result<Outcome<T>, E>
where
    E: From<ModelError>,
{
    let model = |e: ModelError| E::from(e);
    match mode {
        Mode::Whole => {
            let _lock = lock_folder(dir, &job.command_with(&[])).map_err(|e| model(e.into()))?;
            let body = run(ShardId::WHOLE)?;
            Ok(Outcome::Merged(merge(vec![body])?))
        }
        Mode::Shard(id) => {
            let _lock =
                lock_shard(dir, job, *id, &job.shard_command(*id)).map_err(|e| model(e.into()))?;
            refuse_foreign(dir, job).map_err(model)?;
            let survey = crate::survey(dir, job, id.count).map_err(|e| model(e.into()))?;
            if let Some((path, _)) = survey.done.get(&id.index) {
                return Ok(Outcome::Shard {
                    path: path.clone(),
                    kept: true,
                });
            }
            let body = run(*id)?;
            let path = write_shard(dir, job, *id, &body).map_err(|e| model(e.into()))?;
            Ok(Outcome::Shard { path, kept: false })
        }
        Mode::Merge(count) => {
            let _lock = lock_folder(dir, &job.merge_command()).map_err(|e| model(e.into()))?;
            let count = match count {
                Some(p) => *p,
                None => stored_count(dir, job).map_err(model)?,
            };
            let bodies = read_shards(dir, job, count).map_err(|e| model(e.into()))?;
            Ok(Outcome::Merged(merge(bodies)?))
        }
        Mode::Slurm {
            count,
            options,
            dry_run,
        } => {
            let _lock = slurm_lock(dir, job).map_err(model)?;
            Ok(Outcome::Submitted(
                slurm::submit(dir, job, *count, options, *dry_run).map_err(|e| model(e.into()))?,
            ))
        }
        Mode::Status(count) => {
            let count = match count {
                Some(p) => *p,
                None => match stored_count(dir, job) {
                    Ok(p) => p,
                    Err(e) => slurm::record(dir, job)
                        .submissions
                        .last()
                        .map(|s| s.count)
                        .ok_or_else(|| model(e))?,
                },
            };
            Ok(Outcome::Status(
                slurm::status(dir, job, count).map_err(|e| model(e.into()))?,
            ))
        }
    }
}

/// Submissions into one folder one at a time ([`crate::lock_submission`]).
fn slurm_lock(dir: &Path, job: &Job) -> Result<crate::Lock, ModelError> {
    Ok(crate::lock_submission(dir, &job.name)?)
}

/// The header of every shard file of `job.name` in `dir`, with its file.
type Headers = Vec<(PathBuf, crate::file::HeaderLines)>;

/// The headers of the shard files of `job.name` in `dir`, in file-name order.
fn headers(dir: &Path, job: &Job) -> Result<Headers, ShardError> {
    let prefix = format!("{}.", job.name);
    let entries = std::fs::read_dir(dir).map_err(|source| ShardError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(&prefix) && name.ends_with(".shard")) {
            continue;
        }
        match crate::file::read_header(&entry.path()) {
            Ok(Some(header)) => out.push((entry.path(), header)),
            Ok(None) => {}
            // A FIFO or a header claiming 1/4294967295: named now, never opened or counted.
            Err(why) => {
                return Err(ShardError::Corrupt {
                    path: entry.path(),
                    why,
                    command: job.shard_command_any(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Refuses to write into a folder that holds shards of this job's name with another spec
/// (another seed, size or version): a merge would refuse them anyway, and the run is wasted.
fn refuse_foreign(dir: &Path, job: &Job) -> Result<(), ModelError> {
    if let Some((path, h)) = headers(dir, job)?
        .into_iter()
        .find(|(_, h)| h.spec != job.spec)
    {
        return Err(ShardError::Foreign {
            command: job.shard_command(h.id),
            what: crate::file::whose(job, &job.name, &h.spec, &h.program, h.inputs.as_deref()),
            path,
        }
        .into());
    }
    Ok(())
}

/// The splits (P) of the shards of `job` (its spec) in `dir`, from their headers alone.
pub fn stored_counts(dir: &Path, job: &Job) -> Result<std::collections::BTreeSet<u32>, ShardError> {
    Ok(headers(dir, job)?
        .into_iter()
        .filter(|(_, h)| h.spec == job.spec)
        .map(|(_, h)| h.id.count)
        .collect())
}

/// P of the shards of `job` in `dir`, when they agree.
pub fn stored_count(dir: &Path, job: &Job) -> Result<u32, ModelError> {
    let counts = stored_counts(dir, job)?;
    if counts.is_empty() {
        // Shards of another spec only: named by the inputs that differ, not "no shards".
        refuse_foreign(dir, job)?;
    }
    match counts.len() {
        0 => Err(ModelError::NoShards {
            dir: dir.to_path_buf(),
            job: job.name.clone(),
            command: job.shard_command_any(),
        }),
        1 => Ok(counts.into_iter().next().expect("one")),
        _ => Err(ModelError::Splits {
            dir: dir.to_path_buf(),
            job: job.name.clone(),
            counts: counts
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" and "),
        }),
    }
}
