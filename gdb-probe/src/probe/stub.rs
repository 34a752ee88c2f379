//! What the probe needs from a stub ([`Stub`]), and the gdb client as one.

use std::fmt;

use crate::cortex_m::{AIRCR, SYSRESETREQ, VECTKEY};

/// What the probe needs from a stub. [`crate::Gdb`] is the real one; [`Scripted`](super::Scripted) drives the
/// debug-register model in tests.
pub trait Stub: Send + fmt::Debug + 'static {
    /// The stub's error.
    type Error: std::error::Error + Send + Sync + 'static;
    /// Stops the VM (nothing if it is stopped).
    fn halt(&mut self) -> Result<(), Self::Error>;
    /// Lets the VM run.
    fn resume(&mut self) -> Result<(), Self::Error>;
    /// Executes one instruction; the VM is stopped before and after.
    fn step(&mut self) -> Result<(), Self::Error>;
    /// Reads memory; the VM is stopped.
    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), Self::Error>;
    /// Writes memory; the VM is stopped.
    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), Self::Error>;
    /// Reads a register by gdb's ARM number (r0-r15 = 0-15, xpsr = 25, fpscr = 42).
    fn read_register(&mut self, number: u32) -> Result<u32, Self::Error>;
    /// Writes a register by gdb's ARM number.
    fn write_register(&mut self, number: u32, value: u32) -> Result<(), Self::Error>;
    /// A system reset (the CPU reloads SP and PC from the vector table at 0); the VM is
    /// stopped before and after.
    fn system_reset(&mut self) -> Result<(), Self::Error>;
    /// Whether memory can be read and written with the VM running
    /// ([`Quirks::reads_while_running`](crate::Quirks::reads_while_running)).
    fn reads_while_running(&self) -> bool {
        false
    }
}

/// The gdb client as a probe's stub: a system reset is the stub's monitor command where it
/// has one ([`Quirks::reset_command`](crate::Quirks::reset_command)), else a write of
/// SYSRESETREQ to AIRCR for a stub that models the register itself.
impl Stub for crate::Gdb {
    type Error = crate::GdbError;

    fn halt(&mut self) -> Result<(), Self::Error> {
        crate::Gdb::halt(self)
    }

    fn resume(&mut self) -> Result<(), Self::Error> {
        crate::Gdb::resume(self)
    }

    fn step(&mut self) -> Result<(), Self::Error> {
        crate::Gdb::step(self)
    }

    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), Self::Error> {
        crate::Gdb::read_memory(self, address, buf)
    }

    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), Self::Error> {
        crate::Gdb::write_memory(self, address, bytes)
    }

    fn read_register(&mut self, number: u32) -> Result<u32, Self::Error> {
        crate::Gdb::read_register(self, number)
    }

    fn write_register(&mut self, number: u32, value: u32) -> Result<(), Self::Error> {
        crate::Gdb::write_register(self, number, value)
    }

    fn system_reset(&mut self) -> Result<(), Self::Error> {
        match self.quirks().reset_command {
            Some(command) => self.monitor(command),
            None => self.write_u32(AIRCR, (VECTKEY << 16) | SYSRESETREQ),
        }
    }

    fn reads_while_running(&self) -> bool {
        self.quirks().reads_while_running
    }
}
