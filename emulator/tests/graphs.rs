//! The network of any graph: the nodal solver (`graphs`) against the cage's solver, the
//! golden drops and hand-worked circuits, and Bridj-It 2.0's loop currents (`mesh`) against
//! the nodal solver.

use std::collections::HashSet;

use emulator::exact::solve_model;
use emulator::{graphs, mesh, players};
use heuristic::{EdgeState, Model, Position, Side, Size};
use num_rational::BigRational;
use num_traits::Signed;
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use switching::{Graph, Play};

fn ratio(text: &str) -> BigRational {
    text.parse().unwrap()
}

/// The graph solver's drops on the cage graph equal the cage solver's, edge by edge.
fn assert_same_drops(position: &Position, play: &Play, model: Model) {
    let cage = solve_model(position, model);
    let graph = graphs::solve(play, model);
    for (i, (edge, _)) in position.edges().enumerate() {
        assert_eq!(
            graph.drop(i),
            cage.drop(edge),
            "{model} {edge} at {:?}",
            play.record()
        );
    }
}

#[test]
fn cage_graph_drops_equal_the_cage_solver_on_the_golden_set() {
    let text = include_str!("golden/drops.jsonl");
    let mut checked = 0;
    for (line_no, line) in text.lines().enumerate() {
        let row: Value = serde_json::from_str(line).unwrap();
        let size = Size::new(row["size"].as_u64().unwrap() as u32).unwrap();
        let model: Model = row["network"].as_str().unwrap().parse().unwrap();
        let record = row["moves"].as_str().unwrap();
        let graph = Graph::cage(size);
        // The golden records write Short's moves in lower case; the graph's names are the
        // cage's, upper case.
        let play = Play::from_record(&graph, Side::Cut, &record.to_uppercase()).unwrap();
        let position = Position::from_record(size, Side::Cut, record).unwrap();
        assert_same_drops(&position, &play, model);
        let got = graphs::solve(&play, model);
        for (name, want) in row["drops"].as_object().unwrap() {
            let edge = graph.edge_named(name).unwrap();
            let want = want.as_str().map(ratio);
            assert_eq!(got.drop(edge), want, "line {}: {name}", line_no + 1);
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} drops checked");
}

/// A random game played on the cage and on its graph side by side.
fn random_pair<'g>(rng: &mut ChaCha8Rng, size: Size, graph: &'g Graph) -> (Position, Play<'g>) {
    let first = if rng.random_bool(0.7) {
        Side::Cut
    } else {
        Side::Short
    };
    let mut position = Position::new(size, first);
    let mut play = Play::new(graph, first);
    let plies = rng.random_range(0..=size.edge_count());
    for _ in 0..plies {
        let Some(edge) = position.resistors().choose(rng) else {
            break;
        };
        if position.winner().is_some() {
            break;
        }
        position.play_edge(edge).unwrap();
        play.play(edge.index(size)).unwrap();
    }
    assert_eq!(position.winner(), play.winner());
    (position, play)
}

#[test]
fn cage_graph_drops_equal_the_cage_solver_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    for m in 3..=5 {
        let size = Size::new(m).unwrap();
        let graph = Graph::cage(size);
        for _ in 0..150 {
            let (position, play) = random_pair(&mut rng, size, &graph);
            for model in Model::ALL {
                assert_same_drops(&position, &play, model);
            }
        }
    }
}

