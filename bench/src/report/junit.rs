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

use chrono::{DateTime, Utc};
use quick_junit::{
    NonSuccessKind, Report as Junit, TestCase, TestCaseStatus, TestRerun, TestSuite,
};

use crate::check::protocol::{Check, StepVerdict};
use crate::check::{Class, StepLine};
use crate::report::Header;
use crate::report::played::Played;

/// The JUnit file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum JunitError {
    /// The XML could not be made.
    #[error("cannot write JUnit XML: {0}")]
    Serialize(#[from] quick_junit::SerializeError),
    /// `--junit` names something that is not a regular file.
    #[error(
        "{} exists and is not a regular file (a device, a FIFO, a folder or a link): the JUnit \
         file is only written as a regular file; name another path for --junit",
        .0.display()
    )]
    NotAFile(PathBuf),
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

/// A game's case name: its index and the record of its last decision's position, or
/// `(start position)` when that decision was the first one (an empty record).
fn game_name(game: usize, last: &str) -> String {
    if last.is_empty() {
        format!("game {game} (start position)")
    } else {
        format!("game {game}: {last}")
    }
}

/// The games of a report, one case each. `played` holds what this process saw: the run's
/// start (the suite's `timestamp`), and per game it played, the commands sent again after
/// a lost reply and its time (the case's `time`). A game it did not play (finished before a
/// `--resume`, or replayed from shards) has no `time`: none was measured, and 0 would say it
/// took none.
pub fn games(header: &Header, steps: &[StepLine], played: &Played, run: &RunProperties) -> Junit {
    let mut by_game: BTreeMap<usize, Vec<&StepLine>> = BTreeMap::new();
    for step in steps {
        by_game.entry(step.game).or_default().push(step);
    }
    let mut suite = suite(header, run);
    suite.set_timestamp(DateTime::<Utc>::from(played.started));
    let class = class_name(header);
    for (game, steps) in &by_game {
        let last = steps.last().map_or("", |s| s.record.as_str());
        let failed_at = steps.iter().position(|s| s.class.is_failure());
        let failed = failed_at.map(|i| steps[i]);
        let this = played.games.get(game);
        let flaky = this.map_or(0, |g| g.resent);
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
        let mut case = TestCase::new(game_name(*game, last), status);
        case.set_classname(class.clone());
        if let Some(this) = this {
            case.set_time(this.took);
        }
        // The failing step is in the failure's text: the output holds the other findings.
        let findings: Vec<String> = steps
            .iter()
            .enumerate()
            .filter(|&(i, s)| !matches!(s.class, Class::Agree) && Some(i) != failed_at)
            .map(|(_, s)| describe(s))
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
/// with the probe, the board and the ELF's hash as properties. The suite's timestamp is when
/// this is called (the checks carry no start of their own); each step's `time` is its
/// [`Check::took`] (several steps read from one exchange share one time).
pub fn bring_up(checks: &[Check], properties: &[(&str, String)]) -> Junit {
    let mut suite = TestSuite::new("doctor");
    suite.set_timestamp(now());
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
        if let Some(took) = check.took {
            case.set_time(took);
        }
        if let StepVerdict::Pass(found) = &check.verdict {
            case.set_system_out(found.as_str());
        }
        suite.add_test_case(case);
    }
    let mut report = Junit::new("hil-tests doctor");
    report.add_test_suite(suite);
    report
}

/// Asserts what a dashboard needs of `xml`: every `testcase` has a `time` that is a
/// non-negative number of seconds, every `testsuite` a `timestamp` (issue 52).
#[cfg(test)]
pub(crate) fn assert_dashboard_ready(xml: &str) {
    let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let named = |tag: &'static str| {
        doc.descendants()
            .filter(move |n| n.has_tag_name(tag))
            .collect::<Vec<_>>()
    };
    let (suites, cases) = (named("testsuite"), named("testcase"));
    assert!(!suites.is_empty() && !cases.is_empty(), "{xml}");
    for suite in suites {
        assert!(suite.attribute("timestamp").is_some(), "{xml}");
    }
    for case in cases {
        let time = case
            .attribute("time")
            .unwrap_or_else(|| panic!("no time: {xml}"));
        let seconds: f64 = time.parse().unwrap_or_else(|e| panic!("{time}: {e}"));
        assert!(seconds >= 0.0 && seconds.is_finite(), "{time}");
    }
}

/// Now, as a suite's timestamp, for the JUnit files whose run carries no start of its own.
pub(crate) fn now() -> DateTime<Utc> {
    DateTime::<Utc>::from(std::time::SystemTime::now())
}

