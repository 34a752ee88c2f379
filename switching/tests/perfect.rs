//! The Lehman solver against the golden verdicts and against brute-force minimax.

use std::collections::HashSet;

use heuristic::{Position, Side, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use switching::perfect::{self, minimax::Minimax};

fn side(name: &str) -> Side {
    match name {
        "cut" => Side::Cut,
        "short" => Side::Short,
        other => panic!("bad side {other}"),
    }
}

#[test]
fn every_golden_verdict_matches() {
    let text = include_str!("../../emulator/tests/golden/perfect.jsonl");
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let row: Value = serde_json::from_str(line).unwrap();
        let size = Size::new(row["size"].as_u64().unwrap() as u32).unwrap();
        let record = row["moves"].as_str().unwrap();
        let position = Position::from_record(size, Side::Cut, record).unwrap();
        let verdict = perfect::solve(&position);
        let what = format!("line {}: M={} {record}", n + 1, size.get());
        assert_eq!(
            verdict.to_move,
            Some(side(row["to_move"].as_str().unwrap())),
            "{what}"
        );
        assert_eq!(
            verdict.perfect_winner,
            side(row["perfect_winner"].as_str().unwrap()),
            "{what}"
        );
        assert_eq!(perfect::winner(&position), verdict.perfect_winner, "{what}");
        // A winner to move has a winning move; a loser has none.
        assert_eq!(
            verdict.winning_moves.is_empty(),
            verdict.to_move != Some(verdict.perfect_winner),
            "{what}"
        );
        checked += 1;
    }
    assert_eq!(checked, 40);
}

/// Compares winner and every winning move with minimax; returns false on a mismatch
/// (after printing it) so that a test can count them.
fn agrees(oracle: &mut Minimax, position: &Position) -> bool {
    let verdict = perfect::solve(position);
    let want_winner = oracle.winner(position);
    let want_moves = oracle.winning_moves(position);
    let ok = verdict.perfect_winner == want_winner
        && verdict.winning_moves == want_moves
        && perfect::winner(position) == want_winner
        && perfect::winning_move(position) == want_moves.first().copied();
    if !ok {
        eprintln!(
            "mismatch at {:?}: solver {:?} {:?}, minimax {:?} {:?}",
            perfect::key(position),
            verdict.perfect_winner,
            verdict.winning_moves,
            want_winner,
            want_moves
        );
    }
    ok
}

/// Every position reachable from the start with `first` to move, each once.
fn reachable(size: Size, first: Side) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut stack = vec![Position::new(size, first)];
    let mut all = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(perfect::key(&p)) {
            continue;
        }
        if p.winner().is_none() {
            for e in p.resistors() {
                let mut child = p.clone();
                child.play_edge(e).unwrap();
                stack.push(child);
            }
        }
        all.push(p);
    }
    all
}

#[test]
fn solver_matches_minimax_on_every_position_of_m2_and_m3() {
    for m in [2, 3] {
        let size = Size::new(m).unwrap();
        for first in [Side::Cut, Side::Short] {
            let mut oracle = Minimax::new();
            let positions = reachable(size, first);
            let mismatches = positions.iter().filter(|p| !agrees(&mut oracle, p)).count();
            assert_eq!(mismatches, 0, "M={m}, {first} first");
            if m == 3 {
                assert!(positions.len() > 100_000, "{} positions", positions.len());
            }
        }
    }
}

#[test]
fn solver_matches_minimax_on_random_m4_positions() {
    let size = Size::new(4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut oracle = Minimax::new();
    let mut checked = [0usize; 2];
    let mut mismatches = 0;
    while checked.iter().sum::<usize>() < 2000 {
        let first = if rng.random_bool(0.5) {
            Side::Cut
        } else {
            Side::Short
        };
        // Deep enough that minimax stays quick, early enough to be open.
        let plies = 14 + (checked.iter().sum::<usize>() % 6);
        let p = switching::random::random_position(&mut rng, size, first, plies);
        if p.winner().is_some() {
            continue;
        }
        if !agrees(&mut oracle, &p) {
            mismatches += 1;
        }
        checked[usize::from(perfect::winner(&p) == Side::Short)] += 1;
    }
    assert_eq!(mismatches, 0);
    // Both outcomes are well represented.
    assert!(checked.iter().all(|&c| c > 300), "{checked:?}");
}

/// Sparse random multigraphs, full of pendant blocks and paths off to the side (moves
/// there are passes, which the solver prunes): every position of each, solver against
/// brute force, both sides first.
#[test]
fn solver_matches_minimax_on_sparse_multigraphs_with_pendant_parts() {
    use switching::Play;
    use switching::perfect::minimax::GraphMinimax;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut positions = 0;
    for _ in 0..150 {
        let vertices = rng.random_range(3..=8);
        let edges = rng.random_range(vertices - 1..=vertices + 3);
        let graph = switching::random::multigraph(&mut rng, vertices, edges);
        for first in [Side::Cut, Side::Short] {
            let mut oracle = GraphMinimax::new();
            let mut stack = vec![Play::new(&graph, first)];
            while let Some(p) = stack.pop() {
                let verdict = perfect::solve(&p);
                assert_eq!(
                    verdict.perfect_winner,
                    oracle.winner(&p),
                    "{graph}{}",
                    p.record()
                );
                assert_eq!(
                    verdict.winning_moves,
                    oracle.winning_moves(&p),
                    "{graph}{}",
                    p.record()
                );
                positions += 1;
                for e in p.resistors() {
                    let mut child = p.clone();
                    child.play(e).unwrap();
                    if child.winner().is_none() && rng.random_bool(0.5) {
                        stack.push(child);
                    }
                }
            }
        }
    }
    assert!(positions > 5_000, "{positions} positions");
}
