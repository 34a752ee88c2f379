//! The quantisation study of the tree walked a ply at a time (`quantisation::walk`): its
//! report, merged from the plies' findings, equals byte for byte the one-process report of
//! the plain path (the whole tree held, read in one process), which shares no code with the
//! walk's partitions, shard files or merge.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};

use heuristic::Size;
use shards::{Job, Mode, Outcome, ShardId};
use studies::Control;
use studies::quantisation::{QuantisationStudy, Walk};
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

/// Runs every shard of plies 0 to `plies - 1` of the M=3 walk of seed `seed` in `dir`, in
/// `parts` partitions, then the shards `then` of ply `plies` (a walk stopped part way), then
/// with `resume` the rest of the walk.
fn walk_to(
    dir: &Path,
    seed: u64,
    parts: u32,
    (plies, then): (u32, &[u32]),
    resume: bool,
) -> Result<(), String> {
    let mut options = options(3);
    options.seed = seed;
    let plan = QuantisationStudy::plan(&options, COMMAND).unwrap();
    let reader = plan.reader().unwrap();
    let walk = Walk::new(
        dir,
        options.size,
        &reader,
        parts,
        study::spec::<QuantisationStudy>(&options).unwrap(),
        "test",
        vec!["birdcage".into()],
    )
    .unwrap();
    let control = Control::unattended();
    for ply in 0..plies {
        for id in ShardId::all(parts) {
            walk.run_shard(ply, id, &control)
                .map_err(|e| e.to_string())?;
        }
    }
    for &k in then {
        let id = ShardId::new(k, parts).unwrap();
        walk.run_shard(plies, id, &control)
            .map_err(|e| e.to_string())?;
    }
    match resume {
        true => walk.run(&control).map(|_| ()).map_err(|e| e.to_string()),
        false => Ok(()),
    }
}

