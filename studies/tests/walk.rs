//! The quantisation study of the tree walked a ply at a time (`quantisation::walk`): its
//! report, merged from the plies' findings, equals byte for byte the one-process report of
//! the plain path (the whole tree held, read in one process), which shares no code with the
//! walk's partitions, shard files or merge.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};

use heuristic::Size;
use shards::{Job, Mode, Outcome, ShardId};
use studies::Control;
use studies::quantisation::{QuantisationStudy, Walk, WalkError};
use studies::report::Output;
use studies::study::{self, CageOptions, Study};

fn options(m: u32) -> CageOptions {
    CageOptions {
        size: Size::new(m).unwrap(),
        seed: 1,
        board: None,
        boards: None,
        random_games: None,
        records: None,
        split_ply: None,
        ply_walk: None,
        ply: None,
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-walk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const COMMAND: &str = "birdcage study quantisation";

/// The report's files (not the walk's plies), name and bytes, sorted by name.
fn report_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .filter(|(name, _)| !name.starts_with('.') && !name.ends_with(".shard"))
        .map(|(name, p)| (name, std::fs::read(p).unwrap()))
        .collect();
    files.sort();
    files
}

/// The plain one-process study's report of M=`m` (every converter).
fn whole(m: u32) -> Vec<(String, Vec<u8>)> {
    let options = options(m);
    let dir = scratch(&format!("whole-{m}"));
    let plan = QuantisationStudy::plan(&options, COMMAND).unwrap();
    let job = Job::new(
        "quantisation",
        &study::spec::<QuantisationStudy>(&options).unwrap(),
        "test",
        vec!["birdcage".into()],
    );
    let outcome = study::drive(
        &plan,
        &dir,
        &job,
        &Mode::Whole,
        &Control::unattended(),
        false,
    );
    assert!(matches!(outcome, Ok(Outcome::Merged(_))));
    let files = report_files(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    files
}

/// Walks M=`m` in `parts` partitions into `dir` and writes its report into `dir/report`.
fn walk(m: u32, parts: u32, dir: &Path, damage: impl FnOnce(&Walk<'_>)) -> Result<(), String> {
    let options = options(m);
    let plan = QuantisationStudy::plan(&options, COMMAND).unwrap();
    let reader = plan.reader().unwrap();
    let walk = Walk::new(
        dir,
        options.size,
        &reader,
        parts,
        study::spec::<QuantisationStudy>(&options).unwrap(),
        "test",
        vec!["birdcage".into(), "study".into(), "quantisation".into()],
    )
    .unwrap();
    walk.run(&Control::unattended())
        .map_err(|e| e.to_string())?;
    damage(&walk);
    let out = Output::fresh(&dir.join("report"), false).unwrap();
    plan.write_walk_report(&walk, &out)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// M=3, every converter: the walk's report in 1, 2, 3 and 7 partitions is the one
/// process's, file for file and byte for byte.
#[test]
fn m3_walk_equals_the_one_process_report() {
    let expected = whole(3);
    let rows = expected
        .iter()
        .find(|(n, _)| n == "quantisation-positions.csv")
        .map(|(_, b)| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap();
    assert!(
        rows >= 3,
        "{rows} lines: the rows' order and indices are checked"
    );
    for parts in [1, 2, 3, 7] {
        let dir = scratch(&format!("walk-3-{parts}"));
        walk(3, parts, &dir, |_| {}).unwrap();
        let got = report_files(&dir.join("report"));
        assert_eq!(got.len(), expected.len(), "P={parts}");
        for ((name, bytes), (want_name, want)) in got.iter().zip(&expected) {
            assert_eq!(name, want_name, "P={parts}");
            assert!(bytes == want, "P={parts}: {name} differs");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// M=4, every converter (774,118 positions): the same equality. Ignored by default (a
/// minute or two in the dev profile); `cargo test --release -p studies --test walk --
/// --ignored`.
#[test]
#[ignore]
fn m4_walk_equals_the_one_process_report() {
    let expected = whole(4);
    for parts in [1, 5] {
        let dir = scratch(&format!("walk-4-{parts}"));
        walk(4, parts, &dir, |_| {}).unwrap();
        assert!(report_files(&dir.join("report")) == expected, "P={parts}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A partition dropped (a findings file emptied of its positions, rewritten whole with a
/// valid header, as a bug that lost it would) changes the report: the equality above would
/// catch it. A file removed is refused naming it and the command that makes it again.
#[test]
fn a_partition_lost_is_seen() {
    let expected = whole(3);
    let dir = scratch("lost");
    walk(3, 3, &dir, |walk| {
        let ply = walk.ply_dir(6);
        let id = ShardId::new(2, 3).unwrap();
        let job = walk_findings_job(walk, 6);
        let mut body = b"QWALK1\n\0".to_vec();
        body.extend([0u8; 16]);
        shards::write_shard(&ply, &job, id, &body).unwrap();
    })
    .unwrap();
    assert!(report_files(&dir.join("report")) != expected);
    let _ = std::fs::remove_dir_all(&dir);

    let dir = scratch("removed");
    let e = walk(3, 3, &dir, |walk| {
        let path = walk.ply_dir(4).join("findings.1-of-3.shard");
        std::fs::remove_file(path).unwrap();
    })
    .unwrap_err();
    assert!(e.contains("findings.1-of-3.shard"), "{e}");
    assert!(
        e.contains("birdcage study quantisation --ply 4 --shard 1/3"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The findings job of a ply, as the walk names it (its files are `findings.K-of-P.shard`).
fn walk_findings_job(walk: &Walk<'_>, ply: u32) -> Job {
    walk.findings_job(ply)
}

/// A ply file cut short, or of another spec, is refused naming it and its command; the
/// walk resumes from the last finished ply (a shard removed is run again alone).
#[test]
fn damaged_or_foreign_ply_files_are_refused() {
    let dir = scratch("damaged");
    walk(3, 2, &dir, |_| {}).unwrap();
    let part = dir.join("ply-05").join("part0001.2-of-2.shard");
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() - 3]).unwrap();
    // Ply 5's findings removed: the walk resumes there and reads the damaged file.
    std::fs::remove_file(dir.join("ply-05").join("findings.2-of-2.shard")).unwrap();
    let e = walk(3, 2, &dir, |_| {}).unwrap_err();
    assert!(
        e.contains("part0001.2-of-2.shard: not a whole shard"),
        "{e}"
    );
    assert!(e.contains("--ply 4 --shard 2/2"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);

    // Another seed's walk in the same folder.
    let dir = scratch("foreign");
    walk(3, 2, &dir, |_| {}).unwrap();
    std::fs::remove_file(dir.join("ply-03").join("findings.1-of-2.shard")).unwrap();
    let mut other = options(3);
    other.seed = 2;
    let plan = QuantisationStudy::plan(&other, COMMAND).unwrap();
    let reader = plan.reader().unwrap();
    let walk = Walk::new(
        &dir,
        other.size,
        &reader,
        2,
        study::spec::<QuantisationStudy>(&other).unwrap(),
        "test",
        vec!["birdcage".into()],
    )
    .unwrap();
    let e = walk.run(&Control::unattended()).unwrap_err();
    assert!(matches!(e, WalkError::Shard(_)), "{e}");
    assert!(e.to_string().contains("not of this run"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
