//! PIL: the firmware compiled for Cortex-M4F, run in QEMU's `mps2-an386`, fed the emulated
//! board's codes. The firmware's node sampler asks for every conversion over semihosting
//! ([`firmware::pil`]); this side answers from an [`EmulatedCage`] in the order it is asked,
//! so that the same board and seed give the same codes as SIL.
//!
//! Streams: commands and codes go down QEMU's stdin; frames come up its stderr; defmt comes up
//! its stdout and is decoded against the ELF. A hang is a timeout, a crash is QEMU's exit code;
//! both errors carry the last decoded log lines.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use emulator::emulated::{CageSampler, EmulatedCage};
use firmware::Sampler;
use firmware::pil::Up;
use firmware::protocol::{self, Command, Frame, FrameReader, MAX_FRAME, Reply};
use heuristic::{Position, Size};

use crate::defmt_log::DefmtLog;
use crate::target::{CageError, Lost, Sequence, Target, TargetError, encode_command, wire};

/// The QEMU executable.
pub const QEMU: &str = "qemu-system-arm";
/// The environment variable naming a prebuilt QEMU firmware ELF (CI builds it once).
pub const ELF_ENV: &str = "BIRDCAGE_PIL_ELF";
/// How many of the last log lines an error quotes.
const RECENT: usize = 8;

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
pub(crate) fn qemu_machine() -> Process {
    let setpriv = Process::new("setpriv")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let mut qemu = if setpriv {
        let mut p = Process::new("setpriv");
        p.args(["--pdeathsig", "KILL", "--", QEMU]);
        p
    } else {
        Process::new(QEMU)
    };
    std::os::unix::process::CommandExt::process_group(&mut qemu, 0);
    qemu.args(["-machine", "mps2-an386", "-cpu", "cortex-m4"])
        .args(["-display", "none", "-monitor", "none", "-serial", "none"]);
    qemu
}

/// A path for QEMU's gdbstub socket, unique in this process (one counter for every
/// launcher: each removes its socket when done).
pub(crate) fn gdb_socket() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("birdcage-gdb-{}-{n}.sock", std::process::id()))
}

