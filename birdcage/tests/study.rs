//! The `birdcage study` CLI: a quantisation study's worst case replayed through `birdcage
//! analyze`, determinism, bad input, records files, interrupts. The studies themselves are
//! tested in `emulator/tests/study.rs`.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use emulator::physical::Board;
use heuristic::Size;
use studies::Control;
use studies::positions::PositionSet;
use studies::quantisation::{self, Converter, Verdict};
use studies::report::Output;
use support::{assert_bad_input, birdcage, json, nauty, scratch_file};

fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

fn quiet() -> Control<'static> {
    Control::unattended()
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn nucleo() -> Converter {
    Converter::Board {
        spec: "nucleo-f446re".into(),
        board: Box::new(Board::from_profile(&boards::NUCLEO_F446RE)),
        seed: 1,
    }
}

fn quantise(set: &PositionSet, converters: &[Converter], name: &str) -> quantisation::Report {
    let out = Output::new(&scratch_dir(name)).unwrap();
    let mut csv = out.csv("positions.csv").unwrap();
    let bits: Vec<u8> = studies::BITS.collect();
    quantisation::run(set, (converters, 1), &bits, 3, &quiet(), &mut csv).unwrap()
}

/// A board's divergences are classified; the worst one replays through `birdcage analyze`
/// with the printed options and diverges there too, with the same move.
#[test]
fn worst_quantisation_case_replays_in_analyze() {
    let set = PositionSet::tree(size(3));
    let report = quantise(&set, &[Converter::Ideal, nucleo()], "q3b");
    let board_rows: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.converter == "nucleo-f446re#1")
        .collect();
    assert_eq!(board_rows.len(), 11);
    let worst = board_rows
        .iter()
        .flat_map(|r| r.worst.first())
        .max_by(|a, b| a.lost_lsb.total_cmp(&b.lost_lsb))
        .expect("the Nucleo diverges somewhere on the M=3 tree");
    assert!(worst.verdict.diverges());
    assert!(
        worst.replay.starts_with(&format!(
            "birdcage analyze --size 3 --moves '{}' --board nucleo-f446re",
            worst.record
        )),
        "{}",
        worst.replay
    );
    let bits = board_rows
        .iter()
        .find(|r| r.worst.first() == Some(worst))
        .unwrap()
        .bits;
    let bits = bits.to_string();
    let analysis = json(&[
        "analyze",
        "--size",
        "3",
        "--moves",
        &worst.record,
        "--board",
        "nucleo-f446re",
        "--tolerance-seed",
        "1",
        "--adc-bits",
        &bits,
    ]);
    assert_eq!(analysis["diverges"], true, "{}", worst.replay);
    assert_eq!(analysis["firmware_choice"], worst.code_choice.as_str());
    assert_eq!(analysis["choice"], worst.exact_choice.as_str());
    // Every divergence on the board has a cause.
    for r in &board_rows {
        assert_eq!(
            r.divergence.count,
            r.quantisation + r.pullups + r.tolerance + r.adc
        );
        assert!(
            r.worst
                .iter()
                .all(|w| w.verdict != Verdict::Agree && w.verdict != Verdict::Tie)
        );
    }
}

fn files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "csv"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Every file a study wrote is in `studies::report::STUDY_FILES`, the list `--force` removes
/// (so a file a study adds and the list lacks fails here, not in a user's folder).
fn only_study_files(dir: &std::path::Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            name.starts_with('.') || studies::report::is_report_file(&name),
            "{name} is not in studies::report::STUDY_FILES"
        );
    }
}

