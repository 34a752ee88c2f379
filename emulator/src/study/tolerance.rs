//! Tolerance study (to come).
use super::Control;
use super::positions::PositionSet;
use super::report::Output;
use crate::physical::Board;

/// Runs the study and writes its report; returns the Markdown summary.
pub fn write(
    _set: &PositionSet,
    _board: (String, Board),
    _seed: u64,
    _boards: u64,
    _control: &Control<'_>,
    _out: &Output,
    _command: &str,
) -> anyhow::Result<String> {
    anyhow::bail!("not yet")
}