/// The XML of `report`, well-formed whatever its text holds. quick-junit drops the control
/// characters XML 1.0 forbids but lets the noncharacters U+FFFE and U+FFFF through (a
/// profile's name or a log can hold them), which XML forbids too, even as `&#xFFFE;`: they
/// become U+FFFD, the replacement character. The markup quick-junit writes is ASCII, so
/// replacing them in the whole document touches text and attribute values only.
pub fn xml(report: &Junit) -> Result<String, JunitError> {
    Ok(report
        .to_string()?
        .replace(['\u{FFFE}', '\u{FFFF}'], "\u{FFFD}"))
}

/// Writes `report` to `path`: a temporary file beside it, then renamed, so a reader never
/// sees half a file. `path` must be a regular file or nothing: a device, a FIFO, a folder or
/// a link is refused (renaming over `/dev/null` would replace it). The temporary file has a
/// name no one can plant beforehand: made with `O_CREAT | O_EXCL | O_NOFOLLOW`, it is a new
/// file or an error, never a link someone left there (the one writer, `shards::safe`).
pub fn write(report: &Junit, path: &Path) -> Result<(), JunitError> {
    let xml = xml(report)?;
    shards::safe::write_file(path, xml.as_bytes()).map_err(|e| match e {
        shards::FileError::NotRegular { .. } | shards::FileError::NotAFolder { .. } => {
            JunitError::NotAFile(path.to_path_buf())
        }
        shards::FileError::Read { source, .. } | shards::FileError::Write { source, .. } => {
            JunitError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
        // Another user's link on the way, or a loop: the refusal names its own path.
        e @ (shards::FileError::ForeignLink { .. } | shards::FileError::TooManyLinks { .. }) => {
            JunitError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::other(e),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Depends;
    use crate::report::played::GamePlayed;
    use std::os::unix::fs::FileTypeExt;
    use std::time::{Duration, SystemTime};

    fn header() -> Header {
        Header {
            stage: crate::dut::Stage::Hil.into(),
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
                ..Depends::default()
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
        let xml = games(&header(), &steps, &Played::now(), &RunProperties::default())
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
    fn each_game_played_has_its_time_and_the_suite_the_run_start() {
        let steps = [
            step(0, "A7", Class::Agree, ""),
            step(1, "A7", Class::Agree, ""),
            step(2, "A7", Class::Agree, ""),
        ];
        // 2023-11-14T22:13:20Z; game 1 finished before a --resume, so not played here.
        let mut played = Played {
            started: SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000),
            games: BTreeMap::new(),
        };
        for (game, ms) in [(0, 1_500), (2, 2)] {
            let took = Duration::from_millis(ms);
            played.games.insert(game, GamePlayed { resent: 0, took });
        }
        let xml = xml(&games(
            &header(),
            &steps,
            &played,
            &RunProperties::default(),
        ))
        .unwrap();
        assert!(
            xml.contains(r#"timestamp="2023-11-14T22:13:20.000+00:00""#),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<testcase name="game 0: A7" classname="birdcage.hil.random4" time="1.500">"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<testcase name="game 2: A7" classname="birdcage.hil.random4" time="0.002">"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<testcase name="game 1: A7" classname="birdcage.hil.random4">"#),
            "{xml}"
        );
    }

    #[test]
    fn a_game_with_a_command_sent_again_passes_as_flaky() {
        let steps = [step(0, "A7", Class::Agree, "")];
        let mut played = Played::now();
        played.games.insert(
            0,
            GamePlayed {
                resent: 2,
                took: Duration::from_millis(40),
            },
        );
        let xml = games(&header(), &steps, &played, &RunProperties::default())
            .to_string()
            .unwrap();
        assert!(xml.contains(r#"failures="0""#), "{xml}");
        assert!(xml.contains("<flakyFailure"), "{xml}");
        assert!(xml.contains("2 command(s) sent again"), "{xml}");
    }

    /// Issue 52: doctor's steps had no `time`; each is timed as bring-up finds it.
    #[test]
    fn every_bring_up_step_has_its_time_and_the_suite_its_timestamp() {
        let profile = &boards::NUCLEO_F446RE;
        let size = heuristic::Size::M4;
        let mut sil = crate::dut::sil::Sil::new(profile, size, None).unwrap();
        let checks = crate::check::protocol::protocol_checks(&mut sil, profile, profile, size);
        assert!(checks.len() > 3, "{checks:?}");
        assert_dashboard_ready(&xml(&bring_up(&checks, &[])).unwrap());
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
        let before = now();
        let report = bring_up(&checks, &[("probe", "virtual".to_string())]);
        let stamp = report.test_suites[0].timestamp.expect("a timestamp");
        assert!(before <= stamp && stamp <= now(), "{stamp}");
        let xml = report.to_string().unwrap();
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
        let xml = games(&header(), &steps, &Played::now(), &RunProperties::default())
            .to_string()
            .unwrap();
        assert!(!xml.contains('\u{0}') && !xml.contains('\u{7}') && !xml.contains('\u{1b}'));
        assert!(!xml.contains("]]>"), "{xml}");
        assert!(!xml.contains("<tag>"), "{xml}");
        assert!(xml.contains("&lt;tag&gt; &amp;"), "{xml}");
    }

    #[test]
    fn a_game_decided_on_the_start_position_is_named_so_not_with_a_dangling_colon() {
        let steps = [
            step(0, "", Class::Agree, ""),
            step(1, "A7,c5", Class::Agree, ""),
        ];
        let xml = games(&header(), &steps, &Played::now(), &RunProperties::default())
            .to_string()
            .unwrap();
        assert!(xml.contains(r#"name="game 0 (start position)""#), "{xml}");
        assert!(xml.contains(r#"name="game 1: A7,c5""#), "{xml}");
        assert!(!xml.contains(r#": ""#), "{xml}");
    }

    #[test]
    fn a_failing_step_is_written_once_in_its_failure_not_again_in_the_output() {
        let steps = [
            step(0, "A7", Class::Tie, "C5 is tied"),
            step(0, "A7,c5", Class::Fault, "the firmware refused"),
            step(0, "A7,c5,C3", Class::Wiring, "node A4 is 300 codes off"),
        ];
        let xml = games(&header(), &steps, &Played::now(), &RunProperties::default())
            .to_string()
            .unwrap();
        // The failing step's block once (in the failure); the other findings in the output.
        assert_eq!(xml.matches("step A7,c5\n").count(), 1, "{xml}");
        assert_eq!(xml.matches("codes      [512, 300]").count(), 3, "{xml}");
        let out = &xml[xml.find("<system-out>").expect("the findings")..];
        assert!(
            out.contains("step A7\n") && out.contains("step A7,c5,C3\n"),
            "{xml}"
        );
        assert!(!out.contains("step A7,c5\n"), "{xml}");
    }

    #[test]
    fn noncharacters_xml_forbids_are_replaced_and_a_real_parser_reads_the_file() {
        let mut header = header();
        header.profile = Some("cage\u{FFFE}board\u{FFFF}".into());
        let steps = [step(
            0,
            "A7",
            Class::Fault,
            "said \u{FFFF}\u{FFFE} then \u{1}",
        )];
        let report = games(&header, &steps, &Played::now(), &RunProperties::default());
        let xml = xml(&report).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
        let profile = doc
            .descendants()
            .find(|n| n.attribute("name") == Some("profile"))
            .and_then(|n| n.attribute("value"));
        assert_eq!(profile, Some("cage\u{FFFD}board\u{FFFD}"));
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .expect("the failure");
        assert!(
            failure
                .attribute("message")
                .is_some_and(|m| m.ends_with("said \u{FFFD}\u{FFFD} then ")),
            "{xml}"
        );
    }

    fn written(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn doctor() -> Junit {
        bring_up(&[Check::pass("probe found", "qemu")], &[])
    }

    #[test]
    fn write_replaces_a_regular_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("junit.xml");
        std::fs::write(&path, "old").unwrap();
        write(&doctor(), &path).unwrap();
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("probe found")
        );
        assert_eq!(written(dir.path()), ["junit.xml"]);
    }

    #[test]
    fn write_refuses_a_path_that_is_not_a_regular_file_and_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &link).unwrap();
        for path in [fifo, link, dir.path().to_path_buf()] {
            let error = write(&doctor(), &path).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "{} exists and is not a regular file (a device, a FIFO, a folder or a \
                     link): the JUnit file is only written as a regular file; name another \
                     path for --junit",
                    path.display()
                )
            );
        }
        assert!(
            std::fs::symlink_metadata(dir.path().join("fifo"))
                .unwrap()
                .file_type()
                .is_fifo()
        );
        assert_eq!(written(dir.path()), ["fifo", "link"]);
    }

    #[test]
    fn write_does_not_follow_a_link_planted_where_a_temporary_file_would_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("junit.xml");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        // The old fixed name, and the first names this process's writer will try.
        let pid = std::process::id();
        let mut planted = vec!["junit.xml.tmp".to_string(), format!(".junit.xml.tmp-{pid}")];
        planted.extend((1..20).map(|n| format!(".junit.xml.tmp-{pid}-{n}")));
        for name in &planted {
            std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
        }
        write(&doctor(), &path).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("probe found")
        );
        let mut left = planted;
        left.extend(["junit.xml".to_string(), "victim".to_string()]);
        left.sort();
        assert_eq!(written(dir.path()), left);
    }
}