/// The same seed writes byte-identical data files; the summary names what was run.
#[test]
fn cli_runs_are_deterministic() {
    for (study, extra) in [
        ("quantisation", vec![]),
        ("tolerance", vec!["--boards", "3"]),
        ("pullups", vec!["--boards", "2"]),
    ] {
        let dirs = [
            scratch_dir(&format!("{study}-a")),
            scratch_dir(&format!("{study}-b")),
        ];
        for dir in &dirs {
            let mut args = vec![
                "study",
                study,
                "--size",
                "3",
                "--seed",
                "4",
                "--out",
                dir.to_str().unwrap(),
            ];
            args.extend(&extra);
            let out = birdcage(&args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(String::from_utf8(out.stdout).unwrap().starts_with('#'));
        }
        let (a, b) = (files(&dirs[0]), files(&dirs[1]));
        assert!(a.len() >= 2, "{study}: {a:?}");
        only_study_files(&dirs[0]);
        assert_eq!(a, b, "{study}");
        let summary = std::fs::read_to_string(dirs[0].join("summary.md")).unwrap();
        assert!(summary.contains(&format!("birdcage study {study} --size 3 --seed 4")));
        // Every plot says what it was drawn from: size, board and seed in its caption, and no
        // integer tick printed as 6.0.
        let svgs: Vec<_> = std::fs::read_dir(&dirs[0])
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "svg"))
            .collect();
        assert!(!svgs.is_empty(), "{study}");
        if study == "quantisation" {
            for file in [
                "quantisation-margins.csv",
                "divergence-vs-bits.svg",
                "lost-vs-bits.svg",
                "margins.svg",
            ] {
                assert!(dirs[0].join(file).exists(), "{file}");
            }
        }
        let board = if study == "quantisation" {
            "board ideal, arduino-mega#4, nucleo-f446re#4"
        } else {
            "board nucleo-f446re"
        };
        for svg in &svgs {
            let text = std::fs::read_to_string(svg).unwrap();
            assert!(
                text.contains(&format!("M=3 · {board} · seed 4")),
                "{}",
                svg.display()
            );
            let integer_with_point = text.lines().any(|l| {
                let l = l.trim();
                l.strip_suffix(".0")
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            });
            assert!(!integer_with_point, "{}", svg.display());
        }
    }
}

/// Bad input: one line, exit 2, and a report already in the folder stays.
#[test]
fn cli_bad_input() {
    let dir = scratch_dir("bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("summary.md"), "earlier report\n").unwrap();
    let out = dir.to_str().unwrap();
    assert_bad_input(
        &["study", "speed", "--out", out],
        "unrecognized subcommand 'speed'",
    );
    assert_bad_input(
        &["study", "tolerance", "--board", "uno", "--out", out],
        "unknown board `uno`",
    );
    assert_bad_input(
        &["study", "tolerance", "--boards", "0", "--out", out],
        "error: invalid value '0' for '--boards <N>': must be a whole number, at least 1",
    );
    assert_bad_input(
        &[
            "study",
            "quantisation",
            "--records",
            "/nonexistent/games.txt",
            "--out",
            out,
        ],
        "cannot read records file /nonexistent/games.txt",
    );
    let records = scratch_file("bad-games.txt", "A5,c5\nA5,c5,C3,c3\n");
    let message = format!("{} line 2: move 4: c3 was already cut", records.display());
    assert_bad_input(
        &[
            "study",
            "quantisation",
            "--records",
            records.to_str().unwrap(),
            "--out",
            out,
        ],
        &message,
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("summary.md")).unwrap(),
        "earlier report\n"
    );
}

/// A records file is a position set of its own.
#[test]
fn cli_records_file() {
    let records = scratch_file("games.txt", "A5,c5,C3,a1\nA5,e5,E3\n");
    let dir = scratch_dir("records");
    let out = birdcage(&[
        "study",
        "quantisation",
        "--records",
        records.to_str().unwrap(),
        "--board",
        "ideal",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("quantisation.json")).unwrap())
            .unwrap();
    assert_eq!(report["position_count"], 7, "start, A5, c5, C3, a1, e5, E3");
    assert_eq!(
        report["decisions"], 4,
        "start, after c5, after a1 (not over), after e5"
    );
}

