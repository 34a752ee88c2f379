//! SIL: the bench against the firmware application in-process on the emulated board.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::ops::ControlFlow;

use bench::{
    Class, Dut, DutError, Predictor, Report, Scenario, Sil, check::Step, decode_reply, dut::Lost,
    encode_command, header, play_scenario, run::game::play_game, run::scenario::Script,
};
use emulator::emulated::Defect;
use firmware::protocol::{Command, Reply};
use heuristic::{Edge, Size};

mod common;

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

fn steps_of(target: &mut dyn Dut, size: Size, script: &Script) -> Vec<Step> {
    let predictor = Predictor::new(NUCLEO, size);
    let mut steps = Vec::new();
    play_game(target, &predictor, size, 0, script, &mut |s| steps.push(s)).unwrap();
    steps
}

#[test]
fn sil_speaks_the_bench_protocol_with_sequence_numbers() {
    let mut sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    let Reply::Identity(id) = sil.exchange(Command::Identify).unwrap() else {
        panic!("identify should answer an identity");
    };
    assert_eq!(id.version.as_str(), firmware::VERSION);
    assert_eq!(id.board.as_str(), "nucleo-f446re");
    assert_eq!(
        sil.exchange(Command::Measure {
            pullups: true,
            samples: 0
        })
        .unwrap(),
        Reply::Error(firmware::protocol::ProtocolError::BadArgument)
    );
    // A reply to another command is a lost frame.
    let frame = encode_command(7, Command::Status).unwrap();
    assert_eq!(
        decode_reply(8, &frame).unwrap_err().to_string(),
        "bench link: malformed frame: not a message"
    );
    let mut reply = [0u8; firmware::protocol::MAX_FRAME];
    let n = firmware::protocol::encode(
        &firmware::protocol::Frame {
            seq: 7,
            body: Reply::Done,
        },
        &mut reply,
    )
    .unwrap();
    let error = decode_reply(8, &reply[..n]).unwrap_err();
    assert!(
        matches!(
            error,
            DutError::LostFrame {
                expected: 8,
                got: 7
            }
        ),
        "{error}"
    );
    assert_eq!(decode_reply(7, &reply[..n]).unwrap(), Reply::Done);
}

#[test]
fn the_m3_tree_on_the_nominal_board_has_no_fault_and_only_explained_divergences() {
    let mut sil = Sil::new(NUCLEO, Size::M3, None).unwrap();
    let scenario = Scenario::tree(Size::M3);
    let dir = tempfile::tempdir().unwrap();
    let mut report = common::played(NUCLEO, &mut sil, &scenario, None, dir.path(), false).unwrap();
    let tally = report.tally().clone();
    // The board's own tree: many branches, every decision checked once.
    assert!(tally.games > 500, "{tally:?}");
    assert_eq!(
        tally.count(Class::Wiring) + tally.count(Class::Fault),
        0,
        "{tally:?}"
    );
    assert_eq!(tally.count(Class::Tolerance), 0, "nominal parts: {tally:?}");
    assert!(tally.count(Class::Agree) > tally.steps / 2, "{tally:?}");
    let md = report.finish().unwrap();
    assert!(
        md.starts_with("# SIL bench: tree3 on nucleo-f446re"),
        "{md}"
    );
    // A tree plans no number of games: it grows as it goes.
    let played = format!(
        "{} games played (a tree: its games grow as it goes)",
        tally.games
    );
    assert!(md.contains(&played), "{md}");
    let lines = std::fs::read_to_string(dir.path().join("steps.jsonl")).unwrap();
    assert_eq!(
        lines.lines().filter(|l| l.contains(",\"step\":{")).count(),
        tally.steps
    );
}

#[test]
fn every_step_of_random_games_on_a_drawn_board_is_in_band_and_checked() {
    let mut sil = Sil::new(NUCLEO, Size::M4, Some(5)).unwrap();
    for seed in 0..20 {
        let steps = steps_of(&mut sil, Size::M4, &Script::Random(seed));
        assert!(steps.len() >= 4, "a game has several decisions: {steps:?}");
        for s in &steps {
            assert!(!s.class.is_fault(), "{s:?}");
            assert_eq!(s.codes.len(), Size::M4.node_count());
            match s.class {
                Class::Agree if s.chosen.is_some() => assert_eq!(s.chosen, s.ideal),
                Class::Agree => assert!(s.outcome.to_string().contains("has won"), "{s:?}"),
                Class::Tie => assert!(s.tied.contains(s.chosen.as_ref().unwrap())),
                _ => assert!(!s.tied.contains(s.chosen.as_ref().unwrap()), "{s:?}"),
            }
        }
        // The last step is the game-over verdict.
        assert!(
            steps
                .last()
                .unwrap()
                .outcome
                .to_string()
                .contains("has won"),
            "{steps:?}"
        );
    }
}

