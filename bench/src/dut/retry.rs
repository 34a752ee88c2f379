//! Waiting for a reply over a link that may drop one (an RTT up channel in `NoBlockSkip`
//! mode): the bench sends the command again with its number after a while without the
//! reply ([`firmware::Server`] answers a repeat from its copy, without carrying it out again),
//! and tells the reply apart from copies of it and from late answers to earlier repeats.
//! One wait loop ([`exchange`]) over a [`Backend`]: PIL over RTT (the bench's own reader
//! through QEMU's gdbstub) and the probe-rs target (`Hil`) each say only how they send,
//! poll and time out.

use std::time::{Duration, Instant};

use firmware::protocol::{Frame, NO_SEQ, ProtocolError, Reply};

use crate::dut::DutError;

/// How the bench polls a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polling {
    /// The pause between two polls while a reply is awaited.
    pub interval: Duration,
    /// How long without the reply before the command is sent again with its number.
    pub retry: Duration,
}

impl Polling {
    /// QEMU behind its gdbstub: a poll halts the guest for a few packets (~50 µs each), so a
    /// short pause (hil-tests/README.md has the figures).
    pub const QEMU: Polling = Polling {
        interval: Duration::from_micros(200),
        retry: Duration::from_secs(1),
    };

    /// The virtual board: its RAM is a memory window, so a poll is a few memory reads with no
    /// packet, and between polls the bench blocks in the board's `monitor wait` until an RTT
    /// offset moves ([`Backend::idle`]), sleeping while the board runs. Yielding instead (a
    /// zero interval, the fallback) spun the bench's core: the M=3 tree took 14 times as long
    /// beside two busy processes (issue 52). A 20 µs sleep made it 6.71 s against 5.82 s
    /// yielding (medians of three, alternated, release builds).
    pub const VIRTUAL: Polling = Polling {
        interval: Duration::ZERO,
        retry: Duration::from_secs(1),
    };

    /// A board behind a USB probe: one probe transaction is about a millisecond.
    pub const BOARD: Polling = Polling {
        interval: Duration::from_millis(2),
        retry: Duration::from_secs(1),
    };
}

impl Default for Polling {
    fn default() -> Polling {
        Polling::QEMU
    }
}

/// What the link went through: the recoveries a report counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RetryStats {
    /// Polls of the target.
    pub polls: u64,
    /// Commands sent again with their number because no reply had come.
    pub rerequests: u64,
    /// Replies that came after their command was sent again (the first copy to arrive).
    pub recovered: u64,
    /// Further copies of a reply (answers to repeats), counted and ignored.
    pub stale: u64,
    /// Replies the firmware says it dropped (its `reply dropped` and `asked to drop reply`
    /// log lines).
    pub dropped: u64,
}

impl std::ops::AddAssign for RetryStats {
    fn add_assign(&mut self, other: RetryStats) {
        self.polls += other.polls;
        self.rerequests += other.rerequests;
        self.recovered += other.recovered;
        self.stale += other.stale;
        self.dropped += other.dropped;
    }
}

impl RetryStats {
    /// Counts a firmware log line that says a reply was dropped.
    pub fn log_line(&mut self, line: &str) {
        if line.contains("reply dropped") || line.contains("asked to drop reply") {
            self.dropped += 1;
        }
    }
}

/// The wait for the reply to command `seq`.
#[derive(Debug)]
pub struct Awaiting {
    seq: u16,
    retry: Duration,
    sent: Instant,
    repeated: bool,
    answer: Option<Reply>,
}

impl Awaiting {
    /// The command numbered `seq` was just sent.
    pub fn new(seq: u16, polling: Polling) -> Awaiting {
        Awaiting {
            seq,
            retry: polling.retry,
            sent: Instant::now(),
            repeated: false,
            answer: None,
        }
    }

    /// Takes one reply frame read from the link: the first with the command's number is the
    /// answer; further copies and replies to earlier numbers are counted and ignored; the
    /// firmware's word that it could not read a frame is that link error; a reply to a number
    /// not sent yet is a lost frame.
    pub fn take(&mut self, frame: Frame<Reply>, stats: &mut RetryStats) -> Result<(), DutError> {
        if let (NO_SEQ, Reply::Error(error)) = (frame.seq, &frame.body) {
            // The firmware could not read a frame of ours: say why.
            return Err(DutError::Link(*error));
        }
        if frame.seq == self.seq && self.answer.is_none() {
            self.answer = Some(frame.body);
        } else if frame.seq == self.seq || is_earlier(frame.seq, self.seq) {
            stats.stale += 1;
        } else {
            return Err(DutError::LostFrame {
                expected: self.seq,
                got: frame.seq,
            });
        }
        Ok(())
    }

    /// The answer, once it came.
    pub fn answer(&mut self, stats: &mut RetryStats) -> Option<Reply> {
        let answer = self.answer.take()?;
        stats.recovered += u64::from(self.repeated);
        Some(answer)
    }

    /// Whether the command is due to be sent again.
    pub fn due(&self) -> bool {
        self.sent.elapsed() >= self.retry
    }

    /// How long until the command is due to be sent again.
    pub fn until_due(&self) -> Duration {
        self.retry.saturating_sub(self.sent.elapsed())
    }

    /// The command was sent again.
    pub fn repeated(&mut self, stats: &mut RetryStats) {
        stats.rerequests += 1;
        self.repeated = true;
        self.sent = Instant::now();
    }
}

/// What one poll of a link brought.
#[derive(Debug, Default)]
pub struct Polled {
    /// Reply frames that came whole (or did not decode).
    pub replies: Vec<Result<Frame<Reply>, ProtocolError>>,
    /// Whether anything moved (the next poll comes without a pause).
    pub busy: bool,
}

