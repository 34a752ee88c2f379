//! `hil-tests run --target hil --probe virtual --scenario glitches --trials N --seed S`: the
//! glitch campaign on the virtual board (bench's `faults::glitches`), written as glitches.csv
//! and glitches.md in `--out`, and printed.

use std::sync::atomic::Ordering;

use anyhow::bail;

use bench::faults::glitches::GlitchClass;

use super::{FailOn, Run};
use crate::exit::Verdict;
use crate::{STOP, progress, tick};

impl Run {
    pub(super) fn glitches(&self) -> anyhow::Result<Verdict> {
        // `RunSpec::check` has refused the options of other scenarios; these are the run's.
        if self.resume || self.calibrate {
            bail!("--resume and --calibrate do not apply to --scenario glitches");
        }
        // Accepted and ignored, these made a run that looked sharded, or reported, and was not.
        let s = &self.shards;
        if s.shard.is_some() || s.shards.is_some() || s.merge || s.slurm || s.status {
            bail!(
                "--scenario glitches runs in one process: --shard, --shards, --merge, --slurm \
                 and --status do not apply to it"
            );
        }
        if self.junit.is_some() {
            bail!(
                "--junit does not apply to --scenario glitches: its report is glitches.csv and \
                 glitches.md, and its exit status follows --fail-on"
            );
        }
        let fail_on = self
            .fail_on
            .clone()
            .unwrap_or_else(|| FailOn::of(&[GlitchClass::Late.word(), GlitchClass::Silent.word()]));
        fail_on.check(&GlitchClass::WORDS, "glitches")?;
        let md = self.out.join("glitches.md");
        if md.exists() && !self.force {
            bail!(
                "{} already holds a glitch report: --force starts over",
                md.display()
            );
        }
        let spec = &self.spec;
        let elf = spec.config.board_elf()?;
        let plan = spec.glitch_plan();
        let trials = plan.trials;
        // The report's own words for the command (a byte of glitches.md): the plan's
        // options, each only when it is not the default.
        let mut command = format!(
            "hil-tests run --target hil --probe virtual --scenario glitches --trials {trials} \
             --seed {}",
            plan.seed
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
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let bar = progress("", "trials", trials as usize);
        let campaign = bench::faults::glitches::run(
            &elf,
            &spec.config.board,
            spec.board_seed,
            &plan,
            &mut |done, of| tick(&bar, done, of),
        );
        bar.finish_and_clear();
        let campaign = campaign?;
        let md = campaign.write(&self.out, &command)?;
        out!("{md}");
        outln!("{}", campaign.timing());
        outln!("Report: {}", self.out.display());
        if (campaign.trials.len() as u64) < trials {
            bail!(
                "stopped ({}) after {} of {trials} trials; they are in {}",
                crate::STOP_SIGNALS,
                campaign.trials.len(),
                self.out.display()
            );
        }
        Ok(fail_on.verdict(
            campaign.trials.iter().map(|t| t.judgement.class.word()),
            &self.out,
        ))
    }
}
