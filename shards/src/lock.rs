//! Who may write a folder: a lock that one-process runs, merges and the tasks of a job
//! array all respect, so two runs writing one folder at once are refused.
//!
//! Two lock files in the folder, locked with the operating system's advisory file locks
//! (`File::try_lock`, `flock(2)` on Unix; NFS v4 carries them across a cluster's nodes):
//!
//! - `.shards.lock`, the folder's lock: a run of the whole job (the one-process run, a merge,
//!   a submission) holds it **exclusively**; a shard task holds it **shared**, so the tasks of
//!   one array run side by side while nothing whole runs beside them;
//! - `.NAME.K-of-P.lock`, one per shard, held exclusively by the task running it: a second
//!   task of the same shard (a second array over the same folder) is refused.
//!
//! The holder writes its process id, host and command into the file it holds alone, so the
//! refused run names it. A lock file is opened only if it is a regular file, never through a
//! link ([`crate::safe::open_or_create`]): a `.shards.lock -> ~/victim` planted by another user
//! of the folder is refused by name, not truncated and signed.
//!
//! A lock held alone is removed when released, if its path still names the file locked: a
//! run leaves no lock file behind. A shared holder cannot know it is the last, so the tasks of
//! an array leave `.shards.lock`, and the merge after them removes it. Removing a lock file
//! would let two processes hold "the" lock (one on the removed file, one on a new one), were it
//! not that every taker checks, once locked, that the path still names the file it locked, and
//! opens again if not. A lock dies with its process, so a killed task never leaves the folder
//! locked (only its file).

