//! The READMEs agree with the program: every runnable `birdcage` line in them (the marking:
//! `tests/runnable/mod.rs`) exits and prints as written, and the README's CLI summary names
//! every subcommand and option that `--help` lists; the crate tables of README.md and
//! docs/DESIGN.md name every workspace member and only items the code has (`tests/rows`).

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::Path;
use std::time::Duration;

mod rows;
mod runnable;

use runnable::{Command, Item, Ran, check, parse};

#[test]
fn every_runnable_birdcage_line_exits_and_prints_as_its_readme_says() {
    let ran = runnable::run_all("birdcage", Path::new(env!("CARGO_BIN_EXE_birdcage")));
    assert!(
        ran >= 10,
        "only {ran} runnable birdcage lines in the READMEs"
    );
}

/// `--help` is the truth: README's CLI summary has a line for every subcommand (`study`'s
/// every study, `export`'s every format), naming each of its options and possible values.
#[test]
fn the_cli_summary_names_every_subcommand_option_and_value() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let summary = runnable::summary(&readme, "## The CLI");
    assert!(summary.len() > 10, "{summary:?}");
    let missing = runnable::check_summary(
        "birdcage",
        Path::new(env!("CARGO_BIN_EXE_birdcage")),
        &summary,
    );
    assert!(
        missing.is_empty(),
        "README.md, The CLI:\n{}",
        missing.join("\n")
    );
}

/// A block marked as needing a tool carries the tool's name to each of its commands, and only
/// those: the runner skips them, saying so, on a machine without it (a bare Debian machine has
/// no nauty).
#[test]
fn a_block_that_needs_a_tool_names_it_on_each_command() {
    let readme = "\
<!-- runnable -->\n\
```sh\n\
birdcage link --graph6 'FDYI_'   # => Link\n\
```\n\
<!-- runnable, needs nauty-geng -->\n\
```sh\n\
birdcage links --vertices 9   # => Minimal\n\
birdcage links --vertices 8   # => Minimal\n\
```\n";
    let needs: Vec<Option<String>> = parse(Path::new("README.md"), readme)
        .into_iter()
        .map(|item| match item {
            Item::Run(c) => c.needs,
            Item::File { .. } => panic!("no file here"),
        })
        .collect();
    let geng = Some("nauty-geng".to_string());
    assert_eq!(needs, [None, geng.clone(), geng]);
}

/// The marking read from a made-up README, and the check it implies: a changed exit status
/// or first line fails.
#[test]
fn a_changed_exit_status_or_first_line_fails_the_check() {
    let readme = "\
text\n\
<!-- file: g.txt -->\n\
```\n\
terminals s t\n\
```\n\
<!-- runnable -->\n\
```sh\n\
# a comment\n\
cargo run --release -p birdcage -- next --size 4 --moves A7   # => c7\n\
birdcage graph --size 3 > cage3.txt\n\
```\n\
<!-- runnable -->\n\
```\n\
$ birdcage solve --size 9\n\
error: bad size\n\
$ birdcage link \\\n\
    --graph6 'FDYI_'\n\
Link between 0 and 1: 7 vertices (weight 5), 8 edges.\n\
Strength: weak\n\
…\n\
```\n";
    let items = parse(Path::new("README.md"), readme);
    let Item::File { name, text } = &items[0] else {
        panic!("{items:?}")
    };
    assert_eq!((name.as_str(), text.as_str()), ("g.txt", "terminals s t\n"));
    let commands: Vec<&Command> = items
        .iter()
        .filter_map(|i| match i {
            Item::Run(c) => Some(c),
            Item::File { .. } => None,
        })
        .collect();
    let lines: Vec<&str> = commands.iter().map(|c| c.line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "birdcage next --size 4 --moves A7",
            "birdcage graph --size 3 > cage3.txt",
            "birdcage solve --size 9",
            "birdcage link --graph6 'FDYI_'",
        ]
    );
    assert_eq!(commands[0].place, "README.md:9");
    let ran = |code: i32, stdout: &str, stderr: &str| Ran {
        code: Some(code),
        stdout: stdout.to_string(),
        stderr: stderr.to_string(),
        took: Duration::ZERO,
    };
    // As written.
    assert_eq!(check(commands[0], &ran(0, "c7\n", "")), Ok(()));
    assert_eq!(check(commands[1], &ran(0, "", "")), Ok(()));
    assert_eq!(check(commands[2], &ran(2, "", "error: bad size\n")), Ok(()));
    let link = "Link between 0 and 1: 7 vertices (weight 5), 8 edges.\nStrength: weak\nmore\n";
    assert_eq!(check(commands[3], &ran(0, link, "")), Ok(()));
    // Changed.
    let wrong = check(commands[0], &ran(0, "c5\n", "")).unwrap_err();
    assert!(
        wrong.contains("printed `c5` where the README shows `c7`"),
        "{wrong}"
    );
    let wrong = check(commands[0], &ran(2, "c7\n", "error: no")).unwrap_err();
    assert!(
        wrong.contains("exited with Some(2), the README says 0"),
        "{wrong}"
    );
    assert!(check(commands[1], &ran(1, "", "")).is_err());
    assert!(check(commands[2], &ran(0, "", "error: bad size\n")).is_err());
    assert!(check(commands[2], &ran(2, "", "error: another\n")).is_err());
    assert!(
        check(
            commands[3],
            &ran(0, "Link between 0 and 1\nStrength: weak\n", "")
        )
        .is_err()
    );
    assert!(
        check(
            commands[3],
            &ran(
                0,
                "Link between 0 and 1: 7 vertices (weight 5), 8 edges.\n",
                ""
            )
        )
        .is_err()
    );
}

