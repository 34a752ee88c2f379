//! The faults of the bench's own path to a board, each made on the virtual NUCLEO-F446RE at its
//! debug port (`virtual-board serve --dap`) and named by the bench in one line with what to do,
//! through `hil-tests doctor --probe dap:unix:PATH` as a person would meet them: a download cut
//! mid-way (a proxy between probe-rs and the board closes the socket while the flash algorithm
//! runs; the next run finds the flash torn, says so and flashes again), read protection level 1,
//! a DP that answers WAIT or FAULT, a core held in reset, a core that locks up at boot. Skips,
//! saying why, without the board ELF (`cargo fw`) or the virtual board's binary.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The board ELF and the virtual board, or why the test skips.
fn ready() -> Option<(PathBuf, PathBuf)> {
    let elf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(bench::BOARD_ELF);
    if !elf.is_file() {
        needs::skip("board-elf", "no board ELF (cargo fw)");
        return None;
    }
    match bench::virtual_board_binary() {
        Ok(binary) => Some((elf, binary)),
        Err(e) => {
            needs::skip("unicorn-build", format!("no virtual board ({e})"));
            None
        }
    }
}

/// A virtual board served at its debug port, killed when the test ends.
struct Served {
    child: Child,
    socket: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// A blank chip (no `--elf`: flash erased) with `options`, the ready line read.
    fn start(binary: &Path, options: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("board.sock");
        let mut child = Command::new(binary)
            .args(["serve", "--seed", "7", "--dap"])
            .arg(format!("unix:{}", socket.display()))
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.contains("serving its debug port"), "{line:?}");
        Served {
            child,
            socket,
            _dir: dir,
        }
    }
}

/// `hil-tests doctor` through the DAP at `socket` with `elf`.
fn doctor(socket: &Path, elf: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .arg("doctor")
        .arg("--probe")
        .arg(format!("dap:unix:{}", socket.display()))
        .arg("--elf")
        .arg(elf)
        .output()
        .unwrap()
}

