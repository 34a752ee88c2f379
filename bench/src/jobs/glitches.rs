//! The glitch campaign on the virtual board as a [`Campaign`]: its one-process run stored in
//! chunks as it goes, on one board, so that `--resume` goes on after a kill.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::path::Path;

use shards::ShardId;

use super::{Campaign, Given, JobError, Tick, Trials};
use crate::config::{DEFAULT_PACE_MS, RunSpec};
use crate::faults::glitches::{GlitchClass, GlitchResults as Glitches, Kinds, Prepared, Window};
use crate::report::Depends;
use crate::shard::glitches::{Body, GlitchCampaign, chunks};

/// The glitch campaign of a run.
pub struct GlitchJob {
    spec: RunSpec,
    campaign: GlitchCampaign,
    /// The report's own words for the command (a byte of glitches.md).
    command: String,
    depends: Depends,
    /// One board for every shard the process plays (started at the first).
    board: RefCell<Option<Prepared>>,
}

impl std::fmt::Debug for GlitchJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GlitchJob")
            .field("campaign", &self.campaign)
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

/// The command glitches.md prints to run the campaign again: `hil-tests run` and the options
/// that decide its trials, each written from the spec's own value (the plan's options only
/// when they are not the default). `--stage` is printed by its old name, `--target`, as the
/// reports have always printed it. `tests/spec.rs` parses it back into the same plan.
pub fn command(spec: &RunSpec) -> String {
    let plan = spec.glitch_plan();
    let given = |value: String, not_default: bool| not_default.then_some(value);
    let options = [
        ("--stage", Some(spec.config.stage.arg())),
        (
            "--probe",
            spec.config.probe.as_ref().map(ToString::to_string),
        ),
        ("--scenario", Some(spec.scenario.to_string())),
        ("--trials", Some(plan.trials.to_string())),
        ("--seed", Some(plan.seed.to_string())),
        (
            "--window",
            given(plan.window.to_string(), plan.window != Window::WHOLE),
        ),
        (
            "--kinds",
            given(plan.kinds.to_string(), plan.kinds != Kinds::default()),
        ),
        (
            "--pace-ms",
            given(plan.pace_ms.to_string(), plan.pace_ms != DEFAULT_PACE_MS),
        ),
        ("--board-seed", spec.board_seed.map(|seed| seed.to_string())),
    ];
    let mut command = String::from("hil-tests run");
    for (option, value) in options {
        if let Some(value) = value {
            command.push_str(&format!(" {option} {value}"));
        }
    }
    command
}

impl Campaign for GlitchJob {
    const NAME: &'static str = "glitches";
    const UNIT: &'static str = "trials";
    const CLASSES: &'static [&'static str] = &GlitchClass::WORDS;
    const FAILS: &'static [&'static str] = &[GlitchClass::Late.word(), GlitchClass::Silent.word()];
    const FILES: &'static [&'static str] = &["glitches.md", "glitches.csv"];
    const REPORT: &'static str = "glitch report";
    const KEPT: &'static str = "the trials finished";
    const BODY: &'static str = "the bench's glitch campaign";
    type Body = Body;
    type Merged = Glitches;

    fn refuse(_spec: &RunSpec, given: Given) -> Option<&'static str> {
        if given.calibrate {
            return Some(
                "--calibrate does not apply to --scenario glitches (it fits part values from games' steps)",
            );
        }
        (given.resume && !given.whole).then_some(
            "--resume goes on with a one-process campaign; a shard (--shard K/P) keeps its file \
             whole already, and --merge, --slurm and --status run no trial",
        )
    }

    fn plan(
        spec: &RunSpec,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> Result<Self, JobError> {
        let plan = spec.glitch_plan();
        let campaign = GlitchCampaign {
            elf: spec.config.board_elf()?,
            board_arg: spec.config.board.clone(),
            profile,
            base,
            board_seed: spec.board_seed,
            plan: plan.clone(),
        };
        let command = command(spec);
        Ok(GlitchJob {
            spec: spec.clone(),
            campaign,
            command,
            depends: spec.depends(profile, None)?,
            board: RefCell::new(None),
        })
    }

    fn depends(&self) -> &Depends {
        &self.depends
    }

    fn bar(&self, whole: bool) -> Option<Tick> {
        Some(Tick {
            prefix: String::new(),
            done: 0,
            all: match whole {
                true => self.campaign.plan.trials as usize,
                false => 0,
            },
        })
    }

    fn run_shard(
        &self,
        id: ShardId,
        progress: &mut dyn FnMut(&Tick) -> ControlFlow<()>,
    ) -> Result<Body, JobError> {
        let mut board = self.board.borrow_mut();
        let prepared = match &mut *board {
            Some(prepared) => prepared,
            None => {
                let trials = self.spec.trial_board(&self.campaign.elf)?;
                board.insert(self.campaign.prepare(trials)?)
            }
        };
        Ok(self.campaign.run_shard_on(prepared, id, &mut |done, all| {
            progress(&Tick {
                prefix: String::new(),
                done,
                all,
            })
        })?)
    }

    fn merge(
        &self,
        dir: &Path,
        bodies: Vec<Body>,
        verdict: &dyn Fn(&Glitches) -> String,
    ) -> Result<(Glitches, String), JobError> {
        let campaign = self.campaign.campaign(bodies)?;
        let md = campaign.write(dir, &self.command, &verdict(&campaign))?;
        Ok((campaign, md))
    }

    fn trials(campaign: &Glitches) -> Trials<'_> {
        Trials::Classes(
            campaign
                .trials
                .iter()
                .map(|t| t.judgement.class.word())
                .collect(),
        )
    }

    fn junit(
        &self,
        campaign: &Glitches,
        fails: &dyn Fn(&str) -> bool,
    ) -> Option<quick_junit::Report> {
        Some(crate::faults::junit::glitches(
            campaign,
            fails,
            &[("board", self.spec.config.board.clone())],
        ))
    }

    fn timing(campaign: &Glitches) -> Option<String> {
        Some(campaign.timing())
    }

    fn chunks(&self) -> Option<(u32, u64)> {
        let trials = self.campaign.plan.trials;
        Some((chunks(trials), trials))
    }
}
