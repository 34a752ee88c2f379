//! Slurm as the engine: a job array with one task per shard, a merge job that waits for it
//! (`afterok`), each shard's state from the folder and `squeue` (and why a task left, from
//! `sacct` or `scontrol`: [`Left`]), and a resubmission of only the shards not done. Slurm
//! schedules, retries (`--requeue`) and accounts; this module only writes the job scripts,
//! calls `sbatch`, `squeue`, `scancel`, `sacct` and `scontrol`, and keeps a record of what it
//! submitted (`DIR/NAME.slurm-record`, JSON, not named `.json`: a study folder counts `.json`
//! files as its report).
//!
//! Array task ids are the shard numbers (`--array=1-P%K`), so `SLURM_ARRAY_TASK_ID` is K
//! and `scancel ID_K` cancels shard K.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::safe::{FileError, write_file};
use crate::{Job, ShardError, ShardId, survey};

mod chain;
mod left;
pub use chain::{ChainSubmission, Link, submit_chain};
pub use left::{Left, Source};

/// How each task is sized on the cluster. The defaults are measured on this project's
/// shards (the crate's README): the longest CI shard takes seconds and under 100 MB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `--partition`; the cluster's default when `None`.
    pub partition: Option<String>,
    /// `--time`, the limit per task (Slurm's `[D-]HH:MM:SS`).
    pub time: String,
    /// `--mem`, memory per task (`512M`, `2G`).
    pub mem: String,
    /// `--cpus-per-task`; also the threads a study shard uses.
    pub cpus_per_task: u32,
    /// The `%K` of `--array`: at most this many tasks at once (`None`: as many as fit).
    pub at_once: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            partition: None,
            time: DEFAULT_TIME.into(),
            mem: DEFAULT_MEM.into(),
            cpus_per_task: 1,
            at_once: None,
        }
    }
}

impl Options {
    /// Each option as Slurm reads it, checked before any script is written: the values go
    /// into `#SBATCH` lines, so a newline or a `;` would add lines or commands of the
    /// caller's choosing to the job script.
    pub fn check(&self) -> Result<(), SlurmError> {
        let bad = |option: &'static str, value: &str, expected: &'static str| {
            Err(SlurmError::BadOption {
                option,
                value: value.escape_debug().to_string(),
                expected,
            })
        };
        if !valid_time(&self.time) {
            return bad("--time", &self.time, TIME_FORMS);
        }
        if !valid_mem(&self.mem) {
            return bad("--mem", &self.mem, MEM_FORMS);
        }
        if let Some(p) = &self.partition
            && !valid_partition(p)
        {
            return bad("--partition", p, PARTITION_FORMS);
        }
        Ok(())
    }
}

/// What `--time` accepts, in words (Slurm's forms, sbatch(1)).
pub const TIME_FORMS: &str = "MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES or DAYS-HOURS:MINUTES:SECONDS, in digits";
/// What `--mem` accepts, in words.
pub const MEM_FORMS: &str = "a whole number, optionally followed by K, M, G or T (512M, 2G)";
/// What `--partition` accepts, in words.
pub const PARTITION_FORMS: &str =
    "partition names of letters, digits, `_`, `-` and `.`, separated by commas";

/// Whether `text` is one of Slurm's time forms ([`TIME_FORMS`]).
pub fn valid_time(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    let (days, rest) = match text.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, text),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    // MM, MM:SS, HH:MM:SS; after `D-`: HH, HH:MM, HH:MM:SS.
    days.is_none_or(digits) && parts.len() <= 3 && parts.iter().all(|p| digits(p))
}

