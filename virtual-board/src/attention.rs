//! The debugger's bytes, read on a thread of their own so that a packet stops the running
//! core at its next block rather than at the end of its slice.
//!
//! The stub looks at its socket between slices of 50,000 instructions. Running firmware code
//! that is a fraction of a millisecond, but a firmware waiting on SysTick runs its
//! milliseconds fast-forwarded and a slice can take several of the host's: in the M=3 tree
//! the bench's 781 `monitor game` commands (an interrupt, the command, a continue: three
//! round trips each) waited on slice ends. Here a thread blocks on the socket, hands what
//! came to the stub's reads through a channel and raises a flag the core's block hook looks
//! at (an atomic load per block), so the core stops within a block of a packet's arrival.

use std::cell::Cell;
use std::io::{ErrorKind, Read, Write};
use std::net::Shutdown;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use crate::conn::Socket;
use crate::stream::Stream;

/// Reads of up to 4 KiB the reader thread holds for the stub before it stops reading.
const QUEUED: usize = 16;

/// How long a write waits for a client that does not read before it looks at the quit
/// flag again: a signal ends the board within this, not when the client reads.
pub(crate) const WRITE_WAIT: Duration = Duration::from_millis(100);

/// A debugger's connection whose reads come from a reader thread that raises `attention`.
#[derive(Debug)]
pub struct Watched {
    writer: Stream,
    /// Set by a signal: a write blocked on a client that does not read gives up.
    quit: Arc<AtomicBool>,
    bytes: Receiver<Vec<u8>>,
    /// What came and the stub has not read yet.
    held: Vec<u8>,
    /// The mode the stub set (its calls take `&self`, as a socket's do).
    nonblocking: Cell<bool>,
    timeout: Cell<Option<Duration>>,
}

impl Watched {
    /// Starts the reader thread on a clone of `stream`; it raises `attention` when bytes
    /// come and when the connection ends. A write waits for the client as long as it takes,
    /// unless `quit` is set.
    pub fn new(
        stream: Stream,
        attention: Arc<AtomicBool>,
        quit: Arc<AtomicBool>,
    ) -> std::io::Result<Watched> {
        // The two handles share the socket's blocking mode: both block, the reader for ever
        // and the writer until the client has taken its packet, in waits of WRITE_WAIT.
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(None)?;
        stream.set_write_timeout(Some(WRITE_WAIT))?;
        let mut reader = stream.try_clone()?;
        // Bounded: a client that floods the stub fills it and then its socket, and waits, as
        // it did when the stub read the socket itself; the board's memory does not grow.
        let (sender, bytes) = std::sync::mpsc::sync_channel(QUEUED);
        std::thread::Builder::new()
            .name("gdb-reader".into())
            .spawn(move || {
                let mut buf = [0u8; 4096];
                loop {
                    match reader.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => {
                            if sender.send(buf[..n].to_vec()).is_err() {
                                break;
                            }
                            // After the send: a stub that lowers the flag and then finds
                            // nothing is raised again by these bytes, never left waiting.
                            attention.store(true, Ordering::SeqCst);
                        }
                        Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                        Err(_) => break,
                    }
                }
                // The end of the stream (the sender dropped) is news for the stub too.
                attention.store(true, Ordering::SeqCst);
            })?;
        Ok(Watched {
            writer: stream,
            quit,
            bytes,
            held: Vec::new(),
            nonblocking: Cell::new(false),
            timeout: Cell::new(None),
        })
    }
}

impl Read for Watched {
    /// As a socket reads in the mode the stub set: without waiting (`WouldBlock`), waiting
    /// up to the read timeout (`WouldBlock` after it), or for ever; 0 at the end.
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.held.is_empty() {
            let next = if self.nonblocking.get() {
                match self.bytes.try_recv() {
                    Ok(bytes) => bytes,
                    Err(TryRecvError::Empty) => return Err(ErrorKind::WouldBlock.into()),
                    Err(TryRecvError::Disconnected) => return Ok(0),
                }
            } else if let Some(wait) = self.timeout.get() {
                match self.bytes.recv_timeout(wait) {
                    Ok(bytes) => bytes,
                    Err(RecvTimeoutError::Timeout) => return Err(ErrorKind::WouldBlock.into()),
                    Err(RecvTimeoutError::Disconnected) => return Ok(0),
                }
            } else {
                match self.bytes.recv() {
                    Ok(bytes) => bytes,
                    Err(_) => return Ok(0),
                }
            };
            self.held = next;
        }
        let n = buf.len().min(self.held.len());
        buf[..n].copy_from_slice(&self.held[..n]);
        self.held.drain(..n);
        Ok(n)
    }
}

