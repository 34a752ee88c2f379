//! `hil-tests run`: a scenario on a target, written to a report as it goes.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::{Context, bail};

use bench::{
    CampaignError, Config, Existing, Link, Opened, Probe, Report, Scenario, ScenarioKind, Stage,
    Target, campaign, header,
};
use heuristic::Size;

use super::calibrate::calibrate;
use crate::args::whole;
use crate::exit::Verdict;
use crate::{STOP, STOP_SIGNALS, progress, tick};

mod fail_on;
mod faults;
mod glitches;
mod shard;

use fail_on::FailOn;

use shards::{Mode, ShardArgs};

/// A `--stage`: one of the three a run is asked for by name (`--compare-sil` puts SIL beside).
fn stage(text: &str) -> Result<Stage, String> {
    match text.parse::<Stage>() {
        Ok(stage) if Stage::CHOSEN.contains(&stage) => Ok(stage),
        _ => Err(format!(
            "{} (expected sil, pil or hil)",
            heuristic::Echo(text)
        )),
    }
}

fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

#[derive(Debug, clap::Args)]
#[command(after_help = crate::exit::TABLE)]
pub struct Run {
    /// Test stage (`--target`, its name before, still works: scripts use it).
    #[arg(long, alias = "target", value_parser = stage)]
    stage: Stage,
    /// `tree3` (every position of the M=3 tree), `random4` (random M=4 games), `guided`
    /// (the operator makes the moves on a cage without fixture; `--size` gives M), `faults`
    /// (every single fault at every place of the emulated cage, writing faults.csv and
    /// faults.md; with `--probe virtual`, every board fault at every pin, writing
    /// board-faults.csv and board-faults.md), `glitches` (with `--probe virtual`: `--trials`
    /// glitches drawn from `--seed` across a visitor's game, writing glitches.csv and
    /// glitches.md), or `records:FILE` (one game record per line; `--size` gives M).
    #[arg(long, value_parser = parsed::<ScenarioKind>)]
    scenario: ScenarioKind,
    /// Report folder (steps.jsonl, summary.json, summary.md).
    #[arg(long)]
    out: PathBuf,
    /// Board profile: a name or a profile file (TOML; the firmware in QEMU or on a board runs
    /// the file's base, the bench predicts the file's board).
    #[arg(long, default_value = "nucleo-f446re")]
    board: String,
    /// Seed of the emulated board's parts and ADC (SIL); nominal parts without it.
    #[arg(long, allow_negative_numbers = true, value_parser = whole(0, u64::MAX))]
    board_seed: Option<u64>,
    /// A sweep of drawn boards, one per seed: `A..B` (seeds A to B-1) or `A..=B`, each
    /// playing the scenario's games; each board's report in `board-SEED/` inside `--out`,
    /// and `sweep.md` and `sweep.csv` beside them.
    #[arg(long, value_name = "A..B", conflicts_with = "board_seed")]
    board_seeds: Option<bench::BoardSeeds>,
    /// Games of `random4` (default 100) or `guided` (default 1).
    #[arg(long, allow_negative_numbers = true, value_parser = games)]
    games: Option<u32>,
    /// Trials of `glitches` (default 100).
    #[arg(long, value_parser = whole(1, 10_000_000))]
    trials: Option<u64>,
    /// The part of the game `glitches` draws its instants from, in whole percent of its
    /// instructions: `85..100` is the last 15 %, where the machine decides its late cuts
    /// (the whole game, `0..100`, without it).
    #[arg(long, value_name = "FROM..TO", value_parser = parsed::<bench::faults::glitches::Window>)]
    window: Option<bench::faults::glitches::Window>,
    /// The fault kinds `glitches` draws in turn, separated by commas: skip, register, sram,
    /// adc (these four without it, each at its instant) and kept (a bit of the state the
    /// machine keeps between presses, flipped while it waits for the next one).
    #[arg(long, value_name = "KIND,...", value_parser = parsed::<bench::faults::glitches::Kinds>)]
    kinds: Option<bench::faults::glitches::Kinds>,
    /// Seed of `random4`'s games (and of Short's drawn moves in `guided`, of the glitches
    /// of `glitches`).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole(0, u64::MAX))]
    seed: u64,
    /// M for `records:FILE` and `guided` (default 4), or `faults` (default both 3 and 4; on
    /// the virtual board 4).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::m)]
    size: Option<u32>,
    /// The firmware ELF: to flash (HIL), or to run in QEMU (PIL; built with cargo when not
    /// given, or taken from BIRDCAGE_PIL_ELF).
    #[arg(long)]
    elf: Option<PathBuf>,
    /// PIL: longest wait in seconds for the firmware's next frame before it counts as hung.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// PIL: the link to the firmware in QEMU: `semihosting` (QEMU's stdin and stderr) or
    /// `rtt` (the board's RTT layout through QEMU's gdbstub, as a probe reads a board);
    /// semihosting when not given.
    #[arg(long, value_parser = parsed::<Link>)]
    link: Option<Link>,
    /// PIL over RTT: pause between two polls of the guest, in milliseconds (default 0.2).
    #[arg(long)]
    poll_ms: Option<f64>,
    /// PIL over RTT: how long without a reply, in milliseconds, before the command is sent
    /// again with its number (default 1000).
    #[arg(long)]
    retry_ms: Option<f64>,
    /// PIL, or HIL with `--probe qemu` or `--probe virtual`: run SIL on the same board in
    /// lockstep and stop at the first reply that differs.
    #[arg(long)]
    compare_sil: bool,
    /// HIL: the probe (`VID:PID[:SERIAL]`) or the chip, as BIRDCAGE_HIL_PROBE; `qemu`, the
    /// firmware in QEMU (`--elf`: the QEMU firmware) behind QEMU's gdbstub as a probe-rs
    /// probe, on the emulated board; or `virtual`, the board ELF (`--elf`, default `cargo
    /// fw`'s) on the virtual NUCLEO-F446RE (the `virtual-board` binary), its coverage written
    /// to the report.
    #[arg(long, value_parser = parsed::<Probe>)]
    probe: Option<Probe>,
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
    /// `--scenario faults`, written with the merged report), with the stage, probe, board,
    /// seeds and the ELF's hash as properties (CI tools show it).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// The classes of a campaign's trials that fail the run (exit 1), separated by commas,
    /// or `none`: for `glitches` no-effect, detected, hang, silent (default silent); for
    /// `faults` detected, misread, silent, changed, tied, idle, and on the virtual board
    /// stopped, dark (default none: the campaign is a measurement).
    #[arg(long, value_name = "CLASS,...", value_parser = parsed::<FailOn>)]
    fail_on: Option<FailOn>,
    #[command(flatten)]
    shards: ShardArgs,
}

