//! `virtual-board serve --dap`: the board at its debug port, driven as a probe drives an
//! STM32F446 over SWD, in pyOCD's remote-probe protocol (one JSON line a request). Here a
//! client written in the test walks the ADIv5 sequences itself (ARM IHI 0031: power-up,
//! AP discovery, the MEM-AP, the ROM table) and the ARMv7-M halting debug (C1.6); then pyOCD,
//! a debugger that shares no code with this project or probe-rs, drives the same socket
//! (`tests/pyocd_session.py`; "skipped: no pyocd" without it).
//!
//! The program served is hand-assembled (`common::COUNTER`): a counter stored to SRAM.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

mod common;
use common::*;

/// A served board, killed when the test ends.
struct Served {
    child: Child,
    /// The ready line's address (`unix:PATH` or `tcp:HOST:PORT`).
    at: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Serves `elf` (none: a blank chip) at `dap`, waiting for the ready line.
    fn start(elf: Option<&Path>, dap: &str) -> Served {
        Served::start_with(elf, dap, &[])
    }

    /// [`Served::start`] with more of `serve`'s options.
    fn start_with(elf: Option<&Path>, dap: &str, options: &[&str]) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_virtual-board"));
        command.arg("serve").args(options);
        if let Some(elf) = elf {
            command.arg("--elf").arg(elf);
        }
        let mut child = command
            .args(["--dap", dap])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let at = line
            .trim()
            .strip_prefix("virtual board: serving its debug port (SW-DP, AHB-AP) on ")
            .unwrap_or_else(|| panic!("the ready line: {line:?}"))
            .to_string();
        Served { child, at }
    }
}

/// A client of the protocol, over a unix socket.
struct Client {
    writer: UnixStream,
    reader: BufReader<UnixStream>,
    id: i64,
}

impl Client {
    fn connect(socket: &Path) -> Client {
        let s = UnixStream::connect(socket).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        Client {
            reader: BufReader::new(s.try_clone().unwrap()),
            writer: s,
            id: 0,
        }
    }

    /// Sends a raw line, returns the answer parsed.
    fn raw(&mut self, line: &str) -> Value {
        self.writer.write_all(line.as_bytes()).unwrap();
        self.writer.write_all(b"\n").unwrap();
        let mut answer = String::new();
        self.reader.read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{answer:?}: {e}"))
    }

    /// A request; the whole answer.
    fn ask(&mut self, request: &str, arguments: Value) -> Value {
        self.id += 1;
        let line = json!({"id": self.id, "request": request, "arguments": arguments});
        let answer = self.raw(&line.to_string());
        assert_eq!(answer["id"], self.id, "{answer}");
        answer
    }

    /// A request that must succeed: its result.
    fn ok(&mut self, request: &str, arguments: Value) -> Value {
        let answer = self.ask(request, arguments);
        assert_eq!(answer["status"], 0, "{request}: {answer}");
        answer.get("result").cloned().unwrap_or(Value::Null)
    }

    fn read_dp(&mut self, addr: u32) -> u32 {
        self.ok("read_dp", json!([addr])).as_u64().unwrap() as u32
    }

    fn write_dp(&mut self, addr: u32, value: u32) {
        self.ok("write_dp", json!([addr, value]));
    }

    /// The debug port powered up (ADIv5 B2.2.2's handshake) and AP 0's bank 0 selected, CSW
    /// set for words with auto-increment.
    fn power_up(&mut self) {
        assert_eq!(self.read_dp(0x0), 0x2BA0_1477, "DPIDR (RM0390 33.8.3)");
        self.write_dp(0x4, 0x5000_0000);
        assert_eq!(self.read_dp(0x4) >> 28, 0xF, "both power-ups acknowledged");
        self.write_dp(0x8, 0);
        self.ok("write_ap", json!([0x0, 0x0300_0052]));
    }

    fn read32(&mut self, address: u32) -> u32 {
        self.write_dp(0x8, 0);
        self.ok("write_ap", json!([0x4, address]));
        self.ok("read_ap", json!([0xC])).as_u64().unwrap() as u32
    }

