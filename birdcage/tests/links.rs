//! `birdcage link` and `birdcage links` at the command line: a link from a graph file or
//! graph6, the search's report, its parts, resume and merge.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

mod support;

use support::{assert_bad_input, json, nauty, scratch_file, stdout};

/// W3 as a graph file: a pendant terminal s on a, a bridge from a to t.
const W3: &str = "\
# W3 (Steane, figure 1)
terminals s t
s a
a b
a c
b t
c t
";

#[test]
fn link_reads_a_graph_file_and_names_its_vertices() {
    let path = scratch_file("w3.txt", W3);
    let path = path.to_str().unwrap();
    let report = json(&["link", "--graph", path]);
    assert_eq!(report["strength"], "weak");
    assert_eq!(report["minimal"], true);
    assert_eq!(report["pivots"], serde_json::json!(["a"]));
    assert_eq!(report["s_reducible"], true);
    let text = stdout(&["link", "--graph", path]);
    assert!(text.contains("Strength: weak"), "{text}");
    assert!(text.contains("Minimal: yes"), "{text}");
    // One more edge, s-b: still weak (Cut opens at b), and no longer minimal.
    let more = scratch_file("w3plus.txt", &format!("{W3}s b\n"));
    let report = json(&["link", "--graph", more.to_str().unwrap()]);
    assert_eq!(report["strength"], "weak");
    assert_eq!(report["minimal"], false);
    // Only b-t is needed: without it both paths need a and c, and Cut takes one.
    assert_eq!(
        report["spectators"],
        serde_json::json!(["s-a", "s-b", "a-b", "a-c", "c-t"])
    );
}

#[test]
fn link_reads_graph6_with_terminals() {
    // The path 0-2-1 is W1; with terminals 0 and 2 it is a single edge: strong.
    let w1 = json(&["link", "--graph6", "BW"]);
    assert_eq!(w1["strength"], "weak");
    assert_eq!(w1["pivots"], serde_json::json!(["2"]));
    let edge = json(&["link", "--graph6", "BW", "--terminals", "0,2"]);
    assert_eq!(edge["strength"], "strong");
    // The edge 1-2 hangs off a terminal: deleting it changes nothing.
    assert_eq!(edge["minimal"], false);
    assert_eq!(edge["spectators"], serde_json::json!(["1-2"]));
}

#[test]
fn link_refuses_bad_input_by_name() {
    assert_bad_input(&["link", "--graph6", "B!"], "not a graph6 character");
    assert_bad_input(
        &["link", "--graph6", "BW", "--terminals", "0,3"],
        "--terminals `0,3` is not two vertex numbers",
    );
    assert_bad_input(
        &["link", "--graph6", "BW", "--terminals", "1,1"],
        "the terminals are the same vertex 1",
    );
    let parallel = scratch_file("parallel.txt", "terminals s t\ns a e1\ns a e2\na t\n");
    assert_bad_input(
        &["link", "--graph", parallel.to_str().unwrap()],
        "edges e1 and e2 join the same two vertices",
    );
    assert_bad_input(
        &["links", "--vertices", "2"],
        "error: invalid value '2' for '--vertices <N>': must be a whole number from 3 to 12",
    );
    assert_bad_input(
        &["links", "--vertices", "7", "--part", "3/2", "--out", "/tmp"],
        "error: invalid value '3/2' for '--shard <K/P>': not K/P with 1 <= K <= P (e.g. 3/16)",
    );
}

