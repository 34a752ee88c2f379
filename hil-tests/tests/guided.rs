//! The operator-guided game on SIL: a scripted operator at the console, hands on the
//! emulated cage (clumsy ones, in one test: a cage of the test's own).

use bench::{
    Cage, Class, Dut, DutError, Report, Scenario, Sil, header, run::guided::Console,
    run::guided::GuidedError, run::guided::guided,
};
use emulator::emulated::EmulatedCage;
use firmware::protocol::{Command, Reply};
use heuristic::{EdgeState, Position, Side, Size};

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

/// What a guided run left: its result, what the operator read, and the report's lines.
struct Run {
    result: Result<(), GuidedError>,
    said: String,
    steps: Vec<serde_json::Value>,
    report: Report,
}

/// Which hands make the operator's moves on SIL's emulated cage.
#[derive(Clone, Copy, PartialEq)]
enum Hands {
    /// As told.
    Steady,
    /// One slip ([`Clumsy`]).
    Clumsy,
}

fn run(scenario: &Scenario, input: &str, hands: Hands, dir: &std::path::Path, resume: bool) -> Run {
    let sil = Sil::new(NUCLEO, scenario.size, None).unwrap();
    let mut target: Box<dyn Dut> = match hands {
        Hands::Steady => Box::new(sil),
        Hands::Clumsy => Box::new(Clumsy {
            cage: ClumsyCage {
                cage: sil.emulated_cage().clone(),
                slipped: None,
            },
            sil,
        }),
    };
    let header = header(target.as_mut(), NUCLEO, scenario, None).unwrap();
    let existing = if resume {
        bench::Existing::Resume
    } else {
        bench::Existing::Refuse
    };
    let mut report = Report::open(dir, header, existing).unwrap();
    let mut input = input.as_bytes();
    let mut said = Vec::new();
    let mut console = Console::new(&mut input, &mut said);
    let result = guided(target.as_mut(), NUCLEO, scenario, &mut report, &mut console);
    let steps = std::fs::read_to_string(dir.join("steps.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("step").cloned())
        .collect();
    Run {
        result,
        said: String::from_utf8(said).unwrap(),
        steps,
        report,
    }
}

#[test]
fn a_scripted_operator_plays_a_whole_guided_game() {
    let dir = tempfile::tempdir().unwrap();
    // Set up, then the board's cut, Short's typed b2, the next cut, Short's a3 and the last
    // cut: each made as told, then Enter.
    let input = "\n\nb2\n\n\na3\n\n\n";
    let r = run(
        &Scenario::guided(Size::M3, 1, 1),
        input,
        Hands::Steady,
        dir.path(),
        false,
    );
    assert!(r.result.is_ok(), "{:?}\n{}", r.result, r.said);
    let tally = r.report.tally().clone();
    assert_eq!((tally.games, tally.steps), (1, 4), "{tally:?}");
    let moves: Vec<_> = r
        .steps
        .iter()
        .map(|s| (s["record"].as_str().unwrap(), s["class"].as_str().unwrap()))
        .collect();
    // The empty board's tie is broken by the pull-ups; every later decision is the ideal one.
    assert_eq!(
        moves,
        [
            ("", "Tie"),
            ("A1,b2", "Agree"),
            ("A1,b2,C1,a3", "Agree"),
            ("A1,b2,C1,a3,E1", "Agree"),
        ],
        "{}",
        r.said
    );
    assert!(
        r.said
            .contains("The board cuts A1: take the resistor at A1 out"),
        "{}",
        r.said
    );
    assert!(
        r.said
            .contains("Short plays b2: put a wire across the resistor at B2"),
        "{}",
        r.said
    );
    assert!(
        r.said.trim_end().ends_with("The board says Cut has won."),
        "{}",
        r.said
    );
    assert!(!r.said.contains("do not fit"), "{}", r.said);
}

#[test]
fn enter_draws_short_s_moves_and_a_bad_one_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    // z9 is not an edge, A1 is the board's cut: both asked again; then Enter draws.
    let input = format!("\n\nz9\na1\n{}", "\n".repeat(40));
    let r = run(
        &Scenario::guided(Size::M4, 2, 7),
        &input,
        Hands::Steady,
        dir.path(),
        false,
    );
    assert!(r.result.is_ok(), "{:?}\n{}", r.result, r.said);
    assert!(r.said.contains("z9 is off the M=4 board"), "{}", r.said);
    assert!(r.said.contains("a1 was already cut."), "{}", r.said);
    let tally = r.report.tally().clone();
    assert_eq!(tally.games, 2, "{tally:?}");
    assert_eq!(
        tally.count(Class::Wiring) + tally.count(Class::Fault),
        0,
        "{tally:?}"
    );
}

/// SIL whose cage is wired by clumsy hands.
struct Clumsy {
    sil: Sil,
    cage: ClumsyCage,
}

impl Dut for Clumsy {
    fn stage(&self) -> bench::Setup {
        self.sil.stage()
    }
    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        self.sil.exchange(command)
    }
    fn logs(&mut self) -> Vec<String> {
        self.sil.logs()
    }
    fn cage(&mut self) -> &mut dyn Cage {
        &mut self.cage
    }
}

