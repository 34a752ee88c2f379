//! `virtual-board serve` against a hostile or careless client: stray bytes, bad checksums,
//! packets the stub cannot take, port scans, a second debugger, detaches and reconnects all
//! leave the board serving; the socket's path is cleared only of a stale socket of this
//! user's; the socket and the memory window go on every exit; gdb's breakpoints and
//! watchpoints halt the core instead of killing it. A bounded fuzz run ends with a real gdb
//! (gdb-multiarch, "skipped: no gdb-multiarch" without it) reading the registers.
//!
//! The program served is hand-assembled (no `cargo fw` needed): a counter stored to SRAM in a
//! loop, so that a breakpoint is hit again and again and a watchpoint sees every store.

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gdb_probe::{Address, Gdb, Quirks};

mod common;
use common::*;

/// A served board, killed if a test fails before it ends.
struct Served {
    child: Child,
    socket: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Serves `elf` on `socket`, waiting for its ready line (which names the socket).
    fn start(elf: &Path, socket: &Path) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_virtual-board"))
            .args(["serve", "--elf"])
            .arg(elf)
            .arg("--gdb")
            .arg(format!("unix:{}", socket.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(
            line.trim(),
            format!(
                "virtual board: serving a GDB stub on unix:{}",
                socket.display()
            )
        );
        Served {
            child,
            socket: socket.to_path_buf(),
        }
    }

    fn connect(&self) -> UnixStream {
        let s = UnixStream::connect(&self.socket).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends it with `signal` and waits: its exit code and stderr.
    fn signal(mut self, signal: &str) -> (Option<i32>, String) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args(["-s", signal, &pid])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "{signal} did not end the board");
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (status.code(), err)
    }
}

/// `$body#cc`.
fn packet(body: &str) -> Vec<u8> {
    let sum = body.bytes().fold(0u8, |a, b| a.wrapping_add(b));
    format!("${body}#{sum:02x}").into_bytes()
}

/// The next packet's body from the stub (acks skipped); the bytes before it too.
fn reply(s: &mut UnixStream) -> (Vec<u8>, String) {
    let mut before = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        s.read_exact(&mut byte).expect("the stub answers");
        if byte[0] == b'$' {
            break;
        }
        before.push(byte[0]);
    }
    let mut body = Vec::new();
    loop {
        s.read_exact(&mut byte).unwrap();
        if byte[0] == b'#' {
            break;
        }
        body.push(byte[0]);
    }
    let mut sum = [0u8; 2];
    s.read_exact(&mut sum).unwrap();
    (before, expand(&body))
}

