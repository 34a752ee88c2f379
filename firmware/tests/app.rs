//! The state machine on a scripted cage: start-up and size detection, whole games to each
//! result, the self-check's failures and recoveries, and the bench commands.

mod common;

use common::{BOARD, Cage, app, app_on, finish, machine_move, size, sq};
use firmware::protocol::{Command, Identity, ProtocolError, Reply};
use firmware::{Component, Config, Fault, LedPattern, Outcome, Phase};
use heuristic::{EdgeState, Node, Side};

#[test]
fn detects_m4_and_lights_every_led() {
    let mut app = app(Cage::new(4));
    assert_eq!(app.phase(), Phase::Idle);
    assert_eq!(app.start(), Outcome::NewGame { size: 4 });
    assert_eq!(app.size(), Some(size(4)));
    assert_eq!(app.leds(), LedPattern::NEW_GAME);
    assert_eq!(app.phase(), Phase::NewGame);
    let cage = finish(app);
    assert!(cage.pullups, "pull-ups stay on after the start");
}

#[test]
fn detects_m3_when_the_top_row_reads_the_supply() {
    let mut app = app(Cage::new(3));
    assert_eq!(app.start(), Outcome::NewGame { size: 3 });
    assert_eq!(app.start().to_string(), "new game on M=3");
    finish(app);
}

#[test]
fn the_first_press_after_power_on_starts_a_game() {
    let mut app = app(Cage::new(4));
    assert_eq!(app.on_button(), Outcome::NewGame { size: 4 });
    finish(app);
}

#[test]
fn first_moves_are_the_bottom_left_resistor() {
    // The pull-ups' currents all leave through the bottom row, so its resistors carry the most;
    // the tie between columns goes to A. The original machine's first M=3 move is A1 too.
    for (m, first) in [(3, "A1"), (4, "A1")] {
        let mut app = app(Cage::new(m));
        app.start();
        let outcome = app.on_button();
        assert_eq!(outcome, Outcome::Move(sq(size(m), first)));
        assert_eq!(outcome.to_string(), format!("Cut plays {first}"));
        assert_eq!(app.leds(), LedPattern::edge(common::edge(size(m), first)));
        assert_eq!(app.phase(), Phase::Playing);
        let history = &app.hardware().leds.history;
        // New game, off for the game-over reading, then the move.
        assert_eq!(history[history.len() - 2], LedPattern::OFF);
        finish(app);
    }
}

/// Plays the machine against Short's `reply` (given the cage's position) until the game-over
/// reading ends the game.
fn play(
    m: u32,
    mut reply: impl FnMut(&heuristic::Position) -> heuristic::Edge,
) -> (Outcome, Cage, Vec<Outcome>) {
    let mut app = app(Cage::new(m));
    app.start();
    let mut outcomes = Vec::new();
    loop {
        let outcome = app.on_button();
        outcomes.push(outcome);
        match outcome {
            Outcome::Move(_) => {
                let cage = &mut app.hardware_mut().sampler;
                cage.make(outcome);
                if cage.position.winner().is_none() {
                    let edge = reply(&cage.position);
                    cage.play(Side::Short, &edge.to_string());
                }
            }
            Outcome::GameOver(_) => {
                let led = app.leds();
                let cage = finish(app);
                let expected = match outcome {
                    Outcome::GameOver(Side::Cut) => LedPattern::CUT_WON,
                    _ => LedPattern::SHORT_WON,
                };
                assert_eq!(led, expected);
                return (outcome, cage, outcomes);
            }
            other => panic!("unexpected {other}"),
        }
        assert!(outcomes.len() < 40, "the game does not end");
    }
}

#[test]
fn a_whole_m4_game_won_by_cut() {
    // Short plays weakly: the last resistor in reading order.
    let (outcome, cage, outcomes) = play(4, |p| p.resistors().last().unwrap());
    assert_eq!(outcome, Outcome::GameOver(Side::Cut));
    assert_eq!(outcome.to_string(), "Cut has won");
    assert_eq!(cage.position.winner(), Some(Side::Cut));
    let moves: Vec<_> = outcomes[..outcomes.len() - 1].to_vec();
    for (i, m) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(m), "{m} played twice");
    }
}

