//! A report survives its world: the bench or QEMU killed with SIGKILL, a steps file torn,
//! garbled, repeated or from another run. Each time the earlier steps are kept and the resumed
//! report equals the uninterrupted one, or the bench refuses with one line and touches nothing.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BENCH: &str = env!("CARGO_BIN_EXE_hil-tests");

/// A seeded SIL run of random M=4 games on a drawn board: every random stream in play (the
/// board's parts, the ADC noise, Short's moves).
fn sil_args(out: &Path, games: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["run", "--target", "sil", "--scenario", "random4"];
    args.extend(["--games", games, "--board-seed", "7", "--seed", "3"]);
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(extra);
    args.into_iter().map(String::from).collect()
}

fn bench(args: &[String]) -> Output {
    Command::new(BENCH)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(run: &Output) -> String {
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}

/// One line on stderr, exit 2, starting with `message`.
fn refused(run: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(message), "{stderr}");
}

/// Asserts two steps files are the same bytes, naming the first line that differs.
fn same(got: &[u8], want: &[u8]) {
    if got == want {
        return;
    }
    let (got, want) = (String::from_utf8_lossy(got), String::from_utf8_lossy(want));
    let line = got
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(got.lines().count().min(want.lines().count()));
    panic!(
        "steps differ from line {}:\n got: {:?}\nwant: {:?}",
        line + 1,
        got.lines().nth(line),
        want.lines().nth(line)
    );
}

fn steps(out: &Path) -> Vec<u8> {
    std::fs::read(out.join("steps.jsonl")).unwrap()
}

fn game_ends(out: &Path) -> usize {
    std::fs::read(out.join("steps.jsonl"))
        .map(|b| String::from_utf8_lossy(&b).matches("{\"game_end\"").count())
        .unwrap_or(0)
}

/// Waits until the report in `out` holds `games` finished games (the child still running).
fn wait_for_games(child: &mut Child, out: &Path, games: usize) {
    let start = Instant::now();
    while game_ends(out) < games {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before {games} games"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "too slow");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The uninterrupted run's report, made once per test binary.
fn reference() -> &'static (PathBuf, Vec<u8>) {
    static REFERENCE: std::sync::OnceLock<(PathBuf, Vec<u8>)> = std::sync::OnceLock::new();
    REFERENCE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let out = dir.join("whole");
        ok(&bench(&sil_args(&out, "60", &[])));
        (out.clone(), steps(&out))
    })
}

/// The summary's figures, which must not depend on an interruption.
fn tally(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    summary["tally"].clone()
}

/// A report of the reference run cut after its `games`-th game, plus `tail`.
fn cut(games: usize, tail: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let (_, whole) = reference();
    let text = String::from_utf8_lossy(whole);
    let end = text
        .match_indices("{\"game_end\"")
        .nth(games - 1)
        .map(|(i, _)| i + text[i..].find('\n').unwrap() + 1)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    std::fs::create_dir(&out).unwrap();
    let mut bytes = whole[..end].to_vec();
    bytes.extend_from_slice(tail);
    std::fs::write(out.join("steps.jsonl"), bytes).unwrap();
    (dir, out)
}

#[test]
fn a_report_is_not_overwritten_without_resume_or_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    ok(&bench(&sil_args(&out, "3", &[])));
    let before = steps(&out);
    let again = bench(&sil_args(&out, "1", &[]));
    refused(
        &again,
        &format!(
            "error: {} already holds a report (3 games finished): --resume plays the rest, --force starts over",
            out.join("steps.jsonl").display()
        ),
    );
    assert_eq!(steps(&out), before);
    let forced = ok(&bench(&sil_args(&out, "1", &["--force"])));
    assert!(forced.contains("1 of 1 planned game played"), "{forced}");
    assert!(
        bench(&sil_args(&out, "1", &["--force", "--resume"]))
            .status
            .code()
            == Some(2)
    );
}

