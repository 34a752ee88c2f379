//! A report survives its world: the bench or QEMU killed with SIGKILL, a steps file torn,
//! garbled, repeated or from another run. Each time the earlier steps are kept and the resumed
//! report equals the uninterrupted one, or the bench refuses with one line and touches nothing.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

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
        .map(|b| String::from_utf8_lossy(&b).matches("\"game_end\"").count())
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
        .match_indices("\"game_end\"")
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
    let kept = text.rfind("\"game_end\"").unwrap();
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

/// What a report guarantees (bench/src/report/chain.rs): every line carries its sequence
/// number and a running checksum, so no line can be deleted, repeated, moved or edited, by
/// hand or by a damaged disk, without `--resume` (and `calibrate`) refusing the file at that
/// line, touching nothing.
#[test]
fn a_damaged_edited_deleted_or_repeated_line_is_refused_and_nothing_is_touched() {
    let (_, whole) = reference();
    let text = String::from_utf8_lossy(whole);
    let lines: Vec<&str> = text.lines().collect();
    let end_of_game = |g: usize| {
        lines
            .iter()
            .position(|l| l.contains(&format!("\"game_end\":[{g},")))
            .unwrap()
    };
    // `join(k)`: the first k lines, each with its newline.
    let join = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let step = |n: usize| lines.iter().position(|l| l.contains("\"step\"")).unwrap() + n;
    let edited = |at: usize, from: &str, to: &str| {
        let mut ls: Vec<String> = lines[..at + 3].iter().map(|l| l.to_string()).collect();
        assert!(ls[at].contains(from), "{from} in {}", ls[at]);
        ls[at] = ls[at].replacen(from, to, 1);
        ls.iter().map(|l| format!("{l}\n")).collect::<String>()
    };
    let sequence = |at: usize, found: usize| {
        format!(
            "line {}: sequence number {found} where {at} comes next (a line was deleted, repeated or moved)",
            at + 1
        )
    };
    let sum = |at: usize| {
        format!(
            "line {}: its checksum does not match its text (the line was edited or the file damaged)",
            at + 1
        )
    };
    let e1 = end_of_game(1);
    let s = step(2);
    let code = lines[s]
        .split("\"codes\":[")
        .nth(1)
        .and_then(|rest| rest.split([',', ']']).next())
        .expect("a step line holds its codes")
        .to_string();
    let chosen = lines[s]
        .split("\"chosen\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a step line holds the edge chosen")
        .to_string();
    let cases: Vec<(String, String)> = vec![
        // A garbage line in the middle, then finished games.
        (
            format!("{}#!garbage\n{}", join(&lines[..3]), join(&lines[3..20])),
            "line 4: no sequence number and checksum (not a line this bench writes)".to_string(),
        ),
        // A step deleted.
        (
            format!("{}{}", join(&lines[..s]), join(&lines[s + 1..s + 4])),
            sequence(s, s + 1),
        ),
        // A step repeated.
        (
            format!("{}{}\n", join(&lines[..=s]), lines[s]),
            sequence(s + 1, s),
        ),
        // A game's end repeated.
        (
            format!("{}{}\n", join(&lines[..=e1]), lines[e1]),
            sequence(e1 + 1, e1),
        ),
        // A code changed, by one.
        (
            edited(
                s,
                &format!("\"codes\":[{code}"),
                &format!("\"codes\":[{}", code.parse::<u32>().unwrap() + 1),
            ),
            sum(s),
        ),
        // The firmware's choice made up.
        (
            edited(s, &format!("\"chosen\":\"{chosen}\""), "\"chosen\":\"Z9\""),
            sum(s),
        ),
        // The header edited (the board's seed).
        (edited(0, "\"board_seed\":7", "\"board_seed\":8"), sum(0)),
        // Line endings converted by an editor.
        (
            join(&lines[..6]).replace('\n', "\r\n"),
            "line 1: it ends in CR LF".to_string(),
        ),
    ];
    for (text, message) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("steps.jsonl"), &text).unwrap();
        let run = bench(&sil_args(&out, "60", &["--resume"]));
        refused(
            &run,
            &format!("error: {} {message}", out.join("steps.jsonl").display()),
        );
        assert_eq!(steps(&out), text.as_bytes(), "{message}");
        assert!(!out.join("summary.json").exists());
        // calibrate reads the same file the same way.
        let calibrate = Command::new(BENCH)
            .args(["calibrate", "--out", out.to_str().unwrap()])
            .output()
            .unwrap();
        refused(
            &calibrate,
            &format!("error: {} {message}", out.join("steps.jsonl").display()),
        );
    }
}

