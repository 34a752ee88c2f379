//! The debug unit: the Cortex-M debug registers a stub does not model behind it (DHCSR,
//! DCRSR/DCRDR, DEMCR, DFSR, AIRCR's reset), answered from gdb's stop, continue, step and
//! register packets (ARMv7-M ARM C1.6), and the run state probe-rs sees. Every access of the
//! probe's memory interface goes through it.

use std::ops::Range;

use probe_rs::architecture::arm::ArmError;

use super::{GdbProbeError, Stub, stub};
use crate::cortex_m::{AIRCR, DBGKEY, DCRDR, DCRSR, DEMCR, DFSR, DHCSR, SYSRESETREQ, VECTKEY};
use crate::quirks::Quirks;

// The Cortex-M debug registers this model answers (ARMv7-M ARM, C1.6): their addresses in
// `crate::cortex_m`, their bits here.
pub(super) const C_DEBUGEN: u32 = 1 << 0;
pub(super) const C_HALT: u32 = 1 << 1;
pub(super) const C_STEP: u32 = 1 << 2;
pub(super) const C_MASKINTS: u32 = 1 << 3;
pub(super) const S_REGRDY: u32 = 1 << 16;
pub(super) const S_HALT: u32 = 1 << 17;

pub(super) const DFSR_HALTED: u32 = 1 << 0;
pub(super) const DFSR_VCATCH: u32 = 1 << 3;
pub(super) const DFSR_MASK: u32 = 0x1F;

pub(super) const VC_CORERESET: u32 = 1 << 0;

pub(super) const REGWNR: u32 = 1 << 16;
/// gdb's number for xPSR in QEMU's `arm-m-profile.xml`.
pub(super) const GDB_XPSR: u32 = 25;
/// gdb's number for FPSCR in QEMU's `arm-vfp.xml` (after d0-d15 at 26-41).
pub(super) const GDB_FPSCR: u32 = 42;

/// The debug registers QEMU does not model, and the run state probe-rs sees.
#[derive(Debug)]
pub(super) struct DebugUnit<S: Stub> {
    pub(super) stub: S,
    /// The core as probe-rs sees it: halted by C_HALT, a step or a reset catch (or by QEMU's
    /// `-S` before anything ran). When false the VM runs, but for the pause of an access.
    pub(super) halted: bool,
    /// DHCSR's control bits as last written (C_DEBUGEN, C_HALT, C_STEP, C_MASKINTS).
    pub(super) control: u32,
    pub(super) demcr: u32,
    pub(super) dfsr: u32,
    pub(super) dcrdr: u32,
    /// Where writes go to the stub; with [`Quirks::drops_device_writes`], anything else that
    /// is not a modelled register is refused.
    pub(super) ram: Vec<Range<u64>>,
    pub(super) quirks: Quirks,
}

impl<S: Stub> DebugUnit<S> {
    /// A unit for a VM that is stopped (QEMU started with `-S` stops when gdb connects): the
    /// core reads as halted by the debugger, as after an attach under reset.
    pub(super) fn new(stub: S, ram: Vec<Range<u64>>, quirks: Quirks) -> Self {
        DebugUnit {
            quirks,
            stub,
            halted: true,
            control: C_DEBUGEN | C_HALT,
            demcr: 0,
            dfsr: DFSR_HALTED,
            dcrdr: 0,
            ram,
        }
    }

    /// Runs `f` (a memory access) with the VM stopped, and lets it run again after if the
    /// core is running; a stub that reads while the guest runs is not stopped at all.
    pub(super) fn paused<T>(
        &mut self,
        f: impl FnOnce(&mut S) -> Result<T, ArmError>,
    ) -> Result<T, ArmError> {
        if self.halted || self.stub.reads_while_running() {
            return f(&mut self.stub);
        }
        self.stub.halt().map_err(stub)?;
        let result = f(&mut self.stub);
        self.stub.resume().map_err(stub)?;
        result
    }

    pub(super) fn dhcsr(&self) -> u32 {
        let mut value = self.control | S_REGRDY;
        if self.halted {
            value |= S_HALT;
        }
        value
    }

