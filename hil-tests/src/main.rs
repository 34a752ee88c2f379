//! `hil-tests`: the bench's command line, one file per subcommand under `cmd/`
//! (`run`, `calibrate`, `doctor`; `run --scenario faults` in `cmd/faults.rs`).

/// `print!` for the bench's output, but a closed stdout (`hil-tests run ... | head`) is not
/// a panic: the report is already on disk, and what no one reads is dropped.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        let _ = write!(stdout, $($arg)*).and_then(|()| stdout.flush());
    }};
}

/// `println!` as [`out!`] is `print!`.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

mod args;
mod cmd;
mod exit;

use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use cmd::{calibrate::Calibrate, doctor::Doctor, run::Run};

/// The Bird Cage test bench.
#[derive(Debug, Parser)]
#[command(name = "hil-tests", version, after_help = exit::TABLE)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Run a scenario on a target and write its report.
    Run(Box<Run>),
    /// Fit the board's part values from a report's steps (any stage) and re-predict them.
    Calibrate(Calibrate),
    /// Bring-up, one line per step: probe, chip, firmware, RTT, both channels, self-check,
    /// fixture, and the start position's codes against the profile's band.
    Doctor(Doctor),
}

/// The progress bar of a run of `len` `what` (games, faults), its line starting with `prefix`.
pub(crate) fn progress(prefix: &str, what: &str, len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{prefix}{{bar:40}} {{pos}}/{{len}} {what} {{elapsed}} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// What a run calls after each game or fault: moves `bar`, and stops the run after Ctrl-C.
pub(crate) fn tick(bar: &ProgressBar, done: usize, known: usize) -> ControlFlow<()> {
    bar.set_length(known as u64);
    bar.set_position(done as u64);
    if STOP.load(Ordering::SeqCst) {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The program's version and the git commit it was built from (`build.rs`), part of the
/// spec hash of every sharded run: shards of another version are foreign, and named so.
pub(crate) const VERSION: &str = concat!("hil-tests ", env!("BIRDCAGE_VERSION"));

/// Set by Ctrl-C, SIGTERM or SIGHUP (ctrlc's `termination` feature): the campaign stops
/// after the game in hand and reports what it finished.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// The signals that set [`STOP`], as a stopped run names them.
pub(crate) const STOP_SIGNALS: &str = "Ctrl-C, SIGTERM or SIGHUP";

fn main() -> ExitCode {
    let cli: Cli = match args::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.cmd {
        Cmd::Run(run) => run.run(),
        Cmd::Calibrate(c) => c.run().map(|()| exit::Verdict::Done),
        Cmd::Doctor(d) => d.run(),
    };
    match result {
        Ok(verdict) => verdict.exit(),
        Err(e) => exit::of_error(&e),
    }
}
