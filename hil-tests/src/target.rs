//! The target abstraction: the bench speaks the firmware's bench protocol to every target
//! (encoded frames with sequence numbers, even in-process), so SIL, PIL and HIL differ only in
//! their transport and in how the cage is set to a position.

use emulator::emulated::{EmulatedApp, EmulatedCage};
use firmware::protocol::{self, Command, Frame, FrameReader, LinkError, MAX_FRAME, NO_SEQ, Reply};
use heuristic::{Position, Size};

/// Why an exchange with a target failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// The command could not be encoded, or the reply could not be read.
    #[error("bench link: {0}")]
    Link(#[from] LinkError),
    /// The target answered nothing to a whole command frame.
    #[error("no reply to command {seq}")]
    NoReply {
        /// The command's sequence number.
        seq: u16,
    },
    /// A reply carried another command's sequence number: frames were lost.
    #[error("lost frames: expected reply {expected}, got {got}")]
    LostFrame {
        /// The command's sequence number.
        expected: u16,
        /// The reply's.
        got: u16,
    },
    /// The target cannot put the cage in a position (no fixture, or a size it does not wire).
    #[error("cannot set the cage: {0}")]
    Cage(String),
    /// The target stopped answering (a probe unplugged, QEMU exited).
    #[error("target lost: {0}")]
    Lost(String),
    /// Two targets driven in lockstep answered the same command differently.
    #[error("targets disagree: {0}")]
    Disagree(String),
}

/// A board the bench drives: one command at a time, plus the cage under the board.
pub trait Target {
    /// The test stage: `SIL`, `PIL` or `HIL`.
    fn stage(&self) -> &'static str;

    /// Sends one command and waits for its reply.
    fn exchange(&mut self, command: Command) -> Result<Reply, TargetError>;

    /// Log lines the target wrote since the last call (decoded defmt on PIL and HIL).
    fn logs(&mut self) -> Vec<String>;

    /// Puts the cage in `position` (the emulated cage, or the edge fixture).
    fn set_cage(&mut self, position: &Position) -> Result<(), TargetError>;
}

/// Sequence numbers for commands: every value but [`NO_SEQ`], wrapping.
#[derive(Debug, Default)]
pub struct Sequence(u16);

impl Sequence {
    /// The next command's number.
    pub fn take(&mut self) -> u16 {
        let seq = self.0;
        self.0 = if seq + 1 == NO_SEQ { 0 } else { seq + 1 };
        seq
    }
}

/// Encodes a command frame, delimiter included.
pub fn encode_command(seq: u16, command: Command) -> Result<Vec<u8>, TargetError> {
    let mut buf = [0u8; MAX_FRAME];
    let n = protocol::encode(&Frame { seq, body: command }, &mut buf)?;
    Ok(buf[..n].to_vec())
}

/// Reads the reply to command `seq` from `bytes`: a frame that does not decode is a link
/// error, a reply to another command is a lost frame.
pub fn decode_reply(seq: u16, bytes: &[u8]) -> Result<Reply, TargetError> {
    let mut reader = FrameReader::new();
    let mut frame = None;
    for &b in bytes {
        if let Some(f) = reader.push::<Reply>(b) {
            frame = Some(f?);
        }
    }
    let frame = frame.ok_or(TargetError::NoReply { seq })?;
    if frame.seq != seq {
        return Err(TargetError::LostFrame {
            expected: seq,
            got: frame.seq,
        });
    }
    Ok(frame.body)
}

/// SIL: the firmware application in-process on the emulated board; frames go through
/// [`firmware::serve`] byte by byte, as they would over a wire.
#[derive(Debug)]
pub struct Sil {
    cage: EmulatedCage,
    app: EmulatedApp,
    reader: FrameReader,
    seq: Sequence,
}

impl Sil {
    /// The firmware on `profile`'s emulated board for games of `size`: nominal parts and a
    /// perfect ADC without a seed, parts and ADC drawn from `seed` with one.
    pub fn new(
        profile: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
    ) -> Result<Sil, TargetError> {
        let cage =
            EmulatedCage::new(profile, size, seed).map_err(|e| TargetError::Cage(e.to_string()))?;
        let app = cage.app(profile, firmware::Config::default());
        Ok(Sil {
            cage,
            app,
            reader: FrameReader::new(),
            seq: Sequence::default(),
        })
    }

    /// The emulated cage, to inject faults.
    pub fn cage(&self) -> &EmulatedCage {
        &self.cage
    }
}

impl Target for Sil {
    fn stage(&self) -> &'static str {
        "SIL"
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, TargetError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        let mut out = [0u8; MAX_FRAME];
        let mut reply = Vec::new();
        for &b in &frame {
            if let Some(n) = firmware::serve(&mut self.app, &mut self.reader, b, &mut out) {
                reply.extend_from_slice(&out[..n]);
            }
        }
        decode_reply(seq, &reply)
    }

    fn logs(&mut self) -> Vec<String> {
        // The host build of the firmware logs nothing (defmt is off).
        Vec::new()
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), TargetError> {
        wire(&self.cage, position)
    }
}

/// A target lost for the reason `e` gives.
pub(crate) fn lost(e: impl std::fmt::Display) -> TargetError {
    TargetError::Lost(e.to_string())
}

/// Wires an emulated cage (SIL, PIL) to `position`, which must be of the cage's size.
pub(crate) fn wire(cage: &EmulatedCage, position: &Position) -> Result<(), TargetError> {
    let holds = cage.position().size();
    if position.size() != holds {
        return Err(TargetError::Cage(format!(
            "the emulated cage holds M={} games, not M={}",
            holds.get(),
            position.size().get()
        )));
    }
    cage.wire(position.clone());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_numbers_wrap_around_the_error_number() {
        let mut seq = Sequence(NO_SEQ - 2);
        assert_eq!(seq.take(), NO_SEQ - 2);
        assert_eq!(seq.take(), NO_SEQ - 1);
        assert_eq!(seq.take(), 0);
        assert_eq!(seq.take(), 1);
    }
}
