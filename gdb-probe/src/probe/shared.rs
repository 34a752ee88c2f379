//! One gdb connection shared by the probe and a host that polls RTT through it, with the
//! guest held stopped across a poll's accesses.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::Stub;
use crate::client::{Gdb, GdbError};

/// The gdb connection, shared by the probe and the host's polls ([`SharedGdb::hold`]).
#[derive(Clone, Debug)]
pub struct SharedGdb(Arc<Mutex<Held>>);

#[derive(Debug)]
struct Held {
    gdb: Gdb,
    /// A poll is under way: the probe's resumes wait for its end.
    hold: bool,
    /// The probe resumed during the poll: the guest is stopped and runs at its end.
    deferred: bool,
}

impl SharedGdb {
    /// Shares `gdb`.
    pub fn new(gdb: Gdb) -> SharedGdb {
        SharedGdb(Arc::new(Mutex::new(Held {
            gdb,
            hold: false,
            deferred: false,
        })))
    }

    /// How many handles share the connection.
    pub(crate) fn users(&self) -> usize {
        Arc::strong_count(&self.0)
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        // A panic while the lock was held left a gdb connection that is still usable.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds the guest stopped across a poll's accesses (`true`), or lets it run again. A
    /// stub that cannot be read while the guest runs (QEMU's) stops it for each access; held,
    /// it stays stopped from a poll's first access to its end (one stop instead of some ten).
    pub fn hold(&self, on: bool) -> Result<(), GdbError> {
        let mut held = self.lock();
        if held.gdb.quirks().reads_while_running {
            // Nothing stops the guest for a poll: nothing to hold.
            return Ok(());
        }
        held.hold = on;
        if !on && held.deferred {
            held.deferred = false;
            held.gdb.resume()?;
        }
        Ok(())
    }
}

impl SharedGdb {
    /// Runs a monitor command of the stub (`qRcmd`); a guest that was running runs on.
    pub fn monitor(&self, command: &str) -> Result<(), GdbError> {
        self.monitor_output(command).map(drop)
    }

    /// Runs a monitor command of the stub and returns what it printed; a guest that was
    /// running runs on.
    pub fn monitor_output(&self, command: &str) -> Result<String, GdbError> {
        let mut held = self.lock();
        let running = !held.gdb.is_halted();
        let output = held.gdb.monitor_output(command)?;
        if running {
            held.gdb.resume()?;
        }
        Ok(output)
    }

    /// Runs a monitor command without stopping a running guest where the stub allows it
    /// ([`Gdb::monitor_running`]); elsewhere a guest stopped for it runs on after it. A guest
    /// that stopped on its own meanwhile (a breakpoint) stays stopped.
    pub fn monitor_running(&self, command: &str) -> Result<String, GdbError> {
        let mut held = self.lock();
        let stopped_for_it = !held.gdb.is_halted() && !held.gdb.quirks().reads_while_running;
        let output = held.gdb.monitor_running(command)?;
        if stopped_for_it {
            held.gdb.resume()?;
        }
        Ok(output)
    }
}

impl Stub for SharedGdb {
    type Error = GdbError;

    fn halt(&mut self) -> Result<(), GdbError> {
        let mut held = self.lock();
        if held.deferred {
            // Still stopped since the resume that was held back: it now stays stopped.
            held.deferred = false;
            return Ok(());
        }
        held.gdb.halt()
    }

    fn resume(&mut self) -> Result<(), GdbError> {
        let mut held = self.lock();
        if held.hold {
            held.deferred = true;
            return Ok(());
        }
        held.gdb.resume()
    }

    fn step(&mut self) -> Result<(), GdbError> {
        self.lock().gdb.step()
    }

    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), GdbError> {
        self.lock().gdb.read_memory(address, buf)
    }

    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), GdbError> {
        self.lock().gdb.write_memory(address, bytes)
    }

    fn read_register(&mut self, number: u32) -> Result<u32, GdbError> {
        self.lock().gdb.read_register(number)
    }

    fn write_register(&mut self, number: u32, value: u32) -> Result<(), GdbError> {
        self.lock().gdb.write_register(number, value)
    }

    fn system_reset(&mut self) -> Result<(), GdbError> {
        Stub::system_reset(&mut self.lock().gdb)
    }

    fn reads_while_running(&self) -> bool {
        self.lock().gdb.quirks().reads_while_running
    }
}
