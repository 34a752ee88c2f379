//! The firmware's ELF: found (or built) once, read once, its bytes shared by every reader
//! (defmt's table, RTT's control block, a probe's download).

use std::path::{Path, PathBuf};
use std::process::Command as Process;

/// The environment variable naming a prebuilt QEMU firmware ELF (CI builds it once).
pub const ELF_ENV: &str = "BIRDCAGE_PIL_ELF";

/// The largest ELF read: the board binary with its debug info is about 2 MB.
pub const MAX_ELF_BYTES: u64 = 64 << 20;

/// A firmware ELF, read.
#[derive(Clone, Debug)]
pub struct Elf {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl Elf {
    /// Reads the ELF at `path`.
    pub fn read(path: &Path) -> Result<Elf, ElfError> {
        let bytes = boards::read::bytes(path, MAX_ELF_BYTES).map_err(|error| ElfError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Ok(Elf {
            path: path.to_path_buf(),
            bytes,
        })
    }

    /// The address of its RTT control block (`_SEGGER_RTT`).
    pub fn rtt_control_block(&self) -> Result<u32, gdb_probe::rtt::RttError> {
        gdb_probe::rtt::control_block_address(&self.path, &self.bytes)
    }
}

/// The QEMU firmware ELF: the one [`ELF_ENV`] names, or one built now with cargo into
/// `target/pil` (a target folder of its own, so that a build from inside `cargo test` does not
/// wait for the outer cargo's lock).
pub fn firmware_elf() -> Result<PathBuf, ElfError> {
    if let Some(elf) = std::env::var_os(ELF_ENV).filter(|v| !v.is_empty()) {
        let elf = PathBuf::from(elf);
        return if elf.is_file() {
            Ok(elf)
        } else {
            Err(ElfError::NotAFile(elf))
        };
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or(ElfError::NoWorkspace)?;
    let exe = std::env::current_exe().unwrap_or_default();
    let by_cargo = std::env::var_os("CARGO_MANIFEST_DIR").is_some();
    checkout(root, &exe, by_cargo)?;
    let target_dir = root.join("target").join("pil");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Process::new(cargo)
        .current_dir(root)
        .args([
            "build",
            "-p",
            "firmware",
            "--bin",
            "firmware-qemu",
            "--features",
            "qemu",
            "--target",
            "thumbv7em-none-eabihf",
            "--profile",
            "fw",
            "--target-dir",
        ])
        .arg(&target_dir)
        .output()
        .map_err(ElfError::Cargo)?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last: Vec<&str> = stderr.lines().rev().take(6).collect();
        return Err(ElfError::Build {
            last_lines: last.into_iter().rev().map(str::to_string).collect(),
        });
    }
    Ok(target_dir.join("thumbv7em-none-eabihf/fw/firmware-qemu"))
}

/// Whether `root`, the checkout this crate was built in (baked in at compile time), is where
/// to build the QEMU firmware for the binary `exe`: it must still be a workspace, and the
/// binary inside it or run by cargo (`by_cargo`). A binary copied elsewhere would otherwise
/// build in a stale checkout, or fail in one that is gone.
fn checkout(root: &Path, exe: &Path, by_cargo: bool) -> Result<(), ElfError> {
    if !root.join("Cargo.toml").is_file() {
        return Err(ElfError::NoCheckout {
            root: root.to_path_buf(),
            why: "is not there any more",
        });
    }
    if !by_cargo && !exe.starts_with(root) {
        return Err(ElfError::NoCheckout {
            root: root.to_path_buf(),
            why: "is not the one this binary runs from",
        });
    }
    Ok(())
}

/// Why there is no QEMU firmware to run.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    /// The ELF cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: boards::read::ReadError,
    },
    /// [`ELF_ENV`] names something that is not a file.
    #[error("{ELF_ENV} names {}, which is not a file", .0.display())]
    NotAFile(PathBuf),
    /// The crate is not where a workspace build can find the firmware.
    #[error("hil-tests is not inside the workspace")]
    NoWorkspace,
    /// The checkout the binary was built in cannot build the firmware for it.
    #[error(
        "the checkout this binary was built in ({}) {why}: give the QEMU firmware with --elf \
         or {ELF_ENV}, or run the bench from a checkout (cargo run -p hil-tests)",
        root.display()
    )]
    NoCheckout {
        /// The checkout baked in at build time.
        root: PathBuf,
        /// What is wrong with it.
        why: &'static str,
    },
    /// cargo could not be started.
    #[error("cannot run cargo to build the QEMU firmware: {0}")]
    Cargo(std::io::Error),
    /// The build failed; its last lines of output.
    #[error(
        "building the QEMU firmware failed (is the thumbv7em-none-eabihf target installed?): {}",
        last_lines.join(" | ")
    )]
    Build {
        /// The last lines cargo printed.
        last_lines: Vec<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before issue 52 a copied binary built in whatever path it was compiled in.
    #[test]
    fn a_binary_away_from_its_checkout_says_so() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let inside = root.join("target/release/hil-tests");
        let copied = Path::new("/opt/bench/hil-tests");
        assert!(checkout(root, &inside, false).is_ok());
        assert!(
            checkout(root, copied, true).is_ok(),
            "cargo run with any target dir"
        );
        let e = checkout(root, copied, false).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "the checkout this binary was built in ({}) is not the one this binary runs from",
                root.display()
            )),
            "{e}"
        );
        let gone = tempfile::tempdir().unwrap();
        let e = checkout(gone.path(), &gone.path().join("hil-tests"), false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                ") is not there any more: give the QEMU firmware with --elf or BIRDCAGE_PIL_ELF"
            ),
            "{e}"
        );
    }
}