/// Hands that short another edge than told, once, then do as told.
struct ClumsyCage {
    cage: EmulatedCage,
    slipped: Option<(heuristic::Edge, heuristic::Edge)>,
}

impl Cage for ClumsyCage {
    fn set(&mut self, position: &Position) -> Result<Option<Command>, DutError> {
        let before = self.cage.position();
        let shorted = position.size().edges().find(|&e| {
            position.state(e) != before.state(e) && position.state(e) == EdgeState::Short
        });
        let target = match shorted {
            Some(edge) if self.slipped.is_none() => {
                // C3 instead: a resistor that carries current here, so the slip shows.
                let wrong = heuristic::Edge::parse(Size::M3, "C3").unwrap();
                assert_ne!(wrong, edge);
                self.slipped = Some((edge, wrong));
                let mut slip = before;
                slip.play(heuristic::Move {
                    side: Side::Short,
                    edge: wrong,
                })
                .unwrap();
                slip
            }
            _ => position.clone(),
        };
        self.cage.set(&target)
    }

    fn start_game(&mut self, game: usize) {
        Cage::start_game(&mut self.cage, game);
    }
}

#[test]
fn a_wrong_move_on_the_cage_is_named_by_node_and_the_game_goes_on_once_fixed() {
    let dir = tempfile::tempdir().unwrap();
    // Told b2, the hands short C3; Enter again after fixing it.
    let input = "\n\nb2\n\n\n\na3\n\n\n";
    let r = run(
        &Scenario::guided(Size::M3, 1, 1),
        input,
        Hands::Clumsy,
        dir.path(),
        false,
    );
    assert!(r.result.is_ok(), "{:?}\n{}", r.result, r.said);
    let complaint = r
        .said
        .lines()
        .find(|l| l.starts_with("The codes do not fit"))
        .unwrap_or_else(|| panic!("{}", r.said));
    assert!(
        complaint.starts_with("The codes do not fit the position after b2: node "),
        "{complaint}"
    );
    assert!(complaint.contains(", expected "), "{complaint}");
    assert!(complaint.contains("(off by "), "{complaint}");
    assert!(
        complaint.ends_with("(band ±24). Fix the cage and press Enter (q quits)."),
        "{complaint}"
    );
    assert_eq!(r.said.matches("do not fit").count(), 1, "{}", r.said);
    // The report keeps the slip: what was asked, the codes read, and why they did not fit.
    let text = std::fs::read_to_string(dir.path().join("steps.jsonl")).unwrap();
    let misfits: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("misfit").cloned())
        .collect();
    assert_eq!(misfits.len(), 1, "{text}");
    assert_eq!(misfits[0]["record"], "A1,b2");
    assert_eq!(
        misfits[0]["codes"].as_array().unwrap().len(),
        r.steps[0]["codes"].as_array().unwrap().len()
    );
    let why = misfits[0]["why"].as_str().unwrap();
    assert!(complaint.contains(why), "{why} / {complaint}");
    assert_eq!(r.report.tally().misfits, 1);
    // Once fixed, the game is the one played without the slip.
    assert_eq!(r.report.tally().steps, 4);
    assert!(
        r.said.trim_end().ends_with("The board says Cut has won."),
        "{}",
        r.said
    );
    // A calibration reads the steps and passes over the slip.
    let (_, steps) = Report::read_steps(dir.path()).unwrap();
    assert_eq!(steps.len(), 4);
    let mut report = r.report;
    let md = report.finish().unwrap();
    assert!(
        md.contains("Cage corrections (a guided move that did not fit, fixed by the operator): 1 "),
        "{md}"
    );
    // Resumed, the finished game keeps its slip.
    let again = run(
        &Scenario::guided(Size::M3, 1, 1),
        "",
        Hands::Steady,
        dir.path(),
        true,
    );
    assert!(again.result.is_ok(), "{:?}", again.result);
    assert_eq!(again.report.tally(), report.tally());
}

