//! Geometry and notation: counts, reading order, names both ways.

use heuristic::{Edge, Move, Node, NotationError, Orientation, Side, Size};

#[test]
fn counts_follow_the_formulas_for_every_size() {
    for size in Size::ALL {
        let m = usize::from(size.get());
        assert_eq!(size.edges().count(), m * m + (m - 1) * (m - 1), "{size}");
        assert_eq!(size.edge_count(), size.edges().count());
        assert_eq!(
            size.nodes().filter(|n| !n.is_terminal()).count(),
            m * (m - 1)
        );
        assert_eq!(size.nodes().count(), size.node_count());
        let vertical = size
            .edges()
            .filter(|e| e.orientation() == Orientation::Vertical)
            .count();
        assert_eq!(vertical, m * m);
    }
    let m3 = Size::new(3).unwrap();
    let m4 = Size::new(4).unwrap();
    assert_eq!((m3.edge_count(), m3.internal_node_count()), (13, 6));
    assert_eq!((m4.edge_count(), m4.internal_node_count()), (25, 12));
}

#[test]
fn sizes_out_of_range_are_refused_with_the_value() {
    for m in [0, 1, 9, 200] {
        let err = Size::new(m).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("board size M={m} is out of range (supported: 2..=8)")
        );
    }
}

#[test]
fn reading_order_is_highest_row_first_then_column_a() {
    let m3 = Size::new(3).unwrap();
    let names: Vec<String> = m3.edges().map(|e| e.to_string()).collect();
    assert_eq!(
        names,
        [
            "A5", "C5", "E5", "B4", "D4", "A3", "C3", "E3", "B2", "D2", "A1", "C1", "E1"
        ]
    );
    for size in Size::ALL {
        for (i, edge) in size.edges().enumerate() {
            assert_eq!(edge.index(size), i, "{edge} on {size}");
        }
        for (i, node) in size.nodes().enumerate() {
            assert_eq!(node.index(size), i, "{node} on {size}");
        }
    }
}

#[test]
fn edge_names_round_trip_in_both_cases() {
    for size in Size::ALL {
        for edge in size.edges() {
            let name = edge.to_string();
            assert_eq!(Edge::parse(size, &name).unwrap(), edge);
            assert_eq!(Edge::parse(size, &name.to_lowercase()).unwrap(), edge);
            for side in [Side::Cut, Side::Short] {
                let mv = Move { side, edge };
                assert_eq!(Move::parse(size, &mv.to_string()).unwrap(), mv);
            }
        }
    }
}

#[test]
fn bad_names_are_told_apart() {
    let m3 = Size::new(3).unwrap();
    let err = |s: &str| Edge::parse(m3, s).unwrap_err();
    assert!(matches!(err("5A"), NotationError::Syntax(_)));
    assert!(matches!(err(""), NotationError::Syntax(_)));
    assert!(matches!(err("A"), NotationError::Syntax(_)));
    assert!(matches!(err("A123"), NotationError::Syntax(_)));
    assert!(matches!(err("Ä1"), NotationError::Syntax(_)));
    assert!(matches!(err("F1"), NotationError::OffBoard { .. }));
    assert!(matches!(err("A6"), NotationError::OffBoard { .. }));
    assert!(matches!(err("A0"), NotationError::OffBoard { .. }));
    assert!(matches!(err("B3"), NotationError::NotAnEdge(_)));
    assert_eq!(
        err("B3").to_string(),
        "B3 is not an edge (column and row must both be odd or both even)"
    );
    assert_eq!(
        err("5A").to_string(),
        "`5A` is not an edge name (expected a column letter and a row number, like C3)"
    );
    // Long garbage is truncated, not a panic.
    assert!(
        err("this-is-a-very-long-token")
            .to_string()
            .contains("this-is-a-ve")
    );
}

#[test]
fn edges_join_the_right_nodes() {
    let m3 = Size::new(3).unwrap();
    let e = |s| Edge::parse(m3, s).unwrap();
    let n = |x, y| Node::at(m3, x, y).unwrap();
    assert_eq!(e("A5").ends(m3), (Node::Top, n(1, 4)));
    assert_eq!(e("A1").ends(m3), (n(1, 2), Node::Bottom));
    assert_eq!(e("B4").ends(m3), (n(1, 4), n(3, 4)));
    assert_eq!(e("C3").ends(m3), (n(3, 4), n(3, 2)));
    assert_eq!(n(5, 2).to_string(), "E2");
    assert_eq!(Node::Top.to_string(), "Q");
    assert_eq!(Node::Bottom.to_string(), "0");
    // Every internal node has 3 or 4 edges, every edge two distinct ends.
    for size in Size::ALL {
        for node in size.nodes().filter(|n| !n.is_terminal()) {
            let degree = size
                .edges()
                .filter(|e| {
                    let (a, b) = e.ends(size);
                    a == node || b == node
                })
                .count();
            assert!(
                (3..=4).contains(&degree),
                "{node} on {size} has degree {degree}"
            );
        }
        for edge in size.edges() {
            let (a, b) = edge.ends(size);
            assert_ne!(a, b);
        }
    }
}
