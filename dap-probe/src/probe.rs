//! probe-rs's raw DAP access over the protocol: [`RemoteProbe`] is a [`DebugProbe`] whose ARM
//! interface is probe-rs's own ADIv5 stack ([`ArmCommunicationInterface`]) on
//! [`RawDapAccess`], so probe-rs itself powers the DP up, finds the APs, walks the ROM table and
//! drives the memory AP, one request per DP or AP access, as it drives a CMSIS-DAP probe.
//!
//! probe-rs leaves a failed transfer's recovery to the probe (its CMSIS-DAP driver clears the
//! sticky error after a FAULT and aborts after a WAIT it gave up on); here it is done as
//! pyOCD's DAP layer does it over this protocol (`coresight/dap.py`, `_handle_error`): after
//! status 12 (FAULT) an ABORT write clears every sticky flag, after status 11 (WAIT, the
//! server's retries spent) an ABORT write with DAPABORT. The error then goes up as probe-rs's
//! own [`DapError::FaultResponse`] or [`DapError::WaitResponse`].

use std::fmt;
use std::sync::Arc;

use probe_rs::CoreStatus;
use probe_rs::architecture::arm::sequences::ArmDebugSequence;
use probe_rs::architecture::arm::{
    ArmCommunicationInterface, ArmDebugInterface, ArmError, DapError, DapProbe, RawDapAccess,
    RegisterAddress,
};
use probe_rs::probe::{DebugProbe, DebugProbeError, ProbeError, WireProtocol};

use crate::client::{ClientError, Request, Status};
use crate::connection::Connection;
use crate::select::{SELECT, Select};

impl ProbeError for ClientError {}

/// DP ABORT's address (a write to DP 0x0).
const ABORT: u8 = 0x0;
/// ABORT with ORUNERRCLR, WDERRCLR, STKERRCLR and STKCMPCLR: pyOCD's `clear_sticky_err`.
const ABORT_CLEAR_STICKY: u32 = 0x1E;
/// ABORT with DAPABORT: pyOCD's answer to a WAIT timeout.
const ABORT_DAPABORT: u32 = 0x1;

/// nRESET in `swj_pins`'s pin bits (probe-rs's `Pins`, CMSIS-DAP's `DAP_SWJ_Pins`: bit 7).
const NRESET: u32 = 1 << 7;

/// The default SWD clock, in kHz (what probe-rs's CMSIS-DAP driver starts at).
const DEFAULT_SPEED_KHZ: u32 = 1_000;

/// A probe behind a server of pyOCD's remote-probe protocol.
pub struct RemoteProbe {
    connection: Connection,
    name: String,
    speed_khz: u32,
    select: Select,
}

impl fmt::Debug for RemoteProbe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteProbe")
            .field("name", &self.name)
            .field("speed_khz", &self.speed_khz)
            .finish_non_exhaustive()
    }
}

impl RemoteProbe {
    /// A probe on `connection` (greeted and `open` already), called `name`.
    pub fn new(connection: Connection, name: impl Into<String>) -> RemoteProbe {
        RemoteProbe {
            connection,
            name: name.into(),
            speed_khz: DEFAULT_SPEED_KHZ,
            select: Select::default(),
        }
    }

    /// The connection, for a host's own commands while the probe is in use.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// Writes SELECT if the next access needs a value the DP does not hold ([`Select`]).
    fn select_due(&mut self) -> Result<(), ArmError> {
        if let Some(value) = self.select.due() {
            let result = self
                .connection
                .lock()
                .post(&Request::WriteDp(SELECT, value));
            result.map_err(|e| self.transfer_error(e))?;
            self.select.written(value);
        }
        Ok(())
    }

