//! The `birdcage` binary as users see it: exact JSON keys, the drawn board, one-line
//! errors with exit code 2.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use serde_json::Value;
use support::{assert_bad_input, birdcage, birdcage_with_input, json, stdout};

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
    // Short to move: the machine's move is Bridj-It 2.0's, shorting the first of the tied
    // largest drops, the same edge `next` names in Short's lower case.
    let tied = v["tied"].as_array().unwrap();
    assert!(!tied.is_empty());
    assert_eq!(
        v["choice"], tied[0],
        "Short to move: the machine shorts the largest drop"
    );
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
    // emulator/tests/golden/drops.jsonl: M=3 "A3,e1,B2,b4,C1,a1", ideal.
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
fn text_output_draws_the_board_and_the_drops_as_shares_of_the_supply() {
    // A3 cut and C3 shorted: C1 carries the whole supply, B2 and A1 half each in series.
    // The cut is drawn `×`, as `play` draws it (issue 63: a blank here, an `×` there).
    let text = stdout(&["analyze", "--size", "2", "--moves", "A3,c3"]);
    let want = "\
M=2 ideal network, moves: A3,c3

  ● = ●
3 ×   ‖
2 ● - ●
1 |   |
  ● = ●
  A B C

Drops in % of the supply:

   ●    =    ●
3  ×         ‖
2  ●   50.0  ●
1 50.0      100
   ●    =    ●
   A    B    C

Largest drop 100 % of the supply, on C1.
Runner-up 50.0 %, on B2 and A1: 50.0 points less.

Cut's move (largest drop): C1
";
    assert_eq!(text, want);
}

#[test]
fn analyze_names_ties_and_keeps_80_columns_up_to_m5() {
    // The reference network's 20-digit integers used to make a 180-column board.
    for size in ["3", "4", "5"] {
        let text = stdout(&[
            "analyze",
            "--size",
            size,
            "--moves",
            "A1,c1",
            "--network",
            "reference",
        ]);
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 80, "M={size}: {widest} columns\n{text}");
        assert!(text.contains("Drops in % of the supply:"), "{text}");
    }
    // The start of M=3 is symmetric: the machine's tie is named as such.
    let text = stdout(&["analyze", "--size", "3"]);
    assert!(text.contains("(exactly equal)"), "{text}");
}

#[test]
fn exact_text_output_draws_the_scaled_drops() {
    let out = birdcage(&["analyze", "--size", "2", "--moves", "A3,c3", "--exact"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want = "\
M=2 ideal network, moves: A3,c3

  ● = ●
3 ×   ‖
2 ● - ●
1 |   |
  ● = ●
  A B C

Drops in units of 1/2 of the supply:

  ● = ●
3 ×   ‖
2 ● 1 ●
1 1   2
  ● = ●
  A B C

Cut's move (largest drop): C1
";
    assert_eq!(text, want);
}

/// A bare `birdcage` lists what it can do (issue 63: it printed one line), on stderr, exit 2.
#[test]
fn a_bare_command_lists_its_subcommands() {
    let out = birdcage(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    for command in ["analyze", "play", "study", "links", "web"] {
        assert!(
            err.lines().any(|l| l.trim_start().starts_with(command)),
            "{command} not listed: {err}"
        );
    }
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
        "move 2: a5 was already cut",
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
        "error: invalid value '9' for '--size <M>': must be a whole number from 2 to 8",
    );
    assert_bad_input(
        &["analyze", "--size", "x"],
        "error: invalid value 'x' for '--size <M>': must be a whole number from 2 to 8",
    );
    assert_bad_input(
        &["next", "--size", "3", "--network", "spice"],
        "unknown network `spice` (expected ideal or reference)",
    );
    assert_bad_input(
        &["next", "--size", "2", "--moves", "A1,b2,C1"],
        "the game is over: Cut has won",
    );
    assert_bad_input(&["analyze"], "--size");
    assert_bad_input(&["analyse", "--size", "3"], "unrecognized subcommand");
}

#[test]
fn solve_json_has_exactly_the_documented_keys() {
    let v = json(&["solve", "--size", "3", "--moves", "A5,c5"]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        ["perfect_winner", "to_move", "winner", "winning_moves"]
    );
    assert_eq!(v["to_move"], "cut");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["perfect_winner"], "cut");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["E5", "D4", "C3", "E3", "D2", "C1", "E1"])
    );
    // Short to move and lost: no winning move; Short first on the empty board wins.
    let v = json(&["solve", "--size", "3", "--moves", "A5"]);
    assert_eq!(
        (v["to_move"].clone(), v["perfect_winner"].clone()),
        ("short".into(), "cut".into())
    );
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let v = json(&["solve", "--size", "2", "--first", "short"]);
    assert_eq!(v["perfect_winner"], "short");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!(["a3", "c3", "b2", "a1", "c1"])
    );
    // A finished game.
    let v = json(&["solve", "--size", "2", "--moves", "A1,b2,C1"]);
    assert_eq!(
        (
            v["winner"].clone(),
            v["to_move"].clone(),
            v["perfect_winner"].clone()
        ),
        ("cut".into(), Value::Null, "cut".into())
    );
}

