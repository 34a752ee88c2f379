//! `hil-tests run`'s shard options (`--shard K/P`, `--merge`, `--slurm`, `--status`) and what
//! their outcome prints; the shard model is the `shards` crate's, the bench's jobs are
//! `bench::shard`'s.

use std::path::Path;

use anyhow::bail;
use shards::{Job, Mode, Outcome, ShardId, slurm};

use crate::args::whole;

#[derive(Debug, clap::Args)]
pub(crate) struct ShardArgs {
    /// Run shard K of P (1 <= K <= P) into `--out` as its own file: a pure function of the
    /// run's options and K, so any engine may run the P shards anywhere, in any order.
    #[arg(long, value_name = "K/P", group = "mode")]
    shard: Option<ShardId>,
    /// Write the report in `--out` from its shards (give the shards' options), byte for byte
    /// the report of one process.
    #[arg(long, group = "mode")]
    merge: bool,
    /// Submit the shards not done to Slurm (`sbatch`): an array job of `--shards P` tasks and
    /// a merge job after it; the same command resubmits the shards not done.
    #[arg(long, group = "mode", requires = "shards")]
    slurm: bool,
    /// Say for each shard in `--out` whether it is done, running, failed or missing.
    #[arg(long, group = "mode")]
    status: bool,
    /// P, the number of shards: for `--slurm`; for `--merge` and `--status` when the
    /// folder's shards do not say it.
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = whole(1, 100_000))]
    shards: Option<u64>,
    /// With `--slurm`: write the job scripts into `--out`, submit nothing.
    #[arg(long, requires = "slurm")]
    dry_run: bool,
    /// With `--slurm`: the partition (the cluster's default when not given).
    #[arg(long, requires = "slurm")]
    partition: Option<String>,
    /// With `--slurm`: the time limit of each task ([D-]HH:MM:SS).
    #[arg(long, value_name = "TIME", requires = "slurm", default_value = slurm::DEFAULT_TIME)]
    time: String,
    /// With `--slurm`: the memory of each task (`512M`, `2G`).
    #[arg(long, value_name = "MEM", requires = "slurm", default_value = slurm::DEFAULT_MEM)]
    mem: String,
    /// With `--slurm`: CPUs of each task.
    #[arg(long, requires = "slurm", default_value_t = 1, allow_negative_numbers = true, value_parser = whole(1, 1024))]
    cpus_per_task: u64,
    /// With `--slurm`: at most this many tasks at once (the array's `%K`).
    #[arg(long, requires = "slurm", allow_negative_numbers = true, value_parser = whole(1, 100_000))]
    at_once: Option<u64>,
}

impl ShardArgs {
    /// What the flags ask: the one-process run when none is given.
    pub(crate) fn mode(&self) -> anyhow::Result<Mode> {
        let count = self.shards.map(|p| p as u32);
        if count.is_some() && !(self.slurm || self.merge || self.status) {
            bail!("--shards P goes with --slurm, --merge or --status (--shard K/P names P itself)");
        }
        Ok(if let Some(id) = self.shard {
            Mode::Shard(id)
        } else if self.merge {
            Mode::Merge(count)
        } else if self.slurm {
            Mode::Slurm {
                count: count.unwrap_or(1),
                options: slurm::Options {
                    partition: self.partition.clone(),
                    time: self.time.clone(),
                    mem: self.mem.clone(),
                    cpus_per_task: self.cpus_per_task as u32,
                    at_once: self.at_once.map(|k| k as u32),
                },
                dry_run: self.dry_run,
            }
        } else if self.status {
            Mode::Status(count)
        } else {
            Mode::Whole
        })
    }
}

/// Prints what a sharded run did: the report's summary, the shard's file, the submission or
/// the status.
pub(crate) fn print(outcome: Outcome<String>, job: &Job, dir: &Path, mode: &Mode) {
    match outcome {
        Outcome::Merged(markdown) => {
            out!("{markdown}");
            outln!("Report: {}", dir.display());
        }
        Outcome::Shard { path, kept: false } => outln!("Shard written: {}", path.display()),
        Outcome::Shard { path, kept: true } => {
            outln!("Shard already done (kept as it is): {}", path.display())
        }
        Outcome::Submitted(submission) => {
            let count = match mode {
                Mode::Slurm { count, .. } => *count,
                _ => 1,
            };
            out!("{}", submission.text(job, dir, count));
        }
        Outcome::Status(status) => out!("{}", status.text(job, dir)),
    }
}