/// Whether `text` is a memory size Slurm reads ([`MEM_FORMS`]).
pub fn valid_mem(text: &str) -> bool {
    let number = text.strip_suffix(['K', 'M', 'G', 'T']).unwrap_or(text);
    !number.is_empty() && number.len() <= 12 && number.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `text` is a list of partition names ([`PARTITION_FORMS`]).
pub fn valid_partition(text: &str) -> bool {
    text.split(',').all(|name| {
        !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
    })
}

/// The default `--time` per task: a links shard on 12 vertices (4096 shards) takes about
/// 70 core-seconds… minutes on today's code, a study shard at M=4 seconds; an hour is room.
pub const DEFAULT_TIME: &str = "01:00:00";
/// The default `--mem` per task: the largest shard measured stays under 200 MB.
pub const DEFAULT_MEM: &str = "1G";

/// Why a submission or a status failed.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    /// Slurm's client is not installed.
    #[error(
        "{program} not found: install Slurm's client (Debian: apt-get install slurm-wlm) or run the shards with any engine (--shard K/P, then --merge)"
    )]
    Missing {
        /// `sbatch`, `squeue`, `scancel`, `sacct` or `scontrol`.
        program: &'static str,
    },
    /// The cluster refused the job: sbatch's own message, at most [`MAX_MESSAGE`] bytes.
    #[error("sbatch refused the job: {0}")]
    Rejected(String),
    /// sbatch answered something that is not a job id.
    #[error("sbatch printed no job id: {0}")]
    NoJobId(String),
    /// squeue, scancel or scontrol failed.
    #[error("{program} failed: {message}")]
    Failed {
        /// Which.
        program: &'static str,
        /// Its message, bounded.
        message: String,
    },
    /// The folder holds shards that no resubmission can fix (another job's, or copies).
    #[error(transparent)]
    Shards(#[from] ShardError),
    /// An option Slurm would not read, or that would add lines to the job script.
    #[error("{option} \"{value}\": not a Slurm value (expected {expected})")]
    BadOption {
        /// `--time`, `--mem` or `--partition`.
        option: &'static str,
        /// The value given, escaped.
        value: String,
        /// The forms it may take.
        expected: &'static str,
    },
    /// Jobs of an earlier submission of a chain still in the queue: a second chain beside
    /// them would run the same shards twice.
    #[error(
        "jobs of an earlier submission are still queued or running ({jobs}): wait for them to end, or cancel them (scancel {cancel}), then submit again"
    )]
    StillQueued {
        /// The tasks, `ARRAY_K`, a few of them.
        jobs: String,
        /// Their arrays' ids, for scancel.
        cancel: String,
    },
    /// A path Slurm's `#SBATCH` lines cannot carry.
    #[error("{}: a folder for --slurm must have no spaces, quotes or newlines in its path", .0.display())]
    Path(PathBuf),
    /// A script or the record could not be written, or something not a regular file is in
    /// its place.
    #[error(transparent)]
    File(#[from] FileError),
    /// Running a program.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// Why.
        source: io::Error,
    },
}

/// The most bytes of a program's message kept in an error.
pub const MAX_MESSAGE: usize = 2000;

/// `text` trimmed and cut to [`MAX_MESSAGE`] bytes (on a character boundary).
fn bounded(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let text = text.trim();
    if text.len() <= MAX_MESSAGE {
        return text.to_string();
    }
    let mut end = MAX_MESSAGE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} … ({} bytes in all)", &text[..end], text.len())
}

