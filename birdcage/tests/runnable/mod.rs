//! The READMEs' runnable command lines, read and run: shared by `birdcage/tests/readme.rs`
//! (which runs the `birdcage` lines) and `hil-tests/tests/readme.rs` (the `hil-tests`
//! lines), so that the docs cannot drift from the programs.
//!
//! The marking, in any README of the workspace (the root's and each crate's):
//!
//! - `<!-- runnable -->` on the line before a fenced code block makes every command in it
//!   runnable. In a transcript (lines `$ COMMAND` followed by what it prints) each shown line
//!   must be printed as shown, from the first (a line `…` ends the comparison early); in a
//!   `sh` block every line that is not blank or a comment is a command, and its trailing
//!   `# => TEXT` comment pins the first line it prints that is not blank. A command whose stdout goes to a
//!   file (`>`) pins only its exit status. Expected output starting with `error:` means
//!   exit status 2 and the text on stderr (bad input's one line); otherwise exit status 0 and
//!   the text on stdout.
//! - `<!-- runnable, needs TOOL -->` marks a block whose commands run TOOL (nauty's
//!   `nauty-geng`): on a machine without TOOL on PATH each is skipped with a `skipped:` line
//!   (README's test command passes on a bare machine, issue 40).
//! - `<!-- run by: FILE -->` marks a block that another test or CI script runs (FILE, from the
//!   workspace's root, must exist and name the README it runs), and `<!-- not run: WHY -->`
//!   one that nothing runs, saying why (it needs a board, takes hours, installs something).
//!   Every other block of commands (`sh`, or a transcript of `$ ` lines) fails
//!   [`unmarked`]'s check: each command in a README is run or says why not (issue 63).
//! - `<!-- file: NAME -->` before a code block writes the block into the README's working
//!   folder as NAME, for the commands after it (a graph file the examples read).
//!
//! Commands are written as a user types them: `birdcage ARGS`, `hil-tests ARGS`, or through
//! cargo (`cargo run [--release] -p birdcage -- ARGS`, likewise `-p hil-tests`), which the
//! test runs as the already-built binary. Each README's commands run in order with `sh -c`
//! in a fresh folder of their own, stdin empty. Only quick commands are marked (well under a
//! few seconds in a debug build); long ones stay unmarked and say how long they take.
#![allow(dead_code)] // each test runs its own binary's lines

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

/// What a README holds for the test, in the order it is written.
#[derive(Clone, Debug)]
pub enum Item {
    /// A file to write into the working folder.
    File { name: String, text: String },
    /// A command to run.
    Run(Command),
}

/// One runnable command line.
#[derive(Clone, Debug)]
pub struct Command {
    /// Where it is written: `README.md:42`.
    pub place: String,
    /// The line as `sh -c` runs it, cargo's wrapper removed.
    pub line: String,
    /// The program it runs (`birdcage` or `hil-tests`).
    pub program: String,
    /// The lines it must print first (empty for a command whose stdout goes to a file).
    pub expected: Vec<String>,
    /// The program on PATH the command runs besides its own (`<!-- runnable, needs TOOL -->`).
    pub needs: Option<String>,
    /// Whether the expected lines are a transcript's, blank lines included (else the one
    /// line of `# =>`, compared with the first line that is not blank).
    pub transcript: bool,
}

/// Every README of the workspace: the root's, then each crate's in name order.
pub fn readmes() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut crates: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path().join("README.md"))
        .filter(|p| p.is_file())
        .collect();
    crates.sort();
    std::iter::once(root.join("README.md"))
        .chain(crates)
        .collect()
}

