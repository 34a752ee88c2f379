//! `cargo xtask test`: README's test command. It sets up what it can (the Cortex-M target,
//! Debian's packages when it runs as root or with sudo), builds the firmware the tests run,
//! then runs the workspace's tests; what it cannot set up it names once, with the one
//! `apt-get install` line, and the tests that need it skip, each saying so.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::system::{self, Installer, NEEDS, Need};
use crate::{hooked_geng, root, target_dir, web};

/// The options of `cargo xtask test`.
#[derive(Debug, Default)]
pub struct Options {
    /// Never install packages, even as root (what a bare machine's user sees).
    pub no_install: bool,
    /// Arguments passed on to `cargo test` (after `--`).
    pub cargo_args: Vec<String>,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options::default();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--no-install" => options.no_install = true,
                "--" => options.cargo_args.extend(rest.by_ref().cloned()),
                other => bail!(
                    "unknown option `{other}` for `cargo xtask test`: \
                     usage: cargo xtask test [--no-install] [-- CARGO-TEST-ARGS]"
                ),
            }
        }
        Ok(options)
    }
}

/// The rustc target of the firmware.
const FIRMWARE_TARGET: &str = "thumbv7em-none-eabihf";

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

fn run(command: &mut Command, what: &str) -> Result<()> {
    let status = crate::ticking(&format!("xtask: {what}"), || command.status())
        .with_context(|| format!("cannot start {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// The firmware's target, added by rustup when it is missing (the machine does not add it by
/// itself: TOOLCHAIN.md).
fn firmware_target() -> Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    match installed {
        Ok(out) if String::from_utf8_lossy(&out.stdout).contains(FIRMWARE_TARGET) => Ok(()),
        Ok(_) => run(
            Command::new("rustup").args(["target", "add", FIRMWARE_TARGET]),
            "rustup target add thumbv7em-none-eabihf",
        ),
        Err(_) => {
            println!(
                "xtask: no rustup; the firmware's target must be installed already \
                 ({FIRMWARE_TARGET})"
            );
            Ok(())
        }
    }
}

/// flip-link, the linker of every Cortex-M binary (.cargo/config.toml): a cargo tool, so it
/// installs from crates.io on any machine with rustup (about a minute of build on 2 cores).
const FLIP_LINK: &str = "0.1.12";

/// Installs flip-link when it is not on PATH: the firmware's builds below need it.
pub fn flip_link() -> Result<()> {
    if system::on_path("flip-link") {
        return Ok(());
    }
    println!("xtask: installing flip-link {FLIP_LINK} (the firmware's linker) with cargo install");
    run(
        // Built as any crate is: not by the clippy driver CI lints the workspace with.
        Command::new(cargo())
            .args(["install", "flip-link", "--version", FLIP_LINK, "--locked"])
            .env_remove("RUSTC_WORKSPACE_WRAPPER"),
        "cargo install flip-link",
    )
}

fn missing() -> Vec<&'static Need> {
    NEEDS.iter().filter(|n| n.tests && !n.present()).collect()
}

fn has(missing: &[&Need], name: &str) -> bool {
    !missing.iter().any(|n| n.name == name)
}

pub fn test(options: &Options) -> Result<()> {
    let root = root();
    firmware_target()?;
    flip_link()?;

    let mut absent = missing();
    if !absent.is_empty() && !options.no_install {
        let installer = Installer::find();
        if installer != Installer::None {
            let packages = system::packages(absent.iter().copied());
            println!("xtask: installing {}", packages.join(" "));
            let pypi = system::pypi(absent.iter().copied());
            if !installer.install(&packages) || !system::pip_install(&pypi) {
                // On a CI runner a failed install is a broken job, not a smaller test run.
                if std::env::var_os("CI").is_some() {
                    bail!(
                        "apt-get could not install {} and CI is set: a CI job runs with every \
                         tool or fails",
                        packages.join(" ")
                    );
                }
                println!("xtask: apt-get could not install them; running without");
            }
            absent = missing();
        }
    }
    if !absent.is_empty() && needs::required() {
        bail!(
            "missing {}; install with: {} ({}=1: every test that needs them would fail)",
            absent.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
            system::install_lines(absent.iter().copied()),
            needs::REQUIRE_ENV
        );
    }
    if !absent.is_empty() {
        println!(
            "xtask: missing {}; install with: {}",
            absent.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
            system::install_lines(absent.iter().copied())
        );
        for need in &absent {
            println!("skipped: {} (no {})", need.skips, need.packages.join(", "));
        }
    }

    // The firmware the tests run, built once here rather than inside the tests.
    let virtual_board = has(&absent, "unicorn-build");
    let qemu = has(&absent, "qemu");
    let mut selection = vec!["--workspace"];
    let mut env: Vec<(&str, PathBuf)> = Vec::new();
    if virtual_board {
        run(
            Command::new(cargo()).current_dir(&root).arg("fw"),
            "the board binary's build (cargo fw)",
        )?;
        // Its study build without the self-check, whose glitch trials reach the classes the
        // shipped build's do not (hil-tests' `every_glitch_class_is_reached_on_fixed_seeds`).
        run(
            Command::new(cargo()).current_dir(&root).args([
                "build",
                "-p",
                "firmware",
                "--bin",
                "firmware-unchecked",
                "--features",
                "board,unchecked",
                "--target",
                FIRMWARE_TARGET,
                "--profile",
                "fw",
            ]),
            "the board binary's study build without the self-check",
        )?;
    } else {
        selection.extend(["--exclude", "virtual-board"]);
        // A virtual board built earlier must not stand in for the one skipped.
        env.push((
            "BIRDCAGE_VIRTUAL_BOARD",
            target_dir().join("virtual-board-skipped"),
        ));
    }
    if qemu {
        run(
            Command::new(cargo()).current_dir(&root).args([
                "build",
                "-p",
                "firmware",
                "--bin",
                "firmware-qemu",
                "--features",
                "qemu",
                "--target",
                FIRMWARE_TARGET,
                "--profile",
                "fw",
            ]),
            "the QEMU firmware's build",
        )?;
        let elf: PathBuf = target_dir().join(FIRMWARE_TARGET).join("fw/firmware-qemu");
        env.push(("BIRDCAGE_PIL_ELF", elf));
    }
    if has(&absent, "chromium") {
        web::web(None)?;
    }
    // geng with the links' PRUNE hook, whose listing a test checks against nauty's own: built
    // from PyPI's source package where nauty is (and a download is allowed).
    if has(&absent, "nauty") && !options.no_install {
        match hooked_geng::hooked_geng() {
            Ok(binary) => env.push((hooked_geng::ENV, binary)),
            Err(e) if needs::required() => {
                return Err(e.context(format!(
                    "the hooked geng ({}=1: its test would fail)",
                    needs::REQUIRE_ENV
                )));
            }
            Err(e) => println!("xtask: no hooked geng ({e:#}); its test skips"),
        }
    }
    // Each test that skips adds a line here (`needs::skip`); printed, counted and checked
    // after the run, so a skip is seen whatever the runner keeps of a passing test's output.
    let ledger = target_dir().join("skipped.tsv");
    match std::fs::remove_file(&ledger) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => bail!("cannot empty the skip ledger {}: {e}", ledger.display()),
    }
    env.push((needs::LEDGER_ENV, ledger.clone()));
    let result = run_tests(&root, &selection, &env, &options.cargo_args);
    let skips = read_ledger(&ledger)?;
    print!("{}", ledger_text(&skips, &ledger));
    print!(
        "{}",
        ignored_text(ignored_tests(&root, &selection, &env, &options.cargo_args).as_deref())
    );
    if let Some(bad) = skips.iter().find(|s| !system::known_tool(&s.tool)) {
        bail!(
            "{}::{} skipped for `{}`, which is no row of xtask/src/system.rs (NEEDS or \
             CONDITIONS): add it there",
            bad.binary,
            bad.test,
            bad.tool
        );
    }
    // A skip for a tool this machine has is a test that looks for it wrongly.
    if let Some((bad, need)) = skips.iter().find_map(|s| {
        NEEDS
            .iter()
            .find(|n| n.name == s.tool || n.commands.contains(&s.tool.as_str()))
            .filter(|n| n.present())
            .map(|n| (s, n))
    }) {
        bail!(
            "{}::{} skipped for `{}`, but {} is installed: the test looks for it wrongly",
            bad.binary,
            bad.test,
            bad.tool,
            need.commands.join(", ")
        );
    }
    if !absent.is_empty() {
        println!(
            "xtask: the tests ran without {} (see the `skipped:` lines above); install with: {}",
            absent.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
            system::install_lines(absent.iter().copied())
        );
    }
    result
}

