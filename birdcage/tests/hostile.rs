//! A hostile world (issue 27): long names, special files, big graphs and a study folder that
//! already holds a report. Every case is one line on stderr and exit 2, never a panic, a hang
//! or an allocation failure.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{assert_bad_input, birdcage, scratch_file};

/// Runs the binary with an empty stdin and kills it after `limit`: a regression that blocks
/// (a FIFO opened for reading) fails the test instead of hanging it.
fn birdcage_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Exit 2 and one line on stderr containing `message`, within 30 s.
fn assert_refused_in_time(args: &[&str], message: &str) {
    let out = birdcage_within(args, Duration::from_secs(30));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Item 3: a name of 65,536 characters (the width past which `format!` padding panics) is
/// refused by the reader with its line, on every command that reads a graph.
#[test]
fn a_long_name_is_refused_by_every_command_with_its_line() {
    let long = "n".repeat(65_536);
    for (file, text, line) in [
        ("long-edge.txt", format!("terminals s t\ns t {long}\n"), 2),
        (
            "long-vertex.txt",
            format!("terminals s t\ns {long}\n{long} t\n"),
            2,
        ),
    ] {
        let path = scratch_file(file, &text);
        let path = path.to_str().unwrap();
        let message = format!(
            "error: {path}: line {line}: a name of 65536 characters: names are at most 64 characters"
        );
        for command in ["solve", "play", "analyze", "next"] {
            assert_bad_input(&[command, "--graph", path], &message);
        }
    }
}

/// Item 4: a FIFO and a symlink to `/dev/zero` as a graph file or a records file are refused
/// before they are opened (a FIFO blocks `open`, `/dev/zero` never ends), in time.
#[cfg(unix)]
#[test]
fn special_files_are_refused_before_they_are_opened() {
    let dir = scratch_dir("special");
    let fifo = dir.join("fifo.txt");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let zero = dir.join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let not_regular = "not a regular file (a fifo, socket or device)";
    for file in [&fifo, &zero] {
        let path = file.to_str().unwrap();
        for command in ["solve", "play"] {
            assert_refused_in_time(
                &[command, "--graph", path],
                &format!("error: cannot read graph file {path}: {not_regular}"),
            );
        }
        let out = dir.join("study");
        assert_refused_in_time(
            &[
                "study",
                "quantisation",
                "--records",
                path,
                "--out",
                out.to_str().unwrap(),
            ],
            &format!("error: cannot read records file {path}: {not_regular}"),
        );
        assert!(!out.exists(), "the study made its folder");
    }
    // A regular file past its reader's limit is refused by its size, not read whole.
    let big = dir.join("big.txt");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(switching::file::MAX_FILE_BYTES + 1).unwrap();
    let path = big.to_str().unwrap();
    assert_refused_in_time(
        &["solve", "--graph", path],
        &format!(
            "error: cannot read graph file {path}: larger than 67108864 bytes, the most this \
             file may hold"
        ),
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 10: a NUL or a newline in a records file is escaped in the error that repeats it.
#[test]
fn a_records_error_escapes_control_characters() {
    let path = scratch_file("nul-records.txt", "A5\nC\u{0}3\n");
    let path = path.to_str().unwrap();
    let dir = scratch_dir("nul");
    let out = birdcage(&[
        "study",
        "quantisation",
        "--records",
        path,
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\0'), "{err:?}");
    assert_eq!(
        err,
        format!(
            "error: {path} line 2: move 1: `C\\u{{0}}3` is not an edge name (expected a column \
             letter and a row number, like C3)\n"
        )
    );
}

/// Issue 52: `study --force` over a bench report once cleared the bench's summaries and
/// kept its `steps.jsonl`, so a later `hil-tests run --resume` wrote its summary over the
/// study's. A bench's folder is refused, `--force` or not, and left as it was.
#[test]
fn a_study_refuses_a_bench_reports_folder_even_with_force() {
    let dir = scratch_dir("bench");
    let out = dir.to_str().unwrap();
    let files = [
        ("steps.jsonl", "{\"seq\":0}\n"),
        ("summary.md", "# HIL bench\n"),
        ("summary.json", "{}\n"),
        ("plot.svg", "<svg/>\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let refused = format!(
        "error: {out} holds a bench report (steps.jsonl), which a study does not replace, \
         --force or not: choose another --out"
    );
    for force in [false, true] {
        let mut args = vec![
            "study", "pullups", "--size", "2", "--boards", "1", "--out", out,
        ];
        if force {
            args.push("--force");
        }
        assert_bad_input(&args, &refused);
        for (name, text) in files {
            assert_eq!(
                std::fs::read_to_string(dir.join(name)).unwrap(),
                text,
                "{name} (--force: {force})"
            );
        }
    }
}

/// Item 8: a study into a folder that holds a report is refused (exit 2, one line, the
/// report untouched); `--force` replaces it, old files and all.
#[test]
fn a_study_does_not_overwrite_a_report_without_force() {
    let dir = scratch_dir("again");
    let out = dir.to_str().unwrap();
    let first = [
        "study", "pullups", "--size", "2", "--boards", "1", "--out", out,
    ];
    let run = birdcage(&first);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let summary = std::fs::read(dir.join("summary.md")).unwrap();
    let refused = format!(
        "error: {out} already holds a report (summary.md): --force replaces it, or choose \
         another --out"
    );
    // The same study again, and a different one: both refused, nothing written.
    assert_bad_input(&first, &refused);
    assert_bad_input(
        &[
            "study",
            "quantisation",
            "--size",
            "2",
            "--board",
            "ideal",
            "--out",
            out,
        ],
        &refused,
    );
    assert_eq!(std::fs::read(dir.join("summary.md")).unwrap(), summary);
    // A folder with other files only is not a report.
    let other = scratch_dir("other");
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let run = birdcage(&[
        "study",
        "pullups",
        "--size",
        "2",
        "--boards",
        "1",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    // --force: the new study's files only, the other files kept.
    let mut forced = first.to_vec();
    forced[1] = "quantisation";
    forced.splice(4..6, ["--board", "ideal"]);
    forced.push("--force");
    let run = birdcage(&forced);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with("pullups")), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("quantisation")),
        "{names:?}"
    );
    assert!(other.join("notes.txt").exists());
}

/// Issue 62: `birdcage links` writes its list and JSON through the one writer. A link planted
/// at `links-6.txt` to a file of the victim's leaves that file as it was; a FIFO at
/// `links-6.json` is refused in one line, naming it, instead of hanging the run.
#[test]
fn links_write_through_no_link_and_refuse_a_fifo() {
    if !support::nauty() {
        return;
    }
    let dir = scratch_dir("links-writer");
    let out = dir.to_str().unwrap();
    let victim = scratch_file("links-victim", "the victim's notes\n");
    std::os::unix::fs::symlink(&victim, dir.join("links-6.txt")).unwrap();
    let ran = birdcage_within(
        &["links", "--vertices", "6", "--out", out],
        Duration::from_secs(30),
    );
    let err = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(2), "{err}");
    assert!(
        err.contains("links-6.txt is a symbolic link, not a regular file"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's notes\n"
    );
    // Refused before the search ran: nothing of the report was written.
    assert!(!dir.join("links-6.json").exists());
    std::fs::remove_file(dir.join("links-6.txt")).unwrap();
    let fifo = dir.join("links-6.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    assert_refused_in_time(
        &["links", "--vertices", "6", "--out", out],
        "links-6.json is a FIFO, not a regular file",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
