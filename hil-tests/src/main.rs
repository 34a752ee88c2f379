//! `hil-tests`: the bench's command line, one file per subcommand under `cmd/`
//! (`run`, `calibrate`, `doctor`); below them what they share: `progress`, `stop`, `version`.

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
mod progress;
mod stop;
mod version;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
