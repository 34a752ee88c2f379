//! `hil-tests run --scenario faults`: the fault campaign on SIL or PIL (or both in lockstep),
//! for each board size asked, written as `faults.csv` and `faults.md`; on the virtual board
//! (`--stage hil --probe virtual`), the board faults made at register level, written as
//! `board-faults.csv` and `board-faults.md`.


use anyhow::{Context, bail};
use bench::DefectTarget;
use heuristic::Size;
use indicatif::ProgressBar;
use shards::{Mode, Outcome};

use super::{FailOn, Run, shard};
use crate::exit::Verdict;
use crate::progress::{progress, tick};
use crate::stop;

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
        let mode = self.shards.checked_mode()?;
        let spec = &self.spec;
        let config = &spec.config;
        let virtual_board = config.is_virtual_board();
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
        let sizes = spec.fault_sizes()?;
        stop::on_signals();
        let fail_on = self.fail_on.clone().unwrap_or_else(|| FailOn::of(&[]));
        if virtual_board {
            fail_on.check(&bench::BoardVerdict::WORDS, "faults (on the virtual board)")?;
            return self.board_faults(profile, sizes, mode, &fail_on);
        }
        fail_on.check(&bench::Verdict::WORDS, "faults")?;
        let board_seed = spec.board_seed;
        let campaign = bench::CageFaults {
            profile,
            sizes,
            board_arg: config.board.clone(),
            board_seed,
        };
        let job = self.fault_job(profile)?;
        let mut connect = |size: Size| -> anyhow::Result<Box<dyn DefectTarget>> {
            Ok(spec.fault_target(profile, base, size)?)
        };
        let mut bars = Bars::default();
        let mut verdict = Verdict::Done;
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
            other => Ok(shard::print(other, &job, &self.out, || Verdict::Done)),
        }
    }

    /// The fault campaign's shard job, its folder made.
    fn fault_job(&self, profile: &'static boards::Profile) -> anyhow::Result<shards::Job> {
        bench::shard::folder(&self.out)?;
        let depends = self.spec.depends(profile, None)?;
        Ok(self.spec.job(&depends, self.command()?, crate::version::VERSION))
    }

    /// What every suite of the campaign's JUnit carries: the board, its seed and the probe.
    fn fault_properties(&self) -> Vec<(&'static str, String)> {
        let mut properties = vec![("board", self.spec.config.board.clone())];
        if let Some(seed) = self.spec.board_seed {
            properties.push(("board_seed", seed.to_string()));
        }
        if let Some(probe) = &self.spec.config.probe {
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
        if stop::stopped() {
            bail!(
                "stopped ({}); the faults finished are in {}",
                crate::stop::STOP_SIGNALS,
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
        sizes: Vec<Size>,
        mode: Mode,
        fail_on: &FailOn,
    ) -> anyhow::Result<Verdict> {
        // One size: `RunSpec::fault_sizes` gives the virtual board M=4 or the one asked.
        let Some(&size) = sizes.first() else {
            bail!("the board-fault campaign has no board size to play");
        };
        let m = size.get();
        let config = &self.spec.config;
        let elf = config.board_elf()?;
        let campaign = bench::BoardFaults {
            profile,
            size,
            faults: bench::board_faults(profile),
            board_arg: config.board.clone(),
            board_seed: self.spec.board_seed,
        };
        let job = self.fault_job(profile)?;
        let mut connect =
            |faults: &[boards::virtual_board::BoardFault]| self.spec.faulty_board(&elf, faults);
        let bar = progress(&format!("M={m} "), "board faults", 0);
        let mut verdict = Verdict::Done;
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
            other => Ok(shard::print(other, &job, &self.out, || Verdict::Done)),
        }
    }
}