/// Runs a Slurm client program; its stdout if it succeeds.
fn run(program: &'static str, args: &[String]) -> Result<String, SlurmError> {
    let out = match Command::new(program).args(args).output() {
        Ok(out) => out,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(SlurmError::Missing { program });
        }
        Err(source) => {
            return Err(SlurmError::Io {
                what: format!("running {program}"),
                source,
            });
        }
    };
    if !out.status.success() {
        let mut message = out.stderr;
        if message.iter().all(u8::is_ascii_whitespace) {
            message = out.stdout;
        }
        let message = bounded(&message);
        return Err(match program {
            "sbatch" => SlurmError::Rejected(message),
            _ => SlurmError::Failed { program, message },
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether a Slurm client program is on the PATH.
pub fn available() -> bool {
    Command::new("sbatch")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One submission, as recorded in `DIR/NAME.slurm-record`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted {
    /// The array's job id (empty when only a merge was submitted).
    pub array: String,
    /// The merge job's id.
    pub merge: String,
    /// The shards the array runs.
    pub shards: Vec<u32>,
    /// P.
    pub count: u32,
    /// The job's spec hash.
    pub spec: String,
}

/// Every submission into a folder for one job, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The submissions.
    pub submissions: Vec<Submitted>,
}

fn record_path(dir: &Path, job: &Job) -> PathBuf {
    dir.join(format!("{}.slurm-record", job.name))
}

/// The record of `job`'s submissions into `dir` (empty if none or unreadable: it only
/// says which tasks to look for in the queue).
pub fn record(dir: &Path, job: &Job) -> Record {
    let read = || {
        let mut bytes = Vec::new();
        let file = crate::safe::open_regular(&record_path(dir, job)).ok()?;
        // Another user's record would have this user cancel jobs it names: never read.
        if crate::safe::untrusted(&file.metadata().ok()?).is_some() {
            return None;
        }
        file.take(crate::MAX_SHARD_BYTES)
            .read_to_end(&mut bytes)
            .ok()?;
        serde_json::from_slice::<Record>(&bytes).ok()
    };
    read()
        .map(|mut r| {
            // Another job's, or a split no run may ask for (a record claiming 4294967295
            // shards would have status list them all).
            r.submissions
                .retain(|s| s.spec == job.spec && ShardId::new(1, s.count).is_some());
            r
        })
        .unwrap_or_default()
}

fn save_record(dir: &Path, job: &Job, record: &Record) -> Result<(), SlurmError> {
    let text = serde_json::to_string_pretty(record).expect("a record serialises") + "\n";
    Ok(write_file(&record_path(dir, job), text.as_bytes())?)
}

/// A task's state in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Queued {
    Pending,
    Running,
}

/// The tasks of `arrays` in the queue, by (array id, task id), and the jobs there by id.
fn queue(arrays: &[&str]) -> Result<BTreeMap<(String, u32), Queued>, SlurmError> {
    let mut tasks = BTreeMap::new();
    if arrays.is_empty() {
        return Ok(tasks);
    }
    // Every job of this user, one array task per line: a job id squeue no longer knows is
    // then simply absent (asked by id, squeue fails on it).
    let out = run(
        "squeue",
        &["--me", "-h", "-r", "-o", "%F|%K|%t"].map(String::from),
    )?;
    for line in out.lines() {
        let mut fields = line.trim().split('|');
        let (Some(array), Some(task), Some(state)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if !arrays.contains(&array) {
            continue;
        }
        let Ok(task) = task.parse::<u32>() else {
            continue;
        };
        // Completing: its program has exited, so a shard without its file now never gets
        // one (cancelled, timed out, failed); it counts as gone, and can be resubmitted.
        if state == "CG" {
            continue;
        }
        let state = if state == "PD" {
            Queued::Pending
        } else {
            Queued::Running
        };
        tasks.insert((array.to_string(), task), state);
    }
    Ok(tasks)
}

/// Whether job `id` (not an array) is in the queue as this user's job named `name`: only such
/// a job is cancelled, whatever the record (read from a shared folder) says its id is.
fn in_queue(id: &str, name: &str) -> Result<bool, SlurmError> {
    let out = run("squeue", &["--me", "-h", "-o", "%i|%j"].map(String::from))?;
    Ok(out.lines().any(|l| l.trim() == format!("{id}|{name}")))
}

/// A shard's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Its whole file is in the folder.
    Done,
    /// Running, or queued to run (`queued`), in array job `job` (or locally: `job` empty).
    Running {
        /// The array job id, empty for a run outside Slurm (its lock is held).
        job: String,
        /// Still waiting in the queue.
        queued: bool,
    },
    /// Its file is refused, or the queue cannot be read to tell whether it still runs.
    Failed {
        /// Why, as far as known.
        why: String,
    },
    /// Submitted, no longer queued, and no whole file: Slurm says why.
    Left {
        /// The task, `ARRAY_K`.
        task: String,
        /// Why it left.
        why: Left,
        /// Its output file.
        log: PathBuf,
        /// Who said so.
        source: Source,
    },
    /// Never submitted here, and no file.
    Missing,
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Done => write!(f, "done"),
            State::Running { job, queued } => {
                write!(f, "running")?;
                match (job.is_empty(), queued) {
                    (true, _) => write!(f, " (here, outside Slurm)"),
                    (false, true) => write!(f, " (queued in job {job})"),
                    (false, false) => write!(f, " (job {job})"),
                }
            }
            State::Failed { why } => write!(f, "failed ({why})"),
            State::Left {
                task,
                why,
                log,
                source,
            } => write!(f, "failed (task {task} {}) [{source}]", why.explain(log)),
            State::Missing => write!(f, "missing"),
        }
    }
}

