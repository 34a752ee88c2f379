//! The `birdcage` binary as users see it: exact JSON keys, the drawn board, one-line
//! errors with exit code 2.

mod support;

use serde_json::Value;
use support::{assert_bad_input, birdcage, json};

#[test]
fn analyze_json_has_exactly_the_documented_keys() {
    let v = json(&[
        "analyze",
        "--size",
        "3",
        "--moves",
        "e1,B2",
        "--network",
        "reference",
        "--first",
        "short",
    ]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = [
        "size", "network", "moves", "to_move", "winner", "edges", "choice", "tied",
    ];
    let mut got = keys.clone();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(v["size"], 3);
    assert_eq!(v["network"], "reference");
    assert_eq!(v["moves"], serde_json::json!(["e1", "B2"]));
    assert_eq!(v["to_move"], "short");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["choice"], Value::Null, "Short to move: no choice");
    let edges = v["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 13);
    for e in edges {
        let keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 4, "{e}");
        for k in ["edge", "state", "drop", "drop_f64"] {
            assert!(keys.contains(&k));
        }
    }
    let b2 = edges.iter().find(|e| e["edge"] == "B2").unwrap();
    assert_eq!(
        (
            b2["state"].clone(),
            b2["drop"].clone(),
            b2["drop_f64"].clone()
        ),
        ("cut".into(), Value::Null, Value::Null)
    );
    let e1 = edges.iter().find(|e| e["edge"] == "E1").unwrap();
    assert_eq!(
        (e1["state"].clone(), e1["drop"].clone()),
        ("short".into(), "0".into())
    );
}

#[test]
fn analyze_json_matches_a_golden_position() {
    // tests/golden/drops.jsonl: M=3 "A3,e1,B2,b4,C1,a1", ideal.
    let v = json(&["analyze", "--size", "3", "--moves", "A3,e1,B2,b4,C1,a1"]);
    let drop = |name: &str| {
        v["edges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["edge"] == name)
            .unwrap()["drop"]
            .clone()
    };
    assert_eq!(drop("E3"), "11/19");
    assert_eq!(drop("E5"), "8/19");
    assert_eq!(drop("A1"), "0");
    assert_eq!(v["to_move"], "cut");
    assert_eq!(v["choice"], "E3");
    assert_eq!(v["tied"], serde_json::json!(["E3"]));
    let f = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["edge"] == "E3")
        .unwrap()["drop_f64"]
        .as_f64()
        .unwrap();
    assert!((f - 11.0 / 19.0).abs() < 1e-15);
}

#[test]
fn empty_board_ties_every_vertical_and_opens_top_left() {
    let v = json(&["analyze", "--size", "4"]);
    assert_eq!(v["choice"], "A7");
    assert_eq!(v["tied"].as_array().unwrap().len(), 16);
    assert_eq!(v["moves"], serde_json::json!([]));
    let out = birdcage(&["next", "--size", "4"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "A7\n");
    let out = birdcage(&["next", "--size", "4", "--network", "reference"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "A1\n");
}

#[test]
fn finished_games_report_the_winner_and_no_choice() {
    let v = json(&["analyze", "--size", "2", "--moves", "A1,b2,C1"]);
    assert_eq!(v["winner"], "cut");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["choice"], Value::Null);
    let v = json(&["analyze", "--size", "2", "--moves", "B2,a3,C3,a1"]);
    assert_eq!(v["winner"], "short");
}

#[test]
fn text_output_draws_the_board_and_the_scaled_drops() {
    let out = birdcage(&["analyze", "--size", "2", "--moves", "A3,c3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want = "\
M=2 ideal network, moves: A3,c3

  ● = ●
3     ‖
2 ● - ●
1 |   |
  ● = ●
  A B C

Drops in units of 1/2 of the supply:

  ● = ●
3     ‖
2 ● 1 ●
1 1   2
  ● = ●
  A B C

Cut's move (largest drop): C1
";
    assert_eq!(text, want);
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    assert_bad_input(
        &["analyze", "--size", "3", "--moves", "A5,z9"],
        "move 2: z9 is off the M=3 board",
    );
    assert_bad_input(
        &["analyze", "--size", "3", "--moves", "A5,Q"],
        "move 2: `Q` is not an edge name",
    );
    assert_bad_input(
        &["analyze", "--size", "3", "--moves", "A5,b3"],
        "move 2: b3 is not an edge",
    );
    assert_bad_input(
        &["analyze", "--size", "3", "--moves", "A5,a5"],
        "move 2: A5 was already cut",
    );
    assert_bad_input(
        &["analyze", "--size", "3", "--moves", "A5,A3"],
        "move 2: it is Short's turn, not Cut's",
    );
    assert_bad_input(
        &["analyze", "--size", "2", "--moves", "A1,b2,C1,a3"],
        "move 4: the game is over: Cut has won",
    );
    assert_bad_input(
        &["analyze", "--size", "9"],
        "board size M=9 is out of range (supported: 2..=8)",
    );
    assert_bad_input(&["analyze", "--size", "x"], "`x` is not a board size");
    assert_bad_input(
        &["next", "--size", "3", "--network", "spice"],
        "unknown network `spice` (expected ideal or reference)",
    );
    assert_bad_input(
        &["next", "--size", "3", "--moves", "A5"],
        "it is Short's turn",
    );
    assert_bad_input(
        &["next", "--size", "2", "--moves", "A1,b2,C1"],
        "the game is over: Cut has won",
    );
    assert_bad_input(&["analyze"], "--size");
    assert_bad_input(&["analyse", "--size", "3"], "unrecognized subcommand");
}