use std::fs::{File, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::safe::{FileError, open_or_create, open_regular};
use crate::{Job, ShardId};

/// The folder lock's file name.
pub const FOLDER_LOCK: &str = ".shards.lock";

/// Held locks; dropping it releases them (the shard's first), removing the files held alone.
#[derive(Debug)]
pub struct Lock {
    _shard: Option<Held>,
    _folder: Held,
}

/// One lock file, locked.
#[derive(Debug)]
pub(crate) struct Held {
    file: File,
    path: PathBuf,
    alone: bool,
}

impl Drop for Held {
    /// Removes the file while still holding it alone, and only the file locked: the path may
    /// name another file by now (someone moved ours away), which is not ours to remove.
    fn drop(&mut self) {
        if self.alone && same_file(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` names the open `file` (same device and inode, the path's link not
/// followed). Elsewhere than Unix, never: nothing is removed there.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        false
    }
}

/// Why a folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another run holds it.
    #[error("{} is in use by {holder}; wait for it to end, or use another folder", .dir.display())]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// Who holds it (process id, host, command), as far as known.
        holder: String,
    },
    /// The lock file is not a regular file (a link, a FIFO), or could not be opened.
    #[error(transparent)]
    File(#[from] FileError),
    /// The lock file could not be locked or signed.
    #[error("locking {}", .path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// How often a taker opens a lock file again when the one it locked was removed meanwhile
/// by its last holder: more than once only if runs keep ending as this one starts.
const ATTEMPTS: u32 = 16;

/// Locks the file at `path`, alone or shared: `Ok(None)` if another holds it so.
pub(crate) fn acquire(path: &Path, alone: bool) -> Result<Option<Held>, LockError> {
    // A lock taken is shared with any child forked meanwhile (by any thread: a test binary
    // starting a program) until that child execs and its copy closes: a few milliseconds in
    // which this process's own lock reads as another run's. Busy is said only after that.
    for wait in 0..=BUSY_WAITS {
        match acquire_once(path, alone)? {
            Some(held) => return Ok(Some(held)),
            None if wait < BUSY_WAITS => std::thread::sleep(BUSY_WAIT),
            None => {}
        }
    }
    Ok(None)
}

/// How often a busy lock is tried again, and how long apart: 200 ms in all.
const BUSY_WAITS: u32 = 20;
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(10);

/// One try: the lock, or `None` if someone holds it.
fn acquire_once(path: &Path, alone: bool) -> Result<Option<Held>, LockError> {
    for _ in 0..ATTEMPTS {
        let file = open_or_create(path)?;
        let locked = if alone {
            file.try_lock()
        } else {
            file.try_lock_shared()
        };
        match locked {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(None),
            Err(TryLockError::Error(source)) => {
                return Err(LockError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
        // Locked: but the file may have been removed by its holder between our open and our
        // lock, and a lock on a removed file locks nothing. Then open again.
        if cfg!(not(unix)) || same_file(&file, path) {
            return Ok(Some(Held {
                file,
                path: path.to_path_buf(),
                alone,
            }));
        }
    }
    Err(LockError::Io {
        path: path.to_path_buf(),
        source: io::Error::other("the lock file kept being removed while it was taken"),
    })
}

/// `pid N on HOST: WHAT`, what a holder writes into its lock file.
fn holder_text(what: &str) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "this host".into());
    format!("pid {} on {host}: {what}", std::process::id())
}

/// Writes the holder's text into a lock file it holds alone.
fn sign(held: &mut Held, what: &str) -> Result<(), LockError> {
    let text = holder_text(what);
    let file = &mut held.file;
    (|| {
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(text.as_bytes())?;
        file.flush()
    })()
    .map_err(|source| LockError::Io {
        path: held.path.clone(),
        source,
    })
}

/// What a lock file's holder wrote, or a plain word when it wrote nothing.
fn read_holder(path: &Path) -> Option<String> {
    let mut text = String::new();
    open_regular(path)
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.chars().take(300).collect())
}

/// The holders of the shard locks in `dir` that are held now (the tasks of a running array),
/// and in its subfolders one level down (a job whose shards live there: [`lock_shard_in`]).
fn shard_holders(dir: &Path) -> Vec<String> {
    let mut held = Vec::new();
    holders_in(dir, &mut held);
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            // A folder, never a link to one: the lock files of another tree are not ours.
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                holders_in(&entry.path(), &mut held);
            }
        }
    }
    held.sort();
    held
}

/// The holders of the shard locks held now in `dir` itself, added to `held`.
fn holders_in(dir: &Path, held: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with('.') && name.ends_with(".lock") && name != FOLDER_LOCK) {
            continue;
        }
        let Ok(file) = open_regular(&entry.path()) else {
            continue;
        };
        if let Err(TryLockError::WouldBlock) = file.try_lock_shared() {
            held.push(read_holder(&entry.path()).unwrap_or_else(|| name.clone()));
        }
    }
}

fn busy(dir: &Path, holders: Vec<String>) -> LockError {
    let holder = match holders.len() {
        0 => "another run".to_string(),
        1 => holders.into_iter().next().expect("one"),
        n => format!(
            "{n} shard tasks ({} …)",
            holders.into_iter().next().expect("some")
        ),
    };
    LockError::Busy {
        dir: dir.to_path_buf(),
        holder,
    }
}

/// Locks `dir` for a run of a whole job (`what` says which, for whoever is refused).
pub fn lock_folder(dir: &Path, what: &str) -> Result<Lock, LockError> {
    let path = dir.join(FOLDER_LOCK);
    let Some(mut folder) = acquire(&path, true)? else {
        let holders = shard_holders(dir);
        let holders = if holders.is_empty() {
            read_holder(&path).into_iter().collect()
        } else {
            holders
        };
        return Err(busy(dir, holders));
    };
    sign(&mut folder, what)?;
    Ok(Lock {
        _shard: None,
        _folder: folder,
    })
}

/// Locks `dir` for running shard `id` of `job`: the folder shared with the other tasks, the
/// shard alone.
pub fn lock_shard(dir: &Path, job: &Job, id: ShardId, what: &str) -> Result<Lock, LockError> {
    lock_shard_in(dir, dir, job, id, what)
}

/// [`lock_shard`] for a job whose shards live in a subfolder `dir` of the folder `folder`
/// (a ply of the quantisation study's walk, `DIR/ply-KK`): `folder`'s lock shared, so a
/// run of the whole folder is refused while the shard runs, and the shard's lock in `dir`
/// alone, where [`shard_running`] and a status look for it.
pub fn lock_shard_in(
    folder: &Path,
    dir: &Path,
    job: &Job,
    id: ShardId,
    what: &str,
) -> Result<Lock, LockError> {
    let folder_path = folder.join(FOLDER_LOCK);
    let Some(shared) = acquire(&folder_path, false)? else {
        return Err(busy(
            folder,
            read_holder(&folder_path).into_iter().collect(),
        ));
    };
    let path = shard_lock_path(dir, job, id);
    let Some(mut shard) = acquire(&path, true)? else {
        return Err(busy(dir, read_holder(&path).into_iter().collect()));
    };
    sign(&mut shard, what)?;
    Ok(Lock {
        _shard: Some(shard),
        _folder: shared,
    })
}

/// Locks `dir` for one submission of job `name` to Slurm (two at once would both submit the
/// same shards): an exclusive lock of its own, `DIR/.NAME.slurm.lock`, apart from the
/// folder's, which the running tasks share.
pub fn lock_submission(dir: &Path, name: &str) -> Result<Lock, LockError> {
    let path = dir.join(format!(".{name}.slurm.lock"));
    let held = acquire(&path, true)?.ok_or_else(|| LockError::Busy {
        dir: dir.to_path_buf(),
        holder: "another --slurm submission".into(),
    })?;
    Ok(Lock {
        _shard: None,
        _folder: held,
    })
}

/// `DIR/.NAME.K-of-P.lock`.
fn shard_lock_path(dir: &Path, job: &Job, id: ShardId) -> PathBuf {
    dir.join(format!(".{}.{}-of-{}.lock", job.name, id.index, id.count))
}

/// Whether shard `id` of `job` is being run now in `dir` (its lock is held).
pub fn shard_running(dir: &Path, job: &Job, id: ShardId) -> bool {
    match open_regular(&shard_lock_path(dir, job, id)) {
        Ok(file) => matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock)),
        Err(_) => false,
    }
}
