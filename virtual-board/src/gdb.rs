//! The GDB remote stub (gdbstub): registers in gdb's ARM M-profile numbering, memory through
//! the board's models, continue, step, Ctrl-C, and monitor commands (`reset`, `game N`,
//! `coverage`, `window`). The bench's probe (gdb-probe, through probe-rs) and
//! `arm-none-eabi-gdb` attach to it alike.

use std::marker::PhantomData;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use gdbstub::arch::{Arch, RegId, Registers};
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, GdbStubError, SingleThreadStopReason};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::base::single_register_access::{
    SingleRegisterAccess, SingleRegisterAccessOps,
};
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep,
    SingleThreadSingleStepOps,
};
use gdbstub::target::ext::monitor_cmd::{ConsoleOutput, MonitorCmd, MonitorCmdOps, outputln};
use gdbstub::target::{Target, TargetError, TargetResult};

use crate::chip::SRAM;
use crate::cpu::{Core, Ran};
use crate::elf::Elf;
use crate::stop::Stop;

/// Instructions run between two looks at the connection (a debugger's packet waits at most
/// this long: well under a millisecond of host time). With RTT in the memory window the bench
/// sends few packets, and looking less often is a little faster (the M=3 tree 16-17 s at 5,000,
/// 14.6-16.2 s at 50,000; noisy).
const SLICE: u64 = 50_000;

/// A Cortex-M4F as gdb sees it.
#[derive(Debug)]
pub enum CortexM {}

/// The registers of a `g` packet, in the order of [`XML`]: r0..r15, xPSR, d0..d15, FPSCR.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoreRegisters {
    r: [u32; 16],
    xpsr: u32,
    d: [u64; 16],
    fpscr: u32,
}

impl Registers for CoreRegisters {
    type ProgramCounter = u32;

    fn pc(&self) -> u32 {
        self.r[15]
    }

    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        let mut put = |bytes: &[u8]| bytes.iter().for_each(|&b| write_byte(Some(b)));
        for r in self.r {
            put(&r.to_le_bytes());
        }
        put(&self.xpsr.to_le_bytes());
        for d in self.d {
            put(&d.to_le_bytes());
        }
        put(&self.fpscr.to_le_bytes());
    }

    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if bytes.len() != 16 * 4 + 4 + 16 * 8 + 4 {
            return Err(());
        }
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        for (i, r) in self.r.iter_mut().enumerate() {
            *r = word(4 * i);
        }
        self.xpsr = word(64);
        for (i, d) in self.d.iter_mut().enumerate() {
            *d = u64::from_le_bytes(bytes[68 + 8 * i..76 + 8 * i].try_into().expect("8 bytes"));
        }
        self.fpscr = word(196);
        Ok(())
    }
}

/// A register by gdb's number.
#[derive(Clone, Copy, Debug)]
pub struct CoreRegister(usize);

impl RegId for CoreRegister {
    fn from_raw_id(id: usize) -> Option<(Self, Option<NonZeroUsize>)> {
        let size = match id {
            0..=15 | 25 | 42 => 4,
            26..=41 => 8,
            _ => return None,
        };
        Some((CoreRegister(id), NonZeroUsize::new(size)))
    }
}