#[test]
fn solve_text_names_the_winner_and_the_moves() {
    let out = birdcage(&["solve", "--size", "2", "--moves", "A3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want = "\
M=2, moves: A3

  ● = ●
3 ×   |
2 ● - ●
1 |   |
  ● = ●
  A B C

Short to move; with perfect play Cut wins.
Short has no winning move.
";
    assert_eq!(text, want);
}

#[test]
fn beat_json_reports_a_beatable_machine_and_its_line() {
    let v = json(&["beat", "--size", "3"]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "beatable",
            "line",
            "network",
            "searched",
            "size",
            "strategy_positions",
            "ties",
            "unbeaten_openings"
        ]
    );
    assert_eq!(v["beatable"], true);
    assert_eq!(v["ties"], "reading-order");
    assert_eq!(v["line"], "A5,c5,C3,a1,B4,e3,E1,d2,E5,d4,B2,c1");
    let v = json(&[
        "beat",
        "--size",
        "3",
        "--ties",
        "any",
        "--network",
        "reference",
    ]);
    assert_eq!(v["beatable"], false);
    assert_eq!(v["unbeaten_openings"], serde_json::json!(["C1"]));
}

#[test]
fn play_reads_moves_from_a_pipe_and_prints_the_record() {
    let out = birdcage_with_input(&["play", "--size", "2"], "hint\nwhy\nc3\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(
        "M=2: you play Short against Shannon's heuristic (ideal network). Cut moves first.\n"
    ));
    assert!(text.contains("Machine: A3\n"), "{text}");
    // M=2: the machine plays perfectly (README "Results"), so nothing beats it. After A3
    // Short needs C3: c3 (or c1) leaves the cuts A1 and B2 losing, a1 and b2 none; c3
    // comes first in reading order.
    assert!(
        text.contains(
            "Hint: c3: best try; the position is lost against this machine.\n\n\
             Why: no move of yours wins, neither against perfect play nor against this \
             machine (the hint's search went through every strategy); c3 keeps the most \
             chances: it leaves the machine the most replies that lose against perfect play.\n"
        ),
        "{text}"
    );
    assert!(text.contains("You: c3\n\n  ● = ●\n3 ×   ‖\n"), "{text}");
    assert!(text.contains("Machine: C1\n"), "{text}");
    assert!(text.ends_with("Record: A3,c3,C1\n"), "{text}");
    // The game goes on to the end: here the machine wins.
    let out = birdcage_with_input(&["play", "--size", "2"], "c3\nb2\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("Cut has won: the machine wins.\nRecord: A3,c3,C1,b2,A1\n"),
        "{text}"
    );
}

#[test]
fn play_undo_drops_and_the_perfect_opponent() {
    let out = birdcage_with_input(
        &[
            "play",
            "--size",
            "3",
            "--opponent",
            "perfect",
            "--you",
            "cut",
        ],
        "A5\nundo\nundo\ndrops\nquit\nC3\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("you play Cut against the perfect player"),
        "{text}"
    );
    assert!(text.contains("You: A5\n"), "{text}");
    assert!(text.contains("Undone.\n"), "{text}");
    assert!(text.contains("Nothing to undo.\n"), "{text}");
    assert!(
        text.contains("Drops in % of the supply (ideal network):\n"),
        "{text}"
    );
    // quit stops reading: C3 is never played.
    assert!(text.ends_with("Record: (none)\n"), "{text}");
}

