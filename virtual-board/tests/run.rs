//! The `virtual-board` binary end to end: the real board ELF boots and finds its fixture, the
//! bytes a debugger reads back are the file's, an unmodelled register access and a panic stop
//! the run with what a person needs, and bad input gets one line and exit 2.
//!
//! The board ELF is `cargo fw`'s; without it those tests say "skipped: no board ELF (cargo fw)".
//! The small programs here are hand-assembled Thumb code in a minimal ELF, so that each stop
//! is made on purpose by one known instruction.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gdb_probe::{Address, Gdb, Quirks};
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};

fn board() -> Command {
    Command::new(env!("CARGO_BIN_EXE_virtual-board"))
}

/// The board ELF `cargo fw` writes, if it has been built.
fn board_elf() -> Option<PathBuf> {
    let elf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/thumbv7em-none-eabihf/fw/firmware");
    if elf.is_file() {
        Some(elf)
    } else {
        needs::skip("board-elf", "no board ELF (cargo fw)");
        None
    }
}

/// A minimal ELF32 ARM executable: one PT_LOAD of `image` at 0x08000000 (vector table first).
fn tiny_elf(image: &[u8]) -> Vec<u8> {
    let mut elf = vec![0u8; 52 + 32];
    elf[..4].copy_from_slice(b"\x7fELF");
    elf[4] = 1; // ELFCLASS32
    elf[5] = 1; // little-endian
    elf[6] = 1; // EV_CURRENT
    elf[16..18].copy_from_slice(&2u16.to_le_bytes()); // ET_EXEC
    elf[18..20].copy_from_slice(&40u16.to_le_bytes()); // EM_ARM
    elf[20..24].copy_from_slice(&1u32.to_le_bytes());
    elf[24..28].copy_from_slice(&0x0800_0009u32.to_le_bytes()); // e_entry
    elf[28..32].copy_from_slice(&52u32.to_le_bytes()); // e_phoff
    elf[40..42].copy_from_slice(&52u16.to_le_bytes()); // e_ehsize
    elf[42..44].copy_from_slice(&32u16.to_le_bytes()); // e_phentsize
    elf[44..46].copy_from_slice(&1u16.to_le_bytes()); // e_phnum
    let ph = 52;
    let word =
        |elf: &mut Vec<u8>, at: usize, v: u32| elf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    word(&mut elf, ph, 1); // PT_LOAD
    word(&mut elf, ph + 4, 84); // p_offset
    word(&mut elf, ph + 8, 0x0800_0000); // p_vaddr
    word(&mut elf, ph + 12, 0x0800_0000); // p_paddr
    word(&mut elf, ph + 16, image.len() as u32);
    word(&mut elf, ph + 20, image.len() as u32);
    word(&mut elf, ph + 24, 5); // R + X
    elf.extend_from_slice(image);
    elf
}

