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
        let decoder = Table::parse(&elf.bytes).ok().flatten().map(|table| {
            // One table for the process's one run.
            let table: &'static Table = Box::leak(Box::new(table));
            table.new_stream_decoder()
        });
        Log {
            decoder,
            rtt: elf.rtt,
            block: None,
        }
    }

    /// The lines the firmware wrote since the last call (what up channel 0 holds).
    pub fn lines(&mut self, core: &mut Core<'_>) -> Vec<String> {
        let (Some(decoder), Some(addr)) = (self.decoder.as_mut(), self.rtt) else {
            return Vec::new();
        };
        if self.block.is_none() {
            self.block = ControlBlock::read(core, addr).ok().flatten();
        }
        let Some(block) = &self.block else {
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
                    lines.push("(malformed defmt frame)".to_string());
                    break;
                }
            }
        }
        lines
    }
}