/// A link polled for replies, under [`exchange`].
pub trait Backend {
    /// Writes a command frame to the target, whole; whether it went (no room yet: `false`).
    fn send(&mut self, frame: &[u8]) -> Result<bool, DutError>;
    /// One poll: takes what came up (replies, logs, service requests). Log lines that say a
    /// reply was dropped are the backend's to count ([`RetryStats::log_line`]).
    fn poll(&mut self) -> Result<Polled, DutError>;
    /// Waits for the target to move, at most `limit`: for room in the down channel (`room`)
    /// or for anything up. A target that can say when it moved blocks here (the virtual
    /// board: the bench sleeps while the board runs); by default, a pause of `interval`.
    fn idle(&mut self, room: bool, interval: Duration, limit: Duration) -> Result<(), DutError> {
        let _ = (room, limit);
        pause(interval);
        Ok(())
    }
    /// The error for a frame that did not decode.
    fn bad_frame(&mut self, error: ProtocolError) -> DutError;
    /// The error for no reply to command `seq` in time.
    fn timed_out(&mut self, seq: u16) -> DutError;
}

/// The pause between two polls: `interval`, or with none, the core yielded to whoever needs it.
pub(crate) fn pause(interval: Duration) {
    if interval.is_zero() {
        std::thread::yield_now();
    } else {
        std::thread::sleep(interval);
    }
}

/// Sends command frame `frame` numbered `seq` and waits for its reply, polling `backend`:
/// the command goes again with its number after [`Polling::retry`] without the reply, copies
/// and late replies are counted in `stats`, and the whole wait is bounded by `timeout`.
pub fn exchange(
    backend: &mut dyn Backend,
    seq: u16,
    frame: &[u8],
    polling: Polling,
    timeout: Duration,
    stats: &mut RetryStats,
) -> Result<Reply, DutError> {
    let start = Instant::now();
    // The down channel holds one command: wait for the firmware to take the last one.
    while !backend.send(frame)? {
        stats.polls += 1;
        backend.poll()?;
        if start.elapsed() > timeout {
            return Err(backend.timed_out(seq));
        }
        let left = timeout.saturating_sub(start.elapsed());
        backend.idle(true, polling.interval, left)?;
    }
    let mut wait = Awaiting::new(seq, polling);
    loop {
        stats.polls += 1;
        let polled = backend.poll()?;
        // Every frame of the poll is looked at: copies of this reply (answers to its
        // repeats) are counted with the late ones.
        for reply in polled.replies {
            match reply {
                Ok(reply) => wait.take(reply, stats)?,
                Err(e) => return Err(backend.bad_frame(e)),
            }
        }
        if let Some(answer) = wait.answer(stats) {
            return Ok(answer);
        }
        if start.elapsed() > timeout {
            return Err(backend.timed_out(seq));
        }
        // A reply dropped by a full up channel: ask again with the same number.
        if wait.due() && backend.send(frame)? {
            wait.repeated(stats);
        }
        if !polled.busy {
            let left = timeout
                .saturating_sub(start.elapsed())
                .min(wait.until_due());
            backend.idle(false, polling.interval, left)?;
        }
    }
}

/// Whether reply number `got` answers a command sent before `expected` (numbers wrap, skipping
/// [`NO_SEQ`]).
fn is_earlier(got: u16, expected: u16) -> bool {
    got != NO_SEQ && (1..0x8000).contains(&expected.wrapping_sub(got))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(seq: u16) -> Frame<Reply> {
        Frame {
            seq,
            body: Reply::Done,
        }
    }

    #[test]
    fn the_answer_is_told_from_copies_late_replies_and_lost_frames() {
        let mut stats = RetryStats::default();
        let mut wait = Awaiting::new(10, Polling::QEMU);
        wait.take(reply(9), &mut stats).unwrap(); // a late copy of the last reply
        wait.take(reply(10), &mut stats).unwrap();
        wait.take(reply(10), &mut stats).unwrap(); // the answer to a repeat
        assert_eq!(wait.answer(&mut stats), Some(Reply::Done));
        assert_eq!(wait.answer(&mut stats), None);
        assert_eq!((stats.stale, stats.recovered), (2, 0));
        let mut wait = Awaiting::new(10, Polling::QEMU);
        let unreadable = Frame {
            seq: NO_SEQ,
            body: Reply::Error(firmware::protocol::ProtocolError::Checksum),
        };
        assert!(matches!(
            wait.take(unreadable, &mut stats),
            Err(DutError::Link(firmware::protocol::ProtocolError::Checksum))
        ));
        assert!(matches!(
            wait.take(reply(11), &mut stats),
            Err(DutError::LostFrame {
                expected: 10,
                got: 11
            })
        ));
    }

    #[test]
    fn numbers_wrap_around_past_the_error_number() {
        // 0 follows NO_SEQ - 1 (Sequence skips NO_SEQ): NO_SEQ - 1 is earlier than 0.
        assert!(is_earlier(NO_SEQ - 1, 0));
        assert!(is_earlier(0, 1));
        assert!(!is_earlier(1, 0));
        assert!(!is_earlier(NO_SEQ, 0));
    }

    #[test]
    fn a_reply_after_a_repeat_counts_as_recovered() {
        let mut stats = RetryStats::default();
        let mut wait = Awaiting::new(3, Polling::QEMU);
        wait.repeated(&mut stats);
        wait.take(reply(3), &mut stats).unwrap();
        assert!(wait.answer(&mut stats).is_some());
        assert_eq!((stats.rerequests, stats.recovered), (1, 1));
    }
}