/// The target description: gdb's M-profile and VFP features, with the numbers the bench's
/// probe uses (xPSR 25, FPSCR 42).
const XML: &str = concat!(
    r#"<?xml version="1.0"?><!DOCTYPE target SYSTEM "gdb-target.dtd"><target version="1.0">"#,
    r#"<architecture>arm</architecture><feature name="org.gnu.gdb.arm.m-profile">"#,
    r#"<reg name="r0" bitsize="32" regnum="0"/><reg name="r1" bitsize="32"/>"#,
    r#"<reg name="r2" bitsize="32"/><reg name="r3" bitsize="32"/><reg name="r4" bitsize="32"/>"#,
    r#"<reg name="r5" bitsize="32"/><reg name="r6" bitsize="32"/><reg name="r7" bitsize="32"/>"#,
    r#"<reg name="r8" bitsize="32"/><reg name="r9" bitsize="32"/><reg name="r10" bitsize="32"/>"#,
    r#"<reg name="r11" bitsize="32"/><reg name="r12" bitsize="32"/>"#,
    r#"<reg name="sp" bitsize="32" type="data_ptr"/><reg name="lr" bitsize="32"/>"#,
    r#"<reg name="pc" bitsize="32" type="code_ptr"/>"#,
    r#"<reg name="xpsr" bitsize="32" regnum="25"/></feature>"#,
    r#"<feature name="org.gnu.gdb.arm.vfp">"#,
    r#"<reg name="d0" bitsize="64" type="ieee_double" regnum="26"/>"#,
    r#"<reg name="d1" bitsize="64" type="ieee_double"/><reg name="d2" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d3" bitsize="64" type="ieee_double"/><reg name="d4" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d5" bitsize="64" type="ieee_double"/><reg name="d6" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d7" bitsize="64" type="ieee_double"/><reg name="d8" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d9" bitsize="64" type="ieee_double"/><reg name="d10" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d11" bitsize="64" type="ieee_double"/><reg name="d12" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d13" bitsize="64" type="ieee_double"/><reg name="d14" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="d15" bitsize="64" type="ieee_double"/>"#,
    r#"<reg name="fpscr" bitsize="32" type="int" group="float" regnum="42"/></feature></target>"#
);

impl Arch for CortexM {
    type Usize = u32;
    type Registers = CoreRegisters;
    type BreakpointKind = usize;
    type RegId = CoreRegister;

    fn target_description_xml() -> Option<&'static str> {
        Some(XML)
    }
}

/// What the debugger last asked the core to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Halted,
    Running,
    Stepping,
}

/// The virtual board as a gdb target.
pub struct Server<'a, 'e> {
    core: Core<'a>,
    elf: &'e Elf,
    mode: Mode,
    /// Where `monitor coverage` writes which functions ran.
    coverage: Option<PathBuf>,
}

impl std::fmt::Debug for Server<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("mode", &self.mode).finish()
    }
}

impl<'a, 'e> Server<'a, 'e> {
    /// A server for `core` running `elf`, halted; `monitor coverage` writes to `coverage`.
    pub fn new(core: Core<'a>, elf: &'e Elf, coverage: Option<PathBuf>) -> Self {
        Server {
            core,
            elf,
            mode: Mode::Halted,
            coverage,
        }
    }

    /// Serves one debugger on `conn` until it detaches or the firmware stops; a stop is the
    /// error.
    pub fn serve<C>(&mut self, conn: C) -> Result<DisconnectReason, ServeError>
    where
        C: ConnectionExt<Error = std::io::Error>,
    {
        match GdbStub::new(conn).run_blocking::<EventLoop<'a, 'e, C>>(self) {
            Ok(reason) => Ok(reason),
            Err(e) if e.is_target_error() => match e.into_target_error() {
                Some(stop) => Err(ServeError::Stopped(Box::new(stop))),
                None => Err(ServeError::Protocol("target error".into())),
            },
            Err(e) if e.is_connection_error() => Ok(DisconnectReason::Disconnect),
            Err(e) => Err(ServeError::Protocol(e.to_string())),
        }
    }

    /// The core (to read its state after a stop).
    pub fn core(&mut self) -> &mut Core<'a> {
        &mut self.core
    }
}

/// Why serving ended.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The firmware stopped.
    #[error("{0}")]
    Stopped(Box<Stop>),
    /// The debugger broke the protocol.
    #[error("gdb protocol: {0}")]
    Protocol(String),
}

impl From<GdbStubError<Stop, std::io::Error>> for ServeError {
    fn from(e: GdbStubError<Stop, std::io::Error>) -> Self {
        ServeError::Protocol(e.to_string())
    }
}

impl Target for Server<'_, '_> {
    type Arch = CortexM;
    type Error = Stop;

