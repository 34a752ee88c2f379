//! The glitch campaign on the virtual board (`hil-tests run --stage hil --probe virtual
//! --scenario glitches --trials N --seed S`): the unmodified board binary, a simulated
//! visitor's game from power-on (perfect Short, the cage wired by hand, game 0's ADC noise),
//! and in each trial one fault, as a lab glitches a board: an instruction skipped, a bit of a
//! core register or flag flipped, a bit of an FPU register flipped, a bit of the SRAM in use
//! flipped (stack or statics), one ADC conversion corrupted, each at an instant of the
//! machine's work (the core's clock); or (`--kinds kept`) a bit of the state the machine keeps
//! between presses, flipped at a moment of the visit (the visitor's clock, their turns
//! included).
//!
//! The board injects and plays each trial in its own process (`monitor trial`, one answer a
//! game) and says what its LEDs showed after each press; the bench draws the trials from
//! `--seed` and judges each by what the visitor saw ([`GlitchClass::of`]), press by press
//! against the intact game, which must be SIL's game for the same board and noise.
//!
//! Here the index: the classes in `class`, a trial judged in `judge`, the stub's trials
//! in `trial_board`, SIL's reference in `sil`, the campaign's run in `prepared`, its
//! results in `results` and their files in `report`.

mod board;
mod class;
mod error;
mod judge;
mod prepared;
mod report;
mod results;
mod sil;
#[cfg(test)]
mod testing;
mod trial_board;

pub use super::glitch_plan::{Clocks, Kinds, KindsError, Plan, Window, WindowError};
pub use board::CampaignBoard;
pub use class::GlitchClass;
pub use error::GlitchError;
pub use judge::{Judged, Judgement};
pub use prepared::{Prepared, run};
pub use report::FUNCTIONS_LISTED;
pub use results::GlitchResults;
pub use sil::sil_game;
pub use trial_board::{GAME, TrialBoard, limit};
