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