    pub(super) fn write_dhcsr(&mut self, value: u32) -> Result<(), ArmError> {
        if value >> 16 != DBGKEY {
            // The hardware ignores a write without the key.
            return Ok(());
        }
        let control = value & (C_DEBUGEN | C_HALT | C_STEP | C_MASKINTS);
        if control & C_DEBUGEN == 0 {
            // Halting debug off: the core runs.
            self.control = control & C_MASKINTS;
            return self.run();
        }
        self.control = control;
        if control & C_HALT != 0 {
            if !self.halted {
                self.stub.halt().map_err(stub)?;
                self.halted = true;
                self.dfsr |= DFSR_HALTED;
            }
        } else if control & C_STEP != 0 {
            // A step from Debug state; while running, C_STEP waits for the next halt.
            if self.halted {
                self.stub.step().map_err(stub)?;
                self.dfsr |= DFSR_HALTED;
                // The core re-enters Debug state, which sets C_HALT.
                self.control |= C_HALT;
            }
        } else {
            self.run()?;
        }
        Ok(())
    }

    pub(super) fn run(&mut self) -> Result<(), ArmError> {
        if self.halted {
            self.stub.resume().map_err(stub)?;
            self.halted = false;
        }
        Ok(())
    }

    pub(super) fn write_dcrsr(&mut self, value: u32) -> Result<(), ArmError> {
        if !self.halted {
            return Err(GdbProbeError::NotHalted.into());
        }
        let regsel = value & 0x7F;
        let number = match regsel {
            0..=15 => regsel,
            16 => GDB_XPSR,
            0x21 => GDB_FPSCR,
            _ => return Err(GdbProbeError::Register { regsel }.into()),
        };
        if value & REGWNR != 0 {
            self.stub.write_register(number, self.dcrdr).map_err(stub)?;
        } else {
            self.dcrdr = self.stub.read_register(number).map_err(stub)?;
        }
        Ok(())
    }

    pub(super) fn write_aircr(&mut self, value: u32) -> Result<(), ArmError> {
        if value >> 16 != VECTKEY {
            return Ok(());
        }
        if value & SYSRESETREQ == 0 {
            return Err(GdbProbeError::Aircr { value }.into());
        }
        if !self.halted {
            self.stub.halt().map_err(stub)?;
        }
        self.stub.system_reset().map_err(stub)?;
        if self.demcr & VC_CORERESET != 0 {
            // Reset vector catch: halted at the first instruction.
            self.halted = true;
            self.control |= C_HALT;
            self.dfsr |= DFSR_VCATCH;
        } else {
            self.halted = false;
            self.control &= !(C_HALT | C_STEP);
            self.stub.resume().map_err(stub)?;
        }
        Ok(())
    }

    /// The modelled register at `address`, if it is one.
    pub(super) fn read_register(&mut self, address: u32) -> Option<u32> {
        Some(match address {
            DHCSR => self.dhcsr(),
            // DCRSR is write-only; it reads as the last selection would not matter to anyone.
            DCRSR => 0,
            DCRDR => self.dcrdr,
            DEMCR => self.demcr,
            DFSR => self.dfsr,
            _ => return None,
        })
    }