#[test]
fn links_reports_the_counts_and_writes_its_folder() {
    if !nauty() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("birdcage-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let report = json(&["links", "--vertices", "7", "--out", out]);
    assert_eq!(report["vertices"], 7);
    assert_eq!(report["minimal_weak"], 5);
    assert_eq!(report["s_irreducible"], 1);
    assert_eq!(report["minimal_strong"], 2);
    assert_eq!(report["paper"]["minimal_weak"], 5);
    let links = report["links"].as_array().unwrap();
    assert_eq!(links.len(), 5);
    // Every listed link checks out by hand with `birdcage link`.
    for link in links {
        let g6 = link["graph6"].as_str().unwrap();
        let one = json(&["link", "--graph6", g6]);
        assert_eq!(one["strength"], "weak", "{g6}");
        assert_eq!(one["minimal"], true, "{g6}");
        assert_eq!(
            one["pivots"].as_array().unwrap().len(),
            link["pivots"].as_array().unwrap().len()
        );
    }
    for file in [
        "links-7.json",
        "links-7.txt",
        "links-7-weak.svg",
        "links-7-strong.svg",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
    let svg = std::fs::read_to_string(dir.join("links-7-weak.svg")).unwrap();
    assert_eq!(
        svg.matches("<rect").count() - 1,
        2 * 5,
        "two terminals per link, one background"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn links_in_parts_resume_and_merge_to_the_same_report() {
    if !nauty() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("birdcage-parts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let whole = json(&["links", "--vertices", "9"]);
    // Two of three parts by hand (a job array would), then merge refuses, naming the gap.
    for k in ["1/3", "3/3"] {
        let text = stdout(&["links", "--vertices", "9", "--part", k, "--out", out]);
        let file = format!("links-9.{}-of-3.shard", &k[..1]);
        assert_eq!(text, format!("stored {}\n", dir.join(file).display()));
    }
    let program = std::path::Path::new(env!("CARGO_BIN_EXE_birdcage"));
    assert_bad_input(
        &["links", "--vertices", "9", "--out", out, "--merge"],
        &format!(
            "error: 1 of 3 shards missing: {} (run `{} links --vertices 9 --out {out} --shard 2/3`)",
            dir.join("links-9.2-of-3.shard").display(),
            program.display()
        ),
    );
    // A plain run on the folder keeps the split, runs only part 2, and merges.
    let part1 = dir.join("links-9.1-of-3.shard");
    let before = std::fs::metadata(&part1).unwrap().modified().unwrap();
    let resumed = json(&["links", "--vertices", "9", "--out", out]);
    assert_eq!(
        std::fs::metadata(&part1).unwrap().modified().unwrap(),
        before
    );
    assert_eq!(resumed, whole);
    let merged = json(&["links", "--vertices", "9", "--out", out, "--merge"]);
    assert_eq!(merged, whole);
    assert_eq!(whole["minimal_weak"], 36);
    // A part file cut short is refused with its name, never taken for a finished part.
    let text = std::fs::read_to_string(&part1).unwrap();
    std::fs::write(&part1, text.replace("end\n", "")).unwrap();
    assert_bad_input(
        &["links", "--vertices", "9", "--out", out, "--merge"],
        &format!("error: {}: not a whole shard (", part1.display()),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 62 item 2: a search stopped by a signal (Ctrl-C, SIGTERM) finishes the parts in hand,
/// starts no other, exits 2 and says how many parts finished and where: each of them is stored,
/// and nothing else (no report of a partial search).
#[test]
fn a_stopped_search_exits_2_naming_the_parts_it_finished() {
    if !nauty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("links");
    // 11 vertices in 4,096 parts, one at a time: tens of seconds in all, so the stop comes
    // first, and no part takes long to finish.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args([
            "links",
            "--vertices",
            "11",
            "--shards",
            "4096",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(&out)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let shards = || {
        std::fs::read_dir(&out).map_or(0, |entries| {
            entries
                .filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".shard"))
                })
                .count()
        })
    };
    let started = std::time::Instant::now();
    while shards() == 0 {
        assert!(child.try_wait().unwrap().is_none(), "the search ended");
        assert!(started.elapsed().as_secs() < 120, "no part finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let run = child.wait_with_output().unwrap();
    let err = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(2), "{err}");
    let finished = shards();
    assert_eq!(
        err.lines().last().unwrap(),
        format!(
            "error: interrupted: {finished} of 4096 parts finished; they are in {}, and the \
             same command runs the rest",
            out.display()
        )
    );
    assert!(finished < 4096);
    assert!(!out.join("links-11.json").exists() && !out.join("links-11.txt").exists());
}

/// Issue 17: an error that printed its cause and also chained it said it twice ("cannot read
/// P: Is a directory (os error 21): Is a directory (os error 21)"); now once, with the path.
#[test]
fn a_part_that_cannot_be_read_is_said_once() {
    let dir = std::env::temp_dir().join(format!("birdcage-links-said-once-{}", std::process::id()));
    let part = dir.join("links-5.1-of-1.shard");
    std::fs::create_dir_all(&part).unwrap();
    let out = support::birdcage(&[
        "links",
        "--vertices",
        "5",
        "--parts",
        "1",
        "--merge",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "error: {}: not a whole shard (a folder, not a regular file); remove it and run `{} links --vertices 5 --out {} --shard 1/1`\n",
            part.display(),
            env!("CARGO_BIN_EXE_birdcage"),
            dir.display()
        )
    );
}

/// Issue 28 item 5: the report ends with a command that checks one found link, and a person
/// can paste it into a shell as it is: run by `sh` with this build first on the PATH, it
/// succeeds and finds the link it names weak.
#[test]
fn links_ends_with_a_command_that_runs() {
    if !nauty() {
        return;
    }
    let text = stdout(&["links", "--vertices", "5"]);
    let last = text.lines().last().unwrap();
    let (_, command) = last
        .split_once(": ")
        .unwrap_or_else(|| panic!("no command on the last line: {last}"));
    assert!(command.starts_with("birdcage link --graph6 '"), "{last}");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_birdcage"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", command])
        .env("PATH", path)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("Strength: weak"), "{report}");
}

/// Issue 53: `--pruned` asks for geng with the PRUNE hook; Debian's geng has none, and the run
/// is refused in one line saying how to build one, before anything is written.
#[test]
fn pruned_without_a_pruning_geng_is_refused_naming_the_script() {
    if !nauty() {
        return;
    }
    if switching::enumerate::geng_prunes().unwrap() {
        // A geng with the hook first on PATH: the flag is met, and the search runs.
        let report = stdout(&["links", "--vertices", "7", "--pruned"]);
        assert!(
            report.contains("connected graphs           853"),
            "{report}"
        );
        return;
    }
    assert_bad_input(
        &["links", "--vertices", "7", "--pruned"],
        "has no PRUNE hook; build one with switching/nauty/build-geng.sh",
    );
    let dir = std::env::temp_dir().join(format!("birdcage-pruned-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    assert_bad_input(
        &["links", "--vertices", "7", "--pruned", "--out", out],
        "PRUNE hook",
    );
    assert!(!dir.exists(), "nothing written");
    // The flag does not stand in the way of reading parts made elsewhere.
    let status = support::birdcage(&[
        "links",
        "--vertices",
        "7",
        "--pruned",
        "--out",
        out,
        "--status",
    ]);
    let said = String::from_utf8_lossy(&status.stderr);
    assert!(!said.contains("PRUNE hook"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 62: a geng with the PRUNE hook (here a stand-in that counts 218 graphs on 7 vertices
/// and lists with Debian's geng) is taken only with the record `build-geng.sh` leaves beside
/// it, the sha256 of the prune.c it compiled, and only when that is the committed prune.c's:
/// the parts' spec then names it. Absent or another, the run is refused in one line naming
/// both.
#[test]
fn a_pruned_geng_is_named_by_its_prune_c_hash_and_refused_without_it() {
    use std::os::unix::fs::PermissionsExt;
    if !nauty() {
        return;
    }
    let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("nauty-geng"))
        .find(|p| p.is_file())
        .expect("nauty is installed");
    let dir = std::env::temp_dir().join(format!("birdcage-prune-hash-{}", std::process::id()));
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("nauty-geng");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\ncase \"$*\" in\n  *-u*) echo '>Z 218 graphs generated in 0.00 sec' >&2 ;;\n  \
             --version) echo 'Nauty&Traces version 2.8080 (32 bits)' ;;\n  \
             *) exec '{}' \"$@\" ;;\nesac\n",
            real.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let committed = switching::links::hook::prune_c_sha256();
    let record = bin.join("nauty-geng.prune-sha256");
    let run = |out: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_birdcage"))
            .args(["links", "--vertices", "7", "--out"])
            .arg(dir.join(out))
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    let refused = |out: &std::process::Output, wanted: &[&str]| {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        for w in wanted {
            assert!(err.contains(w), "{w:?} not in {err}");
        }
    };
    // No record.
    refused(
        &run("none"),
        &["nauty-geng.prune-sha256: no such file", &committed],
    );
    // Another prune.c's.
    let other = "1".repeat(64);
    std::fs::write(&record, format!("{other}\n")).unwrap();
    refused(&run("other"), &[&other, &committed]);
    // The committed one's: the run goes, and each part's spec names it.
    std::fs::write(&record, format!("{committed}\n")).unwrap();
    let out = run("same");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let named = std::fs::read_dir(dir.join("same"))
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path()).ok())
        .filter_map(|body| {
            String::from_utf8_lossy(&body)
                .lines()
                .find_map(|l| l.strip_prefix("inputs ").map(str::to_string))
        })
        .collect::<Vec<_>>();
    assert!(!named.is_empty(), "no part file with its spec");
    for inputs in named {
        assert!(
            inputs.contains(&format!("\"prune_c_sha256\":\"{committed}\"")),
            "{inputs}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
