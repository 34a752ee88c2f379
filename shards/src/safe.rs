//! Files in a folder other users may write: never read or written through a link planted
//! there, never blocked on a FIFO, and written whole or not at all.
//!
//! An output folder (`--out DIR`) may be shared (a group's scratch space on a cluster). Whoever
//! else can write it can plant `DIR/x -> ~/victim` and wait for a run to write `x`, or a FIFO
//! named like a file the run reads, which blocks its `open` forever. So every file the shards
//! crate reads or writes goes through here:
//!
//! - [`write_file`]/[`write_file_with`]: a temporary file created new (`O_CREAT|O_EXCL`, never
//!   following a link) in the destination's own folder, written, synced, then renamed onto the
//!   destination, which must be a regular file or absent; the folder is synced after;
//! - [`open_regular`]: a file opened for reading only if it is a regular file, checked by type
//!   before opening (so a FIFO is never opened) and again on the open file (so a swap in
//!   between is caught), opened without following a link and without blocking;
//! - [`open_or_create`]: the same for a file read and written in place (a lock file);
//! - [`open_append`]: the same for a regular file already there, appended to (a report's
//!   steps after a resume);
//! - [`create_file`]: a file written as it goes, made new under a temporary name and renamed
//!   at once;
//! - [`create_dir_all`]: a folder and its missing parents, something else at its name refused
//!   by name; [`create_dir`]: a new folder, refused if anything (a link) is at its name.
//!
//! Every path is walked a component at a time from `/` or the current folder, each folder
//! held by its descriptor (`openat(O_DIRECTORY|O_NOFOLLOW)`), and all of the above is done
//! relative to the held parent (`statat`, `openat`, `renameat`, `mkdirat`, its `fsync`): a
//! folder swapped for a link between a check and a rename is not written through. A link on
//! the way is followed only if this user or root owns it (the user's own `--out` link, `/lib
//! -> usr/lib`); another user's (`OUT/board-3 -> ~victim/site`) is refused by name
//! ([`FileError::ForeignLink`]), as is a loop of more than [`MAX_LINKS`]. `..` is the held
//! folder's parent, as the kernel resolves it. Elsewhere than unix the same is done by path.
//!
//! It is the workspace's one writer: `clippy.toml` forbids `std::fs::write`, `File::create`,
//! `OpenOptions::open`, `fs::copy`, `create_dir`, `create_dir_all` and `DirBuilder::create`
//! everywhere else (`disallowed_methods`; CI's clippy runs with `-D warnings`), and the few sites that must open a file themselves (a
//! shared memory window, a private folder of mode 0700, a build script's `OUT_DIR`) say why in
//! an `#[allow]` of their own.

use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

#[cfg(not(unix))]
mod by_path;
#[cfg(unix)]
mod held;

#[cfg(not(unix))]
use by_path::Folder;
#[cfg(unix)]
use held::Folder;

/// Why a walk to a folder stopped: an I/O error (the caller names its own path) or a
/// refusal by name. One type for both ways of reaching a folder (`held`, `by_path`).
enum Stop {
    Io(io::Error),
    Refused(FileError),
}

/// Whether a walk makes the folders missing on the way (`create_dir_all`). Never inside a
/// link's target: a dangling link is refused, as `mkdir` through it would be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Make {
    Nothing,
    Missing,
}

/// A file that is not there to be read or written safely.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Something other than a regular file where one is read or replaced (a link someone
    /// planted, a FIFO, a device, a folder).
    #[error("{} is {kind}, not a regular file: refused (remove it)", .path.display())]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is: `a symbolic link`, `a FIFO`, `a folder`, ….
        kind: &'static str,
    },
    /// Reading failed.
    #[error("reading {}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Something other than a folder where one is made or walked through (a file, a
    /// dangling link).
    #[error("{} is {kind}, not a folder: refused", .path.display())]
    NotAFolder {
        /// The path.
        path: PathBuf,
        /// What it is: `a regular file`, `a symbolic link`, `a FIFO`, ….
        kind: &'static str,
    },
    /// Writing failed.
    #[error("writing {}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A symbolic link on the way owned by neither this user nor root: whoever owns it
    /// chooses where it leads (`OUT/board-3 -> ~victim/site`), so it is not followed, as
    /// Linux's `fs.protected_symlinks` does not follow one in a shared sticky folder.
    #[error(
        "{} is a symbolic link of another user (uid {uid}), not followed: refused",
        .path.display()
    )]
    ForeignLink {
        /// The link, as the path walked names it.
        path: PathBuf,
        /// Its owner.
        uid: u32,
    },
    /// More links on the way than the kernel follows (40): a loop.
    #[error(
        "{}: more than {} symbolic links on the way (a loop?): refused",
        .path.display(),
        MAX_LINKS
    )]
    TooManyLinks {
        /// The link met last, as the path walked names it.
        path: PathBuf,
    },
}

