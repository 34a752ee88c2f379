//! The debug components a debugger sets (ARMv7-M ARM C1.11 FPB, C1.8 DWT), with the
//! Cortex-M4's comparators: the FPB's 6 code and 2 literal comparators, the DWT's 4
//! (Cortex-M4 TRM 8.3, 8.4). The core turns the enabled ones into its halts
//! ([`crate::cpu::Core::sync_comparators`]): a code comparator halts before the instruction,
//! as a breakpoint; a DWT comparator's data access halts at the end of its block. The literal
//! comparators and FP_REMAP are kept and read back (flash patching is not modelled). Both units
//! are in the debug domain: a system reset leaves them as they were.

use super::coresight::{COMPONENTS, Component, identification};
use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// The FPB's code comparators (FP_CTRL.NUM_CODE) and literal ones (NUM_LIT) on the Cortex-M4.
pub const FPB_CODE: usize = 6;
/// See [`FPB_CODE`].
pub const FPB_LIT: usize = 2;
/// The DWT's comparators (DWT_CTRL.NUMCOMP) on the Cortex-M4.
pub const DWT_COMPARATORS: usize = 4;

fn component(name: &str) -> &'static Component {
    COMPONENTS
        .iter()
        .find(|c| c.name == name)
        .expect("in the table")
}

/// The Flash Patch and Breakpoint unit (FP_CTRL at 0xE000_2000).
#[derive(Debug, Default)]
pub struct Fpb {
    enable: bool,
    remap: u32,
    comparators: [u32; FPB_CODE + FPB_LIT],
    /// Counts the writes that may change the breakpoints, so the core re-reads them only then.
    pub generation: u64,
}

impl Fpb {
    /// The addresses the enabled code comparators halt at (C1.11.5: COMP[28:2] with REPLACE
    /// picking the lower half-word, the upper, or both).
    pub fn breakpoints(&self) -> Vec<u32> {
        if !self.enable {
            return Vec::new();
        }
        let mut at = Vec::new();
        for comp in &self.comparators[..FPB_CODE] {
            if comp & 1 == 0 {
                continue;
            }
            let base = comp & 0x1FFF_FFFC;
            match comp >> 30 {
                1 => at.push(base),
                2 => at.push(base + 2),
                3 => at.extend([base, base + 2]),
                _ => {}
            }
        }
        at
    }
}

impl Peripheral for Fpb {
    fn register(&self, offset: u32) -> Option<&'static str> {
        const COMP: [&str; 8] = [
            "COMP0", "COMP1", "COMP2", "COMP3", "COMP4", "COMP5", "COMP6", "COMP7",
        ];
        match offset {
            0 => Some("CTRL"),
            4 => Some("REMAP"),
            0x08..=0x24 => Some(COMP[(offset as usize - 8) / 4]),
            0xFA0..=0xFFC => Some("ID"),
            _ => None,
        }
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        if let Some(id) = identification(component("FPB"), offset) {
            return Ok(id);
        }
        match offset {
            // NUM_CODE[3:0] in 7:4, NUM_LIT in 11:8, NUM_CODE[6:4] in 14:12 (C1.11.3).
            0 => Ok(u32::from(self.enable) | (FPB_CODE as u32) << 4 | (FPB_LIT as u32) << 8),
            // RMPSPT: remapping supported (C1.11.4).
            4 => Ok(self.remap | 1 << 29),
            0x08..=0x24 if offset.is_multiple_of(4) => {
                Ok(self.comparators[(offset as usize - 8) / 4])
            }
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        match offset {
            // ENABLE is written only with KEY set (C1.11.3).
            0 if value & 2 != 0 => self.enable = value & 1 != 0,
            0 => {}
            4 => self.remap = value & 0x1FFF_FFE0,
            0x08..=0x24 if offset.is_multiple_of(4) => {
                self.comparators[(offset as usize - 8) / 4] = value & 0xDFFF_FFFD;
            }
            _ if identification(component("FPB"), offset).is_some() => {}
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        self.generation += 1;
        Ok(Event::None)
    }

    fn reset(&mut self) {}
}

/// A DWT comparator's data access to watch: address, length, reads, writes.
pub type Watch = (u32, u32, bool, bool);

/// The Data Watchpoint and Trace unit (DWT_CTRL at 0xE000_1000).
#[derive(Debug, Default)]
pub struct Dwt {
    ctrl: u32,
    cyccnt: u32,
    comp: [u32; DWT_COMPARATORS],
    mask: [u32; DWT_COMPARATORS],
    function: [u32; DWT_COMPARATORS],
    /// See [`Fpb::generation`].
    pub generation: u64,
}

impl Dwt {
    /// The data accesses the comparators watch (C1.8.17: FUNCTION 5 reads, 6 writes, 7
    /// both; MASK the ignored low address bits).
    pub fn watches(&self) -> Vec<Watch> {
        (0..DWT_COMPARATORS)
            .filter_map(|i| {
                let (read, write) = match self.function[i] & 0xF {
                    5 => (true, false),
                    6 => (false, true),
                    7 => (true, true),
                    _ => return None,
                };
                let len = 1u32 << self.mask[i].min(15);
                Some((self.comp[i] & !(len - 1), len, read, write))
            })
            .collect()
    }

