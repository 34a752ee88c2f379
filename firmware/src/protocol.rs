//! The bench protocol: binary messages between the machine and a host bench, shared by the
//! firmware and std hosts (SIL in-process, PIL over QEMU, HIL over RTT up channel 1 and down
//! channel 0; defmt logs stay on up channel 0, so the bench never parses log text).
//!
//! A frame on the wire is `COBS(postcard(Frame) ++ CRC-16) ++ 0x00`:
//!
//! - [postcard](https://docs.rs/postcard) encodes a [`Frame`]: a sequence number and a body
//!   ([`Command`] to the machine, [`Reply`] back; a reply carries its command's number);
//! - a CRC-16/CCITT-FALSE of those bytes follows, little-endian, so that a corrupted or truncated
//!   frame is refused rather than misread;
//! - COBS removes every zero byte, and one zero ends the frame. A receiver that loses its place
//!   finds the next frame at the next zero; a lone zero is an empty frame and is ignored.
//!
//! A frame that cannot be read gets [`Reply::Error`] with sequence number [`NO_SEQ`]. Nothing in
//! this module panics on any input.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::{Fault, LedPattern, Outcome, Phase, Square};

/// Longest frame on the wire, delimiter included.
pub const MAX_FRAME: usize = 128;
/// Largest postcard payload: what COBS (one byte per 254), the CRC and the delimiter leave.
const MAX_PAYLOAD: usize = MAX_FRAME - 2 - 1 - MAX_FRAME.div_ceil(254);
/// Sequence number of a reply to a frame that could not be read.
pub const NO_SEQ: u16 = u16::MAX;
/// Nodes a measurement can hold: every node of the cage (its internal nodes, Q and 0).
pub const MAX_CODES: usize = boards::CAGE_SIZE.node_count();
/// Edges of the M=4 cage.
pub const CAGE_EDGES: usize = boards::CAGE_EDGES;
/// Longest board name or version string carried.
pub const NAME_CAPACITY: usize = 16;
/// Most samples a measurement averages.
pub const MAX_SAMPLES: u8 = *boards::ADC_SAMPLES.end();

/// One message with its sequence number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame<T> {
    /// Chosen by the host for a command; copied into its reply.
    pub seq: u16,
    /// The message.
    pub body: T,
}

/// An edge state on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WireState {
    /// In circuit.
    Resistor,
    /// Open.
    Cut,
    /// A wire.
    Short,
}

impl From<heuristic::EdgeState> for WireState {
    fn from(state: heuristic::EdgeState) -> WireState {
        match state {
            heuristic::EdgeState::Resistor => WireState::Resistor,
            heuristic::EdgeState::Cut => WireState::Cut,
            heuristic::EdgeState::Short => WireState::Short,
        }
    }
}

impl From<WireState> for heuristic::EdgeState {
    fn from(state: WireState) -> heuristic::EdgeState {
        match state {
            WireState::Resistor => heuristic::EdgeState::Resistor,
            WireState::Cut => heuristic::EdgeState::Cut,
            WireState::Short => heuristic::EdgeState::Short,
        }
    }
}

/// What the bench asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Firmware version, board, detected size, ADC bits.
    Identify,
    /// Read every node of the current board (M=4 before a size is detected), averaging
    /// `samples` (1..=[`MAX_SAMPLES`]) conversions, with the pull-ups on or released.
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
    SetEdges([WireState; CAGE_EDGES]),
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
    pub edges: heapless::Vec<WireState, CAGE_EDGES>,
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
    Error(LinkError),
}

/// Why a frame or a command was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LinkError {
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
    Hardware(crate::Part),
}

impl From<Fault> for LinkError {
    fn from(fault: Fault) -> LinkError {
        match fault {
            Fault::Hardware(part) => LinkError::Hardware(part),
            _ => LinkError::BadArgument,
        }
    }
}

/// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection): check value 0x29B1
/// for `123456789`.
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc = 0xFFFFu16;
    for &byte in bytes {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// Encodes `frame` into `out` with checksum, COBS and the closing zero; returns the length.
pub fn encode<T: Serialize>(frame: &Frame<T>, out: &mut [u8]) -> Result<usize, LinkError> {
    let mut raw = [0u8; MAX_PAYLOAD + 2];
    let n = postcard::to_slice(frame, &mut raw[..MAX_PAYLOAD])
        .map_err(|_| LinkError::Encode)?
        .len();
    let crc = crc16(&raw[..n]).to_le_bytes();
    raw[n..n + 2].copy_from_slice(&crc);
    let len = cobs::try_encode(&raw[..n + 2], out).map_err(|_| LinkError::Encode)?;
    *out.get_mut(len).ok_or(LinkError::Encode)? = 0;
    Ok(len + 1)
}

/// Decodes the bytes of one frame between two zeros (the zeros excluded), in place.
pub fn decode<T: DeserializeOwned>(bytes: &mut [u8]) -> Result<Frame<T>, LinkError> {
    let n = cobs::decode_in_place(bytes).map_err(|_| LinkError::Cobs)?;
    let raw = bytes.get(..n).ok_or(LinkError::Cobs)?;
    let split = n.checked_sub(2).ok_or(LinkError::Checksum)?;
    let (payload, crc) = raw.split_at(split);
    if crc16(payload).to_le_bytes() != crc {
        return Err(LinkError::Checksum);
    }
    postcard::from_bytes(payload).map_err(|_| LinkError::Message)
}

/// Collects bytes into frames: feed every received byte to [`FrameReader::push`].
#[derive(Debug)]
pub struct FrameReader {
    buf: [u8; MAX_FRAME],
    len: usize,
    overflow: bool,
}

impl Default for FrameReader {
    fn default() -> FrameReader {
        FrameReader::new()
    }
}

impl FrameReader {
    /// An empty reader.
    pub const fn new() -> FrameReader {
        FrameReader {
            buf: [0; MAX_FRAME],
            len: 0,
            overflow: false,
        }
    }

    /// Takes one byte; at a frame's closing zero returns the decoded frame or why it could not be
    /// read. Bytes past [`MAX_FRAME`] are dropped up to the next zero, which reports
    /// [`LinkError::TooLong`].
    pub fn push<T: DeserializeOwned>(&mut self, byte: u8) -> Option<Result<Frame<T>, LinkError>> {
        if byte != 0 {
            match self.buf.get_mut(self.len) {
                Some(slot) if !self.overflow => {
                    *slot = byte;
                    self.len += 1;
                }
                _ => self.overflow = true,
            }
            return None;
        }
        let (len, overflow) = (self.len, self.overflow);
        self.len = 0;
        self.overflow = false;
        if overflow {
            Some(Err(LinkError::TooLong))
        } else if len == 0 {
            None
        } else {
            Some(decode(&mut self.buf[..len]))
        }
    }
}
