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
