//! Why a task left the queue without its shard file, in Slurm's own words: `sacct` where the
//! cluster keeps accounting, else `scontrol show job` (the controller remembers a finished
//! job for `MinJobAge`, 300 s by default). Each reason says what to do about it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::{SlurmError, run};

/// Why a task left the queue without its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Left {
    /// `scancel`, by the user or an administrator.
    Cancelled,
    /// It ran past its `--time`.
    TimedOut,
    /// It ran past its `--mem`.
    OutOfMemory,
    /// It ended with a non-zero exit code, or was killed by a signal (`signal` > 0).
    Failed {
        /// The exit code.
        code: u32,
        /// The signal that ended it, 0 if none.
        signal: u32,
    },
    /// Its node failed (`NODE_FAIL`, `BOOT_FAIL`), and it was not requeued.
    NodeFailure,
    /// Slurm says it succeeded, yet the folder holds no whole file of its shard (a folder
    /// the node does not share, or a file removed since).
    CompletedWithoutFile,
    /// Slurm knows no such task and it wrote no log: it was cancelled while still queued
    /// (Slurm keeps no record of an array task that never started, without accounting).
    NeverStarted,
    /// Slurm no longer knows it (no accounting, and older than `MinJobAge`), but it ran.
    Forgotten,
    /// Another state (`PREEMPTED`, `DEADLINE`, …), as Slurm names it.
    Other(String),
    /// Slurm could not be asked: its message.
    Unknown(String),
}

/// Which Slurm program said why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `sacct`, the accounting database.
    Sacct,
    /// `scontrol show job`, the controller's memory of recent jobs.
    Scontrol,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Sacct => "sacct",
            Source::Scontrol => "scontrol",
        })
    }
}

/// The same command resubmits every shard not done.
const RESUBMIT: &str = "the same --slurm command resubmits it";

impl Left {
    /// From Slurm's state word (`CANCELLED by 0` counts as `CANCELLED`), scontrol's reason
    /// (empty from sacct) and `ExitCode=CODE:SIGNAL`.
    pub fn from_slurm(state: &str, reason: &str, exit: &str) -> Left {
        let state = state.split_whitespace().next().unwrap_or("");
        let (code, signal) = exit.split_once(':').unwrap_or((exit, "0"));
        let (code, signal) = (code.parse().unwrap_or(0), signal.parse().unwrap_or(0));
        match (state, reason) {
            ("CANCELLED", _) => Left::Cancelled,
            ("TIMEOUT", _) | (_, "TimeLimit") => Left::TimedOut,
            ("OUT_OF_MEMORY", _) | (_, "OutOfMemory") => Left::OutOfMemory,
            ("FAILED", _) => Left::Failed { code, signal },
            ("NODE_FAIL" | "BOOT_FAIL", _) => Left::NodeFailure,
            ("COMPLETED", _) => Left::CompletedWithoutFile,
            (other, _) => Left::Other(other.to_string()),
        }
    }

    /// What happened and what to do, `log` being the task's output file.
    pub fn explain(&self, log: &Path) -> String {
        let log = log.display();
        match self {
            Left::Cancelled => format!("cancelled; {RESUBMIT}"),
            Left::TimedOut => format!("timed out after its --time; raise --time, then {RESUBMIT}"),
            Left::OutOfMemory => {
                format!("ran out of memory (its --mem); raise --mem, then {RESUBMIT}")
            }
            Left::Failed { code, signal: 0 } => {
                format!("failed with exit code {code}; see {log}, then {RESUBMIT}")
            }
            Left::Failed { signal, .. } => {
                format!("killed by signal {signal}; see {log}, then {RESUBMIT}")
            }
            Left::NodeFailure => format!("its node failed; {RESUBMIT}"),
            Left::CompletedWithoutFile => {
                format!("completed without its file (does the node share this folder?); see {log}")
            }
            Left::NeverStarted => {
                format!("cancelled before it started (no record in Slurm, no log); {RESUBMIT}")
            }
            Left::Forgotten => {
                format!("Slurm no longer knows why (no accounting, and too old); see {log}")
            }
            Left::Other(state) => format!("Slurm says {state}; see {log}, then {RESUBMIT}"),
            Left::Unknown(message) => {
                format!("Slurm could not say why ({message}); see {log}")
            }
        }
    }
}

/// A task of an array: (array job id, task id).
pub type Task = (String, u32);

/// The ending Slurm recorded for each task it knows, by task: (state, reason, exit code).
type Endings = BTreeMap<Task, (String, String, String)>;

