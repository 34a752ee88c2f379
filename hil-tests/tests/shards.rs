//! The bench's long runs in shards: shards run in any order, then `--merge`, give the
//! one-process report byte for byte (random games, a sweep of drawn boards, the cage's fault
//! campaign); a missing or foreign shard is refused with the command that makes it again; and
//! one report folder is written by one run at a time.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BENCH: &str = env!("CARGO_BIN_EXE_hil-tests");

fn bench(args: &[&str], out: &Path, extra: &[&str]) -> Output {
    Command::new(BENCH)
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(out)
        .args(extra)
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

/// One line on stderr, exit 2.
fn refused(run: &Output) -> String {
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

/// Runs the P shards of `args` into `dir` in the order given, then the merge.
fn sharded(args: &[&str], dir: &Path, order: &[u32]) -> String {
    let p = order.len();
    for k in order {
        ok(&bench(args, dir, &["--shard", &format!("{k}/{p}")]));
    }
    ok(&bench(args, dir, &["--merge"]))
}

/// Asserts two folders hold the same report, both ways (none missing, none extra, a
/// board's folder too) and byte for byte: the one comparison every test and CI use.
fn same_folders(a: &Path, b: &Path) {
    shards::compare::same_report(a, b).unwrap_or_else(|e| panic!("{e}"));
}

fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let (one, split) = (tmp.path().join("one"), tmp.path().join("split"));
    (tmp, one, split)
}

const RANDOM: [&str; 10] = [
    "--target",
    "sil",
    "--scenario",
    "random4",
    "--games",
    "11",
    "--board-seed",
    "7",
    "--seed",
    "3",
];

#[test]
fn random_games_merged_from_shards_in_any_order_are_the_one_process_report() {
    let (_tmp, one, split) = dirs();
    let whole = ok(&bench(&RANDOM, &one, &[]));
    let merged = sharded(&RANDOM, &split, &[3, 1, 4, 2]);
    // The one-process run plays its games through `bench::play_scenario` and `Report` directly,
    // never through the shard code: an independent reference.
    same_folders(&one, &split);
    // The same summary printed, and the games all there (11, dealt over 4 shards).
    let summary = |text: &str| {
        text.lines()
            .take_while(|l| !l.starts_with("Report:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(summary(&merged), summary(&whole));
    assert!(whole.contains("11 of 11 planned games played"), "{whole}");
    // A shard run again on another day writes the same bytes.
    let shard = split.join("bench-random4.2-of-4.shard");
    let before = std::fs::read(&shard).unwrap();
    std::fs::remove_file(&shard).unwrap();
    // A shard missing: the states on stdout and exit 3, never a pass a script could gate on.
    let status = bench(&RANDOM, &split, &["--status"]);
    let said = String::from_utf8_lossy(&status.stdout);
    assert_eq!(status.status.code(), Some(3), "{said}");
    assert!(
        said.contains("3 done, 0 running, 0 failed, 1 missing"),
        "{said}"
    );
    ok(&bench(&RANDOM, &split, &["--shard", "2/4"]));
    assert_eq!(std::fs::read(&shard).unwrap(), before);
    let all = ok(&bench(&RANDOM, &split, &["--status"]));
    assert!(
        all.contains("4 done, 0 running, 0 failed, 0 missing"),
        "{all}"
    );
}

#[test]
fn a_sweep_of_drawn_boards_merged_is_the_one_process_sweep_and_each_board_its_own_run() {
    let sweep = [
        "--target",
        "sil",
        "--scenario",
        "random4",
        "--games",
        "3",
        "--seed",
        "5",
        "--board-seeds",
        "3..6",
    ];
    let (tmp, one, split) = dirs();
    ok(&bench(&sweep, &one, &[]));
    sharded(&sweep, &split, &[2, 1]);
    // The table and every board's folder.
    same_folders(&one, &split);
    for seed in 3..6 {
        let board = format!("board-{seed}");
        // Each board's report is the plain run of that board, byte for byte.
        let alone = tmp.path().join(format!("alone-{seed}"));
        let args = [
            "--target",
            "sil",
            "--scenario",
            "random4",
            "--games",
            "3",
            "--seed",
            "5",
            "--board-seed",
            &seed.to_string(),
        ];
        ok(&bench(&args, &alone, &[]));
        same_folders(&alone, &one.join(&board));
    }
    // The table: one row per seed, three games each, steps as each board's summary counts.
    let csv = std::fs::read_to_string(one.join("sweep.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    for (row, seed) in rows.iter().zip(3..6) {
        let summary: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(one.join(format!("board-{seed}/summary.json"))).unwrap(),
        )
        .unwrap();
        let steps = summary["tally"]["steps"].as_u64().unwrap();
        assert!(row.starts_with(&format!("{seed},3,{steps},")), "{row}");
    }
    // The table's format, pinned (no path and no clock in it: nothing masked).
    insta::assert_snapshot!("sweep.csv", csv);
    insta::assert_snapshot!(
        "sweep.md",
        std::fs::read_to_string(one.join("sweep.md")).unwrap()
    );
}

#[test]
fn the_cage_fault_campaign_merged_from_shards_is_the_one_process_campaign() {
    let faults = [
        "--target",
        "sil",
        "--scenario",
        "faults",
        "--size",
        "3",
        "--board-seed",
        "7",
    ];
    let (tmp, one, split) = dirs();
    ok(&bench(&faults, &one, &[]));
    sharded(&faults, &split, &[2, 3, 1]);
    same_folders(&one, &split);
    // The reference that shares no shard code (issue 49): the library's plain campaign on
    // SIL and its report writer, as the bench ran it before shards: no `run_shard`, no
    // `runs`/`merge`, no `shards::drive`.
    let reference = tmp.path().join("reference");
    let profile = &boards::NUCLEO_F446RE;
    let mut sil = bench::Sil::new(profile, heuristic::Size::M3, Some(7)).unwrap();
    let run = bench::faults::fault_campaign(&mut sil, profile, heuristic::Size::M3, &mut |_, _| {
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    bench::faults::table::write_fault_report(&reference, &[run], "nucleo-f446re", Some(7)).unwrap();
    same_folders(&reference, &split);
}

#[test]
fn a_missing_or_foreign_shard_is_refused_with_the_command_that_makes_it() {
    let (tmp, _, split) = dirs();
    for k in 1..=3 {
        ok(&bench(&RANDOM, &split, &["--shard", &format!("{k}/3")]));
    }
    // Shard 2 of another run (another seed of Short's moves) in its place.
    let other = tmp.path().join("other");
    let mut args = RANDOM.to_vec();
    args[9] = "4";
    ok(&bench(&args, &other, &["--shard", "2/3"]));
    let name = "bench-random4.2-of-3.shard";
    std::fs::copy(other.join(name), split.join(name)).unwrap();
    let stderr = refused(&bench(&RANDOM, &split, &["--merge"]));
    assert!(
        stderr.contains(name) && stderr.contains("--shard 2/3"),
        "{stderr}"
    );
    assert!(
        !split.join("steps.jsonl").exists(),
        "a refused merge wrote a report"
    );
    // Missing: shard 3 gone.
    std::fs::remove_file(split.join(name)).unwrap();
    ok(&bench(&RANDOM, &split, &["--shard", "2/3"]));
    std::fs::remove_file(split.join("bench-random4.3-of-3.shard")).unwrap();
    let stderr = refused(&bench(&RANDOM, &split, &["--merge"]));
    assert!(stderr.contains("--shard 3/3"), "{stderr}");
    assert!(
        !split.join("steps.jsonl").exists(),
        "a refused merge wrote a report"
    );
}

#[test]
fn board_seeds_that_are_no_sweep_are_refused_in_one_line() {
    let (_tmp, one, _) = dirs();
    for bad in ["5..5", "1-9", "x..3", "0..20000"] {
        let run = bench(
            &[
                "--target",
                "sil",
                "--scenario",
                "random4",
                "--board-seeds",
                bad,
            ],
            &one,
            &[],
        );
        let stderr = refused(&run);
        assert!(stderr.contains("--board-seeds"), "{bad}: {stderr}");
    }
    let run = bench(
        &["--target", "sil", "--scenario", "tree3", "--shard", "1/2"],
        &one,
        &[],
    );
    assert!(refused(&run).contains("cannot be split"));
}

/// Issue 41: two `--resume` runs into one folder at once interleaved their lines. The second
/// is refused, naming the first's process id, and the first's report is whole.
#[test]
fn a_second_run_into_a_folder_in_use_is_refused_naming_the_first() {
    use std::os::unix::process::CommandExt;
    let (_tmp, out, _) = dirs();
    let args = [
        "--target",
        "sil",
        "--scenario",
        "random4",
        "--games",
        "5000",
        "--board-seed",
        "7",
    ];
    // A report to resume.
    let mut first = Command::new(BENCH)
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--resume")
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !std::fs::read_to_string(out.join("steps.jsonl"))
        .is_ok_and(|t| t.contains("\"game_end\""))
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no game in a minute"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut second = Command::new(BENCH)
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--resume")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let ended = loop {
        if second.try_wait().unwrap().is_some() {
            break true;
        }
        if start.elapsed() > Duration::from_secs(20) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if !ended {
        let _ = second.kill();
    }
    let second = second.wait_with_output().unwrap();
    let _ = Command::new("kill")
        .args(["-INT", "--", &format!("-{}", first.id())])
        .status();
    let _ = first.wait();
    assert!(
        ended,
        "the second run into the same folder was not refused: it ran on"
    );
    let stderr = refused(&second);
    assert!(
        stderr.contains(&format!("pid {}", first.id())) && stderr.contains("in use"),
        "{stderr}"
    );
    // The first run's report reads whole: its lines did not interleave with another's.
    let scan = bench::Report::read_steps(&out);
    assert!(scan.is_ok(), "{scan:?}");
}