/// Every shard's state, and what the status could not see.
#[derive(Clone, Debug)]
pub struct Status {
    /// By shard, in order.
    pub shards: Vec<(ShardId, State)>,
    /// A note when the queue could not be read (no Slurm): states then come from the folder.
    pub note: Option<String>,
    /// The merge job in the queue, if any.
    pub merge: Option<String>,
    /// Files that refuse the merge whatever is run (a second copy of a shard, another job's
    /// shard): the merge's own message for each. While there are any the folder is not done.
    pub blocking: Vec<String>,
}

impl Status {
    /// Whether every shard's whole file is in the folder: what a script waiting on
    /// `--status` gates on (the CLIs exit non-zero otherwise).
    pub fn all_done(&self) -> bool {
        self.blocking.is_empty() && self.shards.iter().all(|(_, s)| matches!(s, State::Done))
    }

    /// The shards in a state, by its word (`done`, `running`, `failed`, `missing`).
    pub fn count(&self, word: &str) -> usize {
        self.shards
            .iter()
            .filter(|(_, s)| s.to_string().split(' ').next() == Some(word))
            .count()
    }

    /// The report: one line per shard, then the counts.
    pub fn text(&self, job: &Job, dir: &Path) -> String {
        let mut out = format!("{} in {}:\n", job.name, dir.display());
        for (id, state) in &self.shards {
            out += &format!("  shard {id:<9} {state}\n");
        }
        out += &format!(
            "{} done, {} running, {} failed, {} missing",
            self.count("done"),
            self.count("running"),
            self.count("failed"),
            self.count("missing")
        );
        if let Some(m) = &self.merge {
            out += &format!("; merge job {m} queued");
        }
        out += "\n";
        for why in &self.blocking {
            out += &format!("the merge refuses: {why}\n");
        }
        if let Some(note) = &self.note {
            out += note;
            out += "\n";
        }
        out
    }
}

/// Each shard's state: done from the folder; running from `squeue` (and from the shard
/// locks, for runs outside Slurm); failed if submitted and gone from the queue without a
/// whole file, with why from `sacct` or `scontrol` ([`Left`]); missing otherwise.
pub fn status(dir: &Path, job: &Job, count: u32) -> Result<Status, SlurmError> {
    let survey = survey(dir, job, count)?;
    let record = record(dir, job);
    let arrays: Vec<&str> = record
        .submissions
        .iter()
        .filter(|s| s.count == count && !s.array.is_empty())
        .map(|s| s.array.as_str())
        .collect();
    // No squeue, or no controller answering: the folder alone says what is done.
    let (queue, note) = match queue(&arrays) {
        Ok(q) => (q, None),
        Err(e) => (
            BTreeMap::new(),
            Some(format!("{e}: states from the folder alone")),
        ),
    };
    let mut refused: BTreeMap<u32, String> = BTreeMap::new();
    let mut blocking = Vec::new();
    for e in &survey.refused {
        match e {
            // The corrupt file's shard, from its name: running it again mends it.
            ShardError::Corrupt { path, why, .. } => {
                if let Some(id) = crate::file::id_from_name(path, job)
                    && id.count == count
                {
                    refused.insert(id.index, why.clone());
                }
            }
            // A copy or another job's shard: no run mends it, so it is said as the merge says it.
            other => blocking.push(other.to_string()),
        }
    }
    let mut shards = Vec::new();
    // Shards whose task left the queue without the file, asked of Slurm all at once below.
    let mut gone: Vec<(usize, left::Task)> = Vec::new();
    for id in ShardId::all(count) {
        let submitted_in = record
            .submissions
            .iter()
            .rev()
            .find(|s| s.count == count && s.shards.contains(&id.index));
        let queued = arrays
            .iter()
            .rev()
            .find_map(|a| queue.get(&(a.to_string(), id.index)).map(|q| (*a, *q)));
        let state = if survey.done.contains_key(&id.index) {
            State::Done
        } else if let Some((array, q)) = queued {
            State::Running {
                job: array.to_string(),
                queued: q == Queued::Pending,
            }
        } else if crate::shard_running(dir, job, id) {
            State::Running {
                job: String::new(),
                queued: false,
            }
        } else if let Some(why) = refused.get(&id.index) {
            State::Failed {
                why: format!("its file is refused: {why}"),
            }
        } else if let (Some(_), Some(_)) = (submitted_in, &note) {
            State::Failed {
                why: "no file, and the queue cannot be read to tell whether it still runs".into(),
            }
        } else if let Some(s) = submitted_in {
            gone.push((shards.len(), (s.array.clone(), id.index)));
            State::Missing
        } else {
            State::Missing
        };
        shards.push((id, state));
    }
    let tasks: Vec<left::Task> = gone.iter().map(|(_, t)| t.clone()).collect();
    let log = |(array, k): &left::Task| log_path(dir, job, array, *k);
    let why = left::why_left(&tasks, log);
    for (i, task) in gone {
        let (why, source) = why
            .get(&task)
            .cloned()
            .unwrap_or((Left::Unknown("no answer".into()), Source::Scontrol));
        shards[i].1 = State::Left {
            task: format!("{}_{}", task.0, task.1),
            why,
            log: log(&task),
            source,
        };
    }
    let merge = match record.submissions.last() {
        Some(s) if note.is_none() => {
            in_queue(&s.merge, &format!("{}-merge", job.name))?.then(|| s.merge.clone())
        }
        _ => None,
    };
    Ok(Status {
        shards,
        note,
        merge,
        blocking,
    })
}

