//! PIL over RTT (`--link rtt`): the firmware in QEMU speaks the board's RTT layout
//! ([`firmware::rtt`]), and the bench reads and writes its ring buffers through QEMU's gdbstub,
//! as a probe does on a board. The bench channel carries exactly the board's frames; the
//! emulated ADC answers the sampler on a channel pair of its own (up 2 / down 1).
//!
//! Each poll halts the guest, drains the log, ADC and bench up channels, answers the ADC and
//! lets the guest run again. A reply the firmware dropped (a full `NoBlockSkip` channel) is
//! asked for again by sending the command again with the same number
//! ([`firmware::Server`] answers a repeat from its copy); replies to earlier numbers that
//! arrive after a repeat are counted and ignored ([`RetryStats`]).

use std::collections::VecDeque;
use std::io::Read;
use std::process::Stdio;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use emulator::emulated::EmulatedCage;
use firmware::pil::Up;
use firmware::protocol::{Command, Frame, FrameReader, ProtocolError, Reply};
use firmware::rtt::{ADC_DOWN, ADC_UP, BENCH_DOWN, BENCH_UP, DEFMT_UP};
use gdb_probe::Gdb;
use gdb_probe::rtt::{ControlBlock, RttError};
use heuristic::Size;

use crate::dut::defmt::DefmtLog;
use crate::dut::frame::{Sequence, encode_command};
use crate::dut::retry::{self, Backend, Polled, Polling, RetryStats};
use crate::dut::{Cage, CageError, Dut, DutError, Lost};
use crate::machine::{
    Adc, Elf, GdbMachine, PilOptions, QemuEvent, QemuFailure, exit_of, printable, qemu_command,
    spawn_with_gdbstub,
};

/// How many of the last log lines an error quotes.
const RECENT: usize = 8;
/// How long the firmware may take to set up RTT.
const ATTACH_TIMEOUT: Duration = Duration::from_secs(5);

/// The firmware in QEMU over RTT on an emulated board.
#[derive(Debug)]
pub struct RttPil {
    gdb: Gdb,
    // After `gdb`: the connection closes before QEMU is killed.
    qemu: GdbMachine,
    block: ControlBlock,
    defmt: DefmtLog,
    logs: Vec<String>,
    recent: VecDeque<String>,
    said: Receiver<Vec<u8>>,
    bench: FrameReader,
    adc_reader: FrameReader,
    seq: Sequence,
    cage: EmulatedCage,
    adc: Adc,
    timeout: Duration,
    polling: Polling,
    stats: RetryStats,
}

impl RttPil {
    /// Starts QEMU halted with its gdbstub on a unix socket, attaches, lets the firmware run
    /// and waits for its RTT control block; then as [`super::Pil::start`].
    pub fn start(
        options: &PilOptions,
        polling: Polling,
        profile: &'static boards::Profile,
        firmware: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
    ) -> Result<RttPil, DutError> {
        let cage = EmulatedCage::new(profile, size, seed).map_err(CageError::from)?;
        let elf = Elf::read(&options.elf)?;
        let defmt = DefmtLog::new(&elf.bytes).map_err(Lost::Defmt)?;
        let addr = elf
            .rtt_control_block()
            .map_err(|e| Lost::Transport(Box::new(e)))?;
        let mut command = qemu_command(options, firmware, "link=rtt");
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let (mut qemu, gdb) = spawn_with_gdbstub(command, true)?;
        let Some(mut stderr) = qemu.child.stderr.take() else {
            return Err(crate::machine::MachineError::Pipes.into());
        };
        let (tx, said) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                if tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let mut gdb = gdb.expect("spawn_with_gdbstub(_, true) connects");
        let block = attach(&mut gdb, addr);
        let mut pil = RttPil {
            gdb,
            qemu,
            block: ControlBlock::empty(addr),
            defmt,
            logs: Vec::new(),
            recent: VecDeque::new(),
            said,
            bench: FrameReader::new(),
            adc_reader: FrameReader::new(),
            seq: Sequence::default(),
            adc: Adc::new(&cage),
            cage,
            timeout: options.timeout,
            polling,
            stats: RetryStats::default(),
        };
        match block {
            Ok(block) => pil.block = block,
            Err(e) => return Err(pil.failure(QemuEvent::Rtt(e))),
        }
        for (direction, channels, number) in [
            ("up", &pil.block.up, DEFMT_UP),
            ("up", &pil.block.up, BENCH_UP),
            ("up", &pil.block.up, ADC_UP),
            ("down", &pil.block.down, BENCH_DOWN),
            ("down", &pil.block.down, ADC_DOWN),
        ] {
            if channels.get(number).is_none() {
                return Err(Lost::NoChannel { direction, number }.into());
            }
        }
        Ok(pil)
    }

    /// The emulated cage, to inject faults.
    pub fn emulated_cage(&self) -> &EmulatedCage {
        &self.cage
    }

    /// The channels the firmware declared.
    pub fn control_block(&self) -> &ControlBlock {
        &self.block
    }

    /// What the link went through so far.
    pub fn stats(&self) -> RetryStats {
        self.stats
    }

    /// One poll: halts the guest, takes the logs, answers the ADC, takes the bench's bytes,
    /// and lets it run again. Returns the bench frames that came whole.
    fn poll_once(&mut self) -> Result<Vec<Result<Frame<Reply>, ProtocolError>>, DutError> {
        match self.poll_halted() {
            Ok(replies) => Ok(replies),
            Err(PollError::Rtt(e)) => Err(self.failure(QemuEvent::Rtt(e))),
            Err(PollError::Adc(e)) => Err(self.failure(QemuEvent::Link(e))),
            Err(PollError::Dut(e)) => Err(e),
        }
    }