/// QEMU's command for the firmware of `options` on `firmware`'s profile, over `link`
/// (`link=semihosting` or `link=rtt`, the firmware's own words).
pub(crate) fn qemu_command(
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

/// Whether `qemu-system-arm` can be started.
pub fn qemu_available() -> bool {
    Process::new(QEMU)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
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
    /// No reply came in time.
    #[error("no answer to command {seq} within {timeout:?}: the firmware hangs")]
    Hang {
        /// The command's sequence number.
        seq: u16,
        /// How long the bench waited.
        timeout: Duration,
    },
    /// QEMU closed its end during a command.
    #[error("QEMU stopped during command {seq}")]
    Stopped {
        /// The command's sequence number.
        seq: u16,
    },
    /// A frame from the firmware did not decode.
    #[error("bench link: {0}")]
    Link(protocol::ProtocolError),
    /// The debugger's access to the RTT buffers failed (`--link rtt`).
    #[error("RTT through QEMU's gdbstub: {0}")]
    Rtt(crate::rtt::RttError),
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

/// The firmware in QEMU on an emulated board.
#[derive(Debug)]
pub struct Pil {
    qemu: Child,
    down: ChildStdin,
    up: Receiver<Vec<u8>>,
    log: Receiver<String>,
    logs: Vec<String>,
    recent: VecDeque<String>,
    /// Bytes up that were not frames: QEMU's own messages.
    stray: Vec<u8>,
    reader: FrameReader,
    seq: Sequence,
    cage: EmulatedCage,
    adc: Adc,
    timeout: Duration,
}

impl Pil {
    /// Starts QEMU with the firmware for `firmware` (a built-in profile: the firmware knows no
    /// other), on `profile`'s emulated board for games of `size` (parts and ADC drawn from
    /// `seed`, nominal without). `profile` is `firmware` unless a profile file changed it.
    pub fn start(
        options: &PilOptions,
        profile: &'static boards::Profile,
        firmware: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
    ) -> Result<Pil, TargetError> {
        let cage = EmulatedCage::new(profile, size, seed).map_err(CageError::from)?;
        let elf = std::fs::read(&options.elf).map_err(|error| Lost::Elf {
            path: options.elf.clone(),
            error,
        })?;
        let mut defmt = DefmtLog::new(&elf).map_err(Lost::Defmt)?;
        let mut qemu = qemu_command(options, firmware, "link=semihosting")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(Lost::Start)?;
        let (Some(down), Some(mut up), Some(mut stdout)) =
            (qemu.stdin.take(), qemu.stderr.take(), qemu.stdout.take())
        else {
            return Err(Lost::Pipes.into());
        };
        let (frames, up_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = up.read(&mut buf) {
                if frames.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let (lines, log_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                defmt.received(&buf[..n]);
                for line in defmt.take() {
                    if lines.send(line).is_err() {
                        return;
                    }
                }
            }
        });
        let adc = Adc::new(&cage);
        Ok(Pil {
            qemu,
            down,
            up: up_rx,
            log: log_rx,
            logs: Vec::new(),
            recent: VecDeque::new(),
            stray: Vec::new(),
            reader: FrameReader::new(),
            seq: Sequence::default(),
            cage,
            adc,
            timeout: options.timeout,
        })
    }

    /// The emulated cage, to inject faults.
    pub fn cage(&self) -> &EmulatedCage {
        &self.cage
    }

    fn drain_logs(&mut self) {
        while let Ok(line) = self.log.try_recv() {
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(line.clone());
            self.logs.push(line);
        }
    }

    /// Why the firmware stopped answering: `what`, QEMU's exit, its own words and the last
    /// log lines.
    fn failure(&mut self, what: QemuEvent) -> TargetError {
        let exit = exit_of(&mut self.qemu);
        // Let the log thread catch up with what QEMU wrote before it stopped.
        std::thread::sleep(Duration::from_millis(50));
        while let Ok(bytes) = self.up.try_recv() {
            self.stray.extend(bytes);
        }
        self.drain_logs();
        let said = printable(&self.stray);
        Lost::Qemu(Box::new(QemuFailure {
            what,
            exit,
            said,
            recent: self.recent.iter().cloned().collect(),
        }))
        .into()
    }

    /// Sends `bytes` as they are (garbage, torn or oversized frames, frames of any number, a
    /// flood), then an `Identify` of the bench's own, and returns every reply that came before
    /// that one's, with its number: how a test shows the firmware reads through noise and
    /// answers each frame it could read (a frame it could not gets an error reply numbered
    /// [`firmware::protocol::NO_SEQ`]). Frames that make the firmware sample (a measure, a
    /// decision) would interleave with the sampler's requests: send those through
    /// [`Target::exchange`].
    pub fn noise(&mut self, bytes: &[u8]) -> Result<Vec<(u16, Reply)>, TargetError> {
        self.send(bytes)?;
        let seq = self.seq.take();
        let frame = encode_command(seq, Command::Identify)?;
        self.send(&frame)?;
        let mut before = Vec::new();
        self.reply_to(seq, &mut |got, reply| {
            before.push((got, reply));
            Ok(())
        })?;
        Ok(before)
    }

    /// Waits for the reply numbered `seq`, answering the sampler's requests on the way; a
    /// reply with another number goes to `other`, which may end the wait with an error.
    fn reply_to(
        &mut self,
        seq: u16,
        other: &mut dyn FnMut(u16, Reply) -> Result<(), TargetError>,
    ) -> Result<Reply, TargetError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            self.drain_logs();
            let bytes = match self
                .up
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(bytes) => bytes,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.failure(QemuEvent::Hang {
                        seq,
                        timeout: self.timeout,
                    }));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.failure(QemuEvent::Stopped { seq }));
                }
            };
            for b in bytes {
                let Some(frame) = self.reader.push::<Up>(b) else {
                    continue;
                };
                let frame = match frame {
                    Ok(frame) => frame,
                    Err(e) => return Err(self.failure(QemuEvent::Link(e))),
                };
                if let Some(reply) = self.answer(frame.seq, frame.body)? {
                    if frame.seq == seq {
                        return Ok(reply);
                    }
                    other(frame.seq, reply)?;
                }
            }
        }
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), TargetError> {
        match self.down.write_all(bytes).and_then(|()| self.down.flush()) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.failure(QemuEvent::Write(e))),
        }
    }

    /// Answers one request of the firmware's sampler; a reply goes back to the caller.
    fn answer(&mut self, seq: u16, up: Up) -> Result<Option<Reply>, TargetError> {
        if let Up::Reply(reply) = up {
            return Ok(Some(reply));
        }
        if let Some(answer) = self.adc.answer(seq, up)? {
            self.send(&answer)?;
        }
        Ok(None)
    }
}

