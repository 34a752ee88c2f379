//! Graph files at the command line: `graph`, `solve --graph`, `play --graph`, the errors a
//! user sees in a bad file, and the cage drawn as Gale's game (`play --view gale`).

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use heuristic::Size;
use serde_json::Value;
use support::{assert_bad_input, birdcage_with_input, json, scratch_file, stdout};

/// A triangle: the direct edge `s-t` and the path `s-a-t`.
const TRIANGLE: &str = "\
# A triangle: Short joins s and t.
terminals s t
s a
a t
s t direct
";

#[test]
fn the_cage_as_a_graph_file_reads_back_as_the_cage() {
    for size in Size::ALL {
        let text = stdout(&["graph", "--size", &size.get().to_string()]);
        let graph: switching::Graph = text.parse().unwrap();
        assert_eq!(graph, switching::Graph::cage(size), "{size}");
        let m = usize::from(size.get());
        assert_eq!(graph.edges().len(), size.edge_count(), "{size}");
        assert_eq!(size.edge_count(), 2 * m * m - 2 * m + 1, "{size}");
    }
    assert_bad_input(
        &["graph", "--size", "9"],
        "'--size <M>': must be a whole number from 2 to 8",
    );
}

#[test]
fn bad_graph_files_name_the_file_and_the_line() {
    let cases = [
        (
            "loop.txt",
            "terminals s t\ns t\na a\n",
            "line 3: edge a-a is a loop at a: an edge must join two different vertices",
        ),
        (
            "terminal.txt",
            "# t is misspelt\nterminals s x\ns a\na t\n",
            "line 2: terminal x is on no edge",
        ),
        (
            "duplicate.txt",
            "terminals s t\ns a e\na t e\n",
            "line 3: edge name e is used twice",
        ),
        (
            "disconnected.txt",
            "terminals s t\ns a\nb t\n",
            "line 1: terminals s and t are not connected: Cut would have won before a move",
        ),
        (
            "no-terminals.txt",
            "s a\na t\n",
            "no `terminals S T` line: name the two vertices Short joins",
        ),
        (
            "syntax.txt",
            "terminals s t\ns a b c\n",
            "line 2: `s a b c` is not `terminals S T`, `u v` or `u v NAME`",
        ),
    ];
    for (name, text, message) in cases {
        let path = scratch_file(name, text);
        let path = path.to_str().unwrap();
        let want = format!("error: {path}: {message}");
        assert_bad_input(&["solve", "--graph", path], &want);
        assert_bad_input(&["play", "--graph", path], &want);
    }
    let missing = scratch_file("exists.txt", "").with_file_name("missing.txt");
    let missing = missing.to_str().unwrap();
    assert_bad_input(
        &["solve", "--graph", missing],
        &format!("error: cannot read graph file {missing}: "),
    );
    // Records on a graph: edge names, checked move by move.
    let triangle = scratch_file("triangle-errors.txt", TRIANGLE);
    let triangle = triangle.to_str().unwrap();
    for (moves, message) in [
        ("direct,s-b", "move 2: `s-b` is not an edge of this graph"),
        ("direct,direct", "move 2: direct was already cut"),
        ("s-a,direct,a-t", "move 3: the game is over: Short has won"),
    ] {
        assert_bad_input(&["solve", "--graph", triangle, "--moves", moves], message);
    }
    assert_bad_input(
        &["solve", "--graph", triangle, "--size", "3"],
        "the argument '--graph <FILE>' cannot be used with '--size <M>'",
    );
    assert_bad_input(&["solve"], "<--size <M>|--graph <FILE>>");
}

