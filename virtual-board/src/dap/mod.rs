//! `serve --dap`: the board answered at its debug port, as a probe drives an STM32F446 over SWD.
//! A debugger's requests (pyOCD's remote-probe protocol, [`wire`]) reach the SW-DP and AHB-AP
//! ([`port`]), whose bus is the core's: memory and the chip's models, the halting-debug
//! registers ([`crate::cpu::halt`]), the FPB's and DWT's comparators, the ROM table
//! ([`crate::chip::coresight`]). Between requests the core runs unless a debugger halted it, so
//! an access reaches the bus while the firmware runs, as an AHB-AP's does (RTT is read so).
//!
//! A fault of the core (an access to nothing, an undefined instruction, a chip rule) locks it
//! up as the chip does without a fault handler (DHCSR.S_LOCKUP, the reason on stderr): a
//! debugger can still halt it, reset it and download a firmware. A blank chip (no `--elf`)
//! locks up at once, on its erased vector table.

pub mod port;
pub mod wire;

use std::io::{ErrorKind, Read, Write};
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use boards::virtual_board::{Lit, Monitor, Waited};
use serde_json::{Value, json};

use crate::board::ResetCause;
use crate::chip::SRAM;
use crate::chip::debug::Dwt;
use crate::conn::Socket;
use crate::cpu::halt::{DFSR_BKPT, DFSR_DWTTRAP, DFSR_HALTED};
use crate::cpu::{Core, Ran};
use crate::elf::Elf;
use crate::stop::Stop;

use port::{Ack, Bus, Port};
use wire::{Request, Status};

/// Instructions between two looks at the socket while the core runs (as the GDB stub's).
const SLICE: u64 = 50_000;

/// How long an idle session waits for a byte before it looks at the quit flag.
const IDLE_POLL: Duration = Duration::from_millis(100);

/// How a debugger's session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The connection closed: the board runs on as it was.
    Dropped,
    /// The server was told to quit (a signal).
    Quit,
}

/// What a debug port session keeps besides the core.
#[derive(Debug, Default)]
pub struct Target {
    port: Port,
    /// nRST held by the debugger (`assert_reset`): the core does not run.
    reset_held: bool,
    /// nRST held low by the board itself (`serve --hold-reset`: the reset button pressed, the
    /// line shorted to ground): no debugger lets it go.
    nrst_low: bool,
    /// The core executed WFI: nothing wakes it (no interrupt is modelled) but a debugger.
    asleep: bool,
    /// The wire's clock a debugger asked for (`set_clock`), in Hz: how long a transaction
    /// lasts, during which a running core runs on ([`TRANSACTION_BITS`]).
    swclk: Option<u64>,
    /// Requests answered since the board started (its summary says how many).
    pub requests: u64,
}

/// One SWD transaction on the wire: 8 request bits, turnaround, 3 acknowledge bits, 33 data
/// and parity bits, turnaround, and the idle cycles a probe adds (ARM IHI 0031 B4.2): about 50
/// clocks. While the probe clocks them the core runs on; so it does here, or a debugger that
/// polls as fast as the socket answers (probe-rs waiting on a flash algorithm's halt) would
/// starve the core it waits for.
const TRANSACTION_BITS: u64 = 50;

/// The wire's clock when no debugger set one: probe-rs's and pyOCD's default, 1 MHz.
const DEFAULT_SWCLK: u64 = 1_000_000;

impl Target {
    /// Core cycles one transaction lasts at the wire's clock (the core's at 84 MHz, the
    /// board binary's: `crate::clock`).
    fn transaction_cycles(&self) -> u64 {
        let hz = self.swclk.unwrap_or(DEFAULT_SWCLK).max(1);
        crate::clock::PER_SECOND * TRANSACTION_BITS / hz
    }
}

impl Target {
    /// A board whose nRST is held low (`serve --hold-reset`), and its AP's bus stalled
    /// (`serve --ap-bus`), from power-on.
    pub fn new(nrst_low: bool, stall: Option<port::Stall>, core: &mut Core<'_>) -> Target {
        let mut target = Target {
            nrst_low,
            ..Target::default()
        };
        target.port.stall = stall;
        core.halting().in_reset = target.in_reset();
        target
    }

