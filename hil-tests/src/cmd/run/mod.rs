//! `hil-tests run`: a scenario on a target, written to a report as it goes.

use std::path::PathBuf;

use anyhow::{Context, bail};

use bench::{
    Dut, Existing, PlayError, Report, RunSpec, Scenario, Stage, config::Opened, header,
    play_scenario,
};
use heuristic::Size;
use indicatif::HumanCount;

use super::calibrate::calibrate;
use crate::exit::Verdict;
use crate::progress::{progress, tick};
use crate::stop::{self, STOP_SIGNALS};

mod jobs;

use bench::jobs::fail_on::FailOn;

use shards::{Mode, ShardArgs};

#[derive(Debug, clap::Args)]
#[command(after_help = crate::exit::TABLE)]
pub struct Run {
    /// What the run is: its options are the bench library's `RunSpec`, typed once.
    #[command(flatten)]
    spec: RunSpec,
    /// Report folder (steps.jsonl, summary.json, summary.md).
    #[arg(long)]
    out: PathBuf,
    /// Keep the finished games of an interrupted report in `--out` and play the rest.
    #[arg(long, conflicts_with = "force")]
    resume: bool,
    /// Overwrite the report already in `--out` (without it, or `--resume`, a run refuses).
    #[arg(long)]
    force: bool,
    /// Then fit the board's part values from the steps (calibration.json, summary section).
    #[arg(long)]
    calibrate: bool,
    /// Also write the run as JUnit XML to FILE: one test case per game (per fault for
    /// `--scenario faults`, per class for `glitches`, written with the merged report), with
    /// the stage, probe, board, seeds and the ELF's hash as properties (CI tools show it).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// The classes of a campaign's trials that fail the run (exit 1), separated by commas,
    /// or `none`: for `glitches` no-effect, detected, late, silent, stopped, slow (default
    /// late,silent: a wrong move the visitor saw); for
    /// `faults` detected, misread, silent, changed, tied, idle, and on the virtual board
    /// stopped, dark (default none: the campaign is a measurement).
    #[arg(long, value_name = "CLASS,...", value_parser = bench::config::args::parsed::<FailOn>)]
    fail_on: Option<FailOn>,
    #[command(flatten)]
    shards: ShardArgs,
}

impl Run {
    /// The scenario's games.
    fn scenario(&self) -> anyhow::Result<Scenario> {
        let spec = &self.spec;
        let size = spec
            .size
            .map(|m| Size::new(m).with_context(|| format!("M={m} is not a board size")))
            .transpose()?;
        Ok(spec.scenario.scenario(size, spec.games, spec.seed)?)
    }

    /// The guided game at the console: the target's cage is the operator's (a real board), or
    /// does what the operator is told (an emulated cage, the virtual board's hands).
    fn guided(
        &self,
        target: &mut dyn Dut,
        profile: &'static boards::Profile,
        scenario: &Scenario,
        report: &mut Report,
    ) -> anyhow::Result<Verdict> {
        let mut stdin = std::io::stdin().lock();
        let mut stdout = std::io::stdout();
        let mut console = bench::run::guided::Console::new(&mut stdin, &mut stdout);
        bench::run::guided::guided(target, profile, scenario, report, &mut console)?;
        out!("{}", report.finish()?);
        self.finish(target)?;
        outln!("Report: {}", self.out.display());
        let tally = report.tally();
        Ok(self.games_verdict(tally.failures(), tally.steps, None))
    }

    /// A run of games passes when no step of `steps` was a board or firmware fault; in
    /// lockstep (`agreed`: the stage and its commands) every command also answered as SIL's.
    fn games_verdict(
        &self,
        failures: usize,
        steps: usize,
        agreed: Option<(Stage, usize)>,
    ) -> Verdict {
        if failures > 0 {
            return Verdict::Failed(format!(
                "{failures} {} a board or firmware fault (wiring or fault); the report is in {}",
                if failures == 1 {
                    "step was"
                } else {
                    "steps were"
                },
                self.out.display()
            ));
        }
        let steps = match steps {
            1 => "the 1 step".to_string(),
            n => format!("{} steps", HumanCount(n as u64)),
        };
        let no_fault = format!("none of {steps} a board or firmware fault");
        Verdict::Passed(match agreed {
            Some((stage, commands)) => format!(
                "{} commands of {stage} equal to SIL, {no_fault}",
                HumanCount(commands as u64)
            ),
            None => no_fault,
        })
    }

