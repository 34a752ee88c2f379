//! Where a stub listens, and the byte stream to it: a unix socket (QEMU's
//! `-gdb unix:PATH,server=on`) or TCP (QEMU's `-gdb tcp::PORT`, a virtual board, gdbserver).

use std::fmt;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// A stub's address, written `unix:PATH` or `tcp:HOST:PORT`.
///
/// ```
/// use gdb_probe::Address;
/// let a: Address = "unix:/tmp/qemu.sock".parse().unwrap();
/// assert_eq!(a, Address::Unix("/tmp/qemu.sock".into()));
/// assert_eq!(a.to_string(), "unix:/tmp/qemu.sock");
/// let t: Address = "tcp:127.0.0.1:3333".parse().unwrap();
/// assert_eq!(t.to_string(), "tcp:127.0.0.1:3333");
/// assert!("usb:1234".parse::<Address>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Address {
    /// A unix socket's path.
    Unix(PathBuf),
    /// `HOST:PORT`.
    Tcp(String),
}

/// An address that is not `unix:PATH` or `tcp:HOST:PORT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a gdb stub address: write unix:PATH or tcp:HOST:PORT")]
pub struct AddressError(pub String);

impl FromStr for Address {
    type Err = AddressError;

    fn from_str(text: &str) -> Result<Address, AddressError> {
        let bad = || AddressError(text.chars().take(80).collect());
        match text.split_once(':') {
            Some(("unix", path)) if !path.is_empty() => Ok(Address::Unix(path.into())),
            Some(("tcp", host_port)) => match host_port.rsplit_once(':') {
                Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
                    Ok(Address::Tcp(host_port.to_string()))
                }
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Address::Unix(path) => write!(f, "unix:{}", path.display()),
            Address::Tcp(host_port) => write!(f, "tcp:{host_port}"),
        }
    }
}

/// A byte stream to a stub: what the client is generic over.
pub trait Stream: Read + Write + Send + fmt::Debug {
    /// Bounds every read (the client's answer timeout).
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()>;
    /// Reads return at once when nothing is there (to look for a stop reply in passing).
    fn set_nonblocking(&self, on: bool) -> std::io::Result<()>;
}

impl Stream for UnixStream {
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        UnixStream::set_read_timeout(self, timeout)
    }

    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        UnixStream::set_nonblocking(self, on)
    }
}

impl Stream for TcpStream {
    fn set_read_timeout(&self, timeout: Option<Duration>) -> std::io::Result<()> {
        TcpStream::set_read_timeout(self, timeout)
    }

    fn set_nonblocking(&self, on: bool) -> std::io::Result<()> {
        TcpStream::set_nonblocking(self, on)
    }
}

/// How long a refused connection to a unix socket is tried again. A server binds its socket
/// (the file appears) a moment before it listens, and a connection in between is refused:
/// QEMU's gdbstub, started by the bench, was refused this way about once in fifty starts on
/// a loaded two-core machine (probe-rs then said "The debug probe could not be created").
const LISTEN_GRACE: Duration = Duration::from_secs(1);

/// Connects to the unix socket at `path`, trying again while it refuses for [`LISTEN_GRACE`].
fn connect_unix(path: &std::path::Path) -> std::io::Result<UnixStream> {
    let start = std::time::Instant::now();
    loop {
        match UnixStream::connect(path) {
            Err(e)
                if e.kind() == std::io::ErrorKind::ConnectionRefused
                    && start.elapsed() < LISTEN_GRACE =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            result => return result,
        }
    }
}

impl Address {
    /// Opens a stream to the stub. TCP goes without Nagle's delay: the protocol is one small
    /// packet and its answer at a time.
    pub fn open(&self) -> std::io::Result<Box<dyn Stream>> {
        Ok(match self {
            Address::Unix(path) => Box::new(connect_unix(path)?),
            Address::Tcp(host_port) => {
                let stream = TcpStream::connect(host_port.as_str())?;
                stream.set_nodelay(true)?;
                Box::new(stream)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixListener;

    #[test]
    fn a_socket_that_refuses_until_its_server_listens_is_connected_then() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stub.sock");
        // A socket file with nobody listening refuses, as a server's does between its bind
        // and its listen.
        drop(UnixListener::bind(&path).unwrap());
        assert_eq!(
            UnixStream::connect(&path).unwrap_err().kind(),
            std::io::ErrorKind::ConnectionRefused
        );
        let server = {
            let path = path.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(150));
                // Bound beside it and renamed over it: the path never goes missing, which a
                // client trying in between would see as NotFound (no grace: the test failed
                // so about once a few hundred runs on a loaded machine).
                let beside = path.with_extension("new");
                let listener = UnixListener::bind(&beside).unwrap();
                std::fs::rename(&beside, &path).unwrap();
                listener.accept().map(|_| ())
            })
        };
        assert!(connect_unix(&path).is_ok(), "connected once it listened");
        server.join().unwrap().unwrap();
        // A socket nobody will serve is still refused, after the grace.
        drop(UnixListener::bind(dir.path().join("dead.sock")).unwrap());
        let start = std::time::Instant::now();
        let e = connect_unix(&dir.path().join("dead.sock")).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::ConnectionRefused);
        assert!(start.elapsed() >= LISTEN_GRACE);
    }
}