    /// Whether nRST is low, held by the debugger or the board.
    fn in_reset(&self) -> bool {
        self.reset_held || self.nrst_low
    }
}

/// The core's bus as the AP sees it: memory, flash only through its interface, the
/// halting-debug registers and the models ([`Core::read_bus`], [`Core::write_bus`]).
struct CoreBus<'c, 'a> {
    core: &'c mut Core<'a>,
}

/// The FPB's and DWT's blocks: a write there may change the core's halts.
fn comparator_block(address: u32) -> bool {
    matches!(address & !0xFFF, 0xE000_1000 | 0xE000_2000)
}

impl Bus for CoreBus<'_, '_> {
    fn read(&mut self, address: u32, size: u32) -> Result<u32, ()> {
        let mut bytes = [0u8; 4];
        self.core
            .read_bus(address, &mut bytes[..size as usize])
            .map_err(|_| ())?;
        Ok(u32::from_le_bytes(bytes))
    }

    fn write(&mut self, address: u32, size: u32, value: u32) -> Result<(), ()> {
        let bytes = value.to_le_bytes();
        self.core
            .write_bus(address, &bytes[..size as usize], size as u8)
            .map_err(|_| ())?;
        if comparator_block(address) {
            self.core.sync_comparators();
        }
        Ok(())
    }
}

/// An answer to one request: its JSON line.
fn respond(
    target: &mut Target,
    core: &mut Core<'_>,
    elf: &Elf,
    id: i64,
    request: Request,
) -> String {
    let ack = |a: Ack| match a {
        Ack::Fault => wire::error(
            id,
            Status::Fault,
            "FAULT acknowledge (a sticky error is set)",
        ),
        Ack::Wait => wire::error(
            id,
            Status::Wait,
            "WAIT acknowledge (the AP's bus has not completed the transfer)",
        ),
    };
    let ok = |value: Option<Value>| wire::answer(id, value);
    let mut bus = CoreBus { core };
    match request {
        Request::Hello(v) if v == wire::VERSION => ok(None),
        Request::Hello(v) => wire::error(
            id,
            Status::General,
            &format!(
                "client requested unsupported protocol version {v} (expected {})",
                wire::VERSION
            ),
        ),
        Request::ReadProperty(name) => match name.as_str() {
            "vendor_name" => ok(Some(json!("birdcage"))),
            "product_name" => ok(Some(json!("virtual NUCLEO-F446RE"))),
            "supported_wire_protocols" => ok(Some(json!(["DEFAULT", "SWD"]))),
            "wire_protocol" => ok(Some(json!("SWD"))),
            "capabilities" => ok(Some(json!(["SWJ_SEQUENCE"]))),
            "unique_id" => ok(Some(json!("virtual-board"))),
            "is_open" => ok(Some(json!(true))),
            _ => wire::error(
                id,
                Status::General,
                &format!("unknown property name '{name}' requested"),
            ),
        },
        Request::SetClock(hz) => {
            target.swclk = Some(hz);
            ok(None)
        }
        Request::Nothing | Request::SwjSequence(..) | Request::MemoryInterface => ok(None),
        Request::Connect(protocol) if protocol == "SWD" || protocol == "DEFAULT" => ok(None),
        Request::Connect(protocol) => wire::error(
            id,
            Status::General,
            &format!("{protocol}: this DAP speaks SWD only (the STM32F446's SW-DP)"),
        ),
        Request::Reset => {
            hard_reset(target, bus.core);
            ok(None)
        }
        Request::AssertReset(on) => {
            let was = target.in_reset();
            target.reset_held = on;
            let now = target.in_reset();
            bus.core.halting().in_reset = now;
            // The core is reset as nRST falls and starts (or is caught) as it rises.
            if now != was || on {
                hard_reset(target, bus.core);
            }
            ok(None)
        }
        // The line as the probe reads it: low if anything holds it.
        Request::IsResetAsserted => ok(Some(json!(target.in_reset()))),
        Request::ReadDp(addr) => match target.port.read_dp(addr) {
            Ok(v) => ok(Some(json!(v))),
            Err(a) => ack(a),
        },
        Request::WriteDp(addr, value) => match target.port.write_dp(addr, value) {
            Ok(()) => ok(None),
            Err(a) => ack(a),
        },
        Request::ReadAp(addr) => match target.port.read_ap(addr, &mut bus) {
            Ok(v) => ok(Some(json!(v))),
            Err(a) => ack(a),
        },
        Request::WriteAp(addr, value) => match target.port.write_ap(addr, value, &mut bus) {
            Ok(()) => ok(None),
            Err(a) => ack(a),
        },
        Request::ReadApMultiple(addr, count) => {
            let mut values = Vec::with_capacity(count);
            for _ in 0..count {
                match target.port.read_ap(addr, &mut bus) {
                    Ok(v) => values.push(v),
                    Err(a) => return ack(a),
                }
            }
            ok(Some(json!(values)))
        }
        Request::WriteApMultiple(addr, values) => {
            for v in values {
                if let Err(a) = target.port.write_ap(addr, v, &mut bus) {
                    return ack(a);
                }
            }
            ok(None)
        }
        Request::Monitor(text) => ok(Some(json!(monitor(target, bus.core, elf, &text)))),
    }
}

