//! The machine the firmware runs on when there is no board: QEMU's `mps2-an386`, started one
//! way for every target (semihosting PIL, RTT PIL, the probe-rs path), with its gdbstub on a
//! socket when a debugger is to attach ([`spawn_with_gdbstub`]); the firmware's ELF read once
//! ([`Elf`]); and the emulated ADC its sampler asks ([`Adc`]). Nothing here knows the bench's
//! targets: their errors wrap this layer's, boxed.

mod adc;
mod elf;
pub mod host;
pub mod private;
pub mod virtual_board;

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use gdb_probe::{Address, Gdb, GdbError, Quirks};

pub use adc::{Adc, AdcError};
pub use elf::{ELF_ENV, Elf, ElfError, MAX_ELF_BYTES, firmware_elf};
pub use virtual_board::{Launch, VIRTUAL_BOARD_ENV, VirtualBoard, virtual_board_binary};

/// The QEMU executable.
pub const QEMU: &str = "qemu-system-arm";
/// How long QEMU may take to open its gdb socket.
const SOCKET_TIMEOUT: Duration = Duration::from_secs(5);

/// How to start the firmware in QEMU.
#[derive(Clone, Debug)]
pub struct PilOptions {
    /// The `firmware-qemu` ELF.
    pub elf: PathBuf,
    /// The longest wait for a frame before the firmware is declared hung.
    pub timeout: Duration,
    /// Extra words for the firmware's command line (`panic-at=N`, `hang-at=N`).
    pub args: Vec<String>,
}

impl PilOptions {
    /// Options for `elf` with a 10 s timeout.
    pub fn new(elf: impl Into<PathBuf>) -> PilOptions {
        PilOptions {
            elf: elf.into(),
            timeout: Duration::from_secs(10),
            args: Vec::new(),
        }
    }
}

/// QEMU's `mps2-an386` with no display, monitor or serial port, in a process group of its own
/// (a Ctrl-C stops the bench between games, not QEMU mid-reply; the bench kills QEMU when it
/// is done with it), and killed with the bench: `setpriv --pdeathsig KILL` (util-linux) sets
/// the parent-death signal, so a bench killed outright does not leave QEMU running (the
/// firmware on RTT never waits on a pipe that would close). QEMU alone without setpriv.
pub fn qemu_machine() -> Process {
    let mut qemu = guarded(Path::new(QEMU));
    qemu.args(["-machine", "mps2-an386", "-cpu", "cortex-m4"])
        .args(["-display", "none", "-monitor", "none", "-serial", "none"]);
    qemu
}

/// `program` in a process group of its own, killed with the bench (`setpriv --pdeathsig
/// KILL` where util-linux has it): the one way the bench starts a machine (QEMU, the virtual
/// board).
pub(crate) fn guarded(program: &Path) -> Process {
    let setpriv = Process::new("setpriv")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let mut process = if setpriv {
        let mut p = Process::new("setpriv");
        p.args(["--pdeathsig", "KILL", "--"]).arg(program);
        p
    } else {
        Process::new(program)
    };
    std::os::unix::process::CommandExt::process_group(&mut process, 0);
    process
}

/// QEMU's command for the firmware of `options` on `firmware`'s profile, over `link`
/// (`link=semihosting` or `link=rtt`, the firmware's own words).
pub fn qemu_command(
    options: &PilOptions,
    firmware: &'static boards::Profile,
    link: &str,
) -> Process {
    let mut append = vec![firmware.name.to_string(), link.to_string()];
    append.extend(options.args.iter().cloned());
    let mut qemu = qemu_machine();
    // `native`: semihosting calls stay QEMU's even with a debugger attached (with `auto`
    // they would go to the debugger).
    qemu.args(["-semihosting-config", "enable=on,target=native"])
        .arg("-kernel")
        .arg(&options.elf)
        .arg("-append")
        .arg(append.join(" "));
    qemu
}

/// QEMU's version, the first line of its `--version` (`None` when it cannot be started): what
/// a spec and bring-up name.
pub fn qemu_version() -> Option<String> {
    Process::new(QEMU)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(|l| l.trim().to_string())
        })
        .filter(|l| !l.is_empty())
}

