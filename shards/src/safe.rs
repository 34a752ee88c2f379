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
//! It is the workspace's one writer: `clippy.toml` forbids `std::fs::write`, `File::create`,
//! `OpenOptions::open`, `fs::copy`, `create_dir`, `create_dir_all` and `DirBuilder::create`
//! everywhere else (`disallowed_methods`; CI's clippy runs with `-D warnings`), and the few sites that must open a file themselves (a
//! shared memory window, a private folder of mode 0700, a build script's `OUT_DIR`) say why in
//! an `#[allow]` of their own.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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
    /// Something other than a folder where one is made (a file, a dangling link).
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
}

/// The user this process runs as: `/proc/self` is theirs (std has no getuid, and the
/// workspace has no `unsafe`); `u32::MAX`, no one's, where there is no `/proc`.
#[cfg(unix)]
pub fn me() -> u32 {
    use std::os::unix::fs::MetadataExt;
    fs::metadata("/proc/self").map_or(u32::MAX, |m| m.uid())
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
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
        if kind.is_char_device() {
            return Some("a character device");
        }
    }
    Some("not a file")
}

/// `Err` unless `meta` is a regular file's.
fn regular(path: &Path, meta: &Metadata) -> Result<(), FileError> {
    match irregular_kind(meta) {
        None => Ok(()),
        Some(kind) => Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        }),
    }
}

/// `Ok(false)` if `path` is absent, `Ok(true)` if it is a regular file, else why not; the
/// path's own type, a link not followed.
fn regular_or_absent(
    path: &Path,
    err: fn(PathBuf, io::Error) -> FileError,
) -> Result<bool, FileError> {
    match fs::symlink_metadata(path) {
        Ok(meta) => regular(path, &meta).map(|()| true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(err(path.to_path_buf(), e)),
    }
}

fn read_error(path: PathBuf, source: io::Error) -> FileError {
    FileError::Read { path, source }
}

fn write_error(path: PathBuf, source: io::Error) -> FileError {
    FileError::Write { path, source }
}

/// Opens with `options` (the one `OpenOptions::open` of the workspace's writers), never following a link at the last component and never blocking
/// (a FIFO swapped in after the type check must not hang the open), then checks the open
/// file is regular. A link met at open time is refused by name, as the check before would.
fn open_checked(
    path: &Path,
    options: &mut OpenOptions,
    err: fn(PathBuf, io::Error) -> FileError,
) -> Result<File, FileError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[allow(clippy::disallowed_methods)] // the one writer's own open
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return FileError::NotRegular {
                path: path.to_path_buf(),
                kind: "a symbolic link",
            };
        }
        err(path.to_path_buf(), e)
    })?;
    let meta = file.metadata().map_err(|e| err(path.to_path_buf(), e))?;
    regular(path, &meta)?;
    Ok(file)
}

/// Opens `path` for reading if it is a regular file: anything else (a link, a FIFO, a
/// device, a folder) is refused by type before it is opened, so nothing blocks.
pub fn open_regular(path: &Path) -> Result<File, FileError> {
    let meta = fs::symlink_metadata(path).map_err(|e| read_error(path.to_path_buf(), e))?;
    regular(path, &meta)?;
    open_checked(path, OpenOptions::new().read(true), read_error)
}

/// Opens `path` for reading and writing in place (a lock file), made if absent, never
/// truncated here; anything there that is not a regular file is refused by type first.
pub fn open_or_create(path: &Path) -> Result<File, FileError> {
    regular_or_absent(path, write_error)?;
    open_checked(
        path,
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
        write_error,
    )
}

/// Opens the regular file `path` to append to it (a report's steps after a resume), as
/// `OpenOptions::new().append(true)` would, but never through a link and never onto a FIFO
/// or a device: refused by type before it is opened. Nothing is made: absent is an error.
pub fn open_append(path: &Path) -> Result<File, FileError> {
    let meta = fs::symlink_metadata(path).map_err(|e| write_error(path.to_path_buf(), e))?;
    regular(path, &meta)?;
    open_checked(path, OpenOptions::new().append(true), write_error)
}