/// A line that beats the machine on M=3, found by search against the machine's own choices.
fn short_win(position: heuristic::Position, depth: usize) -> Option<Vec<heuristic::Edge>> {
    let cut = machine_move(&position)?;
    let mut after_cut = position.clone();
    after_cut.play_edge(cut).ok()?;
    if after_cut.winner().is_some() || depth == 0 {
        return None;
    }
    for reply in after_cut.resistors().collect::<Vec<_>>() {
        let mut p = after_cut.clone();
        p.play_edge(reply).unwrap();
        match p.winner() {
            Some(Side::Short) => return Some(vec![reply]),
            Some(Side::Cut) => continue,
            None => {
                if let Some(mut line) = short_win(p, depth - 1) {
                    line.insert(0, reply);
                    return Some(line);
                }
            }
        }
    }
    None
}

#[test]
fn a_whole_m3_game_won_by_short() {
    let m3 = size(3);
    let line = short_win(heuristic::Position::new(m3, Side::Cut), 6).expect("M=3 is beatable");
    let mut replies = line.into_iter();
    let (outcome, cage, _) = play(3, |_| replies.next().expect("the line is long enough"));
    assert_eq!(outcome, Outcome::GameOver(Side::Short));
    assert_eq!(outcome.to_string(), "Short has won");
    assert_eq!(cage.position.winner(), Some(Side::Short));
}

#[test]
fn a_press_after_the_game_is_over_starts_a_new_one() {
    let mut app = app(Cage::new(3));
    app.start();
    // The machine's own game, Short playing the last resistor, to Cut's win.
    loop {
        let outcome = app.on_button();
        if let Outcome::GameOver(winner) = outcome {
            assert_eq!(winner, Side::Cut);
            break;
        }
        let cage = &mut app.hardware_mut().sampler;
        cage.make(outcome);
        if cage.position.winner().is_none() {
            let edge = cage.position.resistors().last().unwrap();
            cage.play(Side::Short, &edge.to_string());
        }
    }
    assert_eq!(app.phase(), Phase::Over);
    app.hardware_mut().sampler.position = heuristic::Position::new(size(3), Side::Cut);
    assert_eq!(app.on_button(), Outcome::NewGame { size: 3 });
    finish(app);
}

#[test]
fn a_game_over_reading_the_game_cannot_be_is_a_fault() {
    // Cut wins only by the machine's cuts: these three it never made.
    let mut app = app(Cage::new(3));
    app.start();
    app.hardware_mut().sampler.play(Side::Cut, "A5");
    app.hardware_mut().sampler.play(Side::Cut, "C5");
    app.hardware_mut().sampler.play(Side::Cut, "E5");
    let outcome = app.on_button();
    assert!(
        matches!(
            outcome,
            Outcome::Fault(Fault::NotWon {
                winner: Side::Cut,
                ..
            })
        ),
        "{outcome:?}"
    );
    assert_eq!(app.phase(), Phase::Fault);
    finish(app);
    // Short cannot have won before the machine's first move either (M=3 needs 3 wires).
    let mut app = app_on(Cage::new(3), Config::default());
    app.start();
    for e in ["a5", "a3", "a1"] {
        app.hardware_mut().sampler.play(Side::Short, e);
    }
    let outcome = app.on_button();
    assert!(
        matches!(
            outcome,
            Outcome::Fault(Fault::NotWon {
                winner: Side::Short,
                ..
            })
        ),
        "{outcome:?}"
    );
    finish(app);
}

#[test]
fn the_self_check_finds_shorts_move() {
    let m3 = size(3);
    let mut app = app(Cage::new(3));
    app.start();
    let first = app.on_button();
    app.hardware_mut().sampler.make(first);
    app.hardware_mut().sampler.play(Side::Short, "c5");
    assert!(matches!(app.on_button(), Outcome::Move(_)));
    let position = app.position().unwrap();
    assert_eq!(position.state(common::edge(m3, "C5")), EdgeState::Short);
    assert_eq!(position.state(common::edge(m3, "A1")), EdgeState::Cut);
    finish(app);
}

