//! The bench protocol: round trips, truncation, corruption, resynchronisation, and the link
//! served by the application.

mod common;

use firmware::protocol::{
    Command, Frame, FrameReader, Identity, MAX_FRAME, Measurement, NO_SEQ, ProtocolError, Reply,
    Status, crc16, decode, encode,
};
use firmware::{Fault, LedPattern, Outcome, Phase, Server, Square};
use heuristic::{EdgeState, Side};
use proptest::prelude::*;

fn wire<T: serde::Serialize>(seq: u16, body: T) -> Vec<u8> {
    let mut out = [0u8; MAX_FRAME];
    let n = encode(&Frame { seq, body }, &mut out).unwrap();
    out[..n].to_vec()
}

/// Everything the reader makes of `bytes`.
fn read_all<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Vec<Result<Frame<T>, ProtocolError>> {
    let mut reader = FrameReader::new();
    bytes.iter().filter_map(|&b| reader.push(b)).collect()
}

fn commands() -> Vec<Command> {
    vec![
        Command::Identify,
        Command::Measure {
            pullups: false,
            samples: 16,
        },
        Command::Decide,
        Command::NewGame,
        Command::SetEdges([EdgeState::Short; 25]),
        Command::Status,
    ]
}

fn replies() -> Vec<Reply> {
    let c3 = Square { x: 3, y: 3 };
    vec![
        Reply::Identity(Identity {
            version: "0.1.0".try_into().unwrap(),
            board: "nucleo-f446re".try_into().unwrap(),
            size: 4,
            adc_bits: 10,
            fixture: true,
        }),
        Reply::Codes(Measurement {
            size: 4,
            pullups: true,
            samples: 4,
            codes: (1000u16..1014).collect(),
        }),
        Reply::Turn(Outcome::Move(c3)),
        Reply::Turn(Outcome::GameOver(Side::Short)),
        Reply::Turn(Outcome::Fault(Fault::CutNotMade(c3))),
        Reply::Status(Status {
            phase: Phase::Playing,
            size: 4,
            plies: 7,
            edges: [EdgeState::Resistor; 25].into_iter().collect(),
            pending_cut: Some(c3),
            hypotheses: 2,
            last: Some(Outcome::NewGame { size: 4 }),
            leds: LedPattern::FAULT,
        }),
        Reply::Done,
        Reply::Error(ProtocolError::Checksum),
    ]
}

#[test]
fn crc_check_value() {
    assert_eq!(crc16(b"123456789"), 0x29B1);
}

#[test]
fn every_message_round_trips_in_one_frame() {
    for (seq, command) in (0u16..).zip(commands()) {
        let bytes = wire(seq, command.clone());
        assert!(bytes.len() <= MAX_FRAME);
        assert_eq!(
            bytes.iter().filter(|&&b| b == 0).count(),
            1,
            "one zero, at the end"
        );
        assert_eq!(read_all(&bytes), [Ok(Frame { seq, body: command })]);
    }
    for (seq, reply) in (100u16..).zip(replies()) {
        let bytes = wire(seq, reply.clone());
        assert!(bytes.len() <= MAX_FRAME, "{reply:?}: {} bytes", bytes.len());
        assert_eq!(read_all(&bytes), [Ok(Frame { seq, body: reply })]);
    }
}

#[test]
fn a_truncated_frame_is_refused_and_the_next_one_read() {
    let good = wire(7, Command::Status);
    for cut in 1..good.len() - 1 {
        // The frame loses its tail but the delimiter arrives; then a whole frame follows.
        let mut bytes = good[..cut].to_vec();
        bytes.push(0);
        bytes.extend(&good);
        let frames = read_all::<Command>(&bytes);
        assert_eq!(frames.len(), 2, "cut at {cut}");
        assert!(frames[0].is_err(), "cut at {cut}: {:?}", frames[0]);
        assert_eq!(
            frames[1],
            Ok(Frame {
                seq: 7,
                body: Command::Status
            })
        );
    }
}

#[test]
fn a_lost_delimiter_costs_two_frames_at_most() {
    let first = wire(1, Command::Identify);
    let second = wire(2, Command::Decide);
    let third = wire(3, Command::Status);
    let mut bytes = first[..first.len() - 1].to_vec(); // delimiter lost
    bytes.extend(&second);
    bytes.extend(&third);
    let frames = read_all::<Command>(&bytes);
    assert!(frames[0].is_err());
    assert_eq!(
        frames.last(),
        Some(&Ok(Frame {
            seq: 3,
            body: Command::Status
        }))
    );
}

