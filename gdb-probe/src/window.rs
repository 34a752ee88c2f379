//! A memory window: target RAM that a stub on the same machine keeps in a file, mapped by the
//! client too, so that a read or write there is a memory access with no packet, as a debug
//! probe reads RAM over the AHB while the core runs. The virtual board's stub offers one
//! (`monitor window`, [`Quirks::window_command`](crate::Quirks)); RTT's ring buffers live
//! there, and the bench's polls then cost no round trip.
//!
//! Concurrency is the hardware's: the core and the debugger access the same bytes at once.
//! Accesses are volatile, aligned words go whole (a 32-bit RTT offset is never read half old,
//! half new, as an AHB word access never is) and a fence orders each access against the next.

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::sync::atomic::{Ordering, fence};

use memmap2::MmapRaw;

/// A stub's answer to its window command: target RAM from `start`, `len` bytes, kept in the
/// file at `path`. Written `window 0x20000000 0x20000 /path/to/file` (the path is the rest of
/// the line, spaces and all): the stub prints it, [`Window::open`] reads it.
///
/// ```
/// use gdb_probe::window::Answer;
/// let answer: Answer = "window 0x20000000 0x20000 /tmp/a b\n".parse().unwrap();
/// assert_eq!((answer.start, answer.len), (0x2000_0000, 0x2_0000));
/// assert_eq!(answer.to_string(), "window 0x20000000 0x20000 /tmp/a b");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The first target address.
    pub start: u32,
    /// Bytes, at least 1, not past the end of the address space.
    pub len: u32,
    /// The file that holds them.
    pub path: PathBuf,
}

/// An answer that is not `window START LEN PATH`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` does not name a memory window (window START LEN PATH)")]
pub struct AnswerError(String);

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "window {:#x} {:#x} {}",
            self.start,
            self.len,
            self.path.display()
        )
    }
}

impl std::str::FromStr for Answer {
    type Err = AnswerError;

    fn from_str(answer: &str) -> Result<Answer, AnswerError> {
        let bad = || AnswerError(answer.trim().chars().take(80).collect());
        let mut words = answer.trim().splitn(4, ' ');
        if words.next() != Some("window") {
            return Err(bad());
        }
        let number = |w: Option<&str>| {
            w.and_then(|w| w.strip_prefix("0x"))
                .and_then(|w| u32::from_str_radix(w, 16).ok())
        };
        let (Some(start), Some(len), Some(path)) =
            (number(words.next()), number(words.next()), words.next())
        else {
            return Err(bad());
        };
        if len == 0 || start.checked_add(len - 1).is_none() {
            return Err(bad());
        }
        Ok(Answer {
            start,
            len,
            path: PathBuf::from(path),
        })
    }
}

