//! The virtual NUCLEO-F446RE (the `virtual-board` binary, GPL-2.0): started as a process of
//! its own serving a GDB remote stub on a unix socket, reached only over that socket, killed
//! and its socket removed when dropped. What it says on stderr when it stops (an unmodelled
//! register access, a configuration fault, a firmware panic) is kept for the bench's error.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use gdb_probe::Address;

use super::{MachineError, guarded, socket_path};

/// The environment variable naming the `virtual-board` binary.
pub const VIRTUAL_BOARD_ENV: &str = "BIRDCAGE_VIRTUAL_BOARD";
/// The binary's name.
const BINARY: &str = "virtual-board";
/// How long the board may take to open its socket (it reads and checks the ELF first).
const SOCKET_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the `virtual-board` binary is: [`VIRTUAL_BOARD_ENV`], else beside the running
/// executable or in its parent folder (a test binary runs from `target/debug/deps`), else on
/// PATH.
pub fn virtual_board_binary() -> Result<PathBuf, MachineError> {
    if let Some(path) = std::env::var_os(VIRTUAL_BOARD_ENV).filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(MachineError::NoVirtualBoard(vec![path]))
        };
    }
    let mut looked = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1).take(2) {
            let candidate = dir.join(BINARY);
            if candidate.is_file() {
                return Ok(candidate);
            }
            looked.push(candidate);
        }
    }
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        let candidate = dir.join(BINARY);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    looked.push(PathBuf::from("PATH"));
    Err(MachineError::NoVirtualBoard(looked))
}

/// The virtual board's process and its socket.
#[derive(Debug)]
pub struct VirtualBoard {
    child: Child,
    socket: PathBuf,
    stderr: PathBuf,
}

impl Drop for VirtualBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.socket);
        let _ = std::fs::remove_file(&self.stderr);
        // Killed, the board cannot remove its memory window's file.
        let _ = std::fs::remove_file(gdb_probe::window::beside(&self.socket));
    }
}

impl VirtualBoard {
    /// Starts the board binary `elf` on the virtual board wired as `profile` (a name or a
    /// profile file) with parts drawn from `seed`, and waits for its socket. `coverage`: where
    /// it writes which of the ELF's functions ran, when it ends. `faults`: board faults made
    /// at register level, as `virtual-board --fault` takes them (`pll-stuck`, `miso-low`, ...).
    pub fn start(
        elf: &Path,
        profile: &str,
        seed: Option<u64>,
        coverage: Option<&Path>,
        faults: &[&str],
    ) -> Result<VirtualBoard, MachineError> {
        let binary = virtual_board_binary()?;
        let socket = socket_path("virtual");
        let stderr = socket.with_extension("stderr");
        let _ = std::fs::remove_file(&socket);
        let log = std::fs::File::create(&stderr).map_err(MachineError::Start)?;
        let mut command = guarded(&binary);
        command
            .arg("serve")
            .arg("--elf")
            .arg(elf)
            .arg("--profile")
            .arg(profile)
            .arg("--gdb")
            .arg(format!("unix:{}", socket.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        if let Some(seed) = seed {
            command.arg("--seed").arg(seed.to_string());
        }
        if let Some(path) = coverage {
            command.arg("--coverage").arg(path);
        }
        for fault in faults {
            command.arg("--fault").arg(fault);
        }
        let child = command.spawn().map_err(MachineError::Start)?;
        let mut board = VirtualBoard {
            child,
            socket,
            stderr,
        };
        let start = Instant::now();
        while !board.socket.exists() {
            if let Ok(Some(status)) = board.child.try_wait() {
                return Err(MachineError::BoardRefused {
                    said: board
                        .said()
                        .unwrap_or_else(|| format!("it exited with {status}")),
                });
            }
            if start.elapsed() > SOCKET_TIMEOUT {
                return Err(MachineError::NoSocket(SOCKET_TIMEOUT));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(board)
    }

    /// The stub's address, for a probe selector.
    pub fn address(&self) -> Address {
        Address::Unix(self.socket.clone())
    }

    /// What the board said on stderr (its stop, one line), once it has ended; `None` while it
    /// runs or if it said nothing.
    pub fn said(&mut self) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(500);
        while !matches!(self.child.try_wait(), Ok(Some(_))) {
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let text = std::fs::read_to_string(&self.stderr).ok()?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        (!lines.is_empty()).then(|| lines.join(" | "))
    }
}
