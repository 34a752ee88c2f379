//! The graph file: what a person who writes one by hand is told, and that a graph reads
//! back from its own text.

use heuristic::Size;
use proptest::prelude::*;
use switching::{Graph, ParseGraphError};

fn error(text: &str) -> String {
    text.parse::<Graph>().unwrap_err().to_string()
}

#[test]
fn each_mistake_is_named_with_its_line() {
    let cases = [
        (
            "terminals s t\ns a\na a\na t",
            "line 3: edge a-a is a loop at a: an edge must join two different vertices",
        ),
        (
            "terminals s x\ns a\na t",
            "line 1: terminal x is on no edge",
        ),
        (
            "s a\na t",
            "no `terminals S T` line: name the two vertices Short joins",
        ),
        (
            "terminals s t\ns a e\na t e",
            "line 3: edge name e is used twice",
        ),
        (
            "terminals s t\ns a\nb t",
            "line 1: terminals s and t are not connected: Cut would have won before a move",
        ),
        (
            "terminals s t\ns t\nterminals s t",
            "line 3: a second `terminals` line (the first is line 1)",
        ),
        (
            "terminals s t\ns a b c",
            "line 2: `s a b c` is not `terminals S T`, `u v` or `u v NAME`",
        ),
        (
            "terminals s s\ns t",
            "line 1: the terminals are the same vertex s",
        ),
        (
            "terminals s t\n# nothing",
            "no edges: list one edge per line, `u v` or `u v NAME`",
        ),
        (
            "terminals s t\ns t a,b",
            "line 2: name \"a,b\" is not a token: names are non-empty, without spaces, control characters, commas or '#'",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(error(text), want, "{text:?}");
    }
    // An explicit name may not take the name an unnamed copy got earlier.
    assert_eq!(
        error("terminals s t\ns t\ns t s-t"),
        "line 3: edge name s-t is used twice"
    );
    let e = "terminals s t\n\ns a\na a".parse::<Graph>().unwrap_err();
    assert_eq!(e.line(), Some(4));
    assert!(matches!(
        "x".parse::<Graph>().unwrap_err(),
        ParseGraphError::Syntax { line: 1, .. }
    ));
}

#[test]
fn comments_blank_lines_and_parallel_copies() {
    let text = "# a triangle with a doubled side\n\nterminals s t # Short joins these\ns a\n  a t  \ns t\nt s\ns t\n";
    let g: Graph = text.parse().unwrap();
    let names: Vec<&str> = g.edges().iter().map(|e| e.name.as_str()).collect();
    // Written as `t s`, the fifth edge is named in its own order; the sixth is the
    // second copy of `s t`.
    assert_eq!(names, ["s-a", "a-t", "s-t", "t-s", "s-t#2"]);
    assert_eq!(g.vertices(), ["s", "a", "t"]);
    assert_eq!(g.terminal_names(), ["s", "t"]);
    assert_eq!(g.edge_named("s-t#2"), Some(4));
}

#[test]
fn the_cage_is_a_graph_of_its_size() {
    for m in 2..=8 {
        let size = Size::new(m).unwrap();
        let g = Graph::cage(size);
        // 2M² − 2M + 1 edges and M(M−1) internal nodes plus two terminals (docs/DESIGN.md:
        // M=3 has 13 edges and 6 internal nodes, M=4 has 25 and 12).
        let m = m as usize;
        assert_eq!(g.edges().len(), 2 * m * m - 2 * m + 1);
        assert_eq!(g.vertices().len(), m * (m - 1) + 2);
        let back: Graph = g.to_string().parse().unwrap();
        assert_eq!(back, g);
        // Edge i joins the nodes the firmware's tables give the reading-order edge i.
        for (i, (edge, e)) in size.edges().zip(g.edges()).enumerate() {
            let (a, b) = size.edge_ends(i);
            assert_eq!(e.name, edge.to_string());
            let ends = e.ends.map(|v| g.vertices()[v].clone());
            assert_eq!(ends, [size.node(a).to_string(), size.node(b).to_string()]);
        }
    }
    // M=2: edges A3 (Q to A2), C3 (Q to C2), B2 (A2 to C2), A1 (A2 to 0), C1 (C2 to 0).
    let text = Graph::cage(Size::new(2).unwrap()).to_string();
    assert_eq!(
        text,
        "terminals Q 0\nQ A2 A3\nQ C2 C3\nA2 C2 B2\nA2 0 A1\nC2 0 C1\n"
    );
}

/// A random multigraph as the file's lines: names from a small alphabet so that vertices
/// repeat and parallel edges occur, some edges named.
fn lines() -> impl Strategy<Value = Vec<(u8, u8, Option<u8>)>> {
    prop::collection::vec((0u8..5, 0u8..5, prop::option::of(0u8..20)), 1..25)
}

proptest! {
    #[test]
    fn a_graph_reads_back_from_its_text(edges in lines()) {
        let mut text = String::from("terminals v0 v1\nv0 v1\n");
        let mut used = std::collections::HashSet::new();
        for (u, v, name) in edges {
            if u == v {
                continue;
            }
            match name {
                Some(n) if used.insert(n) => text += &format!("v{u} v{v} e{n}\n"),
                _ => text += &format!("v{u} v{v}\n"),
            }
        }
        // Names may still collide with an automatic one; then both reads must fail alike.
        match text.parse::<Graph>() {
            Ok(g) => {
                let again: Graph = g.to_string().parse().unwrap();
                prop_assert_eq!(&again, &g);
                prop_assert_eq!(again.to_string(), g.to_string());
            }
            Err(e) => prop_assert!(e.line().is_some(), "{}", e),
        }
    }
}

/// Reading is linear: 20,000 unnamed copies of one edge are named `s-t`, `s-t#2`, …
/// without probing every earlier number for each copy (the README quotes the time of
/// 10^5 copies), interleaved with copies of another edge.
#[test]
fn many_parallel_copies_are_named_in_order() {
    let copies = 20_000;
    let mut text = String::from("terminals s t\n");
    text.push_str(&"s t\nt s\n".repeat(copies));
    let g: Graph = text.parse().unwrap();
    let names: Vec<&str> = g.edges().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names[..5], ["s-t", "t-s", "s-t#2", "t-s#2", "s-t#3"]);
    assert_eq!(names.len(), 2 * copies);
    assert_eq!(names[2 * copies - 1], format!("t-s#{copies}"));
    // The graph writes itself back in the same names.
    assert_eq!(g.to_string().parse::<Graph>().unwrap(), g);
}

/// A name of more than `MAX_NAME` characters is refused with its line and its length, and
/// is not repeated in the message: edges, vertices and terminals alike.
#[test]
fn long_names_are_refused_with_their_line() {
    let long = "x".repeat(70_000);
    let at_limit = "y".repeat(switching::MAX_NAME);
    let want = |line: usize| {
        format!("line {line}: a name of 70000 characters: names are at most 64 characters")
    };
    assert_eq!(error(&format!("terminals s t\ns t {long}")), want(2));
    assert_eq!(
        error(&format!("terminals s t\ns a\na {long}\ns t")),
        want(3)
    );
    assert_eq!(error(&format!("terminals s {long}\ns t")), want(1));
    let g: Graph = format!("terminals s t\ns {at_limit} {at_limit}\n{at_limit} t")
        .parse()
        .unwrap();
    assert_eq!(g.edges()[0].name, at_limit);
}