/// `sacct -n -P -X -o JobID,State,ExitCode`: `123_4|CANCELLED by 0|0:0` per line; a line of
/// tasks not yet split off (`123_[5-8]`) or of a plain job is skipped.
pub fn parse_sacct(text: &str) -> Endings {
    let mut out = Endings::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.trim().split('|').collect();
        let [id, state, exit] = fields[..] else {
            continue;
        };
        if let Some(task) = task_id(id) {
            out.insert(task, (state.into(), String::new(), exit.into()));
        }
    }
    out
}

/// `scontrol show job` (one line per job with `-o`, or a block each): the `key=value`
/// words of each job, which starts at its `JobId=`.
pub fn parse_scontrol(text: &str) -> Endings {
    let mut out = Endings::new();
    let mut job: BTreeMap<&str, &str> = BTreeMap::new();
    let mut flush = |job: &BTreeMap<&str, &str>| {
        let (Some(array), Some(task)) = (job.get("ArrayJobId"), job.get("ArrayTaskId")) else {
            return;
        };
        // A range (`5-8`) is the tasks still pending, not split off yet.
        let Some(task) = task_id(&format!("{array}_{task}")) else {
            return;
        };
        let get = |k: &str| job.get(k).copied().unwrap_or("").to_string();
        out.insert(task, (get("JobState"), get("Reason"), get("ExitCode")));
    };
    for word in text.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        if key == "JobId" {
            flush(&job);
            job.clear();
        }
        job.entry(key).or_insert(value);
    }
    flush(&job);
    out
}

/// `123_4` as a task; anything else (`123`, `123_[5-8]`, `123_4.batch`) is none.
fn task_id(id: &str) -> Option<Task> {
    let (array, task) = id.split_once('_')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(array) || !digits(task) {
        return None;
    }
    Some((array.to_string(), task.parse().ok()?))
}

