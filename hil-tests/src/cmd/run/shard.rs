//! What `hil-tests run` prints of a sharded run's outcome; the options are the shard model's
//! own ([`shards::ShardArgs`]), the bench's jobs are `bench::shard`'s.

use std::path::Path;

use shards::{Job, Outcome};

/// Prints what a sharded run did: the report's summary, the shard's file, the submission or
/// the status.
pub(crate) fn print(outcome: Outcome<String>, job: &Job, dir: &Path) {
    match outcome {
        Outcome::Merged(markdown) => {
            out!("{markdown}");
            outln!("Report: {}", dir.display());
        }
        other => out!("{}", other.text(job, dir).unwrap_or_default()),
    }
}
