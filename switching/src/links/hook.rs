//! The links' PRUNE hook named by hash (issue 62): a pruned geng's listing is whatever the
//! prune.c compiled into it drops, so a search's spec names that file, not only geng's version.
//! `nauty/build-geng.sh` records the sha256 of the prune.c it compiled beside the binary
//! (`nauty-geng.prune-sha256`); a search with a pruned geng first on PATH checks that record
//! against the committed prune.c's hash and puts the hash in its parts' spec, so parts of
//! another hook are refused naming it.

use std::path::{Path, PathBuf};

use crate::enumerate::GENG;

/// The committed hook, as this program was built with it.
const PRUNE_C: &[u8] = include_bytes!("../../nauty/prune.c");

/// What a record's file name adds to the binary's (`nauty-geng.prune-sha256`).
pub const RECORD_SUFFIX: &str = ".prune-sha256";

/// The committed prune.c's sha256, 64 lower-case hex digits.
pub fn prune_c_sha256() -> String {
    shards::sha256_hex(PRUNE_C)
}

/// Why a pruned geng is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookError {
    /// No record of the prune.c the geng was built from.
    #[error(
        "{geng} has the PRUNE hook but no record of the prune.c it was built from ({record}: \
         {why}); the committed prune.c's sha256 is {committed}: rebuild it with \
         switching/nauty/build-geng.sh or cargo xtask hooked-geng"
    )]
    Unrecorded {
        /// The binary.
        geng: PathBuf,
        /// Its record's path.
        record: PathBuf,
        /// Why it was not read.
        why: String,
        /// The committed prune.c's hash.
        committed: String,
    },
    /// Built from another prune.c.
    #[error(
        "{geng} was built from a prune.c of sha256 {recorded} ({record}), not the committed \
         one's {committed}: rebuild it with switching/nauty/build-geng.sh or cargo xtask \
         hooked-geng"
    )]
    Differs {
        /// The binary.
        geng: PathBuf,
        /// Its record's path.
        record: PathBuf,
        /// The hash recorded there.
        recorded: String,
        /// The committed prune.c's hash.
        committed: String,
    },
    /// geng answered, but no file of its names is in PATH's folders.
    #[error("geng runs but none of {names:?} is a file in PATH's folders")]
    NotOnPath {
        /// The names looked for.
        names: [&'static str; 2],
    },
}

/// The committed prune.c's hash when the record beside `geng` holds it.
pub fn checked(geng: &Path) -> Result<String, HookError> {
    let committed = prune_c_sha256();
    let mut name = geng.file_name().unwrap_or_default().to_os_string();
    name.push(RECORD_SUFFIX);
    let record = geng.with_file_name(name);
    let text = boards::read::text(&record, 1024).map_err(|e| HookError::Unrecorded {
        geng: geng.to_path_buf(),
        record: record.clone(),
        why: e.to_string(),
        committed: committed.clone(),
    })?;
    let recorded = text.trim();
    if recorded == committed {
        Ok(committed)
    } else {
        Err(HookError::Differs {
            geng: geng.to_path_buf(),
            record,
            recorded: recorded.to_string(),
            committed,
        })
    }
}

/// [`checked`] for the geng the search runs: the first of geng's names on PATH, found as
/// the search's `Command` finds it.
pub fn checked_on_path() -> Result<String, HookError> {
    let geng = on_path(GENG, &std::env::var_os("PATH").unwrap_or_default())
        .ok_or(HookError::NotOnPath { names: GENG })?;
    checked(&geng)
}

/// The first of `names` that is an executable file in one of `path`'s folders (each name
/// through every folder before the next name, as the search's spawn tries them).
fn on_path(names: [&str; 2], path: &std::ffi::OsStr) -> Option<PathBuf> {
    names.iter().find_map(|name| {
        std::env::split_paths(path)
            .map(|dir| dir.join(name))
            .find(|file| file.metadata().is_ok_and(|m| m.is_file() && executable(&m)))
    })
}

/// Whether a file's mode lets it run (where there are modes: the web app builds this crate
/// for WebAssembly, which has no processes to spawn anyway).
fn executable(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with a stand-in geng and, when given, its record.
    fn built(record: Option<&str>) -> (tempfile::TempDir, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let geng = dir.path().join("nauty-geng");
        std::fs::write(&geng, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&geng, std::fs::Permissions::from_mode(0o755)).unwrap();
        if let Some(text) = record {
            std::fs::write(dir.path().join("nauty-geng.prune-sha256"), text).unwrap();
        }
        (dir, geng)
    }

    /// The hash is the committed file's as coreutils computes it (another implementation).
    #[test]
    fn the_committed_hash_is_sha256sum_of_prune_c() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("nauty/prune.c");
        let out = std::process::Command::new("sha256sum")
            .arg(&file)
            .output()
            .unwrap();
        let theirs = String::from_utf8(out.stdout).unwrap();
        assert_eq!(theirs.split_whitespace().next(), Some(&*prune_c_sha256()));
    }

    #[test]
    fn a_record_of_the_committed_hash_is_taken() {
        let (_dir, geng) = built(Some(&format!("{}\n", prune_c_sha256())));
        assert_eq!(checked(&geng), Ok(prune_c_sha256()));
    }

    /// Another hash: one line naming both, and the rebuild.
    #[test]
    fn a_record_of_another_prune_c_is_refused_naming_both_hashes() {
        let other = "0".repeat(64);
        let (_dir, geng) = built(Some(&other));
        let err = checked(&geng).unwrap_err().to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("prune.c of sha256 {other}"))
                && err.contains(&format!("not the committed one's {}", prune_c_sha256()))
                && err.contains("cargo xtask hooked-geng"),
            "{err}"
        );
    }

    /// No record: one line naming the record's path, the committed hash and the rebuild.
    #[test]
    fn a_geng_without_a_record_is_refused() {
        let (_dir, geng) = built(None);
        let err = checked(&geng).unwrap_err().to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("nauty-geng.prune-sha256: no such file")
                && err.contains(&format!("sha256 is {}", prune_c_sha256())),
            "{err}"
        );
    }

    /// Found as `Command` finds it: the first name through every folder first.
    #[test]
    fn the_geng_on_path_is_the_first_name_in_any_folder() {
        let (first, _) = built(None);
        let (second, geng) = built(None);
        std::fs::rename(&geng, second.path().join("geng")).unwrap();
        let path = std::env::join_paths([second.path(), first.path()]).unwrap();
        assert_eq!(on_path(GENG, &path), Some(first.path().join("nauty-geng")));
        let none = std::env::join_paths([Path::new("/nonexistent")]).unwrap();
        assert_eq!(on_path(GENG, &none), None);
    }
}
