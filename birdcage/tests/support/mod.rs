//! Running the `birdcage` binary from tests: its output, its JSON, its one-line errors.
#![allow(dead_code)] // each test file uses its own subset

use std::process::{Command, Output};

use serde_json::Value;

pub fn birdcage(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(args)
        .output()
        .unwrap()
}

/// Standard output of a run that must succeed.
pub fn stdout(args: &[&str]) -> String {
    let out = birdcage(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The JSON document of a run with `--format json` appended.
pub fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    serde_json::from_str(&stdout(&all)).unwrap()
}

/// Bad input: exit code 2, one line on stderr containing `message`, no panic, no output.
pub fn assert_bad_input(args: &[&str], message: &str) {
    let out = birdcage(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(!err.contains("panicked"));
    assert!(out.stdout.is_empty());
}

/// A file in a per-process scratch folder, written with `text`.
pub fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the binary with `input` on a piped (not terminal) stdin.
pub fn birdcage_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Whether nauty's programs are installed (links and the heuristic study read their graphs);
/// without them a test returns early and says so, as README's test command promises.
pub fn nauty() -> bool {
    let ok = switching::enumerate::nauty_available()
        .expect("nauty's geng is installed but does not run");
    if !ok {
        needs::skip("nauty", "nauty not installed");
    }
    ok
}
