//! A campaign ready to play (the board started, its intact game checked, the glitches
//! drawn), and the plain one-process loop over its trials.

use std::ops::ControlFlow;
use std::path::Path;

use boards::virtual_board::{Trial as GlitchTrial, TrialEnd};

use super::board::CampaignBoard;
use super::class::GlitchClass;
use super::error::GlitchError;
use super::judge::Judged;
use super::results::GlitchResults;
use super::sil::check_against_sil;
use super::trial_board::{GAME, TrialBoard, limit};
use crate::faults::glitch_plan::{Clocks, Plan};

/// A campaign ready to play: the virtual board, its intact game (SIL's, checked) and the
/// glitches drawn from the plan over it. Trial `k` (from 0) is glitch `k`; any subset of the
/// trials may be played, in any process, with the same answers.
#[derive(Debug)]
pub struct Prepared {
    board: TrialBoard,
    /// The intact game.
    pub intact: TrialEnd,
    /// Every trial's glitch, in order.
    pub glitches: Vec<boards::virtual_board::Glitch>,
    limit: u64,
    pace_ms: u64,
}

impl Prepared {
    /// Starts the virtual board (`elf` on `on`) and prepares the campaign on it ([`Prepared::on`]).
    pub fn start(elf: &Path, on: CampaignBoard<'_>, plan: &Plan) -> Result<Prepared, GlitchError> {
        Prepared::on(TrialBoard::start(elf, on.arg, on.seed)?, on, plan)
    }

    /// Plays the intact game on `board` (the virtual board of `on`), refuses one that is not
    /// SIL's, and draws `plan`'s glitches over it.
    pub fn on(
        mut board: TrialBoard,
        on: CampaignBoard<'_>,
        plan: &Plan,
    ) -> Result<Prepared, GlitchError> {
        let intact = board.intact(plan.pace_ms)?;
        check_against_sil(&intact, on)?;
        let glitches = plan.draw(Clocks {
            instructions: intact.instructions,
            visit_us: intact.visit_us,
        });
        Ok(Prepared {
            board,
            limit: limit(&intact),
            intact,
            glitches,
            pace_ms: plan.pace_ms,
        })
    }

    /// Plays trial `k` (from 0) and judges it.
    pub fn play(&mut self, k: usize) -> Result<Judged, GlitchError> {
        let trial = GlitchTrial {
            game: GAME,
            limit: self.limit,
            pace_ms: self.pace_ms,
            glitch: self.glitches.get(k).copied(),
        };
        let begun = std::time::Instant::now();
        let end = self.board.ask(k as u64 + 1, trial)?;
        let ms = begun.elapsed().as_secs_f64() * 1000.0;
        Ok(Judged {
            judgement: GlitchClass::of(&end, &self.intact),
            trial,
            end,
            ms,
        })
    }
}

/// Runs the trials of `plan` on the virtual board (`elf` on `board`), one after another in
/// this process: the plain loop the sharded campaign (the `shard::glitches` module) is checked
/// against. `tick(done, of)` after each (Break stops early, the trials done kept).
pub fn run(
    elf: &Path,
    board: CampaignBoard<'_>,
    plan: &Plan,
    tick: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<GlitchResults, GlitchError> {
    let mut prepared = Prepared::start(elf, board, plan)?;
    let started = std::time::Instant::now();
    let count = prepared.glitches.len();
    let mut judged = Vec::with_capacity(count);
    for k in 0..count {
        judged.push(prepared.play(k)?);
        if tick(k + 1, count).is_break() {
            break;
        }
    }
    Ok(GlitchResults {
        intact: prepared.intact,
        trials: judged,
        plan: plan.clone(),
        seconds: started.elapsed().as_secs_f64(),
    })
}
