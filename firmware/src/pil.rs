//! The PIL link: the firmware built for QEMU's `mps2-an386` has no ADC and no cage, so its node
//! sampler asks the bench for every conversion, over the same byte link as the bench protocol.
//!
//! Down (bench to board) the link carries [`Frame<Command>`](crate::protocol::Command) while the
//! board waits for a command, and a `Frame<u16>` (one code) after each [`Up::Read`]. Up (board to
//! bench) every frame is a [`Frame<Up>`]: a reply, or one of the sampler's requests. The exchange
//! is strictly one request at a time, so the two directions never need more state than a frame.
//!
//! The host side answers [`Up::Read`] from the emulated board, in the order the firmware reads,
//! so that the same board, seed and firmware give the same codes in-process (SIL) and in QEMU
//! (PIL): any difference is the compiled firmware's.

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::InputPin;
use heuristic::{Node, Size};
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::protocol::NO_SEQ;
use crate::protocol::{self, Command, Frame, FrameReader, MAX_FRAME, ProtocolError, Reply};
use crate::{App, BURST, EdgeSwitches, Leds, Sampler, Server};

/// What the board sends up the PIL link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Up {
    /// The reply to a bench command (its frame carries the command's number).
    Reply(Reply),
    /// The sampler switches the pull-ups on (`true`) or releases them; no answer.
    Pullups(bool),
    /// The sampler asks for one conversion of the node with this index in M=4
    /// [`Size::nodes`] order; the bench answers with a `Frame<u16>` of the same number.
    Read(u8),
    /// The sampler asks for `count` (1..=[`BURST`]) conversions in a row of the node with
    /// this index; the bench answers with one `Frame<Vec<u16>>` of the same number.
    Burst {
        /// Node index in M=4 [`Size::nodes`] order.
        node: u8,
        /// Conversions.
        count: u8,
    },
}

/// The codes of one [`Up::Burst`].
pub type BurstCodes = heapless::Vec<u16, BURST>;

/// Byte I/O with the host bench, the PIL link's transport: blocking, in order, nothing lost
/// (semihosting or an RTT channel pair in QEMU, a pipe in tests).
pub trait HostIo {
    /// What can go wrong on it.
    type Error: core::fmt::Debug;

    /// Sends all of `bytes`.
    fn send(&mut self, bytes: &[u8]) -> Result<(), Self::Error>;

    /// Receives at least one byte into `buf`, blocking until there is one; returns the count.
    fn receive(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error>;
}

/// Why the bench's sampler could not give a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PilError<E> {
    /// The I/O failed.
    Io(E),
    /// The link ended (the bench closed it).
    Closed,
    /// A frame could not be encoded or read.
    Frame(ProtocolError),
    /// The bench answered a burst with another number of codes.
    BurstLength {
        /// Conversions asked for.
        asked: usize,
        /// Codes received.
        got: usize,
    },
    /// The answer carried another request's number.
    Sequence {
        /// The request's number.
        expected: u16,
        /// The answer's.
        got: u16,
    },
}

/// A [`Sampler`] whose conversions come from the bench.
#[derive(Debug)]
pub struct HostSampler<L> {
    io: L,
    reader: FrameReader,
    seq: u16,
}

impl<L: HostIo> HostSampler<L> {
    /// A sampler over `io`.
    pub fn new(io: L) -> HostSampler<L> {
        HostSampler {
            io,
            reader: FrameReader::new(),
            seq: 0,
        }
    }

    fn request(&mut self, up: Up) -> Result<u16, PilError<L::Error>> {
        let seq = self.seq;
        self.seq = self.seq.wrapping_add(1);
        send_up(&mut self.io, seq, up)?;
        Ok(seq)
    }
}

/// A node's index on the M=4 cage, where every node a sampler is asked for lies (M=3 sits on
/// it).
fn index(node: Node) -> u8 {
    node.index(Size::M4) as u8
}