#[test]
fn heuristic_on_the_cage_graph_is_the_cage_heuristic() {
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let mut ties = 0;
    for m in 3..=5 {
        let size = Size::new(m).unwrap();
        let graph = Graph::cage(size);
        for game in 0..150 {
            let (position, play) = if game == 0 {
                // The start: symmetric, so exact ties.
                (Position::new(size, Side::Cut), Play::new(&graph, Side::Cut))
            } else {
                random_pair(&mut rng, size, &graph)
            };
            for model in Model::ALL {
                let index = |e: heuristic::Edge| e.index(size);
                let want: Vec<usize> = players::heuristic_moves(&position, model)
                    .into_iter()
                    .map(index)
                    .collect();
                assert_eq!(graphs::heuristic_moves(&play, model), want, "{model}");
                assert_eq!(
                    graphs::heuristic_move(&play, model),
                    players::heuristic_move(&position, model).map(index),
                    "{model} {}",
                    play.record()
                );
                ties += usize::from(want.len() > 1);
            }
        }
    }
    assert!(ties > 20, "only {ties} tied positions");
}

/// A Wheatstone bridge with its top-left arm doubled: s–a twice, s–b, a–t, b–t, and the
/// bridge a–b.
///
/// Ideal (unit conductances, s = 1, t = 0), Kirchhoff at a and b:
///   a: 2(1 − a) + (b − a) + (0 − a) = 0  →  4a − b = 2
///   b: (1 − b) + (a − b) + (0 − b) = 0   →  3b − a = 1
/// so b = 4a − 2, 12a − 6 − a = 1, a = 7/11, b = 6/11. Drops: s–a 4/11 (each), s–b 5/11,
/// a–t 7/11, b–t 6/11, a–b 1/11; the largest is a–t.
///
/// Reference (conductances ×30: edges 30, pull-ups 1 at a, b, t, series 30 from t to
/// ground; s = 1), Kirchhoff at a, b, t:
///   a: 60(1 − a) + 30(b − a) + 30(t − a) + (1 − a) = 0  →  121a − 30b − 30t = 61
///   b: 30(1 − b) + 30(a − b) + 30(t − b) + (1 − b) = 0  →  −30a + 91b − 30t = 31
///   t: 30(a − t) + 30(b − t) − 30t + (1 − t) = 0        →  −30a − 30b + 91t = 1
/// By Cramer's rule, det = 675301 = 121·5581, a = 566401/675301 = 4681/5581,
/// b = 539401/675301, t = 371971/675301. Drops: s–a 1 − a = 900/5581, s–b 135900/675301,
/// a–t 194430/675301, b–t 167430/675301 = 30/121, a–b 27000/675301. Check at t: 30·(194430
/// + 167430) + (675301 − 371971) = 11159130 = 30·371971. The largest is a–t again.
fn bridge() -> Graph {
    let edges = [
        ("s", "a"),
        ("s", "a"),
        ("s", "b"),
        ("a", "t"),
        ("b", "t"),
        ("a", "b"),
    ];
    Graph::new(("s", "t"), edges.iter().map(|&(u, v)| (u, v, None))).unwrap()
}

fn texts(drops: &[Option<BigRational>]) -> Vec<String> {
    drops
        .iter()
        .map(|d| d.as_ref().map_or("cut".into(), ToString::to_string))
        .collect()
}

#[test]
fn wheatstone_bridge_worked_by_hand() {
    let g = bridge();
    let play = Play::new(&g, Side::Cut);
    let ideal = graphs::solve(&play, Model::Ideal);
    assert_eq!(
        texts(&ideal.drops()),
        ["4/11", "4/11", "5/11", "7/11", "6/11", "1/11"]
    );
    assert_eq!(ideal.voltage(1), Some(ratio("7/11")));
    let reference = graphs::solve(&play, Model::Reference);
    assert_eq!(
        texts(&reference.drops()),
        [
            "900/5581",
            "900/5581",
            "135900/675301",
            "194430/675301",
            "30/121",
            "27000/675301"
        ]
    );
    // The ground terminal floats above ground on the series resistor.
    assert_eq!(reference.voltage(3), Some(ratio("371971/675301")));
    for model in Model::ALL {
        assert_eq!(graphs::heuristic_move(&play, model), Some(3), "{model}");
        assert_eq!(graphs::heuristic_moves(&play, model), [3], "{model}");
    }
    // Loop currents: the same values as currents, signed along each edge as written.
    let currents = mesh::currents(&play);
    assert_eq!(
        texts(&currents),
        ["4/11", "4/11", "5/11", "7/11", "6/11", "1/11"]
    );

    // Cut the bridge's rung and short s–b: a sits between two s–a resistors and a–t.
    // Ideal: s–a doubled (1/2 R) in series with a–t (R): a = 2/3; b–t carries the whole
    // supply.
    let play = Play::from_record(&g, Side::Cut, "a-b,s-b").unwrap();
    let ideal = graphs::solve(&play, Model::Ideal);
    assert_eq!(
        texts(&ideal.drops()),
        ["1/3", "1/3", "0", "2/3", "1", "cut"]
    );
    assert_eq!(graphs::heuristic_moves(&play, Model::Ideal), [4]);
    let currents = mesh::currents(&play);
    assert_eq!(
        texts(&currents),
        ["1/3", "1/3", "cut", "2/3", "1", "cut"],
        "the wire's current is not reported"
    );
}