impl Run {
    /// The run's configuration, as the library types it.
    fn config(&self) -> Config {
        Config {
            stage: self.stage,
            probe: self.probe.clone(),
            compare_sil: self.compare_sil,
            board: self.board.clone(),
            elf: self.elf.clone(),
            timeout_s: self.timeout,
            link: self.link,
            poll_ms: self.poll_ms,
            retry_ms: self.retry_ms,
        }
    }

    /// The scenario's games.
    fn scenario(&self) -> anyhow::Result<Scenario> {
        let size = self
            .size
            .map(|m| Size::new(m).with_context(|| format!("M={m} is not a board size")))
            .transpose()?;
        Ok(self.scenario.scenario(size, self.games, self.seed)?)
    }

    /// The guided game at the console: the target's cage is the operator's (a real board), or
    /// does what the operator is told (an emulated cage, the virtual board's hands).
    fn guided(
        &self,
        target: &mut dyn Target,
        profile: &'static boards::Profile,
        scenario: &Scenario,
        report: &mut Report,
    ) -> anyhow::Result<Verdict> {
        let mut stdin = std::io::stdin().lock();
        let mut stdout = std::io::stdout();
        let mut console = bench::Console::new(&mut stdin, &mut stdout);
        bench::guided(target, profile, scenario, report, &mut console)?;
        out!("{}", report.finish()?);
        outln!("Report: {}", self.out.display());
        Ok(self.games_verdict(report.tally().failures()))
    }

    /// A run of games passes when no step was a board or firmware fault.
    fn games_verdict(&self, failures: usize) -> Verdict {
        if failures == 0 {
            Verdict::Passed
        } else {
            Verdict::Failed(format!(
                "{failures} {} a board or firmware fault (wiring or fault); the report is in {}",
                if failures == 1 {
                    "step was"
                } else {
                    "steps were"
                },
                self.out.display()
            ))
        }
    }

