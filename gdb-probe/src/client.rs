//! A small client of the GDB remote serial protocol, enough to be a debugger to a stub (QEMU's
//! gdbstub, a virtual board's): halt, resume, step, read and write memory and registers, and
//! monitor commands. RTT needs nothing more: its ring buffers are plain target RAM that a
//! debugger reads and writes. The stream is any [`Stream`] (a unix socket or TCP).
//!
//! QEMU cannot access memory while the guest runs (any byte it receives halts the guest), so
//! every access halts first ([`Gdb::halt`]), and the caller lets the guest run again
//! ([`Gdb::resume`]) once its accesses are done. A real probe reads RAM in the background;
//! here the guest stops for the duration of a few packets (~50 µs each over a unix socket).
//!
//! Packets are `$data#checksum`; each is acknowledged with `+` (QEMU 7.2 offers no no-ack
//! mode). Binary data travels as hex (`m`/`M`), which every stub supports.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

use crate::quirks::Quirks;
use crate::transport::{Address, Stream};
use crate::window::Window;

/// The longest wait for a stub's answer: the guest is halted while it answers.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(5);
/// Bytes per memory packet: hex doubles them, and with the command the packet stays under
/// 1000 characters, which any stub takes (QEMU offers `PacketSize=1000`, hex: 4096).
const CHUNK: usize = 0x1f0;
/// How often an access through the memory window looks for a stop reply while the guest runs
/// (a packet-free access would otherwise never see the guest stop or the stub go).
const LOOK: Duration = Duration::from_millis(1);

/// What went wrong talking to the stub.
#[derive(Debug, thiserror::Error)]
pub enum GdbError {
    /// The socket could not be opened, read or written.
    #[error("gdbstub socket: {0}")]
    Io(#[from] std::io::Error),
    /// The stub closed the connection.
    #[error("the gdbstub closed the connection")]
    Closed,
    /// The stub did not answer in time; the connection is out of step from here on.
    #[error("the gdbstub did not answer within {0:?}")]
    Timeout(Duration),
    /// The guest ended; its exit code (from the `W` stop reply).
    #[error("the guest exited with code {0}")]
    Exited(u8),
    /// The stub answered a packet with an error number.
    #[error("the gdbstub refused `{packet}`: error {code}")]
    Refused {
        /// The packet (its command letter and arguments).
        packet: String,
        /// The stub's `Exx` number.
        code: String,
    },
    /// An answer that is not what the packet calls for.
    #[error("unexpected answer to `{packet}`: `{answer}`")]
    Unexpected {
        /// The packet sent.
        packet: String,
        /// What came back (at most 60 characters).
        answer: String,
    },
}

/// A connection to a gdbstub.
#[derive(Debug)]
pub struct Gdb {
    stream: Box<dyn Stream>,
    running: bool,
    /// The stub took `QStartNoAckMode`: no `+` either way.
    no_ack: bool,
    quirks: Quirks,
    /// Received bytes not yet consumed.
    pending: VecDeque<u8>,
    /// How long an answer may take ([`ANSWER_TIMEOUT`] unless [`Gdb::set_answer_timeout`]).
    timeout: Duration,
    /// RAM shared with the stub: accesses there send no packet.
    window: Option<Window>,
    /// Why the stub's window could not be used, if it offered one.
    window_refused: Option<String>,
    /// The last look for a stop reply between window accesses.
    looked: Instant,
}

impl Gdb {
    /// Connects to the stub at `address`. QEMU halts the guest when a debugger connects; the
    /// guest stays halted until [`Gdb::resume`].
    pub fn connect(address: &Address, quirks: Quirks) -> Result<Gdb, GdbError> {
        Gdb::over(address.open()?, quirks)
    }

