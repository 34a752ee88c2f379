//! `hil-tests run`: a scenario on a target, written to a report as it goes.

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use anyhow::{Context, bail};
use clap::ValueEnum;
use std::time::Duration;

use bench::{
    CampaignError, Existing, Lockstep, Pil, PilOptions, PilTarget, Report, Scenario, Sil, Target,
    campaign, header,
};
use heuristic::Size;

use super::calibrate::calibrate;
use crate::args::whole;
use crate::{STOP, STOP_SIGNALS, progress, tick};

mod faults;
mod shard;

use shards::{Mode, ShardArgs};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Stage {
    /// The firmware application in-process on the emulated board.
    Sil,
    /// The firmware built for Cortex-M4F, in QEMU, on the emulated board.
    Pil,
    /// The real board over probe-rs (needs a build with `--features probe`).
    Hil,
}

/// A day bounds a wait: longer is a typo, and 1e19 s overflows a Duration.
const MAX_TIMEOUT_S: f64 = 86_400.0;

/// `--link`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TransportArg {
    /// QEMU's semihosting: stdin, stderr and stdout.
    Semihosting,
    /// RTT through QEMU's gdbstub.
    Rtt,
}

#[derive(Debug, clap::Args)]
pub struct Run {
    /// Test stage (`--target`, its name before, still works: scripts use it).
    #[arg(long, alias = "target")]
    stage: Stage,
    /// `tree3` (every position of the M=3 tree), `random4` (random M=4 games), `guided`
    /// (the operator makes the moves on a cage without fixture; `--size` gives M), `faults`
    /// (every single fault at every place of the emulated cage, writing faults.csv and
    /// faults.md; with `--probe virtual`, every board fault at every pin, writing
    /// board-faults.csv and board-faults.md), or `records:FILE` (one game record per line;
    /// `--size` gives M).
    #[arg(long)]
    scenario: String,
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
    /// Seed of `random4`'s games (and of Short's drawn moves in `guided`).
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
    #[arg(long, value_enum)]
    link: Option<TransportArg>,
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
    #[arg(long)]
    probe: Option<String>,
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
    #[command(flatten)]
    shards: ShardArgs,
}

impl Run {
    fn scenario(&self) -> anyhow::Result<Scenario> {
        let size =
            |m: u32| heuristic::Size::new(m).with_context(|| format!("M={m} is not a board size"));
        // A fixed scenario takes no size or game count: refuse one rather than ignore it.
        let fixed = |name: &str, m: u32| -> anyhow::Result<()> {
            if self.size.is_some_and(|s| s != m) {
                bail!("--scenario {name} is M={m}; --size does not apply to it");
            }
            Ok(())
        };
        let games = |default: u32| self.games.unwrap_or(default) as usize;
        let chosen = self.size.unwrap_or(4);
        Ok(match self.scenario.as_str() {
            "tree3" => {
                fixed("tree3", 3)?;
                if self.games.is_some() {
                    bail!(
                        "--scenario tree3 plays every branch of the tree; --games does not apply to it"
                    );
                }
                Scenario::tree(size(3)?)
            }
            "random4" => {
                fixed("random4", 4)?;
                Scenario::random(size(4)?, games(100), self.seed)
            }
            "guided" => Scenario::guided(size(chosen)?, games(1), self.seed),
            other => match other.strip_prefix("records:") {
                Some(file) => {
                    if self.games.is_some() {
                        bail!(
                            "--scenario records:FILE plays the file's games; --games does not apply to it"
                        );
                    }
                    let text =
                        boards::read::text(std::path::Path::new(file), bench::MAX_RECORDS_BYTES)
                            .with_context(|| format!("cannot read records file {file}"))?;
                    let scenario = Scenario::records(size(chosen)?, &text, file)?;
                    if scenario.games.is_empty() {
                        bail!(
                            "records file {file} holds no game (one record per line, # comments)"
                        );
                    }
                    scenario
                }
                None => bail!(bench::ScenarioError::Unknown(other.to_string())),
            },
        })
    }