impl<L: HostIo> HostSampler<L> {
    /// The bench's answer to request `seq`.
    fn answer<T: serde::de::DeserializeOwned>(
        &mut self,
        seq: u16,
    ) -> Result<T, PilError<L::Error>> {
        let answer = receive::<L, T>(&mut self.io, &mut self.reader)?;
        if answer.seq != seq {
            return Err(PilError::Sequence {
                expected: seq,
                got: answer.seq,
            });
        }
        Ok(answer.body)
    }
}

/// Sends one frame up `io`.
pub fn send_up<L: HostIo>(io: &mut L, seq: u16, up: Up) -> Result<(), PilError<L::Error>> {
    let mut out = [0u8; MAX_FRAME];
    let n = protocol::encode(&Frame { seq, body: up }, &mut out).map_err(PilError::Frame)?;
    io.send(&out[..n]).map_err(PilError::Io)
}

/// Bytes read from a link but not yet taken. [`receive`] takes one byte at a time so as never
/// to read past a frame; a link whose every read is costly (a semihosting call traps into
/// QEMU) reads as much as is there into an inbox and hands it out byte by byte. One inbox per
/// link, shared by all its readers (the command loop and the sampler), so that nothing read
/// ahead is lost.
#[derive(Debug)]
pub struct Inbox {
    buf: [u8; MAX_FRAME],
    start: usize,
    end: usize,
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox::new()
    }
}

impl Inbox {
    /// An empty inbox.
    pub const fn new() -> Inbox {
        Inbox {
            buf: [0; MAX_FRAME],
            start: 0,
            end: 0,
        }
    }

    /// Fills `out` from what is held; when nothing is, first reads once with `read` (which
    /// returns how many bytes it put in the buffer it is given, 0 at the link's end).
    pub fn take<E>(
        &mut self,
        out: &mut [u8],
        read: impl FnOnce(&mut [u8]) -> Result<usize, E>,
    ) -> Result<usize, E> {
        if self.start == self.end {
            self.start = 0;
            self.end = read(&mut self.buf)?.min(self.buf.len());
        }
        let n = out.len().min(self.end - self.start);
        out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        Ok(n)
    }
}

/// Receives frames from `io` into `reader` until one decodes as `T` (or fails to). Bytes
/// are taken one at a time, so nothing past the frame's closing zero is read: frames the
/// bench sent ahead (a flood, or a command behind the answer to a sampler's request) wait in
/// the link for the next call instead of being dropped with a receive buffer.
pub fn receive<L: HostIo, T: serde::de::DeserializeOwned>(
    io: &mut L,
    reader: &mut FrameReader,
) -> Result<Frame<T>, PilError<L::Error>> {
    let mut byte = [0u8; 1];
    loop {
        if io.receive(&mut byte).map_err(PilError::Io)? == 0 {
            return Err(PilError::Closed);
        }
        if let Some(frame) = reader.push::<T>(byte[0]) {
            return frame.map_err(PilError::Frame);
        }
    }
}

/// Waits for one bench command on `io`, carries it out and sends the reply up: the PIL
/// build's main loop over semihosting. Frames are answered as [`Server::answer`] does on the
/// board (unreadable ones with [`NO_SEQ`], a repeated number from the last reply).
pub fn serve<S, L, P, D, F, K>(
    app: &mut App<S, L, P, D, F>,
    io: &mut K,
    server: &mut Server,
) -> Result<(), PilError<K::Error>>
where
    S: Sampler,
    L: Leds,
    P: InputPin,
    D: DelayNs,
    F: EdgeSwitches,
    K: HostIo,
{
    let frame = match receive::<K, Command>(io, server.reader()) {
        Ok(frame) => Ok(frame),
        Err(PilError::Frame(error)) => Err(error),
        Err(other) => return Err(other),
    };
    let reply = server.answer(app, frame);
    send_up(io, reply.seq, Up::Reply(reply.body))
}