#[test]
fn play_with_no_input_prints_the_opening_and_exits_0() {
    let out = birdcage_with_input(&["play"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("M=4: you play Short"), "{text}");
    assert!(text.ends_with("Record: A7\n"), "{text}");
}

#[test]
fn a_bad_scripted_move_keeps_the_output_and_exits_2() {
    for (input, error) in [
        (
            "c3\nz9\n",
            "error: line 2: z9 is off the M=2 board (columns A..C, rows 1..3)",
        ),
        ("\nc3\nA3\n", "error: line 3: a3 was already cut"),
        ("c3\nc3\n", "error: line 2: c3 was already shorted"),
        (
            "jump\n",
            "error: line 1: `jump` is not an edge name (expected a column letter and a row number, like C3)",
        ),
    ] {
        let out = birdcage_with_input(&["play", "--size", "2"], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().collect::<Vec<_>>(), [error], "{input:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Machine: A3\n"), "{text}");
        assert!(
            text.lines().last().unwrap().starts_with("Record: A3"),
            "{text}"
        );
    }
}

#[test]
fn bad_options_of_the_game_commands_get_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "--size", "1"],
            "error: invalid value '1' for '--size <M>': must be a whole number from 2 to 8",
        ),
        (
            &["solve", "--size", "3", "--moves", "A5,c4"],
            "move 2: c4 is not an edge",
        ),
        (
            &["solve", "--size", "3", "--moves", "A5,c5,C5"],
            "move 3: C5 was already shorted",
        ),
        (
            &["beat", "--size", "3", "--ties", "random"],
            "invalid value 'random' for '--ties <TIES>'",
        ),
        (
            &["beat", "--size", "12"],
            "'--size <M>': must be a whole number from 2 to 8",
        ),
        (
            &["play", "--opponent", "shannon"],
            "invalid value 'shannon' for '--opponent <OPPONENT>'",
        ),
        (
            &["play", "--opponent", "firmware", "--you", "cut"],
            "error: the firmware plays Cut; play it with --you short",
        ),
        (
            &["play", "--board", "nucleo-f446re", "--size", "5"],
            "error: the firmware plays M=3 and M=4 (the cage its boards wire), not M=5",
        ),
        (&["play", "--board", "uno"], "error: unknown board `uno`"),
        (
            &["play", "--opponent", "perfect", "--board", "arduino-mega"],
            "error: --board runs the firmware; the perfect player needs no board",
        ),
        (
            &["play", "--tolerance-seed", "3"],
            "error: --tolerance-seed draws the firmware's board; use it with --opponent firmware",
        ),
        (
            &["play", "--size", "0"],
            "'--size <M>': must be a whole number from 2 to 8",
        ),
    ];
    for (args, message) in cases {
        assert_bad_input(args, message);
    }
}

#[test]
fn the_beat_line_replayed_through_play_beats_the_machine() {
    // Short's moves of `birdcage beat --size 4`'s line; the machine is deterministic.
    let v = json(&["beat", "--size", "4"]);
    let line = v["line"].as_str().unwrap();
    let shorts: Vec<&str> = line
        .split(',')
        .filter(|m| m.starts_with(|c: char| c.is_ascii_lowercase()))
        .collect();
    let out = birdcage_with_input(&["play", "--size", "4"], &(shorts.join("\n") + "\n"));
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(&format!("Short has won: you win.\nRecord: {line}\n")),
        "{text}"
    );
}

#[test]
fn the_firmware_opens_as_the_board_reading_says() {
    let out = birdcage_with_input(&["play", "--opponent", "firmware", "--size", "3"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "M=3: you play Short against the firmware on an emulated nucleo-f446re (nominal parts)."
        ),
        "{text}"
    );
    let opening = support::stdout(&["next", "--size", "3", "--board", "nucleo-f446re"]);
    assert!(
        text.contains(&format!("Machine: {}", opening.trim())),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("Record: {}\n", opening.trim())),
        "{text}"
    );
}