/// Where Slurm writes task `k`'s output.
pub fn log_path(dir: &Path, job: &Job, array: &str, k: u32) -> PathBuf {
    dir.join(format!("{}.slurm-{array}_{k}.out", job.name))
}

/// `1-3,5,7-8`: Slurm's array index list.
pub fn ranges(indices: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            i += 1;
            end += 1;
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// The `#SBATCH` lines every script shares.
fn common_lines(options: &Options) -> String {
    let mut s = format!(
        "#SBATCH --time={}\n#SBATCH --mem={}\n#SBATCH --cpus-per-task={}\n",
        options.time, options.mem, options.cpus_per_task
    );
    if let Some(p) = &options.partition {
        s += &format!("#SBATCH --partition={p}\n");
    }
    s
}

/// The array job's script: one task per shard in `indices`, `SLURM_ARRAY_TASK_ID` = K.
pub fn array_script(
    dir: &Path,
    job: &Job,
    count: u32,
    indices: &[u32],
    options: &Options,
) -> String {
    let at_once = options.at_once.map(|k| format!("%{k}")).unwrap_or_default();
    format!(
        "#!/bin/sh\n\
         # {name}: one Slurm array task per shard; task K runs shard K/{count}.\n\
         # Written by the --slurm option; submit it again with `sbatch` as it is.\n\
         #SBATCH --job-name={name}\n\
         #SBATCH --array={list}{at_once}\n\
         #SBATCH --output={dir}/{name}.slurm-%A_%a.out\n\
         #SBATCH --requeue\n\
         {common}\
         export RAYON_NUM_THREADS=\"${{SLURM_CPUS_PER_TASK:-1}}\"\n\
         exec {command} --shard \"${{SLURM_ARRAY_TASK_ID}}/{count}\"\n",
        name = job.name,
        list = ranges(indices),
        dir = dir.display(),
        common = common_lines(options),
        command = job.command_with(&[]),
    )
}

/// The merge job's script: makes the report from the shards once the array succeeded.
pub fn merge_script(dir: &Path, job: &Job, options: &Options) -> String {
    format!(
        "#!/bin/sh\n\
         # {name}: the merge, once every shard's task succeeded (afterok).\n\
         #SBATCH --job-name={name}-merge\n\
         #SBATCH --output={dir}/{name}.slurm-merge-%j.out\n\
         #SBATCH --kill-on-invalid-dep=yes\n\
         {common}\
         export RAYON_NUM_THREADS=\"${{SLURM_CPUS_PER_TASK:-1}}\"\n\
         exec {command}\n",
        name = job.name,
        dir = dir.display(),
        common = common_lines(options),
        command = job.merge_command(),
    )
}

/// What a `--slurm` run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The array script written (None when every shard was done or queued).
    pub array_script: Option<PathBuf>,
    /// The merge script written.
    pub merge_script: PathBuf,
    /// The shards submitted.
    pub shards: Vec<u32>,
    /// Shards already done.
    pub done: usize,
    /// Shards still queued or running from an earlier submission.
    pub queued: Vec<u32>,
    /// The array's job id (None on a dry run or when nothing was submitted).
    pub array: Option<String>,
    /// The merge job's id (None on a dry run or when nothing was submitted).
    pub merge: Option<String>,
}