    pub fn run(self) -> anyhow::Result<Verdict> {
        // A profile file's board is what the bench models; firmware that knows only built-in
        // profiles (QEMU's, a flashed board's) runs the file's base.
        let (profile, base) = boards::file::load_with_base(&self.spec.config.board)?;
        // Every scenario's option rules, before anything is built or started.
        self.spec.check()?;
        let config = &self.spec.config;
        config.check_temp_folder()?;
        if config.builds_qemu_firmware() {
            eprintln!("building the QEMU firmware (cargo, target/pil)...");
        }
        let sharded = self.shards.mode() != Mode::Whole;
        if let Some(job) = jobs::JOBS.iter().find(|job| (job.is)(&self.spec, sharded)) {
            return (job.run)(&self, profile, base);
        }
        if self.fail_on.is_some() {
            bail!(
                "--fail-on is the criterion of a campaign (--scenario faults or glitches); a run \
                 of games fails on any board or firmware fault"
            );
        }
        let scenario = self.scenario()?;
        self.shards.checked_mode()?;
        // One run writes a folder at a time: a second is refused, naming this one.
        let _lock = bench::shard::lock(&self.out, &self.command_text()?)?;
        let mut bench = self.open(profile, base, scenario.size, self.spec.board_seed, true)?;
        let target = bench.target();
        let mut header = header(target, profile, &scenario, self.spec.board_seed)?;
        header.profile = (config.board != header.board).then(|| config.board.clone());
        header.depends.elf_sha256 = config.elf_digest()?;
        let mut report = Report::open(&self.out, header, self.existing())?;
        if scenario.is_guided() {
            return self.guided(target, profile, &scenario, &mut report);
        }
        stop::on_signals();
        let bar = progress("", "games", scenario.games.len());
        let played = play_scenario(
            target,
            profile,
            &scenario,
            &mut report,
            &mut |done, known| tick(&bar, done, known),
        );
        bar.finish_and_clear();
        report.set_retry_stats(target.retry_stats());
        // Written whatever happened, so CI shows the games that were played.
        self.junit(&report)?;
        if let Err(stopped) = played {
            // What was finished is summed up, marked INTERRUPTED with why.
            let why = match stopped {
                PlayError::Stopped { .. } => format!("{stopped} ({STOP_SIGNALS})"),
                _ => stopped.to_string(),
            };
            match report.interrupted(&why) {
                Ok(md) => out!("{md}"),
                Err(e) => eprintln!("error: {e}"),
            }
            // The target answered, and otherwise than SIL: a failure, not a lost run.
            if let PlayError::Dut(bench::DutError::Disagree { .. }) = stopped {
                return Ok(Verdict::Failed(format!(
                    "{why}; the games played are in {}",
                    self.out.display()
                )));
            }
            bail!(
                "{why}; the games finished are in {}, and `--resume` plays the rest",
                self.out.display()
            );
        }
        out!("{}", report.finish()?);
        self.finish(bench.target())?;
        let mut agreed = None;
        if let Opened::Both(both) = &bench {
            let c = both.compared();
            outln!(
                "\nSIL and {} agreed on all {} commands: {} measurements, {} decisions.",
                both.b.stage().stage(),
                c.commands,
                c.measurements,
                c.decisions
            );
            agreed = Some((both.b.stage().stage(), c.commands));
        }
        if self.calibrate {
            calibrate(&self.out, Some(&config.board))?;
        }
        outln!("Report: {}", self.out.display());
        let tally = report.tally();
        Ok(self.games_verdict(tally.failures(), tally.steps, agreed))
    }
}

impl Run {
    /// The games are over: the target writes what it measured (the virtual board's
    /// coverage). A file it could not write leaves the report incomplete: no verdict, the
    /// games kept in `--out`.
    fn finish(&self, target: &mut dyn bench::Dut) -> anyhow::Result<()> {
        target.finish().with_context(|| {
            format!(
                "the games played are in {}, but the report is incomplete",
                self.out.display()
            )
        })
    }

    /// `--junit FILE`: the games of the report in `--out`, as JUnit XML.
    fn junit(&self, report: &Report) -> anyhow::Result<()> {
        let Some(path) = &self.junit else {
            return Ok(());
        };
        let (header, steps) = Report::read_steps(&self.out)?;
        let run = bench::report::junit::RunProperties {
            probe: self.spec.config.probe.as_ref().map(ToString::to_string),
            seed: Some(self.spec.seed),
        };
        let xml = bench::report::junit::games(&header, &steps, report.resent(), &run);
        bench::report::junit::write(&xml, path)?;
        Ok(())
    }
}

impl Run {
    /// The target on the board drawn from `seed` (`whole`: a one-process run, which writes
    /// the virtual board's coverage beside its report).
    fn open(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
        whole: bool,
    ) -> anyhow::Result<Opened> {
        // Beside a one-process run's report (shards would write it over each other).
        let coverage = whole.then(|| self.out.join("coverage.txt"));
        Ok(self
            .spec
            .open(profile, base, size, seed, coverage.as_deref())?)
    }

    /// The one-process command of this run, program first: the spec's options (their paths
    /// absolute) and `--out` as an absolute path: what a shard, a merge and a Slurm task run.
    fn command(&self) -> anyhow::Result<Vec<String>> {
        let exe = std::env::current_exe().context("cannot find the hil-tests binary's path")?;
        let out = std::path::absolute(&self.out)
            .with_context(|| format!("cannot make {} absolute", self.out.display()))?;
        let mut c: Vec<String> = vec![exe.display().to_string(), "run".into()];
        c.extend(self.spec.to_args()?);
        c.push("--out".into());
        c.push(out.display().to_string());
        Ok(c)
    }

    /// [`Run::command`] as a shell reads it: what a refused second run names.
    fn command_text(&self) -> anyhow::Result<String> {
        Ok(self
            .command()?
            .iter()
            .map(|w| shards::shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// `--resume`, `--force` or neither, as a report is opened.
    fn existing(&self) -> Existing {
        match (self.resume, self.force) {
            (true, _) => Existing::Resume,
            (false, true) => Existing::Overwrite,
            (false, false) => Existing::Refuse,
        }
    }
}
