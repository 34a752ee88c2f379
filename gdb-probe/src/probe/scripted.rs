//! A stub for tests: sparse memory, registers, and QEMU's rule that nothing is accessed while
//! the VM runs.

use super::Stub;

/// A scripted stub with QEMU's one rule that matters to a probe: no memory or register access
/// while the VM runs. It records what it was asked, so a test of anything built on the probe
/// can check the pauses an access makes without an emulator.
#[derive(Debug, Default)]
pub struct Scripted {
    /// Whether the VM runs.
    pub running: bool,
    /// Sparse memory: what was never written reads 0, as QEMU's unmodelled registers do.
    pub memory: std::collections::BTreeMap<u32, u8>,
    /// Registers by gdb number.
    pub regs: [u32; 32],
    /// The calls made, in order (`halt`, `resume`, `read`, `write`).
    pub calls: Vec<&'static str>,
    /// Steps taken.
    pub steps: u32,
    /// System resets.
    pub resets: u32,
}

#[derive(Debug, thiserror::Error)]
/// The one error: an access while the VM runs.
#[error("accessed while running")]
pub struct Running;

/// Where the tests' RAM starts.
#[cfg(test)]
pub(crate) const BASE: u32 = 0x2000_0000;

impl Scripted {
    /// A stopped VM with zeroed memory and registers.
    pub fn new() -> Scripted {
        Scripted::default()
    }

    fn stopped(&self) -> Result<(), Running> {
        if self.running { Err(Running) } else { Ok(()) }
    }
}

impl Stub for Scripted {
    type Error = Running;
    fn halt(&mut self) -> Result<(), Running> {
        self.calls.push("halt");
        self.running = false;
        Ok(())
    }
    fn resume(&mut self) -> Result<(), Running> {
        self.calls.push("resume");
        self.running = true;
        Ok(())
    }
    fn step(&mut self) -> Result<(), Running> {
        self.stopped()?;
        self.steps += 1;
        self.regs[15] += 2;
        Ok(())
    }
    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), Running> {
        self.stopped()?;
        self.calls.push("read");
        for (i, b) in buf.iter_mut().enumerate() {
            *b = self.memory.get(&(address + i as u32)).copied().unwrap_or(0);
        }
        Ok(())
    }
    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), Running> {
        self.stopped()?;
        self.calls.push("write");
        for (i, &b) in bytes.iter().enumerate() {
            self.memory.insert(address + i as u32, b);
        }
        Ok(())
    }
    fn read_register(&mut self, number: u32) -> Result<u32, Running> {
        self.stopped()?;
        Ok(self.regs[number as usize])
    }
    fn write_register(&mut self, number: u32, value: u32) -> Result<(), Running> {
        self.stopped()?;
        self.regs[number as usize] = value;
        Ok(())
    }
    fn system_reset(&mut self) -> Result<(), Running> {
        self.stopped()?;
        self.resets += 1;
        self.regs[15] = 0x1c4;
        Ok(())
    }
}
