//! Every report format of `birdcage` pinned by a committed snapshot (insta): the links text
//! and JSON reports and each study's summary and tables, on small fixed inputs. A change that
//! moves a byte of a report fails here and shows the diff; review it with `cargo insta
//! review` (or `INSTA_UPDATE=always cargo test -p birdcage --test formats` and `git diff`).
//! Nothing in these reports depends on the clock or the machine, so nothing is redacted but
//! the scratch folder's path.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use std::path::Path;

// The SVG normaliser every report snapshot shares (the bench's plot too).
use needs::snapshot::svg_normalised as normalised;

use support::{birdcage, nauty};

/// A fresh scratch folder for one report.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-formats-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The text of `file` in `dir`, the folder's path replaced by `DIR`.
fn read(dir: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()));
    text.replace(&dir.display().to_string(), "DIR")
}

/// Runs `birdcage ARGS --out DIR`, which must succeed; its standard output.
fn run(args: &[&str], dir: &Path) -> String {
    let mut all = args.to_vec();
    let out = dir.to_str().unwrap();
    all.extend(["--out", out]);
    let done = birdcage(&all);
    assert!(
        done.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    String::from_utf8(done.stdout).unwrap()
}

#[test]
fn the_links_reports() {
    if !nauty() {
        return;
    }
    let dir = scratch("links");
    // The text report (the paper's tables side by side), then the files it writes; not the
    // shard file, whose header names the build.
    let text = run(&["links", "--vertices", "7"], &dir);
    insta::assert_snapshot!(
        "links-7-text",
        text.replace(&dir.display().to_string(), "DIR")
    );
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| !f.starts_with('.') && !f.ends_with(".shard"))
        .collect();
    files.sort();
    insta::assert_snapshot!("links-7-files", files.join("\n"));
    for file in &files {
        insta::assert_snapshot!(format!("links-7-{file}"), read(&dir, file));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_study_reports() {
    for (study, args) in [
        ("quantisation", &["--size", "2"][..]),
        ("tolerance", &["--size", "2", "--boards", "3"][..]),
        ("pullups", &["--size", "2", "--boards", "2"][..]),
    ] {
        let dir = scratch(study);
        let mut all = vec!["study", study];
        all.extend(args);
        insta::assert_snapshot!(format!("{study}-stdout"), run(&all, &dir));
        for file in std::fs::read_dir(&dir).unwrap() {
            let name = file.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".md") || name.ends_with(".csv") || name.ends_with(".json") {
                insta::assert_snapshot!(format!("{study}-{name}"), read(&dir, &name));
            }
            if name.ends_with(".svg") {
                insta::assert_snapshot!(format!("{study}-{name}"), normalised(&read(&dir, &name)));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_heuristic_study_report() {
    if !nauty() {
        return;
    }
    let dir = scratch("heuristic");
    run(
        &[
            "study",
            "heuristic",
            "--max-vertices",
            "4",
            "--samples",
            "1",
        ],
        &dir,
    );
    for name in ["summary.md", "heuristic.csv"] {
        insta::assert_snapshot!(format!("heuristic-{name}"), read(&dir, name));
    }
    insta::assert_snapshot!(
        "heuristic-heuristic.svg",
        normalised(&read(&dir, "heuristic.svg"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