    pub fn run(self) -> anyhow::Result<Verdict> {
        // A profile file's board is what the bench models; firmware that knows only built-in
        // profiles (QEMU's, a flashed board's) runs the file's base.
        let (profile, base) = boards::file::load_with_base(&self.board)?;
        let config = self.config();
        config.check_link()?;
        if config.builds_qemu_firmware() {
            eprintln!("building the QEMU firmware (cargo, target/pil)...");
        }
        if self.scenario == ScenarioKind::Faults {
            return self.faults(profile, base);
        }
        if self.scenario == ScenarioKind::Glitches {
            return self.glitches();
        }
        if self.trials.is_some() {
            bail!("--trials counts the trials of --scenario glitches");
        }
        if self.window.is_some() {
            bail!("--window is the part of the game --scenario glitches draws its instants from");
        }
        if self.kinds.is_some() {
            bail!("--kinds are the fault kinds --scenario glitches draws");
        }
        if self.fail_on.is_some() {
            bail!(
                "--fail-on is the criterion of a campaign (--scenario faults or glitches); a run \
                 of games fails on any board or firmware fault"
            );
        }
        let scenario = self.scenario()?;
        config.check()?;
        let mode = self.shards.checked_mode()?;
        if mode != Mode::Whole || self.board_seeds.is_some() {
            return self.sharded(profile, base, &scenario, mode);
        }
        // One run writes a folder at a time: a second is refused, naming this one.
        let _lock = bench::lock(&self.out, &self.command_text()?)?;
        let mut bench = self.open(profile, base, scenario.size, self.board_seed, true)?;
        let target = bench.target();
        let mut header = header(target, profile, &scenario, self.board_seed)?;
        header.profile = (self.board != header.board).then(|| self.board.clone());
        header.depends.elf_sha256 = config.elf_digest()?;
        let mut report = Report::open(&self.out, header, self.existing())?;
        if scenario.is_guided() {
            return self.guided(target, profile, &scenario, &mut report);
        }
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let bar = progress("", "games", scenario.games.len());
        let played = campaign(
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
                CampaignError::Stopped { .. } => format!("{stopped} ({STOP_SIGNALS})"),
                _ => stopped.to_string(),
            };
            match report.interrupted(&why) {
                Ok(md) => out!("{md}"),
                Err(e) => eprintln!("error: {e}"),
            }
            // The target answered, and otherwise than SIL: a failure, not a lost run.
            if let CampaignError::Target(bench::TargetError::Disagree { .. }) = stopped {
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
        if let Opened::Both(both) = &bench {
            let c = both.compared();
            outln!(
                "\nSIL and {} agreed on all {} commands: {} measurements, {} decisions.",
                both.b.stage(),
                c.commands,
                c.measurements,
                c.decisions
            );
        }
        if self.calibrate {
            calibrate(&self.out, Some(&self.board))?;
        }
        outln!("Report: {}", self.out.display());
        Ok(self.games_verdict(report.tally().failures()))
    }
}

impl Run {
    /// `--junit FILE`: the games of the report in `--out`, as JUnit XML.
    fn junit(&self, report: &Report) -> anyhow::Result<()> {
        let Some(path) = &self.junit else {
            return Ok(());
        };
        let (header, steps) = Report::read_steps(&self.out)?;
        let run = bench::report::junit::RunProperties {
            probe: self.probe.as_ref().map(ToString::to_string),
            seed: Some(self.seed),
        };
        let xml = bench::report::junit::games(&header, &steps, report.resent(), &run);
        bench::report::junit::write(&xml, path)?;
        Ok(())
    }
}

/// A game count: a whole number from 1 (a run of no game is a typo, not a run).
fn games(text: &str) -> Result<u32, String> {
    let n = whole(1, u64::MAX)(text)?;
    u32::try_from(n).map_err(|_| format!("must be a whole number from 1 to {}", u32::MAX))
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
        let by_hand = self.scenario == ScenarioKind::Guided;
        Ok(self
            .config()
            .open(profile, base, size, seed, coverage.as_deref(), by_hand)?)
    }

    /// What decides the run's bytes, for its shards' spec hash.
    fn spec(
        &self,
        profile: &'static boards::Profile,
        records_sha256: Option<String>,
    ) -> anyhow::Result<bench::Spec> {
        Ok(bench::Spec {
            stage: self.stage,
            probe: self.probe.clone(),
            link: self.link,
            compare_sil: self.compare_sil,
            scenario: self.scenario.clone(),
            games: self.games,
            seed: self.seed,
            size: self.size,
            board: self.board.clone(),
            board_seed: self.board_seed,
            board_seeds: self.board_seeds,
            depends: bench::Depends {
                profile_sha256: Some(bench::Depends::profile(profile)),
                elf_sha256: self.config().elf_digest()?,
                records_sha256,
            },
        })
    }

