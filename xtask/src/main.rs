//! The workspace's build tasks, run as `cargo xtask TASK` (the alias in `.cargo/config.toml`).
//!
//! - `web [--out DIR]`: builds the web app (`web/`) for `wasm32-unknown-unknown` with the
//!   `web` profile (size over speed, fat LTO), runs wasm-bindgen in-process (the
//!   `wasm-bindgen-cli-support` crate, the very version of web/'s `wasm-bindgen`, so nothing
//!   needs a separate install), and copies the static files beside it: `target/site` by
//!   default, a folder any web server or GitHub Pages can host. It fails when the
//!   WebAssembly is over its budget.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The WebAssembly's budget before compression, in bytes.
const WASM_BUDGET: u64 = 1_000_000;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["web"] => web(None),
        ["web", "--out", dir] => web(Some(PathBuf::from(dir))),
        _ => bail!("usage: cargo xtask web [--out DIR]"),
    }
}

/// The workspace's root (xtask's parent folder).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// One line on stderr naming the step under way, so that a long build is never silent.
fn say(step: &str) {
    eprintln!("xtask web: {step}");
}

fn web(out: Option<PathBuf>) -> Result<()> {
    let root = root();
    let out = out.unwrap_or_else(|| target_dir().join("site"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    say(
        "building the web app for wasm32-unknown-unknown (profile `web`: fat LTO, a few minutes cold)",
    );
    let status = Command::new(&cargo)
        .current_dir(&root)
        .args([
            "build",
            "--package",
            "birdcage-web",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "web",
        ])
        .status()
        .with_context(|| format!("cannot run {cargo}"))?;
    if !status.success() {
        bail!(
            "the web app's build failed (is the target installed? \
             rustup target add wasm32-unknown-unknown)"
        );
    }
    let wasm = target_dir().join("wasm32-unknown-unknown/web/birdcage_web.wasm");
    let pkg = out.join("pkg");
    std::fs::create_dir_all(&pkg).with_context(|| format!("cannot create {}", pkg.display()))?;
    say(&format!(
        "wasm-bindgen: the JavaScript glue into {}",
        pkg.display()
    ));
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)?
        .typescript(false)
        .remove_name_section(true)
        .remove_producers_section(true)
        .generate(&pkg)
        .with_context(|| format!("wasm-bindgen on {}", wasm.display()))?;
    let statics = root.join("web/static");
    say(&format!(
        "copying {} into {}",
        statics.display(),
        out.display()
    ));
    for entry in
        std::fs::read_dir(&statics).with_context(|| format!("cannot read {}", statics.display()))?
    {
        let path = entry?.path();
        if path.is_file() {
            let to = out.join(path.file_name().expect("a file has a name"));
            std::fs::copy(&path, &to)
                .with_context(|| format!("cannot copy {} to {}", path.display(), to.display()))?;
        }
    }
    let bg = pkg.join("birdcage_web_bg.wasm");
    let size = std::fs::metadata(&bg)
        .with_context(|| format!("no {}", bg.display()))?
        .len();
    println!(
        "web app in {}: serve it with `birdcage web` (or any static server); \
         WebAssembly {size} bytes (budget {WASM_BUDGET})",
        out.display()
    );
    if size > WASM_BUDGET {
        bail!("the WebAssembly is {size} bytes, over its budget of {WASM_BUDGET}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
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