/// How many links one path may lead through (Linux's `MAXSYMLINKS`).
#[cfg(unix)]
pub const MAX_LINKS: u32 = held::MAX_LINKS;
/// How many links one path may lead through (Linux's `MAXSYMLINKS`).
#[cfg(not(unix))]
pub const MAX_LINKS: u32 = 40;

/// The user this process runs as (`getuid`).
#[cfg(unix)]
pub fn me() -> u32 {
    rustix::process::getuid().as_raw()
}

/// Why a file read back from an out folder (a shard, a Slurm record) is not to be trusted,
/// or `None` if it is: it must be owned by the user running the command and writable by no
/// one else. Another user who can write a shared folder could otherwise plant a shard that
/// changes a run's plan (`links-9.1-of-1000000.shard`), or a record naming a job of theirs
/// for this user to cancel. [`write_file_with`] makes files `0644` whatever the umask's
/// group bits, so this user's own files pass.
#[cfg(unix)]
pub fn untrusted(meta: &Metadata) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let me = me();
    if meta.uid() != me {
        return Some(format!(
            "owned by uid {}, not by this user (uid {me}), so not trusted",
            meta.uid()
        ));
    }
    (meta.mode() & 0o022 != 0).then(|| {
        format!(
            "writable by other users (mode {:o}), so not trusted; `chmod go-w` it if it is yours",
            meta.mode() & 0o7777
        )
    })
}

/// Elsewhere every file is this user's.
#[cfg(not(unix))]
pub fn untrusted(_meta: &Metadata) -> Option<String> {
    None
}

/// What a file of this type is, in words; `None` for a regular file.
pub fn irregular_kind(meta: &Metadata) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        held::words(rustix::fs::FileType::from_raw_mode(meta.mode()))
    }
    #[cfg(not(unix))]
    {
        let kind = meta.file_type();
        if kind.is_file() {
            return None;
        }
        if kind.is_symlink() {
            return Some("a symbolic link");
        }
        if kind.is_dir() {
            return Some("a folder");
        }
        Some("not a file")
    }
}

/// What is at a name in a folder, a link not followed.
enum Entry {
    Absent,
    Regular,
    /// Something else, in words (`a symbolic link`, `a FIFO`, …).
    Other(&'static str),
}

/// How a file is opened: every open of the module is one of these.
#[derive(Clone, Copy)]
enum Open {
    /// For reading.
    Read,
    /// For reading and writing in place, made if absent, not truncated (a lock file).
    ReadWrite,
    /// To append to, not made.
    Append,
    /// Made new (`O_CREAT|O_EXCL`), mode 0644 whatever the umask's group bits.
    New,
}

/// Which error an I/O failure is: reading or writing the path.
type Failure = fn(PathBuf, io::Error) -> FileError;

fn read_error(path: PathBuf, source: io::Error) -> FileError {
    FileError::Read { path, source }
}

fn write_error(path: PathBuf, source: io::Error) -> FileError {
    FileError::Write { path, source }
}

/// The walk's stop as the module's error for `path`.
fn stopped(path: &Path, err: Failure) -> impl FnOnce(Stop) -> FileError + '_ {
    move |stop| match stop {
        Stop::Io(e) => err(path.to_path_buf(), e),
        Stop::Refused(e) => e,
    }
}

/// A file's folder, held (walked as [`Folder::walk`] walks), and its name in it. A path
/// without a file name (`/`, `..`) names a folder.
fn parent(path: &Path, err: Failure) -> Result<(Folder, &OsStr), FileError> {
    let Some(name) = path.file_name() else {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: "a folder",
        });
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    let folder = Folder::walk(dir, Make::Nothing).map_err(stopped(path, err))?;
    Ok((folder, name))
}

