//! The run as JUnit XML (`hil-tests run --junit FILE`), the file every CI tool shows: one test
//! case per game, or per check of a campaign or of doctor. A game fails when a step is one of
//! the bench's own failures ([`Class::Wiring`], [`Class::Fault`]); a divergence the heuristic
//! explains (a tie, quantisation, pull-ups, tolerance) is a finding, not a failure, and is in
//! the case's output. A game during which the bench sent a command again after a lost reply is
//! recorded as Surefire records a flaky test: passed, with a `flakyFailure`.
//!
//! quick-junit (cargo-nextest's writer) writes the XML; its strings drop what XML 1.0 cannot
//! hold (control characters, ANSI escapes), and its writer escapes the rest, so a board's or a
//! firmware's log cannot break the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quick_junit::{
    NonSuccessKind, Report as Junit, TestCase, TestCaseStatus, TestRerun, TestSuite,
};

use crate::check::protocol::{Check, StepVerdict};
use crate::check::{Class, StepLine};
use crate::report::Header;

/// The JUnit file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum JunitError {
    /// The XML could not be made.
    #[error("cannot write JUnit XML: {0}")]
    Serialize(#[from] quick_junit::SerializeError),
    /// The file could not be written.
    #[error("cannot write the JUnit file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What a run was, beyond its report's header: the properties every case carries.
#[derive(Clone, Debug, Default)]
pub struct RunProperties {
    /// The probe (`qemu`, `virtual`, a probe selector), for HIL.
    pub probe: Option<String>,
    /// The seed of the scenario's games.
    pub seed: Option<u64>,
}

fn properties(header: &Header, run: &RunProperties) -> Vec<(&'static str, String)> {
    let mut all = vec![
        ("stage", header.stage.to_string()),
        ("firmware", header.firmware.clone()),
        ("board", header.board.clone()),
        ("scenario", header.scenario.clone()),
        ("size", header.size.to_string()),
    ];
    if let Some(profile) = &header.profile {
        all.push(("profile", profile.clone()));
    }
    if let Some(probe) = &run.probe {
        all.push(("probe", probe.clone()));
    }
    if let Some(seed) = header.board_seed {
        all.push(("board_seed", seed.to_string()));
    }
    if let Some(seed) = run.seed {
        all.push(("seed", seed.to_string()));
    }
    if let Some(elf) = &header.depends.elf_sha256 {
        all.push(("elf_sha256", elf.clone()));
    }
    all
}

fn suite(header: &Header, run: &RunProperties) -> TestSuite {
    let mut suite = TestSuite::new(format!("{} {}", header.stage, header.scenario));
    for (name, value) in properties(header, run) {
        suite.add_property(quick_junit::Property::new(name, value));
    }
    suite
}

fn class_name(header: &Header) -> String {
    format!("birdcage.{}.{}", header.stage.arg(), header.scenario)
}

/// What a step says, for a failure's text.
fn describe(step: &StepLine) -> String {
    let worst = step.worst.as_ref().map_or("none".to_string(), |(node, d)| {
        format!("{node} by {d} codes")
    });
    format!(
        "step {record}\ncodes      {codes:?}\npredicted  {predicted:?} (band ±{band})\n\
         worst node {worst}\noutcome    {outcome}\nchosen     {chosen}\nideal      {ideal} \
         (tied: {tied})\nclass      {class:?}: {detail}\n",
        record = if step.record.is_empty() {
            "(start)"
        } else {
            &step.record
        },
        codes = step.codes,
        predicted = step.predicted,
        band = step.band,
        outcome = step.outcome,
        chosen = step.chosen.as_deref().unwrap_or("-"),
        ideal = step.ideal.as_deref().unwrap_or("-"),
        tied = step.tied.join(","),
        class = step.class,
        detail = step.detail,
    )
}

/// The games of a report, one case each. `resent` counts, per game, the commands the bench
/// sent again after a lost reply.
pub fn games(
    header: &Header,
    steps: &[StepLine],
    resent: &BTreeMap<usize, u64>,
    run: &RunProperties,
) -> Junit {
    let mut by_game: BTreeMap<usize, Vec<&StepLine>> = BTreeMap::new();
    for step in steps {
        by_game.entry(step.game).or_default().push(step);
    }
    let mut suite = suite(header, run);
    let class = class_name(header);
    for (game, steps) in &by_game {
        let last = steps.last().map_or("", |s| s.record.as_str());
        let failed = steps.iter().find(|s| s.class.is_failure());
        let flaky = resent.get(game).copied().unwrap_or(0);
        let flaky_run = || {
            let mut rerun = TestRerun::new(NonSuccessKind::Failure);
            rerun.set_type("lost reply").set_message(format!(
                "{flaky} command(s) sent again with their number after a lost reply"
            ));
            rerun
        };
        let status = match failed {
            Some(step) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_type(format!("{:?}", step.class))
                    .set_message(format!(
                        "game {game}, step {}: {:?}: {}",
                        if step.record.is_empty() {
                            "(start)"
                        } else {
                            &step.record
                        },
                        step.class,
                        step.detail
                    ))
                    .set_description(describe(step));
                if flaky > 0 {
                    status.add_rerun(flaky_run());
                }
                status
            }
            None => {
                let mut status = TestCaseStatus::success();
                if flaky > 0 {
                    status.add_rerun(flaky_run());
                }
                status
            }
        };
        let mut case = TestCase::new(format!("game {game}: {last}"), status);
        case.set_classname(class.clone());
        let findings: Vec<String> = steps
            .iter()
            .filter(|s| !matches!(s.class, Class::Agree))
            .map(|s| describe(s))
            .collect();
        if !findings.is_empty() {
            case.set_system_out(findings.join("\n"));
        }
        suite.add_test_case(case);
    }
    let mut report = Junit::new("hil-tests run");
    report.add_test_suite(suite);
    report
}

