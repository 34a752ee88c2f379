//! The options every sharded command shares (`birdcage links`, `birdcage study`), mapped to
//! the one shard model ([`shards::drive`]): `--shard K/P`, `--merge`, `--slurm --shards P`,
//! `--status`, and with none of them the one-process run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use shards::slurm::{DEFAULT_MEM, DEFAULT_TIME, Options};
use shards::{Job, Mode, Outcome, ShardId};

use crate::args::whole;

/// The program's version, part of every spec hash: shards of another version are foreign.
pub const VERSION: &str = concat!("birdcage ", env!("CARGO_PKG_VERSION"));

/// How a long job is split and run (the shard model: README, "Beyond one machine").
#[derive(Args, Debug, Clone)]
pub struct ShardArgs {
    /// Run only shard K of P and store it in DIR (needs --out).
    #[arg(long, value_name = "K/P", alias = "part", requires = "out",
          conflicts_with_all = ["merge", "slurm", "status", "shards"])]
    pub shard: Option<ShardId>,
    /// Split into P shards: with --slurm, the array's size; with --merge or --status, the
    /// split to read (default: the one DIR holds).
    #[arg(long, value_name = "P", alias = "parts", allow_negative_numbers = true,
          value_parser = whole::<u32>(1, 1_000_000))]
    pub shards: Option<u32>,
    /// Make the report in DIR from the shards stored there (needs --out).
    #[arg(long, requires = "out", conflicts_with_all = ["slurm", "status"])]
    pub merge: bool,
    /// Submit the shards not done in DIR to Slurm as an array job, and a merge job after
    /// it (needs --out and --shards); run again, it resubmits only the shards not done.
    #[arg(long, requires_all = ["out", "shards"], conflicts_with = "status")]
    pub slurm: bool,
    /// Under --slurm, write the job scripts into DIR and submit nothing.
    #[arg(long, requires = "slurm")]
    pub dry_run: bool,
    /// Say each shard's state in DIR: done, running, failed or missing (from DIR and squeue).
    #[arg(long, requires = "out")]
    pub status: bool,
    /// Under --slurm, the partition (default: the cluster's).
    #[arg(long, value_name = "NAME", requires = "slurm")]
    pub partition: Option<String>,
    /// Under --slurm, time limit per task ([D-]HH:MM:SS).
    #[arg(long, value_name = "TIME", requires = "slurm", default_value = DEFAULT_TIME)]
    pub time: String,
    /// Under --slurm, memory per task (e.g. 512M, 2G).
    #[arg(long, value_name = "MEM", requires = "slurm", default_value = DEFAULT_MEM)]
    pub mem: String,
    /// Under --slurm, CPUs per task (a study shard uses as many threads).
    #[arg(long, value_name = "N", requires = "slurm", default_value_t = 1,
          allow_negative_numbers = true, value_parser = whole::<u32>(1, 1024))]
    pub cpus_per_task: u32,
    /// Under --slurm, at most K tasks at once (the array's %K).
    #[arg(long, value_name = "K", requires = "slurm", allow_negative_numbers = true,
          value_parser = whole::<u32>(1, 1_000_000))]
    pub at_once: Option<u32>,
}

impl ShardArgs {
    /// The mode the flags ask for.
    pub fn mode(&self) -> Mode {
        if let Some(id) = self.shard {
            Mode::Shard(id)
        } else if self.merge {
            Mode::Merge(self.shards)
        } else if self.slurm {
            Mode::Slurm {
                count: self.shards.expect("clap requires --shards"),
                options: Options {
                    partition: self.partition.clone(),
                    time: self.time.clone(),
                    mem: self.mem.clone(),
                    cpus_per_task: self.cpus_per_task,
                    at_once: self.at_once,
                },
                dry_run: self.dry_run,
            }
        } else if self.status {
            Mode::Status(self.shards)
        } else {
            Mode::Whole
        }
    }
}

/// This program's path and `dir` made absolute, so a job script runs them from any folder
/// on any node.
pub fn command(dir: &Path, args: &[String]) -> Result<Vec<String>> {
    let program = std::env::current_exe().context("finding this program's path")?;
    let dir =
        std::path::absolute(dir).with_context(|| format!("making {} absolute", dir.display()))?;
    let mut argv = vec![program.display().to_string()];
    argv.extend(args.iter().cloned());
    argv.push("--out".into());
    argv.push(dir.display().to_string());
    Ok(argv)
}

/// The folder, made absolute, for a job's files.
pub fn absolute(dir: &Path) -> Result<PathBuf> {
    std::path::absolute(dir).with_context(|| format!("making {} absolute", dir.display()))
}

/// What a run that made no report says (a shard, a submission, a status).
pub fn describe<T>(outcome: Outcome<T>, job: &Job, dir: &Path) -> Result<String, T> {
    Ok(match outcome {
        Outcome::Merged(t) => return Err(t),
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
