//! The quantisation study of the tree split at a ply (`--split-ply D`): its shards merged
//! give the one-process study's report byte for byte, where the one-process report comes
//! from the plain path (the whole tree held, no `--split-ply`), not from the split code.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};

use heuristic::Size;
use shards::{Job, Mode, Outcome, ShardId};
use studies::Control;
use studies::quantisation::QuantisationStudy;
use studies::study::{self, CageOptions, Study, StudyError};

fn options(m: u32, board: Option<&str>, split_ply: Option<u32>) -> CageOptions {
    CageOptions {
        size: Size::new(m).unwrap(),
        seed: 1,
        board: board.map(str::to_string),
        boards: None,
        random_games: None,
        records: None,
        split_ply,
        ply_walk: None,
        ply: None,
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-split-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const COMMAND: &str = "birdcage study quantisation";

fn run(options: &CageOptions, dir: &Path, mode: &Mode) -> Result<Outcome<String>, StudyError> {
    let plan = QuantisationStudy::plan(options, COMMAND)?;
    let job = Job::new(
        "quantisation",
        &study::spec::<QuantisationStudy>(options)?,
        "test",
        vec!["birdcage".into()],
    );
    study::drive(&plan, dir, &job, mode, &Control::unattended(), false)
}

/// The report's files (not the shards' or the lock's), name and bytes, sorted by name.
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

/// Runs the one-process study of the M=`m` tree (the plain path) and, for each (D, P) of
/// `cuts`, its P shards split at ply D and their merge; every file of the two reports equal.
fn assert_split_is_whole(m: u32, board: Option<&str>, cuts: &[(u32, u32)]) {
    let whole_dir = scratch(&format!("whole-{m}"));
    let whole = run(&options(m, board, None), &whole_dir, &Mode::Whole).unwrap();
    let Outcome::Merged(_) = whole else {
        panic!("the one-process run writes its report")
    };
    let expected = report_files(&whole_dir);
    let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"quantisation-positions.csv"), "{names:?}");
    assert!(names.contains(&"quantisation.json"), "{names:?}");
    // The positions' CSV holds divergent rows (header and at least two), so their order and
    // indices are checked.
    let rows = expected
        .iter()
        .find(|(n, _)| n == "quantisation-positions.csv")
        .map(|(_, b)| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap();
    assert!(rows >= 3, "{rows} lines");
    for &(ply, count) in cuts {
        let dir = scratch(&format!("split-{m}-{ply}-{count}"));
        let split = options(m, board, Some(ply));
        for id in ShardId::all(count) {
            run(&split, &dir, &Mode::Shard(id)).unwrap();
        }
        let Outcome::Merged(_) = run(&split, &dir, &Mode::Merge(Some(count))).unwrap() else {
            panic!("ply {ply}: the merge writes the report")
        };
        let got = report_files(&dir);
        assert_eq!(
            got.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            expected.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            "ply {ply}, {count} shards: the same files"
        );
        for ((name, a), (_, b)) in got.iter().zip(&expected) {
            assert!(a == b, "M={m}, ply {ply}, {count} shards: {name} differs");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&whole_dir);
}

/// M=3 with every converter (the ideal ADC and both boards, so divergences, worst lists and
/// the positions' rows are all exercised), split at ply 0 (one shard: the whole walk), at
/// even plies (decisions at the frontier) and an odd one, into P shards.
#[test]
fn split_shards_merge_to_the_one_process_report() {
    assert_split_is_whole(3, None, &[(0, 1), (2, 3), (3, 4), (6, 5)]);
}

/// The same on the M=4 tree (774,118 positions; all converters), split at ply 6 into 4
/// shards and at ply 5 into 3. About a minute of release build:
/// `cargo test --release -p studies --test split -- --ignored`.
#[test]
#[ignore = "about a minute in a release build"]
fn split_m4_shards_merge_to_the_one_process_report() {
    assert_split_is_whole(4, None, &[(6, 4), (5, 3)]);
}

/// Shards of the split tree read more decisions than the tree has (positions under two
/// shards' subtrees), and the merge keeps one of each: the tree's 502 at M=3.
#[test]
fn split_shards_overlap_and_the_merge_keeps_one_each() {
    use studies::quantisation::split::run_split;
    let size = Size::new(3).unwrap();
    let converters = [studies::quantisation::Converter::Ideal];
    let bits: Vec<u8> = studies::BITS.collect();
    let study = emulator::quantisation::Quantiser::new(&converters, &bits, size).unwrap();
    let parts: Vec<_> = ShardId::all(4)
        .map(|id| run_split(size, &study, 4, id, &Control::unattended()).unwrap())
        .collect();
    let read: u64 = parts.iter().map(|p| p.decisions).sum();
    assert!(read > 502, "{read} decisions read by 4 shards");
    let (set, part) =
        studies::quantisation::split::merge(size, &bits, study.columns(), 5, &parts).unwrap();
    assert_eq!((set.len(), part.done), (901, 502));
    // A shard left out: its decisions are missing, and named.
    let error = studies::quantisation::split::merge(size, &bits, study.columns(), 5, &parts[1..])
        .unwrap_err();
    assert!(
        error.to_string().starts_with("no shard holds decision "),
        "{error}"
    );
}

/// Bad input, refused before any work with one line: a ply past every game, more shards than
/// the ply has positions (ply 0 holds the start alone), another study's set.
#[test]
fn split_bad_input_is_refused() {
    let past = QuantisationStudy::plan(&options(3, Some("ideal"), Some(14)), COMMAND).unwrap_err();
    assert_eq!(
        past.to_string(),
        "--split-ply 14: past the end of every M=3 game (13 edges, so plies 0..=13); take a \
         ply from 0 to 13"
    );
    let dir = scratch("too-many");
    let error = run(
        &options(3, Some("ideal"), Some(0)),
        &dir,
        &Mode::Shard(ShardId::new(1, 2).unwrap()),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "--split-ply 0: ply 0 of the M=3 tree has 1 position(s), fewer than the 2 shards \
         asked; take at most 1 shards or a deeper ply"
    );
    let tolerance =
        studies::tolerance::ToleranceStudy::plan(&options(3, None, Some(2)), COMMAND).unwrap_err();
    assert!(
        tolerance
            .to_string()
            .starts_with("--split-ply splits the quantisation study's tree"),
        "{tolerance}"
    );
}

/// Without `--split-ply` the spec is what it was (its JSON has no such field), so the
/// shards made before the option existed still merge.
#[test]
fn no_split_ply_leaves_the_spec_unchanged() {
    let spec = study::spec::<QuantisationStudy>(&options(3, Some("ideal"), None)).unwrap();
    assert_eq!(
        serde_json::to_string(&spec["options"]).unwrap(),
        r#"{"board":"ideal","boards":null,"random_games":null,"records":null,"seed":1,"size":3}"#
    );
    let split = study::spec::<QuantisationStudy>(&options(3, Some("ideal"), Some(2))).unwrap();
    assert_eq!(split["options"]["split_ply"], 2);
}
