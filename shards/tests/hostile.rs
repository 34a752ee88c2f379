//! A folder another user can write (issue 52): a link planted where a lock or a shard's
//! temporary file goes is not followed, a FIFO named like a shard or a lock hangs nothing, a
//! header claiming four billion shards is refused in one line, and a run leaves no lock file.
#![cfg(unix)]
#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use shards::{
    FOLDER_LOCK, Job, LockError, Mode, ModelError, Outcome, ShardError, ShardId, drive,
    lock_folder, lock_shard, read_shards, shard_path, write_shard,
};

fn job() -> Job {
    Job::new(
        "demo",
        &serde_json::json!({ "seed": 1 }),
        "1",
        vec!["prog".into(), "--out".into(), "D".into()],
    )
}

fn id(index: u32, count: u32) -> ShardId {
    ShardId { index, count }
}

/// `f`'s result, or a failed test if it takes more than 10 s (a FIFO opened for reading
/// blocks until a writer comes: the regression hangs, the test must not).
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("{what} hung (or panicked)"))
}

/// The tests here run one at a time: `mkfifo` forks, and until the child execs it holds every
/// descriptor of the test process, a lock file's among them, so a lock another test has just
/// let go reads as held ("another run"): seen once on a loaded machine (stop 60's CI).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn run(id: ShardId) -> Result<Vec<u8>, ModelError> {
    Ok(format!("body {id}").into_bytes())
}

fn merge(bodies: Vec<Vec<u8>>) -> Result<usize, ModelError> {
    Ok(bodies.len())
}

#[test]
fn a_lock_planted_as_a_link_is_refused_and_its_target_untouched() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    fs::write(&victim, "precious").unwrap();
    let lock = dir.path().join(FOLDER_LOCK);
    symlink(&victim, &lock).unwrap();
    let e = lock_folder(dir.path(), "merge").unwrap_err();
    assert!(matches!(e, LockError::File(_)), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{} is a symbolic link, not a regular file: refused (remove it)",
            lock.display()
        )
    );
    assert!(lock_shard(dir.path(), &job(), id(1, 2), "shard").is_err());
    // A dangling link too: the lock is not made at its target.
    let elsewhere = dir.path().join("made-through-the-link");
    fs::remove_file(&lock).unwrap();
    symlink(&elsewhere, &lock).unwrap();
    assert!(lock_folder(dir.path(), "merge").is_err());
    assert!(!elsewhere.exists());
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
}

#[test]
fn a_shard_temporary_file_planted_as_a_link_is_not_followed() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    fs::write(&victim, "precious").unwrap();
    let job = job();
    let planted = dir
        .path()
        .join(format!(".demo.1-of-2.shard.tmp-{}", std::process::id()));
    symlink(&victim, &planted).unwrap();
    let path = write_shard(dir.path(), &job, id(1, 2), b"one").unwrap();
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    // The link stays where it was, the shard is a file of its own.
    assert!(fs::symlink_metadata(&planted).unwrap().is_symlink());
    assert!(fs::symlink_metadata(&path).unwrap().is_file());
    write_shard(dir.path(), &job, id(2, 2), b"two").unwrap();
    assert_eq!(read_shards(dir.path(), &job, 2).unwrap()[0], b"one");
}

#[test]
fn a_shard_is_not_written_onto_a_link_fifo_or_folder() {
    let _serial = serial();
    let job = job();
    type Plant = fn(&Path, &Path);
    let cases: [(&str, Plant); 3] = [
        ("a symbolic link", |at, victim| symlink(victim, at).unwrap()),
        ("a FIFO", |at, _| mkfifo(at)),
        ("a folder", |at, _| fs::create_dir(at).unwrap()),
    ];
    for (kind, plant) in cases {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let at = shard_path(dir.path(), &job, id(1, 2));
        plant(&at, &victim);
        let e = within("writing a shard", {
            let (dir, job) = (dir.path().to_path_buf(), job.clone());
            move || write_shard(&dir, &job, id(1, 2), b"one").map(|_| ())
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is {kind}, not a regular file: refused (remove it)",
                at.display()
            )
        );
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        // Nothing left beside it.
        assert_eq!(names(dir.path()), ["demo.1-of-2.shard", "victim"], "{kind}");
    }
}

