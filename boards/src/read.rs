//! Reading a file the user names, safely: every file the project reads (profiles, graph
//! files, records, stored parts, the bench's steps) goes through [`text`] or [`bytes`].
//!
//! - The path must be a regular file (symlinks followed) *before* it is opened: opening a
//!   FIFO blocks until a writer comes, and a device such as `/dev/zero` never ends.
//! - At most `limit` bytes are read, whatever the file's size says (a file that grows, a
//!   `/proc` file that claims 0 bytes): a file past its limit is refused, not truncated.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("boards-read-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let file = dir.join("f.txt");
//! std::fs::write(&file, "twelve bytes").unwrap();
//! assert_eq!(boards::read::text(&file, 100).unwrap(), "twelve bytes");
//! assert_eq!(
//!     boards::read::text(&file, 5).unwrap_err().to_string(),
//!     "larger than 5 bytes, the most this file may hold"
//! );
//! assert_eq!(
//!     boards::read::text(&dir, 100).unwrap_err().to_string(),
//!     "is a directory, not a file"
//! );
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::io::Read;
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

/// Why a file was not read. The message says what is wrong, not which file: callers name
/// the file ("cannot read graph file g.txt: …").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Nothing is at the path.
    #[error("no such file")]
    Missing,
    /// A directory.
    #[error("is a directory, not a file")]
    Directory,
    /// A FIFO, socket or device: opening or reading it could block or never end.
    #[error("not a regular file (a fifo, socket or device)")]
    NotRegular,
    /// More than the reader's limit.
    #[error("larger than {limit} bytes, the most this file may hold")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// Not UTF-8 ([`text`] only).
    #[error("not UTF-8 text")]
    NotText,
    /// Any other I/O error (permissions, a read that failed), kept as its kind and text so
    /// that the error compares and clones.
    #[error("{message}")]
    Io {
        /// The error's kind.
        kind: std::io::ErrorKind,
        /// Its text.
        message: String,
    },
}

/// The whole of a regular file, at most `limit` bytes.
pub fn bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    check(path)?;
    let file = std::fs::File::open(path).map_err(io)?;
    // The path may have been swapped between the check and the open: check what was opened.
    if !file.metadata().map_err(io)?.is_file() {
        return Err(ReadError::NotRegular);
    }
    let mut out = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(io)?;
    if out.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(out)
}

/// The whole of a regular file as UTF-8 text, at most `limit` bytes.
pub fn text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(bytes(path, limit)?).map_err(|_| ReadError::NotText)
}

/// Whether `path` is a regular file (after symlinks), without opening it.
pub fn check(path: &Path) -> Result<(), ReadError> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) if m.is_dir() => Err(ReadError::Directory),
        Ok(_) => Err(ReadError::NotRegular),
        Err(e) => Err(io(e)),
    }
}

fn io(error: std::io::Error) -> ReadError {
    if error.kind() == std::io::ErrorKind::NotFound {
        ReadError::Missing
    } else {
        ReadError::Io {
            kind: error.kind(),
            message: error.to_string(),
        }
    }
}