#[test]
fn a_cut_not_made_is_named_and_the_next_press_recovers() {
    let m3 = size(3);
    let mut app = app(Cage::new(3));
    app.start();
    let first = app.on_button();
    assert_eq!(first, Outcome::Move(sq(m3, "A1")));
    // Short moves, but nobody pulled A5.
    app.hardware_mut().sampler.play(Side::Short, "c5");
    let outcome = app.on_button();
    assert_eq!(outcome, Outcome::Fault(Fault::CutNotMade(sq(m3, "A1"))));
    assert_eq!(
        outcome.to_string(),
        "A1 still conducts: the requested cut was not made"
    );
    assert_eq!(app.leds(), LedPattern::FAULT);
    assert_eq!(app.phase(), Phase::Fault);
    // Put it right and press again.
    app.hardware_mut().sampler.make(first);
    assert!(matches!(app.on_button(), Outcome::Move(_)));
    finish(app);
}

#[test]
fn no_short_since_the_last_cut_is_named() {
    // With 0.1 % resistors the band is 6 codes: after A1 on M=3 every short moves some code by
    // at least 8, more than half the band beyond the no-move reading, so a press without
    // Short's move is told apart from one.
    let precise: &'static boards::Profile = Box::leak(Box::new(boards::Profile {
        resistors: boards::Resistors {
            tolerance: boards::Tolerance {
                ppm: 1_000,
                ..BOARD.resistors.tolerance
            },
            ..BOARD.resistors
        },
        ..*BOARD
    }));
    assert_eq!(firmware::band_codes(precise), 6);
    let mut app = common::app_with(precise, Cage::new(3), Config::default());
    app.start();
    let first = app.on_button();
    app.hardware_mut().sampler.make(first);
    let outcome = app.on_button();
    assert_eq!(
        outcome.to_string(),
        "no new short since A1: make Short's move, then press"
    );
    finish(app);
}

#[test]
fn a_press_without_a_move_passes_for_a_quiet_short() {
    // After A1 on M=3, a short across D4 moves no code by more than 8: too little to tell from
    // no move at all, so the machine takes it as Short's move (and never cuts D4).
    let m3 = size(3);
    let mut app = app(Cage::new(3));
    app.start();
    let first = app.on_button();
    app.hardware_mut().sampler.make(first);
    assert!(matches!(app.on_button(), Outcome::Move(_)));
    assert_eq!(
        app.position().unwrap().state(common::edge(m3, "D4")),
        EdgeState::Short
    );
    finish(app);
}

#[test]
fn two_shorts_in_one_turn_are_unexplained() {
    let mut app = app(Cage::new(4));
    app.start();
    let first = app.on_button();
    app.hardware_mut().sampler.make(first);
    app.hardware_mut().sampler.play(Side::Short, "c7");
    app.hardware_mut().sampler.play(Side::Short, "e5");
    let outcome = app.on_button();
    let Outcome::Fault(Fault::Unexplained(d)) = outcome else {
        panic!("expected an unexplained reading, got {outcome}");
    };
    assert!(d.code.abs_diff(d.expected) > d.band);
    assert!(
        outcome
            .to_string()
            .starts_with("no single short explains the codes: node "),
        "{outcome}"
    );
    finish(app);
}

#[test]
fn a_cage_not_at_the_start_position_is_refused() {
    let mut cage = Cage::new(4);
    cage.play(Side::Short, "c3");
    let mut app = app(cage);
    app.start();
    let outcome = app.on_button();
    let Outcome::Fault(Fault::NotAtStart(d)) = outcome else {
        panic!("expected a start mismatch, got {outcome}");
    };
    assert_eq!(d.band, 24);
    assert_eq!(
        outcome.to_string(),
        format!(
            "the cage is not at the start position: node {} reads {}, expected {} ± 24",
            d.node, d.code, d.expected
        )
    );
    finish(app);
}

#[test]
fn readings_inside_the_band_pass_and_outside_fail() {
    let m4 = size(4);
    let c4 = Node::internal(m4, 3, 4).unwrap();
    for (offset, passes) in [(24, true), (-24, true), (25, false), (-40, false)] {
        let mut cage = Cage::new(4);
        cage.offsets.push((c4, offset));
        let mut app = app(cage);
        app.start();
        let outcome = app.on_button();
        assert_eq!(
            matches!(outcome, Outcome::Move(_)),
            passes,
            "{offset}: {outcome}"
        );
        finish(app);
    }
}

