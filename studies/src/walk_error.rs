//! Why the ply walk (`quantisation::walk`) cannot run, resume or merge: a leaf module, so
//! that both the study trait's errors (`study`) and the walk name it without importing each
//! other.

use std::path::PathBuf;

use shards::{ShardError, ShardId};

/// Why a ply of the walk cannot run, resume or merge.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// A ply file missing, cut short, altered or of another spec (named, with its command).
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// A whole ply file whose body is not what the walk writes (a bug or a hand-made file).
    #[error("{}: not a ply file of this walk ({why}); remove it and run `{command}`", .path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
        /// The command that makes it again.
        command: String,
    },
    /// A file that could not be written (a full disk): nothing is left that counts as done.
    #[error("{error}: {}", write_cause(error))]
    Write {
        /// What failed.
        #[from]
        error: shards::FileError,
    },
    /// A finished ply's file that could not be removed.
    #[error("removing {}: {source}", .path.display())]
    Remove {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The converters do not make a study (ADC bits out of range).
    #[error(transparent)]
    Board(#[from] boards::ProfileError),
    /// A board too large for 16-byte keys.
    #[error(
        "the ply walk keeps a position in 16 bytes, enough up to M={}; M={m} is larger",
        crate::ply_key::MAX_M
    )]
    TooLarge {
        /// The size asked.
        m: u8,
    },
    /// A ply past the longest game.
    #[error("--ply {ply}: past the end of every M={m} game (plies 0 to {last})")]
    PastTheGame {
        /// The ply asked.
        ply: u32,
        /// The last ply.
        last: u32,
        /// The board size.
        m: u8,
    },
    /// Ctrl-C stopped a shard before it stored its findings.
    #[error("interrupted: ply {ply} shard {id} not stored")]
    Interrupted {
        /// The ply.
        ply: u32,
        /// The shard.
        id: ShardId,
    },
    /// A file of the report could not be written.
    #[error(transparent)]
    Report(#[from] crate::report::FileError),
}

/// Why a write failed (`No space left on device`), for the one line a full disk stops with.
fn write_cause(error: &shards::FileError) -> String {
    std::error::Error::source(error)
        .map(|s| s.to_string())
        .unwrap_or_else(|| "refused".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk is one line naming the file and the cause.
    #[test]
    fn a_full_disk_is_one_line_naming_the_file() {
        let e = WalkError::from(shards::FileError::Write {
            path: PathBuf::from("q5/ply-14/findings.3-of-64.shard"),
            source: std::io::Error::from_raw_os_error(28),
        });
        assert_eq!(
            e.to_string(),
            "writing q5/ply-14/findings.3-of-64.shard: No space left on device (os error 28)"
        );
    }
}
