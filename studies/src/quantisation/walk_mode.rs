//! The ply walk (`--ply-walk P`) in each mode of the shard model, standing in for the shard
//! driver: with `--out` alone the whole walk, resumed from the last finished ply, then its
//! report; `--ply K --shard I/P` one shard of one ply; `--status` the ply in hand and its
//! shards not done (with their Slurm tasks' states); `--merge` the report of a finished walk;
//! `--slurm --shards P` a job array per ply from the ply in hand to the last, each after the
//! one before it, and the merge after the last ([`shards::slurm::submit_chain`]).
//!
//! Locks as the shard driver takes them (`shards::lock`): the whole walk and the merge hold
//! the folder's lock alone; a shard holds it shared, and its own (`DIR/ply-KK/.findings.I-of-P
//! .lock`) alone; a submission holds `DIR/.quantisation-walk.slurm.lock`.

use std::path::Path;

use shards::slurm::{self, Link};
use shards::{Job, Mode, ShardId};

use super::{QuantisationStudy, Walk};
use crate::Control;
use crate::report::Output;
use crate::study::{OwnReply, StudyError};

/// Runs the walk of `study` in `parts` partitions in `mode` into `dir`.
pub(super) fn run(
    study: &QuantisationStudy,
    options: &crate::study::CageOptions,
    parts: u32,
    (dir, mode, job): (&Path, &Mode, &Job),
    control: &Control<'_>,
    force: bool,
) -> Result<OwnReply, StudyError> {
    let reader = study.reader()?;
    let mut command = job.command.clone();
    command.extend(["--ply-walk".to_string(), parts.to_string()]);
    let walk = Walk::new(
        dir,
        options.size,
        &reader,
        parts,
        crate::study::spec::<QuantisationStudy>(options)?,
        &job.version,
        command.clone(),
    )?;
    let quoted = |extra: &[&str]| {
        command
            .iter()
            .map(String::as_str)
            .chain(extra.iter().copied())
            .map(shards::shell_quote)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let reply = |text: String, not_all_done| OwnReply { text, not_all_done };
    let model = |e: shards::LockError| StudyError::Model(e.into());
    // The merge's job: the walk's command, `--merge` added; its scripts and record in DIR.
    let merge_job = Job::new(
        WALK_JOB,
        &crate::study::spec::<QuantisationStudy>(options)?,
        &job.version,
        command.clone(),
    );
    match mode {
        Mode::Whole | Mode::Merge(_) => {
            let _lock = match *mode == Mode::Whole {
                true => shards::lock_folder(dir, &quoted(&[])),
                false => shards::lock_folder(dir, &quoted(&["--merge"])),
            }
            .map_err(model)?;
            if *mode == Mode::Whole {
                walk.run(control)?;
            }
            let status = walk.status()?;
            if !status.complete {
                return Err(StudyError::DoesNotApply(
                    "the walk is not finished: --status names the ply in hand and its \
                     shards not done",
                ));
            }
            let out = Output::fresh(dir, force)?;
            Ok(reply(study.write_walk_report(&walk, &out)?, false))
        }
        Mode::Shard(id) => {
            if id.count != parts {
                return Err(StudyError::DoesNotApply(
                    "--shard I/P under --ply-walk P: the shard's P is the walk's",
                ));
            }
            let Some(ply) = options.ply else {
                return Err(StudyError::DoesNotApply(
                    "--shard under --ply-walk runs one ply's shard: give --ply K",
                ));
            };
            if ply > walk.last_ply() {
                // Refused by the walk, naming the last ply, before any folder is made.
                walk.run_shard(ply, *id, control)?;
            }
            let ply_dir = walk.ply_dir(ply);
            make_dir(&ply_dir)?;
            let findings = walk.findings_job(ply);
            let _lock = shards::lock_shard_in(
                dir,
                &ply_dir,
                &findings,
                *id,
                &quoted(&["--ply", &ply.to_string(), "--shard", &id.to_string()]),
            )
            .map_err(model)?;
            let (positions, decisions) = walk.run_shard(ply, *id, control)?;
            let stored = shards::shard_path(&ply_dir, &findings, *id);
            Ok(reply(
                format!(
                    "ply {ply} shard {id}: {positions} positions, {decisions} decisions read; \
                     stored {}\n",
                    stored.display()
                ),
                false,
            ))
        }
        Mode::Status(_) => {
            let status = walk.status()?;
            let ply = status.finished_plies;
            if status.complete {
                return Ok(reply(
                    format!(
                        "the walk is complete: plies 0 to {} stored in {} partitions; the \
                         report: `{}`\n",
                        ply - 1,
                        parts,
                        quoted(&["--merge"])
                    ),
                    false,
                ));
            }
            let ids: Vec<String> = status.not_done.iter().map(|id| id.to_string()).collect();
            let finished = match ply {
                0 => "no ply finished".to_string(),
                1 => "ply 0 finished".to_string(),
                _ => format!("plies 0 to {} finished", ply - 1),
            };
            let mut text = format!(
                "{finished}; ply {ply}: {} of {parts} shards not done: {} (run `{}`)\n",
                ids.len(),
                ids.join(" "),
                quoted(&["--ply", &ply.to_string(), "--shard", "K/P"]),
            );
            // Each shard's state, as the shard model says it: running here or in a Slurm
            // task, or why its task left (over its --time or --mem, cancelled, failed).
            let ply_dir = walk.ply_dir(ply);
            if ply_dir.is_dir() {
                let findings = walk.findings_job(ply);
                let states = slurm::status(&ply_dir, &findings, parts)
                    .map_err(|e| StudyError::Model(e.into()))?;
                text += &states.text(&findings, &ply_dir);
            }
            Ok(reply(text, true))
        }
        Mode::Slurm {
            count,
            options: slurm_options,
            dry_run,
        } => {
            if *count != parts {
                return Err(StudyError::DoesNotApply(
                    "--slurm --shards P under --ply-walk P: each ply's array has the walk's P \
                     tasks, so --shards must be the walk's P",
                ));
            }
            let _lock = shards::lock_submission(dir, WALK_JOB).map_err(model)?;
            let status = walk.status()?;
            let mut links = Vec::new();
            for ply in status.finished_plies..=walk.last_ply() {
                let shards: Vec<u32> = match ply == status.finished_plies {
                    true => status.not_done.iter().map(|id| id.index).collect(),
                    false => ShardId::all(parts).map(|id| id.index).collect(),
                };
                let ply_dir = walk.ply_dir(ply);
                make_dir(&ply_dir)?;
                links.push(Link {
                    dir: ply_dir,
                    job: walk.findings_job(ply),
                    shards,
                });
            }
            let submission =
                slurm::submit_chain(&links, parts, (dir, &merge_job), slurm_options, *dry_run)
                    .map_err(|e| StudyError::Model(e.into()))?;
            let mut text = match links.first() {
                Some(_) => format!(
                    "plies {} to {} (the last an M={} game can reach; those past the tree's \
                     end are empty and quick), an array of {parts} tasks each\n",
                    status.finished_plies,
                    walk.last_ply(),
                    options.size.get()
                ),
                None => "every ply is stored: the merge alone\n".to_string(),
            };
            text += &submission.text(&quoted(&["--status"]));
            Ok(reply(text, false))
        }
    }
}

/// The name of the walk's merge job (its scripts, record, Slurm job and submission lock).
pub(super) const WALK_JOB: &str = "quantisation-walk";

fn make_dir(dir: &Path) -> Result<(), StudyError> {
    shards::safe::create_dir_all(dir)
        .map_err(|error| StudyError::Walk(crate::walk_error::WalkError::Write { error }))
}
