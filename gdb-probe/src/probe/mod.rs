//! A probe-rs debug probe over a GDB remote stub (QEMU's gdbstub, a virtual board's), so that
//! probe-rs code (session, attach, download, reset, RTT) runs against firmware in an emulator
//! exactly as it does through a probe on a board.
//!
//! probe-rs 0.32 lets a probe outside the crate implement [`DebugProbe`] and hand out its own
//! [`ArmDebugInterface`], whose [`ArmMemoryInterface`] is all a Cortex-M core (`Armv7m`) and
//! RTT use: every halt, step, reset and register transfer is a memory access to the core's
//! debug registers. So no DAP is emulated (no DP/AP registers, no ROM table: nothing in
//! probe-rs's attach reads them through a probe that brings its own memory interface); memory
//! goes to QEMU as gdb `m`/`M` packets, and the few debug registers QEMU does not model behind
//! its stub are answered here from gdb's stop/continue/step and register packets:
//!
//! - DHCSR (halt, step, run, debug enable; `S_HALT` is the state this probe keeps),
//! - DCRSR/DCRDR (core registers, through gdb `p`/`P`),
//! - DEMCR (kept: `VC_CORERESET` makes a reset stop at the reset vector),
//! - DFSR (why the core halted, as the hardware reports it),
//! - AIRCR writes with `SYSRESETREQ` (QEMU's `system_reset` through the stub's monitor).
//!
//! Everything else is QEMU's own: reads anywhere (CPUID, MVFR0, FP_CTRL, which reads no
//! breakpoint units, and RAM), writes to RAM. QEMU's gdbstub drops writes to device
//! registers without an error (measured: an AIRCR reset written through `M` does nothing),
//! so a write outside the target's RAM that is not one of the registers above is refused
//! here rather than lost.
//!
//! QEMU cannot be read while it runs, so an access while probe-rs believes the core is running
//! stops the VM, does the access and continues it: the firmware sees a pause, as on a board
//! under a probe that halts for memory access (an RTT read is three such pauses).

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use probe_rs::architecture::arm::ap::CSW;
use probe_rs::architecture::arm::dp::{DpAddress, DpRegisterAddress};
use probe_rs::architecture::arm::memory::ArmMemoryInterface;
use probe_rs::architecture::arm::sequences::ArmDebugSequence;
use probe_rs::architecture::arm::{
    ArmDebugInterface, ArmError, DapAccess, DapProbe, FullyQualifiedApAddress, SwdSequence,
    SwoAccess, SwoConfig,
};
use probe_rs::probe::{DebugProbe, DebugProbeError, Probe, ProbeError, WireProtocol};
use probe_rs::{CoreStatus, MemoryInterface};

use crate::cortex_m::{AIRCR, DBGKEY, DCRDR, DCRSR, DEMCR, DFSR, DHCSR, SYSRESETREQ, VECTKEY};
use crate::quirks::Quirks;

mod factory;
mod scripted;
mod shared;

pub use factory::{
    GdbLister, GdbProbeFactory, GdbTarget, PROBES, PRODUCT_ID, SelectorError, VENDOR_ID,
    connection, parse_selector, selector,
};
pub use scripted::{Running, Scripted};
pub use shared::SharedGdb;

/// What the probe needs from a stub. [`crate::Gdb`] is the real one; [`Scripted`] drives the
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
    /// ([`Quirks::reads_while_running`]).
    fn reads_while_running(&self) -> bool {
        false
    }
}

/// The gdb client as a probe's stub: a system reset is the stub's monitor command where it
/// has one ([`Quirks::reset_command`]), else a write of SYSRESETREQ to AIRCR for a stub that
/// models the register itself.
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

