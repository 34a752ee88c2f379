//! `hil-tests run --scenario faults`: the fault campaign on SIL or PIL (or both in lockstep),
//! for each board size asked, written as `faults.csv` and `faults.md`; on the virtual board
//! (`--stage hil --probe virtual`), the board faults made at register level, written as
//! `board-faults.csv` and `board-faults.md`.

use std::sync::atomic::Ordering;

use anyhow::{Context, bail};
use bench::{DefectTarget, Lockstep, Sil};
use heuristic::Size;
use indicatif::ProgressBar;
use shards::{Mode, Outcome};

use bench::Stage;

use super::{FailOn, Run, shard};
use crate::exit::Verdict;
use crate::{STOP, progress, tick};

/// One progress bar per board size, as a fault campaign moves from one to the next.
#[derive(Default)]
struct Bars {
    size: Option<Size>,
    bar: Option<ProgressBar>,
}

impl Bars {
    fn tick(&mut self, size: Size, done: usize, owned: usize) -> std::ops::ControlFlow<()> {
        if self.size != Some(size) {
            self.finish();
            self.size = Some(size);
            self.bar = Some(progress(&format!("M={size} "), "faults", owned));
        }
        let bar = self.bar.get_or_insert_with(ProgressBar::hidden);
        tick(bar, done, owned)
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Run {
    /// Runs the fault campaign: M=3 and M=4 unless `--size` names one.
    pub(super) fn faults(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> anyhow::Result<Verdict> {
        if self.resume || self.calibrate {
            bail!(
                "--resume and --calibrate do not apply to --scenario faults (it writes \
                 faults.csv and faults.md, no steps)"
            );
        }
        if self.games.is_some() {
            bail!(
                "--scenario faults plays one reference game per fault; --games does not apply to it"
            );
        }
        if self.board_seeds.is_some() {
            bail!(
                "--board-seeds sweeps a scenario's games over drawn boards; the fault campaign \
                 breaks one board (--board-seed)"
            );
        }
        let mode = self.shards.checked_mode()?;
        let config = self.config();
        let virtual_board = config.is_virtual_board();
        if self.stage == Stage::Hil && !virtual_board {
            bail!(
                "the fault campaign breaks an emulated cage (--stage sil or pil) or the \
                 virtual board (--stage hil --probe virtual); a real board is broken by hand"
            );
        }
        let csv = self.out.join(if virtual_board {
            "board-faults.csv"
        } else {
            "faults.csv"
        });
        if mode == Mode::Whole && csv.exists() && !self.force {
            bail!(
                "{} already holds a fault report: --force starts over",
                csv.display()
            );
        }
        let sizes = match self.size {
            None => vec![3, 4],
            Some(m @ (3 | 4)) => vec![m],
            Some(m) => bail!("the fault campaign runs on the M=3 and M=4 cage, not M={m}"),
        };
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let fail_on = self.fail_on.clone().unwrap_or_else(|| FailOn::of(&[]));
        if virtual_board {
            fail_on.check(&bench::BoardVerdict::WORDS, "faults (on the virtual board)")?;
            return self.board_faults(profile, mode, &fail_on);
        }
        fail_on.check(&bench::Verdict::WORDS, "faults")?;
        let sizes = sizes
            .into_iter()
            .map(|m| Size::new(m).with_context(|| format!("M={m} is not a board size")))
            .collect::<anyhow::Result<Vec<Size>>>()?;
        let campaign = bench::CageFaults {
            profile,
            sizes,
            board_arg: self.board.clone(),
            board_seed: self.board_seed,
        };
        let job = self.fault_job(profile)?;
        let mut connect = |size: Size| -> anyhow::Result<Box<dyn DefectTarget>> {
            Ok(match self.stage {
                Stage::Sil => Box::new(Sil::new(profile, size, self.board_seed)?),
                Stage::Pil if self.compare_sil => Box::new(Lockstep::new(
                    Sil::new(profile, size, self.board_seed)?,
                    config.pil(profile, base, size, self.board_seed)?,
                )),
                _ => Box::new(config.pil(profile, base, size, self.board_seed)?),
            })
        };
        let mut bars = Bars::default();
        let mut verdict = Verdict::Passed;
        let outcome = shards::drive(
            &self.out,
            &job,
            &mode,
            |id| {
                campaign.run_shard(id, &mut connect, &mut |size, done, owned| {
                    bars.tick(size, done, owned)
                })
            },
            |bodies| {
                let runs = campaign.runs(bodies.clone())?;
                if let Some(path) = &self.junit {
                    let xml = bench::faults::junit::cage_faults(&runs, &self.fault_properties());
                    bench::report::junit::write(&xml, path)?;
                }
                verdict = fail_on.verdict(
                    runs.iter()
                        .flat_map(|run| run.trials.iter().map(|t| t.verdict.word())),
                    &self.out,
                );
                Ok(campaign.merge(&self.out, bodies)?)
            },
        );
        bars.finish();
        match outcome? {
            Outcome::Merged(md) => self.reported(Ok(md), verdict),
            other => Ok(shard::print(other, &job, &self.out, || Verdict::Passed)),
        }
    }

    /// The fault campaign's shard job, its folder made.
    fn fault_job(&self, profile: &'static boards::Profile) -> anyhow::Result<shards::Job> {
        bench::shard::folder(&self.out)?;
        Ok(self
            .spec(profile, None)?
            .job(self.command()?, crate::VERSION))
    }

    /// What every suite of the campaign's JUnit carries: the board, its seed and the probe.
    fn fault_properties(&self) -> Vec<(&'static str, String)> {
        let mut properties = vec![("board", self.board.clone())];
        if let Some(seed) = self.board_seed {
            properties.push(("board_seed", seed.to_string()));
        }
        if let Some(probe) = &self.probe {
            properties.push(("probe", probe.to_string()));
        }
        properties
    }

    /// Prints the report written (or says why it was not), and whether the campaign was
    /// stopped.
    fn reported(&self, md: std::io::Result<String>, verdict: Verdict) -> anyhow::Result<Verdict> {
        let md =
            md.with_context(|| format!("cannot write the report in {}", self.out.display()))?;
        out!("{md}");
        outln!("Report: {}", self.out.display());
        if STOP.load(Ordering::SeqCst) {
            bail!(
                "stopped ({}); the faults finished are in {}",
                crate::STOP_SIGNALS,
                self.out.display()
            );
        }
        Ok(verdict)
    }
}

impl Run {
    /// The board faults of the virtual board, on M=4 unless `--size` says 3, in any mode
    /// of the shard model: fault k belongs to shard k mod P.
    fn board_faults(
        &self,
        profile: &'static boards::Profile,
        mode: Mode,
        fail_on: &FailOn,
    ) -> anyhow::Result<Verdict> {
        let m = match self.size {
            None => 4,
            Some(m @ (3 | 4)) => m,
            Some(m) => bail!("the board-fault campaign plays the M=3 or M=4 cage, not M={m}"),
        };
        let size = Size::new(m).with_context(|| format!("M={m} is not a board size"))?;
        if self.compare_sil {
            bail!(
                "--compare-sil does not apply to the board-fault campaign: each faulty board \
                 differs from SIL on purpose, and the intact one plays the reference game"
            );
        }
        let elf = self.config().board_elf()?;
        let campaign = bench::BoardFaults {
            profile,
            size,
            faults: bench::board_faults(profile),
            board_arg: self.board.clone(),
            board_seed: self.board_seed,
        };
        let job = self.fault_job(profile)?;
        let mut connect = |faults: &[boards::virtual_board::BoardFault]| {
            bench::virtual_board::connect(&elf, &self.board, self.board_seed, None, faults)
        };
        let bar = progress(&format!("M={m} "), "board faults", 0);
        let mut verdict = Verdict::Passed;
        let outcome = shards::drive(
            &self.out,
            &job,
            &mode,
            |id| -> anyhow::Result<Vec<u8>> {
                campaign.run_shard(id, &mut connect, &mut |done, owned| tick(&bar, done, owned))
            },
            |bodies| {
                let run = campaign.run(bodies.clone())?;
                if let Some(path) = &self.junit {
                    let xml = bench::faults::junit::board_faults(&run, &self.fault_properties());
                    bench::report::junit::write(&xml, path)?;
                }
                verdict = fail_on.verdict(run.trials.iter().map(|t| t.verdict.word()), &self.out);
                Ok(campaign.merge(&self.out, bodies)?)
            },
        );
        bar.finish_and_clear();
        match outcome? {
            Outcome::Merged(md) => self.reported(Ok(md), verdict),
            other => Ok(shard::print(other, &job, &self.out, || Verdict::Passed)),
        }
    }
}