/// A reply's body with its run-length encoding undone (`0*"` is `0` and 5 more: `"` is 34,
/// less 29).
fn expand(body: &[u8]) -> String {
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'*' && i + 1 < body.len() {
            let last = *out.last().expect("a run follows a character");
            out.extend(std::iter::repeat_n(last, usize::from(body[i + 1]) - 29));
            i += 2;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Sends `body` as a packet and returns the answer's body.
fn ask(s: &mut UnixStream, body: &str) -> String {
    s.write_all(&packet(body)).unwrap();
    reply(s).1
}

/// The registers' `g` answer: 16 + 1 words, 16 doubles, 1 word, in hex.
const G_HEX: usize = 2 * (16 * 4 + 4 + 16 * 8 + 4);

#[test]
fn stray_bytes_bad_checksums_and_unexpected_packets_leave_the_board_serving() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut s = board.connect();
    // A byte before `$`, then a packet: the packet is answered.
    s.write_all(b"x").unwrap();
    assert_eq!(ask(&mut s, "g").len(), G_HEX);
    // A bad checksum is answered `-`, and the packet sent again is answered.
    s.write_all(b"$g#00").unwrap();
    let mut nak = [0u8; 1];
    s.read_exact(&mut nak).unwrap();
    assert_eq!(&nak, b"-");
    assert_eq!(ask(&mut s, "g").len(), G_HEX);
    // Valid packets the stub does not expect are answered (each ended the board once).
    for body in [
        "qSupported",
        "qXfer:features:read:other.xml:0,ffb",
        "Z9,0,0",
        "vCont;x",
        "qRcmd,zz",
    ] {
        let answer = ask(&mut s, body);
        assert!(board.alive(), "{body}: {answer}");
    }
    // Memory writes whose data is not their length are refused.
    for body in ["M20000000,2:abc", "M20000000,2:abcdef", "M20000000,2:zzzz"] {
        assert_eq!(ask(&mut s, body), "E16", "{body}");
    }
    // A client's `-` gets the last packet again.
    assert_eq!(ask(&mut s, "m8000000,4"), "00000220");
    s.write_all(b"-").unwrap();
    assert_eq!(reply(&mut s).1, "00000220");
    // The malformed writes wrote nothing.
    assert_eq!(ask(&mut s, "m20000000,2"), "0000");
    assert!(board.alive());
    assert_eq!(ask(&mut s, "g").len(), G_HEX);
}

#[test]
fn scans_detaches_and_drops_leave_the_board_to_the_next_debugger_and_a_second_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    // A port scan: connect, close.
    for _ in 0..20 {
        drop(board.connect());
    }
    let mut first = board.connect();
    assert_eq!(ask(&mut first, "m20000000,4"), "00000000");
    // A second debugger is told, and closed.
    let mut second = board.connect();
    let (_, said) = {
        second
            .write_all(&packet("qSupported:xmlRegisters=arm"))
            .unwrap();
        reply(&mut second)
    };
    assert_eq!(
        said,
        "E.another debugger is attached to this virtual board (one at a time)"
    );
    let mut rest = Vec::new();
    let _ = second.read_to_end(&mut rest);
    // The first goes on; it lets the core run and detaches: the core runs on.
    assert_eq!(ask(&mut first, "m20000000,4"), "00000000");
    first.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    first.write_all(b"\x03").unwrap();
    let (_, stop) = reply(&mut first);
    assert!(stop.starts_with('S') || stop.starts_with('T'), "{stop}");
    assert_eq!(ask(&mut first, "D"), "OK");
    drop(first);
    // The next debuggers find the counter counting between them (one attached halts the
    // core, as a probe's attach does; one that drops leaves it running as it found it).
    std::thread::sleep(Duration::from_millis(50));
    let mut next = board.connect();
    let a = ask(&mut next, "m20000000,4");
    drop(next);
    std::thread::sleep(Duration::from_millis(50));
    let mut next = board.connect();
    let b = ask(&mut next, "m20000000,4");
    drop(next);
    assert_ne!(a, b, "the core ran on after the detach");
    let mut last = board.connect();
    assert_eq!(ask(&mut last, "g").len(), G_HEX);
    assert!(board.alive());
}

#[test]
fn monitor_alone_or_unknown_lists_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut gdb = Gdb::connect(&Address::Unix(board.socket.clone()), Quirks::PLAIN).unwrap();
    for command in ["", "bogus", "help"] {
        let said = gdb.monitor_output(command).unwrap();
        for name in [
            "help",
            "reset",
            "press",
            "game N",
            "coverage",
            "wire MOVES",
            "leds",
            "window",
        ] {
            assert!(said.contains(name), "monitor {command:?}: {said}");
        }
        // Before issue 52, `help` was "unknown command: help".
        assert!(!said.contains("unknown command: help"), "{said}");
        assert_eq!(
            command == "bogus",
            said.contains("unknown command: bogus"),
            "{said}"
        );
    }
}

/// B1's bit in GPIOC's IDR (PC13).
const B1: u32 = 1 << 13;

#[test]
fn monitor_press_holds_the_button_then_lets_go_as_the_core_runs() {
    let dir = tempfile::tempdir().unwrap();
    let elf = program_elf(dir.path(), "button.elf", &BUTTON_READER);
    let board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut gdb = Gdb::connect(&Address::Unix(board.socket.clone()), Quirks::PLAIN).unwrap();
    // Seven instructions to the first store: released, the board's pull-up reads high.
    for _ in 0..7 {
        gdb.step().unwrap();
    }
    assert_eq!(
        gdb.read_u32(COUNTER_AT).unwrap() & B1,
        B1,
        "released before the press"
    );
    let said = gdb.monitor_output("press").unwrap();
    assert!(said.contains("held for 30 ms of virtual time"), "{said}");
    // One pass of the loop (`b`, `ldr`, `str`): the firmware reads the press.
    for _ in 0..3 {
        gdb.step().unwrap();
    }
    assert_eq!(gdb.read_u32(COUNTER_AT).unwrap() & B1, 0, "pressed");
    // Running, the core passes 30 ms of virtual time and the button is let go.
    let start = Instant::now();
    loop {
        gdb.resume().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        gdb.halt().unwrap();
        if gdb.read_u32(COUNTER_AT).unwrap() & B1 == B1 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "never let go");
    }
}

