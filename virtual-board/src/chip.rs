//! The STM32F446RE's own facts, from its documents: the memory map (RM0390 2.2), which GPIO
//! each ADC1 channel converts (DS10693 table 10, LQFP64), which pins carry SPI2 on which
//! alternate function (DS10693 table 12) and the ADC's limits (DS10693 table 74 and equation 1).
//! The board's wiring (which pin goes to which node, LED, button) is the profile's, never here.
//!
//! The register models are this module's too, one file each, and [`map`] places them in the
//! address space: one row per block.

use boards::{Pin, Port};

pub mod adc;
pub mod coresight;
pub mod dbgmcu;
pub mod debug;
pub mod flash;
pub mod gpio;
pub mod iwdg;
pub mod map;
pub mod mpu;
pub mod peripheral;
pub mod rcc;
pub mod reg;
pub mod registers;
pub mod scb;
pub mod spi;
pub mod systick;
pub mod unmodelled;

pub use map::Chip;

/// Main flash (RM0390 2.2, table 1): 512 KiB on the STM32F446RE.
pub const FLASH: Region = Region {
    start: 0x0800_0000,
    size: 512 * 1024,
};
/// SRAM1 and SRAM2, contiguous (RM0390 2.3.1): 128 KiB.
pub const SRAM: Region = Region {
    start: 0x2000_0000,
    size: 128 * 1024,
};

/// A block of the address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First address.
    pub start: u32,
    /// Bytes.
    pub size: u32,
}

impl Region {
    /// Whether `address .. address + len` lies inside.
    pub fn holds(&self, address: u32, len: u32) -> bool {
        address >= self.start
            && u64::from(address) + u64::from(len) <= u64::from(self.start) + u64::from(self.size)
    }
}

/// The HSI oscillator (RM0390 6.2.2): 16 MHz.
pub const HSI_HZ: u64 = 16_000_000;

/// The highest ADC clock at VDDA 2.4..3.6 V (DS10693 table 74, f_ADC).
pub const ADC_MAX_HZ: u64 = 36_000_000;
/// The sampling capacitor (DS10693 table 74, C_ADC, typical), in picofarads.
pub const ADC_C_PF: f64 = 4.0;
/// The sampling switch's resistance (DS10693 table 74, R_ADC, max), in ohms.
pub const ADC_R_OHMS: f64 = 6_000.0;

/// The largest source resistance ADC1 settles to within a quarter LSB of `bits` in `cycles`
/// sampling cycles at `adc_hz` (DS10693 equation 1:
/// R_AIN = (k - 0.5) / (f_ADC x C_ADC x ln(2^(N+2))) - R_ADC).
pub fn max_source_ohms(cycles: u32, adc_hz: u64, bits: u32) -> f64 {
    let k = f64::from(cycles);
    let ln = f64::from(bits + 2) * core::f64::consts::LN_2;
    (k - 0.5) / (adc_hz as f64 * ADC_C_PF * 1e-12 * ln) - ADC_R_OHMS
}

/// The GPIO ports bonded on LQFP64 (DS10693 table 10): A, B, C, D (PD2 only) and H (PH0,
/// PH1); E, F and G are not.
pub const PORTS: [Port; 5] = [Port::A, Port::B, Port::C, Port::D, Port::H];

/// A..H as 0..7 (the port's place in the address map and in RCC_AHB1ENR).
pub fn port_index(port: Port) -> u32 {
    match port {
        Port::A => 0,
        Port::B => 1,
        Port::C => 2,
        Port::D => 3,
        Port::H => 7,
    }
}

/// The pin ADC1 converts on `channel` (DS10693 table 10, "additional functions":
/// ADC123_IN0..3 on PA0..PA3, ADC12_IN4..7 on PA4..PA7, ADC12_IN8/9 on PB0/PB1,
/// ADC123_IN10..13 on PC0..PC3, ADC12_IN14/15 on PC4/PC5); channels 16..18 are internal
/// (temperature sensor, VREFINT, VBAT) and have no pin.
pub fn adc1_pin(channel: u8) -> Option<Pin> {
    let (port, number) = match channel {
        0..=7 => (Port::A, channel),
        8 | 9 => (Port::B, channel - 8),
        10..=15 => (Port::C, channel - 10),
        _ => return None,
    };
    Some(Pin::stm32(port, number))
}

/// The ADC1 channel of `pin`, if it has one (the inverse of [`adc1_pin`]).
pub fn adc1_channel(pin: Pin) -> Option<u8> {
    (0..16).find(|&c| adc1_pin(c).is_some_and(|p| p.same_pin(pin)))
}