/// Ctrl-C (SIGINT) stops a long run: exit 2 with one line, and the finished part is on disk
/// with a summary that says it was interrupted.
#[test]
fn cli_interrupt_keeps_the_finished_part() {
    let dir = scratch_dir("interrupt");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args([
            "study",
            "tolerance",
            "--size",
            "3",
            "--boards",
            "1000000",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the run is under way: it takes the folder's lock before its first board.
    // The files are written at the end (the positions file too: waiting for it waited the
    // whole minute).
    let started = std::time::Instant::now();
    while !dir.join(shards::FOLDER_LOCK).exists() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the run never took its folder's lock"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("INTERRUPTED"), "{summary}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tolerance.json")).unwrap())
            .unwrap();
    assert_eq!(report["interrupted"], true);
    let boards = report["cells"][0]["boards"].as_u64().unwrap();
    assert!(boards > 0 && boards < 1_000_000, "{boards}");
}

/// `study heuristic`: the same seed writes the same files; the summary names the command;
/// a vertex count out of range is bad input.
#[test]
fn cli_heuristic_study() {
    if !nauty() {
        return;
    }
    let dirs = [scratch_dir("heuristic-a"), scratch_dir("heuristic-b")];
    for dir in &dirs {
        let out = birdcage(&[
            "study",
            "heuristic",
            "--max-vertices",
            "4",
            "--samples",
            "2",
            "--seed",
            "4",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8(out.stdout).unwrap().starts_with('#'));
    }
    let (a, b) = (files(&dirs[0]), files(&dirs[1]));
    assert_eq!(a.len(), 2, "{a:?}");
    only_study_files(&dirs[0]);
    assert_eq!(a, b);
    let summary = std::fs::read_to_string(dirs[0].join("summary.md")).unwrap();
    assert!(summary.contains("birdcage study heuristic --seed 4 --max-vertices 4 --samples 2"));
    // Every game of 4 vertices: 16 of them, each with each side first.
    assert!(summary.contains("| games | 4 | cut | 16 |"), "{summary}");
    assert!(dirs[0].join("heuristic.svg").exists());
    let out = dirs[0].to_str().unwrap();
    assert_bad_input(
        &["study", "heuristic", "--max-vertices", "1", "--out", out],
        "error: invalid value '1' for '--max-vertices <N>': must be a whole number from 2 to 9",
    );
}

/// Issue 17: a records file with no game is refused, naming it, before the folder is made.
#[test]
fn cli_a_records_file_with_no_game_is_refused() {
    let dir = scratch_dir("no-game");
    for (name, text) in [("empty.txt", ""), ("comments.txt", "# games to come\n\n")] {
        let records = scratch_file(name, text);
        let args = [
            "study",
            "quantisation",
            "--records",
            records.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ];
        let message = format!(
            "error: {} holds no game (one record per line, e.g. `A5,c5,C3`; blank lines and \
             `#` comments are skipped)",
            records.display()
        );
        assert_bad_input(&args, &message);
        assert!(!dir.exists(), "{name}: the folder was made");
    }
}

/// Issue 17: a file of the study that cannot be written is named (it was a bare
/// "Is a directory", said twice).
#[test]
fn cli_a_study_file_that_cannot_be_written_is_named() {
    let dir = scratch_dir("unwritable");
    let blocked = dir.join("quantisation-positions.csv");
    std::fs::create_dir_all(&blocked).unwrap();
    let out = birdcage(&[
        "study",
        "quantisation",
        "--board",
        "ideal",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "error: cannot create {}: it is a folder, not a regular file: refused (remove it)\n",
            blocked.display()
        )
    );
    let file = scratch_file("not-a-folder", "");
    let under = file.join("study");
    let out = birdcage(&["study", "pullups", "--out", under.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "error: cannot create folder {}: {} is a regular file, not a folder\n",
            under.display(),
            file.display()
        )
    );
}

/// Issue 17: SIGKILL half-way keeps every row finished so far, each whole: rows are written
/// straight to the file, one `write` each.
#[test]
fn cli_sigkill_keeps_every_finished_row_whole() {
    let dir = scratch_dir("sigkill");
    killed_keeps_whole_rows(
        &["study", "quantisation", "--size", "4"],
        &dir,
        &dir.join("quantisation-positions.csv"),
    );
}

/// The heuristic study wrote its rows only at its end: a kill kept the header alone. Each
/// family's rows now reach the file as the family finishes.
#[test]
fn cli_sigkill_keeps_the_heuristic_studys_finished_families() {
    // Its families are nauty's graphs.
    if !nauty() {
        return;
    }
    let dir = scratch_dir("sigkill-heuristic");
    killed_keeps_whole_rows(&["study", "heuristic"], &dir, &dir.join("heuristic.csv"));
}

/// Runs `birdcage ARGS --out DIR`, kills it with SIGKILL once `csv` holds two rows beyond its
/// header, and checks every line left is a whole row (only a last line cut inside its write
/// may be short).
fn killed_keeps_whole_rows(args: &[&str], dir: &std::path::Path, csv: &std::path::Path) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(args)
        .arg("--out")
        .arg(dir)
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Poll until a few rows beyond the header are in the file, the study still running.
    let started = std::time::Instant::now();
    let lines = || std::fs::read_to_string(csv).map_or(0, |t| t.lines().count());
    while lines() < 3 && started.elapsed().as_secs() < 600 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the study ended before its rows reached the file"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    assert!(lines.len() >= 3, "{} lines", lines.len());
    // Only the last line may be cut short (a kill inside its write).
    if lines.last().is_some_and(|l| !l.ends_with('\n')) {
        lines.pop();
    }
    // Fields: commas outside quotes, plus one.
    let fields = |line: &str| {
        let mut quoted = false;
        1 + line
            .chars()
            .filter(|&c| {
                quoted ^= c == '"';
                c == ',' && !quoted
            })
            .count()
    };
    let columns = fields(lines[0]);
    for line in &lines {
        assert!(line.ends_with('\n'), "{line:?}");
        assert_eq!(fields(line), columns, "{line:?}");
    }
    assert!(lines.len() > 1, "only the header");
}

/// Issue 41: two runs into one report folder interleaved. While another run holds the folder
/// (here this test, through the shard model's folder lock every run takes), every study is
/// refused with one line naming the holder's process id, and writes nothing there.
#[test]
fn a_study_into_a_folder_in_use_is_refused_naming_the_run_that_holds_it() {
    let dir = scratch_dir("locked");
    std::fs::create_dir_all(&dir).unwrap();
    let held = shards::lock_folder(&dir, "the first run").unwrap();
    let out = dir.to_str().unwrap();
    for args in [
        vec![
            "study", "pullups", "--size", "3", "--boards", "1", "--out", out,
        ],
        vec!["study", "heuristic", "--max-vertices", "4", "--out", out],
        vec!["study", "quantisation", "--size", "3", "--out", out],
        vec![
            "study",
            "tolerance",
            "--size",
            "3",
            "--boards",
            "1",
            "--out",
            out,
        ],
    ] {
        // The heuristic study's spec names geng (issue 62): without nauty it stops there, in
        // one line of its own, before it reaches the folder.
        if args[1] == "heuristic" && !nauty() {
            continue;
        }
        let run = birdcage(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("pid {}", std::process::id())) && stderr.contains("in use"),
            "{args:?}: {stderr}"
        );
        assert!(
            !dir.join("summary.md").exists(),
            "{args:?} wrote its report"
        );
    }
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 50: each study takes its own options; another study's is refused by name, never
/// ignored (the heuristic study once took `--board` and `--size` and used neither).
#[test]
fn a_study_refuses_the_options_of_another_by_name() {
    let dir = scratch_dir("foreign-options");
    let out = dir.to_str().unwrap();
    for (args, named) in [
        (
            vec!["study", "heuristic", "--board", "nucleo-f446re"],
            "'--board'",
        ),
        (vec!["study", "heuristic", "--size", "4"], "'--size'"),
        (
            vec!["study", "quantisation", "--max-vertices", "4"],
            "'--max-vertices'",
        ),
    ] {
        let mut args = args;
        args.extend(["--out", out]);
        assert_bad_input(&args, &format!("unexpected argument {named}"));
    }
    assert_bad_input(
        &["study", "quantisation", "--boards", "3", "--out", out],
        "--boards counts the boards the tolerance and pull-up studies draw",
    );
    assert!(!dir.join("summary.md").exists());
}

/// Issue 62: a study writes through the one writer. A link planted at `summary.md` (dangling,
/// or to a file of the victim's) is replaced, never followed: the file it names is not made
/// or changed; and `--force` removes only the study's own files, never another tool's
/// (`glitches.csv`, a links report) beside them.
#[test]
fn cli_a_study_follows_no_link_and_force_removes_only_its_own_files() {
    let dir = scratch_dir("links-planted");
    std::fs::create_dir_all(&dir).unwrap();
    let victim = scratch_file("victim-notes", "the victim's notes\n");
    let dangling = dir.join("made-through-the-link.txt");
    std::os::unix::fs::symlink(&victim, dir.join("summary.md")).unwrap();
    std::os::unix::fs::symlink(&dangling, dir.join("quantisation.json")).unwrap();
    std::fs::write(dir.join("glitches.csv"), "the bench's\n").unwrap();
    std::fs::write(dir.join("links-9.json"), "{}\n").unwrap();
    let study = |force: bool| {
        let mut args = vec!["study", "quantisation", "--board", "ideal", "--out"];
        args.push(dir.to_str().unwrap());
        if force {
            args.push("--force");
        }
        birdcage(&args)
    };
    // The links count as a report already there: refused without --force, named.
    let out = study(false);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = study(true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's notes\n"
    );
    assert!(
        !dangling.exists(),
        "a file was made through the dangling link"
    );
    for name in ["summary.md", "quantisation.json"] {
        let meta = std::fs::symlink_metadata(dir.join(name)).unwrap();
        assert!(meta.file_type().is_file(), "{name} is still a link");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("glitches.csv")).unwrap(),
        "the bench's\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("links-9.json")).unwrap(),
        "{}\n"
    );
}

/// Issue 62: with a geng that has the links' PRUNE hook first on PATH (here a stand-in that
/// counts 218 connected graphs on 7 vertices), `study heuristic` refuses to enumerate, naming
/// geng, rather than study the pruned listing; nothing is written.
#[test]
fn cli_heuristic_study_refuses_a_pruned_geng() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch_dir("pruned-geng");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("nauty-geng");
    std::fs::write(
        &fake,
        "#!/bin/sh\ncase \"$*\" in\n  *-u*) echo '>Z 218 graphs generated in 0.00 sec' >&2 ;;\n  \
         --version) echo 'Nauty&Traces version 2.8080 (32 bits) with the links PRUNE hook' ;;\n  \
         *) echo '@' ;;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out_dir = dir.join("out");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(["study", "heuristic", "--max-vertices", "4", "--out"])
        .arg(&out_dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the geng on PATH has the links' PRUNE hook") && err.contains("nauty-geng"),
        "{err}"
    );
    assert!(!out_dir.join("summary.md").exists());
}

/// `--ply-walk P` from the command line (issue 64): `--status` names the ply in hand and its
/// shards not done (exit 3), each shard runs alone (`--ply K --shard I/P`), the whole walk
/// resumes from where the folder stands, and its report's data files equal the one-process
/// run's. A shard of a ply past the game, or of another P, is one line, exit 2.
#[test]
fn cli_ply_walk_runs_shard_by_shard_and_reports_as_one_process() {
    let whole = scratch_dir("walk-whole");
    let walk = scratch_dir("walk");
    let (w, d) = (whole.to_str().unwrap(), walk.to_str().unwrap());
    let out = birdcage(&["study", "quantisation", "--size", "3", "--out", w]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let base = [
        "study",
        "quantisation",
        "--size",
        "3",
        "--ply-walk",
        "2",
        "--out",
        d,
    ];
    let with =
        |extra: &[&'static str]| -> Vec<&str> { base.iter().chain(extra).copied().collect() };
    let status = birdcage(&with(&["--status"]));
    assert_eq!(status.status.code(), Some(3));
    let text = String::from_utf8(status.stdout).unwrap();
    assert!(
        text.starts_with("no ply finished; ply 0: 2 of 2 shards not done: 1/2 2/2"),
        "{text}"
    );
    assert!(text.contains("--ply-walk 2 --ply 0 --shard K/P"), "{text}");
    for shard in ["1/2", "2/2"] {
        let out = birdcage(&with(&["--ply", "0", "--shard", shard]));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = birdcage(&with(&["--ply", "1", "--shard", "2/2"]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(birdcage(&with(&["--status"])).stdout).unwrap();
    assert!(
        text.starts_with("ply 0 finished; ply 1: 1 of 2 shards not done: 1/2"),
        "{text}"
    );
    let out = birdcage(&with(&[]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = birdcage(&with(&["--status"]));
    assert_eq!(status.status.code(), Some(0));
    assert!(
        String::from_utf8(status.stdout)
            .unwrap()
            .starts_with("the walk is complete")
    );
    assert_eq!(files(&walk), files(&whole));
    for (extra, message) in [
        (
            &["--ply", "14", "--shard", "1/2"][..],
            "--ply 14: past the end of every M=3 game",
        ),
        (
            &["--ply", "0", "--shard", "1/3"][..],
            "the shard's P is the walk's",
        ),
    ] {
        let out = birdcage(&with(extra));
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(message), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&walk);
}
