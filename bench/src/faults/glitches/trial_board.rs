//! The virtual board serving glitch trials over its stub: the intact game and each trial's
//! limits.

use std::path::Path;

use boards::virtual_board::{End, Monitor, Trial as GlitchTrial, TrialEnd};
use gdb_probe::Gdb;

use super::error::GlitchError;
use crate::dut::hil::virtual_board::{NO_FIXTURE, dial};
use crate::machine::VirtualBoard;

/// The game's noise stream (`monitor game`): the visitor's game is always the same.
pub const GAME: u64 = 0;
/// The intact game's limit, in instructions (it takes about 17 million, 1.3 s of its
/// 84 MHz): within the stub's answer timeout (5 s) at the board's 100-odd million a second.
const INTACT_LIMIT: u64 = 200_000_000;
/// A glitched game may take the intact game's instructions and this many more before it is
/// ended (stopped or slow): 1.25 times the board binary's watchdog ([`firmware::timing`]) in
/// core cycles. Time runs at least as fast as instructions (a poll of SysTick skips ahead), so
/// a firmware that stops feeding it is reset (detected) before its trial is ended.
const HANG_MARGIN: u64 =
    firmware::timing::SYSCLK_HZ as u64 * firmware::timing::WATCHDOG_MS as u64 / 1000 * 5 / 4;
/// The longest a trial's answer may take: a trial that polls a peripheral to its limit runs
/// on the models' callbacks, ten or more times slower than the intact game's instructions.
const TRIAL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// A virtual board serving glitch trials: the board binary on a cage without fixture.
#[derive(Debug)]
pub struct TrialBoard {
    /// Declared first: the connection closes before the board is killed.
    gdb: Gdb,
    _board: VirtualBoard,
}

impl TrialBoard {
    /// Starts the virtual board (`elf`, `profile`, `board_seed`) on a cage without fixture and
    /// dials its stub ([`dial`]); a run opens it through its spec
    /// (`RunSpec::trial_board`).
    pub fn start(
        elf: &Path,
        profile: &str,
        board_seed: Option<u64>,
    ) -> Result<TrialBoard, GlitchError> {
        let (mut gdb, board) = dial(
            &crate::machine::Launch::new(elf, profile)
                .seed(board_seed)
                .faults(&[NO_FIXTURE]),
        )?;
        gdb.set_answer_timeout(TRIAL_TIMEOUT)?;
        Ok(TrialBoard { gdb, _board: board })
    }

    /// Plays `trial` (the `index`-th, for what an error says).
    pub fn ask(&mut self, index: u64, trial: GlitchTrial) -> Result<TrialEnd, GlitchError> {
        let command = Monitor::Trial(trial).to_string();
        let said = self.gdb.monitor_output(&command)?;
        said.trim()
            .parse()
            .map_err(|e: boards::virtual_board::TrialError| GlitchError::Answer {
                index,
                command,
                why: e.to_string(),
            })
    }

    /// The intact game at the visitor's `pace_ms`: its answer, which must be a verdict.
    pub fn intact(&mut self, pace_ms: u64) -> Result<TrialEnd, GlitchError> {
        let intact = self.ask(
            0,
            GlitchTrial {
                game: GAME,
                limit: INTACT_LIMIT,
                pace_ms,
                glitch: None,
            },
        )?;
        if intact.end != End::Verdict {
            return Err(GlitchError::Intact(intact.to_string()));
        }
        Ok(intact)
    }
}

/// The limit of a glitched trial, from the intact game's instructions.
pub fn limit(intact: &TrialEnd) -> u64 {
    intact.instructions.saturating_add(HANG_MARGIN)
}