#[test]
fn a_replayed_record_stops_where_the_board_leaves_it() {
    let scenario = Scenario::records(Size::M4, "# a comment\n\nA1,c5\nG1,g3\n", "r.txt").unwrap();
    assert_eq!(scenario.games.len(), 2);
    let mut sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    let first = steps_of(&mut sil, Size::M4, &scenario.games[0]);
    // A1 is the nominal board's opening (its pull-ups break the ideal tie of the empty
    // board), then one more decision after c5, where the record ends.
    assert_eq!(first.len(), 2, "{first:?}");
    assert_eq!(
        first[0].chosen.map(|e| e.to_string()).as_deref(),
        Some("A1")
    );
    assert_eq!(first[0].class, Class::Tie);
    assert_eq!(first[1].record.to_string(), "A1,c5");
    let second = steps_of(&mut sil, Size::M4, &scenario.games[1]);
    assert_eq!(second.len(), 1);
    assert!(
        second[0].detail.contains("the record plays G1"),
        "{second:?}"
    );
}

#[test]
fn a_bad_records_file_names_the_line_and_the_move() {
    let err = Scenario::records(Size::M3, "A5,c5\nA5,a5\n", "games.txt").unwrap_err();
    assert_eq!(
        err.to_string(),
        "games.txt line 2: move 2: a5 was already cut"
    );
}

/// Every divergent step of games on a broken board is a fault, and there is one.
fn assert_reported_as_fault(target: &mut dyn Dut, size: Size) {
    let mut faults = 0;
    for seed in 0..5 {
        for s in steps_of(target, size, &Script::Random(seed)) {
            assert!(!s.class.diverges(), "reported as a move divergence: {s:?}");
            faults += usize::from(s.class.is_fault());
        }
    }
    assert!(faults > 0, "the fault went unnoticed");
}

#[test]
fn an_open_resistor_is_reported_as_a_fault() {
    let sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    sil.emulated_cage()
        .inject(Defect::Open(Edge::new(Size::M4, 3, 5).unwrap()))
        .unwrap();
    let mut sil = sil;
    assert_reported_as_fault(&mut sil, Size::M4);
}

#[test]
fn a_stuck_adc_channel_is_reported_as_a_fault() {
    let sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    let node = Size::M4.nodes().nth(5).unwrap();
    sil.emulated_cage()
        .inject(Defect::Stuck(node, 100))
        .unwrap();
    let mut sil = sil;
    assert_reported_as_fault(&mut sil, Size::M4);
}

#[test]
fn a_swapped_wire_is_reported_as_a_fault() {
    let sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    // The nominal board's opening A1 lands on G7.
    let (a1, g7) = (
        Edge::new(Size::M4, 1, 1).unwrap(),
        Edge::new(Size::M4, 7, 7).unwrap(),
    );
    sil.emulated_cage().inject(Defect::Swapped(a1, g7)).unwrap();
    let mut sil = sil;
    assert_reported_as_fault(&mut sil, Size::M4);
}

#[test]
fn an_interrupted_report_resumes_where_it_stopped() {
    let scenario = Scenario::random(Size::M4, 6, 11);
    let whole = tempfile::tempdir().unwrap();
    let (full, _) = run_to_the_end(whole.path(), &scenario);
    let text = std::fs::read_to_string(whole.path().join("steps.jsonl")).unwrap();
    // Interrupted in the middle of the fourth game, with a half-written last line.
    let cut = text.match_indices("\"game_end\"").nth(2).unwrap().0;
    let after = &text[cut..];
    let next_line = cut + after.find('\n').unwrap() + 1;
    let partial = format!("{}{}", &text[..next_line + 40], "");
    let broken = tempfile::tempdir().unwrap();
    std::fs::write(broken.path().join("steps.jsonl"), partial).unwrap();
    let (resumed, _) = run_to_the_end(broken.path(), &scenario);
    assert_eq!(resumed, full);
    assert_eq!(
        std::fs::read_to_string(broken.path().join("steps.jsonl")).unwrap(),
        text
    );
}

