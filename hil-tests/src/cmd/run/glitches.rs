//! `hil-tests run --target hil --probe virtual --scenario glitches --trials N --seed S`: the
//! glitch campaign on the virtual board (bench's `faults::glitches`), written as glitches.csv
//! and glitches.md in `--out`, and printed. A job like the others: `--shard K/P`, `--merge`,
//! `--slurm`, `--status` (bench's `shard::glitches`); the one-process run stores its trials
//! in chunks as it goes, so that `--resume` goes on after a kill.


use anyhow::bail;
use bench::faults::glitches::GlitchClass;
use bench::shard::glitches::{GlitchCampaign, chunks};
use shards::{Mode, Outcome, ShardId};

use super::{FailOn, Run, shard};
use crate::exit::Verdict;
use crate::progress::{progress, tick};
use crate::stop;

impl Run {
    pub(super) fn glitches(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> anyhow::Result<Verdict> {
        // `RunSpec::check` has refused the options of other scenarios; these are the run's.
        if self.calibrate {
            bail!(
                "--calibrate does not apply to --scenario glitches (it fits part values from games' steps)"
            );
        }
        let mode = self.shards.checked_mode()?;
        if self.resume && mode != Mode::Whole {
            bail!(
                "--resume goes on with a one-process campaign; a shard (--shard K/P) keeps its \
                 file whole already, and --merge, --slurm and --status run no trial"
            );
        }
        let fail_on = self
            .fail_on
            .clone()
            .unwrap_or_else(|| FailOn::of(&[GlitchClass::Late.word(), GlitchClass::Silent.word()]));
        fail_on.check(&GlitchClass::WORDS, "glitches")?;
        let spec = &self.spec;
        let plan = spec.glitch_plan();
        let campaign = GlitchCampaign {
            elf: spec.config.board_elf()?,
            board_arg: spec.config.board.clone(),
            profile,
            base,
            board_seed: spec.board_seed,
            plan: plan.clone(),
        };
        // The report's own words for the command (a byte of glitches.md): the plan's
        // options, each only when it is not the default.
        let mut command = format!(
            "hil-tests run --target hil --probe virtual --scenario glitches --trials {} \
             --seed {}",
            plan.trials, plan.seed
        );
        if plan.window != bench::faults::glitches::Window::WHOLE {
            command.push_str(&format!(" --window {}", plan.window));
        }
        if plan.kinds != bench::faults::glitches::Kinds::default() {
            command.push_str(&format!(" --kinds {}", plan.kinds));
        }
        if plan.pace_ms != bench::DEFAULT_PACE_MS {
            command.push_str(&format!(" --pace-ms {}", plan.pace_ms));
        }
        if let Some(seed) = spec.board_seed {
            command.push_str(&format!(" --board-seed {seed}"));
        }
        bench::shard::folder(&self.out)?;
        let job = spec.job(
            &spec.depends(profile, None)?,
            self.command()?,
            crate::version::VERSION,
        );
        stop::on_signals();
        let mut merged = None;
        let mut merge = |bodies: Vec<Vec<u8>>| -> anyhow::Result<String> {
            let judge = |c: &bench::faults::glitches::Campaign| {
                fail_on.line(c.trials.iter().map(|t| t.judgement.class.word()))
            };
            let (campaign, md) = campaign.merge(&self.out, bodies, &command, &judge)?;
            merged = Some(campaign);
            Ok(md)
        };
        let outcome = if mode == Mode::Whole {
            self.whole_glitches(&job, &campaign, &mut merge)?
        } else {
            let bar = progress("", "trials", 0);
            let outcome = shards::drive(
                &self.out,
                &job,
                &mode,
                |id| Ok(campaign.run_shard(id, &mut |done, owned| tick(&bar, done, owned))?),
                merge,
            );
            bar.finish_and_clear();
            outcome?
        };
        let md = match outcome {
            Outcome::Merged(md) => md,
            other => return Ok(shard::print(other, &job, &self.out, || Verdict::Done)),
        };
        let campaign = merged.expect("a merged campaign");
        if let Some(path) = &self.junit {
            let xml = bench::faults::junit::glitches(
                &campaign,
                &|word| fail_on.names(word),
                &[("board", spec.config.board.clone())],
            );
            bench::report::junit::write(&xml, path)?;
        }
        out!("{md}");
        outln!("{}", campaign.timing());
        outln!("Report: {}", self.out.display());
        Ok(fail_on.verdict(
            campaign.trials.iter().map(|t| t.judgement.class.word()),
            &self.out,
        ))
    }

    /// The one-process campaign: its trials in chunks of [`bench::shard::glitches::CHUNK`],
    /// each stored as a shard file when it is done (a chunk already whole is kept: `--resume`),
    /// then the merge.
    fn whole_glitches(
        &self,
        job: &shards::Job,
        campaign: &GlitchCampaign,
        merge: &mut dyn FnMut(Vec<Vec<u8>>) -> anyhow::Result<String>,
    ) -> anyhow::Result<Outcome<String>> {
        let count = chunks(campaign.plan.trials);
        let stored: Vec<ShardId> = ShardId::all(count)
            .filter(|&id| shards::shard_path(&self.out, job, id).is_file())
            .collect();
        let md = self.out.join("glitches.md");
        if self.force {
            for name in ["glitches.md", "glitches.csv"] {
                remove(&self.out.join(name))?;
            }
            for id in &stored {
                remove(&shards::shard_path(&self.out, job, *id))?;
            }
        } else if !self.resume {
            if md.exists() {
                bail!(
                    "{} already holds a glitch report: --force starts over",
                    md.display()
                );
            }
            if !stored.is_empty() {
                bail!(
                    "{} holds {} of a stopped campaign's {count} chunks: --resume goes on, \
                     --force starts over",
                    self.out.display(),
                    stored.len()
                );
            }
        }
        let trials = campaign.plan.trials as usize;
        let bar = progress("", "trials", trials);
        let mut before = 0;
        // One board for every chunk (started at the first chunk that runs).
        let mut board: Option<bench::faults::glitches::Prepared> = None;
        for id in ShardId::all(count) {
            let owned = (0..campaign.plan.trials).filter(|&k| id.owns(k)).count();
            let stored = shards::drive(
                &self.out,
                job,
                &Mode::Shard(id),
                |id| {
                    let prepared = match &mut board {
                        Some(prepared) => prepared,
                        None => board.insert(campaign.prepare()?),
                    };
                    Ok(campaign.run_shard_on(prepared, id, &mut |done, _| {
                        tick(&bar, before + done, trials)
                    })?)
                },
                |_| -> anyhow::Result<String> { unreachable!("a shard does not merge") },
            );
            if let Err(e) = stored {
                bar.finish_and_clear();
                if stop::stopped() {
                    bail!(
                        "stopped ({}) after {before} of {trials} trials; `--resume` goes on \
                         from them ({})",
                        crate::stop::STOP_SIGNALS,
                        self.out.display()
                    );
                }
                return Err(e);
            }
            before += owned;
        }
        bar.finish_and_clear();
        shards::drive(
            &self.out,
            job,
            &Mode::Merge(Some(count)),
            |_| -> anyhow::Result<Vec<u8>> { unreachable!("a merge runs no shard") },
            merge,
        )
    }
}

/// Removes `path` if it is there.
fn remove(path: &std::path::Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => bail!("cannot remove {}: {e}", path.display()),
    }
}