#[test]
fn solve_on_a_triangle() {
    // By hand. Cut to move must cut `direct` at once: otherwise Short shorts it and has
    // joined s and t. After that, the path s-a-t is all that is left and Short can wire
    // only one of its two edges before Cut cuts the other. So Cut wins, with `direct` alone.
    // Short to move wins with any edge: `direct` wins at once; after `s-a` (or `a-t`) Short
    // threatens both `direct` and the rest of the path, and Cut can cut only one of them.
    let path = scratch_file("triangle.txt", TRIANGLE);
    let path = path.to_str().unwrap();
    let v = json(&["solve", "--graph", path]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        ["perfect_winner", "to_move", "winner", "winning_moves"]
    );
    assert_eq!(v["to_move"], "cut");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["perfect_winner"], "cut");
    assert_eq!(v["winning_moves"], serde_json::json!(["direct"]));
    let v = json(&["solve", "--graph", path, "--first", "short"]);
    assert_eq!(v["perfect_winner"], "short");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["s-a", "a-t", "direct"])
    );
    // Cut's one mistake, and the record's names in any case.
    let v = json(&["solve", "--graph", path, "--moves", "S-A"]);
    assert_eq!(v["to_move"], "short");
    assert_eq!(v["perfect_winner"], "short");
    assert_eq!(v["winning_moves"], serde_json::json!(["direct"]));
    let v = json(&["solve", "--graph", path, "--moves", "s-a,direct"]);
    assert_eq!(v["winner"], "short");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let text = stdout(&["solve", "--graph", path, "--moves", "direct"]);
    let want = format!(
        "\
{path} (3 edges), moves: direct

Terminals s and t; Short joins them, Cut separates them.
  s-a     s - a  resistor
  a-t     a - t  resistor
  direct  s - t  cut

Short to move; with perfect play Cut wins.
Short has no winning move.
"
    );
    assert_eq!(text, want);
}

#[test]
fn solve_on_the_cage_file_agrees_with_solve_on_the_cage() {
    for (m, first, records) in [
        (
            "3",
            "cut",
            &["", "A5", "A5,c5", "A5,c5,C3,a1", "C3,c5,E3"][..],
        ),
        ("3", "short", &["", "c3", "c3,A5"][..]),
        ("4", "cut", &["A7,c5", "A7,c5,C7,e7"][..]),
    ] {
        let file = scratch_file(&format!("cage{m}.txt"), &stdout(&["graph", "--size", m]));
        let file = file.to_str().unwrap();
        for record in records {
            let cage = json(&["solve", "--size", m, "--first", first, "--moves", record]);
            let graph = json(&[
                "solve", "--graph", file, "--first", first, "--moves", record,
            ]);
            for key in ["to_move", "winner", "perfect_winner"] {
                assert_eq!(graph[key], cage[key], "M={m} {record}: {key}");
            }
            // The cage writes Short's moves in lower case; the file names edges by square.
            let upper: Vec<String> = cage["winning_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_ascii_uppercase())
                .collect();
            assert_eq!(
                graph["winning_moves"],
                serde_json::json!(upper),
                "M={m} {record}"
            );
        }
    }
}

#[test]
fn a_scripted_game_on_a_graph_to_the_end() {
    let path = scratch_file("triangle-play.txt", TRIANGLE);
    let path = path.to_str().unwrap();
    // The perfect player as Cut cuts `direct`, then the rest of whatever path is left.
    let out = birdcage_with_input(
        &["play", "--graph", path, "--opponent", "perfect"],
        "hint\nwhy\ndrops\ns-a\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!(
            "{path} (3 edges): you play Short against the perfect player. Cut moves first.\n"
        )),
        "{text}"
    );
    assert!(text.contains("Machine: direct\n"), "{text}");
    assert!(
        text.contains(
            // After `direct`, either short is answered by the cut of the other: no move
            // leaves a losing reply, and the first resistor in the file is named.
            "Hint: s-a: best try; the position is lost against perfect play.\n\n\
             Why: with perfect play the machine wins whatever you do; no move of yours \
             leaves the machine a reply that loses against perfect play, so s-a, the first \
             resistor left, is as good as any.\n"
        ),
        "{text}"
    );
    // `direct` cut, the path's two resistors share the supply.
    assert!(
        text.contains(
            "Drops (ideal network), in % of the supply:\n\
             Terminals s and t; Short joins them, Cut separates them.\n  \
             s-a     s - a  resistor  drop 50.0 %\n  \
             a-t     a - t  resistor  drop 50.0 %\n  \
             direct  s - t  cut\n"
        ),
        "{text}"
    );
    assert!(text.contains("You: s-a\n"), "{text}");
    assert!(
        text.contains("  s-a     s - a  shorted\n  a-t     a - t  cut\n  direct  s - t  cut\n"),
        "{text}"
    );
    assert!(
        text.ends_with("Cut has won: the machine wins.\nRecord: direct,s-a,a-t\n"),
        "{text}"
    );
    // As Cut against the perfect Short, which has lost once `direct` is cut: it then plays
    // the heuristic's move, here `s-a` (the path's two edges carry the same current, the
    // tie goes to the first in file order).
    let out = birdcage_with_input(
        &[
            "play",
            "--graph",
            path,
            "--opponent",
            "perfect",
            "--you",
            "cut",
        ],
        "hint\ndirect\nundo\ndirect\na-t\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Hint: direct: it wins, even against perfect play.\n"),
        "{text}"
    );
    assert!(text.contains("You: direct\n"), "{text}");
    assert!(text.contains("Machine: s-a\n"), "{text}");
    assert!(text.contains("Undone.\n"), "{text}");
    assert!(
        text.ends_with("Cut has won: you win.\nRecord: direct,s-a,a-t\n"),
        "{text}"
    );
    // A bad move keeps what was played and exits 2 with one line.
    let out = birdcage_with_input(&["play", "--graph", path, "--opponent", "perfect"], "s-b\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err, "error: line 1: `s-b` is not an edge of this graph\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("Record: direct\n"), "{text}");
    // The cage's options that a graph has no use for.
    assert_bad_input(
        &["play", "--graph", path, "--opponent", "firmware"],
        "the firmware plays the cage its boards wire",
    );
    assert_bad_input(
        &["play", "--graph", path, "--view", "gale"],
        "--view gale draws the cage",
    );
    assert_bad_input(
        &["play", "--graph", path, "--size", "3"],
        "the argument '--graph <FILE>' cannot be used with '--size <M>'",
    );
}

