//! A fault campaign as JUnit XML (`hil-tests run --scenario faults --junit FILE`): one test
//! case per fault, so a CI tool lists every fault and what became of it.
//!
//! A campaign characterises the firmware rather than passing or failing it, so a case fails
//! only where the firmware was beaten: the fault went unnoticed and the machine played
//! another game than on the intact board (it misread the cage, or cut an edge outside the
//! exact ideal network's tied best ones). A fault the firmware, the bench or the LED check
//! noticed passes with their words in the case's output; one the game left unchanged (or
//! changed only within a tie) passes; one that never reached the cage in the reference game
//! is skipped, as a test that did not run.

use quick_junit::{NonSuccessKind, Property, Report as Junit, TestCase, TestCaseStatus, TestSuite};

#[cfg(feature = "probe")]
use crate::faults::board::{BoardFaultRun, BoardVerdict};
use crate::faults::table::fault_detail;
use crate::faults::{FaultRun, Verdict};

/// How a game's verdict reads in JUnit: the status, and the words for the case's output.
fn status(verdict: &Verdict) -> TestCaseStatus {
    match verdict {
        Verdict::Misread { after, what } => failure(
            "misread",
            format!("unnoticed, taken for play after {after} of the machine's moves: {what}"),
        ),
        Verdict::Changed {
            after,
            tied: false,
            what,
        } => failure(
            "changed",
            format!(
                "unnoticed, the machine's move {} changed: {what}",
                after + 1
            ),
        ),
        Verdict::Idle => {
            let mut status = TestCaseStatus::skipped();
            status.set_message("never on the cage in the reference game");
            status
        }
        Verdict::Detected { .. } | Verdict::Silent | Verdict::Changed { tied: true, .. } => {
            TestCaseStatus::success()
        }
    }
}

fn failure(kind: &str, message: String) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status.set_type(kind).set_message(message);
    status
}

/// A campaign's suite. Its timestamp is when the JUnit is made: a campaign's runs carry no
/// start time (its shards may have run on several days). Each case's `time` is its trial's.
fn suite(name: String, properties: &[(&str, String)]) -> TestSuite {
    let mut suite = TestSuite::new(name);
    suite.set_timestamp(crate::report::junit::now());
    for (name, value) in properties {
        suite.add_property(Property::new(*name, value.as_str()));
    }
    suite
}