impl<L: HostIo> Sampler for HostSampler<L> {
    type Error = PilError<L::Error>;

    fn set_pullups(&mut self, on: bool) -> Result<(), Self::Error> {
        self.request(Up::Pullups(on)).map(|_| ())
    }

    fn read(&mut self, node: Node) -> Result<u16, Self::Error> {
        let seq = self.request(Up::Read(index(node)))?;
        self.answer(seq)
    }

    /// One round trip for the whole burst rather than one per conversion.
    fn read_burst(&mut self, node: Node, out: &mut [u16]) -> Result<(), Self::Error> {
        let asked = out.len().min(BURST);
        let seq = self.request(Up::Burst {
            node: index(node),
            count: asked as u8,
        })?;
        let codes: BurstCodes = self.answer(seq)?;
        if codes.len() != out.len() {
            return Err(PilError::BurstLength {
                asked: out.len(),
                got: codes.len(),
            });
        }
        out.copy_from_slice(&codes);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bench that answers every read with the node's index times ten.
    struct Bench {
        down: heapless::Vec<u8, 256>,
        up: FrameReader,
        requests: heapless::Vec<Up, 16>,
        lose_sequence: bool,
    }

    impl HostIo for Bench {
        type Error = ();

        fn send(&mut self, bytes: &[u8]) -> Result<(), ()> {
            for &b in bytes {
                if let Some(frame) = self.up.push::<Up>(b) {
                    let frame = frame.map_err(|_| ())?;
                    let seq = frame.seq + u16::from(self.lose_sequence);
                    let mut out = [0u8; MAX_FRAME];
                    let n = match frame.body {
                        Up::Read(i) => {
                            let body = u16::from(i) * 10;
                            protocol::encode(&Frame { seq, body }, &mut out)
                        }
                        // Conversion k of a burst reads the node's index times ten, plus k.
                        Up::Burst { node, count } => {
                            let body: BurstCodes = (0..u16::from(count))
                                .map(|k| u16::from(node) * 10 + k)
                                .collect();
                            protocol::encode(&Frame { seq, body }, &mut out)
                        }
                        _ => Ok(0),
                    }
                    .map_err(|_| ())?;
                    self.down.extend_from_slice(&out[..n]).map_err(|_| ())?;
                    self.requests.push(frame.body).map_err(|_| ())?;
                }
            }
            Ok(())
        }

        fn receive(&mut self, buf: &mut [u8]) -> Result<usize, ()> {
            // One byte at a time: the sampler must assemble frames across receives.
            match self.down.first().copied() {
                Some(b) => {
                    buf[0] = b;
                    self.down.remove(0);
                    Ok(1)
                }
                None => Ok(0),
            }
        }
    }

    fn bench(lose_sequence: bool) -> Bench {
        Bench {
            down: heapless::Vec::new(),
            up: FrameReader::new(),
            requests: heapless::Vec::new(),
            lose_sequence,
        }
    }

    #[test]
    fn reads_come_from_the_bench_in_order() {
        let mut sampler = HostSampler::new(bench(false));
        sampler.set_pullups(true).unwrap();
        let a1 = Size::M4.node(0);
        let bottom = Node::Bottom;
        assert_eq!(sampler.read(a1).unwrap(), 0);
        let expected = Node::Bottom.index(Size::M4) as u16 * 10;
        assert_eq!(sampler.read(bottom).unwrap(), expected);
        assert_eq!(
            sampler.io.requests.as_slice(),
            &[
                Up::Pullups(true),
                Up::Read(0),
                Up::Read(Node::Bottom.index(Size::M4) as u8)
            ]
        );
    }

    #[test]
    fn an_average_asks_for_its_conversions_in_bursts() {
        let mut sampler = HostSampler::new(bench(false));
        let node = Size::M4.node(2);
        // 40 conversions: a burst of 32, then one of 8; codes 20..=51 and 20..=27.
        let expected = ((20..52).sum::<u32>() + (20..28).sum::<u32>() + 20) / 40;
        assert_eq!(
            crate::sampler::average(&mut sampler, node, 40),
            Ok(expected as u16)
        );
        assert_eq!(
            sampler.io.requests.as_slice(),
            &[
                Up::Burst { node: 2, count: 32 },
                Up::Burst { node: 2, count: 8 }
            ]
        );
    }

    #[test]
    fn an_answer_to_another_request_is_refused() {
        let mut sampler = HostSampler::new(bench(true));
        assert_eq!(
            sampler.read(Node::Bottom),
            Err(PilError::Sequence {
                expected: 0,
                got: 1
            })
        );
    }

    #[test]
    fn a_closed_link_is_an_error_not_a_hang() {
        struct Closed;
        impl HostIo for Closed {
            type Error = ();
            fn send(&mut self, _: &[u8]) -> Result<(), ()> {
                Ok(())
            }
            fn receive(&mut self, _: &mut [u8]) -> Result<usize, ()> {
                Ok(0)
            }
        }
        let mut sampler = HostSampler::new(Closed);
        assert_eq!(sampler.read(Node::Bottom), Err(PilError::Closed));
    }

    /// Frames sent ahead arrive in one receive, as semihosting and RTT deliver them: each is
    /// read in its turn, none is dropped with the rest of a receive buffer.
    #[test]
    fn frames_sent_ahead_are_each_received() {
        struct Ahead(heapless::Vec<u8, 64>);
        impl HostIo for Ahead {
            type Error = ();
            fn send(&mut self, _: &[u8]) -> Result<(), ()> {
                Ok(())
            }
            fn receive(&mut self, buf: &mut [u8]) -> Result<usize, ()> {
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = heapless::Vec::from_slice(&self.0[n..]).map_err(|_| ())?;
                Ok(n)
            }
        }
        let mut io = Ahead(heapless::Vec::new());
        for (seq, body) in [
            (1, Command::Identify),
            (2, Command::Status),
            (3, Command::Decide),
        ] {
            let mut out = [0u8; MAX_FRAME];
            let n = protocol::encode(&Frame { seq, body }, &mut out).unwrap();
            io.0.extend_from_slice(&out[..n]).unwrap();
        }
        let mut reader = FrameReader::new();
        let got: heapless::Vec<(u16, Command), 3> = (0..3)
            .map(|_| {
                let frame = receive::<_, Command>(&mut io, &mut reader).unwrap();
                (frame.seq, frame.body)
            })
            .collect();
        assert_eq!(
            got.as_slice(),
            [
                (1, Command::Identify),
                (2, Command::Status),
                (3, Command::Decide)
            ]
        );
        assert_eq!(
            receive::<_, Command>(&mut io, &mut reader),
            Err(PilError::Closed)
        );
    }

    #[test]
    fn an_inbox_hands_out_a_read_byte_by_byte_and_reads_again_only_when_empty() {
        let mut inbox = Inbox::new();
        let mut reads = 0;
        let mut byte = [0u8; 1];
        let mut got: heapless::Vec<u8, 8> = heapless::Vec::new();
        for _ in 0..5 {
            let n = inbox
                .take(&mut byte, |buf: &mut [u8]| {
                    reads += 1;
                    buf[..3].copy_from_slice(&[reads, reads, reads]);
                    Ok::<usize, ()>(3)
                })
                .unwrap();
            assert_eq!(n, 1);
            got.push(byte[0]).unwrap();
        }
        assert_eq!(got.as_slice(), [1, 1, 1, 2, 2]);
        assert_eq!(reads, 2);
        let mut closed = Inbox::new();
        assert_eq!(closed.take(&mut byte, |_| Ok::<usize, ()>(0)), Ok(0));
    }
}
