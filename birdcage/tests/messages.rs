//! Issue 28 item 4: messages that help. An error repeats the input once and at most about 80
//! characters of it; a number out of range names its range in words (negative numbers too);
//! a folder or a file where the other is expected says so with its path.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use std::process::Command;

use support::{assert_bad_input, birdcage, birdcage_with_input, scratch_file};

/// The most an error line may be when it repeats 100 KB of input once, cut.
const SHORT: usize = 300;

fn assert_short_one_line(what: &str, out: &std::process::Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err:.300}");
    let lines: Vec<&str> = err.lines().collect();
    let last = lines.last().unwrap_or(&"");
    assert!(last.starts_with("error: "), "{what}: {err:.300}");
    assert!(
        last.len() < SHORT,
        "{what}: {} bytes: {last:.300}",
        last.len()
    );
    assert!(!err.contains("panicked"), "{what}");
}

#[test]
fn long_input_is_repeated_once_and_cut() {
    // 100 KB: an argument may hold at most 128 KB on Linux.
    let long = "x".repeat(100_000);
    let graph = scratch_file(
        "messages-triangle.txt",
        "terminals s t\ns a\na t\ns t direct\n",
    );
    let graph = graph.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("birdcage-messages-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let long_arg = format!("--{long}");
    for args in [
        vec!["analyze", "--size", &long],
        vec!["analyze", &long_arg],
        vec!["analyze", "--size", "4", "--moves", &long],
        vec!["analyze", "--size", "4", "--board", &long],
        vec!["solve", "--graph", graph, "--moves", &long],
        vec!["link", "--graph6", &long],
        vec!["link", "--graph6", "BW", "--terminals", &long],
        vec!["links", "--vertices", "5", "--part", &long, "--out", out],
        vec!["study", "pullups", "--board", &long, "--out", out],
    ] {
        let what = format!("{:?}", &args[..args.len() - 1]);
        assert_short_one_line(&what, &birdcage(&args));
    }
    // A 200 KB line of a graph file, of a records file, and of a scripted game.
    let file = scratch_file(
        "messages-long.txt",
        &format!("terminals s t\ns t\n{long}{long}\n"),
    );
    assert_short_one_line(
        "graph file",
        &birdcage(&["solve", "--graph", file.to_str().unwrap()]),
    );
    let records = scratch_file("messages-records.txt", &format!("{long}{long}\n"));
    assert_short_one_line(
        "records",
        &birdcage(&[
            "study",
            "pullups",
            "--records",
            records.to_str().unwrap(),
            "--out",
            out,
        ]),
    );
    let line = format!("{long}{long}\n");
    assert_short_one_line(
        "play on a graph",
        &birdcage_with_input(&["play", "--graph", graph, "--opponent", "perfect"], &line),
    );
    assert_short_one_line(
        "play",
        &birdcage_with_input(&["play", "--size", "3"], &line),
    );
    // Once: clap repeats the value, the parser does not say it again.
    let err = String::from_utf8(birdcage(&["analyze", "--size", "x7"]).stderr).unwrap();
    assert_eq!(err.matches("x7").count(), 1, "{err}");
    let err = String::from_utf8(
        birdcage(&["links", "--vertices", "7", "--part", "9/4", "--out", out]).stderr,
    )
    .unwrap();
    assert_eq!(err.matches("9/4").count(), 1, "{err}");
}

#[test]
fn every_numeric_option_names_its_range_in_words() {
    let dir = std::env::temp_dir().join(format!("birdcage-ranges-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let cases: &[(&[&str], &str, &str)] = &[
        (&["analyze", "--size"], "--size <M>", "from 2 to 8"),
        (&["beat", "--size"], "--size <M>", "from 2 to 8"),
        (&["graph", "--size"], "--size <M>", "from 2 to 8"),
        (&["play", "--size"], "--size <M>", "from 2 to 8"),
        (
            &["study", "pullups", "--out", out, "--size"],
            "--size <M>",
            "from 2 to 8",
        ),
        (
            &["analyze", "--size", "3", "--adc-bits"],
            "--adc-bits <N>",
            "from 6 to 16",
        ),
        (
            &[
                "analyze",
                "--size",
                "3",
                "--board",
                "nucleo-f446re",
                "--tolerance-seed",
            ],
            "--tolerance-seed <S>",
            ", 0 or more",
        ),
        (
            &["play", "--tolerance-seed"],
            "--tolerance-seed <S>",
            ", 0 or more",
        ),
        (&["links", "--vertices"], "--vertices <N>", "from 3 to 12"),
        (
            &["links", "--vertices", "5", "--shards"],
            "--shards <P>",
            "from 1 to 1000000",
        ),
        (
            &["links", "--vertices", "5", "--jobs"],
            "--jobs <J>",
            "from 1 to 1024",
        ),
        (
            &["study", "pullups", "--out", out, "--seed"],
            "--seed <S>",
            ", 0 or more",
        ),
        (
            &["study", "pullups", "--out", out, "--boards"],
            "--boards <N>",
            ", at least 1",
        ),
        (
            &["study", "pullups", "--out", out, "--random-games"],
            "--random-games <N>",
            ", at least 1",
        ),
        (
            &["study", "heuristic", "--out", out, "--max-vertices"],
            "--max-vertices <N>",
            "from 2 to 9",
        ),
        (
            &["study", "heuristic", "--out", out, "--samples"],
            "--samples <N>",
            ", at least 1",
        ),
        (&["web", "--port"], "--port <P>", "from 0 to 65535"),
    ];
    for (args, option, words) in cases {
        // Negative, past the type's limit, and not a number: the same words.
        for value in ["-3", "99999999999999999999999", "many"] {
            let mut all = args.to_vec();
            all.push(value);
            assert_bad_input(
                &all,
                &format!(
                    "error: invalid value '{value}' for '{option}': must be a whole number{}{words}",
                    if words.starts_with(',') { "" } else { " " }
                ),
            );
        }
    }
}

#[test]
fn a_folder_or_a_file_where_the_other_is_expected_says_so() {
    let dir = std::env::temp_dir().join(format!("birdcage-kinds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("profiles")).unwrap();
    let file = dir.join("report");
    std::fs::write(&file, "a file").unwrap();
    let (d, f) = (dir.to_str().unwrap(), file.to_str().unwrap());
    // A bare name that is a folder here is a folder, not a board name mistyped.
    let out = Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(["analyze", "--size", "4", "--board", "profiles"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: profile file profiles: is a directory, not a file\n"
    );
    for (args, message) in [
        (
            vec!["analyze", "--size", "4", "--board", d],
            format!("error: profile file {d}: is a directory, not a file"),
        ),
        (
            vec!["solve", "--graph", d],
            format!("error: cannot read graph file {d}: is a directory, not a file"),
        ),
        (
            vec!["study", "pullups", "--records", d, "--out", f],
            "is a directory, not a file".to_string(),
        ),
        (
            vec!["links", "--vertices", "5", "--out", f],
            format!("error: cannot create folder {f}: it is a file, not a folder"),
        ),
        (
            vec!["study", "pullups", "--out", f],
            format!("error: cannot create folder {f}: it is a file, not a folder"),
        ),
    ] {
        assert_bad_input(&args, &message);
    }
}

#[test]
fn a_mistyped_option_or_subcommand_keeps_clap_s_suggestion_in_its_one_line() {
    // Issue 52 item 3: the tip stood in a paragraph of its own after the first, and was cut.
    for (args, first, tip) in [
        (
            vec!["play", "--oponent", "perfect"],
            "error: unexpected argument '--oponent' found",
            "tip: a similar argument exists: '--opponent'",
        ),
        (
            vec!["pley"],
            "error: unrecognized subcommand 'pley'",
            "tip: a similar subcommand exists: 'play'",
        ),
    ] {
        let out = birdcage(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err, format!("{first} {tip}\n"), "{args:?}");
    }
}
