//! The shard model at the command line (README, "Beyond one machine"): every sharded job's
//! merged report equals its one-process report byte for byte; bad shards are refused by name
//! with the command that remakes them; `--slurm` without Slurm, with a cluster that refuses
//! the job, and as a dry run.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{assert_bad_input, birdcage, nauty};

const BIN: &str = env!("CARGO_BIN_EXE_birdcage");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("birdcage-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ok(args: &[&str]) {
    let out = birdcage(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The report in `merged` against the one in `one`: both ways (no file missing, none extra)
/// and byte for byte, by the one comparison every test and CI use; returns how many files.
fn same_report(one: &Path, merged: &Path) -> usize {
    shards::compare::same_report(one, merged).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `args` once in one process into `one`, and as `count` shards then a merge into
/// `sharded` (shards in reverse order: order does not matter); checks the report files.
fn one_and_sharded(args: &[&str], count: u32, name: &str) -> usize {
    reference_and_sharded(args, &[], count, name)
}

/// As [`one_and_sharded`], the one-process run made with `reference` added to `args` (the
/// command's independent reference, such as `links --reference`).
fn reference_and_sharded(args: &[&str], reference: &[&str], count: u32, name: &str) -> usize {
    let (one, sharded) = (
        scratch(&format!("{name}-one")),
        scratch(&format!("{name}-sh")),
    );
    let with = |dir: &Path, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        v.extend(["--out".to_string(), dir.display().to_string()]);
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |v: Vec<String>| ok(&v.iter().map(String::as_str).collect::<Vec<_>>());
    run(with(&one, reference));
    for k in (1..=count).rev() {
        run(with(&sharded, &["--shard", &format!("{k}/{count}")]));
    }
    run(with(&sharded, &["--merge"]));
    let n = same_report(&one, &sharded);
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&sharded);
    n
}

/// The words of a text, one space apart (status tables pad their columns).
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn links_shards_merge_to_the_one_process_files() {
    if !nauty() {
        return;
    }
    // N = 7 and 8, 3 and 4 shards, against the reference (one geng run, no parts, no merge).
    fn links(n: &str) -> [&str; 5] {
        ["links", "--vertices", n, "--format", "json"]
    }
    let reference = ["--reference"];
    assert!(reference_and_sharded(&links("7"), &reference, 3, "l7") >= 4);
    assert!(reference_and_sharded(&links("8"), &reference, 4, "l8") >= 2);
    // The plain run in parts is the same report too.
    assert!(one_and_sharded(&links("7"), 3, "l7p") >= 4);
}

#[test]
fn quantisation_shards_merge_to_the_one_process_files() {
    // summary.md, JSON, three CSV files, three plots; against the study's reference (one
    // plain loop over the decisions, no shard, chunk or merge) and the one-process run.
    let args = ["study", "quantisation", "--size", "3"];
    assert_eq!(reference_and_sharded(&args, &["--reference"], 3, "q3r"), 8);
    let n = one_and_sharded(&args, 3, "q3");
    assert_eq!(n, 8);
    // More shards than some shards have decisions for: still the same bytes.
    let n = one_and_sharded(
        &["study", "quantisation", "--size", "3", "--board", "ideal"],
        7,
        "q3i",
    );
    assert_eq!(n, 8);
}

#[test]
fn tolerance_shards_merge_to_the_one_process_files() {
    // Against the study's reference (every cell over all its boards, no shard or merge) and
    // the one-process run.
    let args = ["study", "tolerance", "--size", "3", "--boards", "5"];
    let n = reference_and_sharded(&args, &["--reference"], 3, "t3r");
    assert!(n >= 4, "{n} files");
    assert_eq!(one_and_sharded(&args, 3, "t3"), n);
}

#[test]
fn pullups_shards_merge_to_the_one_process_files() {
    // summary.md, JSON, CSV, two plots; 4 shards of 5 boards: one shard draws two. Against
    // the study's reference (one plain loop, no shard, no merge) and the one-process run.
    let args = ["study", "pullups", "--size", "3", "--boards", "5"];
    assert_eq!(reference_and_sharded(&args, &["--reference"], 4, "p3r"), 5);
    assert_eq!(one_and_sharded(&args, 4, "p3"), 5);
    // Not with a shard: one line, exit 2.
    let out = scratch("p-ref");
    assert_bad_input(
        &[
            "study",
            "pullups",
            "--reference",
            "--shard",
            "1/2",
            "--out",
            out.to_str().unwrap(),
        ],
        "cannot be used with",
    );
}

#[test]
fn heuristic_shards_merge_to_the_one_process_files() {
    if !nauty() {
        return;
    }
    // summary.md, JSON, CSV, plot; shards own some families' boards and none of others'.
    // Against the study's reference (every board in plan order, no shard, chunk or merge)
    // and the one-process run.
    let args = [
        "study",
        "heuristic",
        "--seed",
        "4",
        "--max-vertices",
        "5",
        "--samples",
        "3",
    ];
    assert_eq!(reference_and_sharded(&args, &["--reference"], 3, "h5r"), 4);
    assert_eq!(one_and_sharded(&args, 3, "h5"), 4);
}

/// A shard of another spec (another seed) in the folder is refused, by the next shard before
/// it runs and by the merge, each naming the file and the command that makes the right one.
#[test]
fn a_foreign_shard_is_refused_by_name() {
    let dir = scratch("foreign");
    let out = dir.to_str().unwrap();
    let q = |seed: &str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "study",
            "quantisation",
            "--size",
            "3",
            "--seed",
            seed,
            "--out",
            out,
        ]
        .map(String::from)
        .to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let strs = |v: &[String]| v.iter().map(String::clone).collect::<Vec<_>>();
    let run = |v: Vec<String>| ok(&strs(&v).iter().map(String::as_str).collect::<Vec<_>>());
    run(q("1", &["--shard", "1/2"]));
    let second = strs(&q("2", &["--shard", "2/2"]));
    let shard1 = dir.join("quantisation.1-of-2.shard");
    let message = format!(
        "error: {}: a shard of job quantisation with spec",
        shard1.display()
    );
    assert_bad_input(
        &second.iter().map(String::as_str).collect::<Vec<_>>(),
        &message,
    );
    let merge = strs(&q("2", &["--merge", "--shards", "2"]));
    assert_bad_input(
        &merge.iter().map(String::as_str).collect::<Vec<_>>(),
        &message,
    );
    assert_bad_input(
        &merge.iter().map(String::as_str).collect::<Vec<_>>(),
        &format!("run `{BIN} study quantisation --size 3 --seed 2 --out {out} --shard 1/2`"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shard made by another commit of the program is refused by the next shard and by the
/// merge, naming that commit and this one; this program's version names the commit it was
/// built from (`git rev-parse HEAD`, where the tests run in a checkout).
#[test]
fn a_shard_of_another_commit_is_refused_naming_it() {
    let dir = scratch("commit");
    let out = dir.to_str().unwrap();
    let args = |extra: &[&'static str]| {
        let mut v = vec!["study", "quantisation", "--size", "3", "--board", "ideal"];
        v.extend(["--out", out]);
        v.extend(extra);
        v
    };
    ok(&args(&["--shard", "1/2"]));
    let path = dir.join("quantisation.1-of-2.shard");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap()
            .to_string()
    };
    let (program, spec) = (line("program "), line("spec "));
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success());
    match head {
        Some(head) => {
            let head = String::from_utf8(head.stdout).unwrap();
            assert_eq!(program, format!("birdcage 0.1.0+{}", head.trim()));
        }
        None => needs::skip(
            "git",
            "no git checkout (the version's commit is not checked)",
        ),
    }
    // The same shard as another commit made it: another version, so another spec hash.
    let other = format!("birdcage 0.1.0+{}", "0123456789".repeat(4));
    let forged = text
        .replace(
            &format!("program {program}\n"),
            &format!("program {other}\n"),
        )
        .replace(
            &format!("spec {spec}\n"),
            &format!("spec {}\n", "0".repeat(64)),
        );
    assert_ne!(forged, text);
    std::fs::write(&path, forged).unwrap();
    let message = format!(
        "{}: a shard of job quantisation made by {other}, another version of the program (this one is {program})",
        path.display()
    );
    assert_bad_input(&args(&["--shard", "2/2"]), &message);
    assert_bad_input(&args(&["--merge", "--shards", "2"]), &message);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shard killed while writing leaves its temporary file: ignored, and the shard is missing.
#[test]
fn a_killed_shard_is_missing_and_its_temporary_file_ignored() {
    let dir = scratch("killed");
    let out = dir.to_str().unwrap();
    ok(&[
        "study",
        "quantisation",
        "--size",
        "3",
        "--out",
        out,
        "--shard",
        "1/2",
    ]);
    std::fs::write(
        dir.join(".quantisation.2-of-2.shard.tmp-4242"),
        "birdcage shard 2\njob quantisation\n",
    )
    .unwrap();
    assert_bad_input(
        &[
            "study",
            "quantisation",
            "--size",
            "3",
            "--out",
            out,
            "--merge",
        ],
        &format!(
            "error: 1 of 2 shards missing: {} (run `{BIN} study quantisation --size 3 --seed 1 --out {out} --shard 2/2`)",
            dir.join("quantisation.2-of-2.shard").display()
        ),
    );
    // A shard missing: the states on stdout, and exit 3, so that a script waiting on the
    // status does not take it for done.
    let status_args = [
        "study",
        "quantisation",
        "--size",
        "3",
        "--out",
        out,
        "--status",
    ];
    let status = birdcage(&status_args);
    assert_eq!(status.status.code(), Some(3), "{status:?}");
    let status = words(&String::from_utf8(status.stdout).unwrap());
    assert!(
        status.contains("shard 1/2 done shard 2/2 missing"),
        "{status}"
    );
    ok(&[
        "study",
        "quantisation",
        "--size",
        "3",
        "--out",
        out,
        "--shard",
        "2/2",
    ]);
    ok(&[
        "study",
        "quantisation",
        "--size",
        "3",
        "--out",
        out,
        "--merge",
    ]);
    assert!(dir.join("summary.md").exists());
    // Every shard done: exit 0.
    let status = support::stdout(&status_args);
    assert!(
        words(&status).contains("2 done, 0 running, 0 failed, 0 missing"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU parallel runs the shards as any engine would: the same merged bytes.
#[test]
fn parallel_runs_the_shards_to_the_same_report() {
    match Command::new("parallel").arg("--version").output() {
        Ok(out) => assert!(out.status.success(), "parallel --version: {out:?}"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            needs::skip("parallel", "no parallel");
            return;
        }
        Err(e) => panic!("parallel is installed but does not start: {e}"),
    }
    let (one, sharded) = (scratch("par-one"), scratch("par-sh"));
    ok(&[
        "study",
        "quantisation",
        "--size",
        "3",
        "--out",
        one.to_str().unwrap(),
    ]);
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "seq 4 | parallel -j 2 '{BIN}' study quantisation --size 3 --out '{}' --shard {{}}/4",
            sharded.display()
        ))
        .status()
        .unwrap();
    assert!(status.success());
    ok(&[
        "study",
        "quantisation",
        "--size",
        "3",
        "--out",
        sharded.to_str().unwrap(),
        "--merge",
    ]);
    assert_eq!(same_report(&one, &sharded), 8);
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&sharded);
}

/// A folder of fake Slurm client programs (shell scripts), put first on the PATH.
fn fake_slurm(name: &str, sbatch: &str) -> PathBuf {
    let bin = scratch(name);
    std::fs::create_dir_all(&bin).unwrap();
    for (program, body) in [
        ("sbatch", sbatch),
        ("squeue", "exit 0"),
        ("scancel", "exit 0"),
        // A cluster without accounting, as sacct says it (Slurm 22.05).
        (
            "sacct",
            "echo 'Slurm accounting storage is disabled' >&2; exit 1",
        ),
        // The controller remembers task 100_1, timed out; not 100_3 (cancelled while queued).
        (
            "scontrol",
            "case \"$*\" in *100*) echo 'JobId=103 ArrayJobId=100 ArrayTaskId=1 JobName=links-9 JobState=TIMEOUT Reason=TimeLimit Dependency=(null) ExitCode=0:15' ;; esac",
        ),
    ] {
        let path = bin.join(program);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// Runs the binary with `path` first on the PATH, then /usr/bin and /bin (the fakes' shell
/// tools), except for the empty folder that stands for "no Slurm installed".
fn birdcage_with_path(path: &str, args: &[&str]) -> std::process::Output {
    let path = if path.ends_with("empty-path") {
        path.to_string()
    } else {
        format!("{path}:/usr/bin:/bin")
    };
    Command::new(BIN)
        .args(args)
        .env("PATH", path)
        .output()
        .unwrap()
}

#[test]
fn slurm_without_sbatch_says_how_to_install_it() {
    let dir = scratch("no-sbatch");
    let empty = scratch("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let out = birdcage_with_path(
        empty.to_str().unwrap(),
        &[
            "study",
            "quantisation",
            "--size",
            "3",
            "--out",
            dir.to_str().unwrap(),
            "--slurm",
            "--shards",
            "4",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: sbatch not found: install Slurm's client (Debian: apt-get install slurm-wlm) or run the shards with any engine (--shard K/P, then --merge)\n"
    );
}

#[test]
fn a_rejected_job_prints_sbatchs_message_verbatim() {
    let dir = scratch("rejected");
    let bin = fake_slurm(
        "fake-reject",
        "echo 'sbatch: error: Batch job submission failed: Invalid partition name specified' >&2; exit 1",
    );
    let out = birdcage_with_path(
        bin.to_str().unwrap(),
        &[
            "study",
            "quantisation",
            "--size",
            "3",
            "--out",
            dir.to_str().unwrap(),
            "--slurm",
            "--shards",
            "4",
            "--partition",
            "nope",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: sbatch refused the job: sbatch: error: Batch job submission failed: Invalid partition name specified\n"
    );
    // A flood is cut to a bounded line.
    let flood = fake_slurm(
        "fake-flood",
        "head -c 100000 /dev/zero | tr '\\0' x >&2; exit 1",
    );
    let out = birdcage_with_path(
        flood.to_str().unwrap(),
        &[
            "study",
            "quantisation",
            "--size",
            "3",
            "--out",
            dir.to_str().unwrap(),
            "--slurm",
            "--shards",
            "4",
        ],
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.len() < 2200 && err.ends_with("(100000 bytes in all)\n"),
        "{err}"
    );
}

#[test]
fn slurm_submits_an_array_and_a_merge_after_it() {
    // The shards it runs between submissions are links', which reads nauty's graphs.
    if !nauty() {
        return;
    }
    let dir = scratch("submit");
    let log = dir.join("sbatch.log");
    std::fs::create_dir_all(&dir).unwrap();
    // The fake sbatch logs its arguments and answers job id 100 for an array, 101 for a merge.
    let bin = fake_slurm(
        "fake-ok",
        &format!(
            "echo \"$*\" >> '{log}'; case \"$*\" in *merge*) echo 101 ;; *) echo 100 ;; esac",
            log = log.display()
        ),
    );
    let out = birdcage_with_path(
        bin.to_str().unwrap(),
        &[
            "links",
            "--vertices",
            "9",
            "--out",
            dir.to_str().unwrap(),
            "--slurm",
            "--shards",
            "8",
            "--at-once",
            "2",
        ],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("submitted array job 100 (8 shards: 1-8) and merge job 101 (afterok)\n"),
        "{text}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let array = dir.join("links-9.slurm-array.sh");
    let merge = dir.join("links-9.slurm-merge.sh");
    assert_eq!(
        calls,
        format!(
            "--parsable {}\n--parsable --dependency=afterok:100 {}\n",
            array.display(),
            merge.display()
        )
    );
    let script = std::fs::read_to_string(&array).unwrap();
    assert!(script.contains("#SBATCH --array=1-8%2\n"), "{script}");
    assert!(
        script.contains(&format!(
            "exec {BIN} links --vertices 9 --out {} --shard \"${{SLURM_ARRAY_TASK_ID}}/8\"\n",
            dir.display()
        )),
        "{script}"
    );
    // Two shards done: a resubmission (the first array gone from the queue) takes the rest.
    ok(&[
        "links",
        "--vertices",
        "9",
        "--out",
        dir.to_str().unwrap(),
        "--shard",
        "2/8",
    ]);
    ok(&[
        "links",
        "--vertices",
        "9",
        "--out",
        dir.to_str().unwrap(),
        "--shard",
        "5/8",
    ]);
    let status = birdcage_with_path(
        bin.to_str().unwrap(),
        &[
            "links",
            "--vertices",
            "9",
            "--out",
            dir.to_str().unwrap(),
            "--status",
        ],
    );
    assert_eq!(status.status.code(), Some(3), "failed shards: {status:?}");
    let status = words(&String::from_utf8(status.stdout).unwrap());
    // Why, from scontrol (sacct refuses: no accounting), with what to do.
    assert!(
        status.contains("shard 1/8 failed (task 100_1 timed out after its --time; raise --time, then the same --slurm command resubmits it) [scontrol]"),
        "{status}"
    );
    assert!(
        status.contains("shard 2/8 done shard 3/8 failed (task 100_3 cancelled before it started (no record in Slurm, no log); the same --slurm command resubmits it) [scontrol]"),
        "{status}"
    );
    let out = birdcage_with_path(
        bin.to_str().unwrap(),
        &[
            "links",
            "--vertices",
            "9",
            "--out",
            dir.to_str().unwrap(),
            "--slurm",
            "--shards",
            "8",
        ],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("2 of 8 shards done, 0 still queued or running; submitted array job 100 (6 shards: 1,3-4,6-8)"),
        "{text}"
    );
    // A dry run writes the scripts and submits nothing.
    let dry = scratch("dry");
    let out = birdcage_with_path(
        bin.to_str().unwrap(),
        &[
            "study",
            "quantisation",
            "--size",
            "3",
            "--out",
            dry.to_str().unwrap(),
            "--slurm",
            "--shards",
            "4",
            "--dry-run",
            "--time",
            "00:10:00",
            "--mem",
            "300M",
        ],
    );
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("dry run: nothing submitted")
    );
    let script = std::fs::read_to_string(dry.join("quantisation.slurm-array.sh")).unwrap();
    assert!(
        script.contains("#SBATCH --time=00:10:00\n#SBATCH --mem=300M\n"),
        "{script}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 4);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dry);
}

/// A profile file enters a study's spec by its contents (issue 49: by its path, a shard made
/// before an edit of the file merged with one made after it, without a word).
#[test]
fn a_profile_file_edited_between_shards_refuses_the_merge() {
    let dir = scratch("edited-profile");
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("board.toml");
    let out = dir.join("out");
    let args = |extra: &str| -> Vec<String> {
        let mut v: Vec<String> = ["study", "quantisation", "--size", "3", "--board"]
            .map(String::from)
            .to_vec();
        v.push(profile.display().to_string());
        v.extend(["--out".into(), out.display().to_string()]);
        v.extend(extra.split_whitespace().map(String::from));
        v
    };
    let run = |extra: &str| birdcage(&args(extra).iter().map(String::as_str).collect::<Vec<_>>());
    std::fs::write(
        &profile,
        "base = \"nucleo-f446re\"\nname = \"mine\"\n[adc]\nbits_used = 12\n",
    )
    .unwrap();
    let first = run("--shard 1/2");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    std::fs::write(
        &profile,
        "base = \"nucleo-f446re\"\nname = \"mine\"\n[adc]\nbits_used = 11\n",
    )
    .unwrap();
    let second = run("--shard 2/2");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    // Named by the input that differs, not only "another spec".
    assert!(
        stderr.contains("another spec: board_profile_sha256: theirs "),
        "{stderr}"
    );
    let merge = run("--merge");
    assert_ne!(merge.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&merge.stderr);
    assert!(stderr.contains("board_profile_sha256"), "{stderr}");
    assert!(
        !out.join("summary.md").exists(),
        "a report was written from mixed shards"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fake sbatch that runs what it is given at once, in order (each array's tasks one after
/// another, `SLURM_ARRAY_TASK_ID` set; a merge script as it is), their output into `ran`,
/// logs its arguments into `log` and answers job ids 100, 101, …; a task whose
/// task named in `skip` (`PLY/K`: task K of the array whose script is in folder `ply-PLY`)
/// is not run the first time, as if cancelled before it started.
fn running_sbatch(log: &Path, ran: &Path, skip: &str) -> String {
    format!(
        r#"echo "$*" >> '{log}'
for script; do :; done
n=$(cat '{log}.n' 2>/dev/null || echo 100); echo $((n + 1)) > '{log}.n'
list=$(sed -n 's/^#SBATCH --array=\([0-9,-]*\).*/\1/p' "$script")
if [ -z "$list" ]; then sh "$script" >> '{ran}' 2>&1 || echo "merge failed" >> '{ran}'; fi
ply=$(basename "$(dirname "$script")" | sed -n 's/^ply-0*\([0-9]\)/\1/p')
for r in $(echo "$list" | tr ',' ' '); do
  case $r in *-*) a=${{r%-*}}; b=${{r#*-}} ;; *) a=$r; b=$r ;; esac
  for k in $(seq "$a" "$b"); do
    case " {skip} " in *" $ply/$k "*)
      if [ ! -e '{log}.skipped' ]; then touch '{log}.skipped'; continue; fi ;;
    esac
    SLURM_ARRAY_TASK_ID=$k sh "$script" >> '{ran}' 2>&1 || echo "task ${{n}}_$k failed" >> '{ran}'
  done
done
echo "$n""#,
        log = log.display(),
        ran = ran.display(),
    )
}

/// Issue 64: `--slurm` under `--ply-walk P` submits a job array of P tasks per ply, from the
/// ply in hand to the last an M=3 game can reach (its 13 edges: plies 0 to 13), each after
/// the one before it (`afterok`, killed with it), then the merge after the last. Run by a
/// fake sbatch that runs each script as it is submitted, the walk's report equals the
/// one-process walk's file for file. A task that never ran stops the walk at its ply:
/// `--status` names the ply, the shard and why its task left (from scontrol); the same
/// `--slurm` command then resubmits that shard alone and the plies after it.
#[test]
fn slurm_walks_a_ply_array_after_another_then_merges() {
    let dir = scratch("slurm-walk");
    let one = scratch("slurm-walk-one");
    let fake = scratch("slurm-walk-fake");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&fake).unwrap();
    let (log, ran) = (fake.join("sbatch.log"), fake.join("ran.log"));
    let walk = |out: &Path, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["study", "quantisation", "--size", "3", "--ply-walk", "2"]
            .map(String::from)
            .to_vec();
        args.extend(["--out".to_string(), out.display().to_string()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    ok(&walk(&one, &[])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    // Task 2 of ply 5's array never runs (cancelled while queued); scontrol says so.
    let bin = fake_slurm("slurm-walk-bin", &running_sbatch(&log, &ran, "5/2"));
    let scontrol = bin.join("scontrol");
    std::fs::write(
        &scontrol,
        "#!/bin/sh\ncase \"$*\" in *105*) echo 'JobId=120 ArrayJobId=105 ArrayTaskId=2 JobName=findings JobState=OUT_OF_MEMORY Reason=OutOfMemory Dependency=(null) ExitCode=0:125' ;; esac\n",
    )
    .unwrap();
    let submit = walk(&dir, &["--slurm", "--shards", "2", "--mem", "300M"]);
    let submit: Vec<&str> = submit.iter().map(String::as_str).collect();
    let out = birdcage_with_path(bin.to_str().unwrap(), &submit);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("plies 0 to 13 (the last an M=3 game can reach"),
        "{text}"
    );
    assert!(
        text.contains("submitted 14 array jobs (100 to 113), each after the one before it (afterok), and merge job 114 after the last"),
        "{text}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 15, "{calls:?}");
    let d = dir.display();
    assert_eq!(
        calls[0],
        format!("--parsable {d}/ply-00/findings.slurm-array.sh")
    );
    for (ply, call) in calls.iter().enumerate().take(14).skip(1) {
        assert_eq!(
            *call,
            format!(
                "--parsable --dependency=afterok:{} --kill-on-invalid-dep=yes {d}/ply-{ply:02}/findings.slurm-array.sh",
                99 + ply
            )
        );
    }
    assert_eq!(
        calls[14],
        format!(
            "--parsable --dependency=afterok:113 --kill-on-invalid-dep=yes {d}/quantisation-walk.slurm-merge.sh"
        )
    );
    let script = std::fs::read_to_string(dir.join("ply-07/findings.slurm-array.sh")).unwrap();
    for line in [
        "#SBATCH --array=1-2\n".to_string(),
        "#SBATCH --mem=300M\n".to_string(),
        format!("#SBATCH --output={d}/ply-07/findings.slurm-%A_%a.out\n"),
        format!(
            "exec {BIN} study quantisation --size 3 --seed 1 --out {d} --ply-walk 2 --ply 7 --shard \"${{SLURM_ARRAY_TASK_ID}}/2\"\n"
        ),
    ] {
        assert!(script.contains(&line), "{line} not in\n{script}");
    }
    let merge = std::fs::read_to_string(dir.join("quantisation-walk.slurm-merge.sh")).unwrap();
    assert!(
        merge.contains(&format!(
            "exec {BIN} study quantisation --size 3 --seed 1 --out {d} --ply-walk 2 --merge\n"
        )),
        "{merge}"
    );
    // Ply 5's task 2 never ran: the plies after it and the merge had nothing to read.
    assert!(!dir.join("summary.md").exists());
    let status = walk(&dir, &["--status"]);
    let status: Vec<&str> = status.iter().map(String::as_str).collect();
    let out = birdcage_with_path(bin.to_str().unwrap(), &status);
    assert_eq!(out.status.code(), Some(3));
    let text = words(&String::from_utf8(out.stdout).unwrap());
    assert!(
        text.starts_with("plies 0 to 4 finished; ply 5: 1 of 2 shards not done: 2/2"),
        "{text}"
    );
    assert!(
        text.contains("shard 1/2 done shard 2/2 failed (task 105_2 ran out of memory"),
        "{text}"
    );
    // While a task of the earlier chain is still queued, a second chain is refused: it
    // would run that shard twice.
    let squeue = bin.join("squeue");
    std::fs::write(&squeue, "#!/bin/sh\necho '105|2|PD'\n").unwrap();
    let out = birdcage_with_path(bin.to_str().unwrap(), &submit);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: jobs of an earlier submission are still queued or running (105_2): wait for them to end, or cancel them (scancel 105), then submit again\n"
    );
    std::fs::write(&squeue, "#!/bin/sh\nexit 0\n").unwrap();
    // A dry run writes the scripts and submits nothing.
    let dry = walk(&dir, &["--slurm", "--shards", "2", "--dry-run"]);
    let dry: Vec<&str> = dry.iter().map(String::as_str).collect();
    let out = birdcage_with_path(bin.to_str().unwrap(), &dry);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("dry run: nothing submitted")
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 15);
    std::fs::write(&ran, "").unwrap();
    // Resubmitted: ply 5's shard 2 alone, then every shard of plies 6 to 13, then the merge.
    let out = birdcage_with_path(bin.to_str().unwrap(), &submit);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("plies 5 to 13"), "{text}");
    let script = std::fs::read_to_string(dir.join("ply-05/findings.slurm-array.sh")).unwrap();
    assert!(script.contains("#SBATCH --array=2\n"), "{script}");
    let ran_log = std::fs::read_to_string(&ran).unwrap();
    assert!(!ran_log.contains("failed"), "{ran_log}");
    assert_eq!(same_report(&one, &dir), 8);
    // Every finished ply's inputs are gone but the last's; every findings file is kept.
    for ply in 0..=13 {
        let names: Vec<String> = std::fs::read_dir(dir.join(format!("ply-{ply:02}")))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let parts = names.iter().filter(|n| n.starts_with("part")).count();
        let findings = names
            .iter()
            .filter(|n| n.starts_with("findings.") && n.ends_with(".shard"))
            .count();
        assert_eq!(findings, 2, "ply {ply}: {names:?}");
        assert_eq!(parts, if ply >= 12 { 4 } else { 0 }, "ply {ply}: {names:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&fake);
}