    #[cfg(feature = "probe")]
    fn hil(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
        whole: bool,
    ) -> anyhow::Result<Box<dyn Target>> {
        if self.probe.as_deref().is_some_and(bench::is_virtual) {
            let elf = self.board_elf()?;
            // Beside a one-process run's report (shards would write it over each other).
            let coverage = whole.then(|| self.out.join("coverage.txt"));
            // The guided game is for a board without fixture: the operator wires the cage.
            let faults: &[boards::virtual_board::BoardFault] = if self.scenario == "guided" {
                &[bench::virtual_board::NO_FIXTURE]
            } else {
                &[]
            };
            return Ok(Box::new(bench::virtual_board::connect(
                &elf,
                &self.board,
                seed,
                coverage.as_deref(),
                faults,
            )?));
        }
        if self.probe.as_deref().is_some_and(bench::is_qemu) {
            let elf = self.qemu_elf()?;
            return Ok(Box::new(bench::qemu::connect(
                &elf, profile, base, size, seed,
            )?));
        }
        let request = self
            .probe
            .clone()
            .or_else(bench::probe_request)
            .or_else(|| profile.probe_rs_chip.map(str::to_string))
            .with_context(|| {
                format!(
                    "{} has no probe-rs chip; set {}",
                    profile.name,
                    bench::PROBE_ENV
                )
            })?;
        let elf = self
            .elf
            .as_ref()
            .context("--stage hil needs --elf (the firmware to flash)")?;
        Ok(Box::new(bench::Hil::connect(&request, profile, elf)?))
    }

    #[cfg(not(feature = "probe"))]
    fn hil(
        &self,
        _profile: &'static boards::Profile,
        _base: &'static boards::Profile,
        _size: Size,
        _seed: Option<u64>,
        _whole: bool,
    ) -> anyhow::Result<Box<dyn Target>> {
        bail!(
            "the HIL target needs the `probe` feature: cargo run -p hil-tests --features probe -- ..."
        )
    }

    /// The digest of the firmware the run drives (PIL and HIL), for the report's header: a
    /// `--resume` with another ELF under the same path is refused.
    fn elf_digest(&self) -> anyhow::Result<Option<String>> {
        let elf = match self.stage {
            Stage::Sil => return Ok(None),
            Stage::Hil if self.probe.as_deref().is_some_and(bench::is_virtual) => {
                Some(self.board_elf()?)
            }
            Stage::Hil if !self.probe.as_deref().is_some_and(bench::is_qemu) => self.elf.clone(),
            Stage::Pil | Stage::Hil => Some(self.qemu_elf()?),
        };
        let Some(elf) = elf else { return Ok(None) };
        let bytes = boards::read::bytes(&elf, bench::MAX_ELF_BYTES)
            .with_context(|| format!("cannot read the ELF {}", elf.display()))?;
        Ok(Some(bench::Depends::file(&bytes)))
    }

    /// The board ELF for the virtual board: `--elf`, or `cargo fw`'s.
    fn board_elf(&self) -> anyhow::Result<PathBuf> {
        match &self.elf {
            Some(elf) => Ok(elf.clone()),
            None if std::path::Path::new(bench::BOARD_ELF).is_file() => Ok(bench::BOARD_ELF.into()),
            None => {
                bail!("--probe virtual runs the board ELF: build it with `cargo fw` or pass --elf")
            }
        }
    }

    /// The QEMU firmware: `--elf`, BIRDCAGE_PIL_ELF, or built with cargo.
    fn qemu_elf(&self) -> anyhow::Result<PathBuf> {
        Ok(match &self.elf {
            Some(elf) => elf.clone(),
            None => {
                let named = std::env::var_os(bench::ELF_ENV).is_some_and(|v| !v.is_empty());
                if !named {
                    eprintln!("building the QEMU firmware (cargo, target/pil)...");
                }
                bench::firmware_elf()?
            }
        })
    }

    fn pil(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
    ) -> anyhow::Result<PilTarget> {
        if !(self.timeout > 0.0 && self.timeout <= MAX_TIMEOUT_S) {
            bail!(
                "--timeout must be a positive number of seconds up to {MAX_TIMEOUT_S} (a day), not {:?}",
                self.timeout
            );
        }
        // Checked before a firmware is built or QEMU started: a typo costs nothing.
        let polling = self.polling()?;
        let elf = self.qemu_elf()?;
        let mut options = PilOptions::new(elf);
        options.timeout = Duration::from_secs_f64(self.timeout);
        Ok(match polling {
            None => {
                PilTarget::Semihosting(Box::new(Pil::start(&options, profile, base, size, seed)?))
            }
            Some(polling) => PilTarget::Rtt(Box::new(bench::RttPil::start(
                &options, polling, profile, base, size, seed,
            )?)),
        })
    }

