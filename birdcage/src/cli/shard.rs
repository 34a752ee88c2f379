//! What `birdcage links` and `birdcage study` add to the shard model ([`shards::drive`],
//! whose options are [`shards::ShardArgs`]): the program's version and its command line.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The program's version and the git commit it was built from (`build.rs`), part of every
/// spec hash: shards of another version are foreign, and named so.
pub const VERSION: &str = concat!("birdcage ", env!("BIRDCAGE_VERSION"));

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

/// What `links` and `study` print, and whether it is a `--status` with a shard not done,
/// which exits [`crate::args::NOT_ALL_DONE`] so that a script gating on the status sees it.
pub struct Reply {
    /// stdout.
    pub text: String,
    /// A status with a shard running, failed or missing.
    pub not_all_done: bool,
}

impl Reply {
    /// A report, or anything but a status.
    pub fn done(text: String) -> Reply {
        Reply {
            text,
            not_all_done: false,
        }
    }

    /// What the shard model's run made of a job: the report through `report`, else its text.
    pub fn of<T>(
        outcome: shards::Outcome<T>,
        job: &shards::Job,
        dir: &Path,
        report: impl FnOnce(T) -> String,
    ) -> Reply {
        let not_all_done = outcome.not_all_done();
        let text = match outcome {
            shards::Outcome::Merged(t) => report(t),
            other => other.text(job, dir).unwrap_or_default(),
        };
        Reply { text, not_all_done }
    }

    /// The text to print, setting `exit` to [`crate::args::NOT_ALL_DONE`] when a shard is not done.
    pub fn text_exiting(self, exit: &mut Option<std::process::ExitCode>) -> String {
        if self.not_all_done {
            *exit = Some(std::process::ExitCode::from(crate::args::NOT_ALL_DONE));
        }
        self.text
    }
}
