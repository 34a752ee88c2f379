//! The debugger's connection, buffered and framed. gdbstub reads and writes a byte at a time,
//! which on a bare socket is a system call (and a mode switch) per byte: here a read takes
//! whatever has arrived, a write waits for gdbstub's flush at the end of a packet, and the
//! socket's blocking mode changes only when it must.
//!
//! The framing is also what keeps a stray byte from ending the board: gdbstub treats anything
//! it did not expect as fatal, so only whole packets with a good checksum (and Ctrl-C) reach
//! it. A byte outside a packet is dropped, a bad checksum is answered `-` (the client sends
//! again), a client's `-` is answered with the last packet again, and a packet longer than
//! the stub's buffer is answered with an error packet.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::time::Duration;

use gdbstub::conn::Connection;

/// The stub's packet buffer: the longest packet, `$`, body, `#` and checksum, it takes.
pub const PACKET_BUFFER: usize = 4096;

/// The reply to a packet the stub cannot take: EINVAL.
pub const REFUSED: &[u8] = b"$E16#ac";

/// A socket the stub can block on or look at.
pub trait Socket: Read + Write {
    /// Sets the socket's blocking mode.
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()>;
    /// Sets how long a blocking read waits (`None`: for ever).
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()>;
}

impl Socket for std::os::unix::net::UnixStream {
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        std::os::unix::net::UnixStream::set_nonblocking(self, on)
    }

    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        std::os::unix::net::UnixStream::set_read_timeout(self, timeout)
    }
}

impl Socket for std::net::TcpStream {
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        std::net::TcpStream::set_nonblocking(self, on)
    }

    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        std::net::TcpStream::set_read_timeout(self, timeout)
    }
}

/// Where the framer is in the byte stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// Between packets.
    Between,
    /// In a packet's body.
    Body,
    /// After `#`: this many checksum digits read.
    Checksum(u8),
    /// In a packet too long for the stub: dropped up to its checksum.
    TooLong,
    /// After a too-long packet's `#`: this many checksum digits read.
    TooLongChecksum(u8),
}

/// Whether `body` is a memory write (`M ADDR,LEN:DATA`) whose data is not exactly LEN bytes
/// of hex digits, or whose address or length is not a number.
fn malformed_write(body: &[u8]) -> bool {
    let Some(rest) = body.strip_prefix(b"M") else {
        return false;
    };
    let hex = |b: &[u8]| !b.is_empty() && b.iter().all(u8::is_ascii_hexdigit);
    let mut parts = rest.splitn(2, |&b| b == b':');
    let (Some(head), Some(data)) = (parts.next(), parts.next()) else {
        return true;
    };
    let mut head = head.splitn(2, |&b| b == b',');
    let (Some(addr), Some(len)) = (head.next(), head.next()) else {
        return true;
    };
    if !hex(addr) || addr.len() > 8 || !hex(len) || len.len() > 8 {
        return true;
    }
    let len = std::str::from_utf8(len)
        .ok()
        .and_then(|l| usize::from_str_radix(l, 16).ok());
    len != Some(data.len() / 2) || data.len() % 2 != 0 || !data.iter().all(u8::is_ascii_hexdigit)
}

/// A buffered, framed connection over `S`.
#[derive(Debug)]
pub struct Buffered<S> {
    socket: S,
    /// Whole packets with a good checksum, and Ctrl-C bytes, for gdbstub.
    received: VecDeque<u8>,
    /// The packet being framed.
    packet: Vec<u8>,
    frame: Frame,
    unsent: Vec<u8>,
    /// The last packet sent, for a client's `-`.
    last_sent: Vec<u8>,
    nonblocking: bool,
    /// The client asked for `QStartNoAckMode` and the stub has not answered yet.
    asked_no_ack: bool,
    /// No `+` or `-` either way (`QStartNoAckMode`, answered OK).
    no_ack: bool,
    /// Bytes dropped outside packets, and packets refused for their checksum or length.
    pub dropped: u64,
}

