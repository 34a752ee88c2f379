//! The fault campaign on SIL: every single fault at every place of the M=3 and M=4 cage.
//! Expected values come from the board's geometry, the exact ideal solver, the reference
//! game's record and the firmware's own thresholds, never from the campaign's tables.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use bench::{
    Sil, faults::FaultRun, faults::Trial, faults::Verdict, faults::fault_campaign,
    faults::kinds::FaultKind, faults::table::fault_rows,
};
use heuristic::{Edge, Model, Node, Position, Side, Size};

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

/// The campaign on the nominal NUCLEO board, made once per size and test process: a test that
/// looks at one size (cargo-nextest runs each test in a process of its own) plays only that one.
fn run(size: Size) -> &'static FaultRun {
    static M3: OnceLock<FaultRun> = OnceLock::new();
    static M4: OnceLock<FaultRun> = OnceLock::new();
    let once = if size == Size::M4 { &M4 } else { &M3 };
    once.get_or_init(|| {
        let mut sil = Sil::new(NUCLEO, size, None).unwrap();
        fault_campaign(
            &mut sil,
            NUCLEO,
            size,
            &mut |_, _| ControlFlow::Continue(()),
        )
        .unwrap()
    })
}

fn trials(size: Size, kind: FaultKind) -> impl Iterator<Item = &'static Trial> {
    run(size).trials.iter().filter(move |t| t.kind == kind)
}

/// The edges the reference game played (either side).
fn played(size: Size) -> Vec<Edge> {
    let record = heuristic::Record::read(size, Side::Cut, &run(size).reference).unwrap();
    record.moves().iter().map(|m| m.edge).collect()
}

#[test]
fn every_kind_is_injected_once_at_every_place_of_the_board() {
    for size in [Size::M3, Size::M4] {
        let edges = size.edge_count();
        // Internal nodes and the bottom terminal; Q is the supply.
        let measured = size.internal_node_count() + 1;
        let run = run(size);
        assert_eq!(run.trials.len(), run.planned);
        for (kind, row) in fault_rows(&run.trials) {
            let places = match kind {
                FaultKind::Open | FaultKind::TenTimes | FaultKind::Tenth | FaultKind::WireLeft => {
                    edges
                }
                FaultKind::Swapped => edges * (edges - 1) / 2,
                FaultKind::StuckZero
                | FaultKind::StuckFull
                | FaultKind::StuckMid
                | FaultKind::NoPullup => measured,
                FaultKind::SeriesShorted => 1,
            };
            assert_eq!(row.places, places, "M={size} {kind:?}");
            let mut names: Vec<&str> = trials(size, kind).map(|t| t.place.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), places, "M={size} {kind:?}: a place twice");
            let sorted =
                row.detected + row.misread + row.silent_same + row.silent_changed + row.idle;
            assert_eq!(sorted, places, "M={size} {kind:?}: {row:?}");
        }
    }
}

#[test]
fn a_wrong_resistor_is_detected_at_the_first_check_where_it_carries_current() {
    for size in [Size::M3, Size::M4] {
        // On the empty board every row of nodes is at one potential: the horizontal edges
        // carry nothing, so only the vertical ones can show at the start.
        let start = emulator::exact::solve_model(&Position::new(size, Side::Cut), Model::Ideal);
        let mut late = 0;
        for kind in [FaultKind::Open, FaultKind::TenTimes, FaultKind::Tenth] {
            for t in trials(size, kind) {
                let edge = Edge::parse(size, &t.place).unwrap();
                let carries = start.drop(edge).unwrap().to_string() != "0";
                match &t.verdict {
                    Verdict::Detected { after, .. } if carries => {
                        assert_eq!(*after, 0, "M={size} {t:?}");
                    }
                    Verdict::Detected { after, .. } => {
                        late += 1;
                        assert!(*after > 0, "M={size} {t:?}");
                    }
                    _ => panic!("M={size}: not detected: {t:?}"),
                }
            }
        }
        // Exactly the horizontal edges (even columns) carry nothing, for each of the kinds.
        let horizontal = size.edges().filter(|e| e.x() % 2 == 0).count();
        assert_eq!(late, 3 * horizontal, "M={size}");
    }
}

