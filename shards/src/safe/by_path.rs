//! A folder named by its path, where there are no `*at` calls to hold one by (not unix):
//! the same operations as `held`, each by path.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::{Entry, FileError, Make, Open, Stop};

/// A folder, by its path.
pub(super) struct Folder(PathBuf);

impl Folder {
    /// The folder `path` names, made with its parents if `make` says so.
    pub(super) fn walk(path: &Path, make: Make) -> Result<Folder, Stop> {
        if make == Make::Missing {
            #[allow(clippy::disallowed_methods)] // the one writer's own folder maker
            let made = fs::create_dir_all(path);
            made.map_err(|e| match fs::symlink_metadata(path) {
                Ok(meta) if !fs::metadata(path).is_ok_and(|m| m.is_dir()) => {
                    Stop::Refused(FileError::NotAFolder {
                        path: path.to_path_buf(),
                        kind: super::irregular_kind(&meta).unwrap_or("a regular file"),
                    })
                }
                _ => Stop::Io(e),
            })?;
        }
        let path = match path.as_os_str().is_empty() {
            true => PathBuf::from("."),
            false => path.to_path_buf(),
        };
        Ok(Folder(path))
    }

    /// What is at `name`, a link not followed.
    pub(super) fn entry(&self, name: &OsStr) -> io::Result<Entry> {
        match fs::symlink_metadata(self.0.join(name)) {
            Ok(meta) => Ok(match super::irregular_kind(&meta) {
                None => Entry::Regular,
                Some(kind) => Entry::Other(kind),
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Entry::Absent),
            Err(e) => Err(e),
        }
    }

    /// Opens `name` in this folder.
    pub(super) fn open(&self, name: &OsStr, how: Open) -> io::Result<File> {
        let mut options = OpenOptions::new();
        match how {
            Open::Read => options.read(true),
            Open::ReadWrite => options.read(true).write(true).create(true).truncate(false),
            Open::Append => options.append(true),
            Open::New => options.write(true).create_new(true),
        };
        #[allow(clippy::disallowed_methods)] // the one writer's own open
        let file = options.open(self.0.join(name));
        file
    }

    /// Renames `from` onto `to`, both in this folder.
    pub(super) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        fs::rename(self.0.join(from), self.0.join(to))
    }

    /// Removes the file `name`.
    pub(super) fn remove(&self, name: &OsStr) -> io::Result<()> {
        fs::remove_file(self.0.join(name))
    }

    /// Makes the new folder `name`.
    pub(super) fn make(&self, name: &OsStr) -> io::Result<()> {
        #[allow(clippy::disallowed_methods)] // the one writer's own folder maker
        let made = fs::create_dir(self.0.join(name));
        made
    }

    /// Syncs the folder where it can be opened for that.
    pub(super) fn sync(&self) {
        if let Ok(folder) = File::open(&self.0) {
            let _ = folder.sync_all();
        }
    }
}