/// `Ok(false)` if `name` is absent from `folder`, `Ok(true)` if it is a regular file, else
/// why not; its own type, a link not followed.
fn regular_or_absent(
    folder: &Folder,
    name: &OsStr,
    path: &Path,
    err: Failure,
) -> Result<bool, FileError> {
    match folder.entry(name) {
        Ok(Entry::Absent) => Ok(false),
        Ok(Entry::Regular) => Ok(true),
        Ok(Entry::Other(kind)) => Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        }),
        Err(e) => Err(err(path.to_path_buf(), e)),
    }
}

/// Opens `name` in `folder` as `how` says, never following a link at it and never blocking
/// (a FIFO swapped in after the type check must not hang the open), then checks the open
/// file is regular. A link met at open time is refused by name, as the check before would.
fn open_checked(
    folder: &Folder,
    name: &OsStr,
    how: Open,
    path: &Path,
    err: Failure,
) -> Result<File, FileError> {
    let file = folder.open(name, how).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
            return FileError::NotRegular {
                path: path.to_path_buf(),
                kind: "a symbolic link",
            };
        }
        err(path.to_path_buf(), e)
    })?;
    let meta = file.metadata().map_err(|e| err(path.to_path_buf(), e))?;
    if let Some(kind) = irregular_kind(&meta) {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        });
    }
    Ok(file)
}

/// Opens `path` for reading if it is a regular file: anything else (a link, a FIFO, a
/// device, a folder) is refused by type before it is opened, so nothing blocks.
pub fn open_regular(path: &Path) -> Result<File, FileError> {
    let (folder, name) = parent(path, read_error)?;
    if !regular_or_absent(&folder, name, path, read_error)? {
        return Err(read_error(
            path.to_path_buf(),
            io::ErrorKind::NotFound.into(),
        ));
    }
    open_checked(&folder, name, Open::Read, path, read_error)
}

/// Opens `path` for reading and writing in place (a lock file), made if absent, never
/// truncated here; anything there that is not a regular file is refused by type first.
pub fn open_or_create(path: &Path) -> Result<File, FileError> {
    let (folder, name) = parent(path, write_error)?;
    regular_or_absent(&folder, name, path, write_error)?;
    open_checked(&folder, name, Open::ReadWrite, path, write_error)
}

/// Opens the regular file `path` to append to it (a report's steps after a resume), as
/// `OpenOptions::new().append(true)` would, but never through a link and never onto a FIFO
/// or a device: refused by type before it is opened. Nothing is made: absent is an error.
pub fn open_append(path: &Path) -> Result<File, FileError> {
    let (folder, name) = parent(path, write_error)?;
    if !regular_or_absent(&folder, name, path, write_error)? {
        return Err(write_error(
            path.to_path_buf(),
            io::ErrorKind::NotFound.into(),
        ));
    }
    open_checked(&folder, name, Open::Append, path, write_error)
}

/// Makes the folder `path` and its missing parents, as `std::fs::create_dir_all` does, each
/// made in its parent held (`mkdirat`) and entered without following a link; a folder
/// already there is fine. Something else at `path` or on the way (a file, a dangling link, a
/// FIFO, another user's link) is refused by name. A link of this user's (the `--out DIR` they
/// name) leads to its target, where nothing missing is made.
pub fn create_dir_all(path: &Path) -> Result<(), FileError> {
    Folder::walk(path, Make::Missing)
        .map(drop)
        .map_err(stopped(path, write_error))
}

/// Makes the new folder `path`, its parent already there: refused if anything is at its
/// name, a link included (`mkdir` never follows one), so a folder of a guessable name in a
/// shared place (`/tmp/NAME-PID`) is this process's own or an error.
pub fn create_dir(path: &Path) -> Result<(), FileError> {
    let Some(name) = path.file_name() else {
        return Err(write_error(
            path.to_path_buf(),
            io::ErrorKind::AlreadyExists.into(),
        ));
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    let folder = Folder::walk(dir, Make::Nothing).map_err(stopped(path, write_error))?;
    folder
        .make(name)
        .map_err(|e| write_error(path.to_path_buf(), e))
}

/// `Ok` if [`write_file`] may replace `path`: a regular file there, or nothing. A file
/// written later by another process (the virtual board's coverage) is checked with this
/// before that process is started, so the run is refused at once, by name, not at its end.
pub fn replaceable(path: &Path) -> Result<(), FileError> {
    let (folder, name) = parent(path, write_error)?;
    regular_or_absent(&folder, name, path, write_error).map(drop)
}

/// How many temporary names [`write_file_with`] tries before it gives up: a name is taken
/// only by a stale temporary file of an earlier process with this pid, or by a file planted
/// to be in the way.
const TEMP_NAMES: u32 = 64;

/// Writes `bytes` to `path` whole or not at all; see [`write_file_with`].
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_file_with(path, |w| w.write_all(bytes))
}

