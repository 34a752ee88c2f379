//! Command frames out and reply frames in, numbered: what every target's transport carries.

use firmware::protocol::{self, Command, Frame, FrameReader, MAX_FRAME, NO_SEQ, Reply};

use super::DutError;

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
pub fn encode_command(seq: u16, command: Command) -> Result<Vec<u8>, DutError> {
    let mut buf = [0u8; MAX_FRAME];
    let n = protocol::encode(&Frame { seq, body: command }, &mut buf)?;
    Ok(buf[..n].to_vec())
}

/// Reads the reply to command `seq` from `bytes`: a frame that does not decode is a link
/// error, a reply to another command is a lost frame.
pub fn decode_reply(seq: u16, bytes: &[u8]) -> Result<Reply, DutError> {
    let mut reader = FrameReader::new();
    let mut frame = None;
    for &b in bytes {
        if let Some(f) = reader.push::<Reply>(b) {
            frame = Some(f?);
        }
    }
    let frame = frame.ok_or(DutError::NoReply { seq })?;
    if frame.seq != seq {
        return Err(DutError::LostFrame {
            expected: seq,
            got: frame.seq,
        });
    }
    Ok(frame.body)
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
