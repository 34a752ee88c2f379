//! The program's version for the shard model's spec hashes, made at build time: the crate's
//! version and the git commit the program is built from (`0.1.0+<commit>`), or the crate's
//! version alone outside a git checkout. A shard made by another commit is then foreign.
//!
//! This is a build script's half, not a module of the library: each binary's `build.rs`
//! includes it (`#[path]`) and calls [`emit`], which sets `BIRDCAGE_VERSION` for the binary.
//! The commit is HEAD's: uncommitted changes are not seen (commit before a cluster run).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `git ARGS` in the package's folder, its output trimmed; `None` without git or a checkout.
fn git(args: &[&str]) -> Option<String> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// Sets `BIRDCAGE_VERSION` and asks cargo to run the build script again when HEAD moves
/// (a commit, a checkout): HEAD, the branch's ref and the packed refs, those that exist.
pub fn emit() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit = git(&["rev-parse", "HEAD"])
        .filter(|c| c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()));
    let stamped = match &commit {
        Some(commit) => format!("{version}+{commit}"),
        None => version,
    };
    println!("cargo:rustc-env=BIRDCAGE_VERSION={stamped}");
    println!("cargo:rerun-if-changed=build.rs");
    let dirs = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    );
    let (Some(git_dir), Some(common)) = dirs else {
        return;
    };
    let head = Path::new(&git_dir).join("HEAD");
    let mut watched: Vec<PathBuf> = vec![head.clone(), Path::new(&common).join("packed-refs")];
    if let Some(branch) = std::fs::read_to_string(&head)
        .ok()
        .and_then(|h| h.trim().strip_prefix("ref: ").map(str::to_string))
    {
        watched.push(Path::new(&common).join(branch));
    }
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