    fn write32(&mut self, address: u32, value: u32) {
        self.write_dp(0x8, 0);
        self.ok("write_ap", json!([0x4, address]));
        self.ok("write_ap", json!([0xC, value]));
    }
}

const DHCSR: u32 = 0xE000_EDF0;
const DCRSR: u32 = 0xE000_EDF4;
const DCRDR: u32 = 0xE000_EDF8;
const DEMCR: u32 = 0xE000_EDFC;
const AIRCR: u32 = 0xE000_ED0C;
const DFSR: u32 = 0xE000_ED30;
const KEY: u32 = 0xA05F_0000;
const S_HALT: u32 = 1 << 17;

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn socket(dir: &Path) -> PathBuf {
    dir.join("dap.sock")
}

#[test]
fn a_debugger_finds_the_core_through_the_rom_table_and_reads_while_it_runs() {
    let d = dir();
    let elf = counter_elf(d.path());
    let served = Served::start(Some(&elf), &format!("unix:{}", socket(d.path()).display()));
    let mut c = Client::connect(&socket(d.path()));
    assert_eq!(c.ok("hello", json!([1])), Value::Null);
    assert_eq!(
        c.ok("readprop", json!(["capabilities"])),
        json!(["SWJ_SEQUENCE"])
    );
    c.ok("connect", json!(["SWD"]));
    c.power_up();
    // AP discovery: bank 0xF of AP 0 is the AHB-AP; AP 1 is absent (its IDR reads 0).
    c.write_dp(0x8, 0xF0);
    assert_eq!(c.ok("read_ap", json!([0xC])), 0x2477_0011_u32);
    assert_eq!(
        c.ok("read_ap", json!([0x8])),
        0xE00F_F003_u32,
        "BASE: the ROM table"
    );
    c.write_dp(0x8, 0x0100_00F0);
    assert_eq!(c.ok("read_ap", json!([0xC])), 0);
    // The ROM table (ARMv7-M ARM C1.2): its class, then the SCS it points at first.
    let cidr1 = c.read32(0xE00F_FFF4);
    assert_eq!(cidr1, 0x10, "component class 1: a ROM table");
    let entry = c.read32(0xE00F_F000);
    assert_eq!(entry, 0xFFF0_F003);
    let scs = 0xE00F_F000_u32.wrapping_add(entry & !0xFFF);
    assert_eq!(scs, 0xE000_E000);
    assert_eq!(c.read32(scs + 0xFE0), 0x0C, "PIDR0: the Cortex-M4's SCS");
    assert_eq!(c.read32(scs + 0xD00), 0x410F_C241, "CPUID: Cortex-M4 r0p1");
    assert_eq!(
        c.read32(0xE004_2000) & 0xFFF,
        0x421,
        "DBGMCU DEV_ID: STM32F446"
    );
    // The core runs (no debugger halted it): the counter moves between two reads.
    let first = c.read32(COUNTER_AT);
    std::thread::sleep(Duration::from_millis(50));
    let second = c.read32(COUNTER_AT);
    assert!(
        second > first,
        "the core runs under the reads: {first} then {second}"
    );
    drop(served);
}

