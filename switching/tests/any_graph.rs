//! Games on any graph: the enumeration of small games (nauty against brute force), and
//! Lehman's solver against brute-force minimax on every one of them and on random
//! multigraphs; the cage as a graph against the cage's own positions.

use std::collections::{BTreeSet, HashSet};

use heuristic::{Position, Side, Size};
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use switching::enumerate;
use switching::perfect::{self, minimax::GraphMinimax};
use switching::{Graph, Play};

/// Games (connected simple graph, unordered terminal pair) up to isomorphism on N = 2, 3,
/// … vertices. Source: two independent methods agreeing, nauty (`nauty-geng -c N`, each
/// pair relabelled to 0 and 1, `nauty-labelg -faa`, deduplicated) and the brute-force
/// canonical form over all 2·(N−2)! terminal-preserving permutations of every labelled
/// graph (`switching::enumerate::brute_force`). N = 6 alone is 879 (the figure);
/// N = 2..=6 together are 997.
const GAMES: [(usize, usize); 6] = [(2, 1), (3, 3), (4, 16), (5, 98), (6, 879), (7, 11_260)];

#[test]
fn brute_force_counts() {
    for (n, count) in GAMES {
        let games = enumerate::brute_force(n);
        assert_eq!(games.len(), count, "N = {n}");
        // Every one is connected, has N vertices and is its own canonical form.
        for g in &games {
            assert!(g.is_connected() && g.vertices() == n);
            assert_eq!(&enumerate::canonical(g), g);
        }
    }
    // Hand count for N = 3: the path from an end, the path from its middle, the triangle.
    let three: BTreeSet<usize> = enumerate::brute_force(3)
        .iter()
        .map(|g| g.edges().len())
        .collect();
    assert_eq!(three, BTreeSet::from([2, 3]));
}

#[test]
fn nauty_counts_and_games_match_brute_force() {
    if !enumerate::nauty_available().expect("nauty's geng is installed but does not run") {
        needs::skip("nauty", "nauty not installed");
        return;
    }
    for (n, count) in GAMES {
        let games = enumerate::games(n).unwrap();
        assert_eq!(games.len(), count, "N = {n}");
        // The same games: nauty's, put in brute-force canonical form, are the brute-force
        // list, each once.
        let ours: BTreeSet<_> = enumerate::brute_force(n).into_iter().collect();
        let theirs: BTreeSet<_> = games.iter().map(enumerate::canonical).collect();
        assert_eq!(theirs.len(), count, "N = {n}: nauty listed a game twice");
        assert_eq!(theirs, ours, "N = {n}");
    }
    assert_eq!(
        enumerate::games(1).unwrap_err().to_string(),
        "1 vertices: games need 2 to 10 vertices"
    );
}

#[test]
fn missing_nauty_is_a_typed_error() {
    let err = enumerate::NautyError::NotFound("nauty-geng");
    assert_eq!(
        err.to_string(),
        "nauty-geng not found: install Debian's nauty package"
    );
}

/// Compares winner and every winning move with minimax; false (after printing) on a
/// mismatch.
fn agrees(oracle: &mut GraphMinimax, play: &Play<'_>) -> bool {
    let verdict = perfect::solve(play);
    let want_winner = oracle.winner(play);
    let want_moves = oracle.winning_moves(play);
    let ok = verdict.perfect_winner == want_winner
        && verdict.winning_moves == want_moves
        && perfect::winner(play) == want_winner
        && perfect::winning_move(play) == want_moves.first().copied();
    if !ok {
        eprintln!(
            "mismatch on\n{}after {:?} ({:?} to move): solver {:?} {:?}, minimax {:?} {:?}",
            play.graph(),
            play.record(),
            play.to_move(),
            verdict.perfect_winner,
            verdict.winning_moves,
            want_winner,
            want_moves
        );
    }
    ok
}

/// Every position reachable from the start with `first` to move, each once.
fn reachable(graph: &Graph, first: Side) -> Vec<Play<'_>> {
    let mut seen = HashSet::new();
    let mut stack = vec![Play::new(graph, first)];
    let mut all = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(p.states().to_vec()) {
            continue;
        }
        if p.winner().is_none() {
            for e in p.resistors() {
                let mut child = p.clone();
                child.play(e).unwrap();
                stack.push(child);
            }
        }
        all.push(p);
    }
    all
}

/// Up to `plies` random moves from the start.
fn random_play<'g>(rng: &mut impl Rng, graph: &'g Graph, first: Side, plies: usize) -> Play<'g> {
    let mut play = Play::new(graph, first);
    for _ in 0..plies {
        let Some(e) = play.resistors().choose(rng) else {
            break;
        };
        if play.play(e).is_err() {
            break;
        }
    }
    play
}