    /// Writes a modelled register; false if `address` is not one.
    pub(super) fn write_register(&mut self, address: u32, value: u32) -> Result<bool, ArmError> {
        match address {
            DHCSR => self.write_dhcsr(value)?,
            DCRSR => self.write_dcrsr(value)?,
            DCRDR => self.dcrdr = value,
            DEMCR => self.demcr = value,
            // Write one to clear.
            DFSR => self.dfsr &= !(value & DFSR_MASK),
            AIRCR => self.write_aircr(value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub(super) fn is_modelled(address: u32) -> bool {
        matches!(address, DFSR | AIRCR) || (DHCSR..DEMCR + 4).contains(&address)
    }

    /// Whether `len` bytes at `address` touch a modelled register.
    pub(super) fn touches_model(address: u64, len: usize) -> bool {
        let end = address + len as u64;
        [DFSR, AIRCR, DHCSR, DCRSR, DCRDR, DEMCR]
            .iter()
            .any(|&r| u64::from(r) < end && address < u64::from(r) + 4)
    }

    pub(super) fn read(&mut self, address: u64, buf: &mut [u8]) -> Result<(), ArmError> {
        let start = addr32(address)?;
        addr32(address + buf.len() as u64)?;
        if !Self::touches_model(address, buf.len()) {
            return self.paused(|s| s.read_memory(start, buf).map_err(stub));
        }
        // Word by word: the modelled ones from here, the rest (AIRCR reads, CPUID...) from QEMU.
        if !address.is_multiple_of(4) || !buf.len().is_multiple_of(4) {
            return Err(GdbProbeError::Width { address }.into());
        }
        for (i, word) in buf.chunks_exact_mut(4).enumerate() {
            let at = start + 4 * i as u32;
            match self.read_register(at) {
                Some(value) => word.copy_from_slice(&value.to_le_bytes()),
                None => self.paused(|s| s.read_memory(at, word).map_err(stub))?,
            }
        }
        Ok(())
    }

    pub(super) fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), ArmError> {
        let start = addr32(address)?;
        let end = address + bytes.len() as u64;
        addr32(end)?;
        if Self::touches_model(address, bytes.len()) {
            if !address.is_multiple_of(4) || !bytes.len().is_multiple_of(4) {
                return Err(GdbProbeError::Width { address }.into());
            }
            for (i, word) in bytes.chunks_exact(4).enumerate() {
                let at = start + 4 * i as u32;
                let value = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                if !Self::is_modelled(at) || !self.write_register(at, value)? {
                    return Err(GdbProbeError::DeviceWrite {
                        address: u64::from(at),
                    }
                    .into());
                }
            }
            return Ok(());
        }
        if self.quirks.drops_device_writes
            && !self.ram.iter().any(|r| r.start <= address && end <= r.end)
        {
            return Err(GdbProbeError::DeviceWrite { address }.into());
        }
        self.paused(|s| s.write_memory(start, bytes).map_err(stub))
    }
}

pub(super) fn addr32(address: u64) -> Result<u32, ArmError> {
    // The end of an access may be exactly 2^32.
    if address > 1 << 32 {
        return Err(GdbProbeError::Address(address).into());
    }
    Ok(address as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::Scripted;
    use crate::probe::scripted::BASE;

    fn unit() -> DebugUnit<Scripted> {
        let ram = std::iter::once(u64::from(BASE)..u64::from(BASE) + 0x100).collect::<Vec<_>>();
        DebugUnit::new(Scripted::new(), ram, Quirks::QEMU)
    }

    fn read32(u: &mut DebugUnit<Scripted>, address: u32) -> u32 {
        let mut b = [0u8; 4];
        u.read(u64::from(address), &mut b).unwrap();
        u32::from_le_bytes(b)
    }

    fn write32(u: &mut DebugUnit<Scripted>, address: u32, value: u32) -> Result<(), ArmError> {
        u.write(u64::from(address), &value.to_le_bytes())
    }

    const KEY: u32 = DBGKEY << 16;

    #[test]
    fn starts_halted_as_qemu_does_under_dash_s() {
        let mut u = unit();
        let dhcsr = read32(&mut u, DHCSR);
        assert_eq!(
            dhcsr & (S_HALT | C_HALT | C_DEBUGEN),
            S_HALT | C_HALT | C_DEBUGEN
        );
        assert!(!u.stub.running);
    }

    #[test]
    fn an_access_while_running_pauses_the_vm_and_lets_it_run_again() {
        let mut u = unit();
        write32(&mut u, DHCSR, KEY | C_DEBUGEN).unwrap();
        assert!(u.stub.running);
        assert_eq!(read32(&mut u, DHCSR) & S_HALT, 0);
        u.stub.calls.clear();
        write32(&mut u, BASE + 8, 0xDEAD_BEEF).unwrap();
        assert_eq!(read32(&mut u, BASE + 8), 0xDEAD_BEEF);
        assert_eq!(
            u.stub.calls,
            ["halt", "write", "resume", "halt", "read", "resume"]
        );
        assert!(u.stub.running);
    }

    #[test]
    fn c_halt_stops_the_vm_until_run_and_says_why() {
        let mut u = unit();
        write32(&mut u, DHCSR, KEY | C_DEBUGEN).unwrap();
        write32(&mut u, DFSR, DFSR_MASK).unwrap();
        write32(&mut u, DHCSR, KEY | C_DEBUGEN | C_HALT).unwrap();
        assert!(!u.stub.running);
        assert_ne!(read32(&mut u, DHCSR) & S_HALT, 0);
        assert_eq!(read32(&mut u, DFSR), DFSR_HALTED);
        u.stub.calls.clear();
        read32(&mut u, BASE);
        assert_eq!(u.stub.calls, ["read"], "no pause while halted");
        write32(&mut u, DHCSR, KEY | C_DEBUGEN).unwrap();
        assert!(u.stub.running);
    }

    #[test]
    fn a_write_without_the_key_is_ignored_and_debugen_off_runs() {
        let mut u = unit();
        write32(&mut u, DHCSR, C_DEBUGEN).unwrap();
        assert!(!u.stub.running);
        write32(&mut u, DHCSR, KEY | C_HALT).unwrap();
        assert!(
            u.stub.running,
            "C_HALT without C_DEBUGEN does not hold the core"
        );
    }

    #[test]
    fn core_registers_go_through_dcrsr_and_dcrdr() {
        let mut u = unit();
        u.stub.regs[GDB_XPSR as usize] = 0x0100_0000;
        u.stub.regs[15] = 0x1c4;
        write32(&mut u, DCRSR, 16).unwrap();
        assert_ne!(read32(&mut u, DHCSR) & S_REGRDY, 0);
        assert_eq!(read32(&mut u, DCRDR), 0x0100_0000);
        write32(&mut u, DCRSR, 15).unwrap();
        assert_eq!(read32(&mut u, DCRDR), 0x1c4);
        write32(&mut u, DCRDR, 0x42).unwrap();
        write32(&mut u, DCRSR, REGWNR | 3).unwrap();
        assert_eq!(u.stub.regs[3], 0x42);
    }

    #[test]
    fn registers_qemu_does_not_expose_are_an_error_not_a_zero() {
        let mut u = unit();
        for regsel in [17, 18, 20, 0x40] {
            let e = write32(&mut u, DCRSR, regsel).unwrap_err();
            let want = format!("Register {{ regsel: {regsel} }}");
            assert!(format!("{e:?}").contains(&want), "{e:?}");
        }
        write32(&mut u, DHCSR, KEY | C_DEBUGEN).unwrap();
        assert!(
            write32(&mut u, DCRSR, 15).is_err(),
            "transfer while running"
        );
    }

    #[test]
    fn c_step_executes_one_instruction_and_stays_halted() {
        let mut u = unit();
        u.stub.regs[15] = 0x100;
        write32(&mut u, DHCSR, KEY | C_DEBUGEN | C_STEP | C_MASKINTS).unwrap();
        assert_eq!(u.stub.steps, 1);
        assert!(!u.stub.running);
        assert_ne!(read32(&mut u, DHCSR) & (S_HALT | C_HALT), 0);
        assert_eq!(u.stub.regs[15], 0x102);
    }

    #[test]
    fn sysresetreq_resets_and_runs_or_stops_at_the_vector_if_caught() {
        let mut u = unit();
        write32(&mut u, AIRCR, (VECTKEY << 16) | SYSRESETREQ).unwrap();
        assert_eq!(u.stub.resets, 1);
        assert!(u.stub.running);
        write32(&mut u, DEMCR, VC_CORERESET).unwrap();
        write32(&mut u, DFSR, DFSR_MASK).unwrap();
        write32(&mut u, AIRCR, (VECTKEY << 16) | SYSRESETREQ).unwrap();
        assert_eq!(u.stub.resets, 2);
        assert!(!u.stub.running);
        assert_eq!(read32(&mut u, DFSR), DFSR_VCATCH);
        assert!(write32(&mut u, AIRCR, (VECTKEY << 16) | 2).is_err());
    }

    #[test]
    fn writes_outside_ram_and_the_model_are_refused() {
        let mut u = unit();
        assert!(write32(&mut u, 0x4000_0000, 1).is_err());
        assert!(
            write32(&mut u, crate::cortex_m::FP_CTRL, 1).is_err(),
            "FP_CTRL"
        );
        assert!(
            write32(&mut u, BASE + 0xFE, 1).is_err(),
            "past the end of RAM"
        );
        assert!(u.write(u64::from(DHCSR) + 1, &[1]).is_err(), "not a word");
    }
}
