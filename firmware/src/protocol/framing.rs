//! The bytes of a frame: postcard, then a CRC-16, then COBS and the closing zero.

use serde::{Serialize, de::DeserializeOwned};

use super::{Frame, MAX_FRAME, MAX_PAYLOAD, ProtocolError};

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
pub fn encode<T: Serialize>(frame: &Frame<T>, out: &mut [u8]) -> Result<usize, ProtocolError> {
    let mut raw = [0u8; MAX_PAYLOAD + 2];
    let n = postcard::to_slice(frame, &mut raw[..MAX_PAYLOAD])
        .map_err(|_| ProtocolError::Encode)?
        .len();
    let crc = crc16(&raw[..n]).to_le_bytes();
    raw[n..n + 2].copy_from_slice(&crc);
    let len = cobs::try_encode(&raw[..n + 2], out).map_err(|_| ProtocolError::Encode)?;
    *out.get_mut(len).ok_or(ProtocolError::Encode)? = 0;
    Ok(len + 1)
}

/// Decodes the bytes of one frame between two zeros (the zeros excluded), in place.
pub fn decode<T: DeserializeOwned>(bytes: &mut [u8]) -> Result<Frame<T>, ProtocolError> {
    let n = cobs::decode_in_place(bytes).map_err(|_| ProtocolError::Cobs)?;
    let raw = bytes.get(..n).ok_or(ProtocolError::Cobs)?;
    let split = n.checked_sub(2).ok_or(ProtocolError::Checksum)?;
    let (payload, crc) = raw.split_at(split);
    if crc16(payload).to_le_bytes() != crc {
        return Err(ProtocolError::Checksum);
    }
    postcard::from_bytes(payload).map_err(|_| ProtocolError::Message)
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
    /// [`ProtocolError::TooLong`].
    pub fn push<T: DeserializeOwned>(
        &mut self,
        byte: u8,
    ) -> Option<Result<Frame<T>, ProtocolError>> {
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
            Some(Err(ProtocolError::TooLong))
        } else if len == 0 {
            None
        } else {
            Some(decode(&mut self.buf[..len]))
        }
    }
}
