//! The Bird Cage test bench: the firmware against ideal solving, at three stages.
//!
//! - [`Target`]: the bench protocol to a board: [`Sil`] in-process (the firmware application
//!   on the emulated board, frames through [`firmware::serve`]); `Hil` (probe-rs and RTT)
//!   behind the `probe` feature; [`Pil`], the firmware built for Cortex-M4F in QEMU.
//! - [`Scenario`]: replayed records, the M=3 tree, random games.
//! - [`Predictor::check`]: one decision against the emulator's codes and the ideal tied set,
//!   classified ([`Class`]).
//! - [`Report`]: JSON lines as the run goes, JSON and Markdown summaries, an SVG plot.
//! - [`calibrate`]: one board's part values fitted from its codes, and re-predicted.
//! - [`campaign`]: all of it; [`guided`]: the same with an operator making the moves on a
//!   cage without an edge fixture.
//! - [`fault_campaign`]: every single fault at every place of an emulated cage, against one
//!   reference game: detected, misread or silent ([`fault_table()`] sums it up per kind).
//!
//! The crate has no public modules: one concept per private module, every item re-exported
//! here.

mod agreement;
mod bench;
mod calibrate;
mod compare;
mod defmt_log;
mod doctor;
mod fault_kinds;
mod fault_table;
mod faults;
pub mod gdb;
mod guided;
mod hil;
mod link;
mod pil;
mod pil_link;
mod plot;
#[cfg(feature = "probe")]
mod probe;
mod report;
pub mod rtt;
mod rtt_pil;
mod scenario;
mod target;

pub use agreement::{Compared, Lockstep};
pub use bench::{Tally, measure, play_game};
pub use calibrate::{
    Calibration, CalibrationError, Fitted, MIN_STEPS, Observation, Residuals, calibrate,
    calibrate_report, observations,
};
pub use compare::{Class, Fit, Off, Predictor, Step};
pub use defmt_log::{DefmtError, DefmtLog};
pub use doctor::{Check, StepVerdict, protocol_checks};
pub use fault_kinds::{FaultTarget, Kind, place};
pub use fault_table::{
    FaultRow, fault_csv, fault_detail, fault_markdown, fault_rows, fault_table, write_fault_report,
};
pub use faults::{FaultCampaignError, FaultRun, Trial, Verdict, fault_campaign};
pub use guided::{Console, Emulated, GuidedError, Hands, Human, Task, guided};
pub use hil::{PROBE_ENV, is_qemu, probe_request};
pub use link::{LinkStats, Polling};
pub use pil::{
    ELF_ENV, ElfError, Pil, PilOptions, QEMU, QemuEvent, QemuExit, QemuFailure, firmware_elf,
    qemu_available,
};
pub use pil_link::PilTarget;
#[cfg(feature = "probe")]
pub use probe::{Hil, Service, qemu};
pub use report::{Existing, Header, Misfit, PLOT, Report, ReportError, STEPS, Scan};
pub use rtt_pil::RttPil;
pub use scenario::{Scenario, ScenarioError, Script};
pub use target::{
    CageError, Lost, Sequence, Sil, Target, TargetError, decode_reply, encode_command,
};

use std::ops::ControlFlow;

use firmware::protocol::{Command, Reply};

/// Why a campaign stopped.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The target failed.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The report could not be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The caller stopped the run between two games (the CLI does on Ctrl-C).
    #[error("stopped after game {games} of {known}")]
    Stopped {
        /// Games finished.
        games: usize,
        /// Games known by then (a tree grows as it goes).
        known: usize,
    },
}

/// Identifies the target and builds the report header.
pub fn header(
    target: &mut dyn Target,
    scenario: &Scenario,
    board_seed: Option<u64>,
) -> Result<Header, TargetError> {
    match target.exchange(Command::Identify)? {
        Reply::Identity(id) => Ok(Header {
            stage: target.stage().to_string(),
            firmware: id.version.to_string(),
            board: id.board.to_string(),
            profile: None,
            board_seed,
            scenario: scenario.name.clone(),
            size: scenario.size.get(),
            games: scenario.games.len(),
        }),
        reply => Err(Lost::Unexpected {
            expected: "its identity",
            reply,
        }
        .into()),
    }
}

/// Plays every game of `scenario` not yet in `report`, writing each step as it comes;
/// `progress(done, known)` is called after each game, and stops the run by breaking. A tree
/// grows breadth first from its root branch, one game per branch.
pub fn campaign(
    target: &mut dyn Target,
    profile: &'static boards::Profile,
    scenario: &Scenario,
    report: &mut Report,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<(), CampaignError> {
    let predictor = Predictor::new(profile, scenario.size);
    let mut games: std::collections::VecDeque<Script> = scenario.games.iter().cloned().collect();
    let mut index = 0;
    while let Some(script) = games.pop_front() {
        let branches = match report.done(index) {
            Some(b) => b,
            None => {
                let mut steps = Vec::new();
                let b = play_game(
                    target,
                    &predictor,
                    scenario.size,
                    index,
                    &script,
                    &mut |s| steps.push(s),
                )?;
                for s in steps {
                    report.step(s)?;
                }
                report.end_game(index, b)?;
                b
            }
        };
        if let Script::Branch(path) = &script {
            for i in 0..branches.min(usize::from(u8::MAX)) {
                let mut child = path.clone();
                child.push(i as u8);
                games.push_back(Script::Branch(child));
            }
        }
        index += 1;
        let known = index + games.len();
        if progress(index, known).is_break() && !games.is_empty() {
            return Err(CampaignError::Stopped {
                games: index,
                known,
            });
        }
    }
    Ok(())
}