/// A rerun into a damaged report says how many games are intact and that `--resume` will
/// refuse it (not "0 games finished: --resume plays the rest").
#[test]
fn a_rerun_into_a_damaged_report_says_what_is_intact_and_what_resume_will_do() {
    let (_, whole) = reference();
    let text = String::from_utf8_lossy(whole);
    let lines: Vec<&str> = text.lines().collect();
    let e3 = lines
        .iter()
        .position(|l| l.contains("\"game_end\":[3,"))
        .unwrap();
    let mut damaged: String = lines[..=e3].iter().map(|l| format!("{l}\n")).collect();
    damaged.push_str("#!garbage\n");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("steps.jsonl"), &damaged).unwrap();
    refused(
        &bench(&sil_args(&out, "60", &[])),
        &format!(
            "error: {} already holds a report with 4 games intact before a damaged line ({} line {}: \
             no sequence number and checksum (not a line this bench writes)): --resume refuses it; \
             --force starts over, or move the file away to keep it",
            out.join("steps.jsonl").display(),
            out.join("steps.jsonl").display(),
            e3 + 2
        ),
    );
    assert_eq!(steps(&out), damaged.as_bytes());
}

/// A file with no line at all (empty, or a header cut short by a kill while it was written)
/// holds no game: every mode starts afresh on it, the same for both.
#[test]
fn an_empty_report_and_a_header_cut_short_both_start_afresh() {
    let (_, whole) = reference();
    let header_line = String::from_utf8_lossy(whole)
        .lines()
        .next()
        .unwrap()
        .to_string();
    for (name, bytes) in [
        ("empty", Vec::new()),
        (
            "header without its newline",
            header_line.clone().into_bytes(),
        ),
        (
            "half a header",
            header_line.as_bytes()[..header_line.len() / 2].to_vec(),
        ),
    ] {
        for extra in [&[][..], &["--resume"][..]] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("report");
            std::fs::create_dir(&out).unwrap();
            std::fs::write(out.join("steps.jsonl"), &bytes).unwrap();
            let stdout = ok(&bench(&sil_args(&out, "2", extra)));
            assert!(
                stdout.contains("2 of 2 planned games played"),
                "{name} {extra:?}: {stdout}"
            );
        }
    }
    // Anything else with no newline is not a report this bench began: refused.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("steps.jsonl"), b"my notes").unwrap();
    let run = bench(&sil_args(&out, "2", &[]));
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(steps(&out), b"my notes");
}