#[test]
fn without_the_self_check_the_machine_moves_on_anything() {
    let mut cage = Cage::new(4);
    cage.play(Side::Short, "d4");
    let config = Config {
        self_check: false,
        ..Config::default()
    };
    let mut app = app_on(cage, config);
    app.start();
    assert!(matches!(app.on_button(), Outcome::Move(_)));
    finish(app);
}

#[test]
fn a_position_already_won_against_the_reading_is_refused() {
    // Self-check off, and nobody makes the machine's cuts: after A1, C1, E1 the position the
    // machine believes is won by Cut while the bottom terminal still says play on.
    let config = Config {
        self_check: false,
        ..Config::default()
    };
    let mut app = app_on(Cage::new(3), config);
    app.start();
    let moves: Vec<_> = (0..3).map(|_| app.on_button()).collect();
    let m3 = size(3);
    assert_eq!(moves, ["A1", "C1", "E1"].map(|e| Outcome::Move(sq(m3, e))));
    assert_eq!(
        app.on_button().to_string(),
        "the bottom terminal reads 300, but the position says Cut has won"
    );
    finish(app);
}

#[test]
fn a_broken_sampler_shows_the_fault_pattern() {
    let mut app = app(Cage::new(4));
    app.start();
    app.hardware_mut().sampler.broken = true;
    let outcome = app.on_button();
    assert_eq!(outcome, Outcome::Fault(Fault::Hardware(Component::Sampler)));
    assert_eq!(outcome.to_string(), "sampler error");
    assert_eq!(app.leds(), LedPattern::FAULT);
    finish(app);
}

#[test]
fn averaging_reads_each_node_samples_times() {
    let config = Config {
        samples: Some(3),
        ..Config::default()
    };
    let mut app = app_on(Cage::new(4), config);
    app.start();
    // Size detection: the 4 nodes of M=4's top row.
    assert_eq!(app.hardware().sampler.reads, 4 * 3);
    app.on_button();
    // Game-over reading (0) and the 13 measured nodes.
    assert_eq!(app.hardware().sampler.reads, 4 * 3 + 3 + 13 * 3);
    finish(app);
}

#[test]
fn bench_identify_measure_status() {
    let mut app = app(Cage::new(4));
    let Reply::Identity(Identity {
        version,
        board,
        size: detected,
        adc_bits,
        fixture,
    }) = app.handle(Command::Identify)
    else {
        panic!("not an identity");
    };
    assert_eq!(
        (
            version.as_str(),
            board.as_str(),
            detected,
            adc_bits,
            fixture
        ),
        (firmware::VERSION, "nucleo-f446re", 0, 10, false)
    );
    assert_eq!(
        app.handle(Command::NewGame),
        Reply::Turn(Outcome::NewGame { size: 4 })
    );
    let Reply::Codes(m) = app.handle(Command::Measure {
        pullups: true,
        samples: 2,
    }) else {
        panic!("no codes");
    };
    assert_eq!(
        m.codes.as_slice(),
        common::nominal_codes(&app.hardware().sampler.position)
    );
    let Reply::Codes(released) = app.handle(Command::Measure {
        pullups: false,
        samples: 1,
    }) else {
        panic!("no codes");
    };
    assert_eq!(released.codes.last(), Some(&300));
    assert!(
        app.hardware().sampler.pullups,
        "pull-ups back on after measuring"
    );
    for samples in [0, 65] {
        assert_eq!(
            app.handle(Command::Measure {
                pullups: true,
                samples
            }),
            Reply::Error(ProtocolError::BadArgument)
        );
    }
    let Reply::Turn(Outcome::Move(first)) = app.handle(Command::Decide) else {
        panic!("no move");
    };
    let Reply::Status(status) = app.handle(Command::Status) else {
        panic!("no status");
    };
    assert_eq!(status.phase, Phase::Playing);
    assert_eq!((status.size, status.plies), (4, 1));
    assert_eq!(status.pending_cut, Some(first));
    assert_eq!(status.edges.len(), 25);
    assert_eq!(
        status.edges[common::edge(size(4), "A1").index(size(4))],
        EdgeState::Cut
    );
    assert_eq!(status.leds, LedPattern::edge(common::edge(size(4), "A1")));
    assert_eq!(
        app.handle(Command::SetEdges([EdgeState::Resistor; 25])),
        Reply::Error(ProtocolError::NoFixture)
    );
    assert_eq!(BOARD.name, "nucleo-f446re");
    finish(app);
}
