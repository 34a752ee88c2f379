//! Issue 28 item 2: long work is never silent on a terminal, and changes nothing elsewhere.
//! The terminal is util-linux's `script`, which runs the command on a pseudo-terminal; the
//! command's stdout goes to a file, so that the transcript holds only what stderr drew.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::{birdcage, nauty};

/// What `birdcage args` drew on a terminal (control sequences and carriage returns turned
/// into line breaks), and its stdout; `None` without `script`.
fn on_a_terminal(name: &str, args: &[&str]) -> Option<(String, String)> {
    let dir = std::env::temp_dir().join(format!("birdcage-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stdout: PathBuf = dir.join(format!("{name}.out"));
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let command = format!(
        "'{}' {} > '{}'",
        env!("CARGO_BIN_EXE_birdcage"),
        quoted.join(" "),
        stdout.display()
    );
    let run = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .output();
    let run = match run {
        Ok(run) => run,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            needs::skip("script", "no `script` (bsdutils)");
            return None;
        }
        Err(e) => panic!("`script` is installed but does not start: {e}"),
    };
    assert!(run.status.success(), "{command}");
    let raw = String::from_utf8_lossy(&run.stdout);
    let mut screen = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // CSI: ESC [ parameters, then a letter.
            '\u{1b}' => {
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() && d != '[' {
                        break;
                    }
                }
                screen.push('\n');
            }
            '\r' => screen.push('\n'),
            c => screen.push(c),
        }
    }
    Some((screen, std::fs::read_to_string(&stdout).unwrap()))
}

/// The same run off a terminal: its stdout, and stderr must be empty.
fn off_a_terminal(args: &[&str]) -> String {
    let out = birdcage(args);
    assert!(out.status.success(), "{args:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn beat_counts_its_positions_and_its_bound_then_sums_up() {
    let args = ["beat", "--size", "4", "--ties", "any"];
    let Some((screen, stdout)) = on_a_terminal("beat", &args) else {
        return;
    };
    assert_eq!(stdout, off_a_terminal(&args));
    // The search has no total: a count, its rate and the budget it deepens towards.
    assert!(
        screen.lines().any(|l| l.contains("beat M=4 [")
            && l.contains(" positions (")
            && l.contains("/s) Short budget ")),
        "{screen}"
    );
    let searched = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Positions searched: "))
        .unwrap();
    let searched: u64 = searched.parse().unwrap();
    let summary = screen
        .lines()
        .find(|l| l.starts_with("beat M=4: "))
        .unwrap();
    let grouped = searched.to_string();
    assert!(
        summary
            .replace(',', "")
            .contains(&format!("{grouped} positions searched")),
        "{summary} vs {searched}"
    );
}

#[test]
fn links_shows_the_true_total_or_none() {
    if !nauty() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("birdcage-progress-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    // The whole search: the connected graphs on 7 vertices number 853 (OEIS A001349).
    let whole = ["links", "--vertices", "7"];
    let Some((screen, stdout)) = on_a_terminal("links", &whole) else {
        return;
    };
    assert_eq!(stdout, off_a_terminal(&whole));
    assert!(screen.contains("/853 graphs"), "{screen}");
    assert!(
        screen.contains("links on 7 vertices: 853 graphs; parts: 1 run, 0 already done"),
        "{screen}"
    );
    // One part of two: its total is not known, so none is shown (never `/0`).
    let part = ["links", "--vertices", "7", "--part", "1/2", "--out", out];
    let (screen, _) = on_a_terminal("links-part", &part).unwrap();
    assert!(!screen.contains("/0"), "{screen}");
    assert!(!screen.contains("/853"), "{screen}");
    assert!(screen.contains("graphs; parts: 1 run"), "{screen}");
}

#[test]
fn a_study_shows_its_bar_and_where_its_report_went() {
    let dir = std::env::temp_dir().join(format!("birdcage-progress-study-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let args = [
        "study",
        "quantisation",
        "--board",
        "ideal",
        "--out",
        out,
        "--force",
    ];
    let Some((screen, _)) = on_a_terminal("study", &args) else {
        return;
    };
    assert!(!screen.contains("/0 "), "{screen}");
    // The tree is read as it is built: a count, never a bar whose total is its count
    // (issue 63: `354,762/354,762 decisions ... 0s left` 21 s into the run).
    assert!(screen.contains(" decisions ("), "{screen}");
    let full = screen.lines().find(|line| {
        let Some(at) = line.find(" decisions") else {
            return false;
        };
        let count = line[..at].rsplit(' ').next().unwrap_or_default();
        count.split_once('/').is_some_and(|(done, all)| done == all)
    });
    assert_eq!(full, None, "{screen}");
    assert!(
        screen.contains(&format!("study quantisation: report in {out}/summary.md")),
        "{screen}"
    );
}

#[test]
fn link_counts_the_edges_it_deletes_then_sums_up() {
    let args = ["link", "--graph6", "DIk"];
    let Some((screen, stdout)) = on_a_terminal("link", &args) else {
        return;
    };
    assert_eq!(stdout, off_a_terminal(&args));
    assert!(screen.contains("5/5 edges"), "{screen}");
    assert!(
        screen.contains("link (5 vertices, 5 edges): weak, minimal ("),
        "{screen}"
    );
}
