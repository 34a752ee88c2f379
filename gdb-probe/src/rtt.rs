//! RTT from the host's side through a debugger that can read and write target memory (QEMU's
//! gdbstub here; probe-rs does the same on a board). RTT is a control block in target RAM
//! (`_SEGGER_RTT`: the id "SEGGER RTT", the channel counts, then one descriptor per channel)
//! and one ring buffer per channel; the target writes an up buffer's write offset and the host
//! its read offset, and the other way round for a down buffer.
//!
//! The reader needs only [`Memory`]: reads and writes of target memory. Every call expects
//! the target not to move an offset under the host's feet: with QEMU's gdbstub the guest is
//! halted ([`crate::Gdb::halt`]), since QEMU cannot access memory while it runs; a probe that
//! reads RAM in the background (a board's) needs no halt, as RTT's offsets are each written
//! by one side only.

use std::path::Path;

use crate::client::{Gdb, GdbError};

/// Target memory as a debugger reaches it: all the host side of RTT needs.
pub trait Memory {
    /// Reads `buf.len()` bytes from `address`.
    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), RttError>;
    /// Writes `bytes` at `address`.
    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), RttError>;

    /// Writes a 32-bit little-endian word.
    fn write_u32(&mut self, address: u32, value: u32) -> Result<(), RttError> {
        self.write_memory(address, &value.to_le_bytes())
    }
}

impl Memory for Gdb {
    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), RttError> {
        Ok(Gdb::read_memory(self, address, buf)?)
    }

    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), RttError> {
        Ok(Gdb::write_memory(self, address, bytes)?)
    }
}

/// The control block's id; the target writes it last, once every channel is set up.
const ID: &[u8; 10] = b"SEGGER RTT";
/// Bytes of the id field, and of a channel descriptor (six 32-bit words).
const ID_FIELD: u32 = 16;
const DESCRIPTOR: u32 = 24;
/// More channels than this in a control block is a corrupt one.
const MAX_CHANNELS: u32 = 16;
/// A channel buffer larger than this is a corrupt descriptor (the MCUs here have 128 KiB of
/// RAM; QEMU's mps2-an386 4 MiB).
const MAX_BUFFER: u32 = 1 << 22;

/// What went wrong with RTT.
#[derive(Debug, thiserror::Error)]
pub enum RttError {
    /// The debugger failed (the gdb client's [`GdbError`], or another [`Memory`]'s error).
    #[error("{0}")]
    Memory(Box<dyn std::error::Error + Send + Sync>),
    /// The ELF could not be read.
    #[error("cannot read {path}: {error}")]
    Elf {
        /// The ELF.
        path: String,
        /// Why.
        error: String,
    },
    /// The ELF has no `_SEGGER_RTT` symbol: the firmware was built without RTT.
    #[error("{0} has no _SEGGER_RTT symbol (a firmware without RTT)")]
    NoSymbol(String),
    /// The control block lists fewer channels than the layout needs.
    #[error("RTT has no {direction} channel {number} (the firmware has {count})")]
    NoChannel {
        /// "up" or "down".
        direction: &'static str,
        /// The channel asked for.
        number: usize,
        /// The channels of that direction the firmware has.
        count: usize,
    },
    /// The firmware did not set up RTT in time.
    #[error(
        "no RTT control block at {addr:#010x} after {waited:?}: the firmware did not reach its rtt_init!"
    )]
    NotFound {
        /// Where `_SEGGER_RTT` is.
        addr: u32,
        /// How long the bench waited.
        waited: std::time::Duration,
    },
    /// A down channel has no room for a frame that should fit: the firmware stopped reading.
    #[error(
        "RTT down channel {channel} has no room for {bytes} bytes: the firmware stopped reading it"
    )]
    Full {
        /// The channel.
        channel: usize,
        /// The frame's length.
        bytes: usize,
    },
    /// The control block or a channel holds values no firmware writes.
    #[error("corrupt RTT control block at {addr:#010x}: {what}")]
    Corrupt {
        /// The control block's address.
        addr: u32,
        /// What is wrong.
        what: String,
    },
}

/// The address of `_SEGGER_RTT` in the ELF at `path`.
pub fn control_block_address(path: &Path, elf: &[u8]) -> Result<u32, RttError> {
    let file = object::File::parse(elf).map_err(|e| RttError::Elf {
        path: path.display().to_string(),
        error: e.to_string(),
    })?;
    crate::symbols::rtt_control_block(&file)
        .ok_or_else(|| RttError::NoSymbol(path.display().to_string()))
}

/// One channel's descriptor, as read at attach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Channel {
    /// The name the firmware gave it.
    pub name: String,
    /// The ring buffer's size in bytes.
    pub size: u32,
    /// The mode bits of its flags (0 NoBlockSkip, 1 NoBlockTrim, 2 BlockIfFull).
    pub mode: u32,
    /// Where its descriptor is.
    at: u32,
    /// Where its ring buffer is.
    buffer: u32,
}

/// Offsets of a descriptor's words.
const WRITE: u32 = 12;
const READ: u32 = 16;

