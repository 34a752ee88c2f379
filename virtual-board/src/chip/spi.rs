//! SPI2 (RM0390 section 26.7) as a master that exchanges a frame the moment DR is written
//! (TXE stays set, RXNE rises with the byte from MISO). What is behind its pins is the board's
//! (the ADG714 chain, [`crate::board::adg714`]).

use super::peripheral::{Bus, Event, Peripheral};
use super::rcc::{self, Enable};
use super::reg::{self, Regs};
use crate::stop::Refusal;

const CR1: u32 = 0x00;
const SR: u32 = 0x08;
const DR: u32 = 0x0C;

const REGISTERS: &[(u32, &str, u32)] = &[
    (CR1, "CR1", 0),
    (0x04, "CR2", 0),
    (SR, "SR", 0x0002),
    (DR, "DR", 0),
    (0x10, "CRCPR", 7),
    (0x1C, "I2SCFGR", 0),
    (0x20, "I2SPR", 2),
];

/// SR.RXNE.
const RXNE: u32 = 1;
/// CR1.SPE.
const SPE: u32 = 1 << 6;
/// CR1.MSTR.
const MSTR: u32 = 1 << 2;

/// What a write asks the board to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing.
    None,
    /// Shift this frame out on MOSI (and one in from MISO: [`Spi::received`]).
    Transfer(u16),
}

/// SPI2.
#[derive(Debug)]
pub struct Spi {
    regs: Regs,
}

impl Default for Spi {
    fn default() -> Self {
        Spi {
            regs: Regs::new(REGISTERS),
        }
    }
}

impl Peripheral for Spi {
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(REGISTERS, offset)
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        Spi::read(self, offset)
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        Ok(match Spi::write(self, offset, value)? {
            Effect::Transfer(frame) => Event::Transfer(frame),
            Effect::None => Event::None,
        })
    }

    fn reset(&mut self) {
        *self = Spi::default();
    }

    fn clock(&self) -> Option<Enable> {
        Some(rcc::SPI2EN)
    }

    fn half_words(&self) -> bool {
        true
    }
}

impl Spi {
    /// Reads a register.
    pub fn read(&mut self, offset: u32) -> Result<u32, Refusal> {
        let value = self.regs.get(offset)?;
        if offset == DR {
            self.regs.set(SR, self.regs.peek(SR) & !RXNE)?;
        }
        Ok(value)
    }

    /// Writes a register.
    pub fn write(&mut self, offset: u32, value: u32) -> Result<Effect, Refusal> {
        match offset {
            DR => Ok(Effect::Transfer(value as u16)),
            // Only the error flags are written, clear-by-0; TXE/RXNE/BSY are read-only.
            SR => Ok(Effect::None),
            _ => self.regs.set(offset, value).map(|()| Effect::None),
        }
    }

    /// The frame that came in on MISO.
    pub fn received(&mut self, frame: u16) -> Result<(), Refusal> {
        self.regs.set(DR, u32::from(frame))?;
        self.regs.set(SR, self.regs.peek(SR) | RXNE)
    }

    /// Whether SPE and MSTR are set.
    pub fn master_enabled(&self) -> bool {
        self.regs.peek(CR1) & (SPE | MSTR) == SPE | MSTR
    }

    /// CR1 as it stands.
    pub fn cr1(&self) -> u32 {
        self.regs.peek(CR1)
    }

    /// The clock mode (CPOL, CPHA): the ADG714 latches DIN on SCLK's falling edge, which
    /// modes 1 (0, 1) and 2 (1, 0) give.
    pub fn mode(&self) -> (bool, bool) {
        let cr1 = self.regs.peek(CR1);
        (cr1 & 2 != 0, cr1 & 1 != 0)
    }

    /// 16-bit frames (DFF) and LSB first.
    pub fn frame(&self) -> (bool, bool) {
        let cr1 = self.regs.peek(CR1);
        (cr1 & (1 << 11) != 0, cr1 & (1 << 7) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_dr_clears_rxne_and_txe_stays_set() {
        let mut spi = Spi::default();
        assert_eq!(spi.write(DR, 0x5A).unwrap(), Effect::Transfer(0x5A));
        spi.received(0x3C).unwrap();
        assert_eq!(spi.read(SR).unwrap() & 0b11, 0b11);
        assert_eq!(spi.read(DR).unwrap(), 0x3C);
        assert_eq!(spi.read(SR).unwrap() & 0b11, 0b10);
    }
}
