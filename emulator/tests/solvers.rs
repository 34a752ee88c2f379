//! The float solver (heuristic, nalgebra) against the exact solver, and the physics of
//! positions with parts cut off from the terminals.

use emulator::exact::solve_model;
use emulator::games::any_position;
use heuristic::{Edge, EdgeState, Model, Node, Orientation, Position, Side, Size, rank, solve};
use num_traits::ToPrimitive;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn q(n: i64) -> num_rational::BigRational {
    num_rational::BigRational::from_integer(n.into())
}

fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

/// Whether some node is an unknown of the ideal system (not wired to a terminal, not
/// floating) yet sits exactly at a terminal's potential: a dead-end branch.
fn has_dead_end(p: &Position) -> bool {
    let circuit = Model::Ideal.integer_circuit(p.size());
    let reduction = heuristic::Reduction::new(p, &circuit);
    let exact = solve_model(p, Model::Ideal);
    p.size().nodes().any(|n| {
        matches!(reduction.slot(n), heuristic::Slot::Unknown(_))
            && exact.voltage(n).is_some_and(|v| v == q(0) || v == q(1))
    })
}

#[test]
fn float_solver_agrees_with_exact_solver_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xB1_2D_CA_6E);
    let (mut positions, mut with_floating, mut with_dead_ends) = (0, 0, 0);
    for m in 2..=6 {
        for _ in 0..800 {
            let p = any_position(&mut rng, size(m));
            for model in Model::ALL {
                let exact = solve_model(&p, model);
                let float = solve::<f64>(&p, &model.circuit(p.size())).unwrap();
                for node in p.size().nodes() {
                    assert_eq!(
                        exact.is_floating(node),
                        float.is_floating(node),
                        "{node} in {p:?}"
                    );
                    if let Some(want) = exact.voltage(node) {
                        let got = float.get(node).unwrap();
                        let want = want.to_f64().unwrap();
                        assert!(
                            (got - want).abs() <= 1e-12,
                            "{node}: {got} vs {want} ({model})"
                        );
                    }
                }
                for (edge, state) in p.edges() {
                    let want = exact.drop(edge).map(|d| d.to_f64().unwrap());
                    let got = heuristic::edge_drop(&p, float.values(), edge);
                    assert_eq!(want.is_none(), state == EdgeState::Cut);
                    match (want, got) {
                        (Some(w), Some(g)) => assert!((w - g).abs() <= 1e-12, "{edge}: {g} vs {w}"),
                        (None, None) => {}
                        other => panic!("{edge}: {other:?}"),
                    }
                }
                if p.size().nodes().any(|n| exact.is_floating(n)) {
                    with_floating += 1;
                }
            }
            if has_dead_end(&p) {
                with_dead_ends += 1;
            }
            positions += 1;
        }
    }
    assert_eq!(positions, 4000);
    // The sample must hold the hard cases, or the agreement above proves little.
    assert!(
        with_floating > 200,
        "only {with_floating} positions with floating parts"
    );
    assert!(
        with_dead_ends > 200,
        "only {with_dead_ends} positions with dead ends"
    );
}

#[test]
fn f32_solver_tracks_f64() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..1000 {
        let p = any_position(&mut rng, size(4));
        for model in Model::ALL {
            let a = solve::<f64>(&p, &model.circuit(p.size())).unwrap();
            let b = solve::<f32>(&p, &model.circuit(p.size())).unwrap();
            for (x, y) in a.values().iter().zip(b.values()) {
                assert!((x - f64::from(*y)).abs() < 1e-5, "{x} vs {y}");
            }
        }
    }
}

#[test]
fn ideal_empty_board_splits_every_column_evenly() {
    for s in Size::ALL {
        let p = Position::new(s, Side::Cut);
        let v = solve_model(&p, Model::Ideal);
        let column = num_rational::BigRational::new(1.into(), i64::from(s.get()).into());
        for edge in s.edges() {
            let drop = v.drop(edge).unwrap();
            match edge.orientation() {
                Orientation::Vertical => assert_eq!(drop, column, "{edge} on {s}"),
                Orientation::Horizontal => assert_eq!(drop, q(0), "{edge} on {s}"),
            }
        }
        let r = v.rank().unwrap();
        assert_eq!(
            r.choice,
            Edge::new(s, 1, s.span()).unwrap(),
            "top-left vertical on {s}"
        );
        assert_eq!(r.tied.len(), usize::from(s.get()).pow(2));
        assert_eq!(r.runner_up, Some(0.into()));
    }
}

#[test]
fn reference_empty_board_opens_bottom_left() {
    // The pull-up currents all leave through the bottom row: the original machine's A1.
    for s in Size::ALL {
        let v = solve_model(&Position::new(s, Side::Cut), Model::Reference);
        assert_eq!(v.rank().unwrap().choice, Edge::new(s, 1, 1).unwrap(), "{s}");
    }
}