#[test]
fn the_path_is_cleared_only_of_a_stale_socket_of_this_users() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    // The ELF itself as the socket's path: refused, named, and kept.
    let before = std::fs::read(&elf).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_virtual-board"))
        .args(["serve", "--elf"])
        .arg(&elf)
        .arg("--gdb")
        .arg(format!("unix:{}", elf.display()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("{} exists", elf.display())), "{err}");
    assert!(err.contains("a regular file"), "{err}");
    assert_eq!(std::fs::read(&elf).unwrap(), before);
    // A file where the memory window would go: refused and kept.
    let socket = dir.path().join("gdb.sock");
    let window = dir.path().join("gdb.sock.ram");
    std::fs::write(&window, b"mine").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_virtual-board"))
        .args(["serve", "--elf"])
        .arg(&elf)
        .arg("--gdb")
        .arg(format!("unix:{}", socket.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gdb.sock.ram exists"));
    assert_eq!(std::fs::read(&window).unwrap(), b"mine");
    std::fs::remove_file(&window).unwrap();
    // A file shaped like a board's window (this user's, 0600, the SRAM's 128 KiB) with no
    // socket beside it: someone's data, refused and kept (it was once removed).
    std::fs::write(&window, vec![7u8; 128 << 10]).unwrap();
    std::fs::set_permissions(&window, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_virtual-board"))
        .args(["serve", "--elf"])
        .arg(&elf)
        .arg("--gdb")
        .arg(format!("unix:{}", socket.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("it served, and removed {}", window.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("gdb.sock.ram exists") && err.contains("no stale socket"),
        "{err}"
    );
    assert_eq!(std::fs::read(&window).unwrap(), vec![7u8; 128 << 10]);
    // Beside a stale socket of this user's (a killed board's), both are replaced.
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    let board = Served::start(&elf, &socket);
    let mode = std::fs::metadata(&window).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the window is its owner's alone");
    drop(board);
}

#[test]
fn sigterm_and_sigint_remove_the_socket_and_the_window_and_say_where_the_core_is() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    for signal in ["TERM", "INT"] {
        let socket = dir.path().join(format!("{signal}.sock"));
        let board = Served::start(&elf, &socket);
        let window = dir.path().join(format!("{signal}.sock.ram"));
        assert!(socket.exists() && window.exists());
        let (code, err) = board.signal(signal);
        assert_eq!(code, Some(0), "{signal}: {err}");
        assert!(
            err.contains("the core is at PC 0x08000008"),
            "{signal}: {err}"
        );
        assert!(!socket.exists(), "{signal}: the socket is removed");
        assert!(!window.exists(), "{signal}: the window is removed");
    }
}

#[test]
fn sigterm_ends_the_board_while_a_client_that_never_reads_fills_its_socket() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let socket = dir.path().join("gdb.sock");
    let mut board = Served::start(&elf, &socket);
    let mut s = board.connect();
    // Memory reads of 1 KiB (2 KiB of hex each), asked and never read: some 2 MiB of
    // replies, far past the socket's buffers, so the stub blocks writing them.
    s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    for _ in 0..1000 {
        if s.write_all(&packet("m8000000,400")).is_err() {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(board.alive());
    let pid = board.child.id().to_string();
    let started = Instant::now();
    assert!(
        Command::new("kill")
            .args(["-s", "TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    while board.alive() {
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "SIGTERM did not end a board blocked on its client within 2 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(board.child.wait().unwrap().code(), Some(0));
    assert!(!socket.exists(), "the socket is removed");
    drop(s);
}

/// gdb-multiarch's path, or `None` with the skip line.
fn gdb_multiarch() -> Option<&'static str> {
    let found = Command::new("gdb-multiarch")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        Some("gdb-multiarch")
    } else {
        needs::skip("gdb", "no gdb-multiarch");
        None
    }
}

/// Runs gdb-multiarch in batch mode on `elf` against `socket` with `commands`: its output.
fn gdb_batch(elf: &Path, socket: &Path, commands: &[&str]) -> String {
    let mut gdb = Command::new("gdb-multiarch");
    gdb.args(["-nx", "-batch"])
        .arg("-ex")
        .arg("set pagination off")
        .arg("-ex")
        .arg("set confirm off")
        .arg("-ex")
        .arg(format!("target remote {}", socket.display()));
    for c in commands {
        gdb.arg("-ex").arg(c);
    }
    let out = gdb.arg(elf).output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn gdb_breaks_continues_twice_and_watches_without_killing_the_board() {
    let Some(_) = gdb_multiarch() else { return };
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let socket = dir.path().join("gdb.sock");
    let mut board = Served::start(&elf, &socket);
    let said = gdb_batch(
        &elf,
        &socket,
        &[
            &format!("break *{LOOP:#x}"),
            "continue",
            "print/x $pc",
            "print $r0",
            "continue",
            "print/x $pc",
            "print $r0",
            "delete",
            &format!("watch *(int *){COUNTER_AT:#x}"),
            "continue",
            "print *(int *)0x20000000",
            "detach",
        ],
    );
    assert!(board.alive(), "{said}");
    let hits: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("Breakpoint 1, "))
        .collect();
    assert_eq!(hits.len(), 2, "{said}");
    let pcs: Vec<&str> = said
        .lines()
        .filter(|l| l.contains(" = 0x800000c"))
        .collect();
    assert_eq!(pcs.len(), 2, "both stops at the loop: {said}");
    assert!(
        said.contains("$2 = 0\n") && said.contains("$4 = 1\n"),
        "{said}"
    );
    assert!(said.contains("atchpoint 2: *(int *)0x20000000"), "{said}");
    assert!(
        said.contains("Old value = 1") && said.contains("New value = 2"),
        "{said}"
    );
    // The breakpoint left no `bkpt` behind: flash holds the ELF's code again.
    let mut gdb = Gdb::connect(&Address::Unix(socket.clone()), Quirks::PLAIN).unwrap();
    let mut code = [0u8; 2];
    gdb.read_memory(LOOP, &mut code).unwrap();
    assert_eq!(u16::from_le_bytes(code), COUNTER[2]);
}

/// The board binary `cargo fw` builds, in the target folder cargo uses (`CARGO_TARGET_DIR`
/// when set), or `None` with the skip line.
fn board_elf() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let elf = root.join(target).join("thumbv7em-none-eabihf/fw/firmware");
    if elf.is_file() {
        Some(elf)
    } else {
        needs::skip("board-elf", "no board ELF (cargo fw)");
        None
    }
}

#[test]
fn gdb_break_main_and_continue_on_the_board_binary() {
    let Some(_) = gdb_multiarch() else { return };
    let Some(elf) = board_elf() else { return };
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("gdb.sock");
    let mut board = Served::start(&elf, &socket);
    let said = gdb_batch(
        &elf,
        &socket,
        &["break main", "continue", "info registers pc"],
    );
    assert!(board.alive(), "{said}");
    assert!(said.contains("Breakpoint 1, "), "{said}");
    assert!(
        said.lines()
            .any(|l| l.starts_with("pc ") && l.contains("main")),
        "{said}"
    );
}

/// The README's gdb step (`gdb on serve`, the button) as it is written: its breakpoint on
/// `App::on_button`, the line found by the README's own shell command, stops there once a
/// press is read. Issue 63: the step was `rbreak ::on_button`, which gdb cannot set.
#[test]
fn the_readmes_breakpoint_on_on_button_stops_there_after_a_press() {
    let Some(_) = gdb_multiarch() else { return };
    let Some(elf) = board_elf() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("virtual-board/README.md")).unwrap();
    let line = readme
        .lines()
        .find_map(|l| l.trim().strip_prefix("-ex \"break app.rs:$("))
        .and_then(|rest| rest.strip_suffix(")\""))
        .unwrap_or_else(|| panic!("no `-ex \"break app.rs:$(...)\"` line in the README"));
    // The README's shell command, run where its reader runs it: the checkout's root.
    let found = |command: &str| -> String {
        let out = Command::new("sh")
            .args(["-c", command])
            .current_dir(&root)
            .output()
            .unwrap();
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(line.parse::<u32>().is_ok(), "`{command}` said {line:?}");
        line
    };
    let on_button = found(line);
    // The main loop's one `watchdog.feed()`, reached only after start-up.
    let feed = found("grep -n 'watchdog.feed()' firmware/src/bin/nucleo/program.rs | cut -d: -f1");
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("gdb.sock");
    let mut board = Served::start(&elf, &socket);
    let said = gdb_batch(
        &elf,
        &socket,
        &[
            // Ctrl-C after start-up, in batch: a stop in the main loop.
            &format!("break program.rs:{feed}"),
            "continue",
            "delete",
            &format!("break app.rs:{on_button}"),
            "monitor press",
            "continue",
            "backtrace 1",
        ],
    );
    assert!(board.alive(), "{said}");
    assert!(said.contains("Breakpoint 2, "), "{said}");
    assert!(
        said.lines()
            .any(|l| l.starts_with("#0") && l.contains("::on_button")),
        "{said}"
    );
}

/// A small deterministic generator (xorshift64*), so that a failure is the same every run.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn a_bounded_fuzz_run_of_noise_bad_checksums_and_reconnects_then_gdb_reads_the_registers() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let socket = dir.path().join("gdb.sock");
    let mut board = Served::start(&elf, &socket);
    let mut noise = Noise(0x5eed_b12d_ca9e);
    let started = Instant::now();
    let mut nak = 0;
    const CONNECTIONS: usize = 200;
    for i in 0..CONNECTIONS {
        let mut s = board.connect();
        let mut stream = Vec::new();
        for _ in 0..(noise.next() % 8) {
            match noise.next() % 4 {
                // Noise, `$` and `#` included.
                0 => {
                    let n = (noise.next() % 512) as usize;
                    stream.extend(noise.bytes(n));
                }
                // A packet with a wrong checksum.
                1 => {
                    let mut p = packet("m20000000,4");
                    let n = p.len();
                    p[n - 1] = if p[n - 1] == b'0' { b'1' } else { b'0' };
                    stream.extend(p);
                }
                // A packet the stub does not expect.
                2 => stream.extend(packet("qSupported")),
                // A packet cut short.
                _ => stream.extend_from_slice(b"$m2000"),
            }
        }
        // The stream, then the end of it; the stub answers what it answers and closes when it
        // has read to the end, so that connections come one after another (a refused one
        // would be told so).
        s.write_all(&stream).unwrap();
        s.shutdown(std::net::Shutdown::Write).unwrap();
        let mut answers = Vec::new();
        s.read_to_end(&mut answers).unwrap();
        let answers = String::from_utf8_lossy(&answers);
        assert!(!answers.contains("E.another"), "connection {i} was refused");
        nak += answers.matches('-').count();
        assert!(board.alive(), "the board ended after connection {i}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "bounded in time"
    );
    assert!(nak > 20, "bad checksums were answered `-`: {nak}");
    // A clean client gets the registers once the board has read the flood (until then it may
    // be told another debugger is attached, or be closed).
    let deadline = Instant::now() + Duration::from_secs(20);
    let registers = loop {
        let mut s = board.connect();
        let got = s
            .write_all(&packet("g"))
            .ok()
            .and_then(|()| std::panic::catch_unwind(move || reply(&mut s).1).ok());
        match got {
            Some(answer) if !answer.starts_with("E.") => break answer,
            _ if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            other => panic!("no registers 20 s after the flood: {other:?}"),
        }
    };
    assert_eq!(registers.len(), G_HEX);
    let Some(_) = gdb_multiarch() else { return };
    let said = gdb_batch(&elf, &socket, &["info registers pc sp", "detach"]);
    assert!(
        said.lines()
            .any(|l| l.starts_with("pc ") && l.contains("0x8000")),
        "{said}"
    );
    assert!(said.lines().any(|l| l.starts_with("sp ")), "{said}");
    assert!(board.alive());
}

#[test]
fn tcp_says_its_port_when_ready_and_warns_beyond_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    for (host, warned) in [("127.0.0.1", false), ("0.0.0.0", true)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_virtual-board"))
            .args(["serve", "--elf"])
            .arg(&elf)
            .arg("--gdb")
            .arg(format!("tcp:{host}:0"))
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
            .strip_prefix(&format!("virtual board: serving a GDB stub on tcp:{host}:"))
            .unwrap_or_else(|| panic!("{line}"));
        let port: u16 = at.parse().unwrap();
        assert_ne!(port, 0, "the port bound, not the one asked");
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(&packet("m8000000,4")).unwrap();
        let mut got = [0u8; 1];
        s.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"+");
        drop(s);
        let pid = child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-s", "TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert_eq!(
            err.contains("warning: tcp:0.0.0.0:"),
            warned,
            "{host}: {err}"
        );
        if warned {
            assert!(err.contains("reachable beyond this machine"), "{err}");
        }
    }
}

/// `qRcmd` of `command` (hex): `monitor COMMAND`.
fn monitor(command: &str) -> String {
    let hex: String = command.bytes().map(|b| format!("{b:02x}")).collect();
    format!("qRcmd,{hex}")
}

/// A stop reply's signal: `05` SIGTRAP (a breakpoint), `02` SIGINT (Ctrl-C).
fn signal(stop: &str) -> &str {
    assert!(stop.starts_with('S') || stop.starts_with('T'), "{stop}");
    &stop[1..3]
}

/// Where the board starts (the reset vector's `movs r0, #0`), run once per reset.
const ENTRY: u32 = 0x0800_0008;

#[test]
fn breakpoints_halt_every_pass_and_go_with_the_connection() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut s = board.connect();
    assert_eq!(ask(&mut s, &format!("Z0,{LOOP:x},2")), "OK");
    // Each pass of the loop halts before its `adds` (the counter as stored the pass before),
    // and flash still holds the ELF's code: the stub keeps the breakpoint, as an FPB does.
    for stored in ["00000000", "01000000", "02000000"] {
        assert_eq!(signal(&ask(&mut s, "c")), "05");
        assert_eq!(ask(&mut s, "pf"), "0c000008", "PC at the loop");
        assert_eq!(ask(&mut s, "m20000000,4"), stored);
        assert_eq!(ask(&mut s, &format!("m{LOOP:x},2")), "0130", "adds r0, #1");
    }
    // Removed, the core runs on; one at the entry is not reached while it runs.
    assert_eq!(ask(&mut s, &format!("z0,{LOOP:x},2")), "OK");
    assert_eq!(ask(&mut s, &format!("Z0,{ENTRY:x},2")), "OK");
    s.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    // The debugger dies while the core runs.
    drop(s);
    // The next one resets the board and runs it: nothing of the last one's halts it.
    let mut next = board.connect();
    assert_eq!(ask(&mut next, &monitor("reset")), "OK");
    assert_eq!(ask(&mut next, "pf"), "08000008", "PC at the entry");
    next.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    next.write_all(b"\x03").unwrap();
    let (_, stop) = reply(&mut next);
    assert_eq!(
        signal(&stop),
        "02",
        "stopped by Ctrl-C, not a breakpoint: {stop}"
    );
    assert_ne!(ask(&mut next, "m20000000,4"), "00000000", "the loop ran");
    assert!(board.alive());
}

