//! One shard model for every long job of the project.
//!
//! A long job (`birdcage links`, `birdcage study …`, the bench's campaigns) is cut into P
//! shards. Shard K is a pure function of (the job's spec, K): the same spec and K give the
//! same bytes on any machine, in any order, any number of times. This crate holds what every
//! job shares:
//!
//! - [`ShardId`] is `K/P`;
//! - [`Job`]: a job's name, its spec hash (the spec serialised canonically + the program's
//!   version) and its command line, from which the shard, merge and status commands follow;
//! - [`write_shard`]: a shard's file written atomically with the spec hash, the shard id and
//!   a content hash; [`read_shards`]/[`survey`]: only whole shards of this job, each once,
//!   else a [`ShardError`] naming the file and the command that makes it again;
//! - [`lock_folder`]/[`lock_shard`]: a folder lock that the tasks of one array share and a
//!   second run is refused;
//! - [`safe`]: files read and written in a folder others may write: never through a link,
//!   never blocked on a FIFO, written whole or not at all;
//! - [`compare`]: a merged report against the reference run's, both ways, byte for byte;
//! - [`drive`]: what each mode (`--out DIR` alone, `--shard`, `--merge`, `--slurm`, `--status`)
//!   does with a job's two functions, run one shard and merge the bodies;
//! - [`slurm`]: Slurm as the engine (a job array, a merge job after it, status, resubmit);
//! - `ShardArgs` (feature `clap`): those modes' options, written once for every binary.
//!
//! Nothing here schedules: a shard is an ordinary command line, run by Slurm, GNU parallel
//! or a shell loop.

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

#[cfg(feature = "clap")]
mod args;
pub mod compare;
mod drive;
mod file;
mod id;
mod lock;
pub mod options;
pub mod safe;
pub mod slurm;
mod spec;

#[cfg(feature = "clap")]
pub use args::{ArgsError, ShardArgs, whole};
pub use drive::{Mode, ModelError, Outcome, drive, stored_count, stored_counts};
pub use file::{
    MAX_SHARD_BYTES, Remake, ShardError, Survey, open_body, read_shards, shard_path, survey,
    write_shard,
};
pub use id::{MAX_SHARDS, ShardId, ShardIdError};
pub use lock::{
    FOLDER_LOCK, Lock, LockError, lock_folder, lock_shard, lock_shard_in, lock_submission,
    shard_running,
};
pub use safe::FileError;
pub use spec::{Job, sha256_hex, shell_quote};
