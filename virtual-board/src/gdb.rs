//! The GDB remote stub (gdbstub): registers in gdb's ARM M-profile numbering, memory through
//! the board's models, continue, step, Ctrl-C, breakpoints and watchpoints (which a session
//! takes with it when it ends), and monitor commands (`help` lists them: `reset`, `press`, `game N`,
//! `coverage`, `window`). The bench's probe (gdb-probe, through probe-rs) and
//! `arm-none-eabi-gdb` attach to it alike.

use std::cell::RefCell;
use std::num::NonZeroUsize;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use gdbstub::arch::{Arch, RegId, Registers};
use gdbstub::common::Signal;
use gdbstub::stub::state_machine::GdbStubStateMachine;
use gdbstub::stub::{DisconnectReason, GdbStubBuilder, SingleThreadStopReason};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::base::single_register_access::{
    SingleRegisterAccess, SingleRegisterAccessOps,
};
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep,
    SingleThreadSingleStepOps,
};
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwWatchpoint, HwWatchpointOps, SwBreakpoint, SwBreakpointOps,
    WatchKind,
};
use gdbstub::target::ext::monitor_cmd::{ConsoleOutput, MonitorCmd, MonitorCmdOps, outputln};
use gdbstub::target::{Target, TargetError, TargetResult};

use boards::virtual_board::{COMMANDS, Lit, Monitor, MonitorError, Waited};

use crate::board::{ResetCause, WATCHDOG_RESET};
use crate::chip::SRAM;
use crate::clock::PER_MS;
use crate::conn::{Buffered, PACKET_BUFFER, Shared, Socket};
use crate::cpu::{Core, Ran};
use crate::elf::Elf;
use crate::operator::PRESS_MS;
use crate::stop::Stop;

/// How long an idle session waits for a byte before it looks at the quit flag.
const IDLE_POLL: Duration = Duration::from_millis(100);

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
    coverage: Option<crate::coverage::Output>,
    /// The debugger's watchpoints (`Z2`-`Z4`).
    watchpoints: Vec<Watchpoint>,
    /// Raised when the debugger's bytes come ([`crate::attention`]): the running core stops.
    attention: Arc<AtomicBool>,
    /// The board cycle at which a `monitor press` lets go of the button.
    release_at: Option<u64>,
    /// Where a `monitor wait` halted the running core (a breakpoint, WFI): reported as a
    /// running core's stop once the monitor's answer is out.
    stopped: Option<SingleThreadStopReason<u32>>,
}

/// A watched range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Watchpoint {
    addr: u32,
    len: u32,
    kind: WatchKind,
}

impl std::fmt::Debug for Server<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("mode", &self.mode).finish()
    }
}

impl<'a, 'e> Server<'a, 'e> {
    /// A server for `core` running `elf`, halted; `monitor coverage` writes to `coverage`.
    pub fn new(core: Core<'a>, elf: &'e Elf, coverage: Option<crate::coverage::Output>) -> Self {
        let mut core = core;
        core.halting().take();
        core.halting().halt(crate::cpu::halt::DFSR_HALTED);
        Server {
            core,
            elf,
            mode: Mode::Halted,
            coverage,
            watchpoints: Vec::new(),
            attention: Arc::new(AtomicBool::new(false)),
            release_at: None,
            stopped: None,
        }
    }

