//! Shard files and the merge reader: whole shards merge, every bad one is refused by name
//! with the command that makes it again; the folder lock refuses a second writer.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::fs;
use std::path::Path;

use shards::{Job, ShardError, ShardId, read_shards, shard_path, write_shard};

fn job(seed: u64, version: &str) -> Job {
    Job::new(
        "demo",
        &serde_json::json!({ "seed": seed }),
        version,
        vec!["prog".into(), "demo".into(), "--out".into(), "D".into()],
    )
}

fn id(index: u32, count: u32) -> ShardId {
    ShardId { index, count }
}

/// Three shards of `job` written into `dir`, bodies "one", "two", "three".
fn three(dir: &Path, job: &Job) {
    for (k, body) in ["one", "two", "three"].iter().enumerate() {
        write_shard(dir, job, id(k as u32 + 1, 3), body.as_bytes()).unwrap();
    }
}

#[test]
fn whole_shards_come_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let job = job(1, "1");
    // Written out of order, read in order.
    for (k, body) in [(3, "three"), (1, "one"), (2, "two")] {
        let path = write_shard(dir.path(), &job, id(k, 3), body.as_bytes()).unwrap();
        assert_eq!(path, dir.path().join(format!("demo.{k}-of-3.shard")));
    }
    let bodies = read_shards(dir.path(), &job, 3).unwrap();
    assert_eq!(
        bodies,
        vec![b"one".to_vec(), b"two".to_vec(), b"three".to_vec()]
    );
    // Writing a shard again gives the same bytes.
    let before = fs::read(shard_path(dir.path(), &job, id(2, 3))).unwrap();
    write_shard(dir.path(), &job, id(2, 3), b"two").unwrap();
    assert_eq!(
        before,
        fs::read(shard_path(dir.path(), &job, id(2, 3))).unwrap()
    );
    // No temporary file stays behind.
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".shard")), "{names:?}");
}

#[test]
fn a_missing_shard_is_named_with_its_command() {
    let dir = tempfile::tempdir().unwrap();
    let job = job(1, "1");
    three(dir.path(), &job);
    fs::remove_file(shard_path(dir.path(), &job, id(2, 3))).unwrap();
    let e = read_shards(dir.path(), &job, 3).unwrap_err();
    assert!(matches!(&e, ShardError::Missing(m) if m.len() == 1 && m[0].id == id(2, 3)));
    let text = e.to_string();
    assert!(
        text.starts_with("1 of 3 shards missing: ")
            && text.contains("demo.2-of-3.shard (run `prog demo --out D --shard 2/3`)"),
        "{text}"
    );
}

#[test]
fn a_killed_write_leaves_a_temporary_file_that_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let job = job(1, "1");
    three(dir.path(), &job);
    // A shard killed mid-write: its temporary file, cut short; the shard itself not there.
    fs::remove_file(shard_path(dir.path(), &job, id(3, 3))).unwrap();
    fs::write(
        dir.path().join(".demo.3-of-3.shard.tmp-4242"),
        "birdcage shard 2\njob demo\n",
    )
    .unwrap();
    let e = read_shards(dir.path(), &job, 3).unwrap_err();
    assert!(
        matches!(&e, ShardError::Missing(m) if m.len() == 1 && m[0].id == id(3, 3)),
        "{e}"
    );
    // Run again, the merge takes it, the stray file still ignored.
    write_shard(dir.path(), &job, id(3, 3), b"three").unwrap();
    assert_eq!(read_shards(dir.path(), &job, 3).unwrap().len(), 3);
}

#[test]
fn a_corrupt_shard_is_refused() {
    let job = job(1, "1");
    type Damage = fn(Vec<u8>) -> Vec<u8>;
    let cases: [(&str, Damage); 4] = [
        ("its content hash does not match its body", |mut b| {
            let last = b.len() - 1;
            b[last] ^= 1;
            b
        }),
        ("bytes of body, its header says", |mut b| {
            b.truncate(b.len() - 2);
            b
        }),
        ("no header", |_| b"hello".to_vec()),
        ("its first line is not", |mut b| {
            b[0] = b'B';
            b
        }),
    ];
    for (why, damage) in cases {
        let dir = tempfile::tempdir().unwrap();
        three(dir.path(), &job);
        let path = shard_path(dir.path(), &job, id(2, 3));
        fs::write(&path, damage(fs::read(&path).unwrap())).unwrap();
        let e = read_shards(dir.path(), &job, 3).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, ShardError::Corrupt { .. }), "{text}");
        assert!(
            text.contains("demo.2-of-3.shard: not a whole shard") && text.contains(why),
            "{text}"
        );
        assert!(text.contains("run `prog demo --out D --shard"), "{text}");
    }
}