#[test]
fn play_view_gale_draws_two_grids_of_dots() {
    // M=2: Short's dots ● at odd columns x = 1, 3 of even rows y = 0, 2, 4 (rows 0 and 4
    // are the terminals); Cut's dots ○ at even columns x = 0, 2, 4 of odd rows y = 1, 3.
    // Each character column is x = 0..4 at position 2 + 2x; the letters A..C name x = 1..3
    // as the records do. After A3,c3,C1 (the machine opens A3, you short c3, it cuts C1):
    // - A3 (x=1, y=3) is a vertical resistor between ● (1,2) and ● (1,4), cut: Cut's bridge
    //   across it joins ○ (0,3) and ○ (2,3), a `-` at (1,3);
    // - c3 (x=3, y=3) is shorted: Short's bridge joins ● (3,2) and ● (3,4), a `|` at (3,3);
    // - C1 (x=3, y=1) is cut: `-` between ○ (2,1) and ○ (4,1);
    // - B2 (x=2, y=2, horizontal) and A1 are unclaimed: blank.
    // Row 2 and the terminal rows have no Cut dots (x even, y even), so only ● shows there.
    let out = birdcage_with_input(&["play", "--size", "2", "--view", "gale"], "c3\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let last = "\
Machine: C1

    ●   ●
3 ○ - ○ | ○
2   ●   ●
1 ○   ○ - ○
    ●   ●
    A B C
● Short (you) joins top to bottom   ○ Cut (the machine) joins left to right

Record: A3,c3,C1
";
    assert!(text.ends_with(last), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colours in scripted mode: {text}"
    );
    // Playing Cut against the machine's Short, the legend says so; Short's first wire is
    // a vertical bar between two ● (a5 on M=3: x=1, y=5, from the top terminal down).
    let out = birdcage_with_input(
        &["play", "--size", "3", "--view", "gale", "--you", "cut"],
        "A5\n",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "● Short (the machine) joins top to bottom   ○ Cut (you) joins left to right"
        ),
        "{text}"
    );
    assert!(
        text.contains("You: A5\n\n    ●   ●   ●\n5 ○ - ○   ○   ○\n"),
        "{text}"
    );
}

