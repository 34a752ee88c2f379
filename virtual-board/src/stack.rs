//! The deepest stack the firmware reached: the lowest SP seen at an instruction block's start
//! and the function that block belongs to. A frame's `push`/`sub sp` open the function's first
//! block, so the next block start inside the function (any branch or call) sees the whole
//! frame; what a leaf pushes and pops within one block is missed (a few words at most).
//!
//! Wired by one line in the core's block hook (`deepest.observe(sp, pc)`), kept out of the
//! core so the measurement costs nothing unless asked for (`VIRTUAL_BOARD_STACK`).

use crate::chip::{FLASH, SRAM};
use crate::elf::Elf;
use crate::stop::{Access, Place, Stop};

/// How far an access below SRAM may lie from SP, and SP above SRAM's start, for it to be the
/// stack's: the largest push (`push` of 13 words and `vpush` of 16 doublewords, or an exception
/// frame with the FP context, 104 B) fits well inside.
const STACK_REACH: u32 = 256;

/// The stop for an access to nothing mapped with SP at `sp`: a stack overflow when the access
/// lies below SRAM's start near SP and SP is at SRAM's bottom (or past it, after a `sub sp`),
/// flip-link's layout running out; otherwise an unmodelled access.
pub fn stop_for(access: Access, place: Place, sp: u32) -> Stop {
    let below_sram = access.address < SRAM.start;
    let sp_at_bottom = sp <= SRAM.start + STACK_REACH;
    let near_sp = access.address.saturating_add(STACK_REACH) >= sp;
    if below_sram && sp_at_bottom && near_sp {
        Stop::StackOverflow { access, sp, place }
    } else {
        Stop::Unmodelled { access, place }
    }
}

/// The lowest SP seen and where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deepest {
    /// The lowest SP, and the block start where it was seen (None: nothing observed yet).
    pub lowest: Option<(u32, u32)>,
}

impl Deepest {
    /// Notes SP `sp` at block start `pc`.
    pub fn observe(&mut self, sp: u32, pc: u32) {
        if self.lowest.is_none_or(|(low, _)| sp < low) {
            self.lowest = Some((sp, pc));
        }
    }

    /// `lowest SP 0x2001c758: 12712 bytes below the initial SP 0x2001f900, in <function>`.
    pub fn report(&self, elf: &Elf) -> String {
        let initial_sp = initial_sp(elf);
        let Some((sp, pc)) = self.lowest else {
            return "no instruction ran: no stack used".into();
        };
        let function = elf
            .function_at(pc)
            .map_or_else(|| format!("{pc:#010x}"), |f| f.name.clone());
        format!(
            "lowest SP {sp:#010x}: {} bytes below the initial SP {initial_sp:#010x}, in {function}",
            initial_sp.saturating_sub(sp)
        )
    }
}

/// Writes [`Deepest::report`] to the file `VIRTUAL_BOARD_STACK` names, if measuring: `serve`
/// does at `monitor coverage`, as the bench kills it rather than let it end.
pub fn write_report(elf: &Elf, deepest: &Option<Deepest>) {
    if let (Some(path), Some(d)) = (std::env::var_os("VIRTUAL_BOARD_STACK"), deepest) {
        // Whole or not at all, never through a link (the one writer, `shards::safe`).
        let _ = shards::safe::write_file(
            std::path::Path::new(&path),
            (d.report(elf) + "\n").as_bytes(),
        );
    }
}

/// The initial SP: the vector table's first word, at the start of flash.
fn initial_sp(elf: &Elf) -> u32 {
    elf.segments
        .iter()
        .find(|(at, bytes)| *at == FLASH.start && bytes.len() >= 4)
        .map_or(0, |(_, b)| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn below(address: u32, sp: u32) -> Stop {
        let access = Access {
            address,
            offset: 0,
            peripheral: None,
            register: None,
            written: Some(0),
            size: 4,
        };
        let place = Place {
            pc: 0x0800_0100,
            symbol: None,
            exact: true,
        };
        stop_for(access, place, sp)
    }

    #[test]
    fn a_push_off_the_bottom_of_sram_is_a_stack_overflow() {
        assert_eq!(below(0x1FFF_FFFC, 0x2000_0000).exit_code(), 7);
        // A frame opened past the bottom (`sub sp`), then a store into it.
        assert_eq!(below(0x1FFF_F008, 0x1FFF_F000).exit_code(), 7);
        // SP just above the bottom, a push of many registers crossing it.
        assert_eq!(below(0x1FFF_FFF0, 0x2000_0010).exit_code(), 7);
    }

    #[test]
    fn an_access_below_sram_far_from_sp_is_not_the_stack() {
        // SP in the middle of SRAM: a stray pointer, not an overflow.
        assert_eq!(below(0x1FFF_FFFC, 0x2001_0000).exit_code(), 4);
        // SP at the bottom, but the access far below it.
        assert_eq!(below(0x1000_0000, 0x2000_0000).exit_code(), 4);
        // Above SRAM (a peripheral nobody models), whatever SP.
        assert_eq!(below(0x5000_0000, 0x2000_0000).exit_code(), 4);
    }

    #[test]
    fn the_lowest_sp_wins_and_keeps_its_place() {
        let mut d = Deepest::default();
        d.observe(0x2002_0000, 0x0800_0100);
        d.observe(0x2001_FF00, 0x0800_0200);
        d.observe(0x2001_FF80, 0x0800_0300);
        d.observe(0x2001_FF00, 0x0800_0400);
        assert_eq!(d.lowest, Some((0x2001_FF00, 0x0800_0200)));
    }
}