/// A ply file cut short, or of another spec, is refused naming it and its command; the
/// walk resumes from the last finished ply (a shard removed is run again alone).
#[test]
fn damaged_or_foreign_ply_files_are_refused() {
    // Plies 0 to 4 run, then ply 5's input cut short: the walk resumes at ply 5 and
    // refuses it, naming the shard of ply 4 that makes it.
    let dir = scratch("damaged");
    let control = Control::unattended();
    let options = options(3);
    let plan = QuantisationStudy::plan(&options, COMMAND).unwrap();
    let reader = plan.reader().unwrap();
    let walk = Walk::new(
        &dir,
        options.size,
        &reader,
        2,
        study::spec::<QuantisationStudy>(&options).unwrap(),
        "test",
        vec!["birdcage".into()],
    )
    .unwrap();
    for ply in 0..5 {
        for id in ShardId::all(2) {
            walk.run_shard(ply, id, &control).unwrap();
        }
    }
    let part = dir.join("ply-05").join("part0001.2-of-2.shard");
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() - 3]).unwrap();
    let e = walk.run(&control).unwrap_err().to_string();
    assert!(
        e.contains("part0001.2-of-2.shard: not a whole shard"),
        "{e}"
    );
    assert!(e.contains("--ply 4 --shard 2/2"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);

    // Another seed's walk in the same folder, stopped in ply 3: its files are refused.
    let dir = scratch("foreign");
    walk_to(&dir, 2, 2, (3, &[2]), false).unwrap();
    let e = walk_to(&dir, 1, 2, (0, &[]), true).unwrap_err();
    assert!(e.contains("not of this run"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 64: a ply's input files are removed once the ply after it is finished (a shard
/// of ply k removes its partition of ply k-2 once ply k-1 is stored; the whole walk, at its
/// end, the last ply but one's), and every findings file is kept: the report, from the
/// findings alone, is still the one process's (`m3_walk_equals_the_one_process_report`).
/// Before ply k-1 is finished, ply k-2's files stay: a damaged file of ply k-1 names the
/// shard of ply k-2 that remakes it, which reads them.
#[test]
fn a_finished_plys_inputs_are_removed_and_its_findings_kept() {
    let parts_of = |dir: &Path, ply: u32| -> (usize, usize) {
        let names: Vec<String> = match std::fs::read_dir(dir.join(format!("ply-{ply:02}"))) {
            Ok(entries) => entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect(),
            Err(_) => Vec::new(),
        };
        let count = |prefix: &str| names.iter().filter(|n| n.starts_with(prefix)).count();
        (count("part"), count("findings."))
    };
    let dir = scratch("removed-inputs");
    walk(3, 3, &dir, |_| {}).unwrap();
    for ply in 0..=13 {
        let (parts, findings) = parts_of(&dir, ply);
        assert_eq!(findings, 3, "ply {ply}");
        assert_eq!(parts, if ply == 13 { 9 } else { 0 }, "ply {ply}");
    }
    let _ = std::fs::remove_dir_all(&dir);

    // Plies 0 to 5 stored and ply 6 half done: ply 6's shard 1 found ply 5 finished and
    // removed partition 0 of ply 4; partitions 1 and 2 of ply 4 stay, as do plies 5 and 6.
    let dir = scratch("removed-half");
    let options = options(3);
    let plan = QuantisationStudy::plan(&options, COMMAND).unwrap();
    let reader = plan.reader().unwrap();
    let walk = Walk::new(
        &dir,
        options.size,
        &reader,
        3,
        study::spec::<QuantisationStudy>(&options).unwrap(),
        "test",
        vec!["birdcage".into()],
    )
    .unwrap();
    let control = Control::unattended();
    for ply in 0..6 {
        for id in ShardId::all(3) {
            walk.run_shard(ply, id, &control).unwrap();
        }
    }
    walk.run_shard(6, ShardId::new(1, 3).unwrap(), &control)
        .unwrap();
    assert_eq!(parts_of(&dir, 3), (0, 3));
    assert_eq!(parts_of(&dir, 4), (6, 3));
    let names: Vec<String> = std::fs::read_dir(dir.join("ply-04"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("part0000"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
    assert_eq!(parts_of(&dir, 5), (9, 3));
    assert_eq!(parts_of(&dir, 6), (9, 1));
    assert_eq!(parts_of(&dir, 7), (3, 0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 64: the walk takes the folder's lock as the shard driver does: the whole walk and
/// the merge alone, a shard shared with the other shards and its own alone. While another
/// run holds the folder, the whole walk, a shard and the merge are refused naming it; while
/// a shard runs, a second run of it and the whole walk are refused; once released, the walk
/// runs.
#[test]
fn the_walk_takes_the_folders_lock() {
    let dir = scratch("lock");
    let mut walk_options = options(3);
    walk_options.ply_walk = Some(2);
    let mut shard_options = walk_options.clone();
    shard_options.ply = Some(0);
    let plan = QuantisationStudy::plan(&walk_options, COMMAND).unwrap();
    let job = Job::new(
        "quantisation",
        &study::spec::<QuantisationStudy>(&walk_options).unwrap(),
        "test",
        vec!["birdcage".into(), "study".into(), "quantisation".into()],
    );
    let run = |options: &CageOptions, mode: &Mode| {
        plan.run_own(options, &dir, mode, &job, &Control::unattended(), false)
            .unwrap()
            .map_err(|e| e.to_string())
    };
    let one = ShardId::new(1, 2).unwrap();
    {
        let _held = shards::lock_folder(&dir, "another walk of this folder").unwrap();
        for (options, mode) in [
            (&walk_options, Mode::Whole),
            (&walk_options, Mode::Merge(None)),
            (&shard_options, Mode::Shard(one)),
        ] {
            let e = run(options, &mode).unwrap_err();
            assert!(
                e.starts_with(&format!("{} is in use by pid ", dir.display()))
                    && e.ends_with(
                        ": another walk of this folder; wait for it to end, or use another folder"
                    ),
                "{mode:?}: {e}"
            );
        }
    }
    {
        let findings = Job::new("findings", &0, "test", Vec::new());
        let _held =
            shards::lock_shard_in(&dir, &dir.join("ply-00"), &findings, one, "ply 0 shard 1/2")
                .unwrap();
        let e = run(&shard_options, &Mode::Shard(one)).unwrap_err();
        assert!(
            e.ends_with(": ply 0 shard 1/2; wait for it to end, or use another folder"),
            "{e}"
        );
        let e = run(&walk_options, &Mode::Whole).unwrap_err();
        assert!(
            e.starts_with(&format!("{} is in use by pid ", dir.display()))
                && e.ends_with(": ply 0 shard 1/2; wait for it to end, or use another folder"),
            "{e}"
        );
        // The other shard of the ply runs beside it.
        let two = ShardId::new(2, 2).unwrap();
        run(&shard_options, &Mode::Shard(two)).unwrap();
    }
    run(&walk_options, &Mode::Whole).unwrap();
    assert!(dir.join("summary.md").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