    /// How to poll PIL over RTT (`None`: the link is semihosting). The pacing options belong
    /// to that link alone: given to another, they are refused rather than ignored.
    fn polling(&self) -> anyhow::Result<Option<bench::Polling>> {
        let rtt = self.link == Some(TransportArg::Rtt);
        if self.link.is_some() && self.stage != Stage::Pil {
            bail!("--link chooses PIL's link to QEMU: use it with --stage pil");
        }
        if !rtt && (self.poll_ms.is_some() || self.retry_ms.is_some()) {
            bail!("--poll-ms and --retry-ms pace PIL over RTT: use them with --link rtt");
        }
        if !rtt {
            return Ok(None);
        }
        let ms = |name: &str, v: Option<f64>, default: Duration| -> anyhow::Result<Duration> {
            let Some(v) = v else {
                return Ok(default);
            };
            if !(0.0..=MAX_TIMEOUT_S * 1000.0).contains(&v) {
                bail!("--{name} must be a number of milliseconds from 0 to a day, not {v:?}");
            }
            Ok(Duration::from_secs_f64(v / 1000.0))
        };
        let qemu = bench::Polling::QEMU;
        Ok(Some(bench::Polling {
            interval: ms("poll-ms", self.poll_ms, qemu.interval)?,
            retry: ms("retry-ms", self.retry_ms, qemu.retry)?,
        }))
    }

    /// The guided game at the console: on SIL (and PIL) the emulated cage does what the
    /// operator is told; on a real board the operator's hands do.
    fn guided(
        &self,
        target: &mut dyn Target,
        profile: &'static boards::Profile,
        scenario: &Scenario,
        report: &mut Report,
    ) -> anyhow::Result<()> {
        // SIL and PIL read an emulated cage, and the virtual board's is wired by its hands
        // (`monitor wire`); a real board's cage is under the operator's hands.
        let virtual_board = self.probe.as_deref().is_some_and(bench::is_virtual);
        let mut hands: Box<dyn bench::Hands> = match self.stage {
            Stage::Sil | Stage::Pil => Box::new(bench::Emulated),
            Stage::Hil if virtual_board => Box::new(bench::Emulated),
            Stage::Hil => Box::new(bench::Human),
        };
        let mut stdin = std::io::stdin().lock();
        let mut stdout = std::io::stdout();
        let mut console = bench::Console::new(&mut stdin, &mut stdout);
        bench::guided(
            target,
            profile,
            scenario,
            report,
            &mut console,
            hands.as_mut(),
        )?;
        out!("{}", report.finish()?);
        outln!("Report: {}", self.out.display());
        Ok(())
    }

