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
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use emulator::emulated::EmulatedCage;
use firmware::pil::Up;
use firmware::protocol::{Command, FrameReader, Reply};
use heuristic::Size;

use crate::dut::defmt::DefmtLog;
use crate::dut::frame::{Sequence, encode_command};
use crate::dut::{Cage, CageError, Dut, DutError, Lost};
use crate::machine::{
    Adc, Elf, MachineError, PilOptions, QemuEvent, QemuFailure, exit_of, printable, qemu_command,
};

/// How many of the last log lines an error quotes.
const RECENT: usize = 8;

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
    ) -> Result<Pil, DutError> {
        let cage = EmulatedCage::new(profile, size, seed).map_err(CageError::from)?;
        let elf = Elf::read(&options.elf)?;
        let mut defmt = DefmtLog::new(&elf.bytes).map_err(Lost::Defmt)?;
        let mut qemu = qemu_command(options, firmware, "link=semihosting")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(MachineError::Start)?;
        let (Some(down), Some(mut up), Some(mut stdout)) =
            (qemu.stdin.take(), qemu.stderr.take(), qemu.stdout.take())
        else {
            return Err(MachineError::Pipes.into());
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
    pub fn emulated_cage(&self) -> &EmulatedCage {
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
    fn failure(&mut self, what: QemuEvent) -> DutError {
        let exit = exit_of(&mut self.qemu);
        // Let the log thread catch up with what QEMU wrote before it stopped.
        std::thread::sleep(Duration::from_millis(50));
        while let Ok(bytes) = self.up.try_recv() {
            self.stray.extend(bytes);
        }
        self.drain_logs();
        let said = printable(&self.stray);
        QemuFailure {
            what,
            exit,
            said,
            recent: self.recent.iter().cloned().collect(),
        }
        .into()
    }

    /// Sends `bytes` as they are (garbage, torn or oversized frames, frames of any number, a
    /// flood), then an `Identify` of the bench's own, and returns every reply that came before
    /// that one's, with its number: how a test shows the firmware reads through noise and
    /// answers each frame it could read (a frame it could not gets an error reply numbered
    /// [`firmware::protocol::NO_SEQ`]). Frames that make the firmware sample (a measure, a
    /// decision) would interleave with the sampler's requests: send those through
    /// [`Dut::exchange`].
    pub fn noise(&mut self, bytes: &[u8]) -> Result<Vec<(u16, Reply)>, DutError> {
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
        other: &mut dyn FnMut(u16, Reply) -> Result<(), DutError>,
    ) -> Result<Reply, DutError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        loop {
            self.drain_logs();
            let bytes = match self
                .up
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(bytes) => bytes,
                Err(RecvTimeoutError::Timeout) => {
                    let waited = started.elapsed();
                    let event =
                        QemuEvent::timed_out(seq, self.qemu.id(), Some(waited), self.timeout);
                    return Err(self.failure(event));
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

    fn send(&mut self, bytes: &[u8]) -> Result<(), DutError> {
        match self.down.write_all(bytes).and_then(|()| self.down.flush()) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.failure(QemuEvent::Write(e))),
        }
    }

    /// Answers one request of the firmware's sampler; a reply goes back to the caller.
    fn answer(&mut self, seq: u16, up: Up) -> Result<Option<Reply>, DutError> {
        if let Up::Reply(reply) = up {
            return Ok(Some(reply));
        }
        if let Some(answer) = self.adc.answer(seq, up)? {
            self.send(&answer)?;
        }
        Ok(None)
    }
}

impl Dut for Pil {
    fn stage(&self) -> crate::dut::Setup {
        crate::dut::Stage::Pil.into()
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        self.send(&frame)?;
        self.reply_to(seq, &mut |got, _| {
            Err(DutError::LostFrame { expected: seq, got })
        })
    }

    fn logs(&mut self) -> Vec<String> {
        self.drain_logs();
        std::mem::take(&mut self.logs)
    }

    fn cage(&mut self) -> &mut dyn Cage {
        &mut self.cage
    }
}

impl Drop for Pil {
    fn drop(&mut self) {
        let _ = self.qemu.kill();
        let _ = self.qemu.wait();
    }
}
