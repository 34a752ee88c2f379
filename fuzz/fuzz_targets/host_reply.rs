//! The bench protocol as the host reads it: [`bench::decode_reply`] (SIL, PIL and HIL read
//! their replies with it) and the PIL link's up frames (`Frame<Up>`, a reply or a sampler
//! request from the firmware in QEMU), which the bench reads byte by byte with a [`FrameReader`].
//!
//! Beyond "no panic": `decode_reply` answers what its contract says for the frames in the bytes
//! (the first bad frame's error, else the last frame's reply if its number is the one asked,
//! else a lost frame, else no reply), and every decoded frame re-encodes and reads the same.
#![no_main]

use core::fmt::Debug;

use firmware::pil::Up;
use firmware::protocol::{self, Frame, FrameReader, ProtocolError, MAX_FRAME, Reply};
use bench::{DutError, decode_reply};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;

fuzz_target!(|data: &[u8]| {
    let mut replies = FrameReader::new();
    let mut ups = FrameReader::new();
    let mut frames = Vec::new();
    for &byte in data {
        if let Some(read) = replies.push::<Reply>(byte) {
            round_trip(&read);
            frames.push(read);
        }
        if let Some(read) = ups.push::<Up>(byte) {
            round_trip(&read);
        }
    }

    // The number asked: the last frame's when there is one (the reply path), and another.
    let last = frames
        .iter()
        .rev()
        .find_map(|f| f.as_ref().ok())
        .map(|f| f.seq);
    let asked = last.unwrap_or(0);
    for seq in [asked, asked.wrapping_add(1)] {
        let got = decode_reply(seq, data);
        match frames.iter().find_map(|f| f.as_ref().err()) {
            Some(&error) => assert!(matches!(got, Err(DutError::Link(e)) if e == error)),
            None => match frames.last() {
                None => assert!(matches!(got, Err(DutError::NoReply { seq: s }) if s == seq)),
                Some(Ok(frame)) if frame.seq == seq => assert_eq!(got.unwrap(), frame.body),
                Some(Ok(frame)) => assert!(matches!(
                    got,
                    Err(DutError::LostFrame { expected, got }) if expected == seq && got == frame.seq
                )),
                Some(Err(_)) => unreachable!("the first bad frame is matched above"),
            },
        }
    }
});

/// A decoded frame goes back to the wire and decodes to the same frame.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(
    read: &Result<Frame<T>, ProtocolError>,
) {
    let Ok(frame) = read else { return };
    let mut wire = [0u8; MAX_FRAME];
    let n = protocol::encode(frame, &mut wire).expect("a frame that was read fits a frame");
    let again = protocol::decode::<T>(&mut wire[..n - 1]).expect("a re-encoded frame decodes");
    assert_eq!(&again, frame, "a re-encoded frame reads the same");
}
