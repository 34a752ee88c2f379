//! The perfect players: the first player wins the bird cage, and the perfect one never
//! loses it, whatever the other side does.

use std::collections::HashSet;

use emulator::players::{Opponent, perfect_move};
use heuristic::{Model, Position, Side, Size};
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use switching::perfect;

/// Plays `perfect_side` with the perfect player against every line of the other side;
/// returns how many finished games were reached, panicking on any loss.
fn every_line(size: Size, perfect_side: Side) -> usize {
    let mut seen = HashSet::new();
    let mut stack = vec![Position::new(size, perfect_side)];
    let mut finished = 0;
    while let Some(p) = stack.pop() {
        if !seen.insert(perfect::key(&p)) {
            continue;
        }
        match (p.winner(), p.to_move()) {
            (Some(w), _) => {
                assert_eq!(w, perfect_side, "lost at {:?}", perfect::key(&p));
                finished += 1;
            }
            (None, Some(side)) if side == perfect_side => {
                let mut child = p.clone();
                child.play_edge(perfect_move(&p).unwrap()).unwrap();
                stack.push(child);
            }
            (None, _) => {
                for e in p.resistors() {
                    let mut child = p.clone();
                    child.play_edge(e).unwrap();
                    stack.push(child);
                }
            }
        }
    }
    finished
}

#[test]
fn perfect_first_player_never_loses_on_m3_against_any_line() {
    let m3 = Size::new(3).unwrap();
    // Cut first (the machine's game) and Short first (Bridg-It's): both are won.
    let (cut_first, short_first) = (every_line(m3, Side::Cut), every_line(m3, Side::Short));
    eprintln!("finished games: {cut_first} (Cut first), {short_first} (Short first)");
    assert!(cut_first > 100 && short_first > 100);
}

#[test]
fn perfect_first_player_wins_random_lines_on_m4_to_m6() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for m in 4..=6 {
        let size = Size::new(m).unwrap();
        for first in [Side::Cut, Side::Short] {
            for game in 0..40 {
                let mut p = Position::new(size, first);
                while let Some(side) = p.to_move() {
                    let edge = if side == first {
                        perfect_move(&p).unwrap()
                    } else if rng.random_bool(0.5) {
                        // Half the time a sensible opponent, half a random one.
                        Opponent::Heuristic(Model::Ideal).reply(&p).unwrap()
                    } else {
                        p.resistors().choose(&mut rng).unwrap()
                    };
                    p.play_edge(edge).unwrap();
                }
                assert_eq!(p.winner(), Some(first), "M={m} {first} first, game {game}");
            }
        }
    }
}

#[test]
fn the_heuristic_players_choose_exactly_as_the_exact_ranking() {
    // The float short-cut must never change a move or a tie set.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut float_decided = 0;
    for _ in 0..1500 {
        let m = rng.random_range(2..=6);
        let p = emulator::games::any_position(&mut rng, Size::new(m).unwrap());
        for model in Model::ALL {
            let ranking = emulator::exact::solve_model(&p, model).rank();
            let (choice, tied) = match (&ranking, p.to_move()) {
                (Some(r), Some(_)) => (Some(r.choice), r.tied.to_vec()),
                _ => (None, Vec::new()),
            };
            assert_eq!(emulator::players::heuristic_move(&p, model), choice);
            assert_eq!(emulator::players::heuristic_moves(&p, model), tied);
            float_decided += usize::from(tied.len() == 1);
        }
    }
    assert!(float_decided > 500, "{float_decided}");
}

#[test]
fn the_perfect_opponent_beats_the_heuristic_from_either_side_when_it_moves_first() {
    for m in 3..=5 {
        let size = Size::new(m).unwrap();
        for first in [Side::Cut, Side::Short] {
            let mut p = Position::new(size, first);
            while let Some(side) = p.to_move() {
                let who = if side == first {
                    Opponent::Perfect
                } else {
                    Opponent::Heuristic(Model::Reference)
                };
                p.play_edge(who.reply(&p).unwrap()).unwrap();
            }
            assert_eq!(p.winner(), Some(first), "M={m}, {first} first");
        }
    }
}
