//! A probe-rs debug probe over a GDB remote stub (QEMU's gdbstub, a virtual board's), so that
//! probe-rs code (session, attach, download, reset, RTT) runs against firmware in an emulator
//! exactly as it does through a probe on a board.
//!
//! probe-rs 0.32 lets a probe outside the crate implement [`DebugProbe`] and hand out its own
//! [`ArmDebugInterface`], whose [`ArmMemoryInterface`](probe_rs::architecture::arm::memory::ArmMemoryInterface) is all a Cortex-M core (`Armv7m`) and
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

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use probe_rs::architecture::arm::sequences::ArmDebugSequence;
use probe_rs::architecture::arm::{ArmDebugInterface, ArmError};
use probe_rs::probe::{DebugProbe, DebugProbeError, Probe, ProbeError, WireProtocol};

use crate::quirks::Quirks;

mod arm;
mod debug_unit;
mod factory;
mod scripted;
mod shared;
mod stub;

pub use factory::{
    GdbLister, GdbProbeFactory, GdbTarget, PROBES, PRODUCT_ID, SelectorError, VENDOR_ID,
    connection, parse_selector, selector,
};
pub use scripted::{Running, Scripted};
pub use shared::SharedGdb;
pub use stub::Stub;

use arm::GdbInterface;
use debug_unit::DebugUnit;

/// Why the probe failed: the stub's own error, or an access the stub cannot do. Named "the
/// GDB stub", not QEMU's: the probe opens any stub.
#[derive(Debug, thiserror::Error)]
pub enum GdbProbeError {
    /// The gdb link failed (the stub gone, a malformed answer, an error reply).
    #[error("the GDB stub: {0}")]
    Stub(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A write to a device register, which the stub would drop silently
    /// ([`Quirks::drops_device_writes`], QEMU's).
    #[error("write to {address:#010x}: the GDB stub drops writes outside RAM")]
    DeviceWrite {
        /// The address written.
        address: u64,
    },
    /// A core register that QEMU 7.2's gdbstub does not expose for M-profile (MSP, PSP,
    /// CONTROL/FAULTMASK/BASEPRI/PRIMASK, the single-precision S registers).
    #[error("core register {regsel:#04x} (DCRSR REGSEL) is not exposed by the GDB stub")]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::scripted::BASE;
    use debug_unit::GDB_XPSR;
    use probe_rs::MemoryInterface;
    use std::time::Duration;

    /// probe-rs's own attach, halt, register reads, step, run and reset, against the model:
    /// what a session does before it reaches QEMU, without QEMU.
    #[test]
    fn its_errors_name_the_gdb_stub_not_qemus() {
        let gone = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset by peer");
        assert_eq!(
            GdbProbeError::Stub(Box::new(gone)).to_string(),
            "the GDB stub: reset by peer"
        );
        assert_eq!(
            GdbProbeError::DeviceWrite {
                address: 0xe000_ed0c
            }
            .to_string(),
            "write to 0xe000ed0c: the GDB stub drops writes outside RAM"
        );
        assert_eq!(
            GdbProbeError::Register { regsel: 0x11 }.to_string(),
            "core register 0x11 (DCRSR REGSEL) is not exposed by the GDB stub"
        );
    }

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