/// nRST: a system reset (the debug domain stays, as on the chip: RM0390 33.3).
fn hard_reset(target: &mut Target, core: &mut Core<'_>) {
    target.asleep = false;
    core.halting().lockup = false;
    let _ = core.reset();
}

/// The bench's commands a board has no register for (`boards::virtual_board::Monitor`), those
/// that make sense over the debug port.
fn monitor(target: &mut Target, core: &mut Core<'_>, elf: &Elf, text: &str) -> String {
    match text.parse::<Monitor>() {
        // The bench sleeps in its read of the answer while the core runs until an RTT offset
        // moves, as over the GDB stub (issue 52), instead of polling the DAP.
        Ok(Monitor::Wait { ms, words }) => match wait(target, core, elf, ms, &words) {
            Some(waited) => waited.to_string(),
            None => "wait: a word outside the SRAM".to_string(),
        },
        Ok(Monitor::Game(n)) => {
            core.state_mut().board.cage().start_game(n);
            String::new()
        }
        Ok(Monitor::Leds) => {
            let shown = core.state().board.leds();
            Lit {
                rows: shown.rows,
                columns: shown.columns,
            }
            .to_string()
        }
        Ok(Monitor::Coverage) => {
            let state = core.state();
            crate::coverage::write_profile(elf, &state.profile);
            crate::stack::write_report(elf, &state.deepest);
            crate::speed::write_report(&state.speed, &state.board, state.instructions);
            String::new()
        }
        Ok(other) => format!("{other:?}: not offered over the debug port (use --gdb)"),
        Err(e) => e.to_string(),
    }
}

/// `monitor wait`: runs the core until a word of `words` moves or `ms` of the host's
/// milliseconds pass; a core that does not run does not move (`Halted`). `None`: a word
/// outside the SRAM.
fn wait(
    target: &mut Target,
    core: &mut Core<'_>,
    elf: &Elf,
    ms: u32,
    words: &[(u32, u32)],
) -> Option<Waited> {
    if !runs(target, core) {
        return Some(Waited::Halted);
    }
    let already = core.until(words)?;
    let deadline = std::time::Instant::now() + Duration::from_millis(u64::from(ms));
    let waited = loop {
        if already || core.moved() {
            break Waited::Moved;
        }
        if std::time::Instant::now() >= deadline {
            break Waited::TimedOut;
        }
        if !runs(target, core) {
            break Waited::Halted;
        }
        advance(target, core, elf, &mut None, 0, u64::MAX);
    };
    core.until(&[]);
    Some(waited)
}

/// A connection's bytes, split into lines.
struct Lines<S: Socket> {
    socket: S,
    held: Vec<u8>,
    /// The line being read is longer than [`wire::MAX_LINE`]: dropped up to its end.
    overlong: bool,
    /// The socket's mode as last set (`None`: not yet): set only when it changes, as a
    /// running core's reads and answers all go without waiting (two system calls a request
    /// saved).
    nonblocking: Option<bool>,
}