/// Parts that nothing joins to a source carry nothing: a resistor hanging off the
/// network, and a piece cut off from it.
#[test]
fn floating_parts_drop_zero() {
    // s–t directly; s–x a dead end; y–z–w a piece hanging on s only through s–y.
    let edges = [
        ("s", "t"),
        ("s", "x"),
        ("s", "y"),
        ("y", "z"),
        ("z", "w"),
        ("w", "y"),
        ("z", "t"),
    ];
    let g = Graph::new(("s", "t"), edges.iter().map(|&(u, v)| (u, v, None))).unwrap();
    // Cut z–t and s–y (Short plays y–z in between): y, z, w float in the ideal network.
    let play = Play::from_record(&g, Side::Cut, "z-t,y-z,s-y").unwrap();
    assert_eq!(play.to_move(), Some(Side::Short));
    // Reference: t sits on the series resistor; at t, 30(1 − t) + (1 − t) = 30t, so
    // t = 31/61 and s–t drops 30/61.
    for (model, direct) in [(Model::Ideal, "1"), (Model::Reference, "30/61")] {
        let v = graphs::solve(&play, model);
        let drops = texts(&v.drops());
        assert_eq!(drops, [direct, "0", "cut", "0", "0", "0", "cut"], "{model}");
        let y = g.vertices().iter().position(|n| n == "y").unwrap();
        assert_eq!(v.is_floating(y), model == Model::Ideal, "{model}");
        assert_eq!(graphs::heuristic_moves(&play, model), [0], "{model}");
    }
    let currents = mesh::currents(&play);
    assert_eq!(texts(&currents), ["1", "0", "cut", "cut", "0", "0", "cut"]);
}

/// Once Short's wires join the terminals the supply is shorted: everything sits at the
/// supply and no resistor carries current; the game is over.
#[test]
fn shorted_supply_gives_zero_drops_and_no_move() {
    let g: Graph = "terminals s t\ns m\nm t\ns t\ns t".parse().unwrap();
    let play = Play::from_record(&g, Side::Short, "s-m,s-t,m-t").unwrap();
    assert_eq!(play.winner(), Some(Side::Short));
    for model in Model::ALL {
        let v = graphs::solve(&play, model);
        assert_eq!(texts(&v.drops()), ["0", "0", "cut", "0"], "{model}");
        assert_eq!(graphs::heuristic_move(&play, model), None);
        assert!(graphs::heuristic_moves(&play, model).is_empty());
    }
    assert_eq!(texts(&mesh::currents(&play)), ["cut", "cut", "cut", "0"]);
}

/// A random position on a random connected multigraph (parallel edges included).
fn random_graph_position(rng: &mut ChaCha8Rng) -> Graph {
    let vertices = rng.random_range(2..=12);
    let edges = rng.random_range(vertices - 1..=3 * vertices);
    switching::random::multigraph(rng, vertices, edges)
}

