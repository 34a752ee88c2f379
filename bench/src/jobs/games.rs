//! The games of a scenario in shards as a [`Campaign`]: on one board, or on each board of a
//! sweep of drawn boards (`--board-seeds A..B`), whose one-process run writes each board's
//! report as it goes.

use std::ops::ControlFlow;
use std::path::Path;

use heuristic::Size;
use shards::{Job, ShardId};

use super::{Campaign, Given, JobError, Tick, Trials};
use crate::config::RunSpec;
use crate::dut::Dut;
use crate::report::{Depends, Existing};
use crate::run::kind::ScenarioKind;
use crate::run::scenario::Scenario;
use crate::shard::games::{Boards, Body, Games, Written};

/// The games of a run in shards, or on a sweep of drawn boards.
#[derive(Debug)]
pub struct GamesJob {
    spec: RunSpec,
    profile: &'static boards::Profile,
    base: &'static boards::Profile,
    scenario: Scenario,
    depends: Depends,
}

impl GamesJob {
    /// The games, as `shard::games` plays and merges them.
    fn games(&self) -> Games<'_> {
        Games {
            profile: self.profile,
            scenario: &self.scenario,
            boards: match self.spec.board_seeds {
                Some(seeds) => Boards::Sweep(seeds),
                None => Boards::One(self.spec.board_seed),
            },
            board_arg: self.spec.config.board.clone(),
            elf_sha256: self.depends.elf_sha256.clone(),
        }
    }

    /// The target on the board drawn from `seed`.
    fn connect(&self, seed: Option<u64>) -> Result<Box<dyn Dut>, JobError> {
        let size = self.scenario.size;
        Ok(self
            .spec
            .open(self.profile, self.base, size, seed, None)?
            .into_target())
    }

    /// Progress over the run's games.
    fn tick(done: usize, all: usize) -> Tick {
        Tick {
            prefix: String::new(),
            done,
            all,
        }
    }
}

impl Campaign for GamesJob {
    const NAME: &'static str = "games";
    const UNIT: &'static str = "games";
    const CLASSES: &'static [&'static str] = &[];
    const FAILS: &'static [&'static str] = &[];
    const FILES: &'static [&'static str] = &[];
    const REPORT: &'static str = "report";
    const KEPT: &'static str = "the games finished";
    const BODY: &'static str = "the bench's games";
    type Body = Body;
    type Merged = Written;

    fn refuse(spec: &RunSpec, given: Given) -> Option<&'static str> {
        if given.resume && !given.whole {
            return Some(
                "--resume goes with a one-process run: a shard already written is kept, and \
                 --merge writes the report afresh",
            );
        }
        if given.calibrate || given.junit {
            return Some(
                "--calibrate and --junit read one board's one-process report: run them without \
                 --shard, --merge, --slurm, --status or --board-seeds",
            );
        }
        (spec.scenario == ScenarioKind::Guided).then_some(
            "--scenario guided is one operator's game: it runs on one board, in one process",
        )
    }

    fn plan(
        spec: &RunSpec,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> Result<Self, JobError> {
        let size = spec.size.map(Size::new).transpose()?;
        let scenario = spec.scenario.scenario(size, spec.games, spec.seed)?;
        let depends = spec.depends(profile, scenario.source_sha256.clone())?;
        Ok(GamesJob {
            spec: spec.clone(),
            profile,
            base,
            scenario,
            depends,
        })
    }

    fn depends(&self) -> &Depends {
        &self.depends
    }

    fn bar(&self, _whole: bool) -> Option<Tick> {
        Some(Self::tick(0, 0))
    }

    fn run_shard(
        &self,
        id: ShardId,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Result<Body, JobError> {
        self.games()
            .run_shard(id, &mut |seed| self.connect(seed), &mut |done, all| {
                progress(&Self::tick(done, all))
            })
    }

    fn merge(
        &self,
        dir: &Path,
        bodies: Vec<Body>,
        _verdict: &dyn Fn(&Written) -> String,
    ) -> Result<(Written, String), JobError> {
        let written = self.games().merge(dir, bodies)?;
        let md = written.markdown.clone();
        Ok((written, md))
    }

    fn trials(written: &Written) -> Trials<'_> {
        Trials::Steps {
            failures: written.failures,
            steps: written.steps,
        }
    }

    fn junit(&self, _: &Written, _: &dyn Fn(&str) -> bool) -> Option<quick_junit::Report> {
        None
    }

    fn whole(
        &self,
        dir: &Path,
        job: &Job,
        existing: Existing,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Option<Result<(Written, String), JobError>> {
        let mut swept = || -> Result<(Written, String), JobError> {
            let _lock = crate::shard::lock(dir, &job.command_with(&[]))?;
            let written = self.games().sweep(
                dir,
                existing,
                &mut |seed| self.connect(seed),
                &mut |done, all| progress(&Self::tick(done, all)),
            )?;
            let md = written.markdown.clone();
            Ok((written, md))
        };
        Some(swept())
    }
}