/// Why the probe failed: the stub's own error, or an access QEMU cannot do behind its stub.
#[derive(Debug, thiserror::Error)]
pub enum GdbProbeError {
    /// The gdb link failed (the stub gone, a malformed answer, an error reply).
    #[error("QEMU's gdbstub: {0}")]
    Stub(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A write to a device register: QEMU's gdbstub would drop it silently.
    #[error("write to {address:#010x}: QEMU's gdbstub drops writes outside RAM")]
    DeviceWrite {
        /// The address written.
        address: u64,
    },
    /// A core register that QEMU 7.2's gdbstub does not expose for M-profile (MSP, PSP,
    /// CONTROL/FAULTMASK/BASEPRI/PRIMASK, the single-precision S registers).
    #[error("core register {regsel:#04x} (DCRSR REGSEL) is not exposed by QEMU's gdbstub")]
    Register {
        /// DCRSR's REGSEL field.
        regsel: u32,
    },
    /// A debug register accessed with a width or alignment the model does not handle.
    #[error("debug register access at {address:#010x} must be aligned 32-bit words")]
    Width {
        /// The address accessed.
        address: u64,
    },
    /// An AIRCR write other than a system reset request.
    #[error("AIRCR write {value:#010x}: only SYSRESETREQ is modelled")]
    Aircr {
        /// The value written.
        value: u32,
    },
    /// A core register transfer while the core runs (the hardware leaves it undefined).
    #[error("core register transfer while the core runs")]
    NotHalted,
    /// An address past 32 bits.
    #[error("address {0:#x} is past the 32-bit address space")]
    Address(u64),
}

impl ProbeError for GdbProbeError {}

impl From<GdbProbeError> for ArmError {
    fn from(e: GdbProbeError) -> ArmError {
        ArmError::Probe(DebugProbeError::from(e))
    }
}

fn stub<E: std::error::Error + Send + Sync + 'static>(e: E) -> ArmError {
    GdbProbeError::Stub(Box::new(e)).into()
}

// The Cortex-M debug registers this model answers (ARMv7-M ARM, C1.6): their addresses in
// `crate::cortex_m`, their bits here.
const C_DEBUGEN: u32 = 1 << 0;
const C_HALT: u32 = 1 << 1;
const C_STEP: u32 = 1 << 2;
const C_MASKINTS: u32 = 1 << 3;
const S_REGRDY: u32 = 1 << 16;
const S_HALT: u32 = 1 << 17;

const DFSR_HALTED: u32 = 1 << 0;
const DFSR_VCATCH: u32 = 1 << 3;
const DFSR_MASK: u32 = 0x1F;

const VC_CORERESET: u32 = 1 << 0;

const REGWNR: u32 = 1 << 16;
/// gdb's number for xPSR in QEMU's `arm-m-profile.xml`.
const GDB_XPSR: u32 = 25;
/// gdb's number for FPSCR in QEMU's `arm-vfp.xml` (after d0-d15 at 26-41).
const GDB_FPSCR: u32 = 42;

/// The debug registers QEMU does not model, and the run state probe-rs sees.
#[derive(Debug)]
struct DebugUnit<S: Stub> {
    stub: S,
    /// The core as probe-rs sees it: halted by C_HALT, a step or a reset catch (or by QEMU's
    /// `-S` before anything ran). When false the VM runs, but for the pause of an access.
    halted: bool,
    /// DHCSR's control bits as last written (C_DEBUGEN, C_HALT, C_STEP, C_MASKINTS).
    control: u32,
    demcr: u32,
    dfsr: u32,
    dcrdr: u32,
    /// Where writes go to the stub; with [`Quirks::drops_device_writes`], anything else that
    /// is not a modelled register is refused.
    ram: Vec<Range<u64>>,
    quirks: Quirks,
}