/// A program: SP and reset vector (0x08000009), then `code` at 0x08000008.
fn program(code: &[u8]) -> Vec<u8> {
    let mut image = Vec::new();
    image.extend_from_slice(&0x2002_0000u32.to_le_bytes());
    image.extend_from_slice(&0x0800_0009u32.to_le_bytes());
    image.extend_from_slice(code);
    tiny_elf(&image)
}

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_board_binary_boots_finds_its_fixture_and_reaches_the_main_loop() {
    let Some(elf) = board_elf() else { return };
    let out = board()
        .args(["run", "--seed", "7", "--ms", "20", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        log.contains("edge fixture found: 7 packages answer"),
        "{log}"
    );
    assert!(log.contains("on nucleo-f446re"), "{log}");
}

#[test]
fn a_hung_firmware_is_reset_by_its_watchdog_and_starts_again() {
    let Some(elf) = board_elf() else { return };
    // The press at 200 ms starts the self-check, whose entry `--fault hang` made a branch to
    // itself: the main loop stops feeding the IWDG.
    let out = board()
        .args(["run", "--seed", "7", "--ms", "2500", "--press-at", "200"])
        .args(["--fault", "hang", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // Started twice: at power-on and after the reset (its RTT control block written again).
    assert_eq!(log.matches("edge fixture found").count(), 2, "{log}");
    let line = err
        .lines()
        .find(|l| l.contains("the independent watchdog (IWDG) expired"))
        .unwrap_or_else(|| panic!("no watchdog reset: {err}"));
    // The firmware sets 1,000 ms: PR /8, RLR 3999 (8 x 4000 / 32 kHz, RM0390 19.3.3), from
    // its last feed, which is the press (200 ms) and the debouncer's few milliseconds.
    let at: u64 = line
        .split_whitespace()
        .nth(3)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!((1_200..1_260).contains(&at), "{line}");
}

#[test]
fn an_unmodelled_register_read_stops_with_its_name_direction_and_exact_pc() {
    let dir = tempfile::tempdir().unwrap();
    // 0x08000008: ldr r0, [pc, #4]   (the literal at 0x08000010)
    // 0x0800000a: ldr r1, [r0]       (USART2_SR: a page no model answers)
    // 0x0800000c: b .
    // 0x0800000e: (padding)
    // 0x08000010: .word 0x40004400
    let code = [
        0x01, 0x48, 0x01, 0x68, 0xFE, 0xE7, 0x00, 0x00, 0x00, 0x44, 0x00, 0x40,
    ];
    let elf = write(&dir, "usart.elf", &program(&code));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "virtual board: the firmware made a read of USART2_SR (0x40004400) at PC \
             0x0800000a, which the virtual board does not model"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unmodelled_register_in_a_modelled_page_stops_at_its_instruction_block() {
    let dir = tempfile::tempdir().unwrap();
    // The same, reading RCC_AHB2RSTR: its page holds RCC and FLASH, which are modelled, so
    // the model refuses it and names the block the access was made in.
    let code = [
        0x01, 0x48, 0x01, 0x68, 0xFE, 0xE7, 0x00, 0x00, 0x14, 0x38, 0x02, 0x40,
    ];
    let elf = write(&dir, "ahb2rstr.elf", &program(&code));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "virtual board: the firmware made a read of RCC register at offset 0x014 \
             (0x40023814) at the instruction block at PC 0x08000008, which the virtual board \
             does not model"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn code_run_from_sram_and_a_store_to_flash_stop_the_run_with_their_pc() {
    let dir = tempfile::tempdir().unwrap();
    // ldr r0, [pc, #4]; bx r0; b .; (padding); .word 0x20000001 (SRAM, Thumb)
    let code = [
        0x01, 0x48, 0x00, 0x47, 0xFE, 0xE7, 0x00, 0x00, 0x01, 0x00, 0x00, 0x20,
    ];
    let elf = write(&dir, "sram.elf", &program(&code));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    // The SRAM's pages hold no execute right (for speed: README, "memory window").
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the CPU stopped at PC 0x20000000: FETCH_PROT"),
        "{}",
        stderr(&out)
    );
    // ldr r0, [pc, #4]; movs r1, #0x5a; str r1, [r0]; b .; .word 0x08000100 (flash)
    let code = [
        0x01, 0x48, 0x5A, 0x21, 0x01, 0x60, 0xFE, 0xE7, 0x00, 0x01, 0x00, 0x08,
    ];
    let elf = write(&dir, "flash.elf", &program(&code));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    // Flash is written only through the flash interface, with FLASH_CR.PG set: a
    // configuration fault (RM0390 3.5.4).
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "configuration fault at PC 0x0800000c: a 4-byte store of 0x5a to flash at \
             0x08000100 with FLASH_CR = 0x80000000 (locked): flash is programmed only with CR \
             unlocked and PG set; the chip sets PGSERR and writes nothing (RM0390 3.5.4, \
             standard programming; 3.8.4, PGSERR)"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unmodelled_write_names_the_value_written() {
    let dir = tempfile::tempdir().unwrap();
    // ldr r0, [pc, #4]; movs r1, #0x5a; str r1, [r0]; b .; literal PWR_CR (0x40007000,
    // CR1 in stm32-metapac's names)
    let code = [
        0x01, 0x48, 0x5A, 0x21, 0x01, 0x60, 0xFE, 0xE7, 0x00, 0x70, 0x00, 0x40,
    ];
    let elf = write(&dir, "pwr.elf", &program(&code));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("write of 0x0000005a to PWR_CR1 (0x40007000) at PC 0x0800000c"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_stack_run_off_the_bottom_of_sram_is_a_stack_overflow() {
    // What a flip-linked firmware's overflow does (the stack below the statics, at the bottom
    // of SRAM): SP at 0x20000000 and one more push.
    // 0x08000008: ldr r0, [pc, #4]; mov sp, r0; push {r0}; b .; literal 0x20000000
    let dir = tempfile::tempdir().unwrap();
    let code = [
        0x01, 0x48, 0x85, 0x46, 0x01, 0xB4, 0xFE, 0xE7, 0x00, 0x00, 0x00, 0x20,
    ];
    let elf = write(&dir, "overflow.elf", &program(&code));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    assert_eq!(out.status.code(), Some(7), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "stack overflow in 0x0800000c: SP 0x20000000 ran off the bottom of SRAM, a write \
             of 0x20000000 to 0x1ffffffc at PC 0x0800000c"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn udf_is_a_firmware_panic_with_exit_code_101() {
    let dir = tempfile::tempdir().unwrap();
    // udf #0 (panic-probe's end)
    let elf = write(&dir, "udf.elf", &program(&[0x00, 0xDE]));
    let out = board().args(["run", "--elf"]).arg(&elf).output().unwrap();
    assert_eq!(out.status.code(), Some(101), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the firmware panicked (udf at PC 0x08000008)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = write(&dir, "garbage.elf", b"not an elf at all");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--elf".into(), garbage.display().to_string()],
            "is not a valid ELF file",
        ),
        (
            vec!["--elf".into(), dir.path().display().to_string()],
            "is a directory, not the board ELF",
        ),
        (
            vec![
                "--elf".into(),
                garbage.display().to_string(),
                "--profile".into(),
                "no-such-board".into(),
            ],
            "is not a valid ELF file",
        ),
    ];
    for (args, expected) in cases {
        let out = board().arg("run").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{args:?}: {err}"
        );
    }
    // A cause is said once (an error chain once printed the OS error twice), and a profile is
    // named once.
    for (args, once) in [
        (
            vec!["run", "--elf", "/nonexistent/board.elf"],
            "No such file or directory",
        ),
        (
            vec![
                "serve",
                "--elf",
                garbage.to_str().unwrap(),
                "--gdb",
                "tcp:127.0.0.1:1",
            ],
            "not a valid ELF",
        ),
    ] {
        let out = board().args(&args).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.matches(once).count(), 1, "{args:?}: {err}");
    }
    // Numbers out of range get the range in words, as the other binaries' do.
    for (args, expected) in [
        (["--seed", "-1"], "must be a whole number, 0 or more"),
        (["--ms", "-5"], "must be a whole number from 0 to 600000"),
        (
            ["--ms", "100000000000"],
            "must be a whole number from 0 to 600000",
        ),
    ] {
        let out = board()
            .arg("run")
            .args(args)
            .arg("--elf")
            .arg(&garbage)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // An ELF for another machine is named as one: this test's own binary, the host's.
    let host = std::env::current_exe().unwrap();
    let out = board().args(["run", "--elf"]).arg(&host).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("not a 32-bit ARM (Cortex-M) one") && !err.contains("not a valid ELF"),
        "{err}"
    );
    // An ELF that loads where the STM32F446's flash is not (the QEMU firmware loads at 0).
    let mut image = vec![0u8; 16];
    image[..4].copy_from_slice(&0x2002_0000u32.to_le_bytes());
    let mut elf = tiny_elf(&image);
    elf[52 + 12..52 + 16].copy_from_slice(&0u32.to_le_bytes()); // p_paddr = 0
    let other = write(&dir, "other.elf", &elf);
    let out = board().args(["run", "--elf"]).arg(&other).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("outside the STM32F446RE's flash"),
        "{}",
        stderr(&out)
    );
}

/// `b .` at the reset vector: a program that runs as long as it is let.
const SPIN: [u8; 4] = [0xfe, 0xe7, 0x00, 0xbf];

#[test]
fn a_press_past_the_longest_run_is_refused_in_one_line_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let elf = write(&dir, "spin.elf", &program(&SPIN));
    // Within 50 of 2^64 the press's end once overflowed (exit 101, a panic).
    for at in ["18446744073709551600", "18446744073709551615", "600001"] {
        let out = board()
            .args(["run", "--ms", "1", "--press-at", at, "--elf"])
            .arg(&elf)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{at}: {err}");
        assert!(
            err.contains("must be a whole number from 0 to 600000") && !err.contains("panicked"),
            "{at}: {err}"
        );
    }
    let out = board()
        .args(["run", "--ms", "1", "--press-at", "600000", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn coverage_is_never_written_through_a_link_nor_into_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let elf = write(&dir, "spin.elf", &program(&SPIN));
    let victim = write(&dir, "victim", b"keep me");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let fifo = dir.path().join("fifo.txt");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for (path, kind) in [(&link, "a symbolic link"), (&fifo, "a FIFO")] {
        let mut child = board()
            .args(["run", "--ms", "1", "--elf"])
            .arg(&elf)
            .arg("--coverage")
            .arg(path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A FIFO's open once blocked for ever: the run must end on its own.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("{kind}: the run blocked");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{kind}: {err}");
        assert_eq!(err.lines().count(), 1, "{kind}: {err}");
        assert!(
            err.contains(&format!("{} is {kind}", path.display())),
            "{kind}: {err}"
        );
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
}

#[test]
fn merged_coverage_keeps_every_function_an_earlier_run_marked() {
    let Some(elf) = board_elf() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coverage.txt");
    let run = |merge: bool| {
        let mut c = board();
        c.args(["run", "--ms", "1", "--elf"])
            .arg(&elf)
            .arg("--coverage")
            .arg(&path);
        if merge {
            c.arg("--coverage-merge");
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(&path).unwrap()
    };
    let marked = |text: &str| text.lines().filter(|l| l.starts_with("+ ")).count();
    let alone = run(false);
    let functions = alone.lines().count();
    assert!(marked(&alone) > 0 && marked(&alone) < functions, "{alone}");
    // An earlier run that ran every function: the merge keeps them all marked.
    let all: String = alone.lines().map(|l| format!("+ {}\n", &l[2..])).collect();
    std::fs::write(&path, &all).unwrap();
    assert_eq!(run(true), all);
    // Without --coverage-merge the file is this run's alone.
    assert_eq!(run(false), alone);
    // Another ELF's file (other names) is replaced, not merged.
    std::fs::write(&path, "+ another_elfs_main\n").unwrap();
    assert_eq!(run(true), alone);
}

#[test]
fn the_bytes_a_debugger_reads_from_flash_are_the_files() {
    let Some(elf) = board_elf() else { return };
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("gdb.sock");
    let mut child = board()
        .args(["serve", "--elf"])
        .arg(&elf)
        .arg("--gdb")
        .arg(format!("unix:{}", socket.display()))
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !socket.exists() && start.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let mut gdb = Gdb::connect(&Address::Unix(socket.clone()), Quirks::PLAIN).unwrap();
    let bytes = std::fs::read(&elf).unwrap();
    let file = ElfFile32::<object::Endianness>::parse(&*bytes).unwrap();
    let endian = file.endian();
    let mut loaded = 0;
    for ph in file
        .elf_header()
        .program_headers(endian, &*bytes)
        .unwrap()
        .iter()
        .filter(|ph| ph.p_type(endian) == object::elf::PT_LOAD && ph.p_filesz(endian) > 0)
    {
        let want = ph.data(endian, &*bytes).unwrap();
        let mut got = vec![0u8; want.len()];
        gdb.read_memory(ph.p_paddr(endian), &mut got).unwrap();
        assert!(got == want, "segment at {:#x} differs", ph.p_paddr(endian));
        loaded += want.len();
    }
    assert!(loaded > 10_000, "only {loaded} bytes loaded");
    // The board outlives its debugger (the next may attach); SIGTERM ends it cleanly.
    drop(gdb);
    terminate(&child);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// Sends SIGTERM to `child`.
fn terminate(child: &std::process::Child) {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-s", "TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
}

/// A served board, killed if a test fails before it ends (else the test binary waits on it).
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves the board ELF on a socket in `dir` and connects the bench's client to it.
fn served(elf: &Path, dir: &tempfile::TempDir) -> (Served, Gdb) {
    let socket = dir.path().join("gdb.sock");
    let child = board()
        .args(["serve", "--elf"])
        .arg(elf)
        .arg("--gdb")
        .arg(format!("unix:{}", socket.display()))
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !socket.exists() && start.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let child = Served(child);
    // What these tests use of the stub: its memory window, read while the core runs.
    let quirks = Quirks {
        reads_while_running: true,
        window_command: Some(boards::virtual_board::Monitor::WINDOW),
        ..Quirks::PLAIN
    };
    let gdb = Gdb::connect(&Address::Unix(socket), quirks).unwrap();
    (child, gdb)
}

#[test]
fn rtt_is_read_through_the_memory_window_while_the_core_runs() {
    let Some(elf) = board_elf() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (mut child, mut gdb) = served(&elf, &dir);
    let path = gdb.memory_path();
    assert!(
        path.starts_with("a memory window, 0x20000000..0x20020000 in "),
        "{path}"
    );
    // Halted at the reset vector: RAM is still zero, the control block not yet written.
    let rtt = rtt_block(&elf);
    let mut id = [0u8; 16];
    gdb.read_memory(rtt, &mut id).unwrap();
    assert_eq!(id, [0u8; 16]);
    gdb.resume().unwrap();
    let start = std::time::Instant::now();
    while &id[..10] != b"SEGGER RTT" && start.elapsed().as_secs() < 10 {
        gdb.read_memory(rtt, &mut id).unwrap();
    }
    assert_eq!(
        &id[..10],
        b"SEGGER RTT",
        "the firmware's RTT set-up seen in the window"
    );
    assert!(!gdb.is_halted(), "read without stopping the core");
    // A step after a run stops after one instruction (it once ran on for ever).
    // (Long enough for the main loop's blocks to be translated, and cached.)
    std::thread::sleep(std::time::Duration::from_millis(200));
    gdb.halt().unwrap();
    let pc = gdb.read_register(15).unwrap();
    gdb.step().unwrap();
    assert_ne!(gdb.read_register(15).unwrap(), pc);
    // A debugger that leaves a running core leaves the board running; SIGTERM ends it.
    gdb.resume().unwrap();
    drop(gdb);
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(
        matches!(child.0.try_wait(), Ok(None)),
        "the board outlives its debugger"
    );
    terminate(&child.0);
    let status = child.0.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        !dir.path().join("gdb.sock.ram").exists(),
        "the window's file is removed"
    );
}

/// The address of the ELF's `_SEGGER_RTT` control block.
fn rtt_block(elf: &Path) -> u32 {
    let bytes = std::fs::read(elf).unwrap();
    gdb_probe::rtt::control_block_address(elf, &bytes).unwrap()
}

/// SIL's game on the NUCLEO's drawn board (profile + seed) against the perfect Short: the
/// application in-process, its button pressed in-process.
fn sil_game(seed: u64) -> (String, heuristic::Side) {
    let profile = &boards::NUCLEO_F446RE;
    let cage =
        emulator::emulated::EmulatedCage::new(profile, heuristic::Size::M4, Some(seed)).unwrap();
    let mut app = cage.app(profile, firmware::Config::default());
    let sil = emulator::emulated::run_game(&cage, &mut app, |p| {
        emulator::players::perfect_move(p).expect("a move while the game is on")
    });
    let winner = *sil.result.as_ref().expect("SIL's game ends with a verdict");
    assert!(sil.moves.len() >= 7, "a whole game: {}", sil.record());
    (sil.record(), winner)
}

#[test]
fn a_person_plays_by_typing_moves_and_pressing_and_the_firmware_gives_the_verdict() {
    use std::io::{BufRead, BufReader, Write};
    let Some(elf) = board_elf() else { return };
    let seed = 7;
    let mut child = board()
        .args(["play", "--seed", &seed.to_string(), "--elf"])
        .arg(&elf)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut said = Vec::new();
    let mut read_until = |said: &mut Vec<String>, end: &dyn Fn(&str) -> bool| -> String {
        for line in lines.by_ref() {
            let line = line.unwrap();
            said.push(line.clone());
            if end(&line) {
                return line;
            }
        }
        panic!("the output ended: {said:#?}")
    };
    read_until(&mut said, &|l| {
        l.starts_with("Every LED is lit: a new game")
    });
    // Pressing before the machine has moved starts the game; then the person's mistakes
    // are named and the game goes on.
    let size = heuristic::Size::M4;
    let mut position = heuristic::Position::new(size, heuristic::Side::Cut);
    let mut first = true;
    let record = loop {
        writeln!(input).unwrap();
        let line = read_until(&mut said, &|l| {
            l.starts_with("The machine cuts ") || l.starts_with("Record: ")
        });
        if line.starts_with("Record: ") {
            break line;
        }
        let edge = line["The machine cuts ".len()..].split(' ').next().unwrap();
        position
            .play_edge(heuristic::Edge::parse(size, edge).unwrap())
            .unwrap();
        if first {
            // An edge off the board, the machine's own cut, a press before a move.
            let own = edge.to_lowercase();
            for (typed, answer) in [
                ("z9", "z9 is off the M=4 board"),
                (own.as_str(), "was already cut"),
                ("", "Make your move on the cage first"),
            ] {
                writeln!(input, "{typed}").unwrap();
                let line = read_until(&mut said, &|_| true);
                assert!(line.contains(answer), "{typed:?}: {line}");
            }
            first = false;
        }
        // The game may be over (the machine's cut won): the next press shows the verdict.
        if position.winner().is_none()
            && let Some(short) = emulator::players::perfect_move(&position)
        {
            position.play_edge(short).unwrap();
            writeln!(input, "{}", short.to_string().to_lowercase()).unwrap();
            let line = read_until(&mut said, &|l| l.starts_with("You short "));
            assert!(line.starts_with(&format!("You short {short}.")), "{line}");
        }
    };
    drop(input);
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "{said:#?}");
    // The person (playing perfect Short's moves) plays the game SIL plays, and the firmware's
    // verdict is lit and said.
    let (sil_record, winner) = sil_game(seed);
    assert_eq!(record, format!("Record: {}", sil_record), "{said:#?}");
    let expected = match winner {
        heuristic::Side::Cut => "Every row LED is lit: the machine (Cut) has won.",
        heuristic::Side::Short => "Every column LED is lit: you (Short) have won.",
    };
    assert_eq!(rest, [expected], "{said:#?}");
    // The LEDs were drawn: a new game lights every one.
    assert!(
        said.iter().any(|l| l.trim() == "* * * * * * *"),
        "{said:#?}"
    );
}

#[test]
fn the_virtual_operator_plays_by_button_and_leds_the_game_sil_plays() {
    let Some(elf) = board_elf() else { return };
    for seed in [7u64, 12] {
        let out = board()
            .args(["visit", "--seed", &seed.to_string(), "--elf"])
            .arg(&elf)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        let (record, winner) = sil_game(seed);
        assert_eq!(
            text.trim(),
            format!("Record: {record}\nWinner: {}", winner.name()),
            "seed {seed}"
        );
    }
}

/// `visit` with `fault`: exit 6 (no verdict) and what stderr says.
fn faulty_game(elf: &Path, fault: &str) -> String {
    let out = board()
        .args(["visit", "--seed", "7", "--fault", fault, "--elf"])
        .arg(elf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{fault}: {}", stderr(&out));
    stderr(&out)
}

#[test]
fn board_faults_made_at_register_level_are_found_with_what_to_check() {
    let Some(elf) = board_elf() else { return };
    // A dead LED: the visitor sees the power-on pattern with a dark row.
    let dead = faulty_game(&elf, "led-dead:PC10");
    assert!(
        dead.contains("these stay dark: row 1 (PC10); check each LED, its series resistor"),
        "{dead}"
    );
    // An open ADC input: the firmware's self-check refuses the cage and shows its pattern;
    // its log names the node.
    let open = faulty_game(&elf, "adc-open:PA0");
    assert!(open.contains("it shows its fault pattern"), "{open}");
    assert!(open.contains("node A6 reads 0, expected 914"), "{open}");
    // A stuck input does the same with its code.
    let stuck = faulty_game(&elf, "adc-stuck:PC1:1023");
    assert!(stuck.contains("node A4 reads 1023"), "{stuck}");
    // MISO stuck low: the firmware finds no fixture and says so (the bench's `set edges` is
    // then refused as NoFixture).
    let out = board()
        .args(["run", "--ms", "20", "--fault", "miso-low", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        log.contains("no edge fixture answers on MISO: moves are made by hand"),
        "{log}"
    );
    // The PLL never locks: no conversion ever starts, and the run says where the core spins.
    let out = board()
        .args(["run", "--ms", "20", "--fault", "pll-stuck", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(err.contains(", 0 conversions)"), "{err}");
    assert!(err.contains("after 20 ms the core is at PC 0x"), "{err}");
    // A panic at the first self-check: the firmware's own handler runs to its `udf` (it
    // writes SHCSR first, which the model once lacked), exit 101 with its defmt message.
    let out = board()
        .args([
            "run",
            "--ms",
            "700",
            "--press-at",
            "300",
            "--fault",
            "panic",
            "--elf",
        ])
        .arg(&elf)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(101), "{err}");
    assert!(err.contains("the firmware panicked (udf at PC 0x"), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("error panicked at"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A bad fault is bad input.
    let out = board()
        .args(["run", "--fault", "led-dead:PZ3", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no port Z on LQFP64"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn test_refuses_an_elf_without_embedded_tests_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // b . (a program, but no `.embedded_test` section)
    let elf = write(&dir, "plain.elf", &program(&[0xFE, 0xE7]));
    let out = board().args(["test", "--elf"]).arg(&elf).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("plain.elf has no embedded-test tests (no `.embedded_test` section"),
        "{err}"
    );
}

#[test]
fn a_semihosting_call_outside_the_test_runner_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // movs r0, #0x18 (SYS_EXIT); bkpt 0xab; b .
    let elf = write(
        &dir,
        "semihosting.elf",
        &program(&[0x18, 0x20, 0xAB, 0xBE, 0xFE, 0xE7]),
    );
    let out = board()
        .args(["run", "--ms", "1", "--elf"])
        .arg(&elf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "the firmware stopped at BKPT 0xab at PC 0x0800000a (a semihosting call: run it \
             with `virtual-board test`)"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_instruction_budget_passes_its_own_run_and_fails_a_hot_function_grown_past_it() {
    let Some(elf) = board_elf() else { return };
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("budget.txt");
    let budget = |baseline: &Path| {
        board()
            .args(["budget", "--seed", "7", "--elf"])
            .arg(&elf)
            .arg("--baseline")
            .arg(baseline)
            .output()
            .unwrap()
    };
    let out = board()
        .args(["budget", "--seed", "7", "--write", "--elf"])
        .arg(&elf)
        .arg("--baseline")
        .arg(&baseline)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // The count is exact: the same game again changes nothing.
    let out = budget(&baseline);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(said.contains(" 0 functions changed"), "{said}");

    // The heuristic's hottest function at two thirds of its count in the baseline: the run
    // is +50 % over it.
    let text = std::fs::read_to_string(&baseline).unwrap();
    let doctored: String = text
        .lines()
        .map(|line| match line.trim().split_once(' ') {
            Some((n, "heuristic::geometry::<impl heuristic::size::Size>::edge_ends")) => {
                format!(
                    "{} heuristic::geometry::<impl heuristic::size::Size>::edge_ends\n",
                    n.parse::<u64>().unwrap() * 2 / 3
                )
            }
            _ => format!("{line}\n"),
        })
        .collect();
    assert_ne!(doctored, text, "the baseline has edge_ends");
    std::fs::write(&baseline, doctored).unwrap();
    let out = budget(&baseline);
    assert_eq!(out.status.code(), Some(8), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "grew by more than 10 %): heuristic::geometry::<impl heuristic::size::Size>::edge_ends;"
        ),
        "{}",
        stderr(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("+50.0%  heuristic::geometry::<impl heuristic::size::Size>::edge_ends  OVER"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // A baseline that is not a table: one line naming the file and the line, exit 2.
    std::fs::write(&baseline, "12 main\nmany foo\n").unwrap();
    let out = budget(&baseline);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("budget.txt: line 2: `many` is not a count"),
        "{}",
        stderr(&out)
    );
}
