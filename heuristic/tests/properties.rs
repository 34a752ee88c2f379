//! Property tests: random legal games and arbitrary measurements never panic, and the
//! heuristic never chooses an edge that has been played.

use heuristic::{EdgeState, Model, Position, Side, Size, rank, solve};
use proptest::prelude::*;

/// A game as a size, an opener and a list of picks; pick k plays the k-th resistor left
/// (mod how many remain), so every list is a legal game.
fn game() -> impl Strategy<Value = (u32, bool, Vec<usize>)> {
    (
        2u32..=8,
        any::<bool>(),
        prop::collection::vec(any::<usize>(), 0..120),
    )
}

fn replay(m: u32, cut_first: bool, picks: &[usize]) -> Vec<Position> {
    let size = Size::new(m).unwrap();
    let first = if cut_first { Side::Cut } else { Side::Short };
    let mut p = Position::new(size, first);
    let mut seen = vec![p.clone()];
    for &k in picks {
        if p.winner().is_some() {
            break;
        }
        let left: Vec<_> = p.resistors().collect();
        p.play_edge(left[k % left.len()]).unwrap();
        seen.push(p.clone());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solved_games_never_choose_a_played_edge((m, cut_first, picks) in game()) {
        for p in replay(m, cut_first, &picks) {
            for model in Model::ALL {
                let v = solve::<f64>(&p, &model.circuit(p.size())).unwrap();
                prop_assert!(v.values().iter().all(|x| x.is_finite()));
                if let Some(r) = rank(&p, v.values()).unwrap() {
                    prop_assert_eq!(p.state(r.choice), EdgeState::Resistor);
                    prop_assert!(r.tied.iter().all(|&e| p.state(e) == EdgeState::Resistor));
                    prop_assert_eq!(r.tied[0], r.choice);
                    prop_assert!(r.runner_up.is_none_or(|d| d < r.best));
                } else {
                    prop_assert_eq!(p.resistors().count(), 0);
                }
            }
        }
    }

    #[test]
    fn arbitrary_codes_never_choose_a_played_edge(
        (m, cut_first, picks) in game(),
        codes in prop::collection::vec(0u16..1024, 58),
    ) {
        let p = replay(m, cut_first, &picks).pop().unwrap();
        let values = &codes[..p.size().node_count()];
        match rank(&p, values).unwrap() {
            Some(r) => {
                prop_assert_eq!(p.state(r.choice), EdgeState::Resistor);
                // The choice is the first of the best in reading order.
                let first_best = p.resistors()
                    .find(|&e| heuristic::edge_drop(&p, values, e) == Some(r.best));
                prop_assert_eq!(first_best, Some(r.choice));
            }
            None => prop_assert_eq!(p.resistors().count(), 0),
        }
        // Too few values is an error, not a panic.
        prop_assert!(rank(&p, &codes[..p.size().node_count() - 1]).is_err());
    }

    #[test]
    fn records_round_trip((m, cut_first, picks) in game()) {
        let positions = replay(m, cut_first, &picks);
        let last = positions.last().unwrap();
        // Rebuild the record from the differences between consecutive positions.
        let first = if cut_first { Side::Cut } else { Side::Short };
        let mut record = heuristic::Record::new(first);
        for pair in positions.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let edge = after.size().edges().find(|&e| before.state(e) != after.state(e)).unwrap();
            let side = before.to_move().unwrap();
            record.push(heuristic::Move { side, edge }).unwrap();
        }
        let again = Position::from_record(last.size(), first, &record.to_string()).unwrap();
        prop_assert_eq!(&again, last);
    }

    #[test]
    fn garbage_records_are_errors_not_panics(m in 2u32..=8, text in ".{0,40}") {
        let size = Size::new(m).unwrap();
        let _ = Position::from_record(size, Side::Cut, &text);
        let _ = heuristic::Edge::parse(size, &text);
    }
}
