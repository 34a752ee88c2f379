//! The report comparison catches what a one-way walk misses: a stray file in the merged
//! folder, a file missing from it, one changed byte, in a subfolder too; the machinery's
//! files (shards, locks, Slurm's) are not the report's.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::fs;
use std::path::Path;

use shards::compare::{Mismatch, same_report};

/// A report of two files and a sweep's board folder.
fn report(dir: &Path) {
    fs::create_dir_all(dir.join("board-3")).unwrap();
    fs::write(dir.join("summary.md"), "# summary\n").unwrap();
    fs::write(dir.join("summary.json"), "{}\n").unwrap();
    fs::write(dir.join("board-3/steps.jsonl"), "{\"game\":0}\n").unwrap();
}

fn two() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("one"), tmp.path().join("merged"));
    report(&a);
    report(&b);
    (tmp, a, b)
}

#[test]
fn the_same_report_with_the_machinerys_files_beside_it_is_the_same() {
    let (_tmp, a, b) = two();
    for name in [
        "demo.1-of-3.shard",
        ".shards.lock",
        "demo.slurm-record",
        "demo.slurm-17_2.out",
    ] {
        fs::write(b.join(name), "machinery").unwrap();
    }
    assert_eq!(same_report(&a, &b).unwrap(), 3);
}

#[test]
fn a_stray_file_in_the_merged_folder_is_caught() {
    let (_tmp, a, b) = two();
    fs::write(b.join("stray.csv"), "x\n").unwrap();
    let e = same_report(&a, &b).unwrap_err();
    assert!(
        matches!(&e, Mismatch::Extra { name, .. } if name == Path::new("stray.csv")),
        "{e}"
    );
    assert!(
        e.to_string().starts_with("stray.csv in ")
            && e.to_string().contains("not in the reference"),
        "{e}"
    );
    // In a board's folder too.
    fs::remove_file(b.join("stray.csv")).unwrap();
    fs::write(b.join("board-3/plot.svg"), "<svg/>").unwrap();
    let e = same_report(&a, &b).unwrap_err();
    assert!(
        matches!(&e, Mismatch::Extra { name, .. } if name == Path::new("board-3/plot.svg")),
        "{e}"
    );
}

#[test]
fn a_missing_file_and_a_changed_byte_are_caught() {
    let (_tmp, a, b) = two();
    fs::remove_file(b.join("summary.json")).unwrap();
    let e = same_report(&a, &b).unwrap_err();
    assert!(
        matches!(&e, Mismatch::Missing { name, .. } if name == Path::new("summary.json")),
        "{e}"
    );
    report(&b);
    // "{\"game\":0}" against "{\"game\":1}": the ninth byte.
    fs::write(b.join("board-3/steps.jsonl"), "{\"game\":1}\n").unwrap();
    let e = same_report(&a, &b).unwrap_err();
    assert_eq!(
        e.to_string(),
        "board-3/steps.jsonl differs from the reference at byte 8"
    );
    // A merge cut short is a difference at the shorter file's end.
    fs::write(b.join("board-3/steps.jsonl"), "{\"game\":0}").unwrap();
    let e = same_report(&a, &b).unwrap_err();
    assert!(matches!(e, Mismatch::Differs { at: 10, .. }), "{e}");
}

#[test]
fn a_reference_without_report_files_is_no_pass() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("demo.1-of-1.shard"), "x").unwrap();
    let e = same_report(tmp.path(), tmp.path()).unwrap_err();
    assert!(matches!(e, Mismatch::Empty(_)), "{e}");
}
