//! The hint of `birdcage play` knows the machine it plays: whole scripted games in which
//! the person only ever plays the hint's move, driven through the pipes line by line as a
//! person would (`hint`, read the move, send it, again), against Shannon's heuristic.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use support::{scratch_file, stdout};

/// What a game played on the hints came to.
struct Game {
    /// Every hint line, in order.
    hints: Vec<String>,
    /// The reasons (`why`) of each hint, in order.
    whys: Vec<String>,
    /// The moves the hints named (and the person played).
    moves: Vec<String>,
    /// The result line (`Short has won: you win.`).
    outcome: String,
    /// The record the game printed last.
    record: String,
}

/// Runs `birdcage play ARGS` with piped stdin and stdout, plays the person's `opening`
/// moves, then the move each hint names (asking `why` each time) until the game is over.
fn play_the_hints(args: &[&str]) -> Game {
    play_the_hints_after(args, &[])
}

fn play_the_hints_after(args: &[&str], opening: &[&str]) -> Game {
    let mut child = Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut game = Game {
        hints: Vec::new(),
        whys: Vec::new(),
        moves: Vec::new(),
        outcome: String::new(),
        record: String::new(),
    };
    for mv in opening {
        writeln!(input, "{mv}").unwrap();
    }
    loop {
        assert!(game.moves.len() < 100, "{args:?}: the game does not end");
        // Once the game is over the next line ends it: the outcome and the record.
        writeln!(input, "hint\nwhy").unwrap();
        input.flush().unwrap();
        let line = loop {
            let line = output
                .next()
                .unwrap_or_else(|| panic!("{args:?}: output ended after {:?}", game.moves))
                .unwrap();
            if line.starts_with("Hint: ") || line.contains(" has won: ") {
                break line;
            }
        };
        if line.contains(" has won: ") {
            game.outcome = line;
            break;
        }
        // `Hint: c7: why`: the move comes first.
        let named = line["Hint: ".len()..]
            .split(':')
            .next()
            .unwrap()
            .to_string();
        assert_ne!(named, "none", "{args:?} after {:?}: {line}", game.moves);
        let why = loop {
            let line = output.next().unwrap().unwrap();
            if line.starts_with("Why: ") {
                break line;
            }
        };
        game.hints.push(line);
        game.whys.push(why);
        writeln!(input, "{named}").unwrap();
        input.flush().unwrap();
        game.moves.push(named);
    }
    drop(input);
    for line in output {
        let line = line.unwrap();
        if let Some(record) = line.strip_prefix("Record: ") {
            game.record = record.to_string();
        }
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{args:?}");
    game
}

/// The person's moves in a record: every other move from `first` (0 for Cut, 1 for Short).
fn own_moves(record: &str, first: usize) -> Vec<String> {
    record
        .split(',')
        .skip(first)
        .step_by(2)
        .map(String::from)
        .collect()
}

#[test]
fn short_beats_the_heuristic_by_playing_the_hints() {
    // Perfect play says the machine wins after its opening at M=3 and M=4, yet it is
    // beaten as it plays (README "Results"): the hint finds the strategy that does it.
    for size in ["3", "4"] {
        for network in ["ideal", "reference"] {
            let args = ["--size", size, "--network", network];
            let game = play_the_hints(&args);
            assert_eq!(game.outcome, "Short has won: you win.", "{args:?}");
            assert_eq!(own_moves(&game.record, 1), game.moves, "{args:?}");
            assert_eq!(
                game.hints[0],
                format!("Hint: {}: it wins against this machine.", game.moves[0]),
                "{args:?}"
            );
            assert!(
                game.whys[0].ends_with(
                    "starts a strategy that beats this machine whatever it does, \
                     though with perfect play the machine would win."
                ),
                "{args:?}: {}",
                game.whys[0]
            );
        }
    }
}

#[test]
fn the_hint_at_m4_after_a7_names_the_strategy_of_beat() {
    // The position: `beat --size 4` opens its line A7,c7 against this machine.
    let beat = stdout(&["beat", "--size", "4"]);
    assert!(beat.contains("Line: A7,c7,"), "{beat}");
    let game = play_the_hints(&["--size", "4"]);
    assert!(game.hints[0].starts_with("Hint: c7: "), "{}", game.hints[0]);
}

#[test]
fn the_hints_beat_the_heuristic_on_a_graph_and_as_cut() {
    // The M=3 cage as a graph file: the same machine, edges named as on the cage.
    let file = scratch_file("m3-cage.txt", &stdout(&["graph", "--size", "3"]));
    let path = file.to_str().unwrap();
    for network in ["ideal", "reference"] {
        let game = play_the_hints(&["--graph", path, "--network", network]);
        assert_eq!(game.outcome, "Short has won: you win.", "{network}");
        assert_eq!(own_moves(&game.record, 1), game.moves, "{network}");
    }
    // As Cut, who moves first and wins with perfect play from the start.
    for size in ["3", "4"] {
        let game = play_the_hints(&["--size", size, "--you", "cut"]);
        assert_eq!(game.outcome, "Cut has won: you win.", "M={size}");
        assert_eq!(own_moves(&game.record, 0), game.moves, "M={size}");
    }
}

#[test]
fn at_m6_to_8_the_hints_beat_the_machine_as_beat_does() {
    // README "Results": the machine is beaten at every size from 3 to 8 the same way, two
    // Short moves that make its third cut a blunder. The hint knows it past the M=5 cage
    // too, on both networks (at M=8 on the reference network the search in board order
    // would end at its budget of 10,964 positions: it tries the line `beat` found first);
    // its words follow the game ("starts" on the first move only).
    for (size, network) in [
        ("6", "ideal"),
        ("7", "ideal"),
        ("8", "ideal"),
        ("6", "reference"),
        ("7", "reference"),
        ("8", "reference"),
    ] {
        let args = ["--size", size, "--network", network];
        let game = play_the_hints(&args);
        assert_eq!(game.outcome, "Short has won: you win.", "{args:?}");
        for hint in &game.hints[..2] {
            assert!(
                hint.ends_with(": it wins against this machine."),
                "{args:?}: {hint}"
            );
        }
        assert!(
            game.whys[0].ends_with(
                "starts a strategy that beats this machine whatever it does, \
                 though with perfect play the machine would win."
            ),
            "{args:?}: {}",
            game.whys[0]
        );
        assert!(
            game.whys[1].ends_with(
                "is the next move of a strategy that beats this machine whatever it does \
                 from here, though with perfect play the machine would win."
            ),
            "{args:?}: {}",
            game.whys[1]
        );
        // Then the machine has blundered: perfect play's hints win from there.
        assert!(
            game.hints[2].ends_with(": it wins, even against perfect play."),
            "{args:?}: {}",
            game.hints[2]
        );
        println!("M={size} {network}: {}", game.record);
    }
}

/// The hint after the person's `moves` (the machine replying as the game does), the move
/// it names, and the record once the person has played that move too: `birdcage play
/// ARGS` piped twice. Fails unless the hint names a move and the game takes it.
fn hint_after(args: &[&str], moves: &[&str]) -> (String, String, String) {
    let mut all = vec!["play"];
    all.extend(args);
    let input: String = moves.iter().map(|m| format!("{m}\n")).collect();
    let out = support::birdcage_with_input(&all, &format!("{input}hint\n"));
    assert_eq!(out.status.code(), Some(0), "{args:?} {moves:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("Hint: "))
        .unwrap_or_else(|| panic!("{args:?} {moves:?}: no hint in {text}"))
        .to_string();
    let named = line["Hint: ".len()..]
        .split(':')
        .next()
        .unwrap()
        .to_string();
    assert_ne!(named, "none", "{args:?} {moves:?}: {line}");
    // Legal: the game plays it (a refused move exits 2).
    let out = support::birdcage_with_input(&all, &format!("{input}{named}\n"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?} {moves:?} {named}: {text}"
    );
    let record = text
        .lines()
        .find_map(|l| l.strip_prefix("Record: "))
        .unwrap()
        .to_string();
    (line, named, record)
}

/// Whether a hint line holds a figure other than those in the move's name: a player
/// cannot use one.
fn has_figures(line: &str, named: &str) -> bool {
    line.replace(named, "")
        .contains(|c: char| c.is_ascii_digit())
        || line.contains("positions")
}

#[test]
fn after_moves_of_ones_own_at_m6_and_m7_the_hints_still_beat_the_machine() {
    // Issue 52: two ordinary moves of the person's, off the line `beat` found, and the
    // hint said `none`. Issue 63: from M=6 up, after moves of one's own, every hint fell
    // back on perfect play (its search stopped at three moves of the person's) and following
    // them lost. The search now deepens as far as its budget goes: from these positions it
    // finds a strategy that beats this machine, and playing the hints wins. After h10 and
    // c9 the win is four moves deep, and the search once spent its budget on the moves it
    // tried first (issue 63, item 5). After k1, d4 and a5 at M=7 the win is five moves
    // deep, and proving that none is four deep took the whole budget; after l12, e11 and
    // m11 too, found only since the search also dives to eight moves at once.
    for (size, moves) in [
        ("6", &["g9", "i9"][..]),
        ("6", &["g9", "i9", "k9"][..]),
        ("6", &["h10", "c9"][..]),
        ("7", &["c1", "e1"][..]),
        ("7", &["k1", "d4", "a5"][..]),
        ("7", &["l12", "e11", "m11"][..]),
    ] {
        let args = ["--size", size];
        let game = play_the_hints_after(&args, moves);
        assert!(
            game.hints[0].ends_with(": it wins against this machine."),
            "M={size} {moves:?}: {}",
            game.hints[0]
        );
        assert_eq!(
            game.outcome, "Short has won: you win.",
            "M={size} {moves:?}"
        );
        let own = own_moves(&game.record, 1);
        assert_eq!(own[..moves.len()], *moves, "M={size}: {}", game.record);
        assert_eq!(own[moves.len()..], game.moves, "M={size}: {}", game.record);
        for (hint, why) in game.hints.iter().zip(&game.whys) {
            let named = hint["Hint: ".len()..].split(':').next().unwrap();
            assert!(!has_figures(hint, named), "M={size}: {hint}");
            assert!(!has_figures(why, named), "M={size}: {why}");
        }
        println!("M={size} {}: {}", game.record, game.hints[0]);
    }
}

/// `birdcage play ARGS` with `input`, and the lines of its output that the hint wrote.
fn hint_lines(args: &[&str], input: &str) -> Vec<String> {
    let mut all = vec!["play"];
    all.extend(args);
    let out = support::birdcage_with_input(&all, input);
    assert_eq!(out.status.code(), Some(0), "{args:?} {input:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("Hint: ") || l.starts_with("Why: ") || l.starts_with("No hint"))
        .map(String::from)
        .collect()
}

#[test]
fn the_hints_words_at_a_glance_and_behind_why() {
    // Every kind of hint: its line (the move, what it achieves) and its reasons. Positions:
    // the machine's opening at M=4, which `beat` beats (README "Results"); c7 and a3 of
    // that line, after which the machine has blundered; c5, c3, off it, proven lost
    // against this machine (the M=4 search is exhaustive); the perfect player and the
    // firmware, lost from the start against perfect play; Cut, who wins with perfect play;
    // M=7 after l10 and b12, where the search's budget ends before any win is found.
    let cases: [(&[&str], &str); 8] = [
        (&["--size", "4"], "why\nhint\nwhy\n"),
        (&["--size", "4"], "c7\nhint\nwhy\n"),
        (&["--size", "4"], "c7\na3\nhint\nwhy\n"),
        (&["--size", "4"], "c5\nc3\nhint\nwhy\n"),
        (&["--size", "4", "--opponent", "perfect"], "hint\nwhy\n"),
        (&["--size", "4", "--opponent", "firmware"], "hint\nwhy\n"),
        (&["--size", "4", "--you", "cut"], "hint\nwhy\n"),
        (&["--size", "7"], "l10\nb12\nhint\nwhy\n"),
    ];
    let mut said = String::new();
    for (args, input) in cases {
        said.push_str(&format!(
            "$ birdcage play {} <<< '{}'\n",
            args.join(" "),
            input.trim_end().replace('\n', "; ")
        ));
        for line in hint_lines(args, input) {
            said.push_str(&line);
            said.push('\n');
        }
        said.push('\n');
    }
    insta::assert_snapshot!("hint-words", said);
}

#[test]
fn against_the_firmware_and_the_perfect_player_the_hint_says_what_it_knows() {
    // The firmware reads its board, not the exact drops the search knows: the hint says
    // so before perfect play's verdict, which is not one on this machine. The perfect
    // player is beaten only by perfect play. From the lost start either still gets a
    // move, said to be no more than the best defence.
    for (args, said) in [
        (
            &["--opponent", "firmware"][..],
            "no strategy against the firmware is searched (its moves come from what its \
             board reads), and with perfect play it would win; ",
        ),
        (
            &["--opponent", "perfect"][..],
            "with perfect play the machine wins whatever you do; ",
        ),
    ] {
        let (line, named, _) = hint_after(args, &[]);
        assert_eq!(
            line,
            format!("Hint: {named}: best try; the position is lost against perfect play."),
            "{args:?}"
        );
        let why = hint_lines(args, "hint\nwhy\n")[1].clone();
        assert_eq!(
            why,
            format!(
                "Why: {said}{named} keeps the most chances: it leaves the machine the most \
                 replies that lose against perfect play."
            ),
            "{args:?}"
        );
        assert!(!has_figures(&line, &named), "{args:?}: {line}");
    }
}