#[test]
fn analyze_and_next_on_a_graph() {
    // The triangle's network: `direct` carries the whole supply (drop 1), the path s-a-t
    // splits it (1/2 each). Cut cuts `direct`; then the path's two drops are equal and the
    // tie goes to `s-a`, the first in file order, which Short (Bridj-It 2.0's machine)
    // shorts.
    let path = scratch_file("triangle-analyze.txt", TRIANGLE);
    let path = path.to_str().unwrap();
    let v = json(&["analyze", "--graph", path]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "choice", "edges", "moves", "network", "size", "tied", "to_move", "winner"
        ]
    );
    assert_eq!(v["size"], Value::Null);
    let drops: Vec<&str> = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["drop"].as_str().unwrap())
        .collect();
    assert_eq!(drops, ["1/2", "1/2", "1"]);
    assert_eq!(v["choice"], "direct");
    assert_eq!(v["tied"], serde_json::json!(["direct"]));
    assert_eq!(stdout(&["next", "--graph", path]), "direct\n");
    let v = json(&["analyze", "--graph", path, "--moves", "direct"]);
    assert_eq!(v["moves"], serde_json::json!(["direct"]));
    // Short to move: Bridj-It 2.0's machine shorts the first of the tied largest drops,
    // the edge `next` names below.
    assert_eq!(v["choice"], "s-a", "Short to move: the machine's short");
    assert_eq!(v["tied"], serde_json::json!(["s-a", "a-t"]));
    assert_eq!(v["edges"][2]["state"], "cut");
    assert_eq!(v["edges"][2]["drop"], Value::Null);
    assert_eq!(
        stdout(&["next", "--graph", path, "--moves", "direct"]),
        "s-a\n"
    );
    let text = stdout(&["analyze", "--graph", path, "--moves", "direct"]);
    assert!(
        text.contains("  s-a     s - a  resistor  drop 50.0 %\n"),
        "{text}"
    );
    assert!(
        text.contains("Largest drop 50.0 % of the supply, on s-a and a-t (exactly equal).\n"),
        "{text}"
    );
    let exact = stdout(&["analyze", "--graph", path, "--moves", "direct", "--exact"]);
    assert!(
        exact.contains("  s-a     s - a  resistor  drop 1/2\n"),
        "{exact}"
    );
    assert!(
        text.ends_with("Short's move (short the largest drop): s-a (tied: s-a a-t)\n"),
        "{text}"
    );
    assert_bad_input(
        &["next", "--graph", path, "--moves", "s-a,direct"],
        "the game is over: Short has won",
    );
    assert_bad_input(
        &["next", "--graph", path, "--adc-bits", "10"],
        "--board and --adc-bits read the cage",
    );
    assert_bad_input(
        &["analyze", "--graph", path, "--size", "3"],
        "cannot be used with",
    );
}

#[test]
fn analyze_and_next_on_the_cage_file_agree_with_the_cage() {
    for (m, network, records) in [
        ("3", "ideal", &["", "A5", "A5,c5", "A3,e1,B2,b4,C1,a1"][..]),
        ("3", "reference", &["", "A5,c5,C3"][..]),
        ("4", "ideal", &["A7", "A7,c5"][..]),
    ] {
        let file = scratch_file(
            &format!("cage{m}-analyze.txt"),
            &stdout(&["graph", "--size", m]),
        );
        let file = file.to_str().unwrap();
        for record in records {
            let common = ["--moves", record, "--network", network];
            let cage = json(&[&["analyze", "--size", m][..], &common].concat());
            let graph = json(&[&["analyze", "--graph", file][..], &common].concat());
            for key in ["network", "to_move", "winner", "choice", "tied"] {
                assert_eq!(graph[key], cage[key], "M={m} {record}: {key}");
            }
            for (g, c) in graph["edges"]
                .as_array()
                .unwrap()
                .iter()
                .zip(cage["edges"].as_array().unwrap())
            {
                assert_eq!(g, c, "M={m} {record}");
            }
            let upper: Vec<String> = cage["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_ascii_uppercase())
                .collect();
            assert_eq!(graph["moves"], serde_json::json!(upper));
            let cage_next = stdout(&[&["next", "--size", m][..], &common].concat());
            let graph_next = stdout(&[&["next", "--graph", file][..], &common].concat());
            assert_eq!(graph_next, cage_next.to_ascii_uppercase(), "M={m} {record}");
        }
    }
}

#[test]
fn the_heuristic_plays_either_side_on_a_graph() {
    // The cage of size 2 as a graph file, against the heuristic as Cut: the same game as on
    // the cage (`play --size 2` with c3, b2 goes A3,c3,C1,b2,A1), edge names as the file
    // writes them.
    let file = scratch_file("cage2-play.txt", &stdout(&["graph", "--size", "2"]));
    let file = file.to_str().unwrap();
    let out = birdcage_with_input(&["play", "--graph", file], "c3\nb2\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("Cut has won: the machine wins.\nRecord: A3,C3,C1,B2,A1\n"),
        "{text}"
    );
    // The heuristic as Short on the triangle: after `direct` is cut it shorts `s-a` (the
    // tie goes to the first in file order); cutting `a-t` wins.
    let path = scratch_file("triangle-heuristic.txt", TRIANGLE);
    let path = path.to_str().unwrap();
    let out = birdcage_with_input(&["play", "--graph", path, "--you", "cut"], "direct\na-t\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("you play Cut against Shannon's heuristic (ideal network)"),
        "{text}"
    );
    assert!(text.contains("Machine: s-a\n"), "{text}");
    assert!(
        text.ends_with("Cut has won: you win.\nRecord: direct,s-a,a-t\n"),
        "{text}"
    );
}