    /// The flag a connection's reader raises when bytes come (a running slice stops).
    pub fn attention(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.attention)
    }

    /// Serves one debugger on `socket` until it detaches, drops the connection or `quit` is
    /// set; a stop of the firmware is the error. A packet the stub cannot take is answered
    /// with an error packet and the session goes on (the core halted). However it ends, its
    /// breakpoints and watchpoints go with it (a probe clears its comparators when it lets
    /// go): a debugger killed while the core ran leaves nothing that halts the next one.
    pub fn session<S: Socket>(&mut self, socket: S, quit: &AtomicBool) -> Result<Ended, Box<Stop>> {
        let ended = self.serve_one(socket, quit);
        self.forget_debugger();
        ended
    }

    /// Removes the breakpoints and watchpoints a debugger set (those it wrote into flash
    /// itself too).
    fn forget_debugger(&mut self) {
        self.stopped = None;
        for addr in self.core.breakpoints() {
            self.core.remove_breakpoint(addr);
        }
        for w in std::mem::take(&mut self.watchpoints) {
            self.core.unwatch(w.addr, w.len);
        }
        self.core.restore_written_breakpoints();
    }

    fn serve_one<S: Socket>(&mut self, socket: S, quit: &AtomicBool) -> Result<Ended, Box<Stop>> {
        let conn = Rc::new(RefCell::new(Buffered::new(socket)));
        let mut machine = match self.fresh_stub(&conn) {
            Some(machine) => machine,
            None => return Ok(Ended::Dropped),
        };
        loop {
            if quit.load(Ordering::Relaxed) {
                return Ok(Ended::Quit);
            }
            let next = match machine {
                GdbStubStateMachine::Idle(stub) => {
                    let byte = conn.borrow_mut().read_within(IDLE_POLL);
                    match byte {
                        Ok(Some(byte)) => stub.incoming_data(self, byte),
                        Ok(None) => Ok(stub.into()),
                        Err(_) => return Ok(Ended::Dropped),
                    }
                }
                GdbStubStateMachine::Running(stub) => {
                    // Lowered before looking: bytes that come after it raise it again.
                    self.attention.store(false, Ordering::SeqCst);
                    let byte = conn.borrow_mut().read_now();
                    match byte {
                        Ok(Some(byte)) => stub.incoming_data(self, byte),
                        Ok(None) => match self.advance() {
                            Ok(None) => Ok(stub.into()),
                            Ok(Some(reason)) => stub.report_stop(self, reason),
                            Err(stop) => return Err(Box::new(stop)),
                        },
                        Err(_) => return Ok(Ended::Dropped),
                    }
                }
                GdbStubStateMachine::CtrlCInterrupt(stub) => {
                    self.set_mode(Mode::Halted);
                    stub.interrupt_handled(
                        self,
                        Some(SingleThreadStopReason::Signal(Signal::SIGINT)),
                    )
                }
                GdbStubStateMachine::Disconnected(stub) => {
                    return Ok(match stub.get_reason() {
                        DisconnectReason::Kill => Ended::Killed,
                        _ => Ended::Detached,
                    });
                }
            };
            machine = match next {
                Ok(machine) => machine,
                Err(e) if e.is_target_error() => {
                    return match e.into_target_error() {
                        Some(stop) => Err(Box::new(stop)),
                        None => Ok(Ended::Dropped),
                    };
                }
                Err(e) if e.is_connection_error() => return Ok(Ended::Dropped),
                Err(_) => {
                    // gdbstub gives up on a packet it did not expect; the board does not.
                    self.set_mode(Mode::Halted);
                    if conn.borrow_mut().refuse().is_err() {
                        return Ok(Ended::Dropped);
                    }
                    match self.fresh_stub(&conn) {
                        Some(machine) => machine,
                        None => return Ok(Ended::Dropped),
                    }
                }
            };
        }
    }

    /// A new stub on `conn`, idle, in the acknowledgement mode the client chose; `None` if
    /// the connection failed.
    fn fresh_stub<S: Socket>(
        &mut self,
        conn: &Rc<RefCell<Buffered<S>>>,
    ) -> Option<GdbStubStateMachine<'static, Self, Shared<S>>> {
        let stub = GdbStubBuilder::new(Shared(Rc::clone(conn)))
            .packet_buffer_size(PACKET_BUFFER)
            .build()
            .ok()?;
        let mut machine = stub.run_state_machine(self).ok()?;
        if conn.borrow().no_ack() {
            for &byte in b"$QStartNoAckMode#b0" {
                machine = match machine {
                    GdbStubStateMachine::Idle(stub) => stub.incoming_data(self, byte).ok()?,
                    other => other,
                };
            }
            conn.borrow_mut().discard_unsent();
        }
        Some(machine)
    }

    /// Runs the core a slice (or a step); the stop to report, if it stopped.
    fn advance(&mut self) -> Result<Option<SingleThreadStopReason<u32>>, Stop> {
        if let Some(reason) = self.stopped.take() {
            return Ok(Some(reason));
        }
        let stop = self.advance_once();
        self.release_when_due();
        stop
    }

    /// Lets go of a `monitor press` once its time has passed.
    fn release_when_due(&mut self) {
        let board = &mut self.core.state_mut().board;
        if self.release_at.is_some_and(|at| board.cycles >= at) {
            board.press(false);
            self.release_at = None;
        }
    }

    fn advance_once(&mut self) -> Result<Option<SingleThreadStopReason<u32>>, Stop> {
        if self.mode == Mode::Stepping {
            self.set_mode(Mode::Halted);
            return Ok(Some(match self.core.step(self.elf)? {
                Ran::Breakpoint => SingleThreadStopReason::Signal(Signal::SIGTRAP),
                _ => SingleThreadStopReason::DoneStep,
            }));
        }
        // A debugger's bytes end this slice early (the core runs on alone between sessions).
        self.core.state_mut().attention = Some(Arc::clone(&self.attention));
        let stop = self.run_free();
        self.core.state_mut().attention = None;
        let stop = stop?;
        if stop.is_some() {
            self.set_mode(Mode::Halted);
        }
        Ok(stop)
    }

    /// Runs the core a slice; the stop a debugger would be told of (a breakpoint, a
    /// watchpoint, WFI), if it stopped.
    pub fn run_free(&mut self) -> Result<Option<SingleThreadStopReason<u32>>, Stop> {
        // A held press ends the slice at its release, as a visitor's finger lifts on time.
        let cycles = self.release_at.map_or(u64::MAX, |at| {
            at.saturating_sub(self.core.state().board.cycles)
        });
        let ran = self.core.run_slice(cycles, SLICE, self.elf);
        self.release_when_due();
        Ok(match ran? {
            Ran::Slice | Ran::Reset(ResetCause::Software) => None,
            // The firmware starts again from its vector table (and writes its RTT control
            // block again, which the bench sees); a person at the debugger is told here.
            Ran::Reset(ResetCause::Watchdog) => {
                eprintln!("virtual board: {WATCHDOG_RESET}");
                None
            }
            Ran::Sleeps | Ran::Breakpoint => Some(SingleThreadStopReason::Signal(Signal::SIGTRAP)),
            Ran::Watched(addr) => Some(match self.watched_kind(addr) {
                Some(kind) => SingleThreadStopReason::Watch {
                    tid: (),
                    kind,
                    addr,
                },
                None => SingleThreadStopReason::Signal(Signal::SIGTRAP),
            }),
        })
    }

    /// `monitor wait`: runs the running core until a word of `words` moves or `ms` of the
    /// host's milliseconds pass, so that the debugger sleeps in its read of the answer
    /// instead of polling the board (issue 52: a polling bench beside busy processes took
    /// 14 times as long). A stop on the way halts the core and is reported after the answer;
    /// a halted core does not move. `None`: a word outside the SRAM.
    fn wait(&mut self, ms: u32, words: &[(u32, u32)]) -> Result<Option<Waited>, Stop> {
        if self.mode != Mode::Running {
            return Ok(Some(Waited::Halted));
        }
        let Some(already) = self.core.until(words) else {
            return Ok(None);
        };
        let deadline = Instant::now() + Duration::from_millis(u64::from(ms));
        let mut waited = if already { Some(Waited::Moved) } else { None };
        while waited.is_none() {
            // No `attention` here: the debugger waits for this answer, and the reader's late
            // flag for the command itself would end every slice at its first block.
            match self.run_free() {
                Ok(None) if self.core.moved() => waited = Some(Waited::Moved),
                Ok(None) if Instant::now() >= deadline => waited = Some(Waited::TimedOut),
                Ok(None) => {}
                Ok(Some(reason)) => {
                    self.set_mode(Mode::Halted);
                    self.stopped = Some(reason);
                    waited = Some(Waited::Halted);
                }
                Err(stop) => {
                    self.core.until(&[]);
                    return Err(stop);
                }
            }
        }
        self.core.until(&[]);
        Ok(waited)
    }

    /// What the debugger asked of the core, kept in the core's halting state too (DHCSR's
    /// S_HALT, DFSR.HALTED: [`crate::cpu::halt`]), the one model a client reading the debug
    /// registers through `m` and the debug port see.
    fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        let halting = self.core.halting();
        match mode {
            Mode::Halted if !halting.halted => halting.halt(crate::cpu::halt::DFSR_HALTED),
            Mode::Halted => {}
            Mode::Running | Mode::Stepping => halting.halted = false,
        }
    }

    /// Whether the core runs (a debugger let it, or the last one detached).
    pub fn running(&self) -> bool {
        self.mode == Mode::Running
    }

    /// Lets the core run with no debugger (after a detach, as a board runs when its probe
    /// lets go) or stops it.
    pub fn set_running(&mut self, on: bool) {
        self.set_mode(if on { Mode::Running } else { Mode::Halted });
    }

    fn watched_kind(&self, addr: u32) -> Option<WatchKind> {
        self.watchpoints
            .iter()
            .find(|w| (w.addr..w.addr.saturating_add(w.len)).contains(&addr))
            .map(|w| w.kind)
    }

    /// The core (to read its state after a stop).
    pub fn core(&mut self) -> &mut Core<'a> {
        &mut self.core
    }
}

