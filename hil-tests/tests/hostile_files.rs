//! Issue 52: a report folder others can write. The bench's summaries, plot and calibration
//! are never written through a link planted there, the virtual board's coverage is never
//! written into a FIFO (refused by name, exit 2, at once), and a resumed virtual-board
//! report keeps the coverage its earlier runs measured.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use bench::{
    Report, Scenario, Sil, header, report::PLOT, report::SUMMARY_JSON, report::SUMMARY_MD,
};
use heuristic::Size;

mod common;

const NUCLEO: &boards::Profile = &boards::NUCLEO_F446RE;

/// `name` in `dir` made a link to `victim`.
fn plant(dir: &Path, name: &str, victim: &Path) -> PathBuf {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    std::os::unix::fs::symlink(victim, &path).unwrap();
    path
}

#[test]
fn summaries_and_plot_are_never_written_through_a_link_planted_during_the_run() {
    let scenario = Scenario::random(Size::M4, 0, 3);
    for name in [SUMMARY_JSON, SUMMARY_MD, PLOT] {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let mut sil = Sil::new(NUCLEO, Size::M4, None).unwrap();
        let header = header(&mut sil, NUCLEO, &scenario, None).unwrap();
        let mut report = Report::open(dir.path(), header, bench::Existing::Refuse).unwrap();
        // Planted after the folder was checked, while the games are played.
        let link = plant(dir.path(), name, &victim);
        let e = report.finish().unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{} is a symbolic link, not a regular file: refused (remove it)",
                link.display()
            )
        );
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "keep me",
            "{name}"
        );
    }
}

#[test]
fn the_calibration_is_never_written_through_a_planted_link() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = Scenario::random(Size::M4, 4, 1);
    let mut sil = Sil::new(NUCLEO, Size::M4, Some(3)).unwrap();
    common::played(NUCLEO, &mut sil, &scenario, Some(3), dir.path(), false)
        .unwrap()
        .finish()
        .unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, b"keep me").unwrap();
    // The temporary name it once wrote through (`calibration.tmp`), then its own name.
    plant(dir.path(), "calibration.tmp", &victim);
    bench::calibrate::calibrate_report(dir.path(), None).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(
        std::fs::symlink_metadata(dir.path().join("calibration.json"))
            .unwrap()
            .is_file()
    );
    let link = plant(dir.path(), "calibration.json", &victim);
    let e = bench::calibrate::calibrate_report(dir.path(), None)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{} is a symbolic link, not a regular file: refused (remove it)",
            link.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

/// The board ELF and the virtual board, or why the test skips.
fn ready() -> Option<PathBuf> {
    let elf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(bench::BOARD_ELF);
    if !elf.is_file() {
        needs::skip("board-elf", "no board ELF (cargo fw)");
        return None;
    }
    if let Err(e) = bench::virtual_board_binary() {
        needs::skip("unicorn-build", format!("no virtual board ({e})"));
        return None;
    }
    Some(elf)
}

/// `hil-tests run` of `games` random M=4 games on the virtual board into `out`, killed
/// after `limit`.
fn virtual_run(elf: &Path, out: &Path, games: &str, extra: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args([
            "run",
            "--stage",
            "hil",
            "--probe",
            "virtual",
            "--scenario",
            "random4",
        ])
        .args(["--games", games, "--seed", "3", "--elf"])
        .arg(elf)
        .arg("--out")
        .arg(out)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_fifo_at_coverage_txt_is_refused_by_name_at_once_not_waited_on() {
    let Some(elf) = ready() else { return };
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("coverage.txt");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // It once stalled the run 10 s at its end and exited 0 saying nothing.
    let started = Instant::now();
    let out = virtual_run(&elf, dir.path(), "1", &[], Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {} is a FIFO, not a regular file: refused (remove it)",
            fifo.display()
        )
    );
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    // Nothing was played.
    assert!(!dir.path().join("steps.jsonl").exists());
}

#[test]
fn a_resumed_finished_report_keeps_its_coverage() {
    let Some(elf) = ready() else { return };
    let dir = tempfile::tempdir().unwrap();
    let limit = Duration::from_secs(300);
    let first = virtual_run(&elf, dir.path(), "2", &[], limit);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let coverage = dir.path().join("coverage.txt");
    let before = std::fs::read_to_string(&coverage).unwrap();
    let marked = |text: &str| text.lines().filter(|l| l.starts_with("+ ")).count();
    assert!(marked(&before) > 0, "{before}");
    // The file's format, pinned: the board binary's functions by name, `+ ` those that ran (a
    // firmware change shows here; update the snapshot on purpose). Its lines sorted: they come
    // in address order, which two checkouts of one commit lay out differently (the symbols'
    // hashes hold paths), while which functions ran is the same.
    let mut lines: Vec<&str> = before.lines().collect();
    lines.sort_unstable();
    insta::assert_snapshot!("coverage.txt", lines.join("\n"));
    // Nothing left to play: the resumed run boots the board and ends. Its coverage is the
    // union with the first run's, so the file is as it was (it once shrank to the boot's).
    let again = virtual_run(&elf, dir.path(), "2", &["--resume"], limit);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let after = std::fs::read_to_string(&coverage).unwrap();
    assert_eq!(after.lines().count(), before.lines().count());
    assert_eq!(marked(&after), marked(&before));
    assert_eq!(after, before);
    // Starting over (--force) measures afresh: the first run's marks are not carried over.
    std::fs::write(&coverage, before.replace("- ", "+ ")).unwrap();
    let forced = virtual_run(&elf, dir.path(), "2", &["--force"], limit);
    assert!(forced.status.success());
    assert_eq!(std::fs::read_to_string(&coverage).unwrap(), before);
}

/// A coverage file the board cannot write at the run's end: a folder made at
/// `coverage.txt` once the games have begun, after the bench checked the path's type (it
/// was absent then). The board said so to the bench, which ended 0 saying nothing; now it
/// names the file in one line and gives no verdict (exit 2), the games kept. A folder, not
/// a read-only one: the tests run as root, whom permissions do not stop.
#[test]
fn a_coverage_file_the_board_cannot_write_at_the_end_fails_the_run_in_one_line() {
    let Some(elf) = ready() else { return };
    let dir = tempfile::tempdir().unwrap();
    let coverage = dir.path().join("coverage.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args(["run", "--stage", "hil", "--probe", "virtual"])
        .args([
            "--scenario",
            "random4",
            "--games",
            "20",
            "--seed",
            "3",
            "--elf",
        ])
        .arg(&elf)
        .arg("--out")
        .arg(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // The report is opened after the board is, and its type checks: from then on the
    // folder is in the board's way only at the end, 20 games later.
    while !dir.path().join("steps.jsonl").exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before its report"
        );
        assert!(started.elapsed() < Duration::from_secs(120), "no report");
        std::thread::sleep(Duration::from_millis(2));
    }
    std::fs::create_dir(&coverage).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "error: the games played are in {}, but the report is incomplete: the virtual \
             board could not write its coverage file: {}",
            dir.path().display(),
            coverage.display()
        )),
        "{err}"
    );
    // The games are kept.
    let summary = std::fs::read_to_string(dir.path().join(SUMMARY_MD)).unwrap();
    assert!(
        summary.contains("20 of 20 planned games played"),
        "{summary}"
    );
}
