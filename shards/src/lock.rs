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
//! refused run names it. The files stay after the run (removing a lock file while another
//! process waits on it would let two hold "the" lock); a lock dies with its process, so a
//! killed task never leaves the folder locked.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::{Job, ShardId};

/// The folder lock's file name.
pub const FOLDER_LOCK: &str = ".shards.lock";

/// Held locks; dropping it releases them.
#[derive(Debug)]
pub struct Lock {
    _folder: File,
    _shard: Option<File>,
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
    /// The lock file could not be opened or locked.
    #[error("locking {}", .path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// `pid N on HOST: WHAT`, what a holder writes into its lock file.
fn holder_text(what: &str) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "this host".into());
    format!("pid {} on {host}: {what}", std::process::id())
}

fn open(path: &Path) -> Result<File, LockError> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|source| LockError::Io {
            path: path.to_path_buf(),
            source,
        })
}

/// Writes the holder's text into a lock file it holds alone.
fn sign(file: &mut File, path: &Path, what: &str) -> Result<(), LockError> {
    let text = holder_text(what);
    (|| {
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(text.as_bytes())?;
        file.flush()
    })()
    .map_err(|source| LockError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// What a lock file's holder wrote, or a plain word when it wrote nothing.
fn read_holder(path: &Path) -> Option<String> {
    let mut text = String::new();
    File::open(path).ok()?.read_to_string(&mut text).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.chars().take(300).collect())
}

/// The holders of the shard locks in `dir` that are held now (the tasks of a running array).
fn shard_holders(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut held = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with('.') && name.ends_with(".lock") && name != FOLDER_LOCK) {
            continue;
        }
        let Ok(file) = File::open(entry.path()) else {
            continue;
        };
        if let Err(TryLockError::WouldBlock) = file.try_lock_shared() {
            held.push(read_holder(&entry.path()).unwrap_or_else(|| name.clone()));
        }
    }
    held.sort();
    held
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
    let mut file = open(&path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let holders = shard_holders(dir);
            let holders = if holders.is_empty() {
                read_holder(&path).into_iter().collect()
            } else {
                holders
            };
            return Err(busy(dir, holders));
        }
        Err(TryLockError::Error(source)) => return Err(LockError::Io { path, source }),
    }
    sign(&mut file, &path, what)?;
    Ok(Lock {
        _folder: file,
        _shard: None,
    })
}

/// Locks `dir` for running shard `id` of `job`: the folder shared with the other tasks, the
/// shard alone.
pub fn lock_shard(dir: &Path, job: &Job, id: ShardId, what: &str) -> Result<Lock, LockError> {
    let folder_path = dir.join(FOLDER_LOCK);
    let folder = open(&folder_path)?;
    match folder.try_lock_shared() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(busy(dir, read_holder(&folder_path).into_iter().collect()));
        }
        Err(TryLockError::Error(source)) => {
            return Err(LockError::Io {
                path: folder_path,
                source,
            });
        }
    }
    let path = dir.join(format!(".{}.{}-of-{}.lock", job.name, id.index, id.count));
    let mut file = open(&path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(busy(dir, read_holder(&path).into_iter().collect()));
        }
        Err(TryLockError::Error(source)) => return Err(LockError::Io { path, source }),
    }
    sign(&mut file, &path, what)?;
    Ok(Lock {
        _folder: folder,
        _shard: Some(file),
    })
}

/// Whether shard `id` of `job` is being run now in `dir` (its lock is held).
pub fn shard_running(dir: &Path, job: &Job, id: ShardId) -> bool {
    let path = dir.join(format!(".{}.{}-of-{}.lock", job.name, id.index, id.count));
    match File::open(&path) {
        Ok(file) => matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock)),
        Err(_) => false,
    }
}