#[test]
fn a_repeated_shard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let job = job(1, "1");
    three(dir.path(), &job);
    fs::copy(
        shard_path(dir.path(), &job, id(1, 3)),
        dir.path().join("demo.copy.shard"),
    )
    .unwrap();
    let e = read_shards(dir.path(), &job, 3).unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(e, ShardError::Repeated { id: i, .. } if i == id(1, 3)),
        "{text}"
    );
    assert!(
        text.contains("demo.1-of-3.shard and ")
            && text.contains("demo.copy.shard both hold shard 1/3"),
        "{text}"
    );
}

#[test]
fn a_foreign_shard_is_refused() {
    // Another spec, another version, another split: each refused by name.
    let ours = job(1, "1");
    for other in [job(2, "1"), job(1, "2")] {
        let dir = tempfile::tempdir().unwrap();
        three(dir.path(), &ours);
        write_shard(dir.path(), &other, id(2, 3), b"two").unwrap();
        let e = read_shards(dir.path(), &ours, 3).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, ShardError::Foreign { .. }), "{text}");
        assert!(
            text.contains("demo.2-of-3.shard: a shard of job demo ")
                && text.contains("run `prog demo --out D --shard 2/3`"),
            "{text}"
        );
    }
    // Another version is named, with this one's: the version a shard was made by is in its
    // header.
    let dir = tempfile::tempdir().unwrap();
    three(dir.path(), &ours);
    write_shard(dir.path(), &job(1, "0.1.0+0123abc"), id(2, 3), b"two").unwrap();
    let text = read_shards(dir.path(), &ours, 3).unwrap_err().to_string();
    assert!(
        text.contains(
            "demo.2-of-3.shard: a shard of job demo made by 0.1.0+0123abc, another version of \
             the program (this one is 1), not of this run"
        ),
        "{text}"
    );
    let text = read_shards(dir.path(), &job(2, "1"), 3)
        .unwrap_err()
        .to_string();
    // Named by the input that differs (the header's `inputs` line).
    assert!(
        text.contains("(another spec: seed: theirs 1, this run's 2)"),
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    three(dir.path(), &ours);
    write_shard(dir.path(), &ours, id(1, 4), b"one").unwrap();
    let text = read_shards(dir.path(), &ours, 3).unwrap_err().to_string();
    assert!(
        text.contains("demo.1-of-4.shard: a shard of a split into 4 shards, not 3"),
        "{text}"
    );
}

#[test]
fn a_second_writer_of_a_folder_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let job = job(1, "1");
    let pid = std::process::id();
    // Tasks of one array share the folder; the same shard twice is refused.
    let a = shards::lock_shard(dir.path(), &job, id(1, 3), "shard 1/3").unwrap();
    let b = shards::lock_shard(dir.path(), &job, id(2, 3), "shard 2/3").unwrap();
    let e = shards::lock_shard(dir.path(), &job, id(1, 3), "shard 1/3 again").unwrap_err();
    assert!(
        e.to_string().contains(&format!("in use by pid {pid} on "))
            && e.to_string().contains(": shard 1/3;"),
        "{e}"
    );
    assert!(shards::shard_running(dir.path(), &job, id(1, 3)));
    assert!(!shards::shard_running(dir.path(), &job, id(3, 3)));
    // A whole run beside them is refused, naming them.
    let e = shards::lock_folder(dir.path(), "merge").unwrap_err();
    assert!(
        e.to_string().contains("in use by 2 shard tasks (pid"),
        "{e}"
    );
    drop((a, b));
    let whole = shards::lock_folder(dir.path(), "the one-process run").unwrap();
    let e = shards::lock_shard(dir.path(), &job, id(1, 3), "shard 1/3").unwrap_err();
    assert!(e.to_string().contains(": the one-process run;"), "{e}");
    let e = shards::lock_folder(dir.path(), "merge").unwrap_err();
    assert!(e.to_string().contains(": the one-process run;"), "{e}");
    drop(whole);
    shards::lock_folder(dir.path(), "merge").unwrap();
}