impl Write for Watched {
    /// As a blocking socket writes, but a write a client leaves waiting ends in an error once
    /// `quit` is set: SIGTERM ends the board, whoever is connected.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        loop {
            match self.writer.write(buf) {
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if self.quit.load(Ordering::SeqCst) {
                        return Err(std::io::Error::new(
                            ErrorKind::TimedOut,
                            "told to quit while the debugger was not reading",
                        ));
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                done => return done,
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

impl Socket for Watched {
    /// The reads' mode only: the socket itself stays blocking for the writes.
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        self.nonblocking.set(on);
        Ok(())
    }

    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        self.timeout.set(timeout);
        Ok(())
    }
}

impl Drop for Watched {
    /// Ends the reader thread: its blocking read returns at the shutdown.
    fn drop(&mut self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    #[test]
    fn bytes_raise_the_flag_and_read_in_order_and_the_end_reads_as_a_sockets() {
        let (ours, mut theirs) = UnixStream::pair().unwrap();
        let attention = Arc::new(AtomicBool::new(false));
        let mut watched =
            Watched::new(Stream::Unix(ours), Arc::clone(&attention), Arc::default()).unwrap();
        // Nothing yet: a read without waiting would block, one with a timeout too.
        watched.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(
            watched.read(&mut buf).unwrap_err().kind(),
            ErrorKind::WouldBlock
        );
        watched.set_nonblocking(false).unwrap();
        watched
            .set_read_timeout(Some(Duration::from_millis(10)))
            .unwrap();
        assert_eq!(
            watched.read(&mut buf).unwrap_err().kind(),
            ErrorKind::WouldBlock
        );
        assert!(!attention.load(Ordering::SeqCst));
        // A packet: the flag goes up, and the bytes come in order, in reads of any size.
        theirs.write_all(b"$c#63").unwrap();
        watched
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut got = Vec::new();
        while got.len() < 5 {
            let n = watched.read(&mut buf[..2]).unwrap();
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, b"$c#63");
        // Raised after the bytes are handed over (so a stub that lowered it and found nothing
        // is woken by the next bytes): soon after the read, then.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !attention.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
            std::thread::yield_now();
        }
        assert!(attention.load(Ordering::SeqCst));
        // Writes reach the client.
        watched.write_all(b"+").unwrap();
        let mut one = [0u8; 1];
        theirs.read_exact(&mut one).unwrap();
        assert_eq!(&one, b"+");
        // The client goes: the flag goes up again and a read is the end (0).
        attention.store(false, Ordering::SeqCst);
        drop(theirs);
        assert_eq!(watched.read(&mut buf).unwrap(), 0);
        assert!(attention.load(Ordering::SeqCst));
    }

    #[test]
    fn a_write_to_a_client_that_does_not_read_gives_up_once_told_to_quit() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let quit = Arc::new(AtomicBool::new(false));
        let mut watched =
            Watched::new(Stream::Unix(ours), Arc::default(), Arc::clone(&quit)).unwrap();
        let flag = Arc::clone(&quit);
        let setter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::SeqCst);
        });
        let started = std::time::Instant::now();
        // Far more than the socket's buffers hold: it blocked for ever before.
        let e = watched.write_all(&vec![b'x'; 64 << 20]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TimedOut, "{e}");
        assert!(started.elapsed() < Duration::from_secs(2));
        setter.join().unwrap();
        drop(theirs);
    }

    #[test]
    fn a_client_that_floods_a_stub_that_does_not_read_is_made_to_wait() {
        let (ours, mut theirs) = UnixStream::pair().unwrap();
        let attention = Arc::new(AtomicBool::new(false));
        let _watched = Watched::new(Stream::Unix(ours), attention, Arc::default()).unwrap();
        // 64 MiB offered, nothing read: the client's writes must block long before (the
        // queue's 64 KiB and the socket's buffers), else the board would hold it all.
        theirs.set_nonblocking(true).unwrap();
        let chunk = [b'x'; 4096];
        let mut sent = 0usize;
        let mut blocked = 0;
        while sent < 64 << 20 && blocked < 200 {
            match theirs.write(&chunk) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    blocked += 1;
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert!(
            sent < 16 << 20,
            "{sent} bytes taken from a client nobody reads"
        );
    }
}