/// A board whose probe is pulled out after `left` more exchanges.
#[derive(Debug)]
struct Unplugged {
    sil: Sil,
    left: usize,
}

impl Dut for Unplugged {
    fn stage(&self) -> bench::Setup {
        self.sil.stage()
    }
    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        match self.left.checked_sub(1) {
            Some(left) => {
                self.left = left;
                self.sil.exchange(command)
            }
            None => Err(DutError::Lost(Lost::Transport("probe unplugged".into()))),
        }
    }
    fn logs(&mut self) -> Vec<String> {
        self.sil.logs()
    }
    fn cage(&mut self) -> &mut dyn bench::Cage {
        self.sil.cage()
    }
}

/// Runs `scenario` to its end in `dir` on the nominal board (parts and a noiseless converter:
/// a fresh board reads as the old one did), resuming what is there; returns the tally and the
/// summary's `interrupted` field.
fn run_to_the_end(dir: &std::path::Path, scenario: &Scenario) -> (bench::Tally, String) {
    let mut sil = Sil::new(NUCLEO, scenario.size, None).unwrap();
    let mut report = common::played(NUCLEO, &mut sil, scenario, None, dir, true).unwrap();
    report.finish().unwrap();
    (report.tally().clone(), interrupted(dir))
}

fn interrupted(dir: &std::path::Path) -> String {
    let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["interrupted"].to_string()
}

#[test]
fn a_probe_lost_mid_run_is_summed_up_as_interrupted_and_the_run_resumes() {
    let scenario = Scenario::random(Size::M4, 6, 5);
    let whole = tempfile::tempdir().unwrap();
    let (full, complete) = run_to_the_end(whole.path(), &scenario);
    assert_eq!(complete, "null");

    let dir = tempfile::tempdir().unwrap();
    let mut target = Unplugged {
        sil: Sil::new(NUCLEO, Size::M4, None).unwrap(),
        left: 60,
    };
    let header = header(&mut target, NUCLEO, &scenario, None).unwrap();
    let mut report = Report::open(dir.path(), header, bench::Existing::Refuse).unwrap();
    let error = play_scenario(&mut target, NUCLEO, &scenario, &mut report, &mut |_, _| {
        ControlFlow::Continue(())
    })
    .unwrap_err();
    assert_eq!(error.to_string(), "target lost: probe unplugged");
    let finished = report.tally().games;
    assert!(0 < finished && finished < 6, "{finished} games finished");
    let md = report.interrupted(&error.to_string()).unwrap();
    assert!(
        md.contains("**INTERRUPTED**: target lost: probe unplugged."),
        "{md}"
    );
    assert!(
        md.contains(&format!("{finished} of 6 planned games played")),
        "{md}"
    );
    assert_eq!(interrupted(dir.path()), "\"target lost: probe unplugged\"");

    let (resumed, complete) = run_to_the_end(dir.path(), &scenario);
    assert_eq!(resumed, full);
    assert_eq!(complete, "null");
}

#[test]
fn a_run_stopped_between_games_says_how_far_it_got_and_resumes() {
    let scenario = Scenario::random(Size::M4, 6, 5);
    let whole = tempfile::tempdir().unwrap();
    let (full, _) = run_to_the_end(whole.path(), &scenario);

    let dir = tempfile::tempdir().unwrap();
    let mut sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
    let header = header(&mut sil, NUCLEO, &scenario, None).unwrap();
    let mut report = Report::open(dir.path(), header, bench::Existing::Refuse).unwrap();
    let error = play_scenario(&mut sil, NUCLEO, &scenario, &mut report, &mut |done, _| {
        if done == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap_err();
    assert!(
        matches!(error, bench::PlayError::Stopped { games: 2, known: 6 }),
        "{error}"
    );
    assert_eq!(report.tally().games, 2);
    report.interrupted(&error.to_string()).unwrap();
    assert_eq!(interrupted(dir.path()), "\"stopped after game 2 of 6\"");
    let (resumed, _) = run_to_the_end(dir.path(), &scenario);
    assert_eq!(resumed, full);
}