/// One line of the skip ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub binary: String,
    pub test: String,
    pub tool: String,
    pub why: String,
}

/// The ledger's lines (none when no test skipped: the file is never made).
pub fn read_ledger(path: &std::path::Path) -> Result<Vec<Skip>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => bail!("cannot read the skip ledger {}: {e}", path.display()),
    };
    text.lines()
        .enumerate()
        .map(|(i, line)| match line.split('\t').collect::<Vec<_>>()[..] {
            [binary, test, tool, why] => Ok(Skip {
                binary: binary.into(),
                test: test.into(),
                tool: tool.into(),
                why: why.into(),
            }),
            _ => bail!(
                "{} line {}: not {} tab-separated fields",
                path.display(),
                i + 1,
                needs::LEDGER_COLUMNS.len()
            ),
        })
        .collect()
}

/// What the test command prints of its ledger at its end: the count, then each skip. "For a
/// missing tool" tells these apart from the `#[ignore]`d tests nextest also counts as
/// skipped ([`ignored_text`]).
pub fn ledger_text(skips: &[Skip], path: &std::path::Path) -> String {
    let mut text = format!(
        "xtask: {} {} skipped for a missing tool (ledger: {})\n",
        skips.len(),
        if skips.len() == 1 { "test" } else { "tests" },
        path.display()
    );
    for s in skips {
        text.push_str(&format!(
            "  {}::{}  needs {}: {}\n",
            s.binary, s.test, s.tool, s.why
        ));
    }
    text
}