/// How a debugger's session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It detached (`D`): the core runs on.
    Detached,
    /// The connection ended without a detach: the core stays as it was.
    Dropped,
    /// It asked for the board's end (`k`).
    Killed,
    /// The server was told to quit (a signal).
    Quit,
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

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
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
        self.set_mode(Mode::Running);
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadSingleStep for Server<'_, '_> {
    fn step(&mut self, _signal: Option<Signal>) -> Result<(), Stop> {
        self.set_mode(Mode::Stepping);
        Ok(())
    }
}

impl Breakpoints for Server<'_, '_> {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

/// Breakpoints (`Z0`/`z0`) kept by the stub, as an FPB keeps its comparators: the core halts
/// before the instruction and flash is never written. gdb wrote its own `bkpt` into flash
/// before, and one that died while the core ran left it there for the next session.
impl SwBreakpoint for Server<'_, '_> {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.core.add_breakpoint(addr))
    }

    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.core.remove_breakpoint(addr))
    }
}

/// Watchpoints as memory hooks on the watched bytes: exact, and slow only while one is set
/// (a hooked page's stores take unicorn's slow path). The core stops at the end of the
/// instruction block that made the access, a few instructions past it at most.
impl HwWatchpoint for Server<'_, '_> {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let watch = Watchpoint { addr, len, kind };
        let (read, write) = match kind {
            WatchKind::Write => (false, true),
            WatchKind::Read => (true, false),
            WatchKind::ReadWrite => (true, true),
        };
        if len == 0 || !self.core.watch(addr, len, read, write) {
            return Ok(false);
        }
        self.watchpoints.push(watch);
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let watch = Watchpoint { addr, len, kind };
        let Some(i) = self.watchpoints.iter().position(|w| *w == watch) else {
            return Ok(false);
        };
        self.watchpoints.remove(i);
        Ok(self.core.unwatch(addr, len))
    }
}

