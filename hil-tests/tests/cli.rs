//! The `hil-tests` command: what users read.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::Path;
use std::process::Command;

mod common;

fn bench(args: &[&str]) -> std::process::Output {
    bench_with_input(args, "")
}

fn bench_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
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

#[test]
fn a_run_writes_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let records = dir.path().join("games.txt");
    std::fs::write(&records, "A1,c5\n").unwrap();
    let run = bench(&[
        "run",
        "--stage",
        "sil",
        "--scenario",
        &format!("records:{}", records.display()),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(stdout.starts_with("# SIL bench: records "), "{stdout}");
    assert!(stdout.contains("| Tie | 1 |"), "{stdout}");
    for file in ["steps.jsonl", "summary.json", "summary.md"] {
        assert!(out.join(file).exists(), "{file}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["header"]["firmware"], firmware::VERSION);
    assert_eq!(summary["tally"]["steps"], 2);
    // A pass is said in words, last, naming its criterion and what it counted (issue 63).
    assert_eq!(
        stdout.lines().last(),
        Some("passed: none of 2 steps a board or firmware fault"),
        "{stdout}"
    );

    // `--target`, the option's name before `--stage`, still runs the same report: scripts use it.
    let again = dir.path().join("again");
    let old_name = bench(&[
        "run",
        "--target",
        "sil",
        "--scenario",
        &format!("records:{}", records.display()),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(
        old_name.status.success(),
        "{}",
        String::from_utf8_lossy(&old_name.stderr)
    );
    assert_eq!(
        std::fs::read(out.join("steps.jsonl")).unwrap(),
        std::fs::read(again.join("steps.jsonl")).unwrap()
    );
}

#[test]
fn a_guided_game_at_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("guided");
    let args = [
        "run",
        "--target",
        "sil",
        "--scenario",
        "guided",
        "--size",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    // Set up, A1 made, Short's b2 typed and made, C1, a3, E1: Cut wins.
    let run = bench_with_input(&args, "\n\nb2\n\n\na3\n\n\n");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(stdout.starts_with("Game 1 of 1 (M=3).\n"), "{stdout}");
    assert!(
        stdout.contains("The board says Cut has won.\n# SIL bench: guided3 (1 games, seed 1)"),
        "{stdout}"
    );
    assert!(stdout.contains("| Agree | 3 |"), "{stdout}");

    // Input ends after the first cut: one line on stderr, exit 2, the step kept.
    let cut_short = dir.path().join("cut-short");
    let mut args = args.to_vec();
    let last = args.len() - 1;
    args[last] = cut_short.to_str().unwrap();
    let run = bench_with_input(&args, "\n\n");
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(
        stderr,
        "error: end of input in game 1 after `A1`; the report keeps the finished games, --resume plays the rest\n"
    );
    let steps = std::fs::read_to_string(cut_short.join("steps.jsonl")).unwrap();
    assert_eq!(
        steps.lines().filter(|l| l.contains(",\"step\":{")).count(),
        1
    );
}

/// A bare `hil-tests` lists what it can do (issue 63: it printed one line), on stderr, exit 2.
#[test]
fn a_bare_command_lists_its_subcommands() {
    let out = bench(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    for command in ["run", "doctor"] {
        assert!(
            err.lines().any(|l| l.trim_start().starts_with(command)),
            "{command} not listed: {err}"
        );
    }
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let records = dir.path().join("empty.txt");
    std::fs::write(&records, "# no game yet\n\n").unwrap();
    let empty = format!("records:{}", records.display());
    for (args, message) in [
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--shard",
                "1/3",
                "--resume",
                "--out",
                out,
            ],
            "error: --resume goes on with a one-process campaign",
        ),
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--calibrate",
                "--out",
                out,
            ],
            "error: --calibrate does not apply to --scenario glitches",
        ),
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--trials",
                "0",
                "--out",
                out,
            ],
            "error: invalid value '0' for '--trials <TRIALS>'",
        ),
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--pace-ms",
                "-5",
                "--out",
                out,
            ],
            "error: invalid value '-5' for '--pace-ms <MS>'",
        ),
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--kinds",
                "fpu,flip",
                "--out",
                out,
            ],
            "error: invalid value 'fpu,flip' for '--kinds <KIND,...>': `fpu,flip` is not a list of glitch kinds",
        ),
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--seed",
                "x1",
                "--out",
                out,
            ],
            "error: invalid value 'x1' for '--seed",
        ),
        (
            vec![
                "run",
                "--stage",
                "hil",
                "--probe",
                "virtual",
                "--scenario",
                "glitches",
                "--fail-on",
                "hang",
                "--out",
                out,
            ],
            "error: --fail-on: `hang` is not a class of --scenario glitches (its classes: no-effect, detected, late, silent, stopped, slow, or none)",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "tree5",
                "--out",
                out,
            ],
            "error: invalid value 'tree5' for '--scenario <SCENARIO>': unknown scenario `tree5` (expected tree3, random4, guided, faults, glitches or records:FILE)",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "tree3",
                "--board",
                "uno",
                "--out",
                out,
            ],
            "error: unknown board `uno` (expected arduino-mega, nucleo-f446re or a profile file)",
        ),
        (
            vec![
                "run",
                "--target",
                "pil",
                "--scenario",
                "tree3",
                "--elf",
                "/nonexistent/firmware-qemu",
                "--out",
                out,
            ],
            "error: target lost: cannot read /nonexistent/firmware-qemu: ",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--compare-sil",
                "--scenario",
                "tree3",
                "--out",
                out,
            ],
            "error: --compare-sil compares an emulated board with SIL: use it with --stage pil, --probe qemu, --probe virtual or --probe dap: on a virtual board (virtual-board serve --dap)",
        ),
        (
            vec![
                "run",
                "--target",
                "qemu",
                "--scenario",
                "tree3",
                "--out",
                out,
            ],
            "error: invalid value 'qemu' for '--stage <STAGE>'",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "random4",
                "--games",
                "0",
                "--out",
                out,
            ],
            "error: invalid value '0' for '--games <GAMES>': must be a whole number, at least 1",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "guided",
                "--size",
                "-3",
                "--out",
                out,
            ],
            "error: invalid value '-3' for '--size <SIZE>': must be a whole number from 2 to 8",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "random4",
                "--seed",
                "-1",
                "--out",
                out,
            ],
            "error: invalid value '-1' for '--seed <SEED>': must be a whole number, 0 or more",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "tree3",
                "--size",
                "4",
                "--out",
                out,
            ],
            "error: --scenario tree3 is M=3; --size does not apply to it",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "tree3",
                "--games",
                "5",
                "--out",
                out,
            ],
            "error: --scenario tree3 plays every branch of the tree; --games does not apply to it",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--scenario",
                "random4",
                "--size",
                "3",
                "--out",
                out,
            ],
            "error: --scenario random4 is M=4; --size does not apply to it",
        ),
        (
            vec!["run", "--target", "sil", "--scenario", &empty, "--out", out],
            "error: records file ",
        ),
        (
            vec![
                "run",
                "--target",
                "sil",
                "--link",
                "rtt",
                "--scenario",
                "tree3",
                "--out",
                out,
            ],
            "error: --link chooses PIL's link to QEMU: use it with --stage pil",
        ),
        (
            vec![
                "run",
                "--target",
                "pil",
                "--poll-ms",
                "5",
                "--scenario",
                "tree3",
                "--out",
                out,
            ],
            "error: --poll-ms and --retry-ms pace PIL over RTT: use them with --link rtt",
        ),
        (
            vec![
                "run",
                "--target",
                "pil",
                "--link",
                "rtt",
                "--retry-ms=-1",
                "--scenario",
                "tree3",
                "--out",
                out,
            ],
            "error: --retry-ms must be a number of milliseconds from 0 to a day, not -1.0",
        ),
    ] {
        let run = bench(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
        // The operating system's reason, when there is one, is said once.
        assert!(stderr.matches("(os error").count() <= 1, "{stderr}");
    }
}

