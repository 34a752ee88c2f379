//! Glitch trials (`monitor trial`): one fault injected into the unmodified board binary at one
//! instant of a simulated visitor's game, as a lab's glitcher does to a board, and how the
//! game ended. The bench draws the trials and classifies them against the intact game
//! (hil-tests' `--scenario glitches`); this module injects and plays.
//!
//! The instant is an instruction count since the trial's power-on. The core counts time in
//! whole blocks, so the core's block hook stops before the block holding the instant
//! (its [`Instant`], which this module arms with its hook), and `fire` executes the instructions of the block before it exactly
//! (unicorn's instruction count), then makes the fault. The same hook ends a trial that
//! outruns its limit as a hang: a trial never runs past its limit, and a core sent into
//! unmapped memory or undefined code is a stop the board already names.

use boards::virtual_board::{BoardFault, End, Glitch, GlitchKind, Press, Shown, Trial, TrialEnd};
use firmware::LedPattern;
use heuristic::{Side, Size};
use object::{Object, ObjectSymbol};

use crate::board::ResetCause;
use crate::chip::{FLASH, SRAM};
use crate::clock::PER_MS;
use crate::cpu::{Core, Instant};
use crate::elf::Elf;
use crate::operator::{Answer, HandGame};
use crate::stop::{Place, Stop};

/// What ends a trial that outran its limit (a [`Stop::Cpu`] only this module makes).
const OUT_OF_TIME: &str = "the glitch trial reached its instruction limit";

/// gdb's numbers of SP, PC, xPSR, d0 and FPSCR (r0-r12 are 0-12; cpu.rs's table).
const SP: usize = 13;
const PC: usize = 15;
const XPSR: usize = 25;
const D0: usize = 26;
const FPSCR: usize = 42;
/// xPSR's flags a `register` glitch may flip: N, Z, C, V, Q (APSR) and GE0-GE3 (ARMv7-M ARM
/// B1.4.2).
const XPSR_FLAGS: [(u32, &str); 9] = [
    (31, "n"),
    (30, "z"),
    (29, "c"),
    (28, "v"),
    (27, "q"),
    (16, "ge0"),
    (17, "ge1"),
    (18, "ge2"),
    (19, "ge3"),
];
/// FPSCR's defined bits (PM0214 4.6.4: N Z C V, AHP, DN, FZ, RMode, IDC and the five
/// cumulative exception flags); the others are reserved.
const FPSCR_BITS: [u32; 15] = [31, 30, 29, 28, 26, 25, 24, 23, 22, 7, 4, 3, 2, 1, 0];

/// The glitch armed in the core: the campaign's data at the core's [`Instant`], which
/// [`fire`] (its hook) reads.
#[derive(Debug, Default)]
struct Slot {
    /// A glitch on the core's clock, and its instant in instructions since the core's start.
    glitch: Option<(Glitch, u64)>,
    deadline: u64,
    hit: Option<(u32, String)>,
    /// A [`GlitchKind::Kept`] flip: its moment of the visit (microseconds) and its pick.
    kept: Option<(u64, u32)>,
    /// The presses begun (the visitor has reached for the button this many times).
    pressed: u32,
    /// The press the glitch struck before (kept) or during (0: power-on).
    struck: Option<u32>,
    /// The visitor's turn, in microseconds.
    pace_us: u64,
    /// The board's cycle count at the trial's power-on.
    start_cycles: u64,
}

impl Slot {
    /// The microseconds of the visit at core cycle `cycles`: the machine's time since
    /// power-on and the visitor's turns taken (one before each press begun).
    fn visit_us(&self, cycles: u64) -> u64 {
        let machine = (cycles - self.start_cycles) * 1000 / PER_MS;
        machine + u64::from(self.pressed) * self.pace_us
    }
}

/// The trial's slot in the core (none outside a trial).
fn slot<'c>(core: &'c mut Core<'_>) -> Option<&'c mut Slot> {
    core.state_mut()
        .instant
        .data
        .as_mut()
        .and_then(|d| d.downcast_mut::<Slot>())
}

/// The instant has come (the core's [`Instant`] hook): executes up to it and makes the
/// fault, or ends the trial as out of time.
fn fire(core: &mut Core<'_>, elf: &Elf) -> Result<(), Stop> {
    let now = core.state().instructions;
    let (glitch, deadline) = match slot(core) {
        Some(slot) => (slot.glitch.take(), slot.deadline),
        None => (None, 0),
    };
    let Some((glitch, at)) = glitch.filter(|(_, at)| *at < deadline) else {
        core.state_mut().instant.at = u64::MAX;
        return Err(Stop::Cpu {
            what: OUT_OF_TIME.into(),
            place: place(core, elf),
        });
    };
    core.state_mut().instant.at = deadline;
    core.execute(at.saturating_sub(now))
        .map_err(|e| Stop::Cpu {
            what: e.to_string(),
            place: place(core, elf),
        })?;
    let pc = core.pc();
    let target = inject(core, elf, glitch);
    if let Some(slot) = slot(core) {
        slot.hit = Some((pc, target));
        slot.struck = Some(slot.pressed);
    }
    Ok(())
}

