//! `serve`: the GDB stub's socket and its debuggers, one at a time. A debugger that detaches
//! or drops leaves the board as it was (running on after a detach, as a board runs when its
//! probe lets go) and the next one attaches to it; a second debugger while one is attached is
//! told so in an error packet and closed. The socket's path is the caller's: only a stale
//! socket of this user's is removed from it, and the socket and the memory window's file
//! are removed on every exit the process sees (a detach, an error, SIGTERM, SIGINT).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use crate::conn::Socket;
use crate::gdb::{Ended, Server};
use crate::stop::Stop;
use crate::stream::Stream;

/// Where the stub listens (`--gdb`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Address {
    /// A unix socket at this path.
    Unix(PathBuf),
    /// A TCP address, `HOST:PORT`.
    Tcp(String),
}

/// Why the stub cannot listen where it was told.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    /// `--gdb` is neither form.
    #[error("--gdb {0:?}: give unix:PATH or tcp:HOST:PORT")]
    Form(String),
    /// Something that is not a stale socket of this user's is at a path the stub would use.
    #[error(
        "{path} exists and is not a stale socket of this user's ({what}): the virtual board \
         removes nothing else; remove it or choose another path"
    )]
    Occupied {
        /// The path.
        path: String,
        /// What is there.
        what: String,
    },
    /// A server answers on the socket already.
    #[error("{0}: another server listens on this socket")]
    Listening(String),
    /// The socket cannot be made. (`error`, not `source`: the message says why, and a
    /// chain would say it twice.)
    #[error("cannot listen on {what}: {error}")]
    Bind {
        /// Where.
        what: String,
        /// Why.
        error: std::io::Error,
    },
}

impl Address {
    /// `unix:PATH` or `tcp:HOST:PORT`.
    pub fn parse(text: &str) -> Result<Address, ListenError> {
        if let Some(path) = text.strip_prefix("unix:").filter(|p| !p.is_empty()) {
            Ok(Address::Unix(PathBuf::from(path)))
        } else if let Some(address) = text.strip_prefix("tcp:").filter(|a| a.contains(':')) {
            Ok(Address::Tcp(address.to_string()))
        } else {
            Err(ListenError::Form(text.to_string()))
        }
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Address::Unix(path) => write!(f, "unix:{}", path.display()),
            Address::Tcp(address) => write!(f, "tcp:{address}"),
        }
    }
}

use shards::safe::me;

/// Clears `path` for a socket: nothing there (`false`), or a stale socket of this user's (a
/// board that was killed), which is removed (`true`). Anything else is refused, named.
pub fn clear_socket_path(path: &Path) -> Result<bool, ListenError> {
    let name = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => {
            return Err(ListenError::Bind {
                what: name,
                error: source,
            });
        }
    };
    let kind = meta.file_type();
    let what =
        if kind.is_socket() {
            if meta.uid() != me() {
                format!("a socket of user {}", meta.uid())
            } else {
                return match UnixStream::connect(path) {
                    Ok(_) => Err(ListenError::Listening(name)),
                    Err(_) => std::fs::remove_file(path).map(|()| true).map_err(|source| {
                        ListenError::Bind {
                            what: name,
                            error: source,
                        }
                    }),
                };
            }
        } else if kind.is_symlink() {
            "a symbolic link".to_string()
        } else if kind.is_dir() {
            "a directory".to_string()
        } else if kind.is_file() {
            "a regular file".to_string()
        } else if kind.is_fifo() {
            "a FIFO".to_string()
        } else {
            "a special file".to_string()
        };
    Err(ListenError::Occupied { path: name, what })
}

/// Clears `path` for the memory window's file: nothing there, or a stale window of this
/// user's (a regular file of the SRAM's size readable by its owner only) beside the stale
/// socket just removed (`stale_socket`), which is removed. A file of that shape with no
/// socket beside it may be anyone's data: it is refused, named, never removed.
pub fn clear_window_path(path: &Path, size: u64, stale_socket: bool) -> Result<(), ListenError> {
    let name = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(ListenError::Bind {
                what: name,
                error: source,
            });
        }
    };
    if !stale_socket {
        return Err(ListenError::Occupied {
            path: name,
            what: "no stale socket of a board beside it".to_string(),
        });
    }
    let ours = meta.file_type().is_file()
        && meta.uid() == me()
        && meta.len() == size
        && meta.mode() & 0o777 == 0o600;
    if ours {
        return std::fs::remove_file(path).map_err(|source| ListenError::Bind {
            what: name,
            error: source,
        });
    }
    Err(ListenError::Occupied {
        path: name,
        what: "not a memory window this user's board left".to_string(),
    })
}

