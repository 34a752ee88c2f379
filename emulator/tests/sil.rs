//! SIL: the real firmware application on the emulated board, whole games on M=3 and M=4,
//! both profiles, drawn parts; every machine move checked against the exact ideal choice,
//! and divergences reported rather than hidden.

use emulator::emulated::{Defect, EmulatedCage, GameLog, run_game};
use heuristic::{Position, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_short(rng: &mut ChaCha8Rng) -> impl FnMut(&Position) -> heuristic::Edge + '_ {
    move |p: &Position| {
        let edges: Vec<_> = p.resistors().collect();
        edges[rng.random_range(0..edges.len())]
    }
}

fn games(profile: &'static boards::Profile, m: u32, count: u64) -> Vec<GameLog> {
    let size = Size::new(m).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(m) * 1000 + count);
    (0..count)
        .map(|seed| {
            let cage = EmulatedCage::new(profile, size, Some(seed)).unwrap();
            let mut app = cage.app(profile, firmware::Config::default());
            run_game(&cage, &mut app, random_short(&mut rng))
        })
        .collect()
}

#[test]
fn the_firmware_plays_whole_games_on_the_emulated_board() {
    let mut turns = 0;
    let mut divergences = Vec::new();
    for profile in boards::PROFILES {
        for m in [3, 4] {
            for log in games(profile, m, 16) {
                if let Err(e) = &log.result {
                    panic!("{} M={m}: {e}", profile.name);
                }
                // The verdict was checked against the position inside run_game; the game
                // really ended.
                assert!(log.moves.len() >= usize::from(Size::new(m).unwrap().get()));
                for t in &log.turns {
                    turns += 1;
                    if t.diverges() {
                        divergences.push((profile.name, log.record(), t.clone()));
                    }
                }
            }
        }
    }
    eprintln!(
        "{turns} machine moves, {} diverge from the exact ideal choice:",
        divergences.len()
    );
    for (board, record, t) in &divergences {
        let tied: Vec<String> = t.tied.iter().map(|e| e.to_string()).collect();
        eprintln!(
            "  {board}: game {record}: chose {} where ideal ties {} (ideal margin {} of the supply)",
            t.chosen,
            tied.join(" "),
            t.margin.map_or("none".to_string(), |m| format!("{m:.4}"))
        );
    }
    assert!(turns > 200, "{turns}");
    // The board differs from the ideal network by its pull-ups (1/30 of R), 1 % parts and a
    // 10-bit ADC: it may only disagree where the ideal choice is close.
    for (board, record, t) in &divergences {
        assert!(
            t.margin.is_some_and(|m| m < 0.05),
            "{board}: {record}: margin {:?}",
            t.margin
        );
    }
}

#[test]
fn a_cut_that_was_not_made_is_caught_by_the_self_check() {
    let profile = &boards::NUCLEO_F446RE;
    let m4 = Size::new(4).unwrap();
    let cage = EmulatedCage::new(profile, m4, Some(1)).unwrap();
    let mut app = cage.app(profile, firmware::Config::default());
    app.start();
    let firmware::Outcome::Move(square) = app.on_button() else {
        panic!("the machine should move first");
    };
    let cut = square.edge(m4).unwrap();
    // The person forgets the cut and plays a short elsewhere.
    let short = cage.position().resistors().find(|e| *e != cut).unwrap();
    let mut wrong = cage.position();
    wrong.set_to_move(heuristic::Side::Short);
    wrong
        .play(heuristic::Move {
            side: heuristic::Side::Short,
            edge: short,
        })
        .unwrap();
    cage.wire(wrong);
    let outcome = app.on_button();
    let firmware::Outcome::Fault(fault) = outcome else {
        panic!("the cut {cut} was not made, yet the firmware answered {outcome}");
    };
    let message = fault.to_string();
    assert!(message.contains(&cut.to_string()), "{message}");
    assert_eq!(cage.leds(), firmware::LedPattern::FAULT);
}

