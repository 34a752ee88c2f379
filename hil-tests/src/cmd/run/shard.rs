//! What `hil-tests run` prints of a sharded run's outcome; the options are the shard model's
//! own ([`shards::ShardArgs`]), the bench's jobs are `bench::shard`'s.

use std::path::Path;

use shards::{Job, Outcome};

use crate::exit::Verdict;

/// Prints what a sharded run did: the report's summary, the shard's file, the submission or
/// the status. A merged report is judged by `verdict`; a shard written or a submission has no
/// verdict of its own yet and passes (the merge judges the whole); a status passes when every
/// shard is done, and is [`Verdict::NotAllDone`] otherwise.
pub(crate) fn print(
    outcome: Outcome<String>,
    job: &Job,
    dir: &Path,
    verdict: impl FnOnce() -> Verdict,
) -> Verdict {
    match outcome {
        Outcome::Merged(markdown) => {
            out!("{markdown}");
            outln!("Report: {}", dir.display());
            verdict()
        }
        other => {
            out!("{}", other.text(job, dir).unwrap_or_default());
            match other.not_all_done() {
                true => Verdict::NotAllDone,
                false => Verdict::Done,
            }
        }
    }
}