    /// The error probe-rs sees for `e`, after the sticky-error recovery a FAULT or a WAIT needs.
    fn transfer_error(&mut self, e: ClientError) -> ArmError {
        self.select.forget();
        let (dap, abort) = match e.status() {
            Some(Status::TransferFault) => (DapError::FaultResponse, ABORT_CLEAR_STICKY),
            Some(Status::TransferTimeout) => (DapError::WaitResponse, ABORT_DAPABORT),
            // pyOCD's CMSIS-DAP layer raises a plain TransferError for a missing acknowledge.
            Some(Status::TransferError) => return DapError::NoAcknowledge.into(),
            _ => return probe_error(e),
        };
        match self.connection.lock().write_dp(ABORT, abort) {
            Ok(()) => dap.into(),
            Err(e) => probe_error(e),
        }
    }
}

fn probe_error(e: ClientError) -> ArmError {
    ArmError::Probe(DebugProbeError::from(e))
}

/// The DP address on the wire: A[3:2] only. probe-rs has written SELECT's DPBANKSEL for a
/// banked register already (`RawDapAccess`: "Bank switching is the caller's responsibility").
fn dp_address(address: RegisterAddress) -> u8 {
    address.a2_and_3()
}

impl DebugProbe for RemoteProbe {
    fn get_name(&self) -> &str {
        &self.name
    }

    fn speed_khz(&self) -> u32 {
        self.speed_khz
    }

    fn set_speed(&mut self, speed_khz: u32) -> Result<u32, DebugProbeError> {
        let hz = speed_khz
            .checked_mul(1_000)
            .ok_or(DebugProbeError::UnsupportedSpeed(speed_khz))?;
        self.connection.lock().set_clock(hz)?;
        self.speed_khz = speed_khz;
        Ok(speed_khz)
    }

    fn attach(&mut self) -> Result<(), DebugProbeError> {
        self.select.forget_all();
        let mut client = self.connection.lock();
        client.connect_swd()?;
        client.set_clock(self.speed_khz.saturating_mul(1_000))?;
        Ok(())
    }

    fn detach(&mut self) -> Result<(), probe_rs::Error> {
        self.connection
            .lock()
            .disconnect()
            .map_err(|e| probe_rs::Error::Probe(e.into()))
    }

    fn target_reset(&mut self) -> Result<(), DebugProbeError> {
        self.select.forget();
        Ok(self.connection.lock().reset()?)
    }

    fn target_reset_assert(&mut self) -> Result<(), DebugProbeError> {
        self.select.forget();
        Ok(self.connection.lock().assert_reset(true)?)
    }

    fn target_reset_deassert(&mut self) -> Result<(), DebugProbeError> {
        Ok(self.connection.lock().assert_reset(false)?)
    }

    fn select_protocol(&mut self, protocol: WireProtocol) -> Result<(), DebugProbeError> {
        match protocol {
            WireProtocol::Swd => Ok(()),
            other => Err(DebugProbeError::UnsupportedProtocol(other)),
        }
    }

    /// SWD, the one protocol of the server (`supported_wire_protocols` is `["SWD"]`).
    fn active_protocol(&self) -> Option<WireProtocol> {
        Some(WireProtocol::Swd)
    }

    fn has_arm_interface(&self) -> bool {
        true
    }

    fn try_get_arm_debug_interface<'probe>(
        self: Box<Self>,
        sequence: Arc<dyn ArmDebugSequence>,
    ) -> Result<Box<dyn ArmDebugInterface + 'probe>, (Box<dyn DebugProbe>, ArmError)> {
        // No overrun detection: the server answers every access in order, and each answer is
        // read (a posted write's before the next request's).
        Ok(ArmCommunicationInterface::create(self, sequence, false))
    }

    fn into_probe(self: Box<Self>) -> Box<dyn DebugProbe> {
        self
    }

    fn try_as_dap_probe(&mut self) -> Option<&mut dyn DapProbe> {
        Some(self)
    }
}

impl DapProbe for RemoteProbe {}