/// Makes the folder `path` and its missing parents, as `std::fs::create_dir_all` does; a
/// folder already there is fine. Something else at `path` (a file, a dangling link, a FIFO)
/// is refused by name. The folder's own path is the caller's (`--out DIR`): a link the user
/// names as the folder leads to it, as any path they give does; what is written inside goes
/// through this module's writers, which follow no link.
pub fn create_dir_all(path: &Path) -> Result<(), FileError> {
    #[allow(clippy::disallowed_methods)] // the one writer's own folder maker
    let made = fs::create_dir_all(path);
    made.map_err(|e| match fs::symlink_metadata(path) {
        Ok(meta) if !fs::metadata(path).is_ok_and(|m| m.is_dir()) => FileError::NotAFolder {
            path: path.to_path_buf(),
            kind: irregular_kind(&meta).unwrap_or("a regular file"),
        },
        _ => write_error(path.to_path_buf(), e),
    })
}

/// Makes the new folder `path`, its parent already there: refused if anything is at its
/// name, a link included (`mkdir` never follows one), so a folder of a guessable name in a
/// shared place (`/tmp/NAME-PID`) is this process's own or an error.
pub fn create_dir(path: &Path) -> Result<(), FileError> {
    #[allow(clippy::disallowed_methods)] // the one writer's own folder maker
    let made = fs::create_dir(path);
    made.map_err(|e| write_error(path.to_path_buf(), e))
}

/// `Ok` if [`write_file`] may replace `path`: a regular file there, or nothing. A file
/// written later by another process (the virtual board's coverage) is checked with this
/// before that process is started, so the run is refused at once, by name, not at its end.
pub fn replaceable(path: &Path) -> Result<(), FileError> {
    regular_or_absent(path, write_error).map(drop)
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
/// temporary file, and the folder is synced so the rename survives a crash.
pub fn write_file_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    let (dir, tmp, file) = temporary_beside(path)?;
    let written = (|| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()
    })()
    .map_err(|e| write_error(path.to_path_buf(), e))
    // Checked again: the type may have changed while the file was written.
    .and_then(|()| regular_or_absent(path, write_error))
    .and_then(|_| fs::rename(&tmp, path).map_err(|e| write_error(path.to_path_buf(), e)));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_folder(dir);
    Ok(())
}

/// A file written as it goes (a CSV whose rows arrive during a long run, kept if the run is
/// stopped): made new under a temporary name beside `path` as [`write_file_with`] makes it,
/// then at once renamed onto `path` (a regular file or nothing), and returned for writing.
/// No link at `path` is followed and no file of someone else's is truncated in place; what
/// is written after is the caller's to sync.
pub fn create_file(path: &Path) -> Result<File, FileError> {
    let (dir, tmp, file) = temporary_beside(path)?;
    let renamed = regular_or_absent(path, write_error)
        .and_then(|_| fs::rename(&tmp, path).map_err(|e| write_error(path.to_path_buf(), e)));
    if let Err(e) = renamed {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_folder(dir);
    Ok(file)
}

/// The rename is durable once the folder is synced; a folder that cannot be opened for that
/// (some file systems) still holds the file.
fn sync_folder(dir: &Path) {
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
}

/// A new file `.NAME.tmp-PID[-N]` in `path`'s folder (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode
/// 0644), after checking `path` is a regular file or absent: the folder, its path, the file.
fn temporary_beside(path: &Path) -> Result<(&Path, PathBuf, File), FileError> {
    let Some(name) = path.file_name() else {
        return Err(write_error(
            path.to_path_buf(),
            io::Error::new(io::ErrorKind::InvalidInput, "no file name"),
        ));
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    regular_or_absent(path, write_error)?;
    let name = name.to_string_lossy();
    let pid = std::process::id();
    let mut made = None;
    for n in 0..TEMP_NAMES {
        let tmp = match n {
            0 => dir.join(format!(".{name}.tmp-{pid}")),
            _ => dir.join(format!(".{name}.tmp-{pid}-{n}")),
        };
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        // Not group-writable even under a umask of 002: read back, it must pass `untrusted`.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o644);
        match open_checked(&tmp, &mut options, write_error) {
            Ok(file) => {
                made = Some((tmp, file));
                break;
            }
            Err(FileError::Write { source, .. })
                if source.kind() == io::ErrorKind::AlreadyExists => {}
            // A link in the way is not followed (ELOOP): take another name.
            Err(FileError::NotRegular { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    let Some((tmp, file)) = made else {
        return Err(write_error(
            path.to_path_buf(),
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{TEMP_NAMES} temporary names beside it are all taken"),
            ),
        ));
    };
    Ok((dir, tmp, file))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

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
}