/// Whether `qemu-system-arm` can be started.
pub fn qemu_available() -> bool {
    Process::new(QEMU)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// QEMU with its gdbstub on a socket of its own, in a folder of the bench's own
/// ([`private::PrivateDir`]), halted (`-S`) until the debugger lets it run; killed, and its
/// folder removed, when dropped.
#[derive(Debug)]
pub struct GdbMachine {
    /// The QEMU process.
    pub child: Child,
    /// Its gdbstub's socket.
    pub socket: PathBuf,
    /// The folder the socket is in (dropped after the process is killed).
    _dir: private::PrivateDir,
}

impl Drop for GdbMachine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl QemuEvent {
    /// The event for a wait for command `seq` on QEMU process `pid` that ran out after
    /// `waited` (`None`: not known) of `timeout`: a hang, unless the host held the run up.
    pub fn timed_out(seq: u16, pid: u32, waited: Option<Duration>, timeout: Duration) -> Self {
        match host::stall(pid, waited, timeout) {
            Some(stall) => QemuEvent::HostStalled {
                seq,
                timeout,
                stall,
            },
            None => QemuEvent::Hang { seq, timeout },
        }
    }
}

impl GdbMachine {
    /// The stub's address, for a probe selector (`gdb:unix:PATH`).
    pub fn address(&self) -> Address {
        Address::Unix(self.socket.clone())
    }
}

/// Starts `qemu` (from [`qemu_machine`], with what the run needs) halted with its gdbstub on a
/// fresh unix socket, and waits for the socket. With `connect`, also connects (one
/// connection only: gdb clients connecting and leaving are not what the VM should see).
pub fn spawn_with_gdbstub(
    mut qemu: Process,
    connect: bool,
) -> Result<(GdbMachine, Option<Gdb>), MachineError> {
    let dir = private::PrivateDir::new("qemu")?;
    let socket = dir.join("gdb.sock");
    let child = qemu
        .arg("-S")
        .arg("-gdb")
        .arg(format!("unix:{},server=on,wait=off", socket.display()))
        .spawn()
        .map_err(MachineError::Start)?;
    let mut machine = GdbMachine {
        child,
        socket,
        _dir: dir,
    };
    let start = Instant::now();
    // The socket file appears when QEMU binds it, a moment before it listens.
    loop {
        if private::own_socket(&machine.socket) {
            if !connect {
                return Ok((machine, None));
            }
            match Gdb::connect(&machine.address(), Quirks::QEMU) {
                Ok(gdb) => return Ok((machine, Some(gdb))),
                Err(GdbError::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => {}
                Err(e) => return Err(MachineError::Gdb(e)),
            }
        }
        if let Ok(Some(status)) = machine.child.try_wait() {
            return Err(MachineError::Exited(QemuExit::of(status)));
        }
        if start.elapsed() > SOCKET_TIMEOUT {
            return Err(MachineError::NoSocket(SOCKET_TIMEOUT));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Why QEMU could not be started or reached.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// QEMU cannot be started.
    #[error("cannot start {QEMU}: {0}")]
    Start(std::io::Error),
    /// The temporary folder the machine's private folder goes in is unusable (`TMPDIR`).
    #[error(transparent)]
    TempDir(#[from] private::TempDirError),
    /// QEMU's standard streams are not ours.
    #[error("QEMU's standard streams are not piped")]
    Pipes,
    /// QEMU ended before its gdbstub opened.
    #[error("QEMU exited at start: {0}")]
    Exited(QemuExit),
    /// The gdbstub's socket did not appear.
    #[error("QEMU opened no gdb socket in {0:?}")]
    NoSocket(Duration),
    /// The gdbstub refused the debugger.
    #[error("{0}")]
    Gdb(GdbError),
    /// QEMU stopped answering.
    #[error(transparent)]
    Failed(Box<QemuFailure>),
    /// The `virtual-board` binary is not where the bench looks.
    #[error(
        "no virtual-board binary (looked at {}): build it with `cargo build --release -p \
         virtual-board`, or name it in BIRDCAGE_VIRTUAL_BOARD",
        .0.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    NoVirtualBoard(Vec<PathBuf>),
    /// The virtual board ended before it served (it refused the ELF or the profile).
    #[error("the virtual board refused to start: {said}")]
    BoardRefused {
        /// What it said (its one line: the ELF or the profile it refused).
        said: String,
    },
}

/// Why QEMU stopped answering: what the bench saw, how QEMU ended, what it said on its own
/// and the last log lines.
#[derive(Debug, thiserror::Error)]
#[error(
    "{what}; {exit}{}{}",
    if said.is_empty() { String::new() } else { format!("; QEMU said: {said}") },
    if recent.is_empty() {
        "; no log lines".to_string()
    } else {
        format!("; last log lines: {}", recent.join(" | "))
    }
)]
pub struct QemuFailure {
    /// What the bench saw.
    pub what: QemuEvent,
    /// How QEMU ended.
    pub exit: QemuExit,
    /// What QEMU wrote outside the bench's frames, control characters removed.
    pub said: String,
    /// The last log lines the firmware wrote.
    pub recent: Vec<String>,
}

/// What the bench saw when QEMU stopped answering.
#[derive(Debug, thiserror::Error)]
pub enum QemuEvent {
    /// A command could not be written to QEMU's stdin.
    #[error("cannot write to QEMU: {0}")]
    Write(std::io::Error),
    /// No reply came in time, and QEMU was running and the bench on time all along.
    #[error("no answer to command {seq} within {timeout:?}: the firmware hangs")]
    Hang {
        /// The command's sequence number.
        seq: u16,
        /// How long the bench waited.
        timeout: Duration,
    },
    /// No reply came in time, but the host, not the firmware, held the run up.
    #[error(
        "no answer to command {seq} within {timeout:?}, and the firmware is not to blame: {stall}"
    )]
    HostStalled {
        /// The command's sequence number.
        seq: u16,
        /// How long the bench waited.
        timeout: Duration,
        /// What held it up.
        stall: host::Stall,
    },
    /// QEMU closed its end during a command.
    #[error("QEMU stopped during command {seq}")]
    Stopped {
        /// The command's sequence number.
        seq: u16,
    },
    /// A frame from the firmware did not decode.
    #[error("bench link: {0}")]
    Link(firmware::protocol::ProtocolError),
    /// The debugger's access to the RTT buffers failed (`--link rtt`).
    #[error("RTT through QEMU's gdbstub: {0}")]
    Rtt(gdb_probe::rtt::RttError),
}

/// How QEMU ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QemuExit {
    /// It exited with this code (101: the firmware panicked, 102: a hard fault).
    #[error("{}", match .0 {
        101 => "the firmware panicked (exit code 101)".to_string(),
        102 => "the firmware hit a hard fault (exit code 102)".to_string(),
        code => format!("QEMU exited with code {code}"),
    })]
    Code(i32),
    /// A signal killed it (its number; SIGKILL is 9).
    #[error("QEMU was killed by signal {0}")]
    Signal(i32),
    /// It was still running; the bench stopped it.
    #[error("QEMU was stopped")]
    Stopped,
}

/// How QEMU ended: its exit if it ends within 200 ms, else it is stopped now.
pub fn exit_of(qemu: &mut Child) -> QemuExit {
    let deadline = Instant::now() + Duration::from_millis(200);
    let status = loop {
        match qemu.try_wait() {
            Ok(Some(status)) => break Some(status),
            _ if Instant::now() >= deadline => break None,
            _ => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    match status {
        Some(status) => QemuExit::of(status),
        None => {
            let _ = qemu.kill();
            let _ = qemu.wait();
            QemuExit::Stopped
        }
    }
}

/// What QEMU wrote on its own, control characters removed, trimmed.
pub fn printable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|c| !c.is_control() || *c == ' ')
        .collect::<String>()
        .trim()
        .to_string()
}

impl QemuExit {
    /// How a QEMU that ended ended.
    pub fn of(status: std::process::ExitStatus) -> QemuExit {
        match status.code() {
            Some(code) => QemuExit::Code(code),
            None => {
                use std::os::unix::process::ExitStatusExt;
                QemuExit::Signal(status.signal().unwrap_or(0))
            }
        }
    }
}