#[test]
fn halting_debug_halts_steps_reads_registers_and_catches_the_reset() {
    let d = dir();
    let elf = counter_elf(d.path());
    let _served = Served::start(Some(&elf), &format!("unix:{}", socket(d.path()).display()));
    let mut c = Client::connect(&socket(d.path()));
    c.power_up();
    // C1.6.3: halt with the key and C_DEBUGEN.
    c.write32(DHCSR, KEY | 0b11);
    let dhcsr = c.read32(DHCSR);
    assert_ne!(dhcsr & S_HALT, 0, "{dhcsr:#x}");
    assert_eq!(c.read32(DFSR) & 1, 1, "DFSR.HALTED (B3.2.15)");
    let held = c.read32(COUNTER_AT);
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(c.read32(COUNTER_AT), held, "halted: the counter stands");
    // C1.6.4: PC through DCRSR/DCRDR, inside the loop.
    c.write32(DCRSR, 15);
    let pc = c.read32(DCRDR);
    assert!((0x0800_000C..0x0800_0012).contains(&pc), "{pc:#x}");
    // r0 written, then a step: `adds r0, #1` or the store or the branch runs once.
    c.write32(DCRDR, 100);
    c.write32(DCRSR, 1 << 16);
    c.write32(DCRSR, 15);
    c.write32(DCRDR, LOOP);
    c.write32(DCRSR, (1 << 16) | 15);
    c.write32(DHCSR, KEY | 0b101); // C_STEP, C_DEBUGEN
    let mut halted = false;
    for _ in 0..100 {
        if c.read32(DHCSR) & S_HALT != 0 {
            halted = true;
            break;
        }
    }
    assert!(halted, "halted again after a step");
    c.write32(DCRSR, 0);
    assert_eq!(c.read32(DCRDR), 101, "one `adds r0, #1`");
    c.write32(DCRSR, 15);
    assert_eq!(c.read32(DCRDR), LOOP + 2, "the PC moved one instruction");
    // A reset with VC_CORERESET halts at the reset vector (C1.6.5), S_RESET_ST read once.
    c.write32(DEMCR, 1);
    c.write32(AIRCR, 0x05FA_0004);
    let dhcsr = c.read32(DHCSR);
    assert_ne!(dhcsr & (1 << 25), 0, "S_RESET_ST");
    assert_ne!(dhcsr & S_HALT, 0, "halted by the catch");
    assert_eq!(
        c.read32(DHCSR) & (1 << 25),
        0,
        "S_RESET_ST cleared by its read"
    );
    assert_ne!(c.read32(DFSR) & (1 << 3), 0, "DFSR.VCATCH");
    c.write32(DCRSR, 15);
    assert_eq!(c.read32(DCRDR), ENTRY, "at the reset vector");
    // An FPB comparator (C1.11) on the loop: resumed, the core halts there with DFSR.BKPT.
    c.write32(0xE000_2000, 3); // FP_CTRL: KEY | ENABLE
    c.write32(0xE000_2008, 0x4000_0000 | LOOP | 1);
    c.write32(DFSR, 0x1F);
    c.write32(DHCSR, KEY | 1);
    let mut hit = false;
    for _ in 0..100 {
        if c.read32(DHCSR) & S_HALT != 0 {
            hit = true;
            break;
        }
    }
    assert!(hit, "the comparator halted the core");
    assert_eq!(c.read32(DFSR) & 2, 2, "DFSR.BKPT");
    c.write32(DCRSR, 15);
    assert_eq!(c.read32(DCRDR), LOOP);
}

/// Where the counter's code begins (the reset vector's target).
const ENTRY: u32 = 0x0800_0008;

#[test]
fn bad_requests_and_bad_accesses_are_answered_as_the_chip_answers_and_the_board_serves_on() {
    let d = dir();
    let elf = counter_elf(d.path());
    let mut served = Served::start(Some(&elf), &format!("unix:{}", socket(d.path()).display()));
    let mut c = Client::connect(&socket(d.path()));
    for line in [
        "not json",
        "[1,2]",
        r#"{"id": 1}"#,
        r#"{"id": 2, "request": "erase_all"}"#,
    ] {
        let answer = c.raw(line);
        assert_eq!(answer["status"], 1, "{line}: {answer}");
    }
    // An AP access before power-up: FAULT (status 12), and STICKYERR until ABORT clears it.
    let answer = c.ask("read_ap", json!([0xC]));
    assert_eq!(answer["status"], 12, "{answer}");
    c.write_dp(0x4, 0x5000_0000);
    assert_ne!(c.read_dp(0x4) & (1 << 5), 0, "STICKYERR");
    assert_eq!(c.ask("read_ap", json!([0x0]))["status"], 12, "still sticky");
    c.write_dp(0x0, 1 << 2); // ABORT.STKERRCLR
    c.power_up();
    // A TAR outside the bus: a bus error, FAULT, STICKYERR (ADIv5 B2.2.2).
    c.write_dp(0x8, 0);
    c.ok("write_ap", json!([0x4, 0x1000_0000]));
    assert_eq!(c.ask("read_ap", json!([0xC]))["status"], 12);
    c.write_dp(0x0, 1 << 2);
    // A write to a read-only register (the AP's IDR) is ignored.
    c.write_dp(0x8, 0xF0);
    c.ok("write_ap", json!([0xC, 0]));
    assert_eq!(c.ok("read_ap", json!([0xC])), 0x2477_0011_u32);
    // A second debugger is refused while one is attached.
    let mut second = Client::connect(&socket(d.path()));
    let answer = second.raw(r#"{"id": 0, "request": "hello", "arguments": [1]}"#);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("another debugger"),
        "{answer}"
    );
    assert!(
        matches!(served.child.try_wait(), Ok(None)),
        "the board serves on"
    );
    drop(c);
    // The next debugger finds the board as the last left it.
    std::thread::sleep(Duration::from_millis(100));
    let mut c = Client::connect(&socket(d.path()));
    assert_eq!(c.read_dp(0x0), 0x2BA0_1477);
}