/// The README's blocks of commands (fenced `sh`, or any fence holding a `$ ` line) that are
/// neither runnable nor marked `run by:` an existing file naming the README nor `not run:`
/// with a reason, each as `README.md:LINE: why`.
pub fn unmarked(path: &Path, text: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let name = path
        .strip_prefix(&root)
        .unwrap_or(path)
        .display()
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut wrong = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let open = lines[i].trim_start();
        if !open.starts_with("```") {
            i += 1;
            continue;
        }
        let info = open.trim_start_matches('`').trim();
        let end = (i + 1..lines.len())
            .find(|&k| lines[k].trim() == "```")
            .unwrap_or(lines.len());
        let commands = info == "sh"
            || lines[i + 1..end]
                .iter()
                .any(|l| l.trim_start().starts_with("$ "));
        let marker = i
            .checked_sub(1)
            .map(|k| lines[k].trim())
            .unwrap_or_default();
        let said = |why: &str| format!("{name}:{}: {why}", i + 1);
        if commands {
            if marker == "<!-- runnable -->" || marker.starts_with("<!-- runnable, needs ") {
            } else if let Some(file) = marker
                .strip_prefix("<!-- run by:")
                .and_then(|m| m.strip_suffix("-->"))
                .map(str::trim)
            {
                match std::fs::read_to_string(root.join(file)) {
                    Err(e) => wrong.push(said(&format!("`run by: {file}`: cannot read it ({e})"))),
                    Ok(runner) if !runner.contains(name.as_str()) => {
                        wrong.push(said(&format!("`run by: {file}`: it does not name {name}")))
                    }
                    Ok(_) => {}
                }
            } else if let Some(why) = marker
                .strip_prefix("<!-- not run:")
                .and_then(|m| m.strip_suffix("-->"))
            {
                if why.trim().is_empty() {
                    wrong.push(said("`not run:` says no reason"));
                }
            } else {
                wrong.push(said(
                    "commands that nothing runs: mark the block `<!-- runnable -->`, `<!-- run by: FILE -->` or `<!-- not run: WHY -->`",
                ));
            }
        }
        i = end + 1;
    }
    wrong
}

/// The programs a runnable line may run, and the cargo packages that build them.
const PROGRAMS: [&str; 2] = ["birdcage", "hil-tests"];

/// `cargo run [--release] -p P -- ARGS` as `P ARGS`; any other line as it is.
fn without_cargo(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let (prefix, rest) = match words.iter().position(|w| *w == "--") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => return line.to_string(),
    };
    let package = match prefix {
        ["cargo", "run", "-p", p] | ["cargo", "run", "--release", "-p", p] => *p,
        _ => return line.to_string(),
    };
    std::iter::once(package)
        .chain(rest.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads one README's runnable blocks and files; a marking that is not well formed panics
/// with its place, so that a mistake in the docs fails the test.
pub fn parse(path: &Path, text: &str) -> Vec<Item> {
    let name = path
        .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .unwrap_or(path)
        .display()
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut items = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let marker = lines[i].trim();
        let file = marker
            .strip_prefix("<!-- file:")
            .and_then(|m| m.strip_suffix("-->"))
            .map(|m| m.trim().to_string());
        let needs = marker
            .strip_prefix("<!-- runnable, needs ")
            .and_then(|m| m.strip_suffix("-->"))
            .map(|m| m.trim().to_string());
        if marker != "<!-- runnable -->" && file.is_none() && needs.is_none() {
            i += 1;
            continue;
        }
        let place = |at: usize| format!("{name}:{}", at + 1);
        let open = lines
            .get(i + 1)
            .filter(|l| l.trim_start().starts_with("```"))
            .unwrap_or_else(|| panic!("{}: the marker is not followed by a code block", place(i)));
        let indent = open.len() - open.trim_start().len();
        let info = open.trim_start().trim_start_matches('`').trim();
        let start = i + 2;
        let end = (start..lines.len())
            .find(|&k| lines[k].trim() == "```")
            .unwrap_or_else(|| panic!("{}: the code block is not closed", place(i + 1)));
        let body: Vec<(usize, &str)> = (start..end)
            .map(|k| (k, lines[k].get(indent..).unwrap_or("").trim_end()))
            .collect();
        match file {
            Some(name) => items.push(Item::File {
                name,
                text: body.iter().map(|(_, l)| format!("{l}\n")).collect(),
            }),
            None => items.extend(
                commands(&body, info == "sh", &place)
                    .into_iter()
                    .map(|c| Command {
                        needs: needs.clone(),
                        ..c
                    })
                    .map(Item::Run),
            ),
        }
        i = end + 1;
    }
    items
}