impl<S: Socket> Buffered<S> {
    /// Buffers `socket` (left blocking).
    pub fn new(socket: S) -> Self {
        Buffered {
            socket,
            received: VecDeque::new(),
            packet: Vec::new(),
            frame: Frame::Between,
            unsent: Vec::new(),
            last_sent: Vec::new(),
            nonblocking: false,
            asked_no_ack: false,
            no_ack: false,
            dropped: 0,
        }
    }

    /// Whether the client and the stub agreed on no acknowledgements.
    pub fn no_ack(&self) -> bool {
        self.no_ack
    }

    /// Drops what the stub wrote and has not flushed, and answers the packet it could not
    /// take with an error packet.
    pub fn refuse(&mut self) -> std::io::Result<()> {
        self.unsent.clear();
        if !self.no_ack {
            self.unsent.push(b'+');
        }
        self.unsent.extend_from_slice(REFUSED);
        self.flush()
    }

    /// Drops what the stub wrote and has not flushed (its answer to a packet the server fed
    /// it itself).
    pub fn discard_unsent(&mut self) {
        self.unsent.clear();
    }

    fn mode(&mut self, nonblocking: bool) -> std::io::Result<()> {
        if self.nonblocking != nonblocking {
            self.socket.set_nonblocking(nonblocking)?;
            self.nonblocking = nonblocking;
        }
        Ok(())
    }

    /// Reads what is there (or, blocking, waits up to `wait` for something) and frames it;
    /// whether anything came. The end of the stream is an error.
    fn fill(&mut self, wait: Option<Duration>) -> std::io::Result<bool> {
        self.mode(wait.is_none())?;
        if wait.is_some() {
            self.socket.set_read_timeout(wait)?;
        }
        let mut buf = [0u8; 4096];
        loop {
            return match self.socket.read(&mut buf) {
                Ok(0) => Err(ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    for &byte in &buf[..n] {
                        self.frame(byte)?;
                    }
                    Ok(true)
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    Ok(false)
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => Err(e),
            };
        }
    }

    /// Takes one byte from the client.
    fn frame(&mut self, byte: u8) -> std::io::Result<()> {
        match (self.frame, byte) {
            (Frame::Between, b'$') => {
                self.packet.clear();
                self.packet.push(byte);
                self.frame = Frame::Body;
            }
            (Frame::Between, 0x03) => self.received.push_back(byte),
            (Frame::Between, b'+') => {}
            (Frame::Between, b'-') if !self.no_ack && !self.last_sent.is_empty() => {
                let again = self.last_sent.clone();
                self.send(&again)?;
            }
            (Frame::Between, _) => self.dropped += 1,
            // A `$` cannot be in a body (it is escaped): a new packet starts.
            (Frame::Body, b'$') => {
                self.dropped += self.packet.len() as u64;
                self.packet.clear();
                self.packet.push(byte);
            }
            (Frame::Body, b'#') => {
                self.packet.push(byte);
                self.frame = Frame::Checksum(0);
            }
            (Frame::Body, _) if self.packet.len() + 3 >= PACKET_BUFFER => {
                self.packet.clear();
                self.frame = Frame::TooLong;
            }
            (Frame::Body, _) => self.packet.push(byte),
            (Frame::Checksum(0), _) => {
                self.packet.push(byte);
                self.frame = Frame::Checksum(1);
            }
            (Frame::Checksum(_), _) => {
                self.packet.push(byte);
                self.frame = Frame::Between;
                self.deliver()?;
            }
            (Frame::TooLong, b'#') => self.frame = Frame::TooLongChecksum(0),
            (Frame::TooLong, _) => {}
            (Frame::TooLongChecksum(0), _) => self.frame = Frame::TooLongChecksum(1),
            (Frame::TooLongChecksum(_), _) => {
                self.frame = Frame::Between;
                self.dropped += 1;
                let mut reply = Vec::new();
                if !self.no_ack {
                    reply.push(b'+');
                }
                reply.extend_from_slice(REFUSED);
                self.send(&reply)?;
            }
        }
        Ok(())
    }

    /// A framed packet (`$body#cc`): to gdbstub if its checksum is good, else `-`.
    fn deliver(&mut self) -> std::io::Result<()> {
        let n = self.packet.len();
        let body = &self.packet[1..n - 3];
        let sum = body.iter().fold(0u8, |a, &b| a.wrapping_add(b));
        let given = std::str::from_utf8(&self.packet[n - 2..])
            .ok()
            .and_then(|s| u8::from_str_radix(s, 16).ok());
        if given == Some(sum) && !malformed_write(body) {
            if body == b"QStartNoAckMode" {
                self.asked_no_ack = true;
            }
            self.received.extend(&self.packet);
        } else if given == Some(sum) {
            // gdbstub would write what hex digits there are, whatever the length says.
            self.dropped += 1;
            let mut reply = Vec::new();
            if !self.no_ack {
                reply.push(b'+');
            }
            reply.extend_from_slice(REFUSED);
            self.send(&reply)?;
        } else {
            self.dropped += 1;
            if !self.no_ack {
                self.send(b"-")?;
            }
        }
        self.packet.clear();
        Ok(())
    }

    /// Writes `bytes` now, after whatever the stub has left unsent.
    fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.mode(false)?;
        self.socket.write_all(bytes)?;
        self.socket.flush()
    }