/// A listening socket.
#[derive(Debug)]
pub enum Listener {
    /// A unix socket, and its path (removed when dropped).
    Unix(UnixListener, PathBuf),
    /// TCP.
    Tcp(TcpListener),
}

impl Listener {
    /// Listens at `address` (a unix path must be clear: [`clear_socket_path`]). A unix socket
    /// is bound under another name and renamed once it listens: whoever waits for the path
    /// never finds a socket that refuses the connection.
    pub fn bind(address: &Address) -> Result<Listener, ListenError> {
        match address {
            Address::Unix(path) => {
                let mut binding = path.clone().into_os_string();
                binding.push(".binding");
                let binding = PathBuf::from(binding);
                clear_socket_path(path)?;
                clear_socket_path(&binding)?;
                let bind = |error| ListenError::Bind {
                    what: path.display().to_string(),
                    error,
                };
                let listener = UnixListener::bind(&binding).map_err(bind)?;
                if let Err(e) = std::fs::rename(&binding, path) {
                    let _ = std::fs::remove_file(&binding);
                    return Err(bind(e));
                }
                Ok(Listener::Unix(listener, path.clone()))
            }
            Address::Tcp(at) => {
                let listener = TcpListener::bind(at).map_err(|error| ListenError::Bind {
                    what: at.clone(),
                    error,
                })?;
                Ok(Listener::Tcp(listener))
            }
        }
    }

    /// Where it listens, in `--gdb`'s words, and whether beyond this machine.
    pub fn describe(&self) -> (String, bool) {
        match self {
            Listener::Unix(_, path) => (format!("unix:{}", path.display()), false),
            Listener::Tcp(l) => match l.local_addr() {
                Ok(at) => (format!("tcp:{at}"), !at.ip().is_loopback()),
                Err(_) => ("tcp".to_string(), true),
            },
        }
    }

    fn accept(&self) -> std::io::Result<Stream> {
        Ok(match self {
            Listener::Unix(l, _) => Stream::Unix(l.accept()?.0),
            Listener::Tcp(l) => {
                let (stream, _) = l.accept()?;
                stream.set_nodelay(true)?;
                Stream::Tcp(stream)
            }
        })
    }

    fn try_clone(&self) -> std::io::Result<Listener> {
        Ok(match self {
            Listener::Unix(l, path) => Listener::Unix(l.try_clone()?, path.clone()),
            Listener::Tcp(l) => Listener::Tcp(l.try_clone()?),
        })
    }
}

/// The socket's path, removed when the server ends (however it ends, short of SIGKILL).
#[derive(Debug)]
pub struct SocketFile(pub Option<PathBuf>);

