//! `cargo xtask web`: the web app's static files.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{root, target_dir};

/// The WebAssembly's budget before compression, in bytes.
const WASM_BUDGET: u64 = 1_000_000;

/// One line on stderr naming the step under way, so that a long build is never silent.
fn say(step: &str) {
    eprintln!("xtask web: {step}");
}

/// Builds the web app into `out` (default `target/site`).
pub fn web(out: Option<PathBuf>) -> Result<()> {
    let root = root();
    let out = out.unwrap_or_else(|| target_dir().join("site"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    say(
        "building the web app for wasm32-unknown-unknown (profile `web`: fat LTO, a few minutes cold)",
    );
    let mut build = Command::new(&cargo);
    build
        .current_dir(&root)
        // Plain rustc for the WebAssembly: CI's lint (clippy as the workspace wrapper,
        // .ci/clippy-strict) covers the host builds, as `cargo clippy` does.
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .args([
            "build",
            "--package",
            "birdcage-web",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "web",
        ]);
    let status = crate::ticking("xtask web", || build.status())
        .with_context(|| format!("cannot run {cargo}"))?;
    if !status.success() {
        bail!(
            "the web app's build failed (is the target installed? \
             rustup target add wasm32-unknown-unknown)"
        );
    }
    let wasm = target_dir().join("wasm32-unknown-unknown/web/birdcage_web.wasm");
    let pkg = out.join("pkg");
    // The checkout's web/pkg, which wasm-bindgen then writes itself; xtask stays off the
    // library crates (shards) to build in seconds (clippy.toml).
    #[allow(clippy::disallowed_methods)]
    std::fs::create_dir_all(&pkg).with_context(|| format!("cannot create {}", pkg.display()))?;
    say(&format!(
        "wasm-bindgen: the JavaScript glue into {}",
        pkg.display()
    ));
    // Its own binary (web-bindgen/), built here as the workspace's tests build it (with CI's
    // lint wrapper, so not again): xtask stays quick to build.
    let mut bindgen = Command::new(&cargo);
    bindgen
        .current_dir(&root)
        .args(["run", "--package", "web-bindgen", "--"])
        .arg(&wasm)
        .arg(&pkg);
    let status = crate::ticking("xtask web", || bindgen.status())
        .with_context(|| format!("cannot run {cargo}"))?;
    if !status.success() {
        bail!("wasm-bindgen (web-bindgen) on {} failed", wasm.display());
    }
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
            // Into the folder the one who runs the task names (target/site by default);
            // xtask stays off the library crates (shards) to build in seconds (clippy.toml).
            #[allow(clippy::disallowed_methods)]
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