    /// Speaks to a stub over `stream`, already open.
    pub fn over(stream: Box<dyn Stream>, quirks: Quirks) -> Result<Gdb, GdbError> {
        stream.set_read_timeout(Some(ANSWER_TIMEOUT))?;
        let mut gdb = Gdb {
            stream,
            running: false,
            no_ack: false,
            quirks,
            pending: VecDeque::new(),
            timeout: ANSWER_TIMEOUT,
            window: None,
            window_refused: None,
            looked: Instant::now(),
        };
        // With a feature, as gdb sends it: QEMU takes either form, the gdbstub crate (a virtual
        // board's stub) refuses a bare `qSupported` as malformed.
        let supported = gdb.request("qSupported:xmlRegisters=arm")?;
        // Acknowledgements are for serial lines; on a socket they only double the packets
        // (QEMU 7.2 does not offer to drop them; the gdbstub crate does).
        if supported.split(';').any(|f| f == "QStartNoAckMode+")
            && gdb.request("QStartNoAckMode")? == "OK"
        {
            gdb.no_ack = true;
        }
        if quirks.target_xml_first {
            gdb.request("qXfer:features:read:target.xml:0,ffb")?;
        }
        // Why the guest is stopped: QEMU answers `T05` on attach.
        let stop = gdb.request("?")?;
        gdb.stop_reason("?", &stop)?;
        if let Some(command) = quirks.window_command {
            // A stub elsewhere, or one with private RAM, leaves the packets as the only path.
            match gdb
                .monitor_output(command)
                .map(|answer| Window::open(&answer))
            {
                Ok(Ok(window)) => gdb.window = Some(window),
                Ok(Err(e)) => gdb.window_refused = Some(e.to_string()),
                Err(e) => gdb.window_refused = Some(e.to_string()),
            }
        }
        Ok(gdb)
    }

    /// How memory is reached: through the stub's memory window (its range and file) or by
    /// packets (and why the window offered could not be used).
    pub fn memory_path(&self) -> String {
        match (&self.window, &self.window_refused) {
            (Some(window), _) => format!("a memory window, {}", window.describe()),
            (None, Some(why)) => format!("packets ({why})"),
            (None, None) => "packets".to_string(),
        }
    }

    /// The stub's quirks, as given at connect.
    pub fn quirks(&self) -> Quirks {
        self.quirks
    }

    /// Whether the guest is halted.
    pub fn is_halted(&self) -> bool {
        !self.running
    }

    /// Halts the guest (nothing to do when it is halted).
    pub fn halt(&mut self) -> Result<(), GdbError> {
        if !self.running {
            return Ok(());
        }
        self.stream.write_all(&[0x03])?;
        let stop = self.packet()?;
        self.running = false;
        self.stop_reason("interrupt", &stop)
    }

    /// Lets the guest run (nothing to do when it runs).
    pub fn resume(&mut self) -> Result<(), GdbError> {
        if self.running {
            return Ok(());
        }
        self.send("c")?;
        self.running = true;
        Ok(())
    }

    /// Reads `buf.len()` bytes of guest memory from `addr` (stopping the guest first unless
    /// the stub reads while it runs, [`Quirks::reads_while_running`]).
    pub fn read_memory(&mut self, addr: u32, buf: &mut [u8]) -> Result<(), GdbError> {
        if self
            .window
            .as_ref()
            .is_some_and(|w| w.holds(addr, buf.len()))
        {
            self.look()?;
            if let Some(window) = &self.window {
                window.read(addr, buf);
            }
            return Ok(());
        }
        for (i, chunk) in buf.chunks_mut(CHUNK).enumerate() {
            let at = addr.wrapping_add((i * CHUNK) as u32);
            let packet = format!("m{at:x},{:x}", chunk.len());
            let answer = self.memory_request(&packet)?;
            let bytes = unhex(&answer).filter(|b| b.len() == chunk.len());
            match bytes {
                Some(bytes) => chunk.copy_from_slice(&bytes),
                None => return Err(unexpected(&packet, &answer)),
            }
        }
        Ok(())
    }

    /// Writes `bytes` to guest memory at `addr` (stopping the guest first unless the stub
    /// writes while it runs).
    pub fn write_memory(&mut self, addr: u32, bytes: &[u8]) -> Result<(), GdbError> {
        if self
            .window
            .as_ref()
            .is_some_and(|w| w.holds(addr, bytes.len()))
        {
            self.look()?;
            if let Some(window) = &self.window {
                window.write(addr, bytes);
            }
            return Ok(());
        }
        for (i, chunk) in bytes.chunks(CHUNK).enumerate() {
            let at = addr.wrapping_add((i * CHUNK) as u32);
            let packet = format!("M{at:x},{:x}:{}", chunk.len(), hex(chunk));
            let answer = self.memory_request(&packet)?;
            if answer != "OK" {
                return Err(unexpected(&packet, &answer));
            }
        }
        Ok(())
    }