#[test]
fn a_fifo_named_like_a_shard_hangs_no_mode() {
    let _serial = serial();
    let job = job();
    let dir = tempfile::tempdir().unwrap();
    write_shard(dir.path(), &job, id(1, 2), b"one").unwrap();
    write_shard(dir.path(), &job, id(2, 2), b"two").unwrap();
    let fifo = dir.path().join("demo.9.1-of-4.shard");
    mkfifo(&fifo);
    let refused = format!(
        "{}: not a whole shard (a FIFO, not a regular file); remove it",
        fifo.display()
    );
    let d = dir.path().to_path_buf();
    for mode in [
        Mode::Merge(None),
        Mode::Merge(Some(2)),
        Mode::Status(None),
        Mode::Shard(id(1, 2)),
    ] {
        let (d, job, m) = (d.clone(), job.clone(), mode.clone());
        let e = within(&format!("{mode:?}"), move || {
            drive(&d, &job, &m, run, merge).map(|_| ())
        })
        .unwrap_err();
        assert!(e.to_string().starts_with(&refused), "{mode:?}: {e}");
    }
    let j = job.clone();
    let e = within("read_shards", move || read_shards(&d, &j, 2).map(|_| ())).unwrap_err();
    assert!(matches!(e, ShardError::Corrupt { .. }), "{e}");
    // With P given, the status reports it (a FIFO named as shard 1/4 of a split into 4).
    fs::rename(&fifo, dir.path().join("demo.1-of-4.shard")).unwrap();
    let d = dir.path().to_path_buf();
    let status = within("status", move || shards::slurm::status(&d, &job, 4)).unwrap();
    let text = format!("{:?}", status.shards[0]);
    assert!(text.contains("a FIFO, not a regular file"), "{text}");
}

#[test]
fn a_fifo_named_like_a_lock_hangs_nothing() {
    let _serial = serial();
    let job = job();
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join(".demo.2-of-2.lock"));
    // Status asks whether shard 2 runs; a refused run reads the other holders' locks.
    let (d, j) = (dir.path().to_path_buf(), job.clone());
    let status = within("status", move || shards::slurm::status(&d, &j, 2)).unwrap();
    assert_eq!(status.shards.len(), 2);
    let held = lock_shard(dir.path(), &job, id(1, 2), "shard 1/2").unwrap();
    let d = dir.path().to_path_buf();
    let e = within("a refused merge", move || {
        lock_folder(&d, "merge").map(|_| ())
    })
    .unwrap_err();
    assert!(e.to_string().contains(": shard 1/2;"), "{e}");
    drop(held);
    // The shard's own lock a FIFO: refused by name, not opened.
    let e = within("a shard whose lock is a FIFO", {
        let d = dir.path().to_path_buf();
        move || lock_shard(&d, &job, id(2, 2), "shard 2/2").map(|_| ())
    })
    .unwrap_err();
    assert!(
        e.to_string().contains("is a FIFO, not a regular file"),
        "{e}"
    );
}

#[test]
fn a_header_claiming_four_billion_shards_is_refused_in_one_line() {
    let _serial = serial();
    let job = job();
    let dir = tempfile::tempdir().unwrap();
    // A whole shard of this job, its shard line altered: the merge, status and a run read
    // P from the headers.
    write_shard(dir.path(), &job, id(1, 4), b"one").unwrap();
    let path = shard_path(dir.path(), &job, id(1, 4));
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("shard 1/4\n", "shard 1/4294967295\n");
    fs::write(&path, text).unwrap();
    for mode in [Mode::Merge(None), Mode::Status(None), Mode::Shard(id(2, 4))] {
        let e = drive(dir.path(), &job, &mode, run, merge)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "{}: not a whole shard (its shard line: P = 4294967295 is more than 1000000, \
                 the most shards a job may have); remove it and run `prog --out D --shard K/P`",
                path.display()
            ),
            "{mode:?}"
        );
    }
    // With P given, the merge names it too.
    let e = read_shards(dir.path(), &job, 4).unwrap_err().to_string();
    assert!(e.contains("P = 4294967295 is more than 1000000"), "{e}");
}

#[test]
fn a_run_leaves_no_lock_file() {
    let _serial = serial();
    let job = job();
    let dir = tempfile::tempdir().unwrap();
    let Outcome::Merged(1) = drive(dir.path(), &job, &Mode::Whole, run, merge).unwrap() else {
        panic!("no report");
    };
    assert_eq!(names(dir.path()), Vec::<String>::new());
    // A shard task leaves its own lock removed, the folder's (shared) for the merge.
    for k in 1..=2 {
        drive(dir.path(), &job, &Mode::Shard(id(k, 2)), run, merge).unwrap();
    }
    assert_eq!(
        names(dir.path()),
        [FOLDER_LOCK, "demo.1-of-2.shard", "demo.2-of-2.shard"]
    );
    drive(dir.path(), &job, &Mode::Merge(None), run, merge).unwrap();
    assert_eq!(
        names(dir.path()),
        ["demo.1-of-2.shard", "demo.2-of-2.shard"]
    );
}

#[test]
fn a_lock_file_put_in_place_of_ours_is_not_removed() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join(FOLDER_LOCK);
    let held = lock_folder(dir.path(), "merge").unwrap();
    // Ours moved away, another in its place: not the file we locked, so not ours to remove.
    fs::rename(&lock, dir.path().join("moved")).unwrap();
    fs::write(&lock, "someone else's").unwrap();
    drop(held);
    assert_eq!(fs::read_to_string(&lock).unwrap(), "someone else's");
    assert!(dir.path().join("moved").exists());
}