    fn base_ops(&mut self) -> BaseOps<'_, CortexM, Stop> {
        BaseOps::SingleThread(self)
    }

    fn support_monitor_cmd(&mut self) -> Option<MonitorCmdOps<'_, Self>> {
        Some(self)
    }

    fn guard_rail_implicit_sw_breakpoints(&self) -> bool {
        true
    }
}

impl SingleThreadBase for Server<'_, '_> {
    fn read_registers(&mut self, regs: &mut CoreRegisters) -> TargetResult<(), Self> {
        for (i, r) in regs.r.iter_mut().enumerate() {
            *r = self.core.register(i).unwrap_or(0) as u32;
        }
        regs.xpsr = self.core.register(25).unwrap_or(0) as u32;
        for (i, d) in regs.d.iter_mut().enumerate() {
            *d = self.core.register(26 + i).unwrap_or(0);
        }
        regs.fpscr = self.core.register(42).unwrap_or(0) as u32;
        Ok(())
    }

    fn write_registers(&mut self, regs: &CoreRegisters) -> TargetResult<(), Self> {
        for (i, r) in regs.r.iter().enumerate() {
            self.core
                .set_register(i, u64::from(*r))
                .ok_or(TargetError::NonFatal)?;
        }
        self.core
            .set_register(25, u64::from(regs.xpsr))
            .ok_or(TargetError::NonFatal)?;
        for (i, d) in regs.d.iter().enumerate() {
            self.core
                .set_register(26 + i, *d)
                .ok_or(TargetError::NonFatal)?;
        }
        self.core
            .set_register(42, u64::from(regs.fpscr))
            .ok_or(TargetError::NonFatal)
    }

    fn support_single_register_access(&mut self) -> Option<SingleRegisterAccessOps<'_, (), Self>> {
        Some(self)
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8]) -> TargetResult<usize, Self> {
        // EFAULT, as a probe's faulted access.
        self.core
            .read_memory(start, data)
            .map_err(|_| TargetError::Errno(14))?;
        Ok(data.len())
    }

    fn write_addrs(&mut self, start: u32, data: &[u8]) -> TargetResult<(), Self> {
        self.core
            .write_memory(start, data)
            .map_err(|_| TargetError::Errno(14))
    }

    fn support_resume(&mut self) -> Option<SingleThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

impl SingleRegisterAccess<()> for Server<'_, '_> {
    fn read_register(
        &mut self,
        _tid: (),
        reg: CoreRegister,
        buf: &mut [u8],
    ) -> TargetResult<usize, Self> {
        let value = self.core.register(reg.0).ok_or(TargetError::NonFatal)?;
        let bytes = value.to_le_bytes();
        let n = if (26..=41).contains(&reg.0) { 8 } else { 4 };
        buf[..n].copy_from_slice(&bytes[..n]);
        Ok(n)
    }

    fn write_register(
        &mut self,
        _tid: (),
        reg: CoreRegister,
        val: &[u8],
    ) -> TargetResult<(), Self> {
        let mut bytes = [0u8; 8];
        let n = val.len().min(8);
        bytes[..n].copy_from_slice(&val[..n]);
        self.core
            .set_register(reg.0, u64::from_le_bytes(bytes))
            .ok_or(TargetError::NonFatal)
    }
}

