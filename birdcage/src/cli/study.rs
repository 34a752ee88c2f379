//! `birdcage study`: the quantisation, tolerance, pull-up and heuristic studies, written to a
//! folder as JSON, CSV, SVG plots and a Markdown summary (also printed). Each study is the
//! `studies` crate's [`Study`]: its options are its subcommand's (an option of another
//! study is refused by name), and one generic function runs any of them in the shard model.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use studies::study::{self, Study};
use studies::{Control, pullups, quantisation, strength, tolerance};

use super::progress::Progress;
use super::shard::{self, Reply};
use shards::ShardArgs;

/// Run a study over a set of positions and write its report.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(subcommand)]
    study: Which,
}

/// The table of studies: a line each, its doc its help, its type a [`Study`]. A new study
/// is one file in `studies` and one line here.
macro_rules! studies {
    ($($(#[doc = $doc:literal])* $variant:ident => $study:ty,)*) => {
        /// Which study.
        #[derive(Subcommand, Debug)]
        enum Which {
            $($(#[doc = $doc])* $variant(Run<<$study as Study>::Options>),)*
        }

        impl Which {
            fn run(&self) -> Result<Reply> {
                match self {
                    $(Which::$variant(run) => run.run::<$study>(),)*
                }
            }
        }
    };
}

studies! {
    /// ADC resolution 6..=16 bits: ideal converter, then each board's.
    Quantisation => quantisation::QuantisationStudy,
    /// Monte Carlo over boards drawn from each tolerance and distribution.
    Tolerance => tolerance::ToleranceStudy,
    /// Pull-up value and topology: decisions and the game-over reading.
    Pullups => pullups::PullupStudy,
    /// Shannon's heuristic on any graph: does it keep a perfect-play win? (Every game of up
    /// to --max-vertices vertices, grids, Gale boards, random planar and Erdős–Rényi graphs.)
    Heuristic => strength::StrengthStudy,
}

/// A study's options, then where its report goes and in which mode of the shard model.
#[derive(Args, Debug)]
struct Run<O: Args> {
    #[command(flatten)]
    options: O,
    /// Folder for the report (created if missing). A folder that holds a report already
    /// is refused. Default: NAME-study (quantisation-study, ...) in the current folder, or
    /// under target/ when the current folder is a cargo project's (a checkout's root), so
    /// that a report never lands among the sources.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace the report the folder holds (its summary.md, JSON, CSV and SVG files are
    /// removed first).
    #[arg(long)]
    force: bool,
    /// Run the study's independent reference instead (one plain loop, no shard, no part, no
    /// merge): what a merged study is checked against.
    #[arg(long, conflicts_with_all = ["shard", "shards", "merge", "slurm", "status"])]
    reference: bool,
    #[command(flatten)]
    shard: ShardArgs,
}

/// Where study `name`'s report goes without `--out`, run from `cwd`: a folder named for the
/// study, under `target/` in a cargo project's folder (where `cargo run` is typed, and where
/// git ignores `target/`), else in `cwd` itself.
fn default_out(name: &str, cwd: &std::path::Path) -> PathBuf {
    let folder = format!("{name}-study");
    match cwd.join("Cargo.toml").is_file() {
        true => PathBuf::from("target").join(folder),
        false => PathBuf::from(folder),
    }
}

/// Set by Ctrl-C: studies finish the chunk in hand and report what they finished.
static STOP: AtomicBool = AtomicBool::new(false);

impl Cmd {
    pub fn run(&self) -> Result<Reply> {
        self.study.run()
    }
}

impl<O: Args + serde::Serialize> Run<O> {
    /// Runs study `S` with these options in the mode asked: the plan first (a bad option or
    /// board costs nothing), then the shard model's driver.
    fn run<S: Study<Options = O>>(&self) -> Result<Reply> {
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| default_out(S::NAME, std::path::Path::new(".")));
        let mode = self.shard.checked_mode()?;
        // The options as the command writes them: what the report prints, and what a shard
        // or a Slurm task runs (the spec's fields, so none is left out).
        let mut argv = vec!["study".to_string(), S::NAME.to_string()];
        argv.extend(shards::options::to_args(&self.options)?);
        let command = format!("birdcage {}", argv.join(" "));
        let plan = S::plan(&self.options, &command)?;
        if self.reference {
            let out = studies::report::Output::fresh(&out, self.force)?;
            return Ok(Reply::done(plan.write_reference(&out)?));
        }
        studies::report::Output::new(&out)?;
        let dir = shard::absolute(&out)?;
        let job = shards::Job::new(
            S::NAME,
            &study::spec::<S>(&self.options)?,
            shard::VERSION,
            shard::command(&dir, &argv)?,
        );
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let bar = Progress::counted(format!("study {}", S::NAME), S::UNIT, None);
        let progress = |done: u64, total: u64| {
            bar.set_total(total);
            bar.set(done);
        };
        let control = Control {
            stop: &STOP,
            progress: &progress,
        };
        if let Some(own) = plan.run_own(&self.options, &dir, &mode, &job, &control, self.force) {
            let own = own?;
            bar.finish("done");
            return Ok(Reply {
                text: own.text,
                not_all_done: own.not_all_done,
            });
        }
        let outcome = study::drive(&plan, &dir, &job, &mode, &control, self.force)?;
        let summary = match outcome {
            shards::Outcome::Merged(summary) => summary,
            other => {
                bar.finish("done");
                return Ok(Reply::of(other, &job, &dir, |summary| summary));
            }
        };
        let written = dir.join("summary.md");
        bar.finish(&format!("report in {}", written.display()));
        if STOP.load(Ordering::SeqCst) {
            bail!("interrupted; what was finished is in {}", written.display());
        }
        Ok(Reply::done(summary))
    }
}

#[cfg(test)]
mod tests {
    use super::default_out;
    use std::path::{Path, PathBuf};

    /// Before issue 63 every study wrote `study/` into the folder it ran in, the checkout's
    /// root under `cargo run`.
    #[test]
    fn a_studys_report_goes_to_a_folder_named_for_it_never_among_a_checkouts_sources() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        assert_eq!(
            default_out("quantisation", &checkout),
            PathBuf::from("target/quantisation-study")
        );
        let elsewhere = tempfile::tempdir().unwrap();
        assert_eq!(
            default_out("tolerance", elsewhere.path()),
            PathBuf::from("tolerance-study")
        );
    }
}
