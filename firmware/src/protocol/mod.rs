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
//!
//! In two parts, and a third below: the messages ([`Command`], [`Reply`], what they carry, and
//! [`ProtocolError`]); the bytes of a frame ([`encode`], [`decode`], [`FrameReader`],
//! [`crc16`]); how the messages write the [`EdgeState`](heuristic::EdgeState) and
//! [`Side`](heuristic::Side) of `heuristic`, which knows nothing of serde, through the crate's
//! `wire` module, the one place their bytes are fixed (`tests/wire_format.rs` pins them).

mod framing;
mod message;

pub use framing::{FrameReader, crc16, decode, encode};
pub use message::{Command, Frame, Identity, Measurement, ProtocolError, Reply, Status};

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
