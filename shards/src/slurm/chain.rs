//! A chain of job arrays, each after the one before it (`afterok`), then a merge job after
//! the last: a job whose shards come in stages, each stage's shards reading what the stage
//! before wrote (the quantisation study's ply walk: a stage a ply). Each array is an
//! ordinary array of its stage's job ([`array_script`]), recorded in its stage's folder as
//! [`submit`] records one, so [`status`] reads a stage as it reads any job.
//!
//! A later array waits on the whole array before it and is killed by Slurm if that can no
//! longer succeed (`--kill-on-invalid-dep=yes`): a failed task stops the chain at its stage,
//! and the same submission, run again, starts from the stage in hand.

use std::path::{Path, PathBuf};

use super::{
    Options, SlurmError, Submitted, array_script, check_path, in_queue, job_id, merge_script,
    queue, record, run, save_record,
};
use crate::Job;
use crate::safe::write_file;

/// One stage of a chain: its job, its folder, and the shards of it to run.
#[derive(Clone, Debug)]
pub struct Link {
    /// The folder the stage's shards are stored in (its script, record and task logs too).
    pub dir: PathBuf,
    /// The stage's job: its shard command is what each task runs.
    pub job: Job,
    /// The shards to run (task ids), in order; never empty.
    pub shards: Vec<u32>,
}

/// What a chain's submission did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainSubmission {
    /// Each stage's array script, in order.
    pub scripts: Vec<PathBuf>,
    /// Each stage's array job id, in order (empty on a dry run).
    pub arrays: Vec<String>,
    /// The merge script.
    pub merge_script: PathBuf,
    /// The merge job's id (None on a dry run).
    pub merge: Option<String>,
}

impl ChainSubmission {
    /// What to tell the user: the arrays, the merge, and how to follow them.
    pub fn text(&self, status: &str) -> String {
        let mut out = match (self.arrays.first(), self.arrays.last(), &self.merge) {
            (Some(first), Some(last), Some(m)) => format!(
                "submitted {} array jobs ({first} to {last}), each after the one before it \
                 (afterok), and merge job {m} after the last\n",
                self.arrays.len()
            ),
            (None, _, Some(m)) => format!("submitted merge job {m}\n"),
            _ => "dry run: nothing submitted\n".to_string(),
        };
        match (self.scripts.first(), self.scripts.last()) {
            (Some(first), Some(last)) if self.scripts.len() > 1 => {
                out += &format!(
                    "  array scripts: {} … {} ({})\n",
                    first.display(),
                    last.display(),
                    self.scripts.len()
                );
            }
            (Some(only), _) => out += &format!("  array script: {}\n", only.display()),
            _ => {}
        }
        out += &format!("  merge script: {}\n", self.merge_script.display());
        out += &format!(
            "Follow it with `{status}`; the same --slurm command, run again once these jobs \
             have left the queue, resubmits from the stage in hand.\n"
        );
        out
    }
}

/// The `sbatch` words that put a job after array `after` (none for the first).
fn after(after: Option<&str>) -> Vec<String> {
    match after {
        Some(id) => vec![
            format!("--dependency=afterok:{id}"),
            "--kill-on-invalid-dep=yes".to_string(),
        ],
        None => Vec::new(),
    }
}

/// Submits `links` as a chain of arrays of `count` shards each, every array after the one
/// before it, then `merge`'s job (in folder `merge.0`) after the last; `dry_run` writes the
/// scripts only. Refused while a task of an earlier submission into any link's folder is
/// still queued or running ([`SlurmError::StillQueued`]); an earlier merge job still
/// queued is cancelled (the new one replaces it).
pub fn submit_chain(
    links: &[Link],
    count: u32,
    merge: (&Path, &Job),
    options: &Options,
    dry_run: bool,
) -> Result<ChainSubmission, SlurmError> {
    options.check()?;
    check_path(merge.0)?;
    for link in links {
        check_path(&link.dir)?;
    }
    // Tasks of earlier submissions still in the queue: a second chain would run them twice.
    let records: Vec<_> = links.iter().map(|l| record(&l.dir, &l.job)).collect();
    let arrays: Vec<String> = records
        .iter()
        .flat_map(|r| r.submissions.iter())
        .filter(|s| !s.array.is_empty())
        .map(|s| s.array.clone())
        .collect();
    let array_refs: Vec<&str> = arrays.iter().map(String::as_str).collect();
    let queued = match dry_run {
        true => queue(&array_refs).unwrap_or_default(),
        false => queue(&array_refs)?,
    };
    if !queued.is_empty() {
        let tasks: Vec<String> = queued.keys().map(|(a, k)| format!("{a}_{k}")).collect();
        let mut ids: Vec<&str> = queued.keys().map(|(a, _)| a.as_str()).collect();
        ids.dedup();
        let shown = match tasks.len() {
            n if n > 4 => format!("{} … ({n} tasks)", tasks[..4].join(" ")),
            _ => tasks.join(" "),
        };
        return Err(SlurmError::StillQueued {
            jobs: shown,
            cancel: ids.join(" "),
        });
    }
    let mut scripts = Vec::new();
    for link in links {
        let path = link.dir.join(format!("{}.slurm-array.sh", link.job.name));
        let text = array_script(&link.dir, &link.job, count, &link.shards, options);
        write_file(&path, text.as_bytes())?;
        scripts.push(path);
    }
    let (merge_dir, merge_job) = merge;
    let merge_path = merge_dir.join(format!("{}.slurm-merge.sh", merge_job.name));
    write_file(
        &merge_path,
        merge_script(merge_dir, merge_job, options).as_bytes(),
    )?;
    let mut submission = ChainSubmission {
        scripts,
        arrays: Vec::new(),
        merge_script: merge_path.clone(),
        merge: None,
    };
    if dry_run {
        return Ok(submission);
    }
    let mut merge_record = record(merge_dir, merge_job);
    if let Some(last) = merge_record.submissions.last()
        && !last.merge.is_empty()
        && in_queue(&last.merge, &format!("{}-merge", merge_job.name))?
    {
        run("scancel", std::slice::from_ref(&last.merge))?;
    }
    for ((link, script), mut record) in links.iter().zip(&submission.scripts).zip(records) {
        let mut args = vec!["--parsable".to_string()];
        args.extend(after(submission.arrays.last().map(String::as_str)));
        args.push(script.display().to_string());
        let id = job_id(&run("sbatch", &args)?)?;
        // Recorded at once, so a status (and a resubmission) knows it whatever follows.
        record.submissions.push(Submitted {
            array: id.clone(),
            merge: String::new(),
            shards: link.shards.clone(),
            count,
            spec: link.job.spec.clone(),
        });
        save_record(&link.dir, &link.job, &record)?;
        submission.arrays.push(id);
    }
    let mut args = vec!["--parsable".to_string()];
    args.extend(after(submission.arrays.last().map(String::as_str)));
    args.push(merge_path.display().to_string());
    let id = job_id(&run("sbatch", &args)?)?;
    merge_record.submissions.push(Submitted {
        array: submission.arrays.last().cloned().unwrap_or_default(),
        merge: id.clone(),
        shards: Vec::new(),
        count,
        spec: merge_job.spec.clone(),
    });
    save_record(merge_dir, merge_job, &merge_record)?;
    submission.merge = Some(id);
    Ok(submission)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_array_waits_on_the_one_before_and_dies_with_it() {
        assert!(after(None).is_empty());
        assert_eq!(
            after(Some("41")),
            ["--dependency=afterok:41", "--kill-on-invalid-dep=yes"]
        );
    }
}