/// An SPI2 signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpiSignal {
    /// SPI2_SCK.
    Sck,
    /// SPI2_MISO.
    Miso,
    /// SPI2_MOSI.
    Mosi,
}

/// Where SPI2's signals can come out on LQFP64, and on which alternate function (DS10693
/// table 12, "alternate function mapping").
const SPI2_PINS: [(SpiSignal, Port, u8, u8); 9] = [
    (SpiSignal::Sck, Port::B, 10, 5),
    (SpiSignal::Sck, Port::B, 13, 5),
    (SpiSignal::Sck, Port::C, 7, 5),
    (SpiSignal::Sck, Port::A, 9, 5),
    (SpiSignal::Miso, Port::B, 14, 5),
    (SpiSignal::Miso, Port::C, 2, 5),
    (SpiSignal::Mosi, Port::B, 15, 5),
    (SpiSignal::Mosi, Port::C, 3, 5),
    (SpiSignal::Mosi, Port::C, 1, 7),
];

/// The alternate function that puts SPI2's `signal` on `pin`, if the pin can carry it.
pub fn spi2_af(signal: SpiSignal, pin: Pin) -> Option<u8> {
    SPI2_PINS
        .iter()
        .find(|(s, port, number, _)| *s == signal && pin.same_pin(Pin::stm32(*port, *number)))
        .map(|&(_, _, _, af)| af)
}

/// A pin's name as the data sheet writes it (`PC13`).
pub fn pin_name(pin: Pin) -> String {
    match pin {
        Pin::Stm32 { port, number } => format!("P{port:?}{number}"),
        Pin::Arduino(p) => format!("{p:?}"),
    }
}

/// The pin's port and number (an Arduino pin has neither on this chip).
pub fn split(pin: Pin) -> Option<(Port, u8)> {
    match pin {
        Pin::Stm32 { port, number } => Some((port, number)),
        Pin::Arduino(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nucleo_profile_names_the_channel_ds10693_gives_each_of_its_pins() {
        // Checked here against the data sheet's table, independently of the profile's
        // comments: every node pin of the profile has the channel the chip puts on it.
        let pins = &boards::NUCLEO_F446RE.pins;
        for input in pins.nodes.iter().chain([&pins.bottom]) {
            assert_eq!(adc1_channel(input.pin), Some(input.channel), "{input:?}");
        }
    }

    #[test]
    fn internal_channels_have_no_pin_and_pc13_no_channel() {
        assert_eq!(adc1_pin(16), None);
        assert_eq!(adc1_pin(18), None);
        assert_eq!(adc1_channel(Pin::stm32(Port::C, 13)), None);
        assert_eq!(adc1_pin(11), Some(Pin::stm32(Port::C, 1)));
    }

    #[test]
    fn spi2_is_af5_on_pb13_to_pb15_and_nowhere_on_pb12_as_sck() {
        assert_eq!(spi2_af(SpiSignal::Sck, Pin::stm32(Port::B, 13)), Some(5));
        assert_eq!(spi2_af(SpiSignal::Miso, Pin::stm32(Port::B, 14)), Some(5));
        assert_eq!(spi2_af(SpiSignal::Mosi, Pin::stm32(Port::B, 15)), Some(5));
        assert_eq!(spi2_af(SpiSignal::Sck, Pin::stm32(Port::B, 12)), None);
    }

    #[test]
    fn four_hundred_eighty_cycles_at_21_mhz_settle_far_more_than_a_30k_pullup() {
        // DS10693 equation 1 worked by hand (python, not this code): 479.5 / (21e6 x 4e-12 x
        // ln 4096) - 6000 = 680,282 ohms at 10 bits; 15 cycles give 14,753 ohms, too few for
        // the board's 30 kOhm pull-ups, 28 cycles 33,359 ohms, just enough.
        let r = max_source_ohms(480, 21_000_000, 10);
        assert!((r - 680_282.0).abs() < 1.0, "{r}");
        assert!((max_source_ohms(15, 21_000_000, 10) - 14_753.1).abs() < 1.0);
        assert!((max_source_ohms(28, 21_000_000, 10) - 33_359.2).abs() < 1.0);
        assert!(r > 30_000.0);
        // Three cycles settle nothing: the formula goes negative.
        assert!(max_source_ohms(3, 21_000_000, 10) < 0.0);
    }
}