impl Submission {
    /// What to tell the user.
    pub fn text(&self, job: &Job, dir: &Path, count: u32) -> String {
        let status = job.command_with(&["--status", "--shards", &count.to_string()]);
        let mut out = String::new();
        if self.done > 0 || !self.queued.is_empty() {
            out += &format!(
                "{} of {count} shards done, {} still queued or running; ",
                self.done,
                self.queued.len()
            );
        }
        match (&self.array, &self.merge) {
            (Some(a), Some(m)) => {
                out += &format!(
                    "submitted array job {a} ({} shards: {}) and merge job {m} (afterok)\n",
                    self.shards.len(),
                    ranges(&self.shards)
                );
            }
            (None, Some(m)) => out += &format!("submitted merge job {m}\n"),
            _ if self.array_script.is_some() || self.shards.is_empty() => {
                out += "dry run: nothing submitted\n";
            }
            _ => {}
        }
        if let Some(s) = &self.array_script {
            out += &format!("  array script: {}\n", s.display());
        }
        out += &format!("  merge script: {}\n", self.merge_script.display());
        out += &format!(
            "Follow it with `{status}`; the same --slurm command resubmits the shards not done. The report is written to {}.\n",
            dir.display()
        );
        out
    }
}

/// Submits the shards of `job` not done in `dir` as one array job, and a merge job after
/// it; `dry_run` writes the scripts only. Shards still queued from an earlier submission are
/// left to it (the merge waits for both); an earlier merge job still queued is cancelled
/// (the new one replaces it).
pub fn submit(
    dir: &Path,
    job: &Job,
    count: u32,
    options: &Options,
    dry_run: bool,
) -> Result<Submission, SlurmError> {
    options.check()?;
    check_path(dir)?;
    let survey = survey(dir, job, count)?;
    // Copies and other jobs' shards would refuse the merge however often it runs.
    if let Some(e) = survey
        .refused
        .into_iter()
        .find(|e| !matches!(e, ShardError::Corrupt { .. }))
    {
        return Err(e.into());
    }
    let mut record = record(dir, job);
    let arrays: Vec<String> = record
        .submissions
        .iter()
        .filter(|s| s.count == count && !s.array.is_empty())
        .map(|s| s.array.clone())
        .collect();
    let array_refs: Vec<&str> = arrays.iter().map(String::as_str).collect();
    let queue = if dry_run {
        queue(&array_refs).unwrap_or_default()
    } else {
        queue(&array_refs)?
    };
    let queued: Vec<u32> = ShardId::all(count)
        .map(|id| id.index)
        .filter(|k| !survey.done.contains_key(k))
        .filter(|k| queue.keys().any(|(_, t)| t == k))
        .collect();
    let todo: Vec<u32> = ShardId::all(count)
        .map(|id| id.index)
        .filter(|k| !survey.done.contains_key(k) && !queued.contains(k))
        .collect();
    let write = |name: String, text: String| -> Result<PathBuf, SlurmError> {
        let path = dir.join(name);
        write_file(&path, text.as_bytes())?;
        Ok(path)
    };
    let array_script_path = if todo.is_empty() {
        None
    } else {
        Some(write(
            format!("{}.slurm-array.sh", job.name),
            array_script(dir, job, count, &todo, options),
        )?)
    };
    let merge_path = write(
        format!("{}.slurm-merge.sh", job.name),
        merge_script(dir, job, options),
    )?;
    let mut submission = Submission {
        array_script: array_script_path.clone(),
        merge_script: merge_path.clone(),
        shards: todo.clone(),
        done: survey.done.len(),
        queued: queued.clone(),
        array: None,
        merge: None,
    };
    if dry_run {
        return Ok(submission);
    }
    // A merge job of an earlier submission still waiting: the new one replaces it.
    if let Some(last) = record.submissions.last()
        && in_queue(&last.merge, &format!("{}-merge", job.name))?
    {
        run("scancel", std::slice::from_ref(&last.merge))?;
    }
    let array = match &array_script_path {
        Some(script) => Some(job_id(&run(
            "sbatch",
            &["--parsable".into(), script.display().to_string()],
        )?)?),
        None => None,
    };
    let mut args = vec!["--parsable".to_string()];
    if let Some(d) = dependency(array.as_deref(), &queue, |k| survey.done.contains_key(&k)) {
        args.push(d);
    }
    args.push(merge_path.display().to_string());
    let merge = match run("sbatch", &args).and_then(|out| job_id(&out)) {
        Ok(m) => m,
        Err(e) => {
            // The array runs anyway; record it so status and a resubmission know it.
            if let Some(a) = &array {
                record.submissions.push(Submitted {
                    array: a.clone(),
                    merge: String::new(),
                    shards: todo.clone(),
                    count,
                    spec: job.spec.clone(),
                });
                save_record(dir, job, &record)?;
            }
            return Err(e);
        }
    };
    record.submissions.push(Submitted {
        array: array.clone().unwrap_or_default(),
        merge: merge.clone(),
        shards: todo,
        count,
        spec: job.spec.clone(),
    });
    save_record(dir, job, &record)?;
    submission.array = array;
    submission.merge = Some(merge);
    Ok(submission)
}

