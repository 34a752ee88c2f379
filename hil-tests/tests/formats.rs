//! The bench's report formats pinned by committed snapshots (insta), on SIL (no tool
//! needed): a run of games (summary.md, summary.json, JUnit, plot.svg with its numbers
//! rounded as the studies' SVGs are, `needs::snapshot`) and the cage's fault campaign
//! (faults.md, faults.csv and its JUnit), and on the virtual board the glitch campaign
//! (glitches.md, glitches.csv and its JUnit; skipped without it). A change that moves a byte of a report fails here
//! with the diff; review with `cargo insta review` (or `INSTA_UPDATE=always cargo test -p
//! hil-tests --test formats` and `git diff`). Redacted: the report folder's path, and in the
//! JUnit the clock (`timestamp`, `time`) and the build (`version`, `elf_sha256`), which a run cannot repeat.
//! `hil-tests/same-reports.sh` remains the check of every report against another build.
//! The other formats are pinned where a test already writes them: sweep.md and sweep.csv in
//! `shards.rs`, calibration.json in `calibrate.rs`, coverage.txt in `hostile_files.rs`, the
//! board faults' report and JUnit and doctor's JUnit in `hil_virtual.rs`.

use std::path::Path;
use std::process::Command;

mod common;

use common::build_masked;

/// `hil-tests run ARGS --out DIR --junit DIR/junit.xml`, which must exit 0.
fn run(args: &[&str], dir: &Path) -> String {
    let done = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(dir)
        .arg("--junit")
        .arg(dir.join("junit.xml"))
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    String::from_utf8(done.stdout).unwrap()
}

/// `file` in `dir` with the folder's path as `DIR`.
fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file))
        .unwrap()
        .replace(&dir.display().to_string(), "DIR")
}

/// The run's JUnit, the clock and the build masked.
fn junit(dir: &Path) -> String {
    common::junit_masked(&read(dir, "junit.xml"))
}

#[test]
fn a_run_of_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let printed = run(
        &[
            "--stage",
            "sil",
            "--scenario",
            "random4",
            "--games",
            "3",
            "--seed",
            "5",
        ],
        &out,
    );
    insta::assert_snapshot!(
        "games-stdout",
        printed.replace(&out.display().to_string(), "DIR")
    );
    insta::assert_snapshot!("games-summary.md", read(&out, "summary.md"));
    insta::assert_snapshot!("games-summary.json", read(&out, "summary.json"));
    insta::assert_snapshot!("games-junit.xml", junit(&out));
    insta::assert_snapshot!(
        "games-plot.svg",
        needs::snapshot::svg_normalised(&read(&out, "plot.svg"))
    );
}

#[test]
fn the_cage_fault_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("faults");
    run(
        &["--stage", "sil", "--scenario", "faults", "--size", "3"],
        &out,
    );
    insta::assert_snapshot!("faults-faults.md", read(&out, "faults.md"));
    insta::assert_snapshot!("faults-faults.csv", read(&out, "faults.csv"));
    insta::assert_snapshot!("faults-junit.xml", junit(&out));
}

/// The glitch campaign on the virtual board (glitches.md, glitches.csv and its JUnit): 12
/// flips of the kept state. What moves with the folder the firmware is built in (instruction
/// counts, the visit's microseconds and the moments drawn over them, addresses) is masked:
/// runs of six or more digits as `N`, hexadecimal words as `0x[hex]`. Skipped without the
/// board ELF (`cargo fw`) or the virtual board.
#[test]
fn the_glitch_campaign() {
    let elf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(bench::BOARD_ELF);
    if !elf.is_file() {
        needs::skip("board-elf", "no board ELF (cargo fw)");
        return;
    }
    if let Err(e) = bench::virtual_board_binary() {
        needs::skip("unicorn-build", format!("no virtual board ({e})"));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("glitches");
    let elf = elf.display().to_string();
    run(
        &[
            "--target",
            "hil",
            "--probe",
            "virtual",
            "--scenario",
            "glitches",
            "--trials",
            "12",
            "--seed",
            "4",
            "--kinds",
            "kept",
            "--elf",
            &elf,
        ],
        &out,
    );
    insta::assert_snapshot!(
        "glitches-glitches.md",
        build_masked(&read(&out, "glitches.md"))
    );
    insta::assert_snapshot!(
        "glitches-glitches.csv",
        build_masked(&read(&out, "glitches.csv"))
    );
    insta::assert_snapshot!("glitches-junit.xml", build_masked(&junit(&out)));
}