#[test]
fn a_breakpoint_a_client_wrote_into_flash_goes_with_its_connection() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut s = board.connect();
    // A client without `Z0` writes gdb's Thumb breakpoint (`udf #1`) over the loop's `adds`,
    // halts there, and dies.
    assert_eq!(ask(&mut s, &format!("M{LOOP:x},2:01de")), "OK");
    assert_eq!(signal(&ask(&mut s, "c")), "05");
    assert_eq!(ask(&mut s, "pf"), "0c000008", "PC at the loop");
    drop(s);
    // The next finds the loop's code, and the core runs through it.
    let mut next = board.connect();
    assert_eq!(
        ask(&mut next, &format!("m{LOOP:x},2")),
        "0130",
        "adds r0, #1"
    );
    next.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    next.write_all(b"\x03").unwrap();
    let (_, stop) = reply(&mut next);
    assert_eq!(signal(&stop), "02", "{stop}");
    assert_ne!(ask(&mut next, "m20000000,4"), "00000000", "the loop ran");
    assert!(board.alive());
}

#[test]
fn gdb_killed_while_the_core_runs_leaves_no_breakpoint_in_flash() {
    let Some(gdb) = gdb_multiarch() else { return };
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let socket = dir.path().join("gdb.sock");
    let mut board = Served::start(&elf, &socket);
    // gdb breaks at the entry, steps off it and lets the core run, its breakpoint inserted.
    let mut killed = Command::new(gdb)
        .args(["-nx", "-batch", "-ex"])
        .arg(format!("target remote {}", socket.display()))
        .args(["-ex", &format!("break *{ENTRY:#x}"), "-ex", "continue"])
        .arg(&elf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The counter in the memory window moves: the core runs. Then gdb is killed (SIGKILL).
    let window = dir.path().join("gdb.sock.ram");
    let counter = || {
        let bytes = std::fs::read(&window).unwrap();
        u32::from_le_bytes(bytes[..4].try_into().unwrap())
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while counter() == 0 {
        assert!(Instant::now() < deadline, "gdb never let the core run");
        std::thread::sleep(Duration::from_millis(20));
    }
    killed.kill().unwrap();
    killed.wait().unwrap();
    // The next session finds the ELF's code at the entry, and a reset runs through it.
    let mut next = loop {
        let mut s = board.connect();
        match ask(&mut s, &format!("m{ENTRY:x},2")) {
            busy if busy.starts_with("E.") && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            code => {
                assert_eq!(code, "0020", "movs r0, #0 at the entry, no bkpt");
                break s;
            }
        }
    };
    assert_eq!(ask(&mut next, &monitor("reset")), "OK");
    next.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    next.write_all(b"\x03").unwrap();
    let (_, stop) = reply(&mut next);
    assert_eq!(signal(&stop), "02", "no SIGTRAP at the entry: {stop}");
    assert!(board.alive());
}

#[test]
fn the_mpu_registers_are_answered_to_a_debugger() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut s = board.connect();
    // PM0214 4.2.1: MPU_TYPER reads 0x0000_0800 (eight regions); 4.2.2: MPU_CTRL resets to 0.
    assert_eq!(ask(&mut s, "me000ed90,4"), "00080000");
    assert_eq!(ask(&mut s, "me000ed94,4"), "00000000");
    // PRIVDEFENA | ENABLE written, read back.
    assert_eq!(ask(&mut s, "Me000ed94,4:05000000"), "OK");
    assert_eq!(ask(&mut s, "me000ed94,4"), "05000000");
    // Region 2's base through RBAR with VALID (RNR follows), its attributes through RASR.
    assert_eq!(ask(&mut s, "Me000ed9c,4:12000020"), "OK");
    assert_eq!(ask(&mut s, "me000ed98,4"), "02000000");
    assert_eq!(ask(&mut s, "Me000eda0,4:13000603"), "OK");
    assert_eq!(ask(&mut s, "me000eda0,4"), "13000603");
    assert_eq!(ask(&mut s, "me000ed9c,4"), "02000020");
    // The board serves on, and runs.
    s.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    s.write_all(b"\x03").unwrap();
    let (_, stop) = reply(&mut s);
    assert_eq!(signal(&stop), "02", "{stop}");
    assert!(board.alive());
}

#[test]
fn monitor_wait_answers_when_a_word_moves_or_its_time_passes_and_the_core_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let quirks = Quirks {
        reads_while_running: true,
        ..Quirks::PLAIN
    };
    let mut gdb = Gdb::connect(&Address::Unix(board.socket.clone()), quirks).unwrap();
    // Halted: nothing moves, the wait ends at once.
    let start = Instant::now();
    assert_eq!(
        gdb.monitor_running("wait 2000 0x20000000=0x0").unwrap(),
        "halted\n"
    );
    assert!(start.elapsed() < Duration::from_millis(1500));
    gdb.resume().unwrap();
    // The counter's word, as it is now: it moves, and the answer comes before the time.
    let counted = gdb.read_u32(COUNTER_AT).unwrap();
    let start = Instant::now();
    let said = gdb
        .monitor_running(&format!("wait 3000 0x20000000={counted:#x}"))
        .unwrap();
    assert_eq!(said, "moved\n");
    assert!(start.elapsed() < Duration::from_millis(2500));
    assert!(!gdb.is_halted(), "the core was not stopped for the wait");
    assert_ne!(gdb.read_u32(COUNTER_AT).unwrap(), counted);
    // A word nothing writes: the time passes (the host's), and the answer says so.
    let start = Instant::now();
    assert_eq!(
        gdb.monitor_running("wait 50 0x20010000=0x0").unwrap(),
        "timed out\n"
    );
    assert!(start.elapsed() >= Duration::from_millis(50));
    // A device register is never read for a wait; bad words are named.
    assert_eq!(
        gdb.monitor_running("wait 50 0x40000000=0x0").unwrap(),
        "wait: a word outside the SRAM\n"
    );
    let said = gdb.monitor_running("wait 50 0x20000000").unwrap();
    assert!(
        said.starts_with("wait: \"50 0x20000000\" is not MS ADDR=VALUE"),
        "{said}"
    );
    // The core ran on through all of it.
    let later = gdb.read_u32(COUNTER_AT).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert_ne!(gdb.read_u32(COUNTER_AT).unwrap(), later);
    assert!(board.alive());
}