impl Drop for SocketFile {
    fn drop(&mut self) {
        if let Some(path) = &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// What a second debugger is told, in an error packet (`E.` and text, as gdb prints it).
pub const BUSY: &str = "E.another debugger is attached to this virtual board (one at a time)";

/// Connections waiting or being refused at once; past this, accepting waits for one to end.
const MAX_REFUSING: usize = 8;

/// How long a refused connection has to send its first packet.
const REFUSAL_WAIT: Duration = Duration::from_secs(2);

/// Tells a second debugger the stub is busy: after its first packet (a stub speaks when
/// spoken to), `+` and [`BUSY`] as an error packet; then closes.
fn refuse(mut stream: Stream) {
    let _ = stream.set_read_timeout(Some(REFUSAL_WAIT));
    let mut seen = Vec::new();
    let mut buf = [0u8; 512];
    // Up to the first packet's checksum, or 4 KiB, or the wait.
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
        let packet_end = seen
            .iter()
            .position(|&b| b == b'#')
            .is_some_and(|at| seen.len() >= at + 3);
        if packet_end || seen.len() > 4096 {
            break;
        }
    }
    let sum = BUSY.bytes().fold(0u8, |a, b| a.wrapping_add(b));
    let _ = write!(stream, "+${BUSY}#{sum:02x}");
    let _ = stream.flush();
}

/// How long a new connection waits for the debugger before it to leave (a port scan's
/// connection, a debugger closing) before it is refused. 0.5 s was too short on a loaded
/// machine (two cores running the test suite): twenty scans in a row were still being
/// closed when the real debugger came, and it was refused.
const GRACE: Duration = Duration::from_secs(2);

/// Accepts debuggers on a thread of its own: the first while none is attached goes to the
/// server (`attached` set); another waits [`GRACE`] for the one attached to leave, and is
/// refused ([`refuse`]) if it does not.
fn accept_loop(
    listener: Listener,
    attached: Arc<AtomicBool>,
    refuse: fn(Stream),
) -> Receiver<Stream> {
    let (tx, rx) = std::sync::mpsc::channel();
    let waiting = Arc::new(AtomicUsize::new(0));
    std::thread::spawn(move || {
        loop {
            let Ok(stream) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            let take = |attached: &AtomicBool| {
                attached
                    .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            };
            if take(&attached) {
                if tx.send(stream).is_err() {
                    return;
                }
                continue;
            }
            // Threads that wait or refuse are bounded: past them the accepting waits, and
            // the kernel's backlog holds the next connections (closing them unanswered reset
            // a real debugger that came after a port scan of twenty connections).
            while waiting.load(Ordering::SeqCst) >= MAX_REFUSING {
                std::thread::sleep(Duration::from_millis(5));
            }
            waiting.fetch_add(1, Ordering::SeqCst);
            let (waiting, attached, tx) = (Arc::clone(&waiting), Arc::clone(&attached), tx.clone());
            std::thread::spawn(move || {
                let deadline = std::time::Instant::now() + GRACE;
                let mut taken = take(&attached);
                while !taken && std::time::Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                    taken = take(&attached);
                }
                if taken {
                    let _ = tx.send(stream);
                } else {
                    refuse(stream);
                }
                waiting.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    rx
}

/// Serves debuggers at the debug port (`--dap`, [`crate::dap`]) on `listener`, one at a time,
/// until `quit` is set. Between debuggers the core runs as the last one left it.
pub fn serve_dap(
    target: &mut crate::dap::Target,
    core: &mut crate::cpu::Core<'_>,
    elf: &crate::elf::Elf,
    listener: &Listener,
    quit: &Arc<AtomicBool>,
) -> Served {
    let attached = Arc::new(AtomicBool::new(false));
    let incoming = match listener.try_clone() {
        Ok(clone) => accept_loop(clone, Arc::clone(&attached), crate::dap::refuse::<Stream>),
        Err(e) => {
            eprintln!("virtual board: cannot accept debuggers: {e}");
            return Served::Quit;
        }
    };
    loop {
        if quit.load(Ordering::Relaxed) {
            return Served::Quit;
        }
        let stream = match incoming.try_recv() {
            Ok(stream) => stream,
            Err(TryRecvError::Empty) => {
                if !crate::dap::run_free(target, core, elf) {
                    std::thread::sleep(Duration::from_millis(10));
                }
                continue;
            }
            Err(TryRecvError::Disconnected) => return Served::Quit,
        };
        // Read by the session itself and looked at from the core's block hook (no reader
        // thread); a write the debugger leaves waiting looks at `quit` every WRITE_WAIT.
        let watched = stream
            .set_write_timeout(Some(crate::attention::WRITE_WAIT))
            .and_then(|()| stream.watch_fd());
        let ended = match watched {
            Ok(wire) => crate::dap::session(target, core, elf, stream, wire, quit),
            Err(_) => crate::dap::Ended::Dropped,
        };
        attached.store(false, Ordering::SeqCst);
        if ended == crate::dap::Ended::Quit {
            return Served::Quit;
        }
    }
}

/// How serving ended.
#[derive(Debug)]
pub enum Served {
    /// A debugger asked for the board's end (`k`).
    Killed,
    /// A signal (SIGINT, SIGTERM).
    Quit,
    /// The firmware stopped.
    Stopped(Box<Stop>),
}

/// Serves debuggers on `listener`, one at a time, until a debugger kills the board, `quit`
/// is set or the firmware stops. With no debugger attached the core runs if the last one
/// let it.
pub fn serve(server: &mut Server<'_, '_>, listener: &Listener, quit: &Arc<AtomicBool>) -> Served {
    let attached = Arc::new(AtomicBool::new(false));
    let incoming = match listener.try_clone() {
        Ok(clone) => accept_loop(clone, Arc::clone(&attached), refuse),
        Err(e) => {
            eprintln!("virtual board: cannot accept debuggers: {e}");
            return Served::Quit;
        }
    };
    loop {
        if quit.load(Ordering::Relaxed) {
            return Served::Quit;
        }
        let stream = if server.running() {
            match incoming.try_recv() {
                Ok(stream) => stream,
                Err(TryRecvError::Empty) => {
                    match server.run_free() {
                        Ok(None) => {}
                        // A breakpoint or WFI with nobody to tell: the core halts there.
                        Ok(Some(_)) => server.set_running(false),
                        Err(stop) => return Served::Stopped(Box::new(stop)),
                    }
                    continue;
                }
                Err(TryRecvError::Disconnected) => return Served::Quit,
            }
        } else {
            match incoming.recv_timeout(Duration::from_millis(100)) {
                Ok(stream) => stream,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Served::Quit,
            }
        };
        // Read on a thread of its own, so a packet stops the running core at once.
        let ended =
            match crate::attention::Watched::new(stream, server.attention(), Arc::clone(quit)) {
                Ok(watched) => server.session(watched, quit),
                Err(_) => Ok(Ended::Dropped),
            };
        attached.store(false, Ordering::SeqCst);
        match ended {
            Ok(Ended::Detached) => server.set_running(true),
            Ok(Ended::Dropped) => {}
            Ok(Ended::Killed) => return Served::Killed,
            Ok(Ended::Quit) => return Served::Quit,
            Err(stop) => return Served::Stopped(stop),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busy_answer_is_an_error_packet_gdb_prints() {
        assert!(BUSY.starts_with("E."));
        assert!(!BUSY.contains(['$', '#', '}', '*']));
    }

    #[test]
    fn addresses_are_unix_paths_or_tcp_host_and_port() {
        assert_eq!(
            Address::parse("unix:/tmp/x.sock").unwrap(),
            Address::Unix("/tmp/x.sock".into())
        );
        assert_eq!(
            Address::parse("tcp:127.0.0.1:3333").unwrap(),
            Address::Tcp("127.0.0.1:3333".into())
        );
        for bad in ["unix:", "tcp:3333", "3333", ""] {
            assert!(Address::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_stale_socket_of_this_users_is_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("board.elf");
        std::fs::write(&file, b"the ELF").unwrap();
        let e = clear_socket_path(&file).unwrap_err().to_string();
        assert!(
            e.contains("a regular file") && e.contains("board.elf"),
            "{e}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"the ELF");

        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(
            clear_socket_path(&link)
                .unwrap_err()
                .to_string()
                .contains("symbolic link")
        );
        assert!(
            clear_socket_path(dir.path())
                .unwrap_err()
                .to_string()
                .contains("directory")
        );

        let live = dir.path().join("live.sock");
        let listener = UnixListener::bind(&live).unwrap();
        let e = clear_socket_path(&live).unwrap_err().to_string();
        assert!(e.contains("another server listens"), "{e}");
        drop(listener);
        // Now stale: nobody accepts on it.
        assert!(live.exists());
        assert!(clear_socket_path(&live).unwrap(), "a stale socket removed");
        assert!(!live.exists());
        assert!(!clear_socket_path(&live).unwrap(), "nothing there");
    }

    #[test]
    fn only_a_window_file_a_board_left_is_cleared() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ram");
        std::fs::write(&path, vec![0u8; 64]).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(
            clear_window_path(&path, 64, true).is_err(),
            "readable by others"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(clear_window_path(&path, 65, true).is_err(), "another size");
        let e = clear_window_path(&path, 64, false).unwrap_err().to_string();
        assert!(e.contains("no stale socket of a board beside it"), "{e}");
        assert!(path.exists(), "kept without a socket beside it");
        clear_window_path(&path, 64, true).unwrap();
        assert!(!path.exists());
    }
}
