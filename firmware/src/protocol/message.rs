//! The messages: what the bench asks, what the machine answers, and why it refuses.

use heuristic::EdgeState;
use serde::{Deserialize, Serialize};

use super::{CAGE_EDGES, MAX_CODES, MAX_FRAME, NAME_CAPACITY};
use crate::wire;
use crate::{Fault, LedPattern, Outcome, Phase, Square};

/// One message with its sequence number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame<T> {
    /// Chosen by the host for a command; copied into its reply.
    pub seq: u16,
    /// The message.
    pub body: T,
}

/// What the bench asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Firmware version, board, detected size, ADC bits.
    Identify,
    /// Read every node of the current board (M=4 before a size is detected), averaging
    /// `samples` (1..=[`MAX_SAMPLES`](super::MAX_SAMPLES)) conversions, with the pull-ups on or released.
    Measure {
        /// Pull-ups on (as for a move) or released (as for the game-over reading).
        pullups: bool,
        /// Conversions averaged per node.
        samples: u8,
    },
    /// What a button press does: game-over reading, self-check, move.
    Decide,
    /// Start a new game: detect the size, light every LED.
    NewGame,
    /// Set every edge of the M=4 cage through the fixture (M=4 reading order).
    SetEdges(#[serde(with = "wire::cage_states")] [EdgeState; CAGE_EDGES]),
    /// Phase, size, position, last outcome, LEDs.
    Status,
}

/// Who the firmware is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Crate version.
    pub version: heapless::String<NAME_CAPACITY>,
    /// Board profile name.
    pub board: heapless::String<NAME_CAPACITY>,
    /// Board size detected at the last new game; 0 before the first.
    pub size: u8,
    /// ADC resolution read.
    pub adc_bits: u8,
    /// Whether an edge fixture is fitted.
    pub fixture: bool,
}

/// Codes read for the bench.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measurement {
    /// Board size the codes are laid out for.
    pub size: u8,
    /// Pull-ups on while reading.
    pub pullups: bool,
    /// Conversions averaged per node.
    pub samples: u8,
    /// One code per node in `heuristic::Size::nodes` order (internal nodes, Q, 0); Q is the
    /// supply, reported as full scale.
    pub codes: heapless::Vec<u16, MAX_CODES>,
}

/// The machine's state for the bench.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Where the state machine is.
    pub phase: Phase,
    /// Board size; 0 before the first new game.
    pub size: u8,
    /// Moves in the position the machine believes (its cuts and the shorts it found).
    pub plies: u16,
    /// That position's edges, in reading order for its size.
    #[serde(with = "wire::edge_states")]
    pub edges: heapless::Vec<EdgeState, CAGE_EDGES>,
    /// The machine's cut waiting for Short's reply.
    pub pending_cut: Option<Square>,
    /// Positions that still explain every self-check.
    pub hypotheses: u8,
    /// The last outcome.
    pub last: Option<Outcome>,
    /// What the LEDs show.
    pub leds: LedPattern,
}

/// What the machine answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reply {
    /// To [`Command::Identify`].
    Identity(Identity),
    /// To [`Command::Measure`].
    Codes(Measurement),
    /// To [`Command::Decide`] and [`Command::NewGame`].
    Turn(Outcome),
    /// To [`Command::Status`].
    Status(Status),
    /// To [`Command::SetEdges`].
    Done,
    /// The command could not be carried out, or its frame could not be read.
    Error(ProtocolError),
}

/// Why a frame or a command was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ProtocolError {
    /// The bytes between two zeros are not valid COBS.
    #[error("malformed frame: not valid COBS")]
    Cobs,
    /// The frame is too short to hold a checksum, or its checksum does not match.
    #[error("malformed frame: checksum mismatch (corrupted or truncated)")]
    Checksum,
    /// The checksum matches but the payload is not a message.
    #[error("malformed frame: not a message")]
    Message,
    /// More than [`MAX_FRAME`] bytes before a zero.
    #[error("frame longer than {MAX_FRAME} bytes")]
    TooLong,
    /// A message that does not fit [`MAX_FRAME`] (never for this protocol's messages).
    #[error("message does not fit a frame")]
    Encode,
    /// `set edges` without a fixture.
    #[error("no edge fixture is fitted")]
    NoFixture,
    /// An argument out of range (samples 0 or above the maximum).
    #[error("argument out of range")]
    BadArgument,
    /// A hardware driver failed.
    #[error("hardware error: {0}")]
    Hardware(crate::Component),
}

impl From<Fault> for ProtocolError {
    fn from(fault: Fault) -> ProtocolError {
        match fault {
            Fault::Hardware(part) => ProtocolError::Hardware(part),
            _ => ProtocolError::BadArgument,
        }
    }
}
