//! The bench's sharded jobs on the command line: [`JOBS`], which runs are each one's, and
//! [`Run::job`], the one function that runs any of them (`bench::jobs::Campaign`) in any
//! mode of the shard model, prints what it wrote and judges it.

use anyhow::bail;
use bench::jobs::{Campaign, Given, JobError, Tick, Trials};
use bench::jobs::{faults::BoardFaultsJob, faults::CageFaultsJob};
use bench::jobs::{games::GamesJob, glitches::GlitchJob};
use bench::{Existing, RunSpec, ScenarioKind};
use indicatif::ProgressBar;
use shards::{Job, Mode, Outcome};

use super::{FailOn, Run};
use crate::exit::Verdict;
use crate::progress::{progress, tick};
use crate::stop::{self, STOP_SIGNALS};

/// One of the bench's jobs: whether a run (its spec; `sharded`: a mode other than the
/// one-process run) is its own, and the function that runs it.
pub(super) struct Row {
    pub is: fn(&RunSpec, bool) -> bool,
    pub run: fn(&Run, &'static boards::Profile, &'static boards::Profile) -> JobResult,
}

/// What a job comes to.
type JobResult = anyhow::Result<Verdict>;

/// The jobs, the first whose `is` holds runs; a run that is none of them is one process
/// playing one board's games.
pub(super) const JOBS: [Row; 4] = [
    Row {
        is: |spec, _| spec.scenario == ScenarioKind::Faults && !spec.config.is_virtual_board(),
        run: Run::job::<CageFaultsJob>,
    },
    Row {
        is: |spec, _| spec.scenario == ScenarioKind::Faults,
        run: Run::job::<BoardFaultsJob>,
    },
    Row {
        is: |spec, _| spec.scenario == ScenarioKind::Glitches,
        run: Run::job::<GlitchJob>,
    },
    Row {
        is: |spec, sharded| sharded || spec.board_seeds.is_some(),
        run: Run::job::<GamesJob>,
    },
];

/// One progress bar per prefix (a fault campaign's board size), as a job moves on.
#[derive(Default)]
struct Bars {
    prefix: Option<String>,
    bar: Option<ProgressBar>,
}

impl Bars {
    fn tick(&mut self, unit: &str, t: &Tick) -> std::ops::ControlFlow<()> {
        if self.prefix.as_deref() != Some(t.prefix.as_str()) {
            self.finish();
            self.prefix = Some(t.prefix.clone());
            self.bar = Some(progress(&t.prefix, unit, t.all));
        }
        let bar = self.bar.get_or_insert_with(ProgressBar::hidden);
        tick(bar, t.done, t.all)
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Run {
    /// Runs the job `C`: its options checked, its folder and shard job made, then the shard
    /// model's mode; a merged report is printed, written as JUnit and judged.
    fn job<C: Campaign>(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
    ) -> JobResult {
        if C::CLASSES.is_empty() && self.fail_on.is_some() {
            bail!(
                "--fail-on is the criterion of a campaign (--scenario faults or glitches); a run \
                 of games fails on any board or firmware fault"
            );
        }
        let mode = self.shards.checked_mode()?;
        let whole = mode == Mode::Whole;
        let given = Given {
            whole,
            resume: self.resume,
            calibrate: self.calibrate,
            junit: self.junit.is_some(),
        };
        if let Some(refused) = C::refuse(&self.spec, given) {
            bail!("{refused}");
        }
        if let Some(report) = C::FILES.first().map(|name| self.out.join(name))
            && whole
            && self.existing() == Existing::Refuse
            && report.exists()
        {
            bail!(
                "{} already holds a {}: --force starts over",
                report.display(),
                C::REPORT
            );
        }
        let fail_on = self.fail_on.clone().unwrap_or_else(|| FailOn::of(C::FAILS));
        if !C::CLASSES.is_empty() {
            fail_on.check(C::CLASSES, C::NAME)?;
        }
        let campaign = C::plan(&self.spec, profile, base)?;
        bench::shard::folder(&self.out)?;
        let job = self
            .spec
            .job(campaign.depends(), self.command()?, crate::version::VERSION);
        stop::on_signals();
        let mut bars = Bars::default();
        if let Some(first) = campaign.bar(whole) {
            bars.prefix = Some(first.prefix.clone());
            bars.bar = Some(progress(&first.prefix, C::UNIT, first.all));
        }
        let outcome = bench::jobs::drive(
            &campaign,
            &self.out,
            &job,
            &mode,
            self.existing(),
            &mut |t| bars.tick(C::UNIT, t),
            &|trials| match trials {
                Trials::Classes(words) => fail_on.line(words.iter().copied()),
                Trials::Steps { .. } => String::new(),
            },
        );
        bars.finish();
        let done = match outcome {
            Ok(Outcome::Merged(done)) => done,
            Ok(other) => return Ok(unmerged(&other, &job, &self.out)),
            Err(e @ JobError::Stopped { .. }) => bail!("stopped ({STOP_SIGNALS}) {e}"),
            // A sweep of boards (games: no classes) writes each board's report as it goes.
            Err(e) if whole && C::CLASSES.is_empty() && !matches!(e, JobError::Report(_)) => bail!(
                "{:#}; {} are in {}, and `--resume` plays the rest",
                anyhow::Error::from(e),
                C::KEPT,
                self.out.display()
            ),
            Err(e) => return Err(e.into()),
        };
        if let Some(path) = &self.junit
            && let Some(xml) = campaign.junit(&done.merged, &|word| fail_on.names(word))
        {
            bench::report::junit::write(&xml, path)?;
        }
        out!("{}", done.markdown);
        if let Some(line) = C::timing(&done.merged) {
            outln!("{line}");
        }
        outln!("Report: {}", self.out.display());
        // A stopped one-process fault campaign writes what it finished, then says so (a
        // campaign in chunks stops before its merge).
        if stop::stopped() && campaign.chunks().is_none() {
            bail!(
                "stopped ({STOP_SIGNALS}); {} are in {}",
                C::KEPT,
                self.out.display()
            );
        }
        Ok(match C::trials(&done.merged) {
            Trials::Classes(words) => match fail_on.judge(words) {
                Ok(held) => Verdict::Passed(held),
                Err(hit) => {
                    Verdict::Failed(format!("{hit}; the report is in {}", self.out.display()))
                }
            },
            Trials::Steps { failures, steps } => self.games_verdict(failures, steps, None),
        })
    }
}

/// Prints what a run that wrote no report did: the shard's file, the submission or the
/// status. A shard written or a submission has no verdict of its own (the merge judges the
/// whole); a status passes when every shard is done, and is [`Verdict::NotAllDone`]
/// otherwise.
fn unmerged<T>(outcome: &Outcome<T>, job: &Job, dir: &std::path::Path) -> Verdict {
    out!("{}", outcome.text(job, dir).unwrap_or_default());
    match outcome.not_all_done() {
        true => Verdict::NotAllDone,
        false => Verdict::Done,
    }
}