/// The cage's fault campaign: one suite per size, one case per fault (class the kind, name
/// the place). `properties` (board, seed, ELF hash, ...) go on every suite.
pub fn cage_faults(runs: &[FaultRun], properties: &[(&str, String)]) -> Junit {
    let mut report = Junit::new("hil-tests run --scenario faults");
    for run in runs {
        let mut suite = suite(format!("{} faults M={}", run.stage, run.size), properties);
        suite.add_property(Property::new("stage", run.stage.to_string()));
        suite.add_property(Property::new("size", run.size.to_string()));
        suite.add_property(Property::new("reference", run.reference.as_str()));
        for trial in &run.trials {
            let mut case = TestCase::new(trial.place.as_str(), status(&trial.verdict));
            if let Some(took) = trial.took {
                case.set_time(took);
            }
            case.set_classname(format!(
                "birdcage.{}.faults.m{}.{}",
                run.stage.arg(),
                run.size,
                trial.kind.label()
            ));
            // A failure's or a skip's message says what became of the fault; a pass keeps
            // its words (who noticed it, what changed within a tie) in the output.
            if matches!(case.status, TestCaseStatus::Success { .. }) {
                let (verdict, after, detail) = fault_detail(trial);
                let after = after.map_or(String::new(), |a| format!(" after {a} moves"));
                let detail = if detail.is_empty() {
                    String::new()
                } else {
                    format!(": {detail}")
                };
                case.set_system_out(format!("{verdict}{after}{detail}"));
            }
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report
}

/// The virtual board's board-fault campaign (with probe-rs, as the campaign): one case per fault (`virtual-board --fault`'s
/// words), with what to check on a real board in its output.
#[cfg(feature = "probe")]
pub fn board_faults(run: &BoardFaultRun, properties: &[(&str, String)]) -> Junit {
    let mut suite = suite(format!("HIL board faults M={}", run.size), properties);
    suite.add_property(Property::new("size", run.size.to_string()));
    suite.add_property(Property::new("reference", run.reference.as_str()));
    for trial in &run.trials {
        let status = match &trial.verdict {
            BoardVerdict::Game(verdict) => status(verdict),
            BoardVerdict::Stopped { .. } | BoardVerdict::Dark { .. } => TestCaseStatus::success(),
        };
        let mut case = TestCase::new(trial.fault.as_str(), status);
        if let Some(took) = trial.took {
            case.set_time(took);
        }
        case.set_classname(format!("birdcage.hil.board-faults.m{}", run.size));
        case.set_system_out(format!(
            "{}: {} ({})\non a real board: {}",
            trial.what,
            trial.verdict.words(),
            trial.verdict.by(),
            trial.check
        ));
        suite.add_test_case(case);
    }
    let mut report = Junit::new("hil-tests run --scenario faults --probe virtual");
    report.add_test_suite(suite);
    report
}

/// The glitch campaign: one case per class (its count of the trials, with its 95 %
/// interval, and the first trial in it), failed where `fails` names the class and a trial
/// fell in it, so a CI tool shows the campaign as the table does. Each case's `time` is its
/// trials' total.
#[cfg(feature = "probe")]
pub fn glitches(
    campaign: &crate::faults::glitches::GlitchResults,
    fails: &dyn Fn(&str) -> bool,
    properties: &[(&str, String)],
) -> Junit {
    use crate::faults::glitches::GlitchClass;
    let mut suite = suite("HIL glitch campaign".to_string(), properties);
    suite.add_property(Property::new("seed", campaign.plan.seed.to_string()));
    suite.add_property(Property::new("trials", campaign.trials.len().to_string()));
    let total = campaign.trials.len() as u64;
    for class in GlitchClass::ALL {
        let of: Vec<(usize, &crate::faults::glitches::Judged)> = campaign
            .trials
            .iter()
            .enumerate()
            .filter(|(_, t)| t.judgement.class == class)
            .collect();
        let counted = format!(
            "{} of {total} trials",
            crate::faults::interval::with_interval(of.len() as u64, total)
        );
        let status = if fails(class.word()) && !of.is_empty() {
            failure(class.word(), counted.clone())
        } else {
            TestCaseStatus::success()
        };
        let mut case = TestCase::new(class.name(), status);
        case.set_classname("birdcage.hil.glitches");
        case.set_time(std::time::Duration::from_secs_f64(
            of.iter().map(|(_, t)| t.ms).sum::<f64>() / 1000.0,
        ));
        let example = of.first().map_or(String::new(), |(i, t)| {
            format!("\nfirst: trial {} `{}` -> {}", i + 1, t.trial, t.end)
        });
        case.set_system_out(format!("{counted}{example}"));
        suite.add_test_case(case);
    }
    let mut report = Junit::new("hil-tests run --scenario glitches");
    report.add_test_suite(suite);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faults::Trial;
    use crate::faults::kinds::FaultKind;

    fn trial(place: &str, verdict: Verdict) -> Trial {
        Trial {
            size: 3,
            kind: FaultKind::Open,
            place: place.into(),
            verdict,
            active_from: Some(0),
            bench_saw: false,
            took: Some(std::time::Duration::from_millis(1250)),
        }
    }

    fn run(trials: Vec<Trial>) -> FaultRun {
        FaultRun {
            stage: crate::dut::Stage::Sil.into(),
            size: 3,
            reference: "A5,c5".into(),
            planned: trials.len(),
            trials,
        }
    }

    #[test]
    fn only_a_fault_that_changed_the_game_unnoticed_fails_and_an_idle_one_is_skipped() {
        let trials = vec![
            trial(
                "A1",
                Verdict::Detected {
                    after: 1,
                    fault: "open at A1".into(),
                },
            ),
            trial("A3", Verdict::Silent),
            trial(
                "A5",
                Verdict::Changed {
                    after: 2,
                    tied: true,
                    what: "C3 for C1".into(),
                },
            ),
            trial(
                "B2",
                Verdict::Changed {
                    after: 2,
                    tied: false,
                    what: "B4 for C1".into(),
                },
            ),
            trial(
                "B4",
                Verdict::Misread {
                    after: 0,
                    what: "a short at B4".into(),
                },
            ),
            trial("C1", Verdict::Idle),
        ];
        let xml = cage_faults(&[run(trials)], &[("board", "nucleo-f446re".into())])
            .to_string()
            .unwrap();
        assert!(
            xml.contains(r#"tests="6" disabled="1" errors="0" failures="2""#),
            "{xml}"
        );
        assert!(xml.contains(r#"<property name="board" value="nucleo-f446re"/>"#));
        // The failures name what happened; the passes keep their words in the output.
        assert!(xml.contains("move 3 changed: B4 for C1"), "{xml}");
        assert!(xml.contains("taken for play after 0 of the machine"));
        assert!(xml.contains("detected after 1 moves: open at A1"), "{xml}");
        assert!(xml.contains("never on the cage in the reference game"));
        // Each fault's words once, and no words missing after a colon.
        assert_eq!(xml.matches("B4 for C1").count(), 1, "{xml}");
        assert_eq!(xml.matches("a short at B4").count(), 1, "{xml}");
        assert_eq!(xml.matches("never on the cage").count(), 1, "{xml}");
        assert!(xml.contains("<system-out>silent</system-out>"), "{xml}");
        assert!(!xml.contains(": </system-out>"), "{xml}");
        assert_eq!(xml.matches(" timestamp=\"").count(), 1, "{xml}");
        crate::report::junit::assert_dashboard_ready(&xml);
    }

    /// Issue 52: a campaign's cases had no `time`; each trial is timed where it runs.
    #[test]
    fn every_fault_trial_run_has_its_time_and_the_suite_its_timestamp() {
        let profile = &boards::NUCLEO_F446RE;
        let size = heuristic::Size::M3;
        let mut sil = crate::dut::sil::Sil::new(profile, size, None).unwrap();
        let part =
            crate::faults::fault_campaign_shard(&mut sil, profile, size, &|i| i < 3, &mut |_| {
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        let run = FaultRun {
            stage: part.stage,
            size: part.size,
            reference: part.reference,
            planned: part.planned,
            trials: part.trials.into_iter().map(|(_, t)| t).collect(),
        };
        assert_eq!(run.trials.len(), 3);
        let xml = crate::report::junit::xml(&cage_faults(&[run], &[])).unwrap();
        crate::report::junit::assert_dashboard_ready(&xml);
    }

    /// A shard written before trials were timed still reads, its cases without `time`, and
    /// a trial's time does not make two trials of the same finding differ.
    #[test]
    fn a_shard_trial_without_its_time_reads_and_equals_a_timed_one() {
        let timed = trial("A1", Verdict::Silent);
        let json = serde_json::to_string(&timed).unwrap();
        let old = json.replace(r#","took":{"secs":1,"nanos":250000000}"#, "");
        assert_ne!(old, json);
        let read: Trial = serde_json::from_str(&old).unwrap();
        assert_eq!(read.took, None);
        assert_eq!(read, timed);
    }

    #[cfg(feature = "probe")]
    #[test]
    fn a_board_fault_the_bench_or_the_leds_noticed_passes_with_what_to_check() {
        let trial = |fault: &str, verdict: BoardVerdict| crate::faults::board::BoardTrial {
            fault: fault.into(),
            what: format!("{fault} broken"),
            verdict,
            check: "measure the pin".into(),
            took: Some(std::time::Duration::from_millis(1250)),
        };
        let run = BoardFaultRun {
            size: 4,
            reference: "A7".into(),
            planned: 3,
            trials: vec![
                trial(
                    "stuck:PA0=0",
                    BoardVerdict::Stopped {
                        said: "the board hung".into(),
                    },
                ),
                trial(
                    "dark:PB1",
                    BoardVerdict::Dark {
                        leds: "row 1 (PB1)".into(),
                    },
                ),
                trial(
                    "open:PA1",
                    BoardVerdict::Game(Verdict::Misread {
                        after: 1,
                        what: "a short".into(),
                    }),
                ),
            ],
        };
        let xml = board_faults(&run, &[]).to_string().unwrap();
        assert!(
            xml.contains(r#"tests="3" disabled="0" errors="0" failures="1""#),
            "{xml}"
        );
        assert!(xml.contains("on a real board: measure the pin"));
        assert!(xml.contains("these stay dark: row 1 (PB1)"));
        crate::report::junit::assert_dashboard_ready(&xml);
    }
}
