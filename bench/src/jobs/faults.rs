//! The fault campaigns as [`Campaign`]s: the cage's (SIL, PIL or both in lockstep; each size
//! asked) and, with `probe`, the virtual board's board faults made at register level.

use std::ops::ControlFlow;
use std::path::Path;

use shards::ShardId;

use super::{Campaign, Given, JobError, Tick, Trials};
use crate::config::RunSpec;
use crate::faults::FaultRun;
use crate::report::Depends;
use crate::shard::faults::{Body, CageFaults};

/// The refusal both fault campaigns share: they write a table, no steps.
fn refuse(given: Given) -> Option<&'static str> {
    (given.resume || given.calibrate).then_some(
        "--resume and --calibrate do not apply to --scenario faults (it writes faults.csv and \
         faults.md, no steps)",
    )
}

/// What every suite of a fault campaign's JUnit carries: the board, its seed and the probe.
fn properties(spec: &RunSpec) -> Vec<(&'static str, String)> {
    let mut properties = vec![("board", spec.config.board.clone())];
    if let Some(seed) = spec.board_seed {
        properties.push(("board_seed", seed.to_string()));
    }
    if let Some(probe) = &spec.config.probe {
        properties.push(("probe", probe.to_string()));
    }
    properties
}

/// The cage's fault campaign, M=3 and M=4 unless `--size` names one.
#[derive(Debug)]
pub struct CageFaultsJob {
    spec: RunSpec,
    base: &'static boards::Profile,
    campaign: CageFaults,
    depends: Depends,
}

impl Campaign for CageFaultsJob {
    const NAME: &'static str = "faults";
    const UNIT: &'static str = "faults";
    const CLASSES: &'static [&'static str] = &crate::faults::Verdict::WORDS;
    const FAILS: &'static [&'static str] = &[];
    const FILES: &'static [&'static str] = &["faults.csv", "faults.md"];
    const REPORT: &'static str = "fault report";
    const KEPT: &'static str = "the faults finished";
    const BODY: &'static str = "the bench's fault campaign";
    type Body = Body;
    type Merged = Vec<FaultRun>;

    fn refuse(_spec: &RunSpec, given: Given) -> Option<&'static str> {
        refuse(given)
    }

    fn plan(
        spec: &RunSpec,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> Result<Self, JobError> {
        Ok(CageFaultsJob {
            spec: spec.clone(),
            base,
            campaign: CageFaults {
                profile,
                sizes: spec.fault_sizes()?,
                board_arg: spec.config.board.clone(),
                board_seed: spec.board_seed,
            },
            depends: spec.depends(profile, None)?,
        })
    }

    fn depends(&self) -> &Depends {
        &self.depends
    }

    fn bar(&self, _whole: bool) -> Option<Tick> {
        None
    }

    fn run_shard(
        &self,
        id: ShardId,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Result<Body, JobError> {
        let (spec, profile, base) = (&self.spec, self.campaign.profile, self.base);
        self.campaign.run_shard(
            id,
            &mut |size| Ok(spec.fault_target(profile, base, size)?),
            &mut |size, done, owned| {
                progress(&Tick {
                    prefix: format!("M={size} "),
                    done,
                    all: owned,
                })
            },
        )
    }

    fn merge(
        &self,
        dir: &Path,
        bodies: Vec<Body>,
        _verdict: &dyn Fn(&Vec<FaultRun>) -> String,
    ) -> Result<(Vec<FaultRun>, String), JobError> {
        let runs = self.campaign.runs(bodies)?;
        let md = self.campaign.write(dir, &runs)?;
        Ok((runs, md))
    }

    fn trials(runs: &Vec<FaultRun>) -> Trials<'_> {
        Trials::Classes(
            runs.iter()
                .flat_map(|run| run.trials.iter().map(|t| t.verdict.word()))
                .collect(),
        )
    }

    fn junit(
        &self,
        runs: &Vec<FaultRun>,
        _fails: &dyn Fn(&str) -> bool,
    ) -> Option<quick_junit::Report> {
        Some(crate::faults::junit::cage_faults(
            runs,
            &properties(&self.spec),
        ))
    }
}

/// The virtual board's board faults, on M=4 unless `--size` says 3: fault k belongs to
/// shard k mod P.
#[cfg(feature = "probe")]
#[derive(Debug)]
pub struct BoardFaultsJob {
    spec: RunSpec,
    elf: std::path::PathBuf,
    campaign: crate::shard::faults::BoardFaults,
    depends: Depends,
}

#[cfg(feature = "probe")]
impl Campaign for BoardFaultsJob {
    const NAME: &'static str = "faults (on the virtual board)";
    const UNIT: &'static str = "board faults";
    const CLASSES: &'static [&'static str] = &crate::faults::board::BoardVerdict::WORDS;
    const FAILS: &'static [&'static str] = &[];
    const FILES: &'static [&'static str] = &["board-faults.csv", "board-faults.md"];
    const REPORT: &'static str = "fault report";
    const KEPT: &'static str = "the faults finished";
    const BODY: &'static str = "the bench's board-fault campaign";
    type Body = crate::faults::board::BoardFaultShard;
    type Merged = crate::faults::board::BoardFaultRun;

    fn refuse(_spec: &RunSpec, given: Given) -> Option<&'static str> {
        refuse(given)
    }

    fn plan(
        spec: &RunSpec,
        profile: &'static boards::Profile,
        _base: &'static boards::Profile,
    ) -> Result<Self, JobError> {
        // One size: `RunSpec::fault_sizes` gives the virtual board M=4 or the one asked.
        let Some(&size) = spec.fault_sizes()?.first() else {
            return Err(JobError::NoSize);
        };
        let elf = spec.config.board_elf()?;
        Ok(BoardFaultsJob {
            spec: spec.clone(),
            elf,
            campaign: crate::shard::faults::BoardFaults {
                profile,
                size,
                faults: crate::faults::board::board_faults(profile),
                board_arg: spec.config.board.clone(),
                board_seed: spec.board_seed,
            },
            depends: spec.depends(profile, None)?,
        })
    }

    fn depends(&self) -> &Depends {
        &self.depends
    }

    fn bar(&self, _whole: bool) -> Option<Tick> {
        Some(self.tick(0, 0))
    }

    fn run_shard(
        &self,
        id: ShardId,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Result<Self::Body, JobError> {
        self.campaign.run_shard(
            id,
            &mut |faults| self.spec.faulty_board(&self.elf, faults),
            &mut |done, owned| progress(&self.tick(done, owned)),
        )
    }

    fn merge(
        &self,
        dir: &Path,
        bodies: Vec<Self::Body>,
        _verdict: &dyn Fn(&Self::Merged) -> String,
    ) -> Result<(Self::Merged, String), JobError> {
        let run = self.campaign.run(bodies)?;
        let md = self.campaign.write(dir, &run)?;
        Ok((run, md))
    }

    fn trials(run: &Self::Merged) -> Trials<'_> {
        Trials::Classes(run.trials.iter().map(|t| t.verdict.word()).collect())
    }

    fn junit(
        &self,
        run: &Self::Merged,
        _fails: &dyn Fn(&str) -> bool,
    ) -> Option<quick_junit::Report> {
        Some(crate::faults::junit::board_faults(
            run,
            &properties(&self.spec),
        ))
    }
}

#[cfg(feature = "probe")]
impl BoardFaultsJob {
    /// The campaign's one bar, on its size.
    fn tick(&self, done: usize, all: usize) -> Tick {
        Tick {
            prefix: format!("M={} ", self.campaign.size.get()),
            done,
            all,
        }
    }
}