/// What the stub's answer or its file did not allow.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    /// The answer is not `window START LEN PATH`.
    #[error(transparent)]
    Answer(#[from] AnswerError),
    /// The file could not be opened or mapped.
    #[error("memory window {path}: {source}")]
    File {
        /// The file named.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is smaller than the window it should hold.
    #[error("memory window {path}: {len} bytes, the window is {want}")]
    Short {
        /// The file named.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The window's.
        want: u32,
    },
}

/// Target RAM from `start`, mapped from the stub's file.
#[derive(Debug)]
pub struct Window {
    map: MmapRaw,
    start: u32,
    len: u32,
    path: PathBuf,
}

impl Window {
    /// Maps the window the stub's answer names ([`Answer`]).
    pub fn open(answer: &str) -> Result<Window, WindowError> {
        let Answer { start, len, path } = answer.parse()?;
        let io = |source| WindowError::File {
            path: path.clone(),
            source,
        };
        // The stub's RAM file, opened read-write to be mapped shared: it is never made or
        // truncated here, and this crate depends on none of ours, so not on `shards::safe`.
        #[allow(clippy::disallowed_methods)]
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        if file_len < u64::from(len) {
            return Err(WindowError::Short {
                path,
                len: file_len,
                want: len,
            });
        }
        let map = MmapRaw::map_raw(&file).map_err(io)?;
        Ok(Window {
            map,
            start,
            len,
            path,
        })
    }

    /// Whether `address .. address + len` lies inside.
    pub fn holds(&self, address: u32, len: usize) -> bool {
        address >= self.start
            && (u64::from(address) + len as u64) <= u64::from(self.start) + u64::from(self.len)
    }

    /// The target addresses the window holds, and its file.
    pub fn describe(&self) -> String {
        format!(
            "{:#010x}..{:#010x} in {}",
            self.start,
            u64::from(self.start) + u64::from(self.len),
            self.path.display()
        )
    }

    /// Reads `buf.len()` bytes from `address` (inside: [`Window::holds`]).
    pub fn read(&self, address: u32, buf: &mut [u8]) {
        assert!(self.holds(address, buf.len()), "read outside the window");
        fence(Ordering::SeqCst);
        let base = self.map.as_ptr();
        let mut at = (address - self.start) as usize;
        let mut rest = &mut buf[..];
        while !rest.is_empty() {
            let (now, later) = if at.is_multiple_of(4) && rest.len() >= 4 {
                let (word, later) = rest.split_at_mut(4);
                // SAFETY: `at..at + 4` is inside the map (held) and 4-aligned (the map is
                // page-aligned); a volatile read of memory another process may write.
                #[allow(unsafe_code)]
                let value = unsafe { base.add(at).cast::<u32>().read_volatile() };
                word.copy_from_slice(&value.to_le_bytes());
                (4, later)
            } else {
                let (byte, later) = rest.split_at_mut(1);
                // SAFETY: `at` is inside the map (held).
                #[allow(unsafe_code)]
                let value = unsafe { base.add(at).read_volatile() };
                byte[0] = value;
                (1, later)
            };
            at += now;
            rest = later;
        }
        fence(Ordering::SeqCst);
    }

    /// Writes `bytes` at `address` (inside: [`Window::holds`]).
    pub fn write(&self, address: u32, bytes: &[u8]) {
        assert!(self.holds(address, bytes.len()), "write outside the window");
        fence(Ordering::SeqCst);
        let base = self.map.as_mut_ptr();
        let mut at = (address - self.start) as usize;
        let mut rest = bytes;
        while !rest.is_empty() {
            if at.is_multiple_of(4) && rest.len() >= 4 {
                let word = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                // SAFETY: as in `read`; a volatile write the core sees whole.
                #[allow(unsafe_code)]
                unsafe {
                    base.add(at).cast::<u32>().write_volatile(word);
                }
                at += 4;
                rest = &rest[4..];
            } else {
                // SAFETY: `at` is inside the map (held).
                #[allow(unsafe_code)]
                unsafe {
                    base.add(at).write_volatile(rest[0]);
                }
                at += 1;
                rest = &rest[1..];
            }
        }
        fence(Ordering::SeqCst);
    }
}

/// Where a stub serving on the unix socket `socket` keeps its window file: beside it, as
/// `SOCKET.ram`. One rule for the stub that makes the file and for a host that kills the stub
/// (a killed stub cannot remove it).
pub fn beside(socket: &std::path::Path) -> std::path::PathBuf {
    let mut name = socket.as_os_str().to_owned();
    name.push(".ram");
    std::path::PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_of(len: u64) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ram file");
        std::fs::write(&path, vec![0u8; len as usize]).unwrap();
        (dir, path)
    }

    #[test]
    fn what_is_written_through_one_mapping_is_read_through_another_and_in_the_file() {
        let (_dir, path) = file_of(0x1000);
        let answer = format!("window 0x20000000 0x1000 {}\n", path.display());
        let a = Window::open(&answer).unwrap();
        let b = Window::open(&answer).unwrap();
        // Unaligned start and length: bytes at the edges, words between.
        a.write(0x2000_0003, b"bird cage!");
        let mut back = [0u8; 10];
        b.read(0x2000_0003, &mut back);
        assert_eq!(&back, b"bird cage!");
        let file = std::fs::read(&path).unwrap();
        assert_eq!(&file[3..13], b"bird cage!");
        assert_eq!(file[2], 0);
        assert_eq!(file[13], 0);
        // A word is little-endian, as the target's.
        a.write(0x2000_0100, &0xdead_beefu32.to_le_bytes());
        assert_eq!(
            &std::fs::read(&path).unwrap()[0x100..0x104],
            &[0xef, 0xbe, 0xad, 0xde]
        );
    }

    #[test]
    fn an_answer_reads_back_as_written() {
        for (start, len) in [(0, 1), (0x2000_0000, 0x2_0000), (0xffff_ff00, 0x100)] {
            for path in ["/tmp/ram", "/a folder/with spaces/ram file", "relative"] {
                let answer = Answer {
                    start,
                    len,
                    path: path.into(),
                };
                assert_eq!(answer.to_string().parse(), Ok(answer.clone()));
                assert_eq!(format!("{answer}\n").parse(), Ok(answer));
            }
        }
    }

    #[test]
    fn the_window_holds_its_range_and_no_more() {
        let (_dir, path) = file_of(0x1000);
        let w = Window::open(&format!("window 0x20000000 0x1000 {}", path.display())).unwrap();
        assert!(w.holds(0x2000_0000, 0x1000));
        assert!(w.holds(0x2000_0ffc, 4));
        assert!(!w.holds(0x2000_0ffd, 4));
        assert!(!w.holds(0x1fff_ffff, 1));
        assert!(!w.holds(0xffff_fff0, 0x20));
    }

    #[test]
    fn answers_that_name_no_window_or_a_short_file_are_refused() {
        let (_dir, path) = file_of(0x800);
        for answer in [
            "window: none, the SRAM is private".to_string(),
            "window 20000000 0x1000 /x".to_string(),
            "window 0x20000000 0x0 /x".to_string(),
            "window 0xffffffff 0x2 /x".to_string(),
            "window 0x20000000 0x1000".to_string(),
            "commands: reset".to_string(),
        ] {
            assert!(
                matches!(Window::open(&answer), Err(WindowError::Answer(_))),
                "{answer}"
            );
        }
        let missing = format!("window 0x20000000 0x1000 {}.gone", path.display());
        assert!(matches!(
            Window::open(&missing),
            Err(WindowError::File { .. })
        ));
        let short = format!("window 0x20000000 0x1000 {}", path.display());
        assert!(matches!(
            Window::open(&short),
            Err(WindowError::Short {
                len: 0x800,
                want: 0x1000,
                ..
            })
        ));
    }
}