impl<S: Socket> Lines<S> {
    fn set_nonblocking(&mut self, on: bool) -> std::io::Result<()> {
        if self.nonblocking != Some(on) {
            self.socket.set_nonblocking(on)?;
            self.nonblocking = Some(on);
        }
        Ok(())
    }

    /// Whether a whole line is read and waiting.
    fn holds_a_line(&self) -> bool {
        self.held.contains(&b'\n')
    }

    /// The next whole line within `wait` (`None`: none yet); `Err`: the connection ended.
    fn next(&mut self, wait: Option<Duration>) -> std::io::Result<Option<Result<String, ()>>> {
        loop {
            if let Some(end) = self.held.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.held.drain(..=end).collect();
                if std::mem::take(&mut self.overlong) {
                    return Ok(Some(Err(())));
                }
                return Ok(Some(String::from_utf8(line).map_err(|_| ())));
            }
            if self.held.len() > wire::MAX_LINE {
                self.held.clear();
                self.overlong = true;
            }
            match wait {
                None => self.set_nonblocking(true)?,
                Some(wait) => {
                    self.set_nonblocking(false)?;
                    self.socket.set_read_timeout(Some(wait))?;
                }
            }
            let mut buf = [0u8; 4096];
            match self.socket.read(&mut buf) {
                Ok(0) => return Err(ErrorKind::UnexpectedEof.into()),
                Ok(n) => self.held.extend_from_slice(&buf[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Ok(None);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Writes `line` whole, in one write; a debugger that does not read holds it up until
    /// `quit` is set (the socket's writes time out now and then to look: `serve::serve_dap`).
    fn send(&mut self, line: &str, quit: &AtomicBool) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let mut sent = 0;
        while sent < bytes.len() {
            match self.socket.write(&bytes[sent..]) {
                Ok(0) => return Err(ErrorKind::WriteZero.into()),
                Ok(n) => sent += n,
                // A full socket: wait for room, in the write timeout's steps.
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if quit.load(Ordering::SeqCst) {
                        return Err(e);
                    }
                    self.set_nonblocking(false)?;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.socket.flush()
    }
}

/// Serves one debugger on `socket` until it closes the connection or `quit` is set. The core
/// runs between requests unless halted, looking at the socket (`watched`, a descriptor of
/// it) every few microseconds ([`Core::watch_wire`]); a firmware's fault locks it up (said on
/// stderr).
pub fn session<S: Socket>(
    target: &mut Target,
    core: &mut Core<'_>,
    elf: &Elf,
    socket: S,
    watched: OwnedFd,
    quit: &AtomicBool,
) -> Ended {
    let mut watched = Some(watched);
    let mut lines = Lines {
        socket,
        held: Vec::new(),
        overlong: false,
        nonblocking: None,
    };
    loop {
        if quit.load(Ordering::Relaxed) {
            return Ended::Quit;
        }
        let running = runs(target, core);
        let wait = if running { None } else { Some(IDLE_POLL) };
        match lines.next(wait) {
            Err(_) => return Ended::Dropped,
            Ok(Some(line)) => {
                let reply = match line.map_err(|()| wire::Refused {
                    id: -1,
                    why: "invalid request format".to_string(),
                }) {
                    Ok(text) => match Request::parse(text.trim()) {
                        Ok((id, request)) => respond(target, core, elf, id, request),
                        Err(refused) => wire::error(refused.id, Status::General, &refused.why),
                    },
                    Err(refused) => wire::error(refused.id, Status::General, &refused.why),
                };
                target.requests += 1;
                if lines.send(&reply, quit).is_err() {
                    return Ended::Dropped;
                }
                // The transaction's time on the wire, which the core spends running; then on,
                // looking at the socket, until the next request (one slice, not two). A
                // request already read (a debugger that posts its writes sends several before
                // reading their answers) is next: the wire's time only.
                if runs(target, core) {
                    let quiet = target.transaction_cycles();
                    if lines.holds_a_line() {
                        advance(target, core, elf, &mut None, 0, quiet);
                    } else {
                        advance(target, core, elf, &mut watched, quiet, u64::MAX);
                    }
                }
            }
            Ok(None) if running => advance(target, core, elf, &mut watched, 0, u64::MAX),
            Ok(None) => {}
        }
    }
}

/// Runs the core a slice with no debugger attached, if it may run: whether it did.
pub fn run_free(target: &mut Target, core: &mut Core<'_>, elf: &Elf) -> bool {
    let runs = runs(target, core);
    if runs {
        advance(target, core, elf, &mut None, 0, u64::MAX);
    }
    runs
}

/// Whether the core runs now.
fn runs(target: &Target, core: &mut Core<'_>) -> bool {
    let halting = core.halting();
    !target.in_reset() && !target.asleep && !halting.halted && !halting.lockup
}

/// Runs the core a slice of at most `cycles` (or the step a debugger asked for), ended early
/// by bytes on `watched` (a request came) once `quiet` cycles have run; a stop it reaches
/// halts it.
fn advance(
    target: &mut Target,
    core: &mut Core<'_>,
    elf: &Elf,
    watched: &mut Option<OwnedFd>,
    quiet: u64,
    cycles: u64,
) {
    let stepping = std::mem::take(&mut core.halting().step);
    // A debugger runs code from SRAM (a flash algorithm): the chip executes SRAM, which the
    // board maps executable only then, for speed (`Core::allow_sram_code`; a reset ends it).
    if SRAM.holds(core.pc(), 2)
        && !core.sram_code()
        && let Err(e) = core.allow_sram_code(true)
    {
        lock_up(core, &format!("cannot make SRAM executable: {e}"));
        return;
    }
    let ran = if stepping {
        core.step(elf)
    } else {
        core.watch_wire(watched.take(), quiet);
        let ran = core.run_slice(cycles, SLICE, elf);
        *watched = core.watch_wire(None, 0);
        ran
    };
    core.halting().retired();
    let debugging = core.halting().enabled();
    match ran {
        Ok(Ran::Breakpoint) if debugging => core.halting().halt(DFSR_BKPT),
        Ok(Ran::Watched(address)) if debugging => {
            core.state_mut()
                .board
                .chip_mut()
                .get_mut::<Dwt>()
                .matched(address);
            core.halting().halt(DFSR_DWTTRAP);
        }
        Ok(_) if stepping => core.halting().halt(DFSR_HALTED),
        Ok(Ran::Sleeps) => target.asleep = true,
        Ok(Ran::Slice | Ran::Reset(ResetCause::Software)) => {}
        Ok(Ran::Reset(ResetCause::Watchdog)) => {
            eprintln!("virtual board: {}", crate::board::WATCHDOG_RESET);
        }
        // A `bkpt` or a comparator with halting debug off: a HardFault on the chip, which
        // has no handler here: the core locks up.
        Ok(Ran::Breakpoint | Ran::Watched(_)) => lock_up(core, "a breakpoint with debug off"),
        Err(stop) => lock_up(core, &stop_line(&stop)),
    }
}

fn stop_line(stop: &Stop) -> String {
    stop.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The core locks up (ARMv7-M B1.5.15: a fault it cannot take), said once on stderr.
fn lock_up(core: &mut Core<'_>, why: &str) {
    eprintln!("virtual board: the core locked up: {why}");
    core.halting().lockup = true;
}

/// Refuses a second debugger: its first line answered with pyOCD's error form, then closed.
pub fn refuse<S: Read + Write>(mut stream: S) {
    let mut buf = [0u8; 512];
    let _ = stream.read(&mut buf);
    let _ = writeln!(
        stream,
        "{}",
        wire::error(
            -1,
            Status::General,
            "another debugger is attached to this virtual board (one at a time)"
        )
    );
    let _ = stream.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_comparator_blocks_are_the_dwts_and_the_fpbs() {
        assert!(comparator_block(0xE000_1020) && comparator_block(0xE000_2008));
        assert!(!comparator_block(0xE000_EDF0));
    }
}