#[test]
fn a_breakpoint_met_in_a_wait_ends_it_and_is_reported_after_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let mut board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut s = board.connect();
    assert_eq!(ask(&mut s, &format!("Z0,{LOOP:x},2")), "OK");
    // Continue and wait on a word nothing writes, in one write: the wait runs the core, which
    // halts at the loop long before its 5 s.
    let start = Instant::now();
    let mut both = packet("c");
    both.extend(packet(&monitor("wait 5000 0x20010000=0x0")));
    s.write_all(&both).unwrap();
    let (_, output) = reply(&mut s);
    let text = output
        .strip_prefix('O')
        .map(|hex| {
            (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap() as char)
                .collect::<String>()
        })
        .unwrap_or_else(|| panic!("the monitor's output, not {output}"));
    assert_eq!(text, "halted\n");
    assert_eq!(reply(&mut s).1, "OK");
    // Then the stop, as a running core's, and the core is where it halted.
    assert_eq!(signal(&reply(&mut s).1), "05");
    assert!(start.elapsed() < Duration::from_secs(4));
    assert_eq!(ask(&mut s, "pf"), "0c000008", "PC at the loop");
    assert!(board.alive());
}

#[test]
fn a_gdb_client_reads_the_halt_in_dhcsr_as_the_debug_port_does() {
    // One model of halting debug (ARMv7-M ARM C1.6.3) behind both sockets: the stub halted
    // at attach reads S_HALT and C_DEBUGEN; let run, the same register says it runs.
    let dir = tempfile::tempdir().unwrap();
    let elf = counter_elf(dir.path());
    let board = Served::start(&elf, &dir.path().join("gdb.sock"));
    let mut s = board.connect();
    let dhcsr = |s: &mut UnixStream| {
        let hex = ask(s, "mE000EDF0,4");
        u32::from_le_bytes(
            (0..4)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect::<Vec<_>>()
                .try_into()
                .unwrap(),
        )
    };
    let halted = dhcsr(&mut s);
    assert_eq!(
        halted & 0x0002_0001,
        0x0002_0001,
        "S_HALT, C_DEBUGEN: {halted:#x}"
    );
    s.write_all(&packet("c")).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    s.write_all(b"\x03").unwrap();
    let (_, stop) = reply(&mut s);
    assert!(stop.starts_with('S') || stop.starts_with('T'), "{stop}");
    assert_ne!(dhcsr(&mut s) & (1 << 17), 0, "halted again by Ctrl-C");
}
