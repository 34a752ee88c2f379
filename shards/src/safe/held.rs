//! A folder held by its descriptor, reached component by component from `/` or the current
//! folder, so that nothing after the walk (a type check, an open, a rename) goes through a
//! path someone can change in between.
//!
//! A symbolic link met on the way is followed only if this user or root owns it: the rule of
//! Linux's `fs.protected_symlinks`. The user's own `--out` link and the system's (`/lib ->
//! usr/lib`, macOS' `/tmp`) lead where they lead; one planted in a shared folder by another
//! user (`OUT/board-3 -> ~victim/site`) is refused by name. `..` is the held folder's own
//! parent (`openat(held, "..")`), as the kernel resolves it.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags};

use super::{Entry, FileError, Make, Open, Stop};

/// How many links one walk follows, as Linux's `MAXSYMLINKS`: more is a loop (ELOOP).
pub(super) const MAX_LINKS: u32 = 40;

/// How a folder on the way is held: `O_PATH` (search permission is enough, as for a path)
/// where there is one.
#[cfg(any(target_os = "linux", target_os = "android"))]
const HOLD: OFlags = OFlags::PATH;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const HOLD: OFlags = OFlags::RDONLY;

/// A folder, held open.
pub(super) struct Folder(OwnedFd);

impl From<rustix::io::Errno> for Stop {
    fn from(e: rustix::io::Errno) -> Self {
        Stop::Io(e.into())
    }
}

impl Folder {
    /// The folder `path` names, walked from `/` or the current folder.
    pub(super) fn walk(path: &Path, make: Make) -> Result<Folder, Stop> {
        let mut links = 0;
        let mut shown = PathBuf::new();
        walk_in(open_folder(CWD, ".")?, path, make, &mut shown, &mut links).map(Folder)
    }

    /// What is at `name`, a link not followed.
    pub(super) fn entry(&self, name: &OsStr) -> io::Result<Entry> {
        match rustix::fs::statat(&self.0, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(match words(FileType::from_raw_mode(stat.st_mode)) {
                None => Entry::Regular,
                Some(kind) => Entry::Other(kind),
            }),
            Err(rustix::io::Errno::NOENT) => Ok(Entry::Absent),
            Err(e) => Err(e.into()),
        }
    }

    /// Opens `name` in this folder, never through a link at it (ELOOP) and never blocking.
    pub(super) fn open(&self, name: &OsStr, how: Open) -> io::Result<File> {
        let (flags, mode) = match how {
            Open::Read => (OFlags::RDONLY, 0),
            Open::ReadWrite => (OFlags::RDWR | OFlags::CREATE, 0o666),
            Open::Append => (OFlags::WRONLY | OFlags::APPEND, 0),
            Open::New => (OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL, 0o644),
        };
        let flags = flags | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.0, name, flags, Mode::from_raw_mode(mode))?;
        Ok(File::from(fd))
    }

    /// Renames `from` onto `to`, both in this folder.
    pub(super) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::renameat(&self.0, from, &self.0, to)?)
    }

    /// Removes the file `name`.
    pub(super) fn remove(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(&self.0, name, AtFlags::empty())?)
    }

    /// Makes the new folder `name` (never through a link: `mkdir` follows none).
    pub(super) fn make(&self, name: &OsStr) -> io::Result<()> {
        Ok(rustix::fs::mkdirat(
            &self.0,
            name,
            Mode::from_raw_mode(0o777),
        )?)
    }

    /// Syncs the folder, so a rename in it survives a crash; a folder that cannot be opened
    /// for reading (search permission only, some file systems) still holds the file.
    pub(super) fn sync(&self) {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        if let Ok(fd) = rustix::fs::openat(&self.0, ".", flags, Mode::empty()) {
            let _ = rustix::fs::fsync(fd);
        }
    }
}

/// What a file of this type is, in words; `None` for a regular file.
pub(super) fn words(kind: FileType) -> Option<&'static str> {
    Some(match kind {
        FileType::RegularFile => return None,
        FileType::Symlink => "a symbolic link",
        FileType::Directory => "a folder",
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::BlockDevice => "a block device",
        FileType::CharacterDevice => "a character device",
        _ => "not a file",
    })
}

/// Opens the folder `name` in `at` to hold it: never a link (`O_NOFOLLOW|O_DIRECTORY` fails
/// on one, ENOTDIR), so a folder swapped for a link after it was looked at is not entered.
fn open_folder(at: impl std::os::fd::AsFd, name: impl rustix::path::Arg) -> Result<OwnedFd, Stop> {
    let flags = HOLD | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(rustix::fs::openat(at, name, flags, Mode::empty())?)
}