#[test]
fn replayed_firmware_moves_are_the_board_reading_choices() {
    use emulator::emulated::firmware_reply;
    use emulator::exact::solve_model;
    use emulator::physical::Board;
    use emulator::reading::Reader;
    use heuristic::{Model, Move, Side};
    let profile = &boards::NUCLEO_F446RE;
    let reader = Reader::Board {
        board: Box::new(Board::from_profile(profile)),
        seed: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut compared = 0;
    for m in [3, 4] {
        let size = Size::new(m).unwrap();
        for _ in 0..6 {
            let mut moves = Vec::new();
            let mut p = Position::new(size, Side::Cut);
            while p.winner().is_none() {
                let edge = match p.to_move() {
                    Some(Side::Cut) => {
                        let fw = firmware_reply(profile, None, size, &moves)
                            .unwrap()
                            .unwrap();
                        let exact = solve_model(&p, Model::Ideal);
                        let reading = reader.read(&p, &exact).unwrap();
                        assert_eq!(Some(fw), reading.ranking(&p).map(|r| r.choice));
                        compared += 1;
                        fw
                    }
                    _ => random_short(&mut rng)(&p),
                };
                let mv = Move {
                    side: p.to_move().unwrap(),
                    edge,
                };
                p.play(mv).unwrap();
                moves.push(mv);
            }
            assert_eq!(firmware_reply(profile, None, size, &moves).unwrap(), None);
        }
    }
    assert!(compared > 30, "{compared}");
}

#[test]
fn a_stuck_channel_and_an_open_resistor_change_what_the_sampler_reads() {
    use firmware::Sampler;
    let profile = &boards::NUCLEO_F446RE;
    let m4 = Size::new(4).unwrap();
    let cage = EmulatedCage::new(profile, m4, None).unwrap();
    let mut hw = cage.hardware();
    let node = m4.nodes().next().unwrap();
    let before = hw.sampler.read(node).unwrap();
    cage.inject(Defect::Stuck(node, 7)).unwrap();
    assert_ne!(before, 7);
    assert_eq!(hw.sampler.read(node).unwrap(), 7);
    // The top row's leftmost vertical: with it open, the node below it reads lower.
    let fresh = EmulatedCage::new(profile, m4, None).unwrap();
    let mut hw = fresh.hardware();
    let mut codes = || -> Vec<u16> { m4.nodes().map(|n| hw.sampler.read(n).unwrap()).collect() };
    let intact = codes();
    fresh
        .inject(Defect::Open(heuristic::Edge::new(m4, 1, 7).unwrap()))
        .unwrap();
    let broken = codes();
    assert_ne!(intact, broken);
    // The firmware's self-check refuses the first move on the broken cage.
    let mut app = fresh.app(profile, firmware::Config::default());
    app.start();
    assert!(matches!(app.on_button(), firmware::Outcome::Fault(_)));
}

#[test]
fn a_repaired_board_reads_as_a_fresh_one_and_faults_stay_on_the_game_board() {
    use firmware::Sampler;
    let profile = &boards::NUCLEO_F446RE;
    let m3 = Size::new(3).unwrap();
    let readings = |cage: &EmulatedCage| -> Vec<u16> {
        let mut hw = cage.hardware();
        (0..3)
            .flat_map(|_| m3.nodes().collect::<Vec<_>>())
            .map(|n| hw.sampler.read(n).unwrap())
            .collect()
    };
    // A drawn board: parts, a converter with noise.
    let fresh = readings(&EmulatedCage::new(profile, m3, Some(9)).unwrap());
    let cage = EmulatedCage::new(profile, m3, Some(9)).unwrap();
    let a5 = heuristic::Edge::new(m3, 1, 5).unwrap();
    cage.inject(Defect::Open(a5)).unwrap();
    cage.inject(Defect::SeriesShorted).unwrap();
    assert_ne!(readings(&cage), fresh);
    cage.repair();
    assert!(cage.faults().is_empty());
    assert_eq!(readings(&cage), fresh);
    // G7 is on the M=4 cage but not on the M=3 board; Q has no channel.
    let g7 = heuristic::Edge::new(Size::new(4).unwrap(), 7, 7).unwrap();
    assert_eq!(
        cage.inject(Defect::WireLeft(g7)).unwrap_err().to_string(),
        "G7 is not an edge of the M=3 board"
    );
    assert!(cage.inject(Defect::NoPullup(heuristic::Node::Top)).is_err());
    assert!(cage.faults().is_empty());
}

#[test]
fn a_wire_left_in_and_a_swap_change_the_cage_not_the_game() {
    let m3 = Size::new(3).unwrap();
    let game = Position::from_record(m3, heuristic::Side::Cut, "A5,c5").unwrap();
    let e = |name| heuristic::Edge::parse(m3, name).unwrap();
    let left = Defect::on_cage(&[Defect::WireLeft(e("A5"))], &game);
    assert_eq!(left.state(e("A5")), heuristic::EdgeState::Short);
    assert_eq!(left.state(e("C5")), heuristic::EdgeState::Short);
    let swapped = Defect::on_cage(&[Defect::Swapped(e("C5"), e("E1"))], &game);
    assert_eq!(swapped.state(e("C5")), heuristic::EdgeState::Resistor);
    assert_eq!(swapped.state(e("E1")), heuristic::EdgeState::Short);
    assert_eq!(swapped.state(e("A5")), heuristic::EdgeState::Cut);
    // Not cut yet: no wire left.
    let untouched = Defect::on_cage(&[Defect::WireLeft(e("C3"))], &game);
    assert_eq!(untouched.states(), game.states());
}