/// The commands of one runnable block (`sh`: command lines; otherwise a transcript).
fn commands(body: &[(usize, &str)], sh: bool, place: &dyn Fn(usize) -> String) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    let mut k = 0;
    while k < body.len() {
        let (at, first) = body[k];
        let command_line = if sh {
            (!first.is_empty() && !first.starts_with('#')).then_some(first)
        } else {
            first.strip_prefix("$ ")
        };
        let Some(mut text) = command_line.map(str::to_string) else {
            if !sh {
                match out.last_mut() {
                    Some(last) => last.expected.push(first.to_string()),
                    None => panic!("{}: a transcript starts with `$ COMMAND`", place(at)),
                }
            }
            k += 1;
            continue;
        };
        while text.ends_with('\\') && k + 1 < body.len() {
            text.pop();
            k += 1;
            text.push_str(body[k].1.trim_start());
        }
        k += 1;
        let (line, pin) = match text.split_once(" # => ") {
            Some((line, pin)) => (line.trim_end().to_string(), Some(pin.to_string())),
            None => (text.clone(), None),
        };
        let line = without_cargo(&line);
        let program = line.split(' ').next().unwrap_or("").to_string();
        assert!(
            PROGRAMS.contains(&program.as_str()),
            "{}: a runnable line runs {} (through cargo run -p or by name), not `{line}`",
            place(at),
            PROGRAMS.join(" or ")
        );
        if sh && pin.is_none() && !line.contains(" > ") {
            panic!(
                "{}: `{line}` pins nothing: add `# => ` and its first line, or send its output to a file",
                place(at)
            );
        }
        out.push(Command {
            place: place(at),
            line,
            program,
            expected: pin.into_iter().collect(),
            needs: None,
            transcript: !sh,
        });
    }
    out
}

/// What a run printed and how it ended.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
}

/// Runs `line` with `sh -c` in `dir`, with `bin` (holding the program) first on PATH and
/// stdin empty; a run past `limit` is killed and fails.
pub fn run(line: &str, dir: &Path, bin: &Path, limit: Duration) -> Ran {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let start = Instant::now();
    let mut child = Process::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes on threads, so that a long output cannot block the child.
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            r.read_to_end(&mut s).unwrap();
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let (out, err) = (read(Box::new(out)), read(Box::new(err)));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`{line}` took more than {limit:?}: too long to be marked runnable");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ran {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        took: start.elapsed(),
    }
}

/// Checks one command's run against what its README says; the message names the place.
pub fn check(command: &Command, ran: &Ran) -> Result<(), String> {
    let error = command
        .expected
        .first()
        .is_some_and(|l| l.starts_with("error:"));
    let (code, printed) = if error {
        (2, &ran.stderr)
    } else {
        (0, &ran.stdout)
    };
    let said = |what: String| {
        format!(
            "{}: `{}` {what} (stderr: {})",
            command.place,
            command.line,
            ran.stderr.lines().next().unwrap_or("")
        )
    };
    if ran.code != Some(code) {
        return Err(said(format!(
            "exited with {:?}, the README says {code}",
            ran.code
        )));
    }
    let mut printed = printed
        .lines()
        .skip_while(|l| !command.transcript && l.trim().is_empty());
    for expected in &command.expected {
        if expected == "…" {
            break;
        }
        let got = printed.next().unwrap_or("").trim_end();
        if got != expected.trim_end() {
            return Err(said(format!(
                "printed `{got}` where the README shows `{expected}`"
            )));
        }
    }
    Ok(())
}

