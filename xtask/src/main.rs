//! The workspace's build tasks, run as `cargo xtask TASK` (the alias in `.cargo/config.toml`).
//!
//! - `test [--no-install] [-- ARGS]`: README's test command (`test.rs`): sets up what it can,
//!   names what it cannot with the one `apt-get install` line, runs the workspace's tests.
//! - `setup`: installs every Debian package the workspace uses (`system.rs`, one table), for CI.
//! - `hooked-geng`: builds geng with the links search's PRUNE hook into `target/hooked-geng`
//!   from PyPI's pynauty source package, pinned by hash (`hooked_geng.rs`); the test command
//!   builds it too where nauty is, for the test that checks its listing.
//! - `web [--out DIR]`: builds the web app (`web/`) for `wasm32-unknown-unknown` with the
//!   `web` profile (size over speed, fat LTO), runs wasm-bindgen (`web-bindgen`, a binary of
//!   the workspace with the very version of web/'s `wasm-bindgen`, so nothing needs a separate
//!   install, and xtask itself builds in seconds), and copies the static files beside it: `target/site` by
//!   default, a folder any web server or GitHub Pages can host. It fails when the
//!   WebAssembly is over its budget.

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

/// The workspace's module graph, checked for circles (a test).
#[cfg(test)]
mod circles;
mod figures;
mod hooked_geng;
mod system;
mod test;
mod web;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["web"] => web::web(None),
        ["web", "--out", dir] => web::web(Some(PathBuf::from(dir))),
        ["test", ..] => test::test(&test::Options::parse(&args[1..])?),
        ["setup"] => test::setup(),
        ["hooked-geng"] => hooked_geng::hooked_geng().map(drop),
        ["figures"] => figures::figures(false),
        ["figures", "--check"] => figures::figures(true),
        _ => bail!(
            "usage: cargo xtask test [--no-install] [-- CARGO-TEST-ARGS] | setup | hooked-geng | web [--out DIR] | figures [--check]"
        ),
    }
}

/// The workspace's root (xtask's parent folder).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// Runs `work`, saying `{what}: still working (N s)` on stderr every 10 s until it ends: a
/// build without a terminal shows no progress bar, and a fat-LTO link or a C library's build
/// script is minutes of silence that look like a hang (issue 52).
pub(crate) fn ticking<T>(what: &str, work: impl FnOnce() -> T) -> T {
    tick_every(
        std::time::Duration::from_secs(10),
        what,
        |line| eprintln!("{line}"),
        work,
    )
}

/// [`ticking`] with its period and its output given.
fn tick_every<T>(
    period: std::time::Duration,
    what: &str,
    say: impl Fn(String) + Send + 'static,
    work: impl FnOnce() -> T,
) -> T {
    use std::sync::mpsc;
    let (done, wait) = mpsc::channel::<()>();
    let start = std::time::Instant::now();
    let what = what.to_string();
    let ticker = std::thread::spawn(move || {
        while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(period) {
            say(format!(
                "{what}: still working ({} s)",
                start.elapsed().as_secs()
            ));
        }
    });
    let result = work();
    drop(done);
    let _ = ticker.join();
    result
}

pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

#[cfg(test)]
mod tests {
    /// Every workspace member is a row of README's crate table and of docs/DESIGN.md's (a
    /// new crate cannot go undocumented), and each row there is a member or says it is not.
    #[test]
    fn every_member_is_in_the_readme_and_the_design_notes() {
        let root = super::root();
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let members: Vec<&str> = manifest
            .lines()
            .find_map(|l| l.strip_prefix("members = ["))
            .expect("Cargo.toml lists its members on one line")
            .trim_end_matches(']')
            .split(',')
            .map(|m| m.trim().trim_matches('"'))
            .collect();
        assert!(members.len() >= 10, "{members:?}");
        /// How a document's crate table starts a member's row.
        type Row = fn(&str) -> String;
        let readme: Row = |m| format!("| [`{m}`]({m}/)");
        let design: Row = |m| format!("| `{m}` |");
        for (doc, row) in [("README.md", readme), ("docs/DESIGN.md", design)] {
            let text = std::fs::read_to_string(root.join(doc)).unwrap();
            for member in &members {
                assert!(
                    text.contains(&row(member)),
                    "{doc} has no row for the workspace member `{member}`"
                );
            }
        }
    }

    /// A long step says it is still working once a period, and stops saying so when it ends.
    #[test]
    fn a_long_step_is_never_silent_for_a_period() {
        use std::sync::{Arc, Mutex};
        use std::time::Duration;
        let lines = Arc::new(Mutex::new(Vec::new()));
        let said = Arc::clone(&lines);
        let value = super::tick_every(
            Duration::from_millis(40),
            "build",
            move |line| said.lock().unwrap().push(line),
            || {
                std::thread::sleep(Duration::from_millis(300));
                7
            },
        );
        assert_eq!(value, 7);
        let seen = lines.lock().unwrap().clone();
        assert!(seen.len() >= 3, "{seen:?}");
        assert!(
            seen.iter().all(|l| l.starts_with("build: still working (")),
            "{seen:?}"
        );
        std::thread::sleep(Duration::from_millis(120));
        assert_eq!(
            lines.lock().unwrap().len(),
            seen.len(),
            "it ticked after the step ended"
        );
    }

    /// `cargo xtask` builds xtask itself first (minutes, cold): the alias must let cargo
    /// show that build, not run it `--quiet`.
    #[test]
    fn the_alias_lets_cargo_show_the_build() {
        let config = std::fs::read_to_string(super::root().join(".cargo/config.toml")).unwrap();
        let alias = config
            .lines()
            .find(|l| l.trim_start().starts_with("xtask ="))
            .expect("the xtask alias");
        assert!(
            !alias.contains("--quiet") && !alias.split(['"', ' ']).any(|w| w == "-q"),
            "{alias}"
        );
    }
}