#[test]
fn next_answers_for_short_as_bridj_it_s_machine() {
    // Cut to move: Shannon's machine, unchanged (CI checks this line).
    assert_eq!(stdout(&["next", "--size", "4", "--moves", "A7,c5"]), "C7\n");
    // Short to move: the largest drop, shorted, written as the record writes Short's moves.
    for (size, moves) in [("3", "A5"), ("4", "A7"), ("4", "A7,c5,C7"), ("2", "A3")] {
        let v = json(&["analyze", "--size", size, "--moves", moves]);
        assert_eq!(v["to_move"], "short");
        let largest = v["tied"][0].as_str().unwrap().to_ascii_lowercase();
        let next = stdout(&["next", "--size", size, "--moves", moves]);
        assert_eq!(next, format!("{largest}\n"), "M={size} {moves}");
    }
    assert_eq!(stdout(&["next", "--size", "3", "--moves", "A5"]), "c5\n");
    assert_bad_input(
        &["next", "--size", "3", "--moves", "A5", "--adc-bits", "10"],
        "it is Short's turn; the firmware reads the board for Cut",
    );
}

#[test]
fn completions_and_the_man_page_come_from_the_clap_definitions() {
    let bash = stdout(&["completions", "bash"]);
    assert!(bash.contains("_birdcage()"), "{bash}");
    // Every subcommand is offered, the newest included.
    for sub in ["analyze", "play", "links", "completions"] {
        assert!(bash.contains(sub), "{sub} missing");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert!(!stdout(&["completions", shell]).is_empty(), "{shell}");
    }
    let man = stdout(&["man"]);
    assert!(man.contains(".TH birdcage 1"), "{man}");
    assert!(man.contains("links"), "{man}");
    assert_bad_input(&["completions", "tcsh"], "invalid value 'tcsh'");
}

/// Issue 17: a scripted game given a line that is not UTF-8 prints the record so far and
/// names the line, exit 2.
#[test]
fn play_input_that_is_not_utf8_names_its_line_after_the_record() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(["play", "--size", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"c7\n\xff\xfe\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let record = text.lines().last().unwrap();
    assert!(
        record.starts_with("Record: ") && record.contains("c7"),
        "{text}"
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: input line 2 is not UTF-8 text\n"
    );
}

#[test]
fn a_line_of_q_quits_as_quit_does() {
    // The keys' table gives `q` for quit, as it gives `?` for the hint: one key alone on a
    // line is its command, on the cage and on a graph without an edge named `q`.
    for args in [
        &["play", "--size", "3"][..],
        &["play", "--size", "4", "--you", "cut"],
    ] {
        let out = birdcage_with_input(args, "?\nq\nA5\n");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Hint: "), "{text}");
        assert!(
            !text.contains("You: A5"),
            "the game went on after q: {text}"
        );
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_scripted_game_draws_cuts_as_the_terminal_does() {
    // Issue 52 item 1: piped input drew a cut as a blank, the terminal as `×`.
    let out = birdcage_with_input(&["play", "--size", "2", "--you", "cut"], "A3\nquit\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let board = "  ● = ●\n3 ×   |\n2 ● - ●\n1 |   |\n  ● = ●\n  A B C\n";
    assert!(text.contains(&format!("You: A3\n\n{board}")), "{text}");
}

/// README's list of exit codes is prose (`the exit codes (0; 1 when ...; 2 ...)`): the number
/// opening each of its items is a code of the table `--help` prints, all of them, in order
/// (it lacked 1 and 130 before issue 65).
#[test]
fn the_readme_s_exit_codes_are_the_help_s() {
    let help = stdout(&["--help"]);
    let table = &help[help
        .find("Exit status:")
        .expect("--help prints the exit codes")..];
    let codes = |lines: Vec<&str>| -> Vec<u32> {
        lines
            .iter()
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect()
    };
    let in_help = codes(
        table
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("     "))
            .collect(),
    );
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let start = readme
        .find("the exit codes (")
        .expect("README lists the exit codes")
        + "the exit codes (".len();
    let listed = &readme[start..start + readme[start..].find(");").unwrap_or(0)];
    assert_eq!(
        codes(listed.split("; ").collect()),
        in_help,
        "birdcage/README.md's exit codes are not --help's: {listed}"
    );
}