/// Editing the profile file between a kill and `--resume` (same name and path, other
/// values) is refused, naming what changed; so is another ELF under the ELF's name and
/// another records file under its name. A comment added to the profile changes no value and
/// resumes.
#[test]
fn a_resume_refuses_another_board_records_file_or_firmware_under_the_same_name() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("board.toml");
    let records = dir.path().join("games.txt");
    std::fs::write(&profile, "base = \"nucleo-f446re\"\nseries_ohms = 1000\n").unwrap();
    std::fs::write(&records, "A7,c5\nA7,c7\n").unwrap();
    let out = dir.path().join("report");
    let args = |extra: &[&str]| {
        let scenario = format!("records:{}", records.display());
        let mut a = vec![
            "run".to_string(),
            "--target".into(),
            "sil".into(),
            "--scenario".into(),
            scenario,
            "--board".into(),
            profile.display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    ok(&bench(&args(&[])));
    let before = steps(&out);
    let steps_file = out.join("steps.jsonl").display().to_string();
    // A comment: the board is the same.
    std::fs::write(
        &profile,
        "# a note\nbase = \"nucleo-f446re\"\nseries_ohms = 1000\n",
    )
    .unwrap();
    ok(&bench(&args(&["--resume"])));
    // A value: another board.
    std::fs::write(&profile, "base = \"nucleo-f446re\"\nseries_ohms = 470\n").unwrap();
    refused(
        &bench(&args(&["--resume"])),
        &format!(
            "error: {steps_file}: written by another run (the board profile's values changed (sha256 "
        ),
    );
    assert_eq!(steps(&out), before);
    std::fs::write(&profile, "base = \"nucleo-f446re\"\nseries_ohms = 1000\n").unwrap();
    // Another records file under the same name.
    std::fs::write(&records, "A7,c5\nA7,e5\n").unwrap();
    refused(
        &bench(&args(&["--resume"])),
        &format!("error: {steps_file}: written by another run (the records file changed (sha256 "),
    );
    assert_eq!(steps(&out), before);
}

/// A `--resume` into a folder whose report it cannot write is refused before a game is
/// played: a `summary.md` that is a directory (no one can write it, root included), and a
/// read-only folder (as root, who can write it anyway, the bench runs as `nobody` through
/// util-linux's setpriv, so the case runs on every machine: no skip).
#[test]
fn a_resume_into_a_folder_it_cannot_write_is_refused_before_playing() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, out) = cut(3, b"");
    let before = steps(&out);
    std::fs::create_dir(out.join("summary.md")).unwrap();
    let start = Instant::now();
    refused(
        &bench(&sil_args(&out, "60", &["--resume"])),
        &format!(
            "error: {} is not a regular file",
            out.join("summary.md").display()
        ),
    );
    assert_eq!(steps(&out), before);
    assert!(start.elapsed() < Duration::from_secs(5), "it played first");
    std::fs::remove_dir(out.join("summary.md")).unwrap();

    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o555)).unwrap();
    let root = std::fs::File::create(out.join("probe")).is_ok();
    let run = if root {
        std::fs::remove_file(out.join("probe")).unwrap();
        // nobody must reach the folder and read the report: the temp folder is root's 0700.
        let parent = out.parent().unwrap();
        std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(
            out.join("steps.jsonl"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--",
                BENCH,
            ])
            .args(sil_args(&out, "60", &["--resume"]))
            .stdin(Stdio::null())
            .output()
            .expect("setpriv (util-linux) runs the bench as nobody")
    } else {
        bench(&sil_args(&out, "60", &["--resume"]))
    };
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The folder's lock is the first file a run makes there: its refusal names the folder.
    // (Before issue 49 this case skipped as root, CI's user, and its expected words had
    // never been checked: they were `error: DIR: Permission denied`.)
    refused(
        &run,
        &format!(
            "error: writing {}: Permission denied",
            out.join(".shards.lock").display()
        ),
    );
    assert_eq!(steps(&out), before);
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
        needs::skip("qemu", format!("{} not installed", bench::QEMU));
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

/// QEMU frozen by the host (SIGSTOP) for longer than `--timeout`: the bench stops at its
/// timeout, but says the host held the run up, not that the firmware hangs; the finished games
/// are kept and the run resumes once QEMU is gone.
#[test]
fn a_stalled_host_is_not_called_a_hanging_firmware() {
    if !bench::qemu_available() {
        needs::skip("qemu", format!("{} not installed", bench::QEMU));
        return;
    }
    let elf = bench::firmware_elf().unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let mut child = Command::new(BENCH)
        .args([
            "run",
            "--target",
            "pil",
            "--scenario",
            "tree3",
            "--timeout",
            "1",
        ])
        .arg("--elf")
        .arg(&elf)
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_games(&mut child, &out, 2);
    let qemu = children(child.id());
    assert_eq!(qemu.len(), 1, "one QEMU under the bench: {qemu:?}");
    let signal = |sig: &str| {
        Command::new("kill")
            .args([sig, &qemu[0].to_string()])
            .status()
            .unwrap()
    };
    assert!(signal("-STOP").success());
    let run = child.wait_with_output().unwrap();
    let _ = signal("-CONT");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "within 1s, and the firmware is not to blame: QEMU's process is stopped (SIGSTOP, \
             job control or a debugger holds it)"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("the firmware hangs"), "{stderr}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("**INTERRUPTED**"), "{summary}");
}
