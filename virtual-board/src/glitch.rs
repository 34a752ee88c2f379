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

use boards::virtual_board::{BoardFault, End, Glitch, GlitchKind, Trial, TrialEnd};
use firmware::LedPattern;
use heuristic::Side;
use object::{Object, ObjectSymbol};

use crate::board::ResetCause;
use crate::chip::{FLASH, SRAM};
use crate::cpu::{Core, Instant};
use crate::elf::Elf;
use crate::stop::{Place, Stop};

/// What ends a trial that outran its limit (a [`Stop::Cpu`] only this module makes).
const OUT_OF_TIME: &str = "the glitch trial reached its instruction limit";

/// gdb's numbers of SP, LR and PC (r0-r12 are 0-12).
const SP: usize = 13;
const PC: usize = 15;

/// The glitch armed in the core: the campaign's data at the core's [`Instant`], which
/// [`fire`] (its hook) reads.
#[derive(Debug, Default)]
struct Slot {
    glitch: Option<(Glitch, u64)>,
    deadline: u64,
    hit: Option<(u32, String)>,
    /// A [`GlitchKind::Kept`] flip's pick, due at the visitor's next press.
    kept: Option<u32>,
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
    if glitch.kind == GlitchKind::Kept {
        if let Some(slot) = slot(core) {
            slot.kept = Some(glitch.pick);
        }
        return Ok(());
    }
    let pc = core.pc();
    let target = inject(core, elf, glitch);
    if let Some(slot) = slot(core) {
        slot.hit = Some((pc, target));
    }
    Ok(())
}

/// The visitor is about to press the button: a [`GlitchKind::Kept`] flip that is due strikes
/// now, while the machine waits in its main loop (the stack above SP is then the main loop's
/// frame and the tick's).
fn before_press(core: &mut Core<'_>, elf: &Elf) {
    if let Some(pick) = slot(core).and_then(|slot| slot.kept.take()) {
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
            let (n, bit) = ((pick % 16) as usize, (pick >> 4) % 32);
            let value = core.register(n).unwrap_or(0) ^ (1 << bit);
            let _ = core.set_register(n, value);
            let name = match n {
                13 => "sp".to_string(),
                14 => "lr".to_string(),
                15 => "pc".to_string(),
                n => format!("r{n}"),
            };
            format!("{name}:bit{bit}")
        }
        GlitchKind::Sram => flip_live_bit(core, elf, pick),
        GlitchKind::Adc => {
            let bit = pick % 12;
            core.state_mut().board.adc_flip = Some(1 << bit);
            format!("adc:bit{bit}")
        }
        // Made at the next press instead ([`before_press`]).
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
    let _ = core.reset();
    let start = core.state().instructions;
    let deadline = start.saturating_add(trial.limit);
    let glitch = trial.glitch.map(|g| (g, start.saturating_add(g.at)));
    core.state_mut().instant = Instant::arm(
        glitch.map_or(deadline, |(_, at)| at.min(deadline)),
        fire,
        Box::new(Slot {
            deadline,
            glitch,
            ..Slot::default()
        }),
    );
    let played = crate::operator::visit(core, elf, emulator::players::perfect_move, before_press);
    let instant = std::mem::take(&mut core.state_mut().instant);
    let reset = instant.first_reset;
    let slot = instant
        .data
        .and_then(|d| d.downcast::<Slot>().ok())
        .map(|slot| *slot)
        .unwrap_or_default();
    core.state_mut().board.adc_flip = None;
    let (pc, target) = slot.hit.map_or((None, None), |(pc, t)| (Some(pc), Some(t)));
    let mut answer = TrialEnd {
        end: End::Verdict,
        instructions: core.state().instructions - start,
        winner: None,
        record: String::new(),
        target,
        pc,
        function: pc.and_then(|pc| elf.function_at(pc).map(|f| f.name.clone())),
    };
    answer.end = match played {
        Err(Stop::Panic { .. }) => End::Panic,
        Err(Stop::Cpu { what, .. }) if what == OUT_OF_TIME => End::Hang,
        Err(_) => End::CoreFault,
        Ok(_) if reset == Some(ResetCause::Watchdog) => End::Watchdog,
        Ok(game) => {
            answer.record = game.record();
            answer.winner = game.winner;
            let shown = core.state().board.leds();
            match game.winner {
                Some(Side::Cut | Side::Short) => End::Verdict,
                None if shown == LedPattern::FAULT => End::SelfCheck,
                None if shown == LedPattern::OFF => End::Hang,
                None => End::Trouble,
            }
        }
    };
    answer
}