impl RawDapAccess for RemoteProbe {
    fn raw_read_register(&mut self, address: RegisterAddress) -> Result<u32, ArmError> {
        if let RegisterAddress::ApRegister(a) = address
            && let Some(value) = self.select.fixed(a)
        {
            return Ok(value);
        }
        self.select_due()?;
        let result = match address {
            RegisterAddress::DpRegister(_) => self.connection.lock().read_dp(dp_address(address)),
            RegisterAddress::ApRegister(a) => self.connection.lock().read_ap(a),
        };
        let value = result.map_err(|e| self.transfer_error(e))?;
        if let RegisterAddress::ApRegister(a) = address {
            self.select.read(a, value);
        }
        Ok(value)
    }

    fn raw_write_register(&mut self, address: RegisterAddress, value: u32) -> Result<(), ArmError> {
        if let RegisterAddress::DpRegister(_) = address
            && dp_address(address) == SELECT
        {
            self.select.want(value);
            return Ok(());
        }
        self.select_due()?;
        // Posted, as probe-rs's CMSIS-DAP driver queues a write: its error comes with the
        // next request's answer.
        let request = match address {
            RegisterAddress::DpRegister(_) => Request::WriteDp(dp_address(address), value),
            RegisterAddress::ApRegister(a) => Request::WriteAp(a, value),
        };
        let result = self.connection.lock().post(&request);
        result.map_err(|e| self.transfer_error(e))
    }

    /// A DRW block in one request (`read_ap_multiple`).
    fn raw_read_block(
        &mut self,
        address: RegisterAddress,
        values: &mut [u32],
    ) -> Result<(), ArmError> {
        match address {
            RegisterAddress::ApRegister(a) if !values.is_empty() => {
                self.select_due()?;
                let result = self.connection.lock().read_ap_multiple(a, values);
                result.map_err(|e| self.transfer_error(e))
            }
            _ => {
                for value in values {
                    *value = self.raw_read_register(address)?;
                }
                Ok(())
            }
        }
    }

    /// A DRW block in one request (`write_ap_multiple`).
    fn raw_write_block(
        &mut self,
        address: RegisterAddress,
        values: &[u32],
    ) -> Result<(), ArmError> {
        match address {
            RegisterAddress::ApRegister(a) if !values.is_empty() => {
                self.select_due()?;
                let result = self
                    .connection
                    .lock()
                    .post(&Request::WriteApMultiple(a, values));
                result.map_err(|e| self.transfer_error(e))
            }
            _ => {
                for &value in values {
                    self.raw_write_register(address, value)?;
                }
                Ok(())
            }
        }
    }

    /// `flush`: the answers of the writes posted here read, and a server in front of a probe
    /// that posts writes itself (pyOCD's CMSIS-DAP layer does) reports their errors.
    fn raw_flush(&mut self) -> Result<(), ArmError> {
        self.select_due()?;
        let result = self.connection.lock().flush();
        result.map_err(|e| self.transfer_error(e))
    }

    fn jtag_sequence(&mut self, _cycles: u8, _tms: bool, _tdi: u64) -> Result<(), DebugProbeError> {
        Err(DebugProbeError::UnsupportedProtocol(WireProtocol::Jtag))
    }

    fn swj_sequence(&mut self, bit_len: u8, bits: u64) -> Result<(), DebugProbeError> {
        self.select.forget();
        Ok(self.connection.lock().swj_sequence(bit_len, bits)?)
    }

    /// nRESET only, the one pin the protocol reaches (`assert_reset`, `is_reset_asserted`):
    /// what is read back is nRESET's level, the other pins low. probe-rs's reset sequences
    /// drive and poll nRESET alone.
    fn swj_pins(
        &mut self,
        pin_out: u32,
        pin_select: u32,
        _pin_wait: u32,
    ) -> Result<u32, DebugProbeError> {
        let mut client = self.connection.lock();
        if pin_select & NRESET != 0 {
            client.assert_reset(pin_out & NRESET == 0)?;
        }
        Ok(if client.is_reset_asserted()? {
            0
        } else {
            NRESET
        })
    }

    fn into_probe(self: Box<Self>) -> Box<dyn DebugProbe> {
        self
    }

    fn core_status_notification(&mut self, _state: CoreStatus) -> Result<(), DebugProbeError> {
        Ok(())
    }
}
