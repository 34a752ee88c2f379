//! The bench protocol's bytes, pinned: a frame of each message, with every domain type the
//! messages carry (edge states, a winner, a fault, an error), exactly as the bench and the
//! firmware exchange them. A change here breaks every bench and firmware built before it.

use firmware::protocol::{
    Command, Frame, Identity, MAX_FRAME, Measurement, ProtocolError, Reply, Status, decode, encode,
};
use firmware::{Component, Fault, LedPattern, Outcome, Phase, Square};
use heuristic::{EdgeState, Side};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `body` under `seq` encodes to `bytes` (closing zero included) and decodes back.
fn pinned<T: Serialize + DeserializeOwned + PartialEq + core::fmt::Debug>(
    seq: u16,
    body: T,
    bytes: &[u8],
) {
    let mut out = [0u8; MAX_FRAME];
    let frame = Frame { seq, body };
    let n = encode(&frame, &mut out).unwrap();
    assert_eq!(&out[..n], bytes, "{frame:?}");
    let mut read = bytes[..bytes.len() - 1].to_vec();
    assert_eq!(decode::<T>(&mut read), Ok(frame));
}

/// Resistor, Cut, Short, Resistor, ...: every state, in M=4 reading order.
fn edges() -> [EdgeState; 25] {
    let states = [EdgeState::Resistor, EdgeState::Cut, EdgeState::Short];
    core::array::from_fn(|i| states[i % 3])
}

#[test]
fn commands_on_the_wire() {
    pinned(1, Command::Identify, &[0x02, 0x01, 0x03, 0x3e, 0x2e, 0x00]);
    pinned(
        300,
        Command::Measure {
            pullups: true,
            samples: 16,
        },
        &[0x08, 0xac, 0x02, 0x01, 0x01, 0x10, 0x1b, 0x4b, 0x00],
    );
    pinned(
        2,
        Command::SetEdges(edges()),
        &[
            0x03, 0x02, 0x04, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01,
            0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03,
            0x25, 0x9e, 0x00,
        ],
    );
}

#[test]
fn replies_on_the_wire() {
    let c3 = Square { x: 3, y: 3 };
    pinned(
        3,
        Reply::Identity(Identity {
            version: "0.1.0".try_into().unwrap(),
            board: "nucleo-f446re".try_into().unwrap(),
            size: 4,
            adc_bits: 10,
            fixture: true,
        }),
        &[
            0x02, 0x03, 0x1a, 0x05, 0x30, 0x2e, 0x31, 0x2e, 0x30, 0x0d, 0x6e, 0x75, 0x63, 0x6c,
            0x65, 0x6f, 0x2d, 0x66, 0x34, 0x34, 0x36, 0x72, 0x65, 0x04, 0x0a, 0x01, 0xfd, 0x9d,
            0x00,
        ],
    );
    pinned(
        4,
        Reply::Codes(Measurement {
            size: 3,
            pullups: false,
            samples: 4,
            codes: [0u16, 1, 511, 1023].into_iter().collect(),
        }),
        &[
            0x04, 0x04, 0x01, 0x03, 0x03, 0x04, 0x04, 0x08, 0x01, 0xff, 0x03, 0xff, 0x07, 0xba,
            0xe5, 0x00,
        ],
    );
    pinned(
        5,
        Reply::Turn(Outcome::Move(c3)),
        &[0x08, 0x05, 0x02, 0x01, 0x03, 0x03, 0x33, 0x8d, 0x00],
    );
    pinned(
        6,
        Reply::Turn(Outcome::GameOver(Side::Cut)),
        &[0x04, 0x06, 0x02, 0x02, 0x03, 0x5b, 0xab, 0x00],
    );
    pinned(
        7,
        Reply::Turn(Outcome::GameOver(Side::Short)),
        &[0x07, 0x07, 0x02, 0x02, 0x01, 0xce, 0xcd, 0x00],
    );
    pinned(
        8,
        Reply::Turn(Outcome::Fault(Fault::Disagrees {
            code: 700,
            winner: Side::Short,
        })),
        &[
            0x0a, 0x08, 0x02, 0x03, 0x04, 0xbc, 0x05, 0x01, 0x4a, 0xa9, 0x00,
        ],
    );
    pinned(
        9,
        Reply::Turn(Outcome::Fault(Fault::NotWon {
            code: 3,
            winner: Side::Cut,
        })),
        &[0x06, 0x09, 0x02, 0x03, 0x05, 0x03, 0x03, 0x0e, 0x27, 0x00],
    );
    pinned(
        10,
        Reply::Status(Status {
            phase: Phase::Playing,
            size: 4,
            plies: 7,
            edges: edges().into_iter().collect(),
            pending_cut: Some(c3),
            hypotheses: 2,
            last: Some(Outcome::GameOver(Side::Short)),
            leds: LedPattern::FAULT,
        }),
        &[
            0x07, 0x0a, 0x03, 0x02, 0x04, 0x07, 0x19, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03,
            0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x01, 0x02,
            0x03, 0x01, 0x02, 0x0c, 0x01, 0x03, 0x03, 0x02, 0x01, 0x02, 0x01, 0x55, 0x55, 0x56,
            0xb5, 0x00,
        ],
    );
    pinned(
        u16::MAX,
        Reply::Error(ProtocolError::Checksum),
        &[0x08, 0xff, 0xff, 0x03, 0x05, 0x01, 0x84, 0xb6, 0x00],
    );
    pinned(
        11,
        Reply::Error(ProtocolError::Hardware(Component::Fixture)),
        &[0x07, 0x0b, 0x05, 0x07, 0x03, 0xdb, 0xd8, 0x00],
    );
}