#[test]
#[should_panic(expected = "README.md:3: `birdcage solve --size 3` pins nothing")]
fn a_runnable_line_that_pins_nothing_is_refused() {
    parse(
        Path::new("README.md"),
        "<!-- runnable -->\n```sh\nbirdcage solve --size 3\n```\n",
    );
}

#[test]
#[should_panic(expected = "README.md:3: a runnable line runs birdcage or hil-tests")]
fn a_runnable_line_of_another_program_is_refused() {
    parse(
        Path::new("README.md"),
        "<!-- runnable -->\n```sh\ncargo test --workspace   # => ok\n```\n",
    );
}

/// Every relative link of the docs (the READMEs and `docs/`) names a file a clone has, and no
/// doc sends the reader to the team's folder beside the repository (`../shared/`).
#[test]
fn every_link_of_the_docs_points_into_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut docs = runnable::readmes();
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        docs.push(entry.unwrap().path());
    }
    let mut broken = Vec::new();
    let mut links = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        if text.contains("../shared/") {
            broken.push(format!("{}: mentions ../shared/", doc.display()));
        }
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or("");
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let file = target.split('#').next().unwrap_or("");
            links += 1;
            if !doc.parent().unwrap().join(file).exists() {
                broken.push(format!("{}: ({target})", doc.display()));
            }
        }
    }
    assert!(links > 20, "only {links} relative links");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// `man --dir` refuses a FIFO where a page goes (writing it would block until a reader came),
/// before it writes any page.
#[test]
fn man_dir_refuses_a_fifo_where_a_page_goes() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("birdcage-analyze.1");
    // coreutils' mkfifo is on every machine: one that fails is a failure, not a skip.
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.as_ref().is_ok_and(|s| s.success()), "mkfifo: {made:?}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_birdcage"))
        .args(["man", "--dir"])
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("man --dir did not end in 60 s: it opened the FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("birdcage-analyze.1 is not a regular file"),
        "{err}"
    );
    assert!(
        !dir.path().join("birdcage.1").exists(),
        "no page written before the refusal"
    );
}