    /// The one-process command of this run, program first, with the options that make its
    /// bytes and `--out` as an absolute path: what a shard, a merge and a Slurm task run.
    fn command(&self) -> anyhow::Result<Vec<String>> {
        let exe = std::env::current_exe().context("cannot find the hil-tests binary's path")?;
        let absolute =
            |p: &std::path::Path| std::path::absolute(p).map(|p| p.display().to_string());
        let mut c: Vec<String> = vec![exe.display().to_string(), "run".into()];
        let mut arg = |name: &str, value: String| {
            c.push(format!("--{name}"));
            c.push(value);
        };
        arg("stage", self.stage.arg());
        arg("scenario", self.scenario.to_string());
        arg("board", self.board.clone());
        arg("seed", self.seed.to_string());
        let options = [
            ("board-seed", self.board_seed.map(|s| s.to_string())),
            ("board-seeds", self.board_seeds.map(|s| s.to_string())),
            ("games", self.games.map(|g| g.to_string())),
            ("size", self.size.map(|m| m.to_string())),
            ("elf", self.elf.as_deref().map(absolute).transpose()?),
            ("timeout", Some(self.timeout.to_string())),
            ("link", self.link.map(|link| link.to_string())),
            ("poll-ms", self.poll_ms.map(|v| v.to_string())),
            ("retry-ms", self.retry_ms.map(|v| v.to_string())),
            ("probe", self.probe.as_ref().map(ToString::to_string)),
        ];
        for (option, value) in options {
            if let Some(value) = value {
                arg(option, value);
            }
        }
        if self.compare_sil {
            c.push("--compare-sil".into());
        }
        c.push("--out".into());
        c.push(absolute(&self.out)?);
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

    /// The games in shards (`--shard`, `--merge`, `--slurm`, `--status`), or on a sweep of
    /// drawn boards: `bench::shard` decides, this prints.
    fn sharded(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        scenario: &bench::Scenario,
        mode: Mode,
    ) -> anyhow::Result<Verdict> {
        if self.resume && mode != Mode::Whole {
            bail!(
                "--resume goes with a one-process run: a shard already written is kept, and \
                 --merge writes the report afresh"
            );
        }
        if self.calibrate || self.junit.is_some() {
            bail!(
                "--calibrate and --junit read one board's one-process report: run them without \
                 --shard, --merge, --slurm, --status or --board-seeds"
            );
        }
        if scenario.is_guided() {
            bail!("--scenario guided is one operator's game: it runs on one board, in one process");
        }
        let boards = match self.board_seeds {
            Some(seeds) => bench::Boards::Sweep(seeds),
            None => bench::Boards::One(self.board_seed),
        };
        let games = bench::Games {
            profile,
            scenario,
            boards,
            board_arg: self.board.clone(),
            elf_sha256: self.config().elf_digest()?,
        };
        bench::shard::folder(&self.out)?;
        let job = self
            .spec(profile, scenario.source_sha256.clone())?
            .job(self.command()?, crate::VERSION);
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let size = scenario.size;
        let mut connect = |seed: Option<u64>| -> anyhow::Result<Box<dyn Target>> {
            Ok(self.open(profile, base, size, seed, false)?.into_target())
        };
        let bar = progress("", "games", 0);
        let mut ticked = |done, all| tick(&bar, done, all);
        if mode == Mode::Whole {
            let _lock = bench::lock(&self.out, &job.command_with(&[]))?;
            let written = games.sweep(&self.out, self.existing(), &mut connect, &mut ticked);
            bar.finish_and_clear();
            return match written {
                Ok(written) => {
                    out!("{}", written.markdown);
                    outln!("Report: {}", self.out.display());
                    Ok(self.games_verdict(written.failures))
                }
                Err(e) => bail!(
                    "{e:#}; the games finished are in {}, and `--resume` plays the rest",
                    self.out.display()
                ),
            };
        }
        let mut failures = 0;
        let outcome = shards::drive(
            &self.out,
            &job,
            &mode,
            |id| games.run_shard(id, &mut connect, &mut ticked),
            |bodies| {
                let written = games.merge(&self.out, bodies)?;
                failures = written.failures;
                Ok(written.markdown)
            },
        );
        bar.finish_and_clear();
        Ok(shard::print(outcome?, &job, &self.out, || {
            self.games_verdict(failures)
        }))
    }
}
