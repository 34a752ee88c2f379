//! The workspace's build tasks, run as `cargo xtask TASK` (the alias in `.cargo/config.toml`).
//!
//! - `test [--no-install] [-- ARGS]`: README's test command (`test.rs`): sets up what it can,
//!   names what it cannot with the one `apt-get install` line, runs the workspace's tests.
//! - `setup`: installs every Debian package the workspace uses (`system.rs`, one table), for CI.
//! - `web [--out DIR]`: builds the web app (`web/`) for `wasm32-unknown-unknown` with the
//!   `web` profile (size over speed, fat LTO), runs wasm-bindgen in-process (the
//!   `wasm-bindgen-cli-support` crate, the very version of web/'s `wasm-bindgen`, so nothing
//!   needs a separate install), and copies the static files beside it: `target/site` by
//!   default, a folder any web server or GitHub Pages can host. It fails when the
//!   WebAssembly is over its budget.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

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
        _ => bail!(
            "usage: cargo xtask test [--no-install] [-- CARGO-TEST-ARGS] | setup | web [--out DIR]"
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

pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}