/// Writes the file `write` makes to `path` whole or not at all: into `.NAME.tmp-PID` in
/// `path`'s folder, created new and never through a link (`O_CREAT|O_EXCL|O_NOFOLLOW`),
/// synced, then renamed onto `path`, which must be a regular file or absent (a link, FIFO,
/// device or folder there is refused by name). A process killed mid-write leaves only the
/// temporary file, and the folder is synced so the rename survives a crash. The folder is
/// held from the first check to the rename, so a folder swapped meanwhile is not written.
pub fn write_file_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    let made = Temporary::beside(path)?;
    let written = (|| {
        let mut out = BufWriter::new(&made.file);
        write(&mut out)?;
        out.into_inner().map_err(io::IntoInnerError::into_error)?;
        made.file.sync_all()
    })()
    .map_err(|e| write_error(path.to_path_buf(), e))
    .and_then(|()| made.rename_onto(path));
    if let Err(e) = written {
        made.remove();
        return Err(e);
    }
    made.folder.sync();
    Ok(())
}

/// A file written as it goes (a CSV whose rows arrive during a long run, kept if the run is
/// stopped): made new under a temporary name beside `path` as [`write_file_with`] makes it,
/// then at once renamed onto `path` (a regular file or nothing), and returned for writing.
/// No link at `path` is followed and no file of someone else's is truncated in place; what
/// is written after is the caller's to sync.
pub fn create_file(path: &Path) -> Result<File, FileError> {
    let made = Temporary::beside(path)?;
    if let Err(e) = made.rename_onto(path) {
        made.remove();
        return Err(e);
    }
    made.folder.sync();
    Ok(made.file)
}

/// A new file `.NAME.tmp-PID[-N]` in a destination's folder, held.
struct Temporary<'a> {
    folder: Folder,
    /// The destination's name in the folder.
    name: &'a OsStr,
    /// The temporary's.
    tmp: OsString,
    file: File,
}