/// The visitor is about to make press `k`, at the end of a turn of [`Slot::pace_us`]: a
/// [`GlitchKind::Kept`] flip whose moment falls before the turn's end strikes now, while the
/// machine waits in its main loop (the stack above SP is then the main loop's frame and the
/// tick's). A moment in the machine's own time, before the turn (its work on the last press,
/// milliseconds against the visitor's seconds), strikes at the turn too.
fn before_press(core: &mut Core<'_>, elf: &Elf, k: usize) {
    let cycles = core.state().board.cycles;
    let Some(armed) = slot(core) else { return };
    let turn_ends = armed.visit_us(cycles) + armed.pace_us;
    armed.pressed = k as u32;
    let due = armed.kept.filter(|(at, _)| *at < turn_ends);
    if let Some((_, pick)) = due {
        armed.kept = None;
        armed.struck = Some(k as u32);
        let pc = core.pc();
        let target = flip_live_bit(core, elf, pick);
        if let Some(slot) = slot(core) {
            slot.hit = Some((pc, target));
        }
    }
}

/// Flips one bit of the SRAM in use, chosen by `pick`; says which.
fn flip_live_bit(core: &mut Core<'_>, elf: &Elf, pick: u32) -> String {
    let (address, region) = live_byte(core, elf, pick >> 3);
    let bit = pick & 7;
    let mut byte = [0u8];
    let _ = core.read_memory(address, &mut byte);
    byte[0] ^= 1 << bit;
    let _ = core.write_memory(address, &byte);
    format!("{region}@{address:#010x}:bit{bit}")
}

fn place(core: &Core<'_>, elf: &Elf) -> Place {
    let pc = core.pc();
    Place {
        pc,
        symbol: elf.function_at(pc).map(|f| f.name.clone()),
        exact: true,
    }
}

/// Makes `glitch` now; says what it hit.
fn inject(core: &mut Core<'_>, elf: &Elf, glitch: Glitch) -> String {
    let pick = glitch.pick;
    match glitch.kind {
        GlitchKind::Skip => {
            let pc = core.pc();
            let mut half = [0u8; 2];
            let _ = core.read_memory(pc, &mut half);
            let half = u16::from_le_bytes(half);
            // ARMv7-M ARM A5.1: 0b11101, 0b11110, 0b11111 start a 32-bit instruction.
            let len = if half >> 11 >= 0b11101 { 4 } else { 2 };
            let _ = core.set_register(PC, u64::from(pc + len));
            format!("skip:{half:04x}")
        }
        GlitchKind::Register => {
            // r0-r15, then xPSR's flags: pick % 25 says which, the bits above it which bit.
            let which = (pick % (16 + XPSR_FLAGS.len() as u32)) as usize;
            if let Some(&(bit, flag)) = which.checked_sub(16).and_then(|f| XPSR_FLAGS.get(f)) {
                let value = core.register(XPSR).unwrap_or(0) ^ (1 << bit);
                let _ = core.set_register(XPSR, value);
                return format!("xpsr:{flag}");
            }
            let bit = (pick >> 5) % 32;
            let value = core.register(which).unwrap_or(0) ^ (1 << bit);
            let _ = core.set_register(which, value);
            let name = match which {
                13 => "sp".to_string(),
                14 => "lr".to_string(),
                15 => "pc".to_string(),
                n => format!("r{n}"),
            };
            format!("{name}:bit{bit}")
        }
        GlitchKind::Fpu => {
            // s0-s31 (the halves of d0-d15), then FPSCR: pick % 33 says which.
            let which = pick % 33;
            if which == 32 {
                let bit = FPSCR_BITS[((pick >> 6) as usize) % FPSCR_BITS.len()];
                let value = core.register(FPSCR).unwrap_or(0) ^ (1 << bit);
                let _ = core.set_register(FPSCR, value);
                return format!("fpscr:bit{bit}");
            }
            let bit = (pick >> 6) % 32;
            let d = D0 + (which / 2) as usize;
            let value = core.register(d).unwrap_or(0) ^ (1 << (bit + 32 * (which % 2)));
            let _ = core.set_register(d, value);
            format!("s{which}:bit{bit}")
        }
        GlitchKind::Sram => flip_live_bit(core, elf, pick),
        GlitchKind::Adc => {
            let bit = pick % 12;
            core.state_mut().board.adc_flip = Some(1 << bit);
            format!("adc:bit{bit}")
        }
        // On the visitor's clock: made at a press instead ([`before_press`]).
        GlitchKind::Kept => String::new(),
    }
}