#[test]
fn a_channel_stuck_at_zero_is_detected_at_the_first_check() {
    for size in [Size::M3, Size::M4] {
        // The bottom terminal at code 0 is the game-over reading of a Cut win, which the
        // start position cannot be.
        let thresholds = firmware::GameOverThresholds::derive(NUCLEO, size);
        assert_eq!(thresholds.judge(0), Some(Side::Cut));
        for t in trials(size, FaultKind::StuckZero) {
            let Verdict::Detected { after, fault } = &t.verdict else {
                panic!("M={size}: {t:?}");
            };
            assert_eq!(*after, 0, "M={size} {t:?}");
            let expected = if t.place == Node::Bottom.to_string() {
                "Cut has won, which the game cannot be yet"
            } else {
                "the cage is not at the start position"
            };
            assert!(fault.contains(expected), "M={size} {t:?}");
        }
    }
}

#[test]
fn a_wire_left_in_is_on_the_cage_only_where_the_machine_cut_and_is_seen_at_once() {
    for size in [Size::M3, Size::M4] {
        let record = heuristic::Record::read(size, Side::Cut, &run(size).reference).unwrap();
        let cut: Vec<String> = record
            .moves()
            .iter()
            .filter(|m| m.side == Side::Cut)
            .map(|m| m.edge.to_string())
            .collect();
        for t in trials(size, FaultKind::WireLeft) {
            if cut.contains(&t.place) {
                assert!(
                    matches!(t.verdict, Verdict::Detected { .. }) && t.latency() == Some(0),
                    "M={size} {t:?}"
                );
            } else {
                assert_eq!(t.verdict, Verdict::Idle, "M={size} {t:?}");
            }
        }
    }
}

#[test]
fn a_swap_is_idle_only_between_edges_the_game_never_played() {
    for size in [Size::M3, Size::M4] {
        let played = played(size);
        for t in trials(size, FaultKind::Swapped) {
            let (a, b) = t.place.split_once('+').unwrap();
            let touched = [a, b]
                .iter()
                .any(|e| played.contains(&Edge::parse(size, e).unwrap()));
            assert_eq!(t.verdict == Verdict::Idle, !touched, "M={size} {t:?}");
        }
    }
}

/// A swap that puts Short's first wire on an edge the game never plays reads exactly as Short
/// playing that edge: no code tells them apart, so the tracker takes it for Short's move.
#[test]
fn a_wire_moved_onto_a_resistor_is_taken_for_shorts_move() {
    for size in [Size::M3, Size::M4] {
        let record = heuristic::Record::read(size, Side::Cut, &run(size).reference).unwrap();
        let first_short = record.moves()[1].edge;
        let untouched: Vec<Edge> = size.edges().filter(|e| !played(size).contains(e)).collect();
        let mut moved = 0;
        for t in trials(size, FaultKind::Swapped) {
            let (a, b) = t.place.split_once('+').unwrap();
            let (a, b) = (Edge::parse(size, a).unwrap(), Edge::parse(size, b).unwrap());
            if (a == first_short && untouched.contains(&b))
                || (b == first_short && untouched.contains(&a))
            {
                moved += 1;
                assert!(
                    matches!(t.verdict, Verdict::Misread { after: 1, .. }),
                    "M={size} {t:?}"
                );
            }
        }
        assert_eq!(moved, untouched.len(), "M={size}");
    }
}

/// A missing pull-up moves a code by about R/Rpu of the node's swing (1/30 on the NUCLEO),
/// inside the band: never detected. On the empty board, where the ideal network ties every
/// vertical edge and the pull-ups alone break the tie, it can change the machine's opening,
/// but only to another edge of the tie.
#[test]
fn a_missing_pull_up_is_silent_and_changes_a_move_only_within_a_tie() {
    for size in [Size::M3, Size::M4] {
        for t in trials(size, FaultKind::NoPullup) {
            match &t.verdict {
                Verdict::Silent => {}
                Verdict::Changed { after, tied, .. } => {
                    assert!(*tied, "M={size} {t:?}");
                    assert_eq!(*after, 0, "M={size} {t:?}");
                }
                _ => panic!("M={size}: {t:?}"),
            }
        }
    }
    // The known case: without A2's pull-up the M=3 board opens with E1, not A1.
    let a2 = trials(Size::M3, FaultKind::NoPullup)
        .find(|t| t.place == "A2")
        .unwrap();
    assert!(
        matches!(&a2.verdict, Verdict::Changed { what, .. } if what.starts_with("Cut plays E1")),
        "{a2:?}"
    );
}