/// Doctor fails `step` with `line`, and says what to do.
fn fails_with(out: &Output, step: &str, line: &str, what_to_do: &str) {
    let text = String::from_utf8_lossy(&out.stdout);
    let said = format!("{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success(), "{said}");
    assert!(
        text.contains(&format!("FAIL  {step}: {line}\n")),
        "{step}: {line}\n{said}"
    );
    assert!(
        text.contains(&format!("what to do: {what_to_do}")),
        "{said}"
    );
    assert!(!text.contains("target lost"), "{said}");
}

#[test]
fn a_core_held_in_reset_is_named_with_the_reset_line_to_check() {
    let Some((elf, binary)) = ready() else { return };
    let board = Served::start(&binary, &["--hold-reset"]);
    fails_with(
        &doctor(&board.socket, &elf),
        "chip matches the profile",
        "the core is held in reset: nRST is low — check the reset button / the probe's reset line",
        "check the reset button / the probe's reset line",
    );
}

#[test]
fn read_protection_level_1_is_named_before_any_download() {
    let Some((elf, binary)) = ready() else { return };
    let board = Served::start(&binary, &["--rdp", "1"]);
    fails_with(
        &doctor(&board.socket, &elf),
        "ELF flashed",
        "the flash is read-protected (RDP level 1) — set RDP back to level 0 \
         (STM32CubeProgrammer: -ob RDP=0xAA), which erases the flash, then flash again",
        "set RDP back to level 0",
    );
}

#[test]
fn a_dp_that_answers_wait_or_fault_is_named_as_such() {
    let Some((elf, binary)) = ready() else { return };
    for (bus, line) in [
        (
            "wait",
            "the debug port answered WAIT reading DHCSR: the chip's bus stays busy — lower the \
             probe's clock, or attach under reset (a low-power mode stops the bus)",
        ),
        (
            "fault",
            "the debug port answered FAULT reading DHCSR: the chip's bus refused the access (a \
             sticky error) — check the chip is the profile's and powered; a level-1 RDP refuses \
             its flash so",
        ),
    ] {
        let board = Served::start(&binary, &["--ap-bus", bus]);
        fails_with(
            &doctor(&board.socket, &elf),
            "chip matches the profile",
            line,
            line.split(" — ").nth(1).unwrap(),
        );
    }
}

/// The board ELF with its reset and HardFault vectors pointing at nothing (0xFFFF_FFFF, an
/// address the core cannot execute): it faults on its first instruction and cannot take the
/// fault, so the core locks up (ARMv7-M B1.5.15) as a chip with a broken vector table does.
fn locking_elf(elf: &Path, dir: &Path) -> PathBuf {
    use object::{Object, ObjectSection};
    let mut bytes = std::fs::read(elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let table = file.section_by_name(".vector_table").unwrap();
    let (offset, _) = table.file_range().unwrap();
    let offset = offset as usize;
    for vector in [1, 3] {
        let at = offset + 4 * vector;
        bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    }
    let path = dir.join("firmware-locks-up");
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_core_that_locks_up_at_boot_is_named_with_its_pc() {
    let Some((elf, binary)) = ready() else { return };
    let dir = tempfile::tempdir().unwrap();
    let broken = locking_elf(&elf, dir.path());
    let board = Served::start(&binary, &[]);
    let out = doctor(&board.socket, &broken);
    fails_with(
        &out,
        "RTT control block found",
        "the core locked up at PC 0xfffffffe (a fault with no handler) — the firmware faults \
         before its handlers run: check its vector table and reset handler (a blank chip locks \
         up so too)",
        "the firmware faults before its handlers run",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ok    ELF flashed"), "{text}");
}

/// The board ELF that faults once RTT is up and cannot take the fault: the first instruction
/// of `App::start` (the firmware's last step before its main loop) made `udf #0`, and its
/// HardFault vector pointed at nothing, so the fault locks the core up (B1.5.15).
fn locking_later_elf(elf: &Path, dir: &Path) -> (PathBuf, u32) {
    use object::{Object, ObjectSection, ObjectSymbol};
    let mut bytes = std::fs::read(elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let start = file
        .symbols()
        .find(|s| {
            s.name().is_ok_and(|n| {
                let n = format!("{:#}", rustc_demangle::demangle(n));
                n.starts_with("firmware::app::App<") && n.ends_with(">::start")
            })
        })
        .map(|s| s.address() as u32 & !1)
        .expect("App::start");
    let text = file.section_by_name(".text").unwrap();
    let (offset, _) = text.file_range().unwrap();
    let at = (offset + u64::from(start) - text.address()) as usize;
    let (table, _) = file
        .section_by_name(".vector_table")
        .unwrap()
        .file_range()
        .unwrap();
    drop(file);
    bytes[at..at + 2].copy_from_slice(&0xDE00_u16.to_le_bytes());
    let hard_fault = table as usize + 4 * 3;
    bytes[hard_fault..hard_fault + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let path = dir.join("firmware-locks-up-later");
    std::fs::write(&path, bytes).unwrap();
    (path, start)
}

#[test]
fn a_core_that_locks_up_mid_run_is_named_with_its_pc_and_function_not_as_a_hang() {
    let Some((elf, binary)) = ready() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (broken, start) = locking_later_elf(&elf, dir.path());
    let board = Served::start(&binary, &[]);
    let out = doctor(&board.socket, &broken);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("ok    RTT control block found"), "{text}");
    let failed = text
        .lines()
        .find(|l| l.starts_with("FAIL"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        failed.contains(&format!(
            "the core locked up at PC {start:#010x} in firmware::app::App<"
        )) && failed.ends_with(
            "(a fault with no handler) — the firmware faulted and could not take the \
                 fault: look at that PC and at its HardFault handler's vector"
        ),
        "{text}"
    );
    assert!(!text.contains("hangs"), "{text}");
}

/// A proxy between probe-rs and the board that closes both ends once the flash algorithm has
/// been started `runs` times: a write of DHCSR that resumes the core (C_DEBUGEN alone,
/// 0xA05F_0001) after the debugger set the PC into SRAM, where the algorithm lives. The
/// algorithm's current call completes on the board, as a chip's flash controller finishes
/// the operation under way; no later one is made.
fn cut_after(board: &Path, proxy: &Path, runs: usize) -> std::thread::JoinHandle<usize> {
    let listener = UnixListener::bind(proxy).unwrap();
    let board = board.to_path_buf();
    std::thread::spawn(move || {
        let (client, _) = listener.accept().unwrap();
        let upstream = UnixStream::connect(&board).unwrap();
        let mut to_board = upstream.try_clone().unwrap();
        let mut to_client = client.try_clone().unwrap();
        let back = std::thread::spawn(move || {
            let mut lines = BufReader::new(upstream);
            let mut line = String::new();
            while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
                if to_client.write_all(line.as_bytes()).is_err() {
                    break;
                }
                line.clear();
            }
        });
        let mut lines = BufReader::new(client.try_clone().unwrap());
        let mut line = String::new();
        let (mut tar, mut dcrdr, mut pc_in_sram, mut started) = (0u64, 0u64, false, 0);
        while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
            let request: serde_json::Value = serde_json::from_str(&line).unwrap();
            let arguments = request["arguments"].as_array().cloned().unwrap_or_default();
            let word = |i: usize| arguments.get(i).and_then(serde_json::Value::as_u64);
            if request["request"] == "write_ap" {
                match (word(0), word(1)) {
                    (Some(0x4), Some(address)) => tar = address,
                    (Some(0xC), Some(value)) => match tar {
                        0xE000_EDF8 => dcrdr = value,
                        // DCRSR: REGWnR with REGSEL 15, the PC.
                        0xE000_EDF4 if value == 0x1_000F => {
                            pc_in_sram = (0x2000_0000..0x2002_0000).contains(&dcrdr);
                        }
                        0xE000_EDF0 if value == 0xA05F_0001 && pc_in_sram => started += 1,
                        _ => {}
                    },
                    _ => {}
                }
            }
            if to_board.write_all(line.as_bytes()).is_err() {
                break;
            }
            line.clear();
            if started == runs {
                // Let the board take the request before the connection goes.
                std::thread::sleep(Duration::from_millis(20));
                break;
            }
        }
        let _ = client.shutdown(std::net::Shutdown::Both);
        let _ = to_board.shutdown(std::net::Shutdown::Both);
        let _ = back.join();
        started
    })
}

#[test]
fn a_download_cut_mid_way_is_found_by_the_next_run_and_flashed_again() {
    let Some((elf, binary)) = ready() else { return };
    // probe-rs 0.32's STM32F4 algorithm: an init, the four erases of sectors 0-3, then a
    // call a page. Cut at the 8th start, sector 0 has some of its pages; at the 23rd, all.
    for (runs, torn) in [(8, "sector 0 half written"), (23, "sector 1 erased")] {
        let start = Instant::now();
        let board = Served::start(&binary, &[]);
        let dir = tempfile::tempdir().unwrap();
        let proxy = dir.path().join("proxy.sock");
        let cut = cut_after(&board.socket, &proxy, runs);
        let out = doctor(&proxy, &elf);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "the download was cut: {said}");
        assert_eq!(
            cut.join().unwrap(),
            runs,
            "the algorithm started {runs} times"
        );
        // The next run, straight to the board: the flash torn, said so, flashed again.
        let out = doctor(&board.socket, &elf);
        let text = String::from_utf8_lossy(&out.stdout);
        let said = format!("{text}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{said}");
        let line = text
            .lines()
            .find(|l| l.starts_with("ok    ELF flashed"))
            .unwrap_or_else(|| panic!("{said}"));
        let found = format!(
            "flash holds no whole image ({torn}: an interrupted download?): flashing again"
        );
        assert!(line.ends_with(&format!("({found})")), "{runs}: {said}");
        assert!(said.contains(&format!("bench: {found}\n")), "{said}");
        assert!(
            text.contains("\npassed: 10 bring-up steps, none failed"),
            "{said}"
        );
        // A run after a whole download finds nothing to say.
        let out = doctor(&board.socket, &elf);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && !text.contains("interrupted"),
            "{text}"
        );
        assert!(start.elapsed() < Duration::from_secs(30), "{runs}");
    }
}
