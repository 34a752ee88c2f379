//! The firmware's defmt log as a probe reads it: RTT up channel 0 out of the core's memory
//! (gdb-probe's RTT reader over the core), decoded against the ELF's defmt table.

use defmt_decoder::{DecodeError, StreamDecoder, Table};
use gdb_probe::rtt::{ControlBlock, Memory, RttError};

use crate::cpu::Core;
use crate::elf::Elf;

impl Memory for Core<'_> {
    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), RttError> {
        Core::read_memory(self, address, buf).map_err(|f| RttError::Memory(format!("{f:?}").into()))
    }

    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), RttError> {
        Core::write_memory(self, address, bytes)
            .map_err(|f| RttError::Memory(format!("{f:?}").into()))
    }
}

/// The defmt log of one run.
pub struct Log {
    decoder: Option<Box<dyn StreamDecoder + Send + Sync>>,
    rtt: Option<u32>,
    block: Option<ControlBlock>,
    /// Whether frames end in a 0 (rzCOBS, defmt's default encoding).
    framed: bool,
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("rtt", &self.rtt)
            .finish_non_exhaustive()
    }
}

impl Log {
    /// The log of `elf` (silent if it has no defmt table or no RTT).
    pub fn new(elf: &Elf) -> Log {
        let table = Table::parse(&elf.bytes).ok().flatten();
        let framed = table
            .as_ref()
            .is_some_and(|t| matches!(t.encoding(), defmt_decoder::Encoding::Rzcobs));
        let decoder = table.map(|table| {
            // One table for the process's one run.
            let table: &'static Table = Box::leak(Box::new(table));
            table.new_stream_decoder()
        });
        Log {
            decoder,
            rtt: elf.rtt,
            block: None,
            framed,
        }
    }

    /// The log of `elf` from the start of the last whole frame the firmware wrote, whether
    /// a debugger (the bench, reading RTT while the core runs) took it already or not: a
    /// panic's words then carry its message on every run, whoever read it first. Without a
    /// whole last frame, from the start of the frame the debugger was reading (it may have
    /// taken the frame's first bytes; rzCOBS frames end in 0, so the start is found).
    pub fn after_debugger(elf: &Elf, core: &mut Core<'_>) -> Log {
        let mut log = Log::new(elf);
        if log.framed
            && let Some(block) = log.control_block(core)
            && !block.rewind_up_to_last(core, 0, 0).unwrap_or(false)
        {
            let _ = block.rewind_up(core, 0, 0);
        }
        log
    }

    fn control_block(&mut self, core: &mut Core<'_>) -> Option<&ControlBlock> {
        if self.block.is_none() {
            self.block = ControlBlock::read(core, self.rtt?).ok().flatten();
        }
        self.block.as_ref()
    }

    /// The lines the firmware wrote since the last call (what up channel 0 holds).
    pub fn lines(&mut self, core: &mut Core<'_>) -> Vec<String> {
        if self.decoder.is_none() || self.control_block(core).is_none() {
            return Vec::new();
        }
        let (Some(decoder), Some(block)) = (self.decoder.as_mut(), &self.block) else {
            return Vec::new();
        };
        let mut bytes = Vec::new();
        if block.read_up(core, 0, &mut bytes).is_err() {
            return Vec::new();
        }
        decoder.received(&bytes);
        let mut lines = Vec::new();
        loop {
            match decoder.decode() {
                Ok(frame) => {
                    let level = frame.level().map_or("", |l| l.as_str());
                    lines.push(
                        format!("{level} {}", frame.display_message())
                            .trim()
                            .to_string(),
                    );
                }
                Err(DecodeError::UnexpectedEof) => break,
                Err(DecodeError::Malformed) => {
                    lines.push(
                        "(a defmt frame that does not decode: a debugger may have read its start)"
                            .to_string(),
                    );
                    break;
                }
            }
        }
        lines
    }
}
