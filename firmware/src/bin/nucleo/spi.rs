//! SPI2 as an embedded-hal bus for the edge fixture: master, mode 1 (the ADG714 latches DIN on
//! SCLK's falling edge), 8-bit, MSB first, software slave select (SYNC is a GPIO).

use boards::EdgeFixture;
use core::convert::Infallible;
use embedded_hal::spi::{ErrorType, SpiBus};
use stm32f4xx_hal::pac;
use stm32f4xx_hal::rcc::Rcc;

use crate::gpio::Gpio;

/// SPI2's alternate function on PB13/PB14/PB15 (DS10693, alternate function mapping: AF5).
const SPI2_AF: u8 = 5;

/// SPI2, blocking.
pub struct Spi2 {
    spi: pac::SPI2,
}

impl Spi2 {
    /// Routes the fixture's SCK, MOSI and MISO to SPI2 and enables it at APB1 / 2^`divider_log2`.
    pub fn new(
        spi: pac::SPI2,
        gpio: &Gpio,
        fixture: &EdgeFixture,
        divider_log2: u8,
        rcc: &mut Rcc,
    ) -> Spi2 {
        rcc.apb1enr().modify(|_, w| w.spi2en().set_bit());
        for pin in [Some(fixture.sck), Some(fixture.mosi), fixture.miso]
            .into_iter()
            .flatten()
        {
            gpio.alternate(pin, SPI2_AF);
        }
        spi.cr1().write(|w| {
            w.mstr().set_bit();
            w.cpol().clear_bit();
            w.cpha().set_bit();
            w.br().set(divider_log2.clamp(1, 8) - 1);
            w.ssm().set_bit();
            w.ssi().set_bit();
            w.spe().set_bit()
        });
        Spi2 { spi }
    }

    fn exchange(&mut self, out: u8) -> u8 {
        while self.spi.sr().read().txe().bit_is_clear() {}
        self.spi.dr().write(|w| w.dr().set(u16::from(out)));
        while self.spi.sr().read().rxne().bit_is_clear() {}
        self.spi.dr().read().dr().bits() as u8
    }
}

impl ErrorType for Spi2 {
    type Error = Infallible;
}

impl SpiBus for Spi2 {
    fn read(&mut self, words: &mut [u8]) -> Result<(), Infallible> {
        for word in words {
            *word = self.exchange(0);
        }
        Ok(())
    }

    fn write(&mut self, words: &[u8]) -> Result<(), Infallible> {
        for &word in words {
            self.exchange(word);
        }
        Ok(())
    }

    fn transfer(&mut self, read: &mut [u8], write: &[u8]) -> Result<(), Infallible> {
        let n = read.len().max(write.len());
        for i in 0..n {
            let byte = self.exchange(write.get(i).copied().unwrap_or(0));
            if let Some(slot) = read.get_mut(i) {
                *slot = byte;
            }
        }
        Ok(())
    }

    fn transfer_in_place(&mut self, words: &mut [u8]) -> Result<(), Infallible> {
        for word in words {
            *word = self.exchange(*word);
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        while self.spi.sr().read().bsy().bit_is_set() {}
        Ok(())
    }
}