fn random_play<'g>(rng: &mut ChaCha8Rng, graph: &'g Graph) -> Play<'g> {
    let first = if rng.random_bool(0.7) {
        Side::Cut
    } else {
        Side::Short
    };
    let mut play = Play::new(graph, first);
    let plies = rng.random_range(0..=graph.edges().len());
    for _ in 0..plies {
        if play.winner().is_some() {
            break;
        }
        let Some(edge) = play.resistors().choose(rng) else {
            break;
        };
        play.play(edge).unwrap();
    }
    play
}

/// The f64 pre-solve's shortcut (clear choices, equal-current classes) gives exactly the
/// tied set the exact drops give.
#[test]
fn heuristic_moves_are_the_exact_tied_set_on_random_graphs() {
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let mut tied = 0;
    for _ in 0..600 {
        let graph = random_graph_position(&mut rng);
        let play = random_play(&mut rng, &graph);
        for model in Model::ALL {
            let got = graphs::heuristic_moves(&play, model);
            if play.to_move().is_none() {
                assert!(got.is_empty());
                continue;
            }
            let v = graphs::solve(&play, model);
            let drops: Vec<(usize, BigRational)> =
                play.resistors().map(|e| (e, v.drop(e).unwrap())).collect();
            let best = drops.iter().map(|(_, d)| d).max().unwrap();
            let want: Vec<usize> = drops
                .iter()
                .filter(|(_, d)| d == best)
                .map(|&(e, _)| e)
                .collect();
            assert_eq!(got, want, "{model} {}\n{graph}", play.record());
            assert_eq!(graphs::heuristic_move(&play, model), Some(want[0]));
            tied += usize::from(want.len() > 1);
            // And the float drops are close to the exact ones.
            for (e, f) in graphs::float_drops(&play, model).into_iter().enumerate() {
                let exact = v
                    .drop(e)
                    .map(|d| num_traits::ToPrimitive::to_f64(&d).unwrap());
                match (f, exact) {
                    (Some(f), Some(x)) => assert!((f - x).abs() < 1e-12, "{f} {x}"),
                    (f, x) => assert_eq!(f.is_some(), x.is_some()),
                }
            }
        }
    }
    assert!(tied > 50, "only {tied} tied positions");
}

/// Loop currents against nodal drops: with unit resistors a resistor's drop is |current|.
fn assert_mesh_agrees(play: &Play) {
    let nodal = graphs::solve(play, Model::Ideal);
    let currents = mesh::currents(play);
    for (e, &state) in play.states().iter().enumerate() {
        match state {
            EdgeState::Resistor => assert_eq!(
                currents[e].as_ref().map(Signed::abs),
                nodal.drop(e),
                "edge {e} at {}\n{}",
                play.record(),
                play.graph()
            ),
            EdgeState::Cut | EdgeState::Short => assert_eq!(currents[e], None),
        }
    }
}

/// Every position reachable on the M=3 cage with Cut moving first, whatever either side
/// plays.
#[test]
fn mesh_currents_equal_nodal_drops_on_every_reachable_m3_position() {
    let graph = Graph::cage(Size::M3);
    let mut seen = HashSet::new();
    let mut stack = vec![Play::new(&graph, Side::Cut)];
    while let Some(play) = stack.pop() {
        if !seen.insert(play.states().to_vec()) {
            continue;
        }
        assert_mesh_agrees(&play);
        if play.winner().is_none() {
            for e in play.resistors() {
                let mut child = play.clone();
                child.play(e).unwrap();
                stack.push(child);
            }
        }
    }
    eprintln!("{} positions", seen.len());
    assert!(seen.len() > 300_000, "only {} positions", seen.len());
}

#[test]
fn mesh_currents_equal_nodal_drops_on_random_multigraphs() {
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    for _ in 0..600 {
        let graph = random_graph_position(&mut rng);
        let play = random_play(&mut rng, &graph);
        assert_mesh_agrees(&play);
    }
}