/// An x86-64 ELF (a host program's header) given to doctor is bad input: one line, exit 2,
/// before any target starts. Before issue 52 the firmware step ran it and the target was
/// "lost".
#[test]
fn doctor_refuses_an_elf_for_another_machine() {
    let dir = tempfile::tempdir().unwrap();
    let host = dir.path().join("host-program");
    let mut header = vec![0u8; 64];
    header[..7].copy_from_slice(b"\x7fELF\x02\x01\x01");
    header[16] = 2;
    header[18] = 62; // EM_X86_64
    std::fs::write(&host, header).unwrap();
    for probe in ["qemu", "virtual"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
            .args(["doctor", "--probe", probe, "--elf"])
            .arg(&host)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!("error: {}: not an ARM ELF (x86-64)", host.display())
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("lost"));
    }
}

#[test]
fn a_report_folder_that_cannot_be_made_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = file.join("report");
    let run = bench(&[
        "run",
        "--target",
        "sil",
        "--scenario",
        "tree3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The part of the path in the way is named (the walk to `--out` stops at it), once, not
    // once per error in the chain.
    assert_eq!(
        stderr,
        format!(
            "error: {} is not a folder (the report is a folder of files): name a folder for --out\n",
            file.display()
        )
    );
}

#[test]
fn ctrl_c_stops_between_games_keeps_the_report_and_resume_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let args = |extra: &[&str]| {
        let mut a = vec!["run", "--target", "sil", "--scenario", "random4"];
        a.extend(["--games", "200", "--out", out.to_str().unwrap()]);
        a.extend(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_hil-tests"));
    command.args(args(&[]));
    let run = common::interrupted(command, &out);
    let stdout = String::from_utf8(run.stdout).unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(2), "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: stopped after game "), "{stderr}");
    assert!(
        stderr.contains(" (Ctrl-C, SIGTERM or SIGHUP); the games finished are in "),
        "{stderr}"
    );
    assert!(stderr.contains("`--resume` plays the rest"), "{stderr}");
    assert!(
        stdout.contains("**INTERRUPTED**: stopped after game "),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert_eq!(summary, stdout);

    let resumed = bench(
        &args(&["--resume"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let stdout = String::from_utf8(resumed.stdout).unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(
        stdout.contains("200 of 200 planned games played"),
        "{stdout}"
    );
    assert!(!stdout.contains("INTERRUPTED"), "{stdout}");
}

/// SIGTERM (what `kill`, systemd and CI runners send) and SIGHUP (a closed terminal) end a
/// run as Ctrl-C does: summaries written, marked INTERRUPTED, `--resume` finishes it.
#[test]
fn sigterm_and_sighup_end_a_run_as_ctrl_c_does() {
    for signal in ["TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report");
        let mut command = Command::new(env!("CARGO_BIN_EXE_hil-tests"));
        command.args(["run", "--target", "sil", "--scenario", "random4"]);
        command.args(["--games", "200", "--out", out.to_str().unwrap()]);
        let run = common::signalled(command, &out, signal);
        let stdout = String::from_utf8(run.stdout).unwrap();
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert_eq!(run.status.code(), Some(2), "SIG{signal}: {stdout}{stderr}");
        assert!(stderr.starts_with("error: stopped after game "), "{stderr}");
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(
            summary.contains("**INTERRUPTED**"),
            "SIG{signal}: {summary}"
        );
    }
}

#[test]
fn a_firmware_named_by_the_environment_is_not_said_to_be_built() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args([
            "run",
            "--target",
            "pil",
            "--scenario",
            "tree3",
            "--out",
            out,
        ])
        .env("BIRDCAGE_PIL_ELF", "/nonexistent/firmware-qemu")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    // One line naming the file, no "building the QEMU firmware" before it.
    assert_eq!(
        stderr,
        "error: BIRDCAGE_PIL_ELF names /nonexistent/firmware-qemu, which is not a file\n"
    );
}

#[test]
fn a_timeout_outside_a_day_is_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    // 1e300 and 1e19 seconds used to panic converting the duration.
    for (given, shown) in [
        ("0", "0.0"),
        ("1e300", "1e300"),
        ("1e19", "1e19"),
        ("NaN", "NaN"),
    ] {
        let args = [
            "run",
            "--target",
            "pil",
            "--scenario",
            "tree3",
            "--timeout",
            given,
            "--out",
            out,
        ];
        let run = bench(&args);
        assert_eq!(run.status.code(), Some(2), "{given}");
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert_eq!(
            stderr,
            format!(
                "error: --timeout must be a positive number of seconds up to 86400 (a day), not {shown}\n"
            )
        );
    }
}

/// A FIFO where a report's `steps.jsonl` or a records file should be, or a link to
/// `/dev/zero`, is refused before it is opened: `open()` on a FIFO with no writer blocks
/// forever, and `/dev/zero` never ends. Each run is a child killed after 60 s, so a
/// regression fails instead of hanging the suite.
#[test]
fn special_files_are_refused_not_read() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| -> std::process::Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{args:?} did not end in 60 s: it is reading a special file");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    let report = dir.path().join("report");
    std::fs::create_dir(&report).unwrap();
    let fifo = report.join("steps.jsonl");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = report.to_str().unwrap();
    for args in [
        &[
            "run",
            "--target",
            "sil",
            "--scenario",
            "tree3",
            "--out",
            out,
            "--resume",
        ][..],
        &["calibrate", "--out", out][..],
    ] {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let zero = dir.path().join("records.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let scenario = format!("records:{}", zero.display());
    let fresh = dir.path().join("fresh");
    let output = run(&[
        "run",
        "--target",
        "sil",
        "--scenario",
        &scenario,
        "--out",
        fresh.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

/// A FIFO named as one of the report's summaries in `--out` is refused, not opened (opening
/// it to write blocks until a reader comes), and a study's folder is not written into.
#[test]
fn fifos_named_as_report_files_and_a_studys_folder_are_refused() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &Path| -> std::process::Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
            .args(["run", "--target", "sil", "--scenario", "tree3", "--out"])
            .arg(out)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{} did not end in 60 s: it opened a FIFO", out.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    for name in ["summary.md", "summary.json", "plot.svg"] {
        let out = dir.path().join(format!("fifo-{name}"));
        std::fs::create_dir(&out).unwrap();
        let fifo = out.join(name);
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let output = run(&out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{name} is not a regular file")),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // A study's report: its summary.md and JSON, no steps.jsonl.
    let study = dir.path().join("study");
    std::fs::create_dir(&study).unwrap();
    std::fs::write(study.join("summary.md"), "# A study\n").unwrap();
    std::fs::write(study.join("heuristic.json"), "{}\n").unwrap();
    let output = run(&study);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("holds another report"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(study.join("summary.md")).unwrap(),
        "# A study\n"
    );
    assert!(!study.join("steps.jsonl").exists());
}

/// HIL in QEMU ended by SIGTERM: the bench survives it (as it does Ctrl-C and its own
/// errors, which drop the machine the same way), so QEMU's gdb socket file goes with it.
#[test]
fn the_gdb_socket_is_removed_on_every_exit_the_bench_survives() {
    let Some(elf) = common::qemu_elf() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let mut command = Command::new(env!("CARGO_BIN_EXE_hil-tests"));
    command
        .env("TMPDIR", tmp.path())
        .args([
            "run",
            "--target",
            "hil",
            "--probe",
            "qemu",
            "--scenario",
            "random4",
        ])
        .args(["--games", "200", "--out", out.to_str().unwrap()])
        .arg("--elf")
        .arg(&elf);
    let run = common::signalled(command, &out, "TERM");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: stopped after game "), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

/// Issue 28 item 4: a size out of range, negative too, says the range in words; a long
/// argument is repeated once and cut.
#[test]
fn bad_numbers_and_long_input_get_one_short_line() {
    for value in ["-3", "9", "four"] {
        let out = bench(&["doctor", "--size", value]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "error: invalid value '{value}' for '--size <SIZE>': must be a whole number from 2 to 8\n"
            )
        );
    }
    let long = "x".repeat(100_000);
    for args in [
        vec!["doctor", "--size", long.as_str()],
        vec!["doctor", "--board", long.as_str()],
        vec!["doctor", &format!("--{long}")],
    ] {
        let out = bench(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err:.300}");
        assert!(err.len() < 300, "{} bytes: {err:.300}", err.len());
    }
}

/// Issue 65 item 5: doctor's `--probe` is parsed by clap as `run`'s is (one parser): a probe
/// that names nothing is a usage error, one line, exit 2, before any step runs.
#[test]
fn doctor_parses_its_probe_as_run_does() {
    for (probe, says) in [
        ("", "--probe is empty"),
        ("gdb:", "gdb:"),
        ("dap:tcp:host", "dap:tcp:host"),
    ] {
        let doctor = bench(&["doctor", "--probe", probe]);
        let run = bench(&["run", "--stage", "hil", "--probe", probe]);
        for out in [&doctor, &run] {
            assert_eq!(out.status.code(), Some(2), "--probe {probe:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with(&format!(
                    "error: invalid value '{probe}' for '--probe <PROBE>'"
                )) && err.contains(says),
                "{err}"
            );
        }
        assert_eq!(doctor.stderr, run.stderr, "--probe {probe:?}");
        assert!(doctor.stdout.is_empty(), "no step ran");
    }
}

/// `hil-tests run ... | head`: a reader that goes away is no panic, and the report is whole.
#[test]
fn a_closed_stdout_is_not_a_panic_and_the_report_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args(["run", "--target", "sil", "--scenario", "tree3"])
        .args(["--out", out.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader is gone before the bench writes a byte
    let run = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("games played"), "{summary}");
}

/// The exit codes a CI job gates on are one table: `--help` (top level, `run`, `doctor`)
/// prints it, and README's "Exit status" block is the same text.
#[test]
fn the_exit_table_in_help_is_the_readme_s() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block = readme
        .split("## Exit status")
        .nth(1)
        .and_then(|s| s.split("```text\n").nth(1))
        .and_then(|s| s.split("\n```").next())
        .expect("README has an Exit status section with a text block");
    assert!(block.starts_with("Exit status:\n  0  passed"), "{block}");
    for args in [&["--help"][..], &["run", "--help"], &["doctor", "--help"]] {
        let out = bench(args);
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        let table = &help[help.find("Exit status:").unwrap_or(help.len())..];
        assert_eq!(table.trim_end(), block, "hil-tests {args:?}");
    }
}

/// A campaign's `--fail-on` names its classes; a word that is none of them, or a campaign
/// criterion given to a run of games, is refused in one line, exit 2.
#[test]
fn fail_on_is_checked_against_the_scenario_s_classes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f");
    let run = bench(&[
        "run",
        "--stage",
        "sil",
        "--scenario",
        "faults",
        "--size",
        "3",
        "--fail-on",
        "silnt",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`silnt` is not a class of --scenario faults"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let run = bench(&[
        "run",
        "--stage",
        "sil",
        "--scenario",
        "random4",
        "--games",
        "1",
        "--fail-on",
        "silent",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--fail-on is the criterion of a campaign"),
        "{stderr}"
    );
}

/// Issue 62: a TMPDIR the machines' sockets cannot go in is one line naming TMPDIR and what
/// is wrong, before the firmware is built or QEMU started (it was `cannot start
/// qemu-system-arm: …`, and a long TMPDIR failed inside the virtual bench).
#[test]
fn a_wrong_tmpdir_is_one_line_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let long = format!("/tmp/{}", "d".repeat(70));
    for (tmpdir, said) in [
        (
            "/nonexistent".to_string(),
            "error: TMPDIR (/nonexistent) does not exist: set TMPDIR to a folder, or unset it \
             for /tmp\n"
                .to_string(),
        ),
        (
            long.clone(),
            format!(
                "error: TMPDIR ({long}) is 75 bytes long: a socket in it would be 128 bytes, past \
                 the 107 a unix socket's path holds; set TMPDIR to a shorter folder\n"
            ),
        ),
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
            .args([
                "run",
                "--stage",
                "hil",
                "--probe",
                "qemu",
                "--scenario",
                "tree3",
            ])
            .arg("--out")
            .arg(&out)
            .env("TMPDIR", &tmpdir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{tmpdir}");
        assert_eq!(String::from_utf8(run.stderr).unwrap(), said);
    }
}