/// The `index`-th byte (modulo) of the SRAM in use: the stack from SP to its top (the reset
/// SP, flash's first word), then the statics (`__sdata` to `__ebss`, cortex-m-rt's symbols).
fn live_byte(core: &mut Core<'_>, elf: &Elf, index: u32) -> (u32, &'static str) {
    let mut top = [0u8; 4];
    let _ = core.read_memory(FLASH.start, &mut top);
    let top = u32::from_le_bytes(top);
    let sp = core.register(SP).unwrap_or(u64::from(top)) as u32;
    let stack = if SRAM.holds(sp, 1) && sp < top {
        top - sp
    } else {
        0
    };
    let (start, end) = statics(elf).unwrap_or((top, top));
    let total = (stack + end.saturating_sub(start)).max(1);
    let i = index % total;
    if i < stack {
        (sp + i, "stack")
    } else {
        (start + (i - stack), "statics")
    }
}

/// The statics' range, from the ELF's symbols.
fn statics(elf: &Elf) -> Option<(u32, u32)> {
    let file = object::File::parse(&*elf.bytes).ok()?;
    let find = |name: &str| {
        file.symbols()
            .find(|s| s.name() == Ok(name))
            .map(|s| s.address() as u32)
    };
    Some((find("__sdata")?, find("__ebss")?))
}

/// What the visitor reads off `pattern` on a cage of `size`.
fn shown(pattern: LedPattern, size: Size) -> Shown {
    if pattern == LedPattern::CUT_WON {
        Shown::Won(Side::Cut)
    } else if pattern == LedPattern::SHORT_WON {
        Shown::Won(Side::Short)
    } else if pattern == LedPattern::FAULT {
        Shown::Fault
    } else if pattern == LedPattern::OFF {
        Shown::Dark
    } else {
        crate::operator::shown_edge(pattern, size).map_or(
            Shown::Lit {
                rows: pattern.rows,
                columns: pattern.columns,
            },
            Shown::Move,
        )
    }
}

/// Plays `trial`: a power-on (the SRAM cleared, the core and peripherals at reset, the cage
/// bare and game `trial.game`'s noise), then a visitor's game with the glitch armed.
pub fn trial(core: &mut Core<'_>, elf: &Elf, trial: Trial) -> TrialEnd {
    let zeros = vec![0u8; SRAM.size as usize];
    let _ = core.write_memory(SRAM.start, &zeros);
    let board = &mut core.state_mut().board;
    if !board.has(BoardFault::NoFixture) {
        let _ = board.inject(BoardFault::NoFixture);
    }
    board.press(false);
    board.adc_flip = None;
    let _ = board.wire_by_hand(&[]);
    board.cage().start_game(trial.game);
    let size = board.cage().position().size();
    let _ = core.reset();
    let start = core.state().instructions;
    let deadline = start.saturating_add(trial.limit);
    let (kept, glitch) = match trial.glitch {
        Some(g) if g.kind.on_the_visitors_clock() => (Some((g.at, g.pick)), None),
        Some(g) => (None, Some((g, start.saturating_add(g.at)))),
        None => (None, None),
    };
    core.state_mut().instant = Instant::arm(
        glitch.map_or(deadline, |(_, at)| at.min(deadline)),
        fire,
        Box::new(Slot {
            deadline,
            glitch,
            kept,
            pace_us: trial.pace_ms.saturating_mul(1000),
            start_cycles: core.state().board.cycles,
            ..Slot::default()
        }),
    );
    let mut game = HandGame::default();
    let played = crate::operator::visit_into(
        core,
        elf,
        emulator::players::perfect_move,
        before_press,
        &mut game,
    );
    let instant = std::mem::take(&mut core.state_mut().instant);
    let reset = instant.first_reset;
    let slot = instant
        .data
        .and_then(|d| d.downcast::<Slot>().ok())
        .map(|slot| *slot)
        .unwrap_or_default();
    let board = &mut core.state_mut().board;
    board.adc_flip = None;
    // Out of time, or nothing lit: a core still feeding its watchdog is slow, else stopped.
    let idle = if board.watchdog_fed() {
        End::Slow
    } else {
        End::Stopped
    };
    let visit_us = slot.visit_us(board.cycles);
    let (pc, target) = slot.hit.map_or((None, None), |(pc, t)| (Some(pc), Some(t)));
    let last = game.shown.last().copied();
    TrialEnd {
        end: match played {
            Err(Stop::Panic { .. }) => End::Panic,
            Err(Stop::Cpu { what, .. }) if what == OUT_OF_TIME => idle,
            Err(_) => End::CoreFault,
            Ok(()) if reset == Some(ResetCause::Watchdog) => End::Watchdog,
            Ok(()) => match (game.winner, last) {
                (Some(_), _) => End::Verdict,
                (None, Some(LedPattern::FAULT)) => End::SelfCheck,
                (None, Some(LedPattern::OFF)) => idle,
                (None, _) => End::Trouble,
            },
        },
        instructions: core.state().instructions - start,
        visit_us,
        winner: game.winner,
        record: game.record(),
        presses: game
            .presses
            .iter()
            .map(|answer| match *answer {
                Answer::Taken(p) => Press::Taken(shown(p, size)),
                Answer::Missed => Press::Missed,
                Answer::Untaken(p) => Press::Untaken(shown(p, size)),
            })
            .collect(),
        struck: slot.struck,
        target,
        pc,
        function: pc.and_then(|pc| elf.function_at(pc).map(|f| f.name.clone())),
    }
}