    /// Between window accesses while the guest runs, at most every [`LOOK`]: takes a stop
    /// reply the stub sent (the guest stopped: it is halted from here on), and reports a stub
    /// that exited or closed the connection, as the next packet would have.
    fn look(&mut self) -> Result<(), GdbError> {
        if !self.running || self.looked.elapsed() < LOOK {
            return Ok(());
        }
        self.looked = Instant::now();
        if self.pending.is_empty() {
            self.stream.set_nonblocking(true)?;
            let mut buf = [0u8; 512];
            let read = self.stream.read(&mut buf);
            self.stream.set_nonblocking(false)?;
            match read {
                Ok(0) => return Err(GdbError::Closed),
                Ok(n) => self.pending.extend(&buf[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                    ) =>
                {
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                    return Err(GdbError::Closed);
                }
                Err(e) => return Err(e.into()),
            }
        }
        let answer = self.packet()?;
        if let Some(code) = exit_code(&answer) {
            return Err(GdbError::Exited(code));
        }
        if answer.starts_with('T') || answer.starts_with('S') {
            self.running = false;
            return Ok(());
        }
        Err(unexpected("(nothing: the guest runs)", &answer))
    }

    /// A memory or monitor packet: sent with the guest running where the stub allows it. A stop reply
    /// that crosses it (the guest stopped on its own) is taken, and the answer read after it.
    fn memory_request(&mut self, packet: &str) -> Result<String, GdbError> {
        if !(self.running && self.quirks.reads_while_running) {
            return self.request(packet);
        }
        self.send(packet)?;
        let mut answer = self.packet()?;
        if let Some(code) = exit_code(&answer) {
            return Err(GdbError::Exited(code));
        }
        if answer.starts_with('T') || answer.starts_with('S') {
            self.running = false;
            answer = self.packet()?;
        }
        if answer.len() == 3 && answer.starts_with('E') {
            return Err(GdbError::Refused {
                packet: command_of(packet),
                code: answer[1..].to_string(),
            });
        }
        Ok(answer)
    }

    /// Reads a 32-bit little-endian word.
    pub fn read_u32(&mut self, addr: u32) -> Result<u32, GdbError> {
        let mut word = [0u8; 4];
        self.read_memory(addr, &mut word)?;
        Ok(u32::from_le_bytes(word))
    }

    /// Writes a 32-bit little-endian word.
    pub fn write_u32(&mut self, addr: u32, value: u32) -> Result<(), GdbError> {
        self.write_memory(addr, &value.to_le_bytes())
    }

    /// Reads register `number` in gdb's ARM numbering (r0–r15 are 0–15, xPSR 25).
    pub fn read_register(&mut self, number: u32) -> Result<u32, GdbError> {
        let packet = format!("p{number:x}");
        let answer = self.request(&packet)?;
        match unhex(&answer) {
            Some(bytes) if bytes.len() == 4 => {
                Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
            }
            _ => Err(unexpected(&packet, &answer)),
        }
    }

    /// Executes one instruction (`s`); the guest is halted before and after. QEMU steps with
    /// interrupts and timers masked, as a probe's C_MASKINTS step does.
    pub fn step(&mut self) -> Result<(), GdbError> {
        if self.running {
            self.halt()?;
        }
        self.send("s")?;
        let stop = self.packet()?;
        self.stop_reason("s", &stop)
    }

    /// Waits up to `timeout` for each answer from now on (a monitor command that runs a whole
    /// game, such as the virtual board's `trial`, takes longer than a packet).
    pub fn set_answer_timeout(&mut self, timeout: Duration) -> Result<(), GdbError> {
        self.stream.set_read_timeout(Some(timeout))?;
        self.timeout = timeout;
        Ok(())
    }

    /// Runs a command of QEMU's monitor (`qRcmd`), e.g. `system_reset`; the guest stays
    /// halted. QEMU's gdbstub has a monitor of its own, even with `-monitor none`.
    pub fn monitor(&mut self, command: &str) -> Result<(), GdbError> {
        self.monitor_output(command).map(drop)
    }

    /// Runs a monitor command and returns what it printed.
    pub fn monitor_output(&mut self, command: &str) -> Result<String, GdbError> {
        let packet = format!("qRcmd,{}", hex(command.as_bytes()));
        let answer = self.request(&packet)?;
        self.monitor_answer(&packet, answer)
    }

    /// Runs a monitor command without stopping a running guest, where the stub answers while
    /// it runs ([`Quirks::reads_while_running`]); elsewhere as [`Gdb::monitor_output`]. One
    /// round trip instead of three (interrupt, command, continue), and the caller sleeps in
    /// its read of the answer: a command that waits for the guest (the virtual board's
    /// `wait`) blocks the caller on the guest's progress.
    pub fn monitor_running(&mut self, command: &str) -> Result<String, GdbError> {
        let packet = format!("qRcmd,{}", hex(command.as_bytes()));
        let answer = self.memory_request(&packet)?;
        self.monitor_answer(&packet, answer)
    }

    /// The output of monitor command `packet` whose first answer is `answer`.
    fn monitor_answer(&mut self, packet: &str, mut answer: String) -> Result<String, GdbError> {
        let mut output = Vec::new();
        // `O` packets (hex) carry the monitor's output before the final `OK`.
        while answer != "OK" && answer.starts_with('O') {
            output.extend(unhex(&answer[1..]).unwrap_or_default());
            answer = self.packet()?;
        }
        if answer == "OK" {
            Ok(String::from_utf8_lossy(&output).into_owned())
        } else {
            Err(unexpected(packet, &answer))
        }
    }

    /// Writes register `number` in gdb's ARM numbering.
    pub fn write_register(&mut self, number: u32, value: u32) -> Result<(), GdbError> {
        self.expect_ok(&format!("P{number:x}={}", hex(&value.to_le_bytes())))
    }

    fn expect_ok(&mut self, packet: &str) -> Result<(), GdbError> {
        let answer = self.request(packet)?;
        if answer == "OK" {
            Ok(())
        } else {
            Err(unexpected(packet, &answer))
        }
    }

    /// Sends `packet` and returns the stub's answer; `Exx` answers are errors.
    fn request(&mut self, packet: &str) -> Result<String, GdbError> {
        if self.running {
            self.halt()?;
        }
        self.send(packet)?;
        let answer = self.packet()?;
        if answer.len() == 3 && answer.starts_with('E') {
            return Err(GdbError::Refused {
                packet: command_of(packet),
                code: answer[1..].to_string(),
            });
        }
        if let Some(code) = exit_code(&answer) {
            return Err(GdbError::Exited(code));
        }
        Ok(answer)
    }

    /// A stop reply must say the guest stopped (`S`/`T`), not that it ended (`W`/`X`).
    fn stop_reason(&mut self, packet: &str, answer: &str) -> Result<(), GdbError> {
        if let Some(code) = exit_code(answer) {
            return Err(GdbError::Exited(code));
        }
        if answer.starts_with('S') || answer.starts_with('T') {
            Ok(())
        } else {
            Err(unexpected(packet, answer))
        }
    }

    fn send(&mut self, packet: &str) -> Result<(), GdbError> {
        let sum = packet.bytes().fold(0u8, u8::wrapping_add);
        let framed = format!("${packet}#{sum:02x}");
        if self.no_ack {
            return Ok(self.stream.write_all(framed.as_bytes())?);
        }
        for _attempt in 0..3 {
            self.stream.write_all(framed.as_bytes())?;
            match self.byte()? {
                b'+' => return Ok(()),
                // `-`: the stub asks for the packet again.
                b'-' => continue,
                other => {
                    // A stop reply can arrive before the ack of the packet that caused it.
                    self.pending.push_front(other);
                    return Ok(());
                }
            }
        }
        Err(unexpected(packet, "three negative acknowledgements"))
    }

    /// The next packet from the stub, acknowledged.
    fn packet(&mut self) -> Result<String, GdbError> {
        loop {
            while self.byte()? != b'$' {}
            let mut data = Vec::new();
            loop {
                match self.byte()? {
                    b'#' => break,
                    b => data.push(b),
                }
            }
            let sum = [self.byte()?, self.byte()?];
            let ok = std::str::from_utf8(&sum)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                == Some(data.iter().fold(0u8, |a, b| a.wrapping_add(*b)));
            if self.no_ack {
                if !ok {
                    return Err(unexpected(
                        "(a packet)",
                        "a bad checksum with acknowledgements off",
                    ));
                }
                return Ok(unescape(&data));
            }
            if !ok {
                self.stream.write_all(b"-")?;
                continue;
            }
            self.stream.write_all(b"+")?;
            return Ok(unescape(&data));
        }
    }

    fn byte(&mut self) -> Result<u8, GdbError> {
        if self.pending.is_empty() {
            let mut buf = [0u8; 4096];
            let n = match self.stream.read(&mut buf) {
                Ok(0) => return Err(GdbError::Closed),
                Ok(n) => n,
                // A signal handled by the program (Ctrl-C, SIGTERM) interrupts a read on a
                // socket with a timeout even under SA_RESTART (signal(7)): read again.
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return self.byte(),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                    return Err(GdbError::Closed);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(GdbError::Timeout(self.timeout));
                }
                Err(e) => return Err(e.into()),
            };
            self.pending.extend(&buf[..n]);
        }
        self.pending.pop_front().ok_or(GdbError::Closed)
    }
}

/// The exit code of a `Wxx` (exited) or `Xxx` (killed by a signal) stop reply.
fn exit_code(answer: &str) -> Option<u8> {
    let rest = answer
        .strip_prefix('W')
        .or_else(|| answer.strip_prefix('X'))?;
    u8::from_str_radix(rest.split(';').next()?, 16).ok()
}

/// `}` escapes the next byte (xor 0x20); `X*n` repeats `X` another `n - 29` times (the
/// protocol's run-length encoding, which the gdbstub crate uses and QEMU does not).
fn unescape(data: &[u8]) -> String {
    let mut out = Vec::with_capacity(data.len());
    let mut bytes = data.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'}' => {
                if let Some(&next) = bytes.next() {
                    out.push(next ^ 0x20);
                }
            }
            b'*' => {
                if let (Some(&last), Some(&n)) = (out.last(), bytes.next()) {
                    let repeat = usize::from(n.saturating_sub(29));
                    out.extend(std::iter::repeat_n(last, repeat));
                }
            }
            _ => out.push(b),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn command_of(packet: &str) -> String {
    packet.split(':').next().unwrap_or(packet).to_string()
}

fn unexpected(packet: &str, answer: &str) -> GdbError {
    GdbError::Unexpected {
        packet: command_of(packet),
        answer: answer.chars().take(60).collect(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_odd_or_foreign_text() {
        let bytes = [0x00, 0x7f, 0x80, 0xff, 0x24];
        assert_eq!(hex(&bytes), "007f80ff24");
        assert_eq!(unhex("007f80ff24").as_deref(), Some(&bytes[..]));
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
    }

    #[test]
    fn run_length_encoding_and_escapes_expand_as_the_protocol_says() {
        // From the GDB manual's example: "0* " is "0000" (' ' is 32: three more).
        assert_eq!(unescape(b"0* "), "0000");
        // gdbstub's answer to `m8000000,8` on the board binary begins "0*!220": the initial
        // SP 0x20020000, bytes 00 00 02 20 ('!' is 33: four more).
        assert_eq!(unescape(b"0*!220"), "00000220");
        assert_eq!(unescape(b"}]"), "}");
    }

    #[test]
    fn stop_replies_that_end_the_guest_carry_its_code() {
        assert_eq!(exit_code("W00"), Some(0));
        assert_eq!(exit_code("W65"), Some(101));
        assert_eq!(exit_code("X09;process:1"), Some(9));
        assert_eq!(exit_code("T05thread:01;"), None);
    }

    #[test]
    fn escaped_bytes_are_restored() {
        // `}` followed by 0x5d is `}` (0x7d); 0x03 escaped is 0x23 (`#`).
        assert_eq!(unescape(b"a}\x5db}\x03"), "a}b#");
    }
}