#[test]
fn a_bench_killed_mid_game_resumes_to_the_uninterrupted_report() {
    let (_, whole) = reference();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let mut child = Command::new(BENCH)
        .args(sil_args(&out, "60", &[]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_games(&mut child, &out, 5);
    child.kill().unwrap(); // SIGKILL: no handler runs, nothing is summed up.
    child.wait().unwrap();
    let killed = steps(&out);
    assert!(!out.join("summary.json").exists());
    let resumed = ok(&bench(&sil_args(&out, "60", &["--resume"])));
    assert!(
        resumed.contains("60 of 60 planned games played"),
        "{resumed}"
    );
    let after = steps(&out);
    // Every finished game's lines are kept byte for byte ...
    let text = String::from_utf8_lossy(&killed);
    let kept = text.rfind("{\"game_end\"").unwrap();
    let kept = kept + text[kept..].find('\n').unwrap() + 1;
    same(&after[..kept], &killed[..kept]);
    // ... and the resumed run is the uninterrupted one: same noise, same moves, same codes.
    same(&after, whole);
    assert_eq!(tally(&out), tally(&reference().0));
    // ... and so is every summary, byte for byte: the floats read back from the steps file
    // (margins) round-trip exactly.
    for file in ["summary.json", "summary.md", "plot.svg"] {
        let got = std::fs::read(out.join(file)).unwrap();
        let want = std::fs::read(reference().0.join(file)).unwrap();
        assert!(
            got == want,
            "{file} of the resumed run differs from the uninterrupted one's"
        );
    }
}

#[test]
fn a_torn_last_line_is_dropped_and_the_run_resumes() {
    let (_, whole) = reference();
    let (_dir, out) = cut(4, b"{\"step\":{\"game\":4,\"rec");
    ok(&bench(&sil_args(&out, "60", &["--resume"])));
    same(&steps(&out), whole);
}

#[test]
fn a_garbled_repeated_or_misplaced_line_is_refused_and_nothing_is_touched() {
    let (_, whole) = reference();
    let text = String::from_utf8_lossy(whole);
    let lines: Vec<&str> = text.lines().collect();
    let end_of_game = |g: usize| {
        lines
            .iter()
            .position(|l| l.starts_with(&format!("{{\"game_end\":[{g},")))
            .unwrap()
    };
    // Line numbers are 1-based; `end_of_game(g) + 1` is game g's end line.
    let second_step = lines[1];
    let mut cases: Vec<(Vec<u8>, String)> = Vec::new();
    // A garbage line in the middle, then finished games.
    let mut garbage = lines[..3].join("\n").into_bytes();
    garbage.extend_from_slice(b"\n#!garbage\n");
    garbage.extend_from_slice(lines[3..20].join("\n").as_bytes());
    garbage.push(b'\n');
    cases.push((garbage, "line 4: not a report line".to_string()));
    // A step repeated.
    let mut repeated = lines[..2].join("\n").into_bytes();
    repeated.extend_from_slice(format!("\n{second_step}\n").as_bytes());
    cases.push((repeated, "line 3: repeats line 2".to_string()));
    // A game's end repeated.
    let e1 = end_of_game(1);
    let mut again = lines[..=e1].join("\n").into_bytes();
    again.extend_from_slice(format!("\n{}\n", lines[e1]).as_bytes());
    cases.push((
        again,
        format!(
            "line {}: a line of game 1 where game 2 comes next (a repeated or misplaced line)",
            e1 + 2
        ),
    ));
    // Valid JSON that is no report line, and invalid UTF-8.
    let mut foreign = lines[..2].join("\n").into_bytes();
    foreign.extend_from_slice(b"\n{\"step\":42}\n\xff\xfe\n");
    cases.push((foreign, "line 3: not a report line".to_string()));
    for (bytes, message) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("steps.jsonl"), &bytes).unwrap();
        let run = bench(&sil_args(&out, "60", &["--resume"]));
        refused(
            &run,
            &format!("error: {} {message}", out.join("steps.jsonl").display()),
        );
        assert_eq!(steps(&out), bytes, "{message}");
        assert!(!out.join("summary.json").exists());
    }
}

#[test]
fn a_report_of_another_run_is_refused_and_nothing_is_touched() {
    let (_dir, out) = cut(3, b"");
    let before = steps(&out);
    let mut args = sil_args(&out, "60", &["--resume"]);
    let seed = args.iter().position(|a| a == "--board-seed").unwrap();
    args[seed + 1] = "8".to_string();
    refused(
        &bench(&args),
        &format!(
            "error: {}: written by another run (board_seed: 8 here, 7 in the report); use another --out",
            out.join("steps.jsonl").display()
        ),
    );
    assert_eq!(steps(&out), before);
}

/// PIL: QEMU killed with SIGKILL while the bench waits for a reply. The bench says so, keeps
/// the finished games, and `--resume` completes the report as the uninterrupted run made it.
#[test]
fn qemu_killed_mid_reply_keeps_the_finished_games_and_resume_completes() {
    if !bench::qemu_available() {
        eprintln!("skipped: {} not installed", bench::QEMU);
        return;
    }
    let elf = bench::firmware_elf().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let args = |out: &Path, extra: &[&str]| {
        let mut a = vec!["run", "--target", "pil", "--scenario", "tree3"];
        a.extend(["--board-seed", "7", "--elf", elf.to_str().unwrap()]);
        a.extend(["--out", out.to_str().unwrap()]);
        a.extend(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let whole = dir.path().join("whole");
    ok(&bench(&args(&whole, &[])));
    let out = dir.path().join("report");
    let mut child = Command::new(BENCH)
        .args(args(&out, &[]))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_games(&mut child, &out, 3);
    let qemu = children(child.id());
    assert_eq!(qemu.len(), 1, "one QEMU under the bench: {qemu:?}");
    let killed = Command::new("kill")
        .args(["-KILL", &qemu[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let run = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("killed by signal 9"), "{stderr}");
    assert!(stderr.contains("`--resume` plays the rest"), "{stderr}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("**INTERRUPTED**"), "{summary}");
    ok(&bench(&args(&out, &["--resume"])));
    same(&steps(&out), &steps(&whole));
}

/// The processes whose parent is `pid` (Linux: /proc's children lists, one per thread).
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let list = std::fs::read_to_string(task.unwrap().path().join("children")).unwrap();
        found.extend(list.split_whitespace().map(|p| p.parse::<u32>().unwrap()));
    }
    found
}
