//! The debugger's connection, buffered: gdbstub reads and writes a byte at a time, which on a
//! bare socket is a system call (and a mode switch) per byte. Here a read takes whatever has
//! arrived, a write waits for gdbstub's flush at the end of a packet, and the socket's
//! blocking mode changes only when it must.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};

use gdbstub::conn::{Connection, ConnectionExt};

/// A socket the stub can block on or look at.
pub trait Socket: Read + Write {
    /// Sets the socket's blocking mode.
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()>;
}

impl Socket for std::os::unix::net::UnixStream {
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        std::os::unix::net::UnixStream::set_nonblocking(self, on)
    }
}

impl Socket for std::net::TcpStream {
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        std::net::TcpStream::set_nonblocking(self, on)
    }
}

/// A buffered connection over `S`.
#[derive(Debug)]
pub struct Buffered<S> {
    socket: S,
    received: VecDeque<u8>,
    unsent: Vec<u8>,
    nonblocking: bool,
}

impl<S: Socket> Buffered<S> {
    /// Buffers `socket` (left blocking).
    pub fn new(socket: S) -> Self {
        Buffered {
            socket,
            received: VecDeque::new(),
            unsent: Vec::new(),
            nonblocking: false,
        }
    }

    fn mode(&mut self, nonblocking: bool) -> std::io::Result<()> {
        if self.nonblocking != nonblocking {
            self.socket.set_nonblocking(nonblocking)?;
            self.nonblocking = nonblocking;
        }
        Ok(())
    }

    /// Reads what is there (or, blocking, waits for something); whether anything came.
    fn fill(&mut self, block: bool) -> std::io::Result<bool> {
        self.mode(!block)?;
        let mut buf = [0u8; 4096];
        loop {
            return match self.socket.read(&mut buf) {
                Ok(0) => Err(ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    self.received.extend(&buf[..n]);
                    Ok(true)
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => Ok(false),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => Err(e),
            };
        }
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
        self.mode(false)?;
        self.socket.write_all(&self.unsent)?;
        self.unsent.clear();
        self.socket.flush()
    }
}

impl<S: Socket> ConnectionExt for Buffered<S> {
    fn read(&mut self) -> std::io::Result<u8> {
        self.flush()?;
        while self.received.is_empty() {
            self.fill(true)?;
        }
        Ok(self.received.pop_front().expect("filled"))
    }

    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        if self.received.is_empty() {
            self.flush()?;
            self.fill(false)?;
        }
        Ok(self.received.front().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_arrive_in_order_and_writes_wait_for_the_flush() {
        let (a, mut b) = std::os::unix::net::UnixStream::pair().unwrap();
        let mut conn = Buffered::new(a);
        assert_eq!(conn.peek().unwrap(), None);
        Write::write_all(&mut b, b"$m0,4#fd").unwrap();
        assert_eq!(conn.read().unwrap(), b'$');
        assert_eq!(conn.peek().unwrap(), Some(b'm'));
        assert_eq!(conn.read().unwrap(), b'm');
        conn.write_all(b"+$OK#9a").unwrap();
        b.set_nonblocking(true).unwrap();
        let mut got = [0u8; 16];
        assert!(
            Read::read(&mut b, &mut got).is_err(),
            "nothing before the flush"
        );
        conn.flush().unwrap();
        b.set_nonblocking(false).unwrap();
        let n = Read::read(&mut b, &mut got).unwrap();
        assert_eq!(&got[..n], b"+$OK#9a");
    }
}