#[test]
fn parts_cut_off_from_both_terminals_carry_nothing() {
    // Every edge around A2 and C2 but B2 is cut: {A2, C2} touches neither terminal.
    let p = Position::from_record(size(3), Side::Cut, "A3,a5,A1,c5,C3,b4,D2,d4,C1").unwrap();
    assert_eq!(p.winner(), None);
    // Now A2 and C2 (joined by B2) touch neither terminal.
    let a2 = Node::internal(size(3), 1, 2).unwrap();
    let c2 = Node::internal(size(3), 3, 2).unwrap();
    let b2 = Edge::parse(size(3), "B2").unwrap();
    let ideal = solve_model(&p, Model::Ideal);
    assert!(ideal.is_floating(a2) && ideal.is_floating(c2));
    assert_eq!(ideal.voltage(a2), None);
    assert_eq!(ideal.drop(b2), Some(q(0)));
    let float = solve::<f64>(&p, &Model::Ideal.circuit(size(3))).unwrap();
    assert!(float.is_floating(a2));
    assert!(float.values().iter().all(|v| v.is_finite()));
    assert_eq!(heuristic::edge_drop(&p, float.values(), b2), Some(0.0));

    // With pull-ups the island is pulled to the supply: defined, and still no drop.
    let reference = solve_model(&p, Model::Reference);
    assert!(!reference.is_floating(a2));
    assert_eq!(reference.voltage(a2), Some(q(1)));
    assert_eq!(reference.drop(b2), Some(q(0)));
    let float = solve::<f64>(&p, &Model::Reference.circuit(size(3))).unwrap();
    assert!((float.get(c2).unwrap() - 1.0).abs() < 1e-12);
    assert!(rank(&p, float.values()).unwrap().is_some());
}

#[test]
fn finished_games_solve_without_nan() {
    // Short has joined the terminals: everything sits at the supply.
    let short_won = Position::from_record(size(3), Side::Cut, "E5,a5,E3,a3,D2,a1").unwrap();
    // Cut has separated them: nothing conducts from Q to 0.
    let cut_won = Position::from_record(size(2), Side::Cut, "A1,b2,C1").unwrap();
    for p in [short_won, cut_won] {
        assert!(p.winner().is_some());
        for model in Model::ALL {
            let v = solve::<f64>(&p, &model.circuit(p.size())).unwrap();
            assert!(v.values().iter().all(|x| x.is_finite()));
            let exact = solve_model(&p, model);
            for e in p.resistors() {
                let d = exact.drop(e).unwrap();
                assert!(d >= q(0) && d <= q(1));
            }
        }
    }
}

/// Kirchhoff's current law, checked exactly at every node with a defined potential
/// that is not held by a terminal: the test does not trust the elimination.
#[test]
fn exact_solutions_satisfy_kcl_on_large_boards() {
    use num_rational::BigRational;
    let mut rng = ChaCha8Rng::seed_from_u64(88);
    for m in [6, 7, 8] {
        for _ in 0..15 {
            let p = any_position(&mut rng, size(m));
            for model in Model::ALL {
                let circuit = model.integer_circuit(p.size());
                let reduction = heuristic::Reduction::new(&p, &circuit);
                let v = solve_model(&p, model);
                let g = |x: i64| BigRational::from_integer(x.into());
                let volt = |n: Node| v.voltage(n).unwrap_or_else(|| q(0));
                // Sum the current leaving each group of wired nodes.
                let mut leaving = std::collections::HashMap::<u8, BigRational>::new();
                for (edge, state) in p.edges() {
                    if state != EdgeState::Resistor {
                        continue;
                    }
                    let (a, b) = edge.ends(p.size());
                    let i = (volt(a) - volt(b)) * g(circuit.edges[edge.index(p.size())]);
                    if let heuristic::Slot::Unknown(k) = reduction.slot(a) {
                        *leaving.entry(k).or_insert_with(|| q(0)) += i.clone();
                    }
                    if let heuristic::Slot::Unknown(k) = reduction.slot(b) {
                        *leaving.entry(k).or_insert_with(|| q(0)) -= i;
                    }
                }
                for n in p.size().nodes().filter(|&n| n != Node::Top) {
                    if let heuristic::Slot::Unknown(k) = reduction.slot(n) {
                        let pull = (volt(n) - q(1)) * g(circuit.pullups[n.index(p.size())]);
                        *leaving.entry(k).or_insert_with(|| q(0)) += pull;
                    }
                }
                if let (heuristic::Slot::Unknown(k), Some(s)) =
                    (reduction.slot(Node::Bottom), circuit.series)
                {
                    *leaving.entry(k).or_insert_with(|| q(0)) += volt(Node::Bottom) * g(s);
                }
                assert_eq!(leaving.len(), reduction.unknowns());
                for (k, current) in leaving {
                    assert_eq!(current, q(0), "unknown {k} of {p:?} ({model})");
                }
            }
        }
    }
}
