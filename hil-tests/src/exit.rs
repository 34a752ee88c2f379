//! How a `hil-tests` command ends: one exit code per meaning, so a CI job can gate on the
//! status alone (issue 49: the bench exited 0 when every game failed). `--help` and
//! hil-tests/README.md print [`TABLE`]; `tests/cli.rs` checks both say the same.

use std::process::ExitCode;

/// What a command that ran comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every game, step and trial passed (a campaign: it ran and its `--fail-on` held): the
    /// words name the criterion that held, so a pass is said as plainly as a failure (issue
    /// 63: `Faults (wiring or firmware): 0.` was the only sign of one).
    Passed(String),
    /// The command ran and judged nothing (a shard written, a job submitted, a calibration):
    /// exit 0, and no verdict line, since the merge or the run that reads it judges.
    Done,
    /// The run ended and something failed: the words say what, and where it is written.
    Failed(String),
    /// `--status` answered, and a shard is not done (running, failed or missing): the
    /// states are on stdout; a script waiting on the status must not take it for done.
    NotAllDone,
}

/// Exit code 0: passed.
pub const PASSED: u8 = 0;
/// Exit code 1: the run ended, and a game, step or trial failed.
pub const FAILED: u8 = 1;
/// Exit code 2: no verdict (bad input, a refused folder, a target lost, a stopped run).
pub const NO_VERDICT: u8 = crate::args::BAD_INPUT;
/// Exit code 3: `--status` with a shard not done (as birdcage's `links` and `study`).
pub const NOT_ALL_DONE: u8 = 3;

/// The exit codes in words: `--help`'s and README's table (the same words as birdcage's and
/// virtual-board's for 0 and 2).
pub const TABLE: &str = "\
Exit status:
  0  passed: every game, step and trial passed (a campaign: it ran to its end and its
     --fail-on criterion held)
  1  failed: the run ended and something failed: a game or step with a board or firmware
     fault (wiring, fault), a reply that disagrees with SIL (--compare-sil), a trial of a
     class --fail-on names; doctor: a step failed
  2  no verdict: bad input (one line on stderr naming it), a report folder refused, a
     target lost, or a run stopped before its end (Ctrl-C, SIGTERM, SIGHUP)
  3  --status: a shard is not done yet (running, failed or missing); the states are on
     stdout";

impl Verdict {
    /// The process's exit code, and the verdict's one line last: `passed: CRITERION` on
    /// stdout after the report, `failed: WHY` on stderr.
    pub fn exit(self) -> ExitCode {
        match self {
            Verdict::Passed(criterion) => {
                outln!("passed: {criterion}");
                ExitCode::from(PASSED)
            }
            Verdict::Done => ExitCode::from(PASSED),
            Verdict::Failed(why) => {
                eprintln!("failed: {why}");
                ExitCode::from(FAILED)
            }
            Verdict::NotAllDone => ExitCode::from(NOT_ALL_DONE),
        }
    }
}

/// A run that could not finish is no verdict, but one stopped by a disagreement with SIL is
/// a failure: the target answered, and answered otherwise.
pub fn of_error(e: &anyhow::Error) -> ExitCode {
    let disagreed = e.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<bench::DutError>(),
            Some(bench::DutError::Disagree { .. })
        ) || matches!(
            cause.downcast_ref::<bench::PlayError>(),
            Some(bench::PlayError::Dut(bench::DutError::Disagree { .. }))
        )
    });
    if disagreed {
        eprintln!("failed: {e:#}");
        ExitCode::from(FAILED)
    } else {
        eprintln!("error: {e:#}");
        ExitCode::from(NO_VERDICT)
    }
}