    fn poll_halted(&mut self) -> Result<Vec<Result<Frame<Reply>, ProtocolError>>, PollError> {
        let (mut logs, mut requests, mut bench) = (Vec::new(), Vec::new(), Vec::new());
        self.gdb.halt().map_err(RttError::from)?;
        let snapshot = self.block.snapshot(&mut self.gdb)?;
        for (number, out) in [
            (DEFMT_UP, &mut logs),
            (ADC_UP, &mut requests),
            (BENCH_UP, &mut bench),
        ] {
            if self.block.has_data(&snapshot, number) {
                self.block
                    .read_up_at(&mut self.gdb, &snapshot, number, out)?;
            }
        }

        for b in requests {
            let Some(frame) = self.adc_reader.push::<Up>(b) else {
                continue;
            };
            let frame = frame.map_err(PollError::Adc)?;
            let answer = self.adc.answer(frame.seq, frame.body);
            if let Some(answer) = answer.map_err(|e| PollError::Dut(e.into()))? {
                // The sampler waits for each answer before it asks again: there is room.
                if !self.block.write_down(&mut self.gdb, ADC_DOWN, &answer)? {
                    return Err(PollError::Rtt(RttError::Full {
                        channel: ADC_DOWN,
                        bytes: answer.len(),
                    }));
                }
            }
        }
        self.gdb.resume().map_err(RttError::from)?;
        self.defmt.received(&logs);
        for line in self.defmt.take() {
            self.stats.log_line(&line);
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(line.clone());
            self.logs.push(line);
        }
        Ok(bench
            .into_iter()
            .filter_map(|b| self.bench.push::<Reply>(b))
            .collect())
    }

    /// Writes a command frame to the bench down channel if it fits whole.
    fn try_send(&mut self, frame: &[u8]) -> Result<bool, DutError> {
        let running = !self.gdb.is_halted();
        let sent = (|| -> Result<bool, RttError> {
            self.gdb.halt()?;
            let sent = self.block.write_down(&mut self.gdb, BENCH_DOWN, frame)?;
            if running {
                self.gdb.resume()?;
            }
            Ok(sent)
        })();
        sent.map_err(|e| self.failure(QemuEvent::Rtt(e)))
    }

    /// Why the firmware stopped answering: `what`, QEMU's exit, its own words and the last
    /// log lines.
    fn failure(&mut self, what: QemuEvent) -> DutError {
        let exit = exit_of(&mut self.qemu.child);
        let mut said = Vec::new();
        while let Ok(bytes) = self.said.try_recv() {
            said.extend(bytes);
        }
        QemuFailure {
            what,
            exit,
            said: printable(&said),
            recent: self.recent.iter().cloned().collect(),
        }
        .into()
    }
}

/// Why a poll failed.
enum PollError {
    /// Reading or writing the buffers.
    Rtt(RttError),
    /// A frame on the ADC channel did not decode.
    Adc(ProtocolError),
    /// The ADC request could not be answered.
    Dut(DutError),
}

impl From<RttError> for PollError {
    fn from(e: RttError) -> PollError {
        PollError::Rtt(e)
    }
}

/// Lets the firmware run until its control block is there (it writes the id last).
fn attach(gdb: &mut Gdb, addr: u32) -> Result<ControlBlock, RttError> {
    let deadline = Instant::now() + ATTACH_TIMEOUT;
    loop {
        gdb.halt()?;
        if let Some(block) = ControlBlock::read(gdb, addr)? {
            gdb.resume()?;
            return Ok(block);
        }
        if Instant::now() >= deadline {
            return Err(RttError::NotFound {
                addr,
                waited: ATTACH_TIMEOUT,
            });
        }
        gdb.resume()?;
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl Dut for RttPil {
    fn stage(&self) -> crate::dut::Setup {
        crate::dut::Stage::Pil.into()
    }

    /// As the bench's own reader found them, with each channel's mode.
    fn rtt_layout(&mut self) -> Option<String> {
        let list = |channels: &[gdb_probe::rtt::Channel]| {
            channels
                .iter()
                .map(|c| format!("\"{}\" {} B {}", c.name, c.size, mode(c.mode)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let block = &self.block;
        Some(format!(
            "at {:#010x}; up: {}; down: {}",
            block.addr(),
            list(&block.up),
            list(&block.down)
        ))
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        let (polling, timeout) = (self.polling, self.timeout);
        let mut stats = RetryStats::default();
        let reply = retry::exchange(self, seq, &frame, polling, timeout, &mut stats);
        self.stats += stats;
        reply
    }

    fn logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.logs)
    }

    fn cage(&mut self) -> &mut dyn Cage {
        &mut self.cage
    }

    fn retry_stats(&self) -> Option<RetryStats> {
        Some(self.stats)
    }
}

impl Backend for RttPil {
    fn send(&mut self, frame: &[u8]) -> Result<bool, DutError> {
        self.try_send(frame)
    }

    fn poll(&mut self) -> Result<Polled, DutError> {
        Ok(Polled {
            replies: self.poll_once()?,
            busy: false,
        })
    }

    fn bad_frame(&mut self, error: ProtocolError) -> DutError {
        self.failure(QemuEvent::Link(error))
    }

    fn timed_out(&mut self, seq: u16) -> DutError {
        let event = QemuEvent::timed_out(seq, self.qemu.child.id(), None, self.timeout);
        self.failure(event)
    }
}

/// SEGGER's mode bits, named.
fn mode(bits: u32) -> &'static str {
    match bits {
        0 => "NoBlockSkip",
        1 => "NoBlockTrim",
        2 => "BlockIfFull",
        _ => "unknown mode",
    }
}