#[test]
fn every_single_bit_flip_is_caught() {
    let good = wire(
        513,
        Command::Measure {
            pullups: true,
            samples: 8,
        },
    );
    for i in 0..good.len() - 1 {
        for bit in 0..8 {
            let mut bytes = good.clone();
            bytes[i] ^= 1 << bit;
            bytes.push(0);
            for frame in read_all::<Command>(&bytes) {
                assert!(frame.is_err(), "byte {i} bit {bit} read as {frame:?}");
            }
        }
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let mut reader = FrameReader::new();
    for _ in 0..MAX_FRAME + 10 {
        assert!(reader.push::<Command>(7).is_none());
    }
    assert_eq!(reader.push::<Command>(0), Some(Err(ProtocolError::TooLong)));
    assert_eq!(
        ProtocolError::TooLong.to_string(),
        format!("frame longer than {MAX_FRAME} bytes")
    );
    // A lone delimiter is an empty frame: ignored.
    assert_eq!(reader.push::<Command>(0), None);
    // Valid COBS and checksum around something that is not a command.
    let mut bytes = wire(1, 0xFFu8)[..].to_vec();
    bytes.pop();
    assert_eq!(decode::<Command>(&mut bytes), Err(ProtocolError::Message));
    assert_eq!(
        ProtocolError::Checksum.to_string(),
        "malformed frame: checksum mismatch (corrupted or truncated)"
    );
}

#[test]
fn the_application_answers_over_the_link() {
    let mut app = common::app(common::Cage::new(4));
    let mut server = Server::new();
    let mut out = [0u8; MAX_FRAME];
    let mut replies = Vec::new();
    let good = wire(41, Command::Identify);
    let mut bytes = good[..4].to_vec();
    bytes.push(0); // a truncated frame
    bytes.extend(&good);
    bytes.extend(wire(42, Command::NewGame));
    for b in bytes {
        if let Some(n) = server.push(&mut app, b, &mut out) {
            replies.extend(read_all::<Reply>(&out[..n]));
        }
    }
    assert_eq!(replies.len(), 3);
    let Ok(Frame {
        seq: NO_SEQ,
        body: Reply::Error(_),
    }) = &replies[0]
    else {
        panic!("expected an error reply, got {:?}", replies[0]);
    };
    let Ok(Frame {
        seq: 41,
        body: Reply::Identity(id),
    }) = &replies[1]
    else {
        panic!("expected the identity, got {:?}", replies[1]);
    };
    assert_eq!(id.board.as_str(), "nucleo-f446re");
    assert_eq!(
        replies[2],
        Ok(Frame {
            seq: 42,
            body: Reply::Turn(Outcome::NewGame { size: 4 })
        })
    );
    common::finish(app);
}

proptest! {
    /// Any byte stream: the reader never panics, and a frame sent after a zero is read intact.
    #[test]
    fn garbage_never_panics_and_the_link_recovers(
        garbage in prop::collection::vec(any::<u8>(), 0..400),
        seq in any::<u16>(),
    ) {
        let mut bytes = garbage;
        bytes.push(0);
        bytes.extend(wire(seq, Command::Decide));
        let frames = read_all::<Command>(&bytes);
        prop_assert_eq!(frames.last(), Some(&Ok(Frame { seq, body: Command::Decide })));
    }

    /// Any bytes handed to `decode` give an error or a message, never a panic.
    #[test]
    fn decode_never_panics(mut bytes in prop::collection::vec(1u8..=255, 0..200)) {
        let _ = decode::<Command>(&mut bytes);
        let _ = decode::<Reply>(&mut bytes);
    }
}

/// Every reply `server` sends for `bytes`.
fn serve_all(
    app: &mut common::TestApp,
    server: &mut Server,
    bytes: &[u8],
) -> Vec<Result<Frame<Reply>, ProtocolError>> {
    let mut out = [0u8; MAX_FRAME];
    let mut replies = Vec::new();
    for &b in bytes {
        if let Some(n) = server.push(app, b, &mut out) {
            replies.extend(read_all::<Reply>(&out[..n]));
        }
    }
    replies
}

#[test]
fn a_command_sent_again_with_its_number_is_answered_again_not_carried_out_twice() {
    let mut app = common::app(common::Cage::new(4));
    let mut server = Server::new();
    serve_all(&mut app, &mut server, &wire(1, Command::NewGame));
    let first = serve_all(&mut app, &mut server, &wire(2, Command::Decide));
    let again = serve_all(&mut app, &mut server, &wire(2, Command::Decide));
    assert_eq!(first.len(), 1);
    assert_eq!(again, first, "the repeat gets the same reply");
    let status = serve_all(&mut app, &mut server, &wire(3, Command::Status));
    let [
        Ok(Frame {
            seq: 3,
            body: Reply::Status(status),
        }),
    ] = &status[..]
    else {
        panic!("expected a status, got {status:?}");
    };
    assert_eq!(status.plies, 1, "one cut, not two");
    // A new number is carried out: the machine cuts again.
    let next = serve_all(&mut app, &mut server, &wire(4, Command::Decide));
    assert_ne!(next, first);
    // Another command under the last number (a new session starting where the old one
    // stopped) is carried out, not answered from the copy.
    let status = serve_all(&mut app, &mut server, &wire(4, Command::Status));
    assert!(
        matches!(
            &status[..],
            [Ok(Frame {
                seq: 4,
                body: Reply::Status(_)
            })]
        ),
        "{status:?}"
    );
    common::finish(app);
}