impl MonitorCmd for Server<'_, '_> {
    fn handle_monitor_cmd(&mut self, cmd: &[u8], mut out: ConsoleOutput<'_>) -> Result<(), Stop> {
        let cmd = String::from_utf8_lossy(cmd);
        let command = match cmd.parse::<Monitor>() {
            Ok(command) => command,
            // A bad number or move: what is wrong. An unknown word, or none: the commands.
            Err(
                e @ (MonitorError::Game(_)
                | MonitorError::Move { .. }
                | MonitorError::Trial(_)
                | MonitorError::Wait(_)),
            ) => {
                outputln!(out, "{e}");
                return Ok(());
            }
            Err(e) => {
                if let MonitorError::Unknown(_) = e {
                    outputln!(out, "{e}");
                }
                list_commands(&mut out);
                return Ok(());
            }
        };
        match command {
            Monitor::Help => list_commands(&mut out),
            // As `visit` presses it: held for a debouncer's worth of virtual time, let go by
            // `advance` once the core has run that long (a halted core sees it held).
            Monitor::Press => {
                let board = &mut self.core.state_mut().board;
                board.press(true);
                self.release_at = Some(board.cycles + PRESS_MS * PER_MS);
                outputln!(
                    out,
                    "press: the button is held for {PRESS_MS} ms of virtual time once the core \
                     runs (continue)"
                );
            }
            Monitor::Reset => {
                let _ = self.core.reset();
                // The stub's halt stands over the reset (its client asked for no run).
                self.set_mode(self.mode);
            }
            Monitor::Game(n) => self.core.state_mut().board.cage().start_game(n),
            // Everything measured is written here (the bench kills the board next): the
            // files the environment asked for, then the coverage file if one was given.
            Monitor::Coverage => {
                let state = self.core.state();
                crate::coverage::write_profile(self.elf, &state.profile);
                crate::stack::write_report(self.elf, &state.deepest);
                crate::speed::write_report(&state.speed, &state.board, state.instructions);
                match &self.coverage {
                    Some(coverage) => {
                        if let Err(e) = coverage.write(self.elf, &state.executed) {
                            outputln!(out, "coverage: cannot write: {e}");
                        }
                    }
                    None => outputln!(out, "coverage: no --coverage file was given"),
                }
            }
            // A person's hands on a cage without fixture (the bench's guided game).
            Monitor::Wire(moves) => {
                if let Err(e) = self.core.state_mut().board.wire_by_hand(&moves) {
                    outputln!(out, "wire: {e}");
                }
            }
            // What a person at the board sees lit (a dead LED stays dark whatever its pin drives).
            Monitor::Leds => {
                let shown = self.core.state().board.leds();
                let lit = Lit {
                    rows: shown.rows,
                    columns: shown.columns,
                };
                outputln!(out, "{lit}");
            }
            // For a debugger on this machine: the SRAM's file, to map (gdb-probe's window).
            // A glitch trial: a visitor's game from power-on, and how it ended.
            Monitor::Trial(trial) => {
                let end = crate::glitch::trial(&mut self.core, self.elf, trial);
                outputln!(out, "{end}");
            }
            Monitor::Wait { ms, words } => match self.wait(ms, &words)? {
                Some(waited) => outputln!(out, "{waited}"),
                None => outputln!(out, "wait: a word outside the SRAM"),
            },
            Monitor::Window => match self.core.sram_file() {
                Some(path) => {
                    let answer = gdb_probe::window::Answer {
                        start: SRAM.start,
                        len: SRAM.size,
                        path: path.to_path_buf(),
                    };
                    outputln!(out, "{answer}");
                }
                None => outputln!(out, "window: none, the SRAM is private"),
            },
        }
        Ok(())
    }
}

/// Every monitor command and what it does, as `help` (and an unknown word) lists them.
fn list_commands(out: &mut ConsoleOutput<'_>) {
    outputln!(out, "commands:");
    for command in COMMANDS {
        outputln!(out, "  {:<12} {}", command.usage, command.what);
    }
}