#[test]
fn end_of_input_mid_game_stops_with_the_report_kept_and_resumes() {
    let scenario = Scenario::guided(Size::M3, 2, 1);
    let dir = tempfile::tempdir().unwrap();
    let whole = "\n\nb2\n\n\na3\n\n\n";
    // The first game whole, the second cut short after its first cut.
    let r = run(
        &scenario,
        &format!("{whole}\n\n"),
        Hands::Steady,
        dir.path(),
        false,
    );
    let err = r.result.unwrap_err();
    assert_eq!(
        err.to_string(),
        "end of input in game 2 after `A1`; the report keeps the finished games, --resume plays the rest"
    );
    assert_eq!(r.report.tally().games, 1);
    assert_eq!(
        r.steps.len(),
        5,
        "the unfinished game's step is written too"
    );
    drop(r.report);
    let r = run(&scenario, whole, Hands::Steady, dir.path(), true);
    assert!(r.result.is_ok(), "{:?}\n{}", r.result, r.said);
    assert!(r.said.starts_with("Game 2 of 2"), "{}", r.said);
    assert_eq!(r.report.tally().games, 2);
    assert_eq!(r.steps.len(), 8);
}

#[test]
fn q_quits() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        &Scenario::guided(Size::M3, 1, 1),
        "\nq\n",
        Hands::Steady,
        dir.path(),
        false,
    );
    assert_eq!(
        r.result.unwrap_err().to_string(),
        "stopped by the operator in game 1; the report keeps the finished games, --resume plays the rest"
    );
    assert_eq!(r.steps.len(), 1);
}

#[test]
fn the_fit_names_each_node_off_its_band_and_only_those() {
    let predictor = bench::Predictor::new(NUCLEO, Size::M3);
    let position = heuristic::Position::new(Size::M3, Side::Cut);
    let predicted = predictor.codes(&position);
    assert!(predictor.fit(&position, &predicted).in_band());
    let nodes: Vec<_> = Size::M3.nodes().collect();
    let (a, b) = (
        nodes.iter().position(|n| n.to_string() == "C2").unwrap(),
        nodes.iter().position(|n| n.to_string() == "A4").unwrap(),
    );
    let mut codes = predicted.clone();
    codes[a] += 24; // on the band's edge
    assert!(predictor.fit(&position, &codes).in_band());
    codes[a] += 1;
    codes[b] -= 30;
    let fit = predictor.fit(&position, &codes);
    assert!(!fit.in_band());
    let off: Vec<String> = fit.off.iter().map(ToString::to_string).collect();
    assert_eq!(
        off,
        [
            format!(
                "node A4 reads {}, expected {} (off by 30)",
                codes[b], predicted[b]
            ),
            format!(
                "node C2 reads {}, expected {} (off by 25)",
                codes[a], predicted[a]
            ),
        ]
    );
    assert!(
        !predictor.fit(&position, &codes[1..]).in_band(),
        "a node short"
    );
}
