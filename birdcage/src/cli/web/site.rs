//! The site folder and the files `birdcage web` may serve from it: regular files whose real
//! path lies inside the folder, opened without blocking and read up to a size limit.
//!
//! A URL path is resolved (symlinks followed) and must land inside the folder's own real
//! path; then the resolved path is opened one component at a time from the folder, never
//! following a symlink, so that a link swapped in between cannot lead outside. What is
//! opened is checked on the open descriptor: a FIFO, a device or a socket is refused,
//! and opening never waits (`O_NONBLOCK`), so a FIFO cannot hang the server.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The largest file served (the web app's WebAssembly is about 0.5 MB).
pub const MAX_FILE: u64 = 32 << 20;

/// Why a path is not served (all answered 404; the server does not say what lies outside).
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Nothing there, or a name that would leave the folder (`..`, an absolute path).
    Missing,
    /// Its real path lies outside the folder (a symlink to `/etc/passwd`, `/`, `/proc`).
    Outside,
    /// Not a regular file (a FIFO, a device, a socket, a folder without `index.html`).
    NotRegular,
    /// Larger than [`MAX_FILE`].
    TooLarge,
}

/// The folder served: its real path, found once.
#[derive(Debug, Clone)]
pub struct Site {
    root: PathBuf,
}

impl Site {
    /// The site in `dir`, which must hold `index.html`.
    pub fn new(dir: &Path) -> std::io::Result<Site> {
        let root = dir.canonicalize()?;
        Ok(Site { root })
    }

    /// The bytes of the file a URL path names (`/` and any folder: its `index.html`).
    pub fn read(&self, url_path: &str) -> Result<(PathBuf, Vec<u8>), Refused> {
        let relative = Path::new(url_path.trim_start_matches('/'));
        if relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(Refused::Missing);
        }
        let mut real = self.real(&self.root.join(relative))?;
        if real.is_dir() {
            real = self.real(&real.join("index.html"))?;
        }
        let inside = real
            .strip_prefix(&self.root)
            .map_err(|_| Refused::Outside)?;
        // Checked before opening too: opening a device can do things.
        let kind = std::fs::symlink_metadata(&real).map_err(|_| Refused::Missing)?;
        if !kind.is_file() {
            return Err(Refused::NotRegular);
        }
        let file = open_beneath(&self.root, inside)?;
        let bytes = read_limited(file)?;
        Ok((real, bytes))
    }

    /// `path` with every symlink resolved; it must lie inside the folder.
    fn real(&self, path: &Path) -> Result<PathBuf, Refused> {
        let real = path.canonicalize().map_err(|_| Refused::Missing)?;
        if real.starts_with(&self.root) {
            Ok(real)
        } else {
            Err(Refused::Outside)
        }
    }
}

/// Reads a regular file's bytes, at most [`MAX_FILE`] of them (a file that grows while read
/// is refused, not followed).
fn read_limited(file: std::fs::File) -> Result<Vec<u8>, Refused> {
    let meta = file.metadata().map_err(|_| Refused::Missing)?;
    if !meta.is_file() {
        return Err(Refused::NotRegular);
    }
    if meta.len() > MAX_FILE {
        return Err(Refused::TooLarge);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| Refused::Missing)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(Refused::TooLarge);
    }
    Ok(bytes)
}

/// Opens `inside` (a path relative to `root`, with no symlink in it) one component at a
/// time from `root`, refusing any symlink met on the way and never blocking on open.
#[cfg(unix)]
fn open_beneath(root: &Path, inside: &Path) -> Result<std::fs::File, Refused> {
    use rustix::fs::{Mode, OFlags, openat};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let missing = |_| Refused::Missing;
    let mut dir =
        rustix::fs::open(root, flags | OFlags::DIRECTORY, Mode::empty()).map_err(missing)?;
    let mut names = inside.components().peekable();
    while let Some(name) = names.next() {
        let Component::Normal(name) = name else {
            return Err(Refused::Missing);
        };
        let last = names.peek().is_none();
        let more = if last {
            OFlags::empty()
        } else {
            OFlags::DIRECTORY
        };
        dir = openat(&dir, name, flags | more, Mode::empty()).map_err(|e| {
            if e == rustix::io::Errno::LOOP {
                Refused::Outside
            } else {
                Refused::Missing
            }
        })?;
    }
    Ok(std::fs::File::from(dir))
}

/// Elsewhere: the resolved path, checked a regular file before it is opened.
#[cfg(not(unix))]
fn open_beneath(root: &Path, inside: &Path) -> Result<std::fs::File, Refused> {
    let path = root.join(inside);
    let meta = std::fs::symlink_metadata(&path).map_err(|_| Refused::Missing)?;
    if !meta.is_file() {
        return Err(Refused::NotRegular);
    }
    std::fs::File::open(path).map_err(|_| Refused::Missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_folder_are_refused_before_the_disk_is_asked() {
        let site = Site {
            root: PathBuf::from("/nonexistent/site"),
        };
        assert_eq!(site.read("/../etc/passwd"), Err(Refused::Missing));
        assert_eq!(site.read("/a/../../b"), Err(Refused::Missing));
        assert_eq!(site.read("//etc/passwd"), Err(Refused::Missing));
    }
}
