//! Parts kept as files, so that an interrupted search resumes and a cluster's parts come back.

use std::io;
use std::path::{Path, PathBuf};

use super::{LinksError, Part, PartId};

/// The file of part `id` of a search on `vertices` vertices, in `dir`.
pub fn part_path(dir: &Path, vertices: usize, id: PartId) -> PathBuf {
    dir.join(format!(
        "links-{vertices}-part-{}-of-{}.txt",
        id.index, id.count
    ))
}

/// Writes a part's file whole or not at all (a temporary file renamed into place), so that a
/// run killed at any moment leaves only finished parts behind.
pub fn save_part(dir: &Path, part: &Part) -> io::Result<PathBuf> {
    let path = part_path(dir, part.vertices, part.id);
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, part.to_string())?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Why a stored part could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoredPartError {
    /// The file could not be read (not a regular file, more than [`MAX_PART_BYTES`], an
    /// I/O error).
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why (the error's source, so that a chain prints it once).
        source: boards::read::ReadError,
    },
    /// The file does not read as a part, or is another search's.
    #[error("{path}: {error}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: LinksError,
    },
}

/// The largest part file read: a part lists the weak links it found (kilobytes on 10
/// vertices), so 64 MiB is far past any real one.
pub const MAX_PART_BYTES: u64 = 64 << 20;

/// The stored part `id`, if its file exists; an error if it exists but is not that part.
pub fn load_part(dir: &Path, vertices: usize, id: PartId) -> Result<Option<Part>, StoredPartError> {
    let path = part_path(dir, vertices, id);
    let text = match boards::read::text(&path, MAX_PART_BYTES) {
        Ok(text) => text,
        Err(boards::read::ReadError::Missing) => return Ok(None),
        Err(source) => return Err(StoredPartError::Read { path, source }),
    };
    let part: Part = text.parse().map_err(|error| StoredPartError::Bad {
        path: path.clone(),
        error,
    })?;
    if part.vertices != vertices || part.id != id {
        return Err(StoredPartError::Bad {
            path,
            error: LinksError::Parts(format!(
                "holds part {} on {} vertices, not part {id} on {vertices}",
                part.id, part.vertices
            )),
        });
    }
    Ok(Some(part))
}
