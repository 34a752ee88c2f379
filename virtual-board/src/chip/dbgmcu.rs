//! The STM32's debug MCU block (RM0390 33.16): IDCODE and CR, read and written by a debugger,
//! and APB1_FZ, whose DBG_IWDG_STOP the firmware sets.
//! It is in the debug domain: a system reset leaves it as it was.

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

const IDCODE: u32 = 0x00;
const CR: u32 = 0x04;
const APB1_FZ: u32 = 0x08;
/// IDCODE's value: DEV_ID 0x421 (STM32F446), REV_ID 0x1000 (RM0390 33.6.1).
const IDCODE_VALUE: u32 = 0x1000_6421;

const NAMES: &[(u32, &str, u32)] = &[
    (IDCODE, "IDCODE", IDCODE_VALUE),
    (CR, "CR", 0),
    (APB1_FZ, "APB1_FZ", 0),
    (0x0C, "APB2_FZ", 0),
];

/// DBGMCU.
#[derive(Debug, Default)]
pub struct Dbgmcu {
    cr: u32,
    /// APB1_FZ: DBG_IWDG_STOP (bit 12) among the freeze bits (RM0390 33.16.4).
    apb1_fz: u32,
}

impl Peripheral for Dbgmcu {
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(NAMES, offset)
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        match offset {
            IDCODE => Ok(IDCODE_VALUE),
            CR => Ok(self.cr),
            APB1_FZ => Ok(self.apb1_fz),
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        match offset {
            CR => self.cr = value,
            // Stored as written; the IWDG stands still in a halt anyway ([`super::iwdg`]).
            APB1_FZ => self.apb1_fz = value,
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }

    /// The debug domain is reset only at power-on.
    fn reset(&mut self) {}
}