#[test]
fn a_shorted_series_resistor_is_detected_before_the_first_move() {
    for size in [Size::M3, Size::M4] {
        let t = trials(size, FaultKind::SeriesShorted).next().unwrap();
        assert!(
            matches!(t.verdict, Verdict::Detected { after: 0, .. }),
            "M={size} {t:?}"
        );
    }
}

#[test]
fn the_cli_writes_the_table_and_one_csv_line_per_fault() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("faults");
    let output = faults_cli("3", &out);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("## M=3 (SIL)"), "{stdout}");
    assert!(!stdout.contains("## M=4"), "{stdout}");
    assert!(stdout.contains("| resistor open | 13 |"), "{stdout}");
    let csv = std::fs::read_to_string(out.join("faults.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + run(Size::M3).planned);
    // The report, where it is, then the verdict in words: the default criterion is none.
    let planned = run(Size::M3).planned;
    assert_eq!(
        std::fs::read_to_string(out.join("faults.md")).unwrap()
            + &format!("Report: {}\n", out.display())
            + &format!(
                "passed: {planned} trials measured, no class fails the campaign (--fail-on none)\n"
            ),
        stdout
    );

    // The report is not overwritten without --force.
    let before = std::fs::read(out.join("faults.csv")).unwrap();
    let again = faults_cli("3", &out);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(again.stderr).unwrap(),
        format!(
            "error: {} already holds a fault report: --force starts over\n",
            out.join("faults.csv").display()
        )
    );
    assert_eq!(std::fs::read(out.join("faults.csv")).unwrap(), before);

    let bad = faults_cli("5", dir.path().join("bad"));
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(bad.stderr).unwrap(),
        "error: the fault campaign runs on the M=3 and M=4 cage, not M=5\n"
    );
}

#[test]
fn the_cli_writes_a_junit_case_per_fault_failing_only_what_changed_the_game_unnoticed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("faults");
    let junit = dir.path().join("faults.xml");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args([
            "run",
            "--target",
            "sil",
            "--scenario",
            "faults",
            "--size",
            "3",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // What faults.csv says of each fault (its fourth field), against the JUnit cases.
    let csv = std::fs::read_to_string(out.join("faults.csv")).unwrap();
    let verdicts: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(3).unwrap())
        .collect();
    let count = |want: &[&str]| verdicts.iter().filter(|v| want.contains(*v)).count();
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), verdicts.len(), "{xml}");
    let suite = format!(
        r#"tests="{}" disabled="{}" errors="0" failures="{}""#,
        verdicts.len(),
        count(&["never on the cage"]),
        count(&["misread", "changed"])
    );
    assert!(xml.contains(&suite), "{suite} in {xml}");
    assert!(
        xml.contains(r#"<property name="board" value="nucleo-f446re"/>"#),
        "{xml}"
    );
    assert!(
        count(&["detected"]) > 0 && count(&["misread", "changed"]) > 0,
        "{csv}"
    );
    // What a dashboard charts (issue 52): each fault's time, the suite's timestamp.
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    for node in doc.descendants() {
        if node.has_tag_name("testsuite") {
            assert!(node.attribute("timestamp").is_some(), "{xml}");
        }
        if node.has_tag_name("testcase") {
            let time = node
                .attribute("time")
                .unwrap_or_else(|| panic!("no time: {xml}"));
            assert!(time.parse::<f64>().is_ok_and(|s| s >= 0.0), "{time}");
        }
    }
}

/// `hil-tests run --stage sil --scenario faults --size SIZE --out OUT`.
fn faults_cli(size: &str, out: impl AsRef<std::path::Path>) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args([
            "run",
            "--target",
            "sil",
            "--scenario",
            "faults",
            "--size",
            size,
        ])
        .arg("--out")
        .arg(out.as_ref())
        .output()
        .unwrap()
}
