//! The program's version, which a sharded run's spec hash holds.

/// The program's version and the git commit it was built from (`build.rs`), part of the
/// spec hash of every sharded run: shards of another version are foreign, and named so.
pub const VERSION: &str = concat!("hil-tests ", env!("BIRDCAGE_VERSION"));