impl SingleThreadResume for Server<'_, '_> {
    fn resume(&mut self, _signal: Option<Signal>) -> Result<(), Stop> {
        self.mode = Mode::Running;
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadSingleStep for Server<'_, '_> {
    fn step(&mut self, _signal: Option<Signal>) -> Result<(), Stop> {
        self.mode = Mode::Stepping;
        Ok(())
    }
}

impl MonitorCmd for Server<'_, '_> {
    fn handle_monitor_cmd(&mut self, cmd: &[u8], mut out: ConsoleOutput<'_>) -> Result<(), Stop> {
        let cmd = String::from_utf8_lossy(cmd);
        let words: Vec<&str> = cmd.split_whitespace().collect();
        match words.as_slice() {
            ["reset"] => {
                let _ = self.core.reset();
            }
            ["game", n] => match n.parse::<u64>() {
                Ok(n) => self.core.state_mut().board.cage().start_game(n),
                Err(_) => outputln!(out, "game: {n} is not a game number"),
            },
            ["coverage"] if self.core.state().profile.is_some() => {
                if let (Some(path), Some(profile)) = (
                    std::env::var_os("VIRTUAL_BOARD_PROFILE"),
                    &self.core.state().profile,
                ) {
                    let _ = std::fs::write(path, crate::coverage::profile(self.elf, profile));
                }
            }
            ["coverage"] => match &self.coverage {
                Some(path) => {
                    if let Err(e) =
                        crate::coverage::write(path, self.elf, &self.core.state().executed)
                    {
                        outputln!(out, "coverage: cannot write {}: {e}", path.display());
                    }
                }
                None => outputln!(out, "coverage: no --coverage file was given"),
            },
            // A person's hands on a cage without fixture (the bench's guided game).
            ["wire", moves @ ..] => {
                if let Err(e) = self.core.state_mut().board.wire_by_hand(moves) {
                    outputln!(out, "wire: {e}");
                }
            }
            // What a person at the board sees lit (a dead LED stays dark whatever its pin drives).
            ["leds"] => {
                let shown = self.core.state().board.leds();
                outputln!(out, "leds {:#04x} {:#04x}", shown.rows, shown.columns);
            }
            // For a debugger on this machine: the SRAM's file, to map (gdb-probe's window).
            ["window"] => match self.core.sram_file() {
                Some(path) => outputln!(
                    out,
                    "window {:#x} {:#x} {}",
                    SRAM.start,
                    SRAM.size,
                    path.display()
                ),
                None => outputln!(out, "window: none, the SRAM is private"),
            },
            _ => outputln!(out, "commands: reset, game N, coverage, window"),
        }
        Ok(())
    }
}

/// The blocking event loop: the core runs in slices, and between two the connection is
/// looked at (an interrupt, or a packet).
struct EventLoop<'a, 'e, C>(PhantomData<(&'a (), &'e (), C)>);

impl<'a, 'e, C> BlockingEventLoop for EventLoop<'a, 'e, C>
where
    C: ConnectionExt<Error = std::io::Error>,
{
    type Target = Server<'a, 'e>;
    type Connection = C;
    type StopReason = SingleThreadStopReason<u32>;

    fn wait_for_stop_reason(
        target: &mut Server<'a, 'e>,
        conn: &mut C,
    ) -> Result<Event<Self::StopReason>, WaitForStopReasonError<Stop, std::io::Error>> {
        if target.mode == Mode::Stepping {
            target.mode = Mode::Halted;
            target
                .core
                .step(target.elf)
                .map_err(WaitForStopReasonError::Target)?;
            return Ok(Event::TargetStopped(SingleThreadStopReason::DoneStep));
        }
        loop {
            if conn
                .peek()
                .map_err(WaitForStopReasonError::Connection)?
                .is_some()
            {
                let byte = conn.read().map_err(WaitForStopReasonError::Connection)?;
                return Ok(Event::IncomingData(byte));
            }
            match target.core.run_slice(u64::MAX, SLICE, target.elf) {
                Ok(Ran::Slice | Ran::Reset) => {}
                Ok(Ran::Sleeps) => {
                    target.mode = Mode::Halted;
                    return Ok(Event::TargetStopped(SingleThreadStopReason::Signal(
                        Signal::SIGTRAP,
                    )));
                }
                Err(stop) => return Err(WaitForStopReasonError::Target(stop)),
            }
        }
    }

    fn on_interrupt(
        target: &mut Server<'a, 'e>,
    ) -> Result<Option<SingleThreadStopReason<u32>>, Stop> {
        target.mode = Mode::Halted;
        Ok(Some(SingleThreadStopReason::Signal(Signal::SIGINT)))
    }
}
