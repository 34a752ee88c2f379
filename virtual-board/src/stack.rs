//! The deepest stack the firmware reached: the lowest SP seen at an instruction block's start
//! and the function that block belongs to. A frame's `push`/`sub sp` open the function's first
//! block, so the next block start inside the function (any branch or call) sees the whole
//! frame; what a leaf pushes and pops within one block is missed (a few words at most).
//!
//! Wired by one line in the core's block hook (`deepest.observe(sp, pc)`), kept out of the
//! core so the measurement costs nothing unless asked for (`VIRTUAL_BOARD_STACK`).

use crate::chip::FLASH;
use crate::elf::Elf;

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
