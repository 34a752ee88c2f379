//! The ply walk (`--ply-walk P`) in each mode of the shard model, standing in for the shard
//! driver: with `--out` alone the whole walk, resumed from the last finished ply, then its
//! report; `--ply K --shard I/P` one shard of one ply; `--status` the ply in hand and its
//! shards not done; `--merge` the report of a finished walk.

use std::path::Path;

use shards::{Job, Mode};

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
    match mode {
        Mode::Whole | Mode::Merge(_) => {
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
            let (positions, decisions) = walk.run_shard(ply, *id, control)?;
            let stored = shards::shard_path(&walk.ply_dir(ply), &walk.findings_job(ply), *id);
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
            Ok(match status.complete {
                true => reply(
                    format!(
                        "the walk is complete: plies 0 to {} stored in {} partitions; the \
                         report: `{}`\n",
                        ply - 1,
                        parts,
                        quoted(&["--merge"])
                    ),
                    false,
                ),
                false => {
                    let ids: Vec<String> =
                        status.not_done.iter().map(|id| id.to_string()).collect();
                    let finished = match ply {
                        0 => "no ply finished".to_string(),
                        1 => "ply 0 finished".to_string(),
                        _ => format!("plies 0 to {} finished", ply - 1),
                    };
                    reply(
                        format!(
                            "{finished}; ply {ply}: {} of {parts} shards not done: {} (run \
                             `{}`)\n",
                            ids.len(),
                            ids.join(" "),
                            quoted(&["--ply", &ply.to_string(), "--shard", "K/P"]),
                        ),
                        true,
                    )
                }
            })
        }
        Mode::Slurm { .. } => Err(StudyError::DoesNotApply(
            "--ply-walk under --slurm is not written yet: run each ply's shards (--ply K \
             --shard I/P) after the previous ply's, or the whole walk with --out alone",
        )),
    }
}
