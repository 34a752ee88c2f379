//! `hil-tests run --scenario faults`: the fault campaign on SIL or PIL (or both in lockstep),
//! for each board size asked, written as `faults.csv` and `faults.md`; on the virtual board
//! (`--target hil --probe virtual`), the board faults made at register level, written as
//! `board-faults.csv` and `board-faults.md`.

use std::sync::atomic::Ordering;

use anyhow::{Context, bail};
use bench::{DefectTarget, Lockstep, Sil, fault_campaign, write_fault_report};
use heuristic::Size;

use super::{Run, Stage};
use crate::{STOP, progress, tick};

impl Run {
    /// Runs the fault campaign: M=3 and M=4 unless `--size` names one.
    pub(super) fn faults(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> anyhow::Result<()> {
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
        let virtual_board =
            self.target == Stage::Hil && self.probe.as_deref().is_some_and(bench::is_virtual);
        let csv = self.out.join(if virtual_board {
            "board-faults.csv"
        } else {
            "faults.csv"
        });
        if csv.exists() && !self.force {
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
        if virtual_board {
            return self.board_faults(profile);
        }
        let mut runs = Vec::new();
        for m in sizes {
            let size = Size::new(m).with_context(|| format!("M={m} is not a board size"))?;
            let mut target: Box<dyn DefectTarget> = match self.target {
                Stage::Sil => Box::new(Sil::new(profile, size, self.board_seed)?),
                Stage::Pil if self.compare_sil => Box::new(Lockstep::new(
                    Sil::new(profile, size, self.board_seed)?,
                    self.pil(profile, base, size)?,
                )),
                Stage::Pil => Box::new(self.pil(profile, base, size)?),
                Stage::Hil => bail!(
                    "the fault campaign breaks an emulated cage (--target sil or pil) or the \
                     virtual board (--target hil --probe virtual); a real board is broken by hand"
                ),
            };
            let bar = progress(&format!("M={m} "), "faults", 0);
            let run = fault_campaign(target.as_mut(), profile, size, &mut |done, planned| {
                tick(&bar, done, planned)
            });
            bar.finish_and_clear();
            let run = run?;
            let stopped = run.trials.len() < run.planned;
            runs.push(run);
            if stopped {
                break;
            }
        }
        self.reported(write_fault_report(
            &self.out,
            &runs,
            &self.board,
            self.board_seed,
        ))
    }

    /// Prints the report written (or says why it was not), and whether the campaign was
    /// stopped.
    fn reported(&self, md: std::io::Result<String>) -> anyhow::Result<()> {
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
        Ok(())
    }
}

impl Run {
    /// The board faults of the virtual board, on M=4 unless `--size` says 3.
    #[cfg(feature = "probe")]
    fn board_faults(&self, profile: &'static boards::Profile) -> anyhow::Result<()> {
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
        let elf = self.board_elf()?;
        let faults = bench::board_faults(profile);
        let bar = progress(&format!("M={m} "), "board faults", 0);
        let run = bench::board_fault_campaign(
            &mut |faults| {
                bench::virtual_board::connect(&elf, &self.board, self.board_seed, None, faults)
            },
            profile,
            size,
            &faults,
            &mut |done, planned| tick(&bar, done, planned),
        );
        bar.finish_and_clear();
        let run = run?;
        self.reported(bench::write_board_fault_report(
            &self.out,
            &run,
            &self.board,
            self.board_seed,
        ))
    }

    #[cfg(not(feature = "probe"))]
    fn board_faults(&self, _profile: &'static boards::Profile) -> anyhow::Result<()> {
        bail!(
            "the virtual board needs the `probe` feature: cargo run -p hil-tests --features probe -- ..."
        )
    }
}