    /// The next byte for gdbstub, waiting at most `wait` (after sending what is unsent).
    pub fn read_within(&mut self, wait: Duration) -> std::io::Result<Option<u8>> {
        self.flush()?;
        let deadline = std::time::Instant::now() + wait;
        // Bytes that frame nothing yet (noise, a packet's start) do not end the wait.
        while self.received.is_empty() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() || !self.fill(Some(left.max(Duration::from_millis(1))))? {
                break;
            }
        }
        Ok(self.received.pop_front())
    }

    /// The next byte for gdbstub if one has come, without waiting.
    pub fn read_now(&mut self) -> std::io::Result<Option<u8>> {
        if self.received.is_empty() {
            self.flush()?;
            self.fill(None)?;
        }
        Ok(self.received.pop_front())
    }
}

impl<S: Socket> Connection for Buffered<S> {
    type Error = std::io::Error;

    fn write(&mut self, byte: u8) -> std::io::Result<()> {
        self.unsent.push(byte);
        Ok(())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.unsent.extend_from_slice(buf);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.unsent.is_empty() {
            return Ok(());
        }
        if let Some(start) = self.unsent.iter().position(|&b| b == b'$') {
            self.last_sent = self.unsent[start..].to_vec();
        }
        if self.asked_no_ack {
            self.asked_no_ack = false;
            self.no_ack = self.last_sent == b"$OK#9a";
        }
        self.mode(false)?;
        self.socket.write_all(&self.unsent)?;
        self.unsent.clear();
        self.socket.flush()
    }
}

/// A connection the server and the stub share: the stub owns its connection and is lost on a
/// protocol error, the connection must not be.
#[derive(Debug)]
pub struct Shared<S>(pub std::rc::Rc<std::cell::RefCell<Buffered<S>>>);

impl<S: Socket> Connection for Shared<S> {
    type Error = std::io::Error;

    fn write(&mut self, byte: u8) -> std::io::Result<()> {
        self.0.borrow_mut().write(byte)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.borrow_mut().write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    /// What the client side has been sent so far (waiting a moment for it).
    fn sent(b: &mut UnixStream) -> Vec<u8> {
        b.set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut got = vec![0u8; 256];
        match Read::read(b, &mut got) {
            Ok(n) => got[..n].to_vec(),
            Err(_) => Vec::new(),
        }
    }

    fn drain(conn: &mut Buffered<UnixStream>) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(byte) = conn.read_within(Duration::from_millis(20)).unwrap() {
            out.push(byte);
        }
        out
    }