/// The `#[ignore]`d tests of the run's selection, as nextest names them (`BINARY TEST`): what
/// its `N skipped` counts besides the ledger's skips. `None` without nextest, or when it
/// cannot list them (the run's own failure is said already).
fn ignored_tests(
    root: &std::path::Path,
    selection: &[&str],
    env: &[(&str, PathBuf)],
    cargo_args: &[String],
) -> Option<Vec<String>> {
    if !nextest_installed() {
        return None;
    }
    let out = Command::new(cargo())
        .current_dir(root)
        .args([
            "nextest",
            "list",
            "--run-ignored",
            "only",
            "--message-format",
            "oneline",
        ])
        .args(selection)
        .args(cargo_args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())?;
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// The line after the ledger's that names the `#[ignore]`d tests, so that nextest's
/// `N skipped` and the ledger's count read as one story: the ledger's are skipped for a
/// missing tool, these by hand's choice (a board, a long study), run with `--ignored`.
pub fn ignored_text(ignored: Option<&[String]>) -> String {
    let Some(ignored) = ignored else {
        return "xtask: tests marked #[ignore] (a board, a long study) are not run: cargo \
                test's `ignored` counts them; run one with -- --ignored\n"
            .into();
    };
    let mut text = format!(
        "xtask: {} {} #[ignore]d, which nextest counts as skipped (a board, a long study: run \
         one with `cargo nextest run --run-ignored only TEST`)\n",
        ignored.len(),
        if ignored.len() == 1 {
            "test is"
        } else {
            "tests are"
        },
    );
    for test in ignored {
        text.push_str(&format!("  {test}\n"));
    }
    text
}

/// How the workspace's tests run: cargo-nextest when it is installed (each test a process,
/// test binaries side by side on every core, JUnit from its `ci` profile: `.config/nextest.toml`),
/// then the doctests, which nextest does not run; otherwise `cargo test`, one binary at a time.
fn run_tests(
    root: &std::path::Path,
    selection: &[&str],
    env: &[(&str, PathBuf)],
    cargo_args: &[String],
) -> Result<()> {
    let command = |args: &[&str]| {
        let mut command = Command::new(cargo());
        command
            .current_dir(root)
            .args(args)
            .args(selection)
            .envs(env.iter().map(|(k, v)| (k, v)));
        command
    };
    if !nextest_installed() {
        println!(
            "xtask: no cargo-nextest; the tests run with cargo test, one binary at a time \
             (install it with: cargo install cargo-nextest --locked)"
        );
        return run(
            command(&["test", "--no-fail-fast"]).args(cargo_args),
            "cargo test",
        );
    }
    let tests = run(
        command(&["nextest", "run", "--no-fail-fast"]).args(cargo_args),
        "cargo nextest run",
    );
    // Doctests: for the same packages, unless the arguments chose other targets.
    let doctests = if chooses_targets(cargo_args) {
        Ok(())
    } else {
        run(
            command(&["test", "--doc"]).args(cargo_args),
            "cargo test --doc",
        )
    };
    tests.and(doctests)
}

fn nextest_installed() -> bool {
    Command::new(cargo())
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Whether cargo arguments select targets (`--lib`, `--test X`, ...), which `--doc` refuses.
fn chooses_targets(cargo_args: &[String]) -> bool {
    const TARGETS: [&str; 10] = [
        "--lib",
        "--bin",
        "--bins",
        "--test",
        "--tests",
        "--example",
        "--examples",
        "--bench",
        "--benches",
        "--all-targets",
    ];
    cargo_args.iter().any(|arg| {
        let name = arg.split_once('=').map_or(arg.as_str(), |(name, _)| name);
        TARGETS.contains(&name)
    })
}

/// `cargo xtask setup`: every package of the table, for CI (`.ci/run`), or the line to
/// install them.
pub fn setup() -> Result<()> {
    flip_link()?;
    let absent: Vec<&Need> = NEEDS.iter().filter(|n| !n.present()).collect();
    if absent.is_empty() {
        println!("xtask: every system package is installed");
        return Ok(());
    }
    let packages = system::packages(absent.iter().copied());
    match Installer::find() {
        Installer::None => bail!(
            "missing {}: install with: {}",
            packages.join(" "),
            system::install_line(&packages)
        ),
        installer => {
            println!("xtask: installing {}", packages.join(" "));
            if !installer.install(&packages) {
                bail!("apt-get install {} failed", packages.join(" "));
            }
            let pypi = system::pypi(absent.iter().copied());
            if !system::pip_install(&pypi) {
                bail!("{} failed", system::pip_line(&pypi));
            }
        }
    }
    let still: Vec<String> = NEEDS
        .iter()
        .filter(|n| !n.present())
        .map(|n| match n.paths_from {
            [] => n.name.to_string(),
            vars => format!(
                "{} (or name them: {})",
                n.name,
                vars.iter()
                    .map(|(c, v)| format!("{v}=PATH-OF-{c}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        })
        .collect();
    if !still.is_empty() {
        bail!("installed, but still missing: {}", still.join(", "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_pass_what_follows_the_double_dash_to_cargo_test() {
        let args: Vec<String> = ["--no-install", "--", "-p", "heuristic"]
            .map(String::from)
            .to_vec();
        let options = Options::parse(&args).unwrap();
        assert!(options.no_install);
        assert_eq!(options.cargo_args, ["-p", "heuristic"]);
    }

    #[test]
    fn target_selections_are_told_from_package_selections() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(chooses_targets(&args(&["--lib", "--test", "pil"])));
        assert!(chooses_targets(&args(&["--test=pil"])));
        assert!(!chooses_targets(&args(&[
            "-p",
            "heuristic",
            "--features",
            "x"
        ])));
        assert!(!chooses_targets(&args(&[])));
    }

    #[test]
    fn the_ledger_reads_back_what_a_skip_writes_and_counts_it() {
        let dir = std::env::temp_dir().join(format!("xtask-ledger-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("skipped.tsv");
        let lines = needs::ledger_line("links", "graphs", "nauty", "nauty not installed")
            + &needs::ledger_line("web", "the_web_app", "chromium", "no\tchromium");
        std::fs::write(&path, lines).unwrap();
        let skips = read_ledger(&path).unwrap();
        assert_eq!(skips.len(), 2);
        assert_eq!(skips[1].why, "no chromium");
        let text = ledger_text(&skips, &path);
        assert!(
            text.starts_with("xtask: 2 tests skipped for a missing tool (ledger: "),
            "{text}"
        );
        assert!(
            text.contains("  links::graphs  needs nauty: nauty not installed\n"),
            "{text}"
        );
        std::fs::write(&path, "one\ttwo\n").unwrap();
        let bad = read_ledger(&path).unwrap_err().to_string();
        assert!(bad.contains("line 1: not 4 tab-separated fields"), "{bad}");
        assert!(read_ledger(&dir.join("none.tsv")).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The ignored tests are counted and named in words that say what nextest's `skipped`
    /// holds; without nextest, the line says where cargo test counts them.
    #[test]
    fn the_ignored_tests_are_named_as_what_nextest_skips() {
        let ignored = vec![
            "studies::split the_split_study".to_string(),
            "hil-tests::hil a_board".to_string(),
        ];
        let text = ignored_text(Some(&ignored));
        assert!(
            text.starts_with("xtask: 2 tests are #[ignore]d, which nextest counts as skipped"),
            "{text}"
        );
        assert!(text.contains("\n  hil-tests::hil a_board\n"), "{text}");
        assert!(ignored_text(Some(&[])).starts_with("xtask: 0 tests are #[ignore]d"));
        assert!(ignored_text(None).contains("cargo test's `ignored` counts them"));
    }

    /// Every tool a test skips for (`needs::skip("TOOL"`, or a README block's `needs TOOL`)
    /// is a row of the table, and every row README's test command uses has a test that
    /// looks for it: the table and the tests cannot drift apart.
    #[test]
    fn the_needs_table_holds_every_tool_a_test_looks_for_and_no_more() {
        let root = crate::root();
        let mut named: Vec<String> = Vec::new();
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&root).unwrap().flatten() {
            let dir = entry.path();
            if dir.join("Cargo.toml").is_file() && dir.file_name().unwrap() != "xtask" {
                files.extend(rust_files(&dir));
                files.extend(
                    std::fs::read_dir(&dir)
                        .unwrap()
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|e| e == "md")),
                );
            }
        }
        files.push(root.join("README.md"));
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            // A README block's marker in Markdown, a call in Rust (each also names the other
            // in its docs, which are not uses).
            let markdown = file.extension().is_some_and(|e| e == "md");
            let markers: &[&str] = if markdown {
                &["<!-- runnable, needs "]
            } else {
                &["needs::skip(", "needs::skip_condition("]
            };
            for marker in markers {
                for (i, _) in text.match_indices(marker) {
                    let rest = text[i + marker.len()..].trim_start();
                    let tool = match rest.strip_prefix('"') {
                        Some(quoted) => quoted.split('"').next().unwrap_or(""),
                        None if markdown => rest.split_whitespace().next().unwrap_or(""),
                        // `needs::skip(tool, ...)` with a variable: the README markers name it.
                        None => continue,
                    };
                    if tool == "TOOL" {
                        continue;
                    }
                    assert!(
                        system::known_tool(tool),
                        "{}: a test skips for `{tool}`, no row of NEEDS or CONDITIONS",
                        file.display()
                    );
                    named.push(tool.to_string());
                }
            }
        }
        for need in NEEDS.iter().filter(|n| n.tests) {
            let looked_for = named
                .iter()
                .any(|t| t == need.name || need.commands.contains(&t.as_str()));
            assert!(
                looked_for,
                "NEEDS row `{}` is used by the test command but no test looks for it",
                need.name
            );
        }
    }

    fn rust_files(dir: &std::path::Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return found;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() && name != "target" && name != "node_modules" {
                found.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
        found
    }

    #[test]
    fn an_unknown_option_is_named() {
        let err = Options::parse(&["--fast".to_string()]).unwrap_err();
        assert!(err.to_string().contains("`--fast`"), "{err}");
    }
}