/// The man pages name no page that does not exist: `man --dir` writes `birdcage.1` and one
/// page for every subcommand (`export`'s too), every `NAME(1)` any of them refers to is one
/// of them, and `birdcage man` prints the same `birdcage.1`.
#[test]
fn every_page_the_man_pages_name_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_birdcage");
    let run = |args: &[&str]| std::process::Command::new(exe).args(args).output().unwrap();
    let out = run(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut pages: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    for page in [
        "birdcage.1",
        "birdcage-study.1",
        "birdcage-export-spice.1",
        "birdcage-man.1",
    ] {
        assert!(pages.iter().any(|p| p == page), "{page} in {pages:?}");
    }
    assert!(!pages.iter().any(|p| p == "birdcage-help.1"), "{pages:?}");
    let mut named = 0;
    for page in &pages {
        let roff = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(roff.contains(".TH "), "{page}");
        let roff = roff.replace("\\-", "-");
        for (at, _) in roff.match_indices("(1)") {
            let name: String = roff[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            named += 1;
            assert!(
                pages.contains(&format!("{name}.1")),
                "{page} names {name}(1), which is not written"
            );
        }
    }
    assert!(named >= 15, "{named} pages named");
    let top = run(&["man"]);
    assert!(top.status.success());
    assert_eq!(
        String::from_utf8(top.stdout).unwrap(),
        std::fs::read_to_string(dir.path().join("birdcage.1")).unwrap()
    );
    // A file where the folder goes: one line, exit 2.
    let file = dir.path().join("birdcage.1");
    let out = run(&["man", "--dir", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("error: --dir {}: a file, not a folder\n", file.display())
    );
}

/// Every block of commands in every README is run by a test, or by CI through a file that
/// names the README, or says why nothing runs it (issue 63: the docs' commands true).
#[test]
fn every_command_block_in_every_readme_is_run_or_says_why_not() {
    let wrong: Vec<String> = runnable::readmes()
        .iter()
        .flat_map(|readme| runnable::unmarked(readme, &std::fs::read_to_string(readme).unwrap()))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check above, on a made-up README: an unmarked block, a reason left empty and a
/// runner that does not exist fail; the marked blocks and a `rust` block pass.
#[test]
fn an_unmarked_command_block_fails_the_check() {
    let readme = "\
<!-- runnable -->\n\
```sh\n\
birdcage next --size 4 --moves A7   # => c7\n\
```\n\
```sh\n\
cargo test -p emulator\n\
```\n\
<!-- not run: -->\n\
```sh\n\
cargo fw-run\n\
```\n\
<!-- not run: needs a NUCLEO -->\n\
```sh\n\
cargo fw-run\n\
```\n\
<!-- run by: no/such/file.rs -->\n\
```\n\
$ hil-tests doctor\n\
```\n\
```rust\n\
let x = 1;\n\
```\n";
    let wrong = runnable::unmarked(Path::new("README.md"), readme);
    assert_eq!(wrong.len(), 3, "{wrong:#?}");
    assert!(
        wrong[0].starts_with("README.md:5: commands that nothing runs"),
        "{}",
        wrong[0]
    );
    assert!(
        wrong[1].starts_with("README.md:9: `not run:` says no reason"),
        "{}",
        wrong[1]
    );
    assert!(
        wrong[2].starts_with("README.md:17: `run by: no/such/file.rs`: cannot read"),
        "{}",
        wrong[2]
    );
}

/// The root folder, and the workspace its manifests describe.
fn workspace() -> rows::Workspace {
    rows::Workspace::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

/// README's and DESIGN's crate tables against the code: a row per workspace member, and each
/// module, type, function, feature, variable and file a row names where the row says.
#[test]
fn the_crate_tables_name_every_member_and_only_what_the_code_has() {
    let ws = workspace();
    let read = |doc: &str| std::fs::read_to_string(ws.root.join(doc)).unwrap();
    let (readme, design) = (read("README.md"), read("docs/DESIGN.md"));
    let mut wrong = rows::check_rows(&ws, "README", &readme, "## Crates");
    wrong.extend(rows::check_rows(&ws, "DESIGN", &design, "## Workspace"));
    wrong.extend(rows::check_arrows(
        &ws,
        "README",
        &readme,
        "Dependencies point one way",
    ));
    wrong.extend(rows::check_arrows(
        &ws,
        "DESIGN",
        &design,
        "Dependency direction",
    ));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The tables were read: a row for each member at least.
    assert!(rows::rows(&readme, "## Crates").len() >= ws.members.len());
}

/// The check fails on each kind of drift, naming the row and the item.
#[test]
fn a_missing_or_misplaced_item_in_a_crate_row_is_named() {
    let ws = workspace();
    let table =
        |row: &str| format!("# README\n\n## Crates\n\n| crate | role |\n| --- | --- |\n{row}\n");
    let wrong = |row: &str| rows::check_rows(&ws, "README", &table(row), "## Crates");
    let said = wrong(
        "| [`bench`](bench/) | `config` (`RunSpec`, `Stage`), `report`, `nowhere`, `Absent`, \
         `Config::close`, feature `nofeature`, `bench/tests/none.rs` |",
    );
    for expected in [
        "README has no row for the workspace member `heuristic`",
        "README row `bench` names `Stage` in `config` but it is declared in bench/src/dut/stage.rs",
        "README row `bench` names `nowhere` but bench/src has no module `nowhere`",
        "README row `bench` names `Absent` but it is declared in no file of bench/src",
        "README row `bench` names `Config::close` but no `fn close` is beside `Config`'s declaration",
        "README row `bench` names the feature `nofeature`, which its Cargo.toml lacks",
        "README row `bench` names the file `bench/tests/none.rs`, which does not exist",
    ] {
        assert!(
            said.iter().any(|s| s.starts_with(expected)),
            "{expected}\nin\n{said:#?}"
        );
    }
    let users =
        wrong("| [`shards`](shards/) | long jobs; used by `links`, `nothing` and the bench. |");
    assert!(
        users.iter().any(|s| s
            == "README row `shards` says it is used by `nothing`, but no binary that depends on \
                it has a module `nothing`"),
        "{users:#?}"
    );
    assert!(!users.iter().any(|s| s.contains("`links`")), "{users:#?}");
    // `RunSpec` is re-exported by `config`, `report` is a module: no complaint about either.
    assert!(
        !said
            .iter()
            .any(|s| s.contains("`RunSpec`") || s.contains("`report`")),
        "{said:#?}"
    );
    let arrows = rows::check_arrows(
        &ws,
        "README",
        "Dependencies point one way: `boards` <- `heuristic`, and `nosuch`.",
        "Dependencies point one way",
    );
    assert_eq!(
        arrows,
        [
            "README, \"Dependencies point one way\": names `nosuch`, but `nosuch` is no workspace member",
            "README, \"Dependencies point one way\": `boards` <- `heuristic`, but `heuristic` does not \
             depend on `boards` (its Cargo.toml's [dependencies], through any crate)",
        ]
    );
}