/// Runs every README's commands of `program` (with its binary at `exe`), each README in a
/// fresh folder with its files; returns how many ran. Panics listing every command that
/// disagrees with its README.
pub fn run_all(program: &str, exe: &Path) -> usize {
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(exe, bin.path().join(program)).unwrap();
    let mut ran = 0;
    let mut wrong = Vec::new();
    for readme in readmes() {
        let text = std::fs::read_to_string(&readme).unwrap();
        let items = parse(&readme, &text);
        let dir = tempfile::tempdir().unwrap();
        for item in items {
            match item {
                Item::File { name, text } => std::fs::write(dir.path().join(name), text).unwrap(),
                Item::Run(command) if command.program == program => {
                    if let Some(tool) = command.needs.as_deref().filter(|t| !on_path(t)) {
                        needs::skip(
                            tool,
                            format!(
                                "{} `{}` (no {tool} on PATH; cargo xtask setup installs it)",
                                command.place, command.line
                            ),
                        );
                        continue;
                    }
                    let done = run(
                        &command.line,
                        dir.path(),
                        bin.path(),
                        Duration::from_secs(30),
                    );
                    eprintln!("{:6.2} s  {}", done.took.as_secs_f64(), command.line);
                    if let Err(e) = check(&command, &done) {
                        wrong.push(e);
                    }
                    ran += 1;
                }
                Item::Run(_) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    ran
}

/// Whether an executable file named `tool` is in one of PATH's folders.
fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}

/// `exe ARGS --help`.
fn help(exe: &Path, args: &[String]) -> String {
    let out = Process::new(exe).args(args).arg("--help").output().unwrap();
    assert!(out.status.success(), "{args:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The lines of one section of clap's help (`Commands:`, `Options:`, `Arguments:`).
fn section<'a>(help: &'a str, title: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|l| *l != title)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect()
}

/// The subcommands `--help` lists (but `help`).
fn subcommands(help: &str) -> Vec<String> {
    section(help, "Commands:")
        .iter()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The long options `--help` lists (but `--help` and `--version`).
fn options(help: &str) -> Vec<String> {
    section(help, "Options:")
        .iter()
        .filter_map(|l| {
            l.split_whitespace()
                .take(2)
                .find(|w| w.starts_with("--"))
                .map(|w| w.trim_end_matches(',').to_string())
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

/// Every value `--help` names as possible (of an argument or an option): clap's
/// `[possible values: a, b]` and its long form, a list of `- a: …` lines.
fn choices(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let text = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in text.split("[possible values: ").skip(1) {
        let list = part.split(']').next().unwrap_or("");
        out.extend(list.split(", ").map(|v| v.trim().to_string()));
    }
    let mut listing = false;
    for line in help.lines() {
        let line = line.trim();
        if line == "Possible values:" {
            listing = true;
        } else if let Some(item) = line.strip_prefix("- ").filter(|_| listing) {
            out.push(item.split(':').next().unwrap_or("").to_string());
        } else if !line.is_empty() && !line.starts_with("- ") {
            listing = false;
        }
    }
    out
}

/// Whether `word` of a summary line names `name` (`spice|circuitjs` names both).
fn names(word: &str, name: &str) -> bool {
    word.split('|').any(|w| w == name)
}

/// Whether `line` holds `what` as a word of its own (`--board` is not in `--board-seed`).
fn holds(line: &str, what: &str) -> bool {
    line.match_indices(what).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + what.len()..].chars().next();
        let edge =
            |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'));
        edge(before) && edge(after)
    })
}

/// The summary's lines (`PROGRAM SUB ...`) of the first code block under `heading` in a
/// README.
pub fn summary(readme: &Path, heading: &str) -> Vec<String> {
    let text = std::fs::read_to_string(readme).unwrap();
    let lines = text.lines().skip_while(|l| *l != heading).skip(1);
    lines
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

/// Checks `summary` against `--help`, the truth: every subcommand (and theirs) has a line,
/// and that subcommand's lines name every option and every possible value its `--help`
/// lists. Returns what is missing, one line each.
pub fn check_summary(program: &str, exe: &Path, summary: &[String]) -> Vec<String> {
    fn walk(program: &str, exe: &Path, path: &[String], summary: &[String], out: &mut Vec<String>) {
        let help = help(exe, path);
        let subs = subcommands(&help);
        if !path.is_empty() {
            let lines: Vec<&String> = summary
                .iter()
                .filter(|l| {
                    let words: Vec<&str> = l.split_whitespace().collect();
                    words.first() == Some(&program)
                        && path
                            .iter()
                            .enumerate()
                            .all(|(i, p)| words.get(i + 1).is_some_and(|w| names(w, p)))
                })
                .collect();
            let command = format!("{program} {}", path.join(" "));
            if lines.is_empty() {
                out.push(format!("`{command}` has no line in the summary"));
            }
            for name in options(&help).into_iter().chain(choices(&help)) {
                if !lines.iter().any(|l| holds(l, &name)) {
                    out.push(format!("`{command}`: `{name}` is not in its summary lines"));
                }
            }
        }
        for sub in subs {
            let mut deeper = path.to_vec();
            deeper.push(sub);
            walk(program, exe, &deeper, summary, out);
        }
    }
    let mut out = Vec::new();
    walk(program, exe, &[], summary, &mut out);
    out
}