/// The steps of doctor's bring-up, one case each (a step that does not apply is skipped),
/// with the probe, the board and the ELF's hash as properties.
pub fn bring_up(checks: &[Check], properties: &[(&str, String)]) -> Junit {
    let mut suite = TestSuite::new("doctor");
    for (name, value) in properties {
        suite.add_property(quick_junit::Property::new(*name, value.as_str()));
    }
    for check in checks {
        let status = match &check.verdict {
            StepVerdict::Pass(_) => TestCaseStatus::success(),
            StepVerdict::Skip(why) => {
                let mut status = TestCaseStatus::skipped();
                status.set_message(why.as_str());
                status
            }
            StepVerdict::Fail { found, fix } => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_message(found.as_str())
                    .set_description(format!("what to do: {fix}"));
                status
            }
        };
        let mut case = TestCase::new(check.step, status);
        case.set_classname("birdcage.doctor");
        if let StepVerdict::Pass(found) = &check.verdict {
            case.set_system_out(found.as_str());
        }
        suite.add_test_case(case);
    }
    let mut report = Junit::new("hil-tests doctor");
    report.add_test_suite(suite);
    report
}

/// Writes `report` to `path` (a temporary file beside it, then renamed, so a reader never
/// sees half a file).
pub fn write(report: &Junit, path: &Path) -> Result<(), JunitError> {
    let xml = report.to_string()?;
    let io = |source| JunitError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, xml).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Depends;

    fn header() -> Header {
        Header {
            stage: crate::dut::Stage::Hil,
            firmware: "birdcage-fw 0.1.0".into(),
            board: "nucleo-f446re".into(),
            profile: None,
            board_seed: Some(7),
            scenario: "random4".into(),
            size: 4,
            games: 2,
            depends: Depends {
                profile_sha256: None,
                elf_sha256: Some("ab12".into()),
                records_sha256: None,
            },
        }
    }

    fn step(game: usize, record: &str, class: Class, detail: &str) -> StepLine {
        StepLine {
            game,
            record: record.into(),
            codes: vec![512, 300],
            predicted: vec![510, 301],
            band: 4,
            worst: Some(("n1".into(), 2)),
            outcome: "moved".into(),
            chosen: Some("C5".into()),
            ideal: Some("A7".into()),
            tied: vec!["A7".into()],
            margin: 0.1,
            class,
            detail: detail.into(),
        }
    }

    #[test]
    fn a_fault_fails_its_game_with_the_step_codes_and_prediction() {
        let steps = [
            step(0, "A7", Class::Agree, ""),
            step(1, "A7,c5", Class::Fault, "the firmware refused"),
        ];
        let xml = games(
            &header(),
            &steps,
            &BTreeMap::new(),
            &RunProperties::default(),
        )
        .to_string()
        .unwrap();
        assert!(xml.contains(r#"tests="2""#), "{xml}");
        assert!(xml.contains(r#"failures="1""#), "{xml}");
        assert!(
            xml.contains("game 1, step A7,c5: Fault: the firmware refused"),
            "{xml}"
        );
        assert!(xml.contains("codes      [512, 300]"), "{xml}");
        assert!(xml.contains("predicted  [510, 301] (band ±4)"), "{xml}");
        assert!(
            xml.contains(r#"<property name="elf_sha256" value="ab12"/>"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<property name="board_seed" value="7"/>"#),
            "{xml}"
        );
    }

    #[test]
    fn a_game_with_a_command_sent_again_passes_as_flaky() {
        let steps = [step(0, "A7", Class::Agree, "")];
        let resent = BTreeMap::from([(0, 2)]);
        let xml = games(&header(), &steps, &resent, &RunProperties::default())
            .to_string()
            .unwrap();
        assert!(xml.contains(r#"failures="0""#), "{xml}");
        assert!(xml.contains("<flakyFailure"), "{xml}");
        assert!(xml.contains("2 command(s) sent again"), "{xml}");
    }

    #[test]
    fn a_bring_up_step_fails_with_what_to_do_and_one_that_does_not_apply_is_skipped() {
        let checks = [
            Check::pass("probe found", "gdb:unix:/tmp/x"),
            Check::skip("edge fixture probe", "a bare cage"),
            Check::fail(
                "RTT control block found",
                "no _SEGGER_RTT",
                "flash the same ELF",
            ),
        ];
        let xml = bring_up(&checks, &[("probe", "virtual".to_string())])
            .to_string()
            .unwrap();
        assert!(
            xml.contains(r#"tests="3""#) && xml.contains(r#"failures="1""#),
            "{xml}"
        );
        assert!(xml.contains(r#"<skipped message="a bare cage"/>"#), "{xml}");
        assert!(xml.contains("what to do: flash the same ELF"), "{xml}");
        assert!(
            xml.contains(r#"<property name="probe" value="virtual"/>"#),
            "{xml}"
        );
    }

    #[test]
    fn what_a_board_says_cannot_break_the_xml() {
        let hostile = "end ]]> of \u{1b}[31mred\u{1b}[0m \u{0} nul \u{7} bell <tag> & \"q\"";
        let steps = [step(0, "A7", Class::Fault, hostile)];
        let xml = games(
            &header(),
            &steps,
            &BTreeMap::new(),
            &RunProperties::default(),
        )
        .to_string()
        .unwrap();
        assert!(!xml.contains('\u{0}') && !xml.contains('\u{7}') && !xml.contains('\u{1b}'));
        assert!(!xml.contains("]]>"), "{xml}");
        assert!(!xml.contains("<tag>"), "{xml}");
        assert!(xml.contains("&lt;tag&gt; &amp;"), "{xml}");
    }
}