    #[test]
    fn bytes_arrive_in_order_and_writes_wait_for_the_flush() {
        let (a, mut b) = UnixStream::pair().unwrap();
        let mut conn = Buffered::new(a);
        assert_eq!(conn.read_now().unwrap(), None);
        Write::write_all(&mut b, b"$m0,4#fd").unwrap();
        assert_eq!(drain(&mut conn), b"$m0,4#fd");
        conn.write_all(b"+$OK#9a").unwrap();
        assert!(sent(&mut b).is_empty(), "nothing before the flush");
        conn.flush().unwrap();
        assert_eq!(sent(&mut b), b"+$OK#9a");
    }

    #[test]
    fn stray_bytes_are_dropped_and_a_bad_checksum_is_answered_with_a_nak() {
        let (a, mut b) = UnixStream::pair().unwrap();
        let mut conn = Buffered::new(a);
        Write::write_all(&mut b, b"GET / HTTP/1.1\r\n+$m0,4#00\x03$g#67").unwrap();
        assert_eq!(drain(&mut conn), b"\x03$g#67");
        assert_eq!(sent(&mut b), b"-");
        assert_eq!(conn.dropped, 16 + 1);
    }

    #[test]
    fn a_nak_is_answered_with_the_last_packet_again() {
        let (a, mut b) = UnixStream::pair().unwrap();
        let mut conn = Buffered::new(a);
        conn.write_all(b"+$OK#9a").unwrap();
        conn.flush().unwrap();
        assert_eq!(sent(&mut b), b"+$OK#9a");
        Write::write_all(&mut b, b"-").unwrap();
        assert!(drain(&mut conn).is_empty());
        assert_eq!(sent(&mut b), b"$OK#9a");
    }

    #[test]
    fn a_packet_longer_than_the_buffer_is_refused_and_the_next_one_arrives() {
        let (a, mut b) = UnixStream::pair().unwrap();
        let mut conn = Buffered::new(a);
        let mut long = b"$M20000000,1000:".to_vec();
        long.extend(std::iter::repeat_n(b'0', 2 * PACKET_BUFFER));
        long.extend_from_slice(b"#00$g#67");
        let writer = std::thread::spawn(move || {
            Write::write_all(&mut b, &long).unwrap();
            b
        });
        let got = drain(&mut conn);
        let mut b = writer.join().unwrap();
        assert_eq!(got, b"$g#67");
        let mut refusal = b"+".to_vec();
        refusal.extend_from_slice(REFUSED);
        assert_eq!(sent(&mut b), refusal);
    }

    #[test]
    fn a_memory_write_whose_data_is_not_its_length_is_refused() {
        for bad in [
            &b"M20000000,2:abc"[..],
            b"M20000000,2:abcdef",
            b"M20000000,2:zz00",
            b"M20000000:0000",
            b"M,2:0000",
            b"M20000000,2",
        ] {
            assert!(malformed_write(bad), "{}", String::from_utf8_lossy(bad));
        }
        for good in [&b"M20000000,2:abcd"[..], b"M0,0:", b"m20000000,2", b"g"] {
            assert!(!malformed_write(good), "{}", String::from_utf8_lossy(good));
        }
        let (a, mut b) = UnixStream::pair().unwrap();
        let mut conn = Buffered::new(a);
        Write::write_all(&mut b, b"$M20000000,2:abc#8d$g#67").unwrap();
        assert_eq!(drain(&mut conn), b"$g#67");
        let mut refusal = b"+".to_vec();
        refusal.extend_from_slice(REFUSED);
        assert_eq!(sent(&mut b), refusal);
    }

    #[test]
    fn the_refusal_constant_has_a_good_checksum() {
        let body = &REFUSED[1..REFUSED.len() - 3];
        let sum = body.iter().fold(0u8, |a, &b| a.wrapping_add(b));
        assert_eq!(
            &REFUSED[REFUSED.len() - 2..],
            format!("{sum:02x}").as_bytes()
        );
    }
}