/// Why each task of `tasks` left, and who said so: one `sacct` for them all; for the tasks
/// it does not know (no accounting: it fails), one `scontrol show job` per array. `log`
/// gives a task's output file, which tells a task that never started from one forgotten.
pub fn why_left(tasks: &[Task], log: impl Fn(&Task) -> PathBuf) -> BTreeMap<Task, (Left, Source)> {
    let mut out = BTreeMap::new();
    if tasks.is_empty() {
        return out;
    }
    let mut arrays: Vec<&str> = tasks.iter().map(|(a, _)| a.as_str()).collect();
    arrays.sort_unstable();
    arrays.dedup();
    let sacct = ["-n", "-P", "-X", "-o", "JobID,State,ExitCode", "-j"]
        .map(String::from)
        .into_iter()
        .chain([arrays.join(",")])
        .collect::<Vec<_>>();
    if let Ok(text) = run("sacct", &sacct) {
        for (task, (state, reason, exit)) in parse_sacct(&text) {
            if tasks.contains(&task) {
                out.insert(
                    task,
                    (Left::from_slurm(&state, &reason, &exit), Source::Sacct),
                );
            }
        }
    }
    for array in arrays {
        if tasks.iter().all(|t| t.0 != array || out.contains_key(t)) {
            continue;
        }
        let args = ["-o", "show", "job", array].map(String::from);
        let known = match run("scontrol", &args) {
            Ok(text) => parse_scontrol(&text),
            // The whole array forgotten: scontrol knows no such job.
            Err(SlurmError::Failed { message, .. }) if message.contains("Invalid job id") => {
                Endings::new()
            }
            Err(e) => {
                for task in tasks.iter().filter(|t| t.0 == array) {
                    out.entry(task.clone())
                        .or_insert((Left::Unknown(e.to_string()), Source::Scontrol));
                }
                continue;
            }
        };
        for task in tasks.iter().filter(|t| t.0 == array) {
            let left = match known.get(task) {
                Some((state, reason, exit)) => Left::from_slurm(state, reason, exit),
                None if log(task).exists() => Left::Forgotten,
                None => Left::NeverStarted,
            };
            out.entry(task.clone()).or_insert((left, Source::Scontrol));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(a: &str, k: u32) -> Task {
        (a.to_string(), k)
    }

    /// `sacct -n -P -X -j 123 -o JobID,State,ExitCode`, one task in each ending (the form
    /// of sacct(1): `|`-separated with -P, `CANCELLED by UID`, `EXIT:SIGNAL`).
    const SACCT: &str = "\
123_1|COMPLETED|0:0
123_2|CANCELLED by 0|0:15
123_3|TIMEOUT|0:0
123_4|OUT_OF_MEMORY|0:125
123_5|FAILED|1:0
123_6|NODE_FAIL|0:0
123_7|FAILED|0:9
123_8|PREEMPTED|0:0
123_[9-12]|PENDING|0:0
124|COMPLETED|0:0
";

    #[test]
    fn sacct_lines_name_each_ending() {
        let got = parse_sacct(SACCT);
        let left = |k| {
            let (s, r, e) = &got[&task("123", k)];
            Left::from_slurm(s, r, e)
        };
        assert_eq!(left(1), Left::CompletedWithoutFile);
        assert_eq!(left(2), Left::Cancelled);
        assert_eq!(left(3), Left::TimedOut);
        assert_eq!(left(4), Left::OutOfMemory);
        assert_eq!(left(5), Left::Failed { code: 1, signal: 0 });
        assert_eq!(left(6), Left::NodeFailure);
        assert_eq!(left(7), Left::Failed { code: 0, signal: 9 });
        assert_eq!(left(8), Left::Other("PREEMPTED".into()));
        // The pending range and the plain job are no tasks.
        assert_eq!(got.len(), 8, "{got:?}");
    }

    /// `scontrol -o show job 40`: one line per job, as Slurm 22.05 prints it (abridged: the
    /// words after ExitCode= are as many again), the last line the array's pending rest.
    const SCONTROL: &str = "\
JobId=41 ArrayJobId=40 ArrayTaskId=1 JobName=quantisation UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901759 Nice=0 Account=(null) QOS=(null) JobState=CANCELLED Reason=None Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:15 RunTime=00:00:03 TimeLimit=01:00:00
JobId=42 ArrayJobId=40 ArrayTaskId=2 JobName=quantisation UserId=root(0) GroupId=root(0) JobState=TIMEOUT Reason=TimeLimit Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:15 RunTime=00:01:29 TimeLimit=00:01:00
JobId=43 ArrayJobId=40 ArrayTaskId=3 JobName=quantisation JobState=OUT_OF_MEMORY Reason=OutOfMemory Dependency=(null) ExitCode=0:125
JobId=44 ArrayJobId=40 ArrayTaskId=4 JobName=quantisation JobState=FAILED Reason=NonZeroExitCode Dependency=(null) ExitCode=2:0
JobId=45 ArrayJobId=40 ArrayTaskId=5 JobName=quantisation JobState=NODE_FAIL Reason=NodeDown Dependency=(null) ExitCode=0:0
JobId=46 ArrayJobId=40 ArrayTaskId=6 JobName=quantisation JobState=COMPLETED Reason=None Dependency=(null) ExitCode=0:0
JobId=40 ArrayJobId=40 ArrayTaskId=7-8 JobName=quantisation JobState=PENDING Reason=JobArrayTaskLimit Dependency=(null) ExitCode=0:0
";

    #[test]
    fn scontrol_lines_name_each_ending() {
        let got = parse_scontrol(SCONTROL);
        let left = |k| {
            let (s, r, e) = &got[&task("40", k)];
            Left::from_slurm(s, r, e)
        };
        assert_eq!(left(1), Left::Cancelled);
        assert_eq!(left(2), Left::TimedOut);
        assert_eq!(left(3), Left::OutOfMemory);
        assert_eq!(left(4), Left::Failed { code: 2, signal: 0 });
        assert_eq!(left(5), Left::NodeFailure);
        assert_eq!(left(6), Left::CompletedWithoutFile);
        assert_eq!(got.len(), 6, "{got:?}");
    }

    /// `scontrol show job 40_2` without -o: the same words over several lines.
    #[test]
    fn scontrol_blocks_parse_as_lines_do() {
        let block = "JobId=42 ArrayJobId=40 ArrayTaskId=2 JobName=q\n   UserId=root(0) GroupId=root(0) MCS_label=N/A\n   JobState=FAILED Reason=NonZeroExitCode Dependency=(null)\n   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=1:0\n   Command=/d/q.slurm-array.sh\n\n";
        let got = parse_scontrol(block);
        assert_eq!(
            got[&task("40", 2)],
            ("FAILED".into(), "NonZeroExitCode".into(), "1:0".into())
        );
    }

    #[test]
    fn each_ending_says_what_to_do() {
        let log = Path::new("/d/q.slurm-40_2.out");
        let cases = [
            (
                Left::TimedOut,
                "raise --time, then the same --slurm command",
            ),
            (
                Left::OutOfMemory,
                "raise --mem, then the same --slurm command",
            ),
            (
                Left::Failed { code: 2, signal: 0 },
                "failed with exit code 2; see /d/q.slurm-40_2.out",
            ),
            (
                Left::Cancelled,
                "cancelled; the same --slurm command resubmits it",
            ),
            (Left::NeverStarted, "cancelled before it started"),
        ];
        for (left, words) in cases {
            assert!(
                left.explain(log).contains(words),
                "{left:?}: {}",
                left.explain(log)
            );
        }
    }
}
