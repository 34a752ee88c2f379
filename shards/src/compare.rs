//! A merged report folder against the reference run's, both ways: every report file of the
//! reference is in the merge with the same bytes, and the merge holds no file the reference
//! lacks (a stray file in the merged folder is as wrong as a missing one). Subfolders (a
//! sweep's `board-SEED/`) are walked too. Shards, locks, Slurm's files and hidden files are
//! the machinery's, not the report's, and are left aside by name.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How two report folders differ (the first difference found, in name order).
#[derive(Debug, thiserror::Error)]
pub enum Mismatch {
    /// The reference folder holds no report file: nothing would be compared.
    #[error("{} holds no report file", .0.display())]
    Empty(PathBuf),
    /// A report file of the reference is not in the merge.
    #[error("{} is missing from {}", .name.display(), .merged.display())]
    Missing {
        /// The file, relative to the folders.
        name: PathBuf,
        /// The merged folder.
        merged: PathBuf,
    },
    /// The merge holds a file the reference does not.
    #[error("{} in {} is not in the reference {}", .name.display(), .merged.display(), .reference.display())]
    Extra {
        /// The file, relative to the folders.
        name: PathBuf,
        /// The merged folder.
        merged: PathBuf,
        /// The reference folder.
        reference: PathBuf,
    },
    /// A file in both whose bytes differ.
    #[error("{} differs from the reference at byte {at}", .name.display())]
    Differs {
        /// The file, relative to the folders.
        name: PathBuf,
        /// The first byte that differs (the shorter file's length when one is a prefix).
        at: usize,
    },
    /// A folder or file that does not read.
    #[error("cannot read {}: {error}", .path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

/// Whether `name` is the shard model's or a scheduler's, not a report file: shards
/// (`*.shard`), Slurm's record and output (`*.slurm-*`), locks and other hidden files.
pub fn is_machinery(name: &str) -> bool {
    name.starts_with('.') || name.ends_with(".shard") || name.contains(".slurm-")
}

/// Compares the report in `merged` with the one in `reference`, both ways and byte for byte;
/// returns how many report files they share.
pub fn same_report(reference: &Path, merged: &Path) -> Result<usize, Mismatch> {
    let ours = report_files(reference)?;
    if ours.is_empty() {
        return Err(Mismatch::Empty(reference.to_path_buf()));
    }
    let theirs = report_files(merged)?;
    if let Some(name) = theirs.difference(&ours).next() {
        return Err(Mismatch::Extra {
            name: name.clone(),
            merged: merged.to_path_buf(),
            reference: reference.to_path_buf(),
        });
    }
    for name in &ours {
        if !theirs.contains(name) {
            return Err(Mismatch::Missing {
                name: name.clone(),
                merged: merged.to_path_buf(),
            });
        }
        let (a, b) = (read(&reference.join(name))?, read(&merged.join(name))?);
        if a != b {
            let at = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            return Err(Mismatch::Differs {
                name: name.clone(),
                at,
            });
        }
    }
    Ok(ours.len())
}

fn read(path: &Path) -> Result<Vec<u8>, Mismatch> {
    std::fs::read(path).map_err(|error| Mismatch::Io {
        path: path.to_path_buf(),
        error,
    })
}

/// The report files under `dir`, relative to it, subfolders walked.
fn report_files(dir: &Path) -> Result<BTreeSet<PathBuf>, Mismatch> {
    let mut found = BTreeSet::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(sub) = todo.pop() {
        let here = dir.join(&sub);
        let io = |error| Mismatch::Io {
            path: here.clone(),
            error,
        };
        for entry in std::fs::read_dir(&here).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name();
            if is_machinery(&name.to_string_lossy()) {
                continue;
            }
            let relative = sub.join(&name);
            if entry.file_type().map_err(io)?.is_dir() {
                todo.push(relative);
            } else {
                found.insert(relative);
            }
        }
    }
    Ok(found)
}