/// The emulated ADC behind the firmware's sampler in QEMU: answers its requests
/// ([`firmware::pil::Up`]) from the emulated cage, in the order they come, over either link.
#[derive(Debug)]
pub(crate) struct Adc {
    sampler: CageSampler,
}

impl Adc {
    /// The ADC of `cage`.
    pub(crate) fn new(cage: &EmulatedCage) -> Adc {
        Adc {
            sampler: cage.hardware().sampler,
        }
    }

    /// The encoded answer to request `up` numbered `seq`: `None` for one that needs none
    /// (pull-ups). A reply is not a request: it is refused.
    pub(crate) fn answer(&mut self, seq: u16, up: Up) -> Result<Option<Vec<u8>>, TargetError> {
        match up {
            Up::Reply(reply) => Err(Lost::Unexpected {
                expected: "a sampler request",
                reply,
            }
            .into()),
            Up::Pullups(on) => match self.sampler.set_pullups(on) {
                Ok(()) => Ok(None),
                Err(never) => match never {},
            },
            Up::Read(index) => {
                let code = self.convert(index, 1)?[0];
                encode_answer(seq, code).map(Some)
            }
            Up::Burst { node, count } => {
                if !(1..=firmware::BURST).contains(&usize::from(count)) {
                    return Err(Lost::Burst(count).into());
                }
                let codes = self.convert(node, count)?;
                encode_answer(seq, codes).map(Some)
            }
        }
    }

    /// `count` conversions of the node with M=4 index `index`, from the emulated cage.
    fn convert(&mut self, index: u8, count: u8) -> Result<Vec<u16>, TargetError> {
        let nodes = Size::M4.node_count();
        if usize::from(index) >= nodes {
            return Err(Lost::Node { index, nodes }.into());
        }
        let node = Size::M4.node(usize::from(index));
        Ok((0..count)
            .map(|_| match self.sampler.read(node) {
                Ok(code) => code,
                Err(never) => match never {},
            })
            .collect())
    }
}

fn encode_answer(seq: u16, body: impl serde::Serialize) -> Result<Vec<u8>, TargetError> {
    let mut out = [0u8; MAX_FRAME];
    let n = protocol::encode(&Frame { seq, body }, &mut out)?;
    Ok(out[..n].to_vec())
}

/// How QEMU ended: its exit if it ends within 200 ms, else it is stopped now.
pub(crate) fn exit_of(qemu: &mut Child) -> QemuExit {
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
pub(crate) fn printable(bytes: &[u8]) -> String {
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

impl Target for Pil {
    fn stage(&self) -> &'static str {
        "PIL"
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, TargetError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        self.send(&frame)?;
        self.reply_to(seq, &mut |got, _| {
            Err(TargetError::LostFrame { expected: seq, got })
        })
    }

    fn logs(&mut self) -> Vec<String> {
        self.drain_logs();
        std::mem::take(&mut self.logs)
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), TargetError> {
        wire(&self.cage, position)
    }

    fn start_game(&mut self, game: usize) {
        self.cage.start_game(game as u64);
    }
}

impl Drop for Pil {
    fn drop(&mut self) {
        let _ = self.qemu.kill();
        let _ = self.qemu.wait();
    }
}
