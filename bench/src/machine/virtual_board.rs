//! The virtual NUCLEO-F446RE (the `virtual-board` binary, GPL-2.0): started as a process of
//! its own serving a GDB remote stub on a unix socket, reached only over that socket, killed
//! and its socket removed when dropped. What it says on stderr when it stops (an unmodelled
//! register access, a configuration fault, a firmware panic) is kept for the bench's error.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use boards::virtual_board::BoardFault;
use gdb_probe::Address;

use super::private::{PrivateDir, own_socket};
use super::{MachineError, guarded};

/// The environment variable naming the `virtual-board` binary.
pub const VIRTUAL_BOARD_ENV: &str = "BIRDCAGE_VIRTUAL_BOARD";
/// The binary's name.
const BINARY: &str = "virtual-board";
/// The socket's name in the board's folder.
const SOCKET: &str = "board.sock";
/// The board's folder's kind ([`PrivateDir::new`]).
const FOLDER: &str = "virtual";

/// How long the board may take to open its socket (it reads and checks the ELF first).
const SOCKET_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the `virtual-board` binary is: [`VIRTUAL_BOARD_ENV`], else beside the running
/// executable or in its parent folder (a test binary runs from `target/debug/deps`), else in
/// the same `target` folder's `release` or `debug` (it is built with `--release`, the bench
/// often without), else on PATH.
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
        looked.extend(candidates(&exe));
    }
    for candidate in &looked {
        if candidate.is_file() {
            return Ok(candidate.clone());
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

/// Where a build puts the binary, seen from the running executable `exe`: its folder and the
/// one above, then `release` and `debug` in the `target` folder they are in.
fn candidates(exe: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = exe
        .ancestors()
        .skip(1)
        .take(2)
        .map(|dir| dir.join(BINARY))
        .collect();
    if let Some(target) = exe
        .ancestors()
        .skip(1)
        .take(3)
        .find(|dir| dir.join("release").is_dir() || dir.join("debug").is_dir())
    {
        for profile in ["release", "debug"] {
            let candidate = target.join(profile).join(BINARY);
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

/// The virtual board's process and its socket, memory window and stderr, in a folder of the
/// bench's own ([`PrivateDir`]).
#[derive(Debug)]
pub struct VirtualBoard {
    child: Child,
    socket: PathBuf,
    stderr: PathBuf,
    /// Removed, with what the board left in it, after the process is killed.
    _dir: PrivateDir,
}

impl Drop for VirtualBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a virtual board is started with: `virtual-board serve`'s options, named once so a
/// call says which it sets (`Launch::new(elf, profile).seed(Some(7))`).
#[derive(Clone, Copy, Debug)]
pub struct Launch<'a> {
    /// The board binary (`cargo fw`'s ELF).
    pub elf: &'a Path,
    /// The board it models: a name or a profile file (its wiring and parts).
    pub profile: &'a str,
    /// The draw of its parts; the profile's nominal parts when `None`.
    pub seed: Option<u64>,
    /// Where it writes which of the ELF's functions ran, when it ends. The coverage is added
    /// to what the file holds (`--coverage-merge`): a resumed report's is the union of its
    /// runs'; a report that starts over removes the file first (the report layer,
    /// `Report::open`). The board refuses anything there but a regular file (a link, a FIFO),
    /// by name, before it serves.
    pub coverage: Option<&'a Path>,
    /// Board faults made at register level (`virtual-board --fault`).
    pub faults: &'a [BoardFault],
}

impl<'a> Launch<'a> {
    /// `elf` on the board `profile`: nominal parts, no coverage, no fault.
    pub fn new(elf: &'a Path, profile: &'a str) -> Launch<'a> {
        Launch {
            elf,
            profile,
            seed: None,
            coverage: None,
            faults: &[],
        }
    }

    /// Parts drawn from `seed`.
    pub fn seed(self, seed: Option<u64>) -> Launch<'a> {
        Launch { seed, ..self }
    }

    /// Coverage written to `coverage`.
    pub fn coverage(self, coverage: Option<&'a Path>) -> Launch<'a> {
        Launch { coverage, ..self }
    }

    /// With the board faults `faults`.
    pub fn faults(self, faults: &'a [BoardFault]) -> Launch<'a> {
        Launch { faults, ..self }
    }
}

impl VirtualBoard {
    /// Starts the board binary as `launch` says, and waits for its socket.
    pub fn start(launch: &Launch<'_>) -> Result<VirtualBoard, MachineError> {
        let Launch {
            elf,
            profile,
            seed,
            coverage,
            faults,
        } = *launch;
        let binary = virtual_board_binary()?;
        let dir = PrivateDir::new(FOLDER)?;
        let socket = dir.join(SOCKET);
        let stderr = dir.join("board.stderr");
        let log = dir.create("board.stderr").map_err(MachineError::Start)?;
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
            command.arg("--coverage").arg(path).arg("--coverage-merge");
        }
        for fault in faults {
            command.arg("--fault").arg(fault.to_string());
        }
        let child = command.spawn().map_err(MachineError::Start)?;
        let mut board = VirtualBoard {
            child,
            socket,
            stderr,
            _dir: dir,
        };
        let start = Instant::now();
        while !own_socket(&board.socket) {
            if let Ok(Some(status)) = board.child.try_wait() {
                return Err(MachineError::BoardRefused {
                    said: board
                        .said()
                        .unwrap_or_else(|| format!("it ended: {status}")),
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

    /// What happened to the board, once it has ended: what it said on stderr (its stop, one
    /// line) and how it ended (its exit code, or the signal that killed it: a board killed
    /// under the bench says nothing); `None` while it runs.
    pub fn said(&mut self) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() <= deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return None,
            }
        };
        let text = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let ended = ended(status);
        Some(if lines.is_empty() {
            format!("the virtual board {ended} and said nothing")
        } else {
            format!("{} (the virtual board {ended})", lines.join(" | "))
        })
    }

    /// The board's process id (to signal it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// How a process ended, in words: `exited with code 2`, `was killed by signal 9 (SIGKILL)`.
fn ended(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(signal)) => {
            let name = match signal {
                1 => " (SIGHUP)",
                2 => " (SIGINT)",
                6 => " (SIGABRT)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            format!("was killed by signal {signal}{name}")
        }
        (None, None) => "ended".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_a_board_ended_is_said_in_words() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            ended(std::process::ExitStatus::from_raw(9)),
            "was killed by signal 9 (SIGKILL)"
        );
        assert_eq!(
            ended(std::process::ExitStatus::from_raw(101 << 8)),
            "exited with code 101"
        );
    }

    /// The program `virtual-board` serves in these tests: a vector table and `b .`.
    fn spin_elf(dir: &Path) -> PathBuf {
        let mut elf = vec![0u8; 52 + 32];
        elf[..4].copy_from_slice(b"\x7fELF");
        elf[4] = 1;
        elf[5] = 1;
        elf[6] = 1;
        elf[16] = 2;
        elf[18] = 40;
        elf[20] = 1;
        elf[24..28].copy_from_slice(&0x0800_0009u32.to_le_bytes());
        elf[28] = 52;
        elf[40] = 52;
        elf[42] = 32;
        elf[44] = 1;
        let image: Vec<u8> = [0x2002_0000u32, 0x0800_0009, 0xbf00_e7fe]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        for (at, v) in [(52, 1u32), (56, 84), (60, 0x0800_0000), (64, 0x0800_0000)] {
            elf[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        for (at, v) in [(68, image.len() as u32), (72, image.len() as u32), (76, 5)] {
            elf[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        elf.extend_from_slice(&image);
        let path = dir.join("spin.elf");
        std::fs::write(&path, elf).unwrap();
        path
    }

    #[test]
    fn a_board_killed_under_the_bench_is_said_to_be_killed_and_its_files_are_private() {
        if virtual_board_binary().is_err() {
            needs::skip(
                "unicorn-build",
                "no virtual-board binary (cargo build --release -p virtual-board)",
            );
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let elf = spin_elf(dir.path());
        let mut board = VirtualBoard::start(&Launch::new(&elf, "nucleo-f446re")).unwrap();
        let folder = board.socket.parent().unwrap().to_path_buf();
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::symlink_metadata(&folder).unwrap();
            assert!(meta.is_dir());
            assert_eq!(meta.mode() & 0o777, 0o700, "{}", folder.display());
            assert_eq!(meta.uid(), super::super::private::me());
        }
        assert_eq!(board.said(), None, "it runs");
        let pid = board.pid().to_string();
        assert!(
            std::process::Command::new("kill")
                .args(["-s", "KILL", &pid])
                .status()
                .unwrap()
                .success()
        );
        let said = board.said().unwrap();
        assert!(said.contains("was killed by signal 9 (SIGKILL)"), "{said}");
        drop(board);
        assert!(!folder.exists(), "the folder goes with the board");
    }

    #[test]
    fn a_release_build_is_found_from_a_debug_test_binary() {
        let target = tempfile::tempdir().unwrap();
        let deps = target.path().join("debug/deps");
        std::fs::create_dir_all(&deps).unwrap();
        std::fs::create_dir_all(target.path().join("release")).unwrap();
        let found = candidates(&deps.join("hil_virtual-0123"));
        assert_eq!(
            found,
            [
                deps.join(BINARY),
                target.path().join("debug").join(BINARY),
                target.path().join("release").join(BINARY),
            ]
        );
    }
}