#[test]
fn a_blank_chip_locks_up_until_a_debugger_halts_it() {
    let d = dir();
    let _served = Served::start(None, &format!("unix:{}", socket(d.path()).display()));
    let mut c = Client::connect(&socket(d.path()));
    c.power_up();
    // Erased flash reads 0xFF (RM0390 3.6.3): the vector table is all ones.
    assert_eq!(c.read32(0x0800_0004), 0xFFFF_FFFF);
    let mut locked = false;
    for _ in 0..100 {
        if c.read32(DHCSR) & (1 << 19) != 0 {
            locked = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(locked, "S_LOCKUP on an erased vector table");
    c.write32(DHCSR, KEY | 0b11);
    let dhcsr = c.read32(DHCSR);
    assert_eq!(
        dhcsr & ((1 << 19) | S_HALT),
        S_HALT,
        "halted out of lockup: {dhcsr:#x}"
    );
}

#[test]
fn pyocd_finds_the_core_halts_steps_breaks_and_resets_through_the_socket() {
    let python = Command::new("python3")
        .args(["-c", "import pyocd"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !python {
        needs::skip("pyocd", "no pyocd (python3 -m pip install pyocd==0.46.0)");
        return;
    }
    let d = dir();
    let elf = counter_elf(d.path());
    let served = Served::start(Some(&elf), "tcp:127.0.0.1:0");
    let port = served.at.strip_prefix("tcp:").unwrap().to_string();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyocd_session.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&port)
        .arg(format!("{LOOP:x}"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pyOCD failed:\n{stdout}\n{stderr}");
    for step in [
        "ok: found",
        "ok: halted at",
        "ok: r0, r7 and s3",
        "ok: SRAM read and written, DBGMCU DEV_ID 0x421",
        "ok: reset and halted at the reset vector 0x08000008",
        "ok: stepped",
        "ok: breakpoint at 0x0800000c reached",
        "ok: reset and running",
    ] {
        assert!(stdout.contains(step), "{step}:\n{stdout}\n{stderr}");
    }
}

#[test]
fn read_protection_level_1_refuses_flash_to_the_debugger_and_not_sram() {
    // RM0390 3.6.3: at level 1 no access to flash while a debugger is connected (a bus
    // error: FAULT and STICKYERR here); SRAM and the peripherals stay reachable.
    let d = dir();
    let elf = counter_elf(d.path());
    let served = Served::start(Some(&elf), &format!("unix:{}", socket(d.path()).display()));
    let mut c = Client::connect(&socket(d.path()));
    c.power_up();
    c.write_dp(0x8, 0);
    c.ok("write_ap", json!([0x4, 0x0800_0000]));
    assert_eq!(
        c.ok("read_ap", json!([0xC])),
        0x2002_0000_u32,
        "level 0: the vector table"
    );
    drop(c);
    drop(served);
    let d = dir();
    let sock = socket(d.path());
    let served = Served::start_with(
        Some(&elf),
        &format!("unix:{}", sock.display()),
        &["--rdp", "1"],
    );
    let mut c = Client::connect(&sock);
    c.power_up();
    c.write_dp(0x8, 0);
    c.ok("write_ap", json!([0x4, 0x0800_0000]));
    assert_eq!(
        c.ask("read_ap", json!([0xC]))["status"],
        12,
        "flash refused"
    );
    c.write_dp(0x0, 1 << 2);
    assert!(c.read32(COUNTER_AT) < u32::MAX, "SRAM read");
    assert_eq!(c.read32(0xE004_2000) & 0xFFF, 0x421, "DBGMCU read");
    drop(served);
}

#[test]
fn a_core_held_in_reset_does_not_run_or_halt_and_s_reset_st_stays_set() {
    // nRST held low by the board (`--hold-reset`, a pressed button): ARMv7-M C1.6.3,
    // S_RESET_ST set while the core is in reset, read after read; the probe's own reset line
    // cannot let it go (the line is wired-AND).
    let d = dir();
    let elf = counter_elf(d.path());
    let sock = socket(d.path());
    let _served = Served::start_with(
        Some(&elf),
        &format!("unix:{}", sock.display()),
        &["--hold-reset"],
    );
    let mut c = Client::connect(&sock);
    c.power_up();
    assert_eq!(c.ok("is_reset_asserted", json!([])), json!(true));
    c.ok("assert_reset", json!([false]));
    assert_eq!(
        c.ok("is_reset_asserted", json!([])),
        json!(true),
        "still held"
    );
    for _ in 0..3 {
        assert_ne!(c.read32(DHCSR) & (1 << 25), 0, "S_RESET_ST stays set");
    }
    let counter = c.read32(COUNTER_AT);
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(c.read32(COUNTER_AT), counter, "the core does not run");
    c.write32(DHCSR, KEY | 0b11);
    assert_eq!(c.read32(DHCSR) & S_HALT, 0, "no halt while in reset");
}

#[test]
fn the_probes_reset_line_holds_the_core_until_let_go() {
    let d = dir();
    let elf = counter_elf(d.path());
    let sock = socket(d.path());
    let _served = Served::start(Some(&elf), &format!("unix:{}", sock.display()));
    let mut c = Client::connect(&sock);
    c.power_up();
    c.ok("assert_reset", json!([true]));
    assert_ne!(c.read32(DHCSR) & (1 << 25), 0);
    assert_ne!(c.read32(DHCSR) & (1 << 25), 0, "held: set again");
    c.ok("assert_reset", json!([false]));
    c.read32(DHCSR);
    assert_eq!(c.read32(DHCSR) & (1 << 25), 0, "let go: cleared by a read");
    // The counter counts again from 0 (SRAM keeps the count from before the reset).
    std::thread::sleep(Duration::from_millis(20));
    let first = c.read32(COUNTER_AT);
    std::thread::sleep(Duration::from_millis(50));
    assert!(c.read32(COUNTER_AT) > first, "running again");
}

#[test]
fn a_stalled_bus_is_answered_wait_or_fault_and_the_dp_answers_on() {
    // ADIv5 B4.2.2: WAIT (status 11), nothing sticky; FAULT (status 12), STICKYERR.
    for (bus, status) in [("wait", 11), ("fault", 12)] {
        let d = dir();
        let elf = counter_elf(d.path());
        let sock = socket(d.path());
        let mut served = Served::start_with(
            Some(&elf),
            &format!("unix:{}", sock.display()),
            &["--ap-bus", bus],
        );
        let mut c = Client::connect(&sock);
        c.power_up();
        c.write_dp(0x8, 0);
        c.ok("write_ap", json!([0x4, 0x2000_0000]));
        let answer = c.ask("read_ap", json!([0xC]));
        assert_eq!(answer["status"], status, "{bus}: {answer}");
        let sticky = c.read_dp(0x4) & (1 << 5) != 0;
        assert_eq!(sticky, bus == "fault", "{bus}: STICKYERR");
        c.write_dp(0x0, 0x1F);
        assert_eq!(c.read_dp(0x0), 0x2BA0_1477, "{bus}: the DP answers");
        assert!(matches!(served.child.try_wait(), Ok(None)), "{bus}");
    }
}