impl<S: Stub> DebugUnit<S> {
    /// A unit for a VM that is stopped (QEMU started with `-S` stops when gdb connects): the
    /// core reads as halted by the debugger, as after an attach under reset.
    fn new(stub: S, ram: Vec<Range<u64>>, quirks: Quirks) -> Self {
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
    fn paused<T>(&mut self, f: impl FnOnce(&mut S) -> Result<T, ArmError>) -> Result<T, ArmError> {
        if self.halted || self.stub.reads_while_running() {
            return f(&mut self.stub);
        }
        self.stub.halt().map_err(stub)?;
        let result = f(&mut self.stub);
        self.stub.resume().map_err(stub)?;
        result
    }

    fn dhcsr(&self) -> u32 {
        let mut value = self.control | S_REGRDY;
        if self.halted {
            value |= S_HALT;
        }
        value
    }

    fn write_dhcsr(&mut self, value: u32) -> Result<(), ArmError> {
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

    fn run(&mut self) -> Result<(), ArmError> {
        if self.halted {
            self.stub.resume().map_err(stub)?;
            self.halted = false;
        }
        Ok(())
    }

    fn write_dcrsr(&mut self, value: u32) -> Result<(), ArmError> {
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

    fn write_aircr(&mut self, value: u32) -> Result<(), ArmError> {
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
    fn read_register(&mut self, address: u32) -> Option<u32> {
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
    fn write_register(&mut self, address: u32, value: u32) -> Result<bool, ArmError> {
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

    fn is_modelled(address: u32) -> bool {
        matches!(address, DFSR | AIRCR) || (DHCSR..DEMCR + 4).contains(&address)
    }

    /// Whether `len` bytes at `address` touch a modelled register.
    fn touches_model(address: u64, len: usize) -> bool {
        let end = address + len as u64;
        [DFSR, AIRCR, DHCSR, DCRSR, DCRDR, DEMCR]
            .iter()
            .any(|&r| u64::from(r) < end && address < u64::from(r) + 4)
    }

    fn read(&mut self, address: u64, buf: &mut [u8]) -> Result<(), ArmError> {
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

    fn write(&mut self, address: u64, bytes: &[u8]) -> Result<(), ArmError> {
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

fn addr32(address: u64) -> Result<u32, ArmError> {
    // The end of an access may be exactly 2^32.
    if address > 1 << 32 {
        return Err(GdbProbeError::Address(address).into());
    }
    Ok(address as u32)
}

/// The probe: QEMU's gdbstub behind probe-rs's [`DebugProbe`].
pub struct GdbProbe<S: Stub> {
    unit: DebugUnit<S>,
    protocol: WireProtocol,
    speed_khz: u32,
    /// What must live as long as the probe (the QEMU process), dropped with it.
    _guard: Option<Box<dyn Send>>,
}

impl<S: Stub> fmt::Debug for GdbProbe<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GdbProbe")
            .field("unit", &self.unit)
            .finish_non_exhaustive()
    }
}

impl<S: Stub> GdbProbe<S> {
    /// A probe over `stub`, whose VM is stopped (QEMU's `-S`); with
    /// [`Quirks::drops_device_writes`] writes are let through inside `ram` only. `guard` lives
    /// as long as the probe (e.g. the emulator's process).
    pub fn new(
        stub: S,
        quirks: Quirks,
        ram: Vec<Range<u64>>,
        guard: Option<Box<dyn Send>>,
    ) -> Self {
        GdbProbe {
            unit: DebugUnit::new(stub, ram, quirks),
            protocol: WireProtocol::Swd,
            speed_khz: 0,
            _guard: guard,
        }
    }

    /// The probe as probe-rs's [`Probe`], ready for `attach_with_registry`.
    pub fn into_probe(self) -> Probe {
        Probe::from_specific_probe(Box::new(self))
    }
}

impl<S: Stub> DebugProbe for GdbProbe<S> {
    fn get_name(&self) -> &str {
        "GDB stub"
    }

    fn speed_khz(&self) -> u32 {
        self.speed_khz
    }

    fn set_speed(&mut self, speed_khz: u32) -> Result<u32, DebugProbeError> {
        // There is no wire: any speed is the speed.
        self.speed_khz = speed_khz;
        Ok(speed_khz)
    }

    fn attach(&mut self) -> Result<(), DebugProbeError> {
        // The stub is connected when the probe is made.
        Ok(())
    }

    fn detach(&mut self) -> Result<(), probe_rs::Error> {
        Ok(())
    }

    fn target_reset(&mut self) -> Result<(), DebugProbeError> {
        // The nRST pin of a board: a system reset that leaves the run state as it was.
        let unit = &mut self.unit;
        let result = (|| {
            if !unit.halted {
                unit.stub.halt()?;
            }
            unit.stub.system_reset()?;
            if !unit.halted {
                unit.stub.resume()?;
            }
            Ok(())
        })();
        result.map_err(|e: S::Error| GdbProbeError::Stub(Box::new(e)).into())
    }

    fn target_reset_assert(&mut self) -> Result<(), DebugProbeError> {
        Err(DebugProbeError::CommandNotSupportedByProbe {
            command_name: "target_reset_assert",
        })
    }

    fn target_reset_deassert(&mut self) -> Result<(), DebugProbeError> {
        Err(DebugProbeError::CommandNotSupportedByProbe {
            command_name: "target_reset_deassert",
        })
    }

    fn select_protocol(&mut self, protocol: WireProtocol) -> Result<(), DebugProbeError> {
        self.protocol = protocol;
        Ok(())
    }

    fn active_protocol(&self) -> Option<WireProtocol> {
        Some(self.protocol)
    }

    fn has_arm_interface(&self) -> bool {
        true
    }

    fn try_get_arm_debug_interface<'probe>(
        self: Box<Self>,
        _sequence: Arc<dyn ArmDebugSequence>,
    ) -> Result<Box<dyn ArmDebugInterface + 'probe>, (Box<dyn DebugProbe>, ArmError)> {
        Ok(Box::new(GdbInterface { probe: self }))
    }

    fn into_probe(self: Box<Self>) -> Box<dyn DebugProbe> {
        self
    }
}

/// The ARM debug interface of a [`GdbProbe`]: one memory interface, the core's.
struct GdbInterface<S: Stub> {
    probe: Box<GdbProbe<S>>,
}

impl<S: Stub> fmt::Debug for GdbInterface<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.probe.fmt(f)
    }
}

/// What a DAP-level access gets: this probe has no DAP, and nothing probe-rs does with a
/// probe that brings its own memory interface needs one.
fn no_dap(function_name: &'static str) -> ArmError {
    ArmError::Probe(DebugProbeError::NotImplemented { function_name })
}

impl<S: Stub> DapAccess for GdbInterface<S> {
    fn read_raw_dp_register(
        &mut self,
        _dp: DpAddress,
        _address: DpRegisterAddress,
    ) -> Result<u32, ArmError> {
        Err(no_dap("read_raw_dp_register"))
    }

    fn write_raw_dp_register(
        &mut self,
        _dp: DpAddress,
        _address: DpRegisterAddress,
        _value: u32,
    ) -> Result<(), ArmError> {
        Err(no_dap("write_raw_dp_register"))
    }

    fn read_raw_ap_register(
        &mut self,
        _ap: &FullyQualifiedApAddress,
        _address: u64,
    ) -> Result<u32, ArmError> {
        Err(no_dap("read_raw_ap_register"))
    }

    fn write_raw_ap_register(
        &mut self,
        _ap: &FullyQualifiedApAddress,
        _address: u64,
        _value: u32,
    ) -> Result<(), ArmError> {
        Err(no_dap("write_raw_ap_register"))
    }

    fn try_dap_probe(&self) -> Option<&dyn DapProbe> {
        None
    }

    fn try_dap_probe_mut(&mut self) -> Option<&mut dyn DapProbe> {
        None
    }
}

impl<S: Stub> SwdSequence for GdbInterface<S> {
    fn swj_sequence(&mut self, _bit_len: u8, _bits: u64) -> Result<(), DebugProbeError> {
        Err(DebugProbeError::NotImplemented {
            function_name: "swj_sequence",
        })
    }

    fn swj_pins(
        &mut self,
        _pin_out: u32,
        _pin_select: u32,
        _pin_wait: u32,
    ) -> Result<u32, DebugProbeError> {
        Err(DebugProbeError::NotImplemented {
            function_name: "swj_pins",
        })
    }
}

impl<S: Stub> SwoAccess for GdbInterface<S> {
    fn enable_swo(&mut self, _config: &SwoConfig) -> Result<(), ArmError> {
        Err(no_dap("enable_swo"))
    }

    fn disable_swo(&mut self) -> Result<(), ArmError> {
        Err(no_dap("disable_swo"))
    }

    fn read_swo_timeout(&mut self, _timeout: Duration) -> Result<Vec<u8>, ArmError> {
        Err(no_dap("read_swo_timeout"))
    }
}

impl<S: Stub> ArmDebugInterface for GdbInterface<S> {
    fn reinitialize(&mut self) -> Result<(), ArmError> {
        Ok(())
    }

    fn access_ports(
        &mut self,
        dp: DpAddress,
    ) -> Result<BTreeSet<FullyQualifiedApAddress>, ArmError> {
        Ok(BTreeSet::from([FullyQualifiedApAddress::v1_with_dp(dp, 0)]))
    }

    fn close(self: Box<Self>) -> Probe {
        // probe-rs's own `from_attached_probe` is crate-private; a detached probe attaches
        // again for free here.
        Probe::from_specific_probe(self.probe)
    }

    fn select_debug_port(&mut self, _dp: DpAddress) -> Result<(), ArmError> {
        Ok(())
    }

    fn current_debug_port(&self) -> Option<DpAddress> {
        Some(DpAddress::Default)
    }

    fn memory_interface(
        &mut self,
        access_port: &FullyQualifiedApAddress,
    ) -> Result<Box<dyn ArmMemoryInterface + '_>, ArmError> {
        Ok(Box::new(GdbMemory {
            ap: access_port.clone(),
            interface: self,
        }))
    }
}

/// The core's memory as a MEM-AP would show it.
struct GdbMemory<'i, S: Stub> {
    ap: FullyQualifiedApAddress,
    interface: &'i mut GdbInterface<S>,
}

impl<S: Stub> GdbMemory<'_, S> {
    fn unit(&mut self) -> &mut DebugUnit<S> {
        &mut self.interface.probe.unit
    }
}

