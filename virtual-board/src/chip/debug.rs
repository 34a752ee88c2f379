//! The debug components a debugger probes at attach (ARMv7-M ARM C1.8, C1.11): FPB and DWT,
//! modelled with no comparators (the virtual board has no hardware breakpoints or
//! watchpoints: NUM_CODE = NUM_LIT = 0, NUMCOMP = 0), their control registers stored. They are
//! in the debug domain: a system reset leaves them as they were.

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// A debug unit's control register at offset 0, its other registers not modelled.
#[derive(Debug, Default)]
struct Control {
    ctrl: u32,
}

impl Control {
    fn read(&self, offset: u32) -> Result<u32, Refusal> {
        match offset {
            // The enable bit; the comparator counts read 0.
            0 => Ok(self.ctrl & 1),
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32) -> Result<Event, Refusal> {
        match offset {
            0 => self.ctrl = value,
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }
}

/// The Flash Patch and Breakpoint unit (FP_CTRL at 0xE000_2000).
#[derive(Debug, Default)]
pub struct Fpb(Control);

/// The Data Watchpoint and Trace unit (DWT_CTRL at 0xE000_1000).
#[derive(Debug, Default)]
pub struct Dwt(Control);

impl Peripheral for Fpb {
    fn register(&self, offset: u32) -> Option<&'static str> {
        match offset {
            0 => Some("CTRL"),
            4 => Some("REMAP"),
            _ => None,
        }
    }
    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        self.0.read(offset)
    }
    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        self.0.write(offset, value)
    }
    fn reset(&mut self) {}
}

impl Peripheral for Dwt {
    fn register(&self, offset: u32) -> Option<&'static str> {
        match offset {
            0 => Some("CTRL"),
            4 => Some("CYCCNT"),
            _ => None,
        }
    }
    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        self.0.read(offset)
    }
    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        self.0.write(offset, value)
    }
    fn reset(&mut self) {}
}