/// Walks `path` from `held`; `shown` is the path walked so far, as the user wrote it, for
/// the messages.
fn walk_in(
    mut held: OwnedFd,
    path: &Path,
    make: Make,
    shown: &mut PathBuf,
    links: &mut u32,
) -> Result<OwnedFd, Stop> {
    for part in path.components() {
        match part {
            Component::RootDir => {
                held = open_folder(CWD, "/")?;
                *shown = PathBuf::from("/");
            }
            Component::CurDir => shown.push("."),
            Component::ParentDir => {
                held = open_folder(&held, "..")?;
                shown.push("..");
            }
            Component::Normal(name) => {
                shown.push(name);
                held = step(&held, name, make, shown, links)?;
            }
            Component::Prefix(_) => {
                return Err(Stop::Io(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a path prefix on unix",
                )));
            }
        }
    }
    Ok(held)
}

/// The folder `name` in `held`: entered if a folder, made first if missing and `make` says
/// so, followed if a link this user or root owns; anything else refused by name.
fn step(
    held: &OwnedFd,
    name: &OsStr,
    make: Make,
    shown: &Path,
    links: &mut u32,
) -> Result<OwnedFd, Stop> {
    let stat = match rustix::fs::statat(held, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => stat,
        Err(rustix::io::Errno::NOENT) if make == Make::Missing => {
            match rustix::fs::mkdirat(held, name, Mode::from_raw_mode(0o777)) {
                // Made meanwhile by another process: entered all the same if a folder.
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            return open_folder(held, name);
        }
        Err(e) => return Err(e.into()),
    };
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::Directory => open_folder(held, name),
        FileType::Symlink => follow(held, name, make, shown, links),
        kind => Err(Stop::Refused(FileError::NotAFolder {
            path: shown.to_path_buf(),
            kind: words(kind).unwrap_or("a regular file"),
        })),
    }
}

/// The folder the link `name` in `held` leads to, if this user or root owns the link; its
/// target walked by the same rules, nothing made in it.
fn follow(
    held: &OwnedFd,
    name: &OsStr,
    make: Make,
    shown: &Path,
    links: &mut u32,
) -> Result<OwnedFd, Stop> {
    *links += 1;
    if *links > MAX_LINKS {
        return Err(Stop::Refused(FileError::TooManyLinks {
            path: shown.to_path_buf(),
        }));
    }
    let (uid, target) = read_link(held, name)?;
    if uid != super::me() && uid != 0 {
        return Err(Stop::Refused(FileError::ForeignLink {
            path: shown.to_path_buf(),
            uid,
        }));
    }
    let mut inner = shown.parent().map(Path::to_path_buf).unwrap_or_default();
    let from = held.try_clone().map_err(Stop::Io)?;
    match walk_in(from, &target, Make::Nothing, &mut inner, links) {
        Err(Stop::Io(e)) if e.kind() == io::ErrorKind::NotFound && make == Make::Missing => {
            Err(Stop::Refused(FileError::NotAFolder {
                path: shown.to_path_buf(),
                kind: "a symbolic link",
            }))
        }
        walked => walked,
    }
}

/// The owner and target of the link `name` in `held`, read from one held descriptor of the
/// link itself (`O_PATH|O_NOFOLLOW`), so the owner checked is the target read's.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn read_link(held: &OwnedFd, name: &OsStr) -> Result<(u32, PathBuf), Stop> {
    use std::os::unix::ffi::OsStringExt;
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let link = rustix::fs::openat(held, name, flags, Mode::empty())?;
    let stat = rustix::fs::fstat(&link)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
        return Err(Stop::Io(io::Error::other("changed while it was walked")));
    }
    let target = rustix::fs::readlinkat(&link, "", Vec::new())?;
    let target = std::ffi::OsString::from_vec(target.into_bytes());
    Ok((stat.st_uid, PathBuf::from(target)))
}

/// The owner and target of the link `name` in `held`: looked at before and after reading it,
/// the same link both times.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn read_link(held: &OwnedFd, name: &OsStr) -> Result<(u32, PathBuf), Stop> {
    use std::os::unix::ffi::OsStringExt;
    let before = rustix::fs::statat(held, name, AtFlags::SYMLINK_NOFOLLOW)?;
    let target = rustix::fs::readlinkat(held, name, Vec::new())?;
    let after = rustix::fs::statat(held, name, AtFlags::SYMLINK_NOFOLLOW)?;
    if (before.st_dev, before.st_ino) != (after.st_dev, after.st_ino) {
        return Err(Stop::Io(io::Error::other("changed while it was walked")));
    }
    let target = std::ffi::OsString::from_vec(target.into_bytes());
    Ok((before.st_uid, PathBuf::from(target)))
}
