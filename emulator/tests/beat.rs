//! The search for a Short strategy that beats the machine, against a plain AND-OR search
//! without the solver's cut-offs, and the lines it reports replayed move by move.

use std::collections::HashMap;

use emulator::beat::{Ties, beat};
use emulator::players::{heuristic_move, heuristic_moves};
use heuristic::{Model, Position, Side, Size};

/// Short to move: can Short win against the machine whatever it picks among `ties`?
/// Plain memoised search to the end of the game, no solver.
fn plain_short_wins(
    p: &Position,
    model: Model,
    ties: Ties,
    memo: &mut HashMap<(u128, u128), bool>,
) -> bool {
    if let Some(w) = p.winner() {
        return w == Side::Short;
    }
    let key = switching::perfect::key(p);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let won = p.resistors().any(|f| {
        let mut c = p.clone();
        c.play_edge(f).unwrap();
        if let Some(w) = c.winner() {
            return w == Side::Short;
        }
        let replies = match ties {
            Ties::ReadingOrder => heuristic_move(&c, model).into_iter().collect(),
            Ties::Any => heuristic_moves(&c, model),
        };
        replies.into_iter().all(|e| {
            let mut g = c.clone();
            g.play_edge(e).unwrap();
            plain_short_wins(&g, model, ties, memo)
        })
    });
    memo.insert(key, won);
    won
}

/// Replays the reported line: Cut's moves must be the machine's (reading order), and a
/// beatable report's line must end in Short's win.
fn check_line(size: Size, model: Model, moves: &[heuristic::Move], short_wins: bool) {
    let mut p = Position::new(size, Side::Cut);
    for (i, &mv) in moves.iter().enumerate() {
        if mv.side == Side::Cut && i > 0 {
            assert_eq!(Some(mv.edge), heuristic_move(&p, model), "move {}", i + 1);
        }
        p.play(mv).unwrap();
    }
    let want = if short_wins { Side::Short } else { Side::Cut };
    assert_eq!(p.winner(), Some(want));
}

#[test]
fn m2_and_m3_answers_match_a_plain_search() {
    for m in [2, 3] {
        let size = Size::new(m).unwrap();
        for model in Model::ALL {
            for ties in [Ties::ReadingOrder, Ties::Any] {
                let report = beat(size, model, ties);
                let start = Position::new(size, Side::Cut);
                let openings = match ties {
                    Ties::ReadingOrder => heuristic_move(&start, model).into_iter().collect(),
                    Ties::Any => heuristic_moves(&start, model),
                };
                let mut memo = HashMap::new();
                let unbeaten: Vec<_> = openings
                    .into_iter()
                    .filter(|&e| {
                        let mut p = start.clone();
                        p.play_edge(e).unwrap();
                        !plain_short_wins(&p, model, ties, &mut memo)
                    })
                    .collect();
                let what = format!("M={m} {model} {}", ties.name());
                assert_eq!(report.beatable, unbeaten.is_empty(), "{what}");
                if ties == Ties::Any {
                    assert_eq!(report.unbeaten_openings, unbeaten, "{what}");
                }
                check_line(size, model, &report.line, report.beatable);
            }
        }
    }
}

#[test]
fn the_machine_is_beatable_at_m3_and_m4_as_the_original_played() {
    // Fisher's result for the original's tie-break, on both networks.
    for m in [3, 4] {
        for model in Model::ALL {
            let size = Size::new(m).unwrap();
            let report = beat(size, model, Ties::ReadingOrder);
            assert!(report.beatable, "M={m} {model}");
            assert!(report.strategy_positions >= 1);
            assert!(report.unbeaten_openings.is_empty());
            check_line(size, model, &report.line, true);
        }
    }
}

#[test]
fn with_any_tie_break_m3_has_unbeaten_openings_and_m4_has_none() {
    let m3 = beat(Size::new(3).unwrap(), Model::Ideal, Ties::Any);
    assert!(!m3.beatable);
    let names: Vec<String> = m3.unbeaten_openings.iter().map(|e| e.to_string()).collect();
    assert_eq!(names, ["C5", "A3", "C3", "E3", "C1"]);
    // The line opens with one of them and the machine wins it against perfect Short.
    assert_eq!(m3.line[0].edge, m3.unbeaten_openings[0]);
    let m4 = beat(Size::new(4).unwrap(), Model::Ideal, Ties::Any);
    assert!(m4.beatable);
    assert!(m4.strategy_positions > 10, "{}", m4.strategy_positions);
    check_line(Size::new(4).unwrap(), Model::Ideal, &m4.line, true);
}