    pub fn run(self) -> anyhow::Result<()> {
        // A profile file's board is what the bench models; firmware that knows only built-in
        // profiles (QEMU's, a flashed board's) runs the file's base.
        let (profile, base) = boards::file::load_with_base(&self.board)?;
        self.polling()?;
        if self.scenario == "faults" {
            return self.faults(profile, base);
        }
        let scenario = self.scenario()?;
        let emulated_probe = self
            .probe
            .as_deref()
            .is_some_and(|p| bench::is_qemu(p) || bench::is_virtual(p));
        if self.compare_sil && !(self.stage == Stage::Pil || emulated_probe) {
            bail!(
                "--compare-sil compares an emulated board with SIL: use it with --stage pil, \
                 --probe qemu or --probe virtual"
            );
        }
        if self.probe.is_some() && self.stage != Stage::Hil {
            bail!("--probe names the HIL target's probe: use it with --stage hil");
        }
        let mode = self.shards.checked_mode()?;
        if mode != Mode::Whole || self.board_seeds.is_some() {
            return self.sharded(profile, base, &scenario, mode);
        }
        // One run writes a folder at a time: a second is refused, naming this one.
        let _lock = bench::lock(&self.out, &self.command_text()?)?;
        let mut bench = self.bench(profile, base, scenario.size, self.board_seed, true)?;
        let target = bench.target();
        let mut header = header(target, profile, &scenario, self.board_seed)?;
        header.profile = (self.board != header.board).then(|| self.board.clone());
        header.depends.elf_sha256 = self.elf_digest()?;
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
            bail!(
                "{why}; the games finished are in {}, and `--resume` plays the rest",
                self.out.display()
            );
        }
        out!("{}", report.finish()?);
        if let Bench::Both(both) = &bench {
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
        Ok(())
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
            probe: self.probe.clone(),
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

/// The target a run drives: one, or SIL and PIL in lockstep (kept whole to report what was
/// compared).
enum Bench {
    One(Box<dyn Target>),
    Both(Box<Lockstep<Sil, Box<dyn Target>>>),
}

impl Bench {
    fn target(&mut self) -> &mut dyn Target {
        match self {
            Bench::One(target) => target.as_mut(),
            Bench::Both(both) => both.as_mut(),
        }
    }

    fn into_target(self) -> Box<dyn Target> {
        match self {
            Bench::One(target) => target,
            Bench::Both(both) => both,
        }
    }
}

impl Run {
    /// The target on the board drawn from `seed` (`whole`: a one-process run, which writes
    /// the virtual board's coverage beside its report).
    fn bench(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
        whole: bool,
    ) -> anyhow::Result<Bench> {
        Ok(match self.stage {
            Stage::Sil => Bench::One(Box::new(Sil::new(profile, size, seed)?)),
            Stage::Pil if self.compare_sil => Bench::Both(Box::new(Lockstep::new(
                Sil::new(profile, size, seed)?,
                Box::new(self.pil(profile, base, size, seed)?),
            ))),
            Stage::Hil if self.compare_sil => Bench::Both(Box::new(Lockstep::new(
                Sil::new(profile, size, seed)?,
                self.hil(profile, base, size, seed, whole)?,
            ))),
            Stage::Pil => Bench::One(Box::new(self.pil(profile, base, size, seed)?)),
            Stage::Hil => Bench::One(self.hil(profile, base, size, seed, whole)?),
        })
    }

    /// What decides the run's bytes, for its shards' spec hash.
    fn spec(
        &self,
        profile: &'static boards::Profile,
        records_sha256: Option<String>,
    ) -> anyhow::Result<bench::Spec> {
        Ok(bench::Spec {
            stage: name(self.stage),
            probe: self.probe.clone(),
            link: self.link.map(name),
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
                elf_sha256: self.elf_digest()?,
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
        arg("stage", name(self.stage));
        arg("scenario", self.scenario.clone());
        arg("board", self.board.clone());
        arg("seed", self.seed.to_string());
        let options = [
            ("board-seed", self.board_seed.map(|s| s.to_string())),
            ("board-seeds", self.board_seeds.map(|s| s.to_string())),
            ("games", self.games.map(|g| g.to_string())),
            ("size", self.size.map(|m| m.to_string())),
            ("elf", self.elf.as_deref().map(absolute).transpose()?),
            ("timeout", Some(self.timeout.to_string())),
            ("link", self.link.map(name)),
            ("poll-ms", self.poll_ms.map(|v| v.to_string())),
            ("retry-ms", self.retry_ms.map(|v| v.to_string())),
            ("probe", self.probe.clone()),
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
    ) -> anyhow::Result<()> {
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
            elf_sha256: self.elf_digest()?,
        };
        bench::shard::folder(&self.out)?;
        let job = self
            .spec(profile, scenario.source_sha256.clone())?
            .job(self.command()?, crate::VERSION);
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let size = scenario.size;
        let mut connect = |seed: Option<u64>| -> anyhow::Result<Box<dyn Target>> {
            Ok(self.bench(profile, base, size, seed, false)?.into_target())
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
                    Ok(())
                }
                Err(e) => bail!(
                    "{e:#}; the games finished are in {}, and `--resume` plays the rest",
                    self.out.display()
                ),
            };
        }
        let outcome = shards::drive(
            &self.out,
            &job,
            &mode,
            |id| games.run_shard(id, &mut connect, &mut ticked),
            |bodies| Ok(games.merge(&self.out, bodies)?.markdown),
        );
        bar.finish_and_clear();
        shard::print(outcome?, &job, &self.out);
        Ok(())
    }
}

/// The name clap gives a value (`sil`, `rtt`).
fn name(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}
