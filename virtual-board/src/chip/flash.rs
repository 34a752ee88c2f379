//! The flash interface (RM0390 3.8): its access control register (latency, caches, prefetch);
//! RCC reads LATENCY when the clock switches. Programming (KEYR, CR) is not modelled.

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// FLASH_ACR's offset (RM0390 3.8.1).
const ACR: u32 = 0x00;

/// The interface's registers (RM0390 3.8), by offset: only ACR is modelled.
const NAMES: [&str; 6] = ["ACR", "KEYR", "OPTKEYR", "SR", "CR", "OPTCR"];

/// The flash interface.
#[derive(Debug, Default)]
pub struct FlashInterface {
    acr: u32,
}

impl FlashInterface {
    /// ACR.LATENCY: wait states.
    pub fn latency(&self) -> u32 {
        self.acr & 0xF
    }
}

impl Peripheral for FlashInterface {
    fn register(&self, offset: u32) -> Option<&'static str> {
        offset
            .is_multiple_of(4)
            .then(|| NAMES.get((offset / 4) as usize).copied())
            .flatten()
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        match offset {
            ACR => Ok(self.acr),
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        match offset {
            ACR => {
                self.acr = value & 0x1F0F;
                Ok(Event::None)
            }
            _ => Err(reg::unmodelled(offset, Some(value))),
        }
    }

    fn reset(&mut self) {
        self.acr = 0;
    }
}