/// Issue 62: a shard another user could have written is not trusted. A copy of a whole shard
/// of this job, claiming a split into a million (as `links-9.1-of-1000000.shard` turned a
/// half-second run into a million parts), left writable by the group, is refused by the
/// merge, the status and a shard's run, each naming it; so is one owned by another user
/// (root only: chown).
#[test]
fn a_shard_another_user_could_have_written_changes_no_plan() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let _serial = serial();
    let job = job();
    let dir = tempfile::tempdir().unwrap();
    write_shard(dir.path(), &job, id(1, 4), b"one").unwrap();
    let ours = shard_path(dir.path(), &job, id(1, 4));
    assert_eq!(
        fs::metadata(&ours).unwrap().mode() & 0o022,
        0,
        "ours are not group-writable"
    );
    let planted = shard_path(dir.path(), &job, id(1, 1_000_000));
    let text = fs::read_to_string(&ours)
        .unwrap()
        .replace("shard 1/4\n", "shard 1/1000000\n");
    fs::write(&planted, text).unwrap();
    fs::set_permissions(&planted, fs::Permissions::from_mode(0o664)).unwrap();
    for mode in [Mode::Merge(None), Mode::Status(None), Mode::Shard(id(2, 4))] {
        let e = drive(dir.path(), &job, &mode, run, merge)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "{}: not a whole shard (writable by other users (mode 664), so not trusted",
                planted.display()
            )),
            "{mode:?}: {e}"
        );
    }
    // Made private again, the same bytes are a split into a million: the plan would follow
    // it, which is why the check comes first.
    fs::set_permissions(&planted, fs::Permissions::from_mode(0o644)).unwrap();
    let e = drive(dir.path(), &job, &Mode::Merge(None), run, merge)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("different splits") || e.contains("1000000"),
        "{e}"
    );
    if shards::safe::me() != 0 {
        needs::skip_condition("root", "a shard owned by another user (chown needs root)");
        return;
    }
    let status = std::process::Command::new("chown")
        .arg("65534")
        .arg(&planted)
        .status()
        .unwrap();
    assert!(status.success());
    let e = read_shards(dir.path(), &job, 1_000_000)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("owned by uid 65534, not by this user (uid 0), so not trusted"),
        "{e}"
    );
}

/// Issue 62: `--status` said "4 done" (exit 0) over a second copy of a shard that `--merge`
/// refuses. Over every refusal case, the status is all done exactly when the merge passes,
/// and a status that is not done says why the merge refuses.
#[test]
fn status_and_merge_agree_on_every_folder() {
    use std::os::unix::fs::PermissionsExt;
    let _serial = serial();
    let job = job();
    let other = Job::new(
        "demo",
        &serde_json::json!({ "seed": 2 }),
        "1",
        vec!["prog".into()],
    );
    let whole = |dir: &Path| {
        for k in 1..=2 {
            write_shard(dir, &job, id(k, 2), format!("body {k}").as_bytes()).unwrap();
        }
    };
    type Case = (&'static str, fn(&Path, &Job, &Job));
    let cases: [Case; 6] = [
        ("whole", |_, _, _| {}),
        ("one missing", |dir, job, _| {
            fs::remove_file(shard_path(dir, job, id(2, 2))).unwrap();
        }),
        ("a second copy of a shard", |dir, job, _| {
            fs::copy(shard_path(dir, job, id(1, 2)), dir.join("demo.copy.shard")).unwrap();
        }),
        ("one cut short", |dir, job, _| {
            let path = shard_path(dir, job, id(2, 2));
            let text = fs::read(&path).unwrap();
            fs::write(&path, &text[..text.len() - 1]).unwrap();
        }),
        ("another spec's shard beside them", |dir, _, other| {
            let tmp = tempfile::tempdir().unwrap();
            write_shard(tmp.path(), other, id(1, 2), b"x").unwrap();
            fs::copy(
                shard_path(tmp.path(), other, id(1, 2)),
                dir.join("demo.other.shard"),
            )
            .unwrap();
        }),
        ("one writable by others", |dir, job, _| {
            let path = shard_path(dir, job, id(1, 2));
            fs::set_permissions(&path, fs::Permissions::from_mode(0o666)).unwrap();
        }),
    ];
    for (name, spoil) in cases {
        let dir = tempfile::tempdir().unwrap();
        whole(dir.path());
        spoil(dir.path(), &job, &other);
        let merged = drive(dir.path(), &job, &Mode::Merge(Some(2)), run, merge);
        let Ok(Outcome::Status(status)) =
            drive(dir.path(), &job, &Mode::Status(Some(2)), run, merge)
        else {
            panic!("{name}: no status");
        };
        assert_eq!(
            status.all_done(),
            merged.is_ok(),
            "{name}: {}",
            status.text(&job, dir.path())
        );
        if let Err(e) = merged {
            let text = status.text(&job, dir.path());
            let said = text.contains("the merge refuses")
                || text.contains("missing")
                || text.contains("its file is refused");
            assert!(said, "{name}: the merge says `{e}`, the status:\n{text}");
        }
    }
}
