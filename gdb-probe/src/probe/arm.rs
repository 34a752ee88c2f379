//! The probe's ARM side: probe-rs's [`ArmDebugInterface`] with one memory interface, the
//! core's, as a MEM-AP would show it; no DAP behind it (DP/AP accesses are refused, and
//! nothing probe-rs does with a probe that brings its own memory interface needs them).

use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

use probe_rs::architecture::arm::ap::CSW;
use probe_rs::architecture::arm::dp::{DpAddress, DpRegisterAddress};
use probe_rs::architecture::arm::memory::ArmMemoryInterface;
use probe_rs::architecture::arm::{
    ArmDebugInterface, ArmError, DapAccess, DapProbe, FullyQualifiedApAddress, SwdSequence,
    SwoAccess, SwoConfig,
};
use probe_rs::probe::{DebugProbeError, Probe};
use probe_rs::{CoreStatus, MemoryInterface};

use super::debug_unit::DebugUnit;
use super::{GdbProbe, Stub};

/// The ARM debug interface of a [`GdbProbe`]: one memory interface, the core's.
pub(super) struct GdbInterface<S: Stub> {
    pub(super) probe: Box<GdbProbe<S>>,
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