/// Refuses a folder whose path `#SBATCH` lines cannot carry.
fn check_path(dir: &Path) -> Result<(), SlurmError> {
    let text = dir.to_string_lossy();
    if text
        .chars()
        .any(|c| c.is_whitespace() || "'\"\\$`".contains(c))
    {
        return Err(SlurmError::Path(dir.to_path_buf()));
    }
    Ok(())
}

/// The merge's `--dependency`: the new array, and of earlier arrays only the tasks still
/// queued or running for a shard not done (`afterok:130:123_4:123_7`). A whole earlier
/// array would never do: one of its tasks cancelled or failed, and `afterok` on it can never
/// be satisfied, so no merge would ever run.
fn dependency(
    array: Option<&str>,
    queue: &BTreeMap<(String, u32), Queued>,
    done: impl Fn(u32) -> bool,
) -> Option<String> {
    let after: Vec<String> = array
        .map(String::from)
        .into_iter()
        .chain(
            queue
                .keys()
                .filter(|(a, k)| Some(a.as_str()) != array && !done(*k))
                .map(|(a, k)| format!("{a}_{k}")),
        )
        .collect();
    (!after.is_empty()).then(|| format!("--dependency=afterok:{}", after.join(":")))
}

/// The job id `sbatch --parsable` printed (`ID` or `ID;CLUSTER`).
fn job_id(out: &str) -> Result<String, SlurmError> {
    let id = out.trim().split(';').next().unwrap_or("").trim();
    if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
        Ok(id.to_string())
    } else {
        Err(SlurmError::NoJobId(bounded(out.as_bytes())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 62: `--mem`, `--partition` and `--time` went raw into `#SBATCH` lines, so a
    /// newline or `;` added lines to the job script. Slurm's own forms pass; anything else is
    /// refused, naming the option, before a script is written (no folder is even read).
    #[test]
    fn slurm_options_are_checked_before_any_script_is_written() {
        for time in ["60", "30:00", "01:00:00", "2-0", "2-12:30", "1-00:00:00"] {
            assert!(valid_time(time), "{time}");
        }
        for time in [
            "",
            "1:2:3:4",
            "1-2-3",
            "01:00:00\n#SBATCH --uid=0",
            "1;rm",
            "1h",
            "-5",
        ] {
            assert!(!valid_time(time), "{time:?}");
        }
        for mem in ["1G", "512M", "2048", "4T"] {
            assert!(valid_mem(mem), "{mem}");
        }
        for mem in ["", "G", "1GB", "1G\n", "1G;", "-1G", "1.5G"] {
            assert!(!valid_mem(mem), "{mem:?}");
        }
        for p in ["debug", "gpu,cpu", "long-2.x"] {
            assert!(valid_partition(p), "{p}");
        }
        for p in [
            "",
            "a,,b",
            "debug\n#SBATCH --wrap=id",
            "a;b",
            "a b",
            "$(id)",
        ] {
            assert!(!valid_partition(p), "{p:?}");
        }
        let job = Job::new("demo", &1, "1", vec!["prog".into()]);
        let options = Options {
            mem: "1G\n#SBATCH --wrap=touch /tmp/owned".into(),
            ..Options::default()
        };
        let e = submit(Path::new("/nonexistent/folder"), &job, 2, &options, true)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "--mem \"1G\\n#SBATCH --wrap=touch /tmp/owned\": not a Slurm value (expected {MEM_FORMS})"
            )
        );
    }

    #[test]
    fn ranges_compress_runs() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn a_resubmitted_merge_waits_only_on_tasks_that_can_still_succeed() {
        // Array 123 had shards 1-8: 3 was cancelled, 4 and 7 are still queued or running,
        // 8 is running but its file is already whole; the new array 130 runs shard 3.
        let queue: BTreeMap<(String, u32), Queued> = [
            (("123".to_string(), 4), Queued::Pending),
            (("123".to_string(), 7), Queued::Running),
            (("123".to_string(), 8), Queued::Running),
        ]
        .into();
        assert_eq!(
            dependency(Some("130"), &queue, |k| k == 8).as_deref(),
            Some("--dependency=afterok:130:123_4:123_7")
        );
        // Nothing new to run: the old tasks alone.
        assert_eq!(
            dependency(None, &queue, |_| false).as_deref(),
            Some("--dependency=afterok:123_4:123_7:123_8")
        );
        assert_eq!(dependency(None, &BTreeMap::new(), |_| false), None);
    }

    #[test]
    fn job_ids_as_sbatch_prints_them() {
        assert_eq!(job_id("1234\n").unwrap(), "1234");
        assert_eq!(job_id("1234;cluster\n").unwrap(), "1234");
        assert!(job_id("Submitted batch job 12").is_err());
    }

    #[test]
    fn messages_are_bounded() {
        let long = "é".repeat(3000);
        let b = bounded(long.as_bytes());
        assert!(
            b.len() < MAX_MESSAGE + 40 && b.ends_with("(6000 bytes in all)"),
            "{b}"
        );
    }

    #[test]
    fn the_array_script_runs_shard_k_as_task_k() {
        let job = Job::new(
            "links-9",
            &9,
            "0",
            ["/bin/birdcage", "links", "--vertices", "9", "--out", "/d"]
                .map(String::from)
                .to_vec(),
        );
        let options = Options {
            at_once: Some(4),
            partition: Some("debug".into()),
            ..Options::default()
        };
        let s = array_script(Path::new("/d"), &job, 16, &[1, 2, 3, 9], &options);
        for line in [
            "#SBATCH --array=1-3,9%4\n",
            "#SBATCH --output=/d/links-9.slurm-%A_%a.out\n",
            "#SBATCH --partition=debug\n",
            "#SBATCH --time=01:00:00\n",
            "exec /bin/birdcage links --vertices 9 --out /d --shard \"${SLURM_ARRAY_TASK_ID}/16\"\n",
        ] {
            assert!(s.contains(line), "{line} not in\n{s}");
        }
        let m = merge_script(Path::new("/d"), &job, &options);
        assert!(
            m.contains("exec /bin/birdcage links --vertices 9 --out /d --merge\n"),
            "{m}"
        );
        assert!(m.contains("#SBATCH --kill-on-invalid-dep=yes\n"), "{m}");
    }
}
