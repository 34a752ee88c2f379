//! The driver: the one-process run and any split merged give the same report; a shard done
//! is kept; a folder of another spec is refused before any work.

use shards::{Job, Mode, ModelError, Outcome, ShardId, drive};

/// A toy job: the squares of 0..n, each shard the squares of the items it owns.
fn job(n: u64) -> Job {
    Job::new(
        "squares",
        &serde_json::json!({ "n": n }),
        "test",
        vec!["prog".into(), "--out".into(), "D".into()],
    )
}

fn run(n: u64) -> impl FnOnce(ShardId) -> Result<Vec<u8>, ModelError> {
    move |id| {
        let items: Vec<(u64, u64)> = (0..n).filter(|&i| id.owns(i)).map(|i| (i, i * i)).collect();
        Ok(serde_json::to_vec(&items).unwrap())
    }
}

fn merge(bodies: Vec<Vec<u8>>) -> Result<String, ModelError> {
    let mut all: Vec<(u64, u64)> = bodies
        .iter()
        .flat_map(|b| serde_json::from_slice::<Vec<(u64, u64)>>(b).unwrap())
        .collect();
    all.sort();
    Ok(all
        .iter()
        .map(|(_, s)| s.to_string())
        .collect::<Vec<_>>()
        .join(","))
}

#[test]
fn any_split_merges_to_the_one_process_report() {
    let whole = tempfile::tempdir().unwrap();
    let Outcome::Merged(one) = drive(whole.path(), &job(10), &Mode::Whole, run(10), merge).unwrap()
    else {
        panic!("a whole run merges")
    };
    assert_eq!(one, "0,1,4,9,16,25,36,49,64,81");
    for p in [1, 3, 10, 13] {
        let dir = tempfile::tempdir().unwrap();
        for id in ShardId::all(p) {
            let out = drive(dir.path(), &job(10), &Mode::Shard(id), run(10), merge).unwrap();
            assert!(matches!(out, Outcome::Shard { kept: false, .. }));
        }
        // P found from the files.
        let Outcome::Merged(merged) =
            drive(dir.path(), &job(10), &Mode::Merge(None), run(10), merge).unwrap()
        else {
            panic!("a merge merges")
        };
        assert_eq!(merged, one, "P = {p}");
        // A shard run again is kept, not run.
        let again = drive(
            dir.path(),
            &job(10),
            &Mode::Shard(ShardId { index: 1, count: p }),
            |_| -> Result<Vec<u8>, ModelError> { panic!("not run again") },
            merge,
        )
        .unwrap();
        assert!(matches!(again, Outcome::Shard { kept: true, .. }));
    }
}

#[test]
fn a_folder_of_another_spec_is_refused_before_work() {
    let dir = tempfile::tempdir().unwrap();
    let first = ShardId { index: 1, count: 2 };
    drive(dir.path(), &job(10), &Mode::Shard(first), run(10), merge).unwrap();
    let e = drive(
        dir.path(),
        &job(11),
        &Mode::Shard(ShardId { index: 2, count: 2 }),
        |_| -> Result<Vec<u8>, ModelError> { panic!("refused before work") },
        merge,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("squares.1-of-2.shard: a shard of job squares with spec"),
        "{e}"
    );
    // A merge that finds only the other spec's shards names them and what differs (it
    // said "holds no shards of squares" before: true, but not why).
    let e = drive(dir.path(), &job(11), &Mode::Merge(None), run(11), merge).unwrap_err();
    assert!(
        e.to_string()
            .contains("(another spec: n: theirs 10, this run's 11)"),
        "{e}"
    );
    let empty = tempfile::tempdir().unwrap();
    let e = drive(empty.path(), &job(11), &Mode::Merge(None), run(11), merge).unwrap_err();
    assert!(
        e.to_string()
            .contains("holds no shards of squares: give --shards P"),
        "{e}"
    );
}
