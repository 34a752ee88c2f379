//! The bench protocol as the firmware reads it: every byte that arrives down the link goes
//! through a [`FrameReader`], which decodes [`Command`] frames (board and QEMU), and, on the
//! QEMU build, the bench's answers to the sampler (`Frame<u16>`, `Frame<BurstCodes>`). The same
//! bytes are also handed to [`protocol::decode`] whole, as one frame's bytes.
//!
//! Beyond "no panic": a frame that decodes re-encodes within [`MAX_FRAME`], with no zero but the
//! closing one, and decodes to the same frame again, through `decode` and through a reader.
#![no_main]

use core::fmt::Debug;

use firmware::pil::BurstCodes;
use firmware::protocol::{self, Command, Frame, FrameReader, ProtocolError, MAX_FRAME};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;

fuzz_target!(|data: &[u8]| {
    let mut commands = FrameReader::new();
    let mut codes = FrameReader::new();
    let mut bursts = FrameReader::new();
    for &byte in data {
        check(commands.push::<Command>(byte));
        check(codes.push::<u16>(byte));
        check(bursts.push::<BurstCodes>(byte));
    }
    check(Some(protocol::decode::<Command>(&mut data.to_vec())));
});

/// A decoded frame goes back to the wire and is read again as the same frame.
fn check<T: Serialize + DeserializeOwned + PartialEq + Debug>(
    read: Option<Result<Frame<T>, ProtocolError>>,
) {
    let Some(Ok(frame)) = read else { return };
    let mut wire = [0u8; MAX_FRAME];
    let n = protocol::encode(&frame, &mut wire).expect("a frame that was read fits a frame");
    let (&last, body) = wire[..n].split_last().expect("a frame is never empty");
    assert_eq!(last, 0, "a frame ends with its zero");
    assert!(!body.contains(&0), "COBS leaves no zero inside a frame");

    let mut reader = FrameReader::new();
    let mut again = None;
    for &byte in &wire[..n] {
        assert!(again.is_none(), "one frame, one result");
        again = reader.push::<T>(byte);
    }
    assert_eq!(again, Some(Ok(frame)), "a re-encoded frame reads the same");
}