/// Every channel's (write, read) offsets at one moment: up channels, then down ones.
#[derive(Clone, Debug)]
pub struct Snapshot {
    offsets: Vec<(u32, u32)>,
}

/// The channels of an attached control block.
#[derive(Clone, Debug)]
pub struct ControlBlock {
    addr: u32,
    /// Up channels (target to host), by number.
    pub up: Vec<Channel>,
    /// Down channels (host to target), by number.
    pub down: Vec<Channel>,
}

impl ControlBlock {
    /// A control block with no channels, at `addr` (before attach).
    pub fn empty(addr: u32) -> ControlBlock {
        ControlBlock {
            addr,
            up: Vec::new(),
            down: Vec::new(),
        }
    }

    /// Reads the control block at `addr`: `None` while its id is not there yet (the firmware
    /// has not run its `rtt_init!`).
    pub fn read(memory: &mut impl Memory, addr: u32) -> Result<Option<ControlBlock>, RttError> {
        let mut head = [0u8; ID_FIELD as usize + 8];
        memory.read_memory(addr, &mut head)?;
        if &head[..ID.len()] != ID {
            return Ok(None);
        }
        let word = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let (ups, downs) = (word(16), word(20));
        if ups > MAX_CHANNELS || downs > MAX_CHANNELS {
            return Err(corrupt(addr, format!("{ups} up and {downs} down channels")));
        }
        let mut channel = |i: u32| -> Result<Channel, RttError> {
            let at = addr + ID_FIELD + 8 + i * DESCRIPTOR;
            let mut d = [0u8; DESCRIPTOR as usize];
            memory.read_memory(at, &mut d)?;
            let w = |k: usize| u32::from_le_bytes([d[k], d[k + 1], d[k + 2], d[k + 3]]);
            let mut name = [0u8; 32];
            if w(0) != 0 {
                memory.read_memory(w(0), &mut name)?;
            }
            let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
            if w(8) == 0 || w(8) > MAX_BUFFER || w(4).checked_add(w(8)).is_none() {
                return Err(corrupt(
                    addr,
                    format!("a channel of {} bytes at {:#010x}", w(8), w(4)),
                ));
            }
            Ok(Channel {
                name: String::from_utf8_lossy(&name[..end]).into_owned(),
                size: w(8),
                mode: w(20) & 3,
                at,
                buffer: w(4),
            })
        };
        let up = (0..ups).map(&mut channel).collect::<Result<Vec<_>, _>>()?;
        let down = (ups..ups + downs)
            .map(&mut channel)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(ControlBlock { addr, up, down }))
    }

    /// Where the control block is.
    pub fn addr(&self) -> u32 {
        self.addr
    }

    /// Up channel `number`, or an error naming it.
    pub fn up(&self, number: usize) -> Result<&Channel, RttError> {
        self.up.get(number).ok_or(RttError::NoChannel {
            direction: "up",
            number,
            count: self.up.len(),
        })
    }

    /// Down channel `number`, or an error naming it.
    pub fn down(&self, number: usize) -> Result<&Channel, RttError> {
        self.down.get(number).ok_or(RttError::NoChannel {
            direction: "down",
            number,
            count: self.down.len(),
        })
    }

    /// Every channel's offsets in one read (the descriptors are contiguous): what a poll
    /// reads first, so that it touches only the buffers that have something.
    pub fn snapshot(&self, memory: &mut impl Memory) -> Result<Snapshot, RttError> {
        let count = self.up.len() + self.down.len();
        let first = self.addr + ID_FIELD + 8;
        let mut bytes = vec![0u8; count * DESCRIPTOR as usize];
        memory.read_memory(first, &mut bytes)?;
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let mut offsets = Vec::with_capacity(count);
        for (i, channel) in self.up.iter().chain(&self.down).enumerate() {
            let at = i * DESCRIPTOR as usize;
            let pair = (word(at + WRITE as usize), word(at + READ as usize));
            offsets.push(self.checked(channel, pair)?);
        }
        Ok(Snapshot { offsets })
    }

    /// Appends to `out` everything up channel `number` holds and marks it read.
    pub fn read_up(
        &self,
        memory: &mut impl Memory,
        number: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), RttError> {
        let channel = self.up(number)?;
        let pair = self.offsets(memory, channel)?;
        self.read_up_from(memory, number, pair, out)
    }

    /// Moves up channel `number`'s read offset back to the start of the frame it is in the
    /// middle of: just after the last `delimiter` before it (defmt's rzCOBS frames end in 0).
    /// For a reader that comes second: another (a debugger) may have read a frame's start.
    /// Returns the bytes moved back (none if the offset is at a frame's start).
    pub fn rewind_up(
        &self,
        memory: &mut impl Memory,
        number: usize,
        delimiter: u8,
    ) -> Result<u32, RttError> {
        let channel = self.up(number)?;
        let (write, read) = self.offsets(memory, channel)?;
        let mut ring = vec![0u8; channel.size as usize];
        memory.read_memory(channel.buffer, &mut ring)?;
        // Back from `read` through bytes already read, never past `write` (older than that
        // is overwritten).
        let mut back = 0;
        let mut at = read;
        while back + 1 < channel.size {
            let before = (at + channel.size - 1) % channel.size;
            if before == write || ring[before as usize] == delimiter {
                break;
            }
            at = before;
            back += 1;
        }
        if back > 0 {
            memory.write_u32(channel.at + READ, at)?;
        }
        Ok(back)
    }

    /// Moves up channel `number`'s read offset to the start of the last whole frame written
    /// (ended by `delimiter`), whether a reader took it already or not: for a reader that
    /// wants the channel's last message (a panic's) the same whoever read it first. Returns
    /// whether there was such a frame (none whole in the ring: the offset is left alone).
    pub fn rewind_up_to_last(
        &self,
        memory: &mut impl Memory,
        number: usize,
        delimiter: u8,
    ) -> Result<bool, RttError> {
        let channel = self.up(number)?;
        let (write, _) = self.offsets(memory, channel)?;
        let mut ring = vec![0u8; channel.size as usize];
        memory.read_memory(channel.buffer, &mut ring)?;
        let size = channel.size;
        let back = |at: u32| (at + size - 1) % size;
        let end = back(write);
        if ring[end as usize] != delimiter || end == write {
            return Ok(false);
        }
        // From the delimiter that ends the last frame back to the one before it.
        let mut at = end;
        loop {
            let before = back(at);
            if ring[before as usize] == delimiter {
                break;
            }
            if before == write {
                return Ok(false); // the frame's start is overwritten
            }
            at = before;
        }
        if at == end {
            return Ok(false); // two delimiters: no frame between them
        }
        memory.write_u32(channel.at + READ, at)?;
        Ok(true)
    }

    /// Whether up channel `number` held anything in `snapshot`.
    pub fn has_data(&self, snapshot: &Snapshot, number: usize) -> bool {
        snapshot
            .offsets
            .get(number)
            .is_some_and(|(write, read)| write != read)
    }

    /// [`ControlBlock::read_up`] with the offsets of `snapshot` (the guest halted since).
    pub fn read_up_at(
        &self,
        memory: &mut impl Memory,
        snapshot: &Snapshot,
        number: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), RttError> {
        self.up(number)?;
        self.read_up_from(memory, number, snapshot.offsets[number], out)
    }

    fn read_up_from(
        &self,
        memory: &mut impl Memory,
        number: usize,
        (write, read): (u32, u32),
        out: &mut Vec<u8>,
    ) -> Result<(), RttError> {
        let channel = self.up(number)?;
        if write == read {
            return Ok(());
        }
        let mut take = |from: u32, to: u32| -> Result<(), RttError> {
            let start = out.len();
            out.resize(start + (to - from) as usize, 0);
            memory.read_memory(channel.buffer + from, &mut out[start..])?;
            Ok(())
        };
        if write > read {
            take(read, write)?;
        } else {
            take(read, channel.size)?;
            take(0, write)?;
        }
        memory.write_u32(channel.at + READ, write)?;
        Ok(())
    }

    /// Writes `bytes` to down channel `number` if all of them fit, and says whether they did:
    /// a frame goes down whole or not at all.
    pub fn write_down(
        &self,
        memory: &mut impl Memory,
        number: usize,
        bytes: &[u8],
    ) -> Result<bool, RttError> {
        let channel = self.down(number)?;
        let (write, read) = self.offsets(memory, channel)?;
        // One byte stays free: equal offsets mean empty.
        let free = (read + channel.size - write - 1) % channel.size;
        if bytes.len() > free as usize {
            return Ok(false);
        }
        let first = bytes.len().min((channel.size - write) as usize);
        memory.write_memory(channel.buffer + write, &bytes[..first])?;
        if first < bytes.len() {
            memory.write_memory(channel.buffer, &bytes[first..])?;
        }
        let end = (write + bytes.len() as u32) % channel.size;
        memory.write_u32(channel.at + WRITE, end)?;
        Ok(true)
    }

    /// A channel's write and read offsets, checked.
    fn offsets(&self, memory: &mut impl Memory, channel: &Channel) -> Result<(u32, u32), RttError> {
        let mut words = [0u8; 8];
        memory.read_memory(channel.at + WRITE, &mut words)?;
        let write = u32::from_le_bytes([words[0], words[1], words[2], words[3]]);
        let read = u32::from_le_bytes([words[4], words[5], words[6], words[7]]);
        self.checked(channel, (write, read))
    }

    fn checked(
        &self,
        channel: &Channel,
        (write, read): (u32, u32),
    ) -> Result<(u32, u32), RttError> {
        if channel.size == 0 || write >= channel.size || read >= channel.size {
            return Err(corrupt(
                self.addr,
                format!(
                    "channel \"{}\" has offsets {write} and {read} in {} bytes",
                    channel.name, channel.size
                ),
            ));
        }
        Ok((write, read))
    }
}

impl From<GdbError> for RttError {
    fn from(e: GdbError) -> RttError {
        RttError::Memory(Box::new(e))
    }
}

fn corrupt(addr: u32, what: String) -> RttError {
    RttError::Corrupt { addr, what }
}