    /// The comparator watching `address` matched: FUNCTION.MATCHED set (C1.8.17).
    pub fn matched(&mut self, address: u32) {
        for i in 0..DWT_COMPARATORS {
            let len = 1u32 << self.mask[i].min(15);
            let at = self.comp[i] & !(len - 1);
            let watching = matches!(self.function[i] & 0xF, 5..=7);
            if watching && (at..at.saturating_add(len)).contains(&address) {
                self.function[i] |= 1 << 24;
            }
        }
    }
}

impl Peripheral for Dwt {
    fn register(&self, offset: u32) -> Option<&'static str> {
        match offset {
            0 => Some("CTRL"),
            4 => Some("CYCCNT"),
            0x20..=0x5C => {
                Some(["COMP", "MASK", "FUNCTION", "reserved"][(offset as usize / 4) % 4])
            }
            0xFA0..=0xFFC => Some("ID"),
            _ => None,
        }
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        if let Some(id) = identification(component("DWT"), offset) {
            return Ok(id);
        }
        let i = (offset as usize).wrapping_sub(0x20) / 16;
        match offset {
            // NUMCOMP in 31:28 (C1.8.7).
            0 => Ok(self.ctrl | (DWT_COMPARATORS as u32) << 28),
            4 => Ok(self.cyccnt),
            0x20..=0x5C if offset.is_multiple_of(16) => Ok(self.comp[i]),
            0x20..=0x5C if offset % 16 == 4 => Ok(self.mask[i]),
            // MATCHED is cleared by the read that sees it.
            0x20..=0x5C if offset % 16 == 8 => {
                let value = self.function[i];
                self.function[i] &= !(1 << 24);
                Ok(value)
            }
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        let i = (offset as usize).wrapping_sub(0x20) / 16;
        match offset {
            0 => self.ctrl = value & 0x0FFF_FFFF,
            4 => self.cyccnt = value,
            0x20..=0x5C if offset.is_multiple_of(16) => self.comp[i] = value,
            0x20..=0x5C if offset % 16 == 4 => self.mask[i] = value & 0x1F,
            0x20..=0x5C if offset % 16 == 8 => self.function[i] = value & 0x000F_0FAF,
            _ if identification(component("DWT"), offset).is_some() => {}
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        self.generation += 1;
        Ok(Event::None)
    }

    fn reset(&mut self) {}
}

/// The Instrumentation Trace Macrocell (0xE000_0000, ARMv7-M ARM C1.7): TER, TPR and TCR
/// kept and read back, as a debugger sets them up; a stimulus port reads ready and what is
/// written there goes nowhere (no SWO pin is modelled).
#[derive(Debug, Default)]
pub struct Itm {
    ter: u32,
    tpr: u32,
    tcr: u32,
}

impl Peripheral for Itm {
    fn register(&self, offset: u32) -> Option<&'static str> {
        match offset {
            0x000..=0x07C => Some("STIM"),
            0xE00 => Some("TER"),
            0xE40 => Some("TPR"),
            0xE80 => Some("TCR"),
            0xFA0..=0xFFC => Some("ID"),
            _ => None,
        }
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        if let Some(id) = identification(component("ITM"), offset) {
            return Ok(id);
        }
        match offset {
            // FIFOREADY: a write would be taken (C1.7.3).
            0x000..=0x07C => Ok(1),
            0xE00 => Ok(self.ter),
            0xE40 => Ok(self.tpr),
            0xE80 => Ok(self.tcr),
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        match offset {
            0x000..=0x07C => {}
            0xE00 => self.ter = value,
            0xE40 => self.tpr = value & 0xF,
            0xE80 => self.tcr = value & 0x00FF_FF1F,
            _ if identification(component("ITM"), offset).is_some() => {}
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }

    fn reset(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp_ctrl_counts_six_code_and_two_literal_comparators_and_needs_its_key() {
        // ARMv7-M ARM C1.11.3; Cortex-M4 TRM 8.4: 6 instruction, 2 literal comparators.
        let mut fpb = Fpb::default();
        let mut bus = Bus::new(0, &[]);
        assert_eq!(fpb.read(0, &mut bus).unwrap(), 0x260);
        fpb.write(0, 1, &mut bus).unwrap();
        assert_eq!(fpb.read(0, &mut bus).unwrap() & 1, 0, "no KEY: ignored");
        fpb.write(0, 3, &mut bus).unwrap();
        assert_eq!(fpb.read(0, &mut bus).unwrap() & 1, 1);
        // COMP0 on the lower half-word of 0x0800_0100, COMP1 on both halves of 0x0800_0200,
        // COMP6 (literal) never a breakpoint.
        fpb.write(0x08, 0x4800_0101, &mut bus).unwrap();
        fpb.write(0x0C, 0xC800_0201, &mut bus).unwrap();
        fpb.write(0x20, 0x4800_0301, &mut bus).unwrap();
        assert_eq!(fpb.breakpoints(), [0x0800_0100, 0x0800_0200, 0x0800_0202]);
        fpb.write(0, 2, &mut bus).unwrap();
        assert!(fpb.breakpoints().is_empty(), "the unit disabled");
    }

    #[test]
    fn dwt_has_four_comparators_and_matched_clears_on_read() {
        // C1.8.7 (NUMCOMP), C1.8.17 (FUNCTION, MATCHED).
        let mut dwt = Dwt::default();
        let mut bus = Bus::new(0, &[]);
        assert_eq!(dwt.read(0, &mut bus).unwrap() >> 28, 4);
        dwt.write(0x30, 0x2000_0100, &mut bus).unwrap(); // COMP1
        dwt.write(0x34, 2, &mut bus).unwrap(); // MASK1: 4 bytes
        dwt.write(0x38, 6, &mut bus).unwrap(); // FUNCTION1: writes
        assert_eq!(dwt.watches(), [(0x2000_0100, 4, false, true)]);
        dwt.matched(0x2000_0102);
        assert_ne!(dwt.read(0x38, &mut bus).unwrap() & (1 << 24), 0);
        assert_eq!(dwt.read(0x38, &mut bus).unwrap() & (1 << 24), 0);
    }
}
