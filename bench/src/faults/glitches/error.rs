//! Why a glitch campaign could not run.

use gdb_probe::GdbError;

use crate::dut::hil::virtual_board::DialError;
use crate::machine::MachineError;

/// Why the campaign could not run.
#[derive(Debug, thiserror::Error)]
pub enum GlitchError {
    /// The virtual board did not start.
    #[error(transparent)]
    Board(#[from] MachineError),
    /// Its stub did not answer.
    #[error("the virtual board's stub: {0}")]
    Gdb(#[from] GdbError),
    /// It answered a trial with something else.
    #[error("trial {index} (`monitor {command}`): {why}")]
    Answer {
        /// Which trial (0: the intact game).
        index: u64,
        /// The command.
        command: String,
        /// What it said.
        why: String,
    },
    /// The intact game did not end with a verdict: nothing to judge against.
    #[error(
        "the intact game ended `{0}` instead of a verdict: check the board first (virtual-board visit)"
    )]
    Intact(String),
    /// The intact game is not SIL's for the same board and noise: the judge's reference
    /// would be wrong.
    #[error(
        "the intact game on the virtual board ({board}) is not SIL's for the same board and noise ({sil}): the campaign would judge against a wrong game; refused"
    )]
    Sil {
        /// The virtual board's record and winner.
        board: String,
        /// SIL's.
        sil: String,
    },
    /// A report file could not be written whole, or something not a regular file (a
    /// link, a FIFO) stands at its name.
    #[error(transparent)]
    File(#[from] shards::FileError),
    /// The report could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The board's and its stub's errors as the campaign's own, worded as they were.
impl From<DialError> for GlitchError {
    fn from(e: DialError) -> Self {
        match e {
            DialError::Board(e) => GlitchError::Board(e),
            DialError::Gdb(e) => GlitchError::Gdb(e),
        }
    }
}