/// Every game of 2 to 5 vertices: every position reachable from the start, either side
/// first. Every game of 6 vertices: both start positions, and 24 random positions of each
/// game (as many with each side first, 1 to 8 plies in): 139,698 positions, about 5 to 20 s.
/// With `ANY_GRAPH_FULL=1`, every reachable position of the 6-vertex games too: 28,139,408
/// positions, zero mismatches, 959 s on the shared 2-core machine (too slow for every run).
#[test]
fn solver_matches_minimax_on_every_small_game() {
    if !enumerate::nauty_available().expect("nauty's geng is installed but does not run") {
        needs::skip("nauty", "nauty not installed");
        return;
    }
    let full = std::env::var_os("ANY_GRAPH_FULL").is_some_and(|v| v == "1");
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut checked = 0usize;
    let mut mismatches = 0usize;
    let mut winners = [0usize; 2];
    for n in 2..=6 {
        for simple in enumerate::games(n).unwrap() {
            let graph = simple.game(0, 1).unwrap();
            let mut oracle = GraphMinimax::new();
            for first in [Side::Cut, Side::Short] {
                let plays = if n <= 5 || full {
                    reachable(&graph, first)
                } else {
                    let mut v = vec![Play::new(&graph, first)];
                    v.extend((0..12).map(|i| random_play(&mut rng, &graph, first, 1 + i % 8)));
                    v
                };
                for play in &plays {
                    checked += 1;
                    if !agrees(&mut oracle, play) {
                        mismatches += 1;
                    }
                }
                winners[usize::from(perfect::winner(&Play::new(&graph, first)) == first)] += 1;
            }
        }
    }
    assert_eq!(
        mismatches, 0,
        "{mismatches} mismatches in {checked} positions"
    );
    println!("{checked} positions checked");
    assert!(checked > 100_000, "{checked} positions");
    // On some games the first player wins, on others (Short's two trees) the second.
    assert!(winners.iter().all(|&w| w > 100), "{winners:?}");
}

/// 2,000 random multigraphs (2 to 8 vertices, up to 14 edges, parallel edges included),
/// a random position in each.
#[test]
fn solver_matches_minimax_on_random_multigraphs() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut mismatches = 0;
    let mut parallel = 0;
    let mut outcomes = [0usize; 2];
    for _ in 0..2000 {
        let vertices = rng.random_range(2..=8);
        let edges = rng.random_range(vertices - 1..=14);
        let graph = switching::random::multigraph(&mut rng, vertices, edges);
        let mut pairs = HashSet::new();
        if !graph
            .edges()
            .iter()
            .all(|e| pairs.insert([e.ends[0].min(e.ends[1]), e.ends[0].max(e.ends[1])]))
        {
            parallel += 1;
        }
        let first = if rng.random_bool(0.5) {
            Side::Cut
        } else {
            Side::Short
        };
        let plies = rng.random_range(0..=edges / 2);
        let play = random_play(&mut rng, &graph, first, plies);
        let mut oracle = GraphMinimax::new();
        if !agrees(&mut oracle, &play) {
            mismatches += 1;
        }
        if play.winner().is_none() {
            outcomes[usize::from(perfect::winner(&play) == Side::Short)] += 1;
        }
    }
    assert_eq!(mismatches, 0);
    assert!(parallel > 500, "{parallel} multigraphs with parallel edges");
    assert!(outcomes.iter().all(|&c| c > 300), "{outcomes:?}");
}

/// `Graph::cage(M)` is the cage: on random positions of M = 2..=5, the same moves give the
/// same winner, the same perfect-play winner and the same winning moves (edge i of the
/// graph is the cage edge of reading-order index i).
#[test]
fn cage_graph_matches_cage_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for m in 2..=5 {
        let size = Size::new(m).unwrap();
        let graph = Graph::cage(size);
        let edges: Vec<_> = size.edges().collect();
        for k in 0..200 {
            let first = if k % 2 == 0 { Side::Cut } else { Side::Short };
            let mut position = Position::new(size, first);
            let mut play = Play::new(&graph, first);
            for _ in 0..rng.random_range(0..=edges.len()) {
                let Some(i) = play.resistors().choose(&mut rng) else {
                    break;
                };
                position.play_edge(edges[i]).unwrap();
                play.play(i).unwrap();
                assert_eq!(play.winner(), position.winner(), "M={m}");
                if play.winner().is_some() {
                    break;
                }
            }
            assert_eq!(play.states(), position.states(), "M={m}");
            assert_eq!(play.to_move(), position.to_move(), "M={m}");
            let a = perfect::solve(&position);
            let b = perfect::solve(&play);
            assert_eq!(a.perfect_winner, b.perfect_winner, "M={m}");
            let moves: Vec<usize> = a.winning_moves.iter().map(|e| e.index(size)).collect();
            assert_eq!(moves, b.winning_moves, "M={m}");
            assert_eq!(perfect::winner(&position), perfect::winner(&play));
        }
    }
}