macro_rules! words {
    ($read:ident, $write:ident, $t:ty) => {
        fn $read(&mut self, address: u64, data: &mut [$t]) -> Result<(), ArmError> {
            const N: usize = std::mem::size_of::<$t>();
            let mut bytes = vec![0u8; data.len() * N];
            self.unit().read(address, &mut bytes)?;
            for (value, chunk) in data.iter_mut().zip(bytes.chunks_exact(N)) {
                let mut le = [0u8; N];
                le.copy_from_slice(chunk);
                *value = <$t>::from_le_bytes(le);
            }
            Ok(())
        }

        fn $write(&mut self, address: u64, data: &[$t]) -> Result<(), ArmError> {
            let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
            self.unit().write(address, &bytes)
        }
    };
}

impl<S: Stub> MemoryInterface<ArmError> for GdbMemory<'_, S> {
    fn supports_native_64bit_access(&mut self) -> bool {
        false
    }

    words!(read_64, write_64, u64);
    words!(read_32, write_32, u32);
    words!(read_16, write_16, u16);

    fn read_8(&mut self, address: u64, data: &mut [u8]) -> Result<(), ArmError> {
        self.unit().read(address, data)
    }

    fn write_8(&mut self, address: u64, data: &[u8]) -> Result<(), ArmError> {
        self.unit().write(address, data)
    }

    fn supports_8bit_transfers(&self) -> Result<bool, ArmError> {
        Ok(true)
    }

    fn flush(&mut self) -> Result<(), ArmError> {
        Ok(())
    }
}