impl<'a> Temporary<'a> {
    /// Made new (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0644) after checking `path` is a regular
    /// file or absent.
    fn beside(path: &'a Path) -> Result<Self, FileError> {
        let (folder, name) = match parent(path, write_error) {
            Err(FileError::NotRegular { .. }) => {
                return Err(write_error(
                    path.to_path_buf(),
                    io::Error::new(io::ErrorKind::InvalidInput, "no file name"),
                ));
            }
            parent => parent?,
        };
        regular_or_absent(&folder, name, path, write_error)?;
        let pid = std::process::id();
        let dir = path.parent().unwrap_or(Path::new(""));
        for n in 0..TEMP_NAMES {
            let mut tmp = OsString::from(".");
            tmp.push(name);
            tmp.push(match n {
                0 => format!(".tmp-{pid}"),
                _ => format!(".tmp-{pid}-{n}"),
            });
            // Not group-writable even under a umask of 002: read back, it must pass `untrusted`.
            match open_checked(&folder, &tmp, Open::New, &dir.join(&tmp), write_error) {
                Ok(file) => {
                    return Ok(Temporary {
                        folder,
                        name,
                        tmp,
                        file,
                    });
                }
                Err(FileError::Write { source, .. })
                    if source.kind() == io::ErrorKind::AlreadyExists => {}
                // A link in the way is not followed (ELOOP): take another name.
                Err(FileError::NotRegular { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Err(write_error(
            path.to_path_buf(),
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{TEMP_NAMES} temporary names beside it are all taken"),
            ),
        ))
    }

    /// Renames the temporary onto the destination, checked again (its type may have changed
    /// while the file was written), in the folder held.
    fn rename_onto(&self, path: &Path) -> Result<(), FileError> {
        regular_or_absent(&self.folder, self.name, path, write_error)?;
        self.folder
            .rename(&self.tmp, self.name)
            .map_err(|e| write_error(path.to_path_buf(), e))
    }

    fn remove(&self) {
        let _ = self.folder.remove(&self.tmp);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_file_is_written_and_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        write_file(&path, b"one").unwrap();
        write_file_with(&path, |w| w.write_all(b"two")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "a temporary file stayed: {names:?}");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        write_file(&path, b"old").unwrap();
        let e = write_file_with(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(
            e.to_string() == format!("writing {}", path.display()),
            "{e}"
        );
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn only_a_regular_file_or_nothing_is_replaceable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("coverage.txt");
        replaceable(&path).unwrap();
        fs::write(&path, b"").unwrap();
        replaceable(&path).unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(matches!(
            replaceable(&link),
            Err(FileError::NotRegular {
                kind: "a symbolic link",
                ..
            })
        ));
    }

    #[test]
    fn a_folder_in_the_way_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        fs::create_dir(&path).unwrap();
        let e = write_file(&path, b"x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a folder, not a regular file: refused (remove it)",
                path.display()
            )
        );
        let e = open_regular(&path).unwrap_err();
        assert!(matches!(
            e,
            FileError::NotRegular {
                kind: "a folder",
                ..
            }
        ));
    }

    #[test]
    fn an_append_goes_to_the_end_of_a_regular_file_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("steps.jsonl");
        let e = open_append(&path).unwrap_err();
        assert!(matches!(e, FileError::Write { .. }), "{e}");
        fs::write(&path, b"one\n").unwrap();
        open_append(&path).unwrap().write_all(b"two\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one\ntwo\n");
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let e = open_append(&link).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a symbolic link, not a regular file: refused (remove it)",
                link.display()
            )
        );
        assert_eq!(fs::read(&path).unwrap(), b"one\ntwo\n");
    }

    #[test]
    fn a_folder_is_made_with_its_parents_and_a_file_in_the_way_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a").join("b");
        create_dir_all(&deep).unwrap();
        create_dir_all(&deep).unwrap();
        assert!(fs::symlink_metadata(&deep).unwrap().is_dir());
        let file = dir.path().join("file");
        fs::write(&file, b"").unwrap();
        let e = create_dir_all(&file).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a regular file, not a folder: refused",
                file.display()
            )
        );
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(matches!(
            create_dir_all(&dangling),
            Err(FileError::NotAFolder {
                kind: "a symbolic link",
                ..
            })
        ));
        assert!(!dir.path().join("nowhere").exists());
        let e = create_dir(&dangling).unwrap_err();
        assert!(
            matches!(&e, FileError::Write { source, .. } if source.kind() == io::ErrorKind::AlreadyExists),
            "{e:?}"
        );
        create_dir(&dir.path().join("new")).unwrap();
        assert!(create_dir(&dir.path().join("new")).is_err());
    }

    /// A user other than root and this one, to own a planted link: `nobody`.
    const OTHER: u32 = 65534;

    /// The link `link -> target`, owned by [`OTHER`]; `None` (the test skipped) unless this
    /// process is root, the one user who can give a link away.
    fn foreign_link(target: &Path, link: &Path) -> Option<()> {
        if me() != 0 {
            needs::skip_condition(
                "root",
                "a link owned by another user is made by root only (lchown)",
            );
            return None;
        }
        std::os::unix::fs::symlink(target, link).unwrap();
        std::os::unix::fs::lchown(link, Some(OTHER), Some(OTHER)).unwrap();
        Some(())
    }

    /// A victim's folder holding `plot.svg`, to check nothing reached it.
    fn victim(dir: &Path) -> PathBuf {
        let site = dir.join("site");
        fs::create_dir(&site).unwrap();
        fs::write(site.join("plot.svg"), b"the victim's").unwrap();
        site
    }

    fn untouched(site: &Path) {
        let names: Vec<_> = fs::read_dir(site)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            names,
            ["plot.svg"],
            "something was made in {}",
            site.display()
        );
        assert_eq!(fs::read(site.join("plot.svg")).unwrap(), b"the victim's");
    }

    #[test]
    fn an_own_link_on_the_way_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        // The user's own `--out` link, and a link of theirs inside it.
        let out = dir.path().join("out");
        std::os::unix::fs::symlink(&real, &out).unwrap();
        create_dir_all(&out.join("board-3")).unwrap();
        std::os::unix::fs::symlink("board-3", real.join("latest")).unwrap();
        write_file(&out.join("latest").join("plot.svg"), b"plot").unwrap();
        assert_eq!(fs::read(real.join("board-3/plot.svg")).unwrap(), b"plot");
        let mut text = String::new();
        io::Read::read_to_string(
            &mut open_regular(&out.join("board-3/plot.svg")).unwrap(),
            &mut text,
        )
        .unwrap();
        assert_eq!(text, "plot");
    }

    #[test]
    fn a_parent_component_after_a_link_is_the_kernels() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("real/sub")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real/sub"), dir.path().join("l")).unwrap();
        // `l/..` is `real`, the parent of where `l` leads, not `dir`.
        let path = dir.path().join("l/../x.txt");
        write_file(&path, b"x").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"x");
        assert!(dir.path().join("real/x.txt").is_file());
        assert!(!dir.path().join("x.txt").exists());
    }

    #[test]
    fn another_users_link_on_the_way_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let site = victim(dir.path());
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        let board = out.join("board-3");
        let Some(()) = foreign_link(&site, &board) else {
            return;
        };
        let plot = board.join("plot.svg");
        let e = write_file(&plot, b"overwritten").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a symbolic link of another user (uid 65534), not followed: refused",
                board.display()
            )
        );
        let refused = |e: FileError| matches!(e, FileError::ForeignLink { uid: OTHER, .. });
        assert!(refused(create_file(&plot).unwrap_err()));
        assert!(refused(open_regular(&plot).unwrap_err()));
        assert!(refused(open_append(&plot).unwrap_err()));
        assert!(refused(
            open_or_create(&board.join("new.lock")).unwrap_err()
        ));
        assert!(refused(replaceable(&plot).unwrap_err()));
        assert!(refused(create_dir(&board.join("new")).unwrap_err()));
        untouched(&site);
    }

    #[test]
    fn a_folder_swapped_for_another_users_link_after_a_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let site = victim(dir.path());
        let board = dir.path().join("out/board-3");
        create_dir_all(&board).unwrap();
        let plot = board.join("plot.svg");
        write_file(&plot, b"first").unwrap();
        fs::rename(&board, dir.path().join("out/board-3.old")).unwrap();
        let Some(()) = foreign_link(&site, &board) else {
            return;
        };
        assert!(matches!(
            write_file(&plot, b"second"),
            Err(FileError::ForeignLink { uid: OTHER, .. })
        ));
        untouched(&site);
    }

    #[test]
    fn a_folder_swapped_between_the_check_and_the_rename_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let site = victim(dir.path());
        let board = dir.path().join("out/board-3");
        create_dir_all(&board).unwrap();
        let plot = board.join("plot.svg");
        // Checked and the temporary made; then the folder swapped for a link (any owner's)
        // before the rename, as a racing user would.
        let made = Temporary::beside(&plot).unwrap();
        fs::rename(&board, dir.path().join("out/board-3.old")).unwrap();
        std::os::unix::fs::symlink(&site, &board).unwrap();
        (&made.file).write_all(b"plot").unwrap();
        made.rename_onto(&plot).unwrap();
        untouched(&site);
        assert_eq!(
            fs::read(dir.path().join("out/board-3.old/plot.svg")).unwrap(),
            b"plot"
        );
    }

    #[test]
    fn folders_are_not_made_through_another_users_link() {
        let dir = tempfile::tempdir().unwrap();
        let site = victim(dir.path());
        let link = dir.path().join("out");
        let Some(()) = foreign_link(&site, &link) else {
            return;
        };
        let e = create_dir_all(&link.join("board-3/steps")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is a symbolic link of another user (uid 65534), not followed: refused",
                link.display()
            )
        );
        assert!(matches!(
            create_dir_all(&link),
            Err(FileError::ForeignLink { uid: OTHER, .. })
        ));
        untouched(&site);
    }

    #[test]
    fn a_loop_of_links_is_named_not_followed_forever() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        let e = write_file(&dir.path().join("a/plot.svg"), b"x").unwrap_err();
        let message = format!(
            "{}: more than 40 symbolic links on the way (a loop?): refused",
            dir.path().join("a").display()
        );
        assert_eq!(e.to_string(), message);
        let e = create_dir_all(&dir.path().join("a/board-3")).unwrap_err();
        assert_eq!(e.to_string(), message);
        assert!(matches!(
            open_regular(&dir.path().join("b/plot.svg")),
            Err(FileError::TooManyLinks { .. })
        ));
    }
}
