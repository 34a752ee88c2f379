//! `cargo xtask test`: README's test command. It sets up what it can (the Cortex-M target,
//! Debian's packages when it runs as root or with sudo), builds the firmware the tests run,
//! then runs the workspace's tests; what it cannot set up it names once, with the one
//! `apt-get install` line, and the tests that need it skip, each saying so.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::system::{self, Installer, NEEDS, Need};
use crate::{root, target_dir, web};

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
    let status = command
        .status()
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
            if !installer.install(&packages) {
                println!("xtask: apt-get could not install them; running without");
            }
            absent = missing();
        }
    }
    if !absent.is_empty() {
        println!(
            "xtask: missing {}; install with: {}",
            absent.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
            system::install_line(&system::packages(absent.iter().copied()))
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
    let result = run_tests(&root, &selection, &env, &options.cargo_args);
    if !absent.is_empty() {
        println!(
            "xtask: the tests ran without {} (see the `skipped:` lines above); install with: {}",
            absent.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
            system::install_line(&system::packages(absent.iter().copied()))
        );
    }
    result
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
        }
    }
    let still: Vec<&str> = NEEDS
        .iter()
        .filter(|n| !n.present())
        .map(|n| n.name)
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
    fn an_unknown_option_is_named() {
        let err = Options::parse(&["--fast".to_string()]).unwrap_err();
        assert!(err.to_string().contains("`--fast`"), "{err}");
    }
}