impl<S: Stub> ArmMemoryInterface for GdbMemory<'_, S> {
    fn fully_qualified_address(&self) -> FullyQualifiedApAddress {
        self.ap.clone()
    }

    fn base_address(&mut self) -> Result<u64, ArmError> {
        Ok(0)
    }

    fn get_arm_debug_interface(&mut self) -> Result<&mut dyn ArmDebugInterface, DebugProbeError> {
        Ok(self.interface)
    }

    fn generic_status(&mut self) -> Result<CSW, ArmError> {
        // Only vendor sequences read CSW; the generic Cortex-M path never does.
        Err(no_dap("generic_status"))
    }

    fn update_core_status(&mut self, _state: CoreStatus) {}
}

#[cfg(test)]
mod tests {
    use super::*;
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

    /// probe-rs's own attach, halt, register reads, step, run and reset, against the model:
    /// what a session does before it reaches QEMU, without QEMU.
    #[test]
    fn probe_rs_attaches_halts_steps_runs_and_resets_through_the_model() {
        let mut stub = Scripted::new();
        stub.regs[15] = 0x1c4;
        stub.regs[GDB_XPSR as usize] = 0x0100_0000;
        let ram = std::iter::once(u64::from(BASE)..u64::from(BASE) + 0x100).collect::<Vec<_>>();
        let probe = GdbProbe::new(stub, Quirks::QEMU, ram, None).into_probe();
        let mut registry = probe_rs::config::Registry::new();
        registry
            .add_target_family_from_yaml(crate::targets::MPS2_AN386_YAML)
            .unwrap();
        let mut session = probe
            .attach_with_registry(
                crate::targets::MPS2_AN386,
                probe_rs::Permissions::default(),
                &registry,
            )
            .unwrap();
        let mut core = session.core(0).unwrap();
        assert!(core.core_halted().unwrap(), "QEMU's -S: halted at attach");
        let pc: u32 = core.read_core_reg(core.program_counter().id()).unwrap();
        assert_eq!(pc, 0x1c4);
        let info = core.step().unwrap();
        assert_eq!(info.pc, 0x1c6);
        core.run().unwrap();
        assert!(!core.core_halted().unwrap());
        core.write_word_32(u64::from(BASE) + 0x10, 0x1234_5678)
            .unwrap();
        assert_eq!(
            core.read_word_32(u64::from(BASE) + 0x10).unwrap(),
            0x1234_5678
        );
        let info = core.halt(Duration::from_millis(100)).unwrap();
        assert_eq!(info.pc, 0x1c8, "run steps once first, as on a board");
        core.reset_and_halt(Duration::from_millis(100)).unwrap();
        assert!(core.core_halted().unwrap());
        assert_eq!(
            core.read_core_reg::<u32>(core.program_counter().id())
                .unwrap(),
            0x1c4
        );
        core.reset().unwrap();
        assert!(!core.core_halted().unwrap());
        assert!(
            core.write_word_32(0x4000_0000, 1).is_err(),
            "a device write"
        );
    }
}
