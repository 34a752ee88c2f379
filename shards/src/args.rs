//! The options every sharded command shares (`birdcage links`, `birdcage study …`,
//! `hil-tests run`), written once for the binaries' clap parsers (feature `clap`; the library
//! itself carries no clap): `--shard K/P`, `--merge`, `--slurm --shards P`, `--status`, and
//! with none of them the one-process run.

use clap::Args;

use crate::Mode;
use crate::slurm::{DEFAULT_MEM, DEFAULT_TIME, Options};
use crate::{MAX_SHARDS, ShardId};

/// How a long job is split and run (the shard model: README, "Beyond one machine").
#[derive(Args, Debug, Clone)]
pub struct ShardArgs {
    /// Run only shard K of P and store it in DIR (needs --out): a pure function of the run's
    /// options and K, so any engine may run the P shards anywhere, in any order.
    #[arg(long, value_name = "K/P", alias = "part", requires = "out",
          conflicts_with_all = ["merge", "slurm", "status", "shards"])]
    pub shard: Option<ShardId>,
    /// Split into P shards: with --slurm, the array's size; with --merge or --status, the
    /// split to read (default: the one DIR holds).
    #[arg(long, value_name = "P", alias = "parts", allow_negative_numbers = true,
          value_parser = whole::<u32>(1, MAX_SHARDS.into()))]
    pub shards: Option<u32>,
    /// Make the report in DIR from the shards stored there (needs --out), byte for byte the
    /// report of one process.
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
    #[arg(long, value_name = "NAME", requires = "slurm",
          value_parser = slurm_value(crate::slurm::valid_partition, crate::slurm::PARTITION_FORMS))]
    pub partition: Option<String>,
    /// Under --slurm, time limit per task ([D-]HH:MM:SS).
    #[arg(long, value_name = "TIME", requires = "slurm", default_value = DEFAULT_TIME,
          value_parser = slurm_value(crate::slurm::valid_time, crate::slurm::TIME_FORMS))]
    pub time: String,
    /// Under --slurm, memory per task (e.g. 512M, 2G).
    #[arg(long, value_name = "MEM", requires = "slurm", default_value = DEFAULT_MEM,
          value_parser = slurm_value(crate::slurm::valid_mem, crate::slurm::MEM_FORMS))]
    pub mem: String,
    /// Under --slurm, CPUs per task (a study shard uses as many threads).
    #[arg(long, value_name = "N", requires = "slurm", default_value_t = 1,
          allow_negative_numbers = true, value_parser = whole::<u32>(1, 1024))]
    pub cpus_per_task: u32,
    /// Under --slurm, at most K tasks at once (the array's %K).
    #[arg(long, value_name = "K", requires = "slurm", allow_negative_numbers = true,
          value_parser = whole::<u32>(1, MAX_SHARDS.into()))]
    pub at_once: Option<u32>,
}

/// A parser that takes a Slurm option's value only in the forms `valid` accepts (the same
/// check [`Options::check`] makes before a script is written), naming them otherwise.
fn slurm_value(
    valid: fn(&str) -> bool,
    forms: &'static str,
) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |text: &str| {
        if valid(text) {
            Ok(text.to_string())
        } else {
            Err(format!("not a Slurm value (expected {forms})"))
        }
    }
}

/// Flags that make no mode together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    /// `--shards P` with no mode to give P to.
    #[error("--shards P goes with --slurm, --merge or --status (--shard K/P names P itself)")]
    ShardsAlone,
}

impl ShardArgs {
    /// The mode the flags ask for: the one-process run when none is given. `--shards P`
    /// alone is left to the command (`birdcage links` runs P parts in one process).
    pub fn mode(&self) -> Mode {
        if let Some(id) = self.shard {
            Mode::Shard(id)
        } else if self.merge {
            Mode::Merge(self.shards)
        } else if self.slurm {
            Mode::Slurm {
                // clap requires --shards with --slurm.
                count: self.shards.unwrap_or(1),
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

    /// [`ShardArgs::mode`] for a command where `--shards P` means nothing alone.
    pub fn checked_mode(&self) -> Result<Mode, ArgsError> {
        if self.shards.is_some() && !(self.slurm || self.merge || self.status) {
            return Err(ArgsError::ShardsAlone);
        }
        Ok(self.mode())
    }
}

/// A whole-number option's parser for clap, the one every binary of the project uses:
/// [`heuristic::whole`], so that a value out of `low..=high` is refused with the range in
/// words (`must be a whole number from 1 to 1024`), never the type's limits. The option takes
/// negative numbers (`allow_negative_numbers`) so that `-3` gets this message, not clap's
/// "unexpected argument".
pub fn whole<T: TryFrom<u64>>(
    low: u64,
    high: u64,
) -> impl Fn(&str) -> Result<T, heuristic::RangeError> + Clone + Send + Sync {
    move |text| {
        heuristic::whole(text, low, high)
            .and_then(|n| T::try_from(n).map_err(|_| heuristic::RangeError { low, high }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cmd {
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        #[command(flatten)]
        shard: ShardArgs,
    }

    fn mode(args: &[&str]) -> Result<Mode, String> {
        let cmd = Cmd::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .map_err(|e| e.kind().to_string())?;
        cmd.shard.checked_mode().map_err(|e| e.to_string())
    }

    #[test]
    fn each_flag_picks_its_mode() {
        assert_eq!(mode(&["--out", "d"]), Ok(Mode::Whole));
        assert_eq!(
            mode(&["--out", "d", "--part", "2/3"]),
            Ok(Mode::Shard(ShardId::new(2, 3).unwrap()))
        );
        assert_eq!(mode(&["--out", "d", "--merge"]), Ok(Mode::Merge(None)));
        assert_eq!(
            mode(&["--out", "d", "--status", "--shards", "4"]),
            Ok(Mode::Status(Some(4)))
        );
        let Ok(Mode::Slurm {
            count,
            options,
            dry_run,
        }) = mode(&[
            "--out",
            "d",
            "--slurm",
            "--shards",
            "8",
            "--at-once",
            "2",
            "--dry-run",
        ])
        else {
            panic!("not a submission")
        };
        assert_eq!((count, options.at_once, dry_run), (8, Some(2), true));
        assert_eq!(
            (options.time.as_str(), options.mem.as_str()),
            (DEFAULT_TIME, DEFAULT_MEM)
        );
    }

    #[test]
    fn flags_that_make_no_mode_are_refused() {
        assert_eq!(
            mode(&["--out", "d", "--shards", "4"]),
            Err(ArgsError::ShardsAlone.to_string())
        );
        // clap's own refusals: a shard without its folder, two modes, --slurm without P.
        assert!(mode(&["--shard", "1/2"]).is_err());
        assert!(mode(&["--out", "d", "--shard", "1/2", "--merge"]).is_err());
        assert!(mode(&["--out", "d", "--slurm"]).is_err());
        assert!(mode(&["--out", "d", "--slurm", "--shards", "0"]).is_err());
    }

    #[test]
    fn a_count_out_of_range_is_said_in_words() {
        let e = Cmd::try_parse_from(["x", "--out", "d", "--merge", "--shards", "-1"]).unwrap_err();
        assert!(
            e.to_string()
                .contains("must be a whole number from 1 to 1000000"),
            "{e}"
        );
    }
}
