//! A GPIO port (RM0390 section 8.4): mode, type, speed, pulls, alternate functions, the output
//! latch (ODR, written whole or bit by bit through BSRR) and the input data register: an output
//! reads its latch, an input the level the world outside drives on it ([`Outside`], set by the
//! board's devices: the button), else its pull.

use boards::Port;

use super::peripheral::{Bus, Event, Peripheral};
use super::rcc::{self, Enable};
use super::reg::{self, Regs};
use crate::stop::Refusal;

const MODER: u32 = 0x00;
const OTYPER: u32 = 0x04;
const OSPEEDR: u32 = 0x08;
const PUPDR: u32 = 0x0C;
/// The input data register.
const IDR: u32 = 0x10;
const ODR: u32 = 0x14;
const BSRR: u32 = 0x18;
const AFRL: u32 = 0x20;
const AFRH: u32 = 0x24;

/// Port A's reset values (RM0390 8.4: the SWD pins PA13/PA14 in AF, their pulls).
const PORT_A: &[(u32, &str, u32)] = &[
    (MODER, "MODER", 0xA800_0000),
    (OTYPER, "OTYPER", 0),
    (OSPEEDR, "OSPEEDR", 0x0C00_0000),
    (PUPDR, "PUPDR", 0x6400_0000),
    (ODR, "ODR", 0),
    (AFRL, "AFRL", 0),
    (AFRH, "AFRH", 0),
];
/// Port B's (PB3/PB4 in AF: SWO, NJTRST).
const PORT_B: &[(u32, &str, u32)] = &[
    (MODER, "MODER", 0x0000_0280),
    (OTYPER, "OTYPER", 0),
    (OSPEEDR, "OSPEEDR", 0x0000_00C0),
    (PUPDR, "PUPDR", 0x0000_0100),
    (ODR, "ODR", 0),
    (AFRL, "AFRL", 0),
    (AFRH, "AFRH", 0),
];
/// The other ports'.
const PORT_OTHER: &[(u32, &str, u32)] = &[
    (MODER, "MODER", 0),
    (OTYPER, "OTYPER", 0),
    (OSPEEDR, "OSPEEDR", 0),
    (PUPDR, "PUPDR", 0),
    (ODR, "ODR", 0),
    (AFRL, "AFRL", 0),
    (AFRH, "AFRH", 0),
];

/// A pin's mode (MODER, RM0390 8.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// 00.
    Input,
    /// 01.
    Output,
    /// 10.
    Alternate,
    /// 11.
    Analog,
}

impl Mode {
    /// MODER's two bits as the reference manual writes them.
    pub fn bits(self) -> &'static str {
        match self {
            Mode::Input => "00 (input)",
            Mode::Output => "01 (output)",
            Mode::Alternate => "10 (alternate function)",
            Mode::Analog => "11 (analog)",
        }
    }
}

/// A pin's pull (PUPDR, RM0390 8.4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pull {
    /// 00.
    None,
    /// 01.
    Up,
    /// 10 (11 is reserved; taken as down).
    Down,
}

/// What the world outside the chip does to an input pin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outside {
    /// Drives it to a level (`true`: high), whatever its pull.
    Drives(bool),
    /// Leaves it to its pull; with no pull it reads this level.
    Floats(bool),
}

/// One port.
#[derive(Debug)]
pub struct Gpio {
    /// Which port.
    pub port: Port,
    regs: Regs,
    /// Each pin's outside (not the chip's: a reset keeps it); a pin nothing touches floats low.
    outside: [Outside; 16],
}

impl Gpio {
    /// Port `port` at reset.
    pub fn new(port: Port) -> Gpio {
        Gpio {
            port,
            regs: Regs::new(Self::table(port)),
            outside: [Outside::Floats(false); 16],
        }
    }

    fn table(port: Port) -> &'static [(u32, &'static str, u32)] {
        match port {
            Port::A => PORT_A,
            Port::B => PORT_B,
            _ => PORT_OTHER,
        }
    }

    /// What the world outside does to pin `n` from now on.
    pub fn set_outside(&mut self, n: u8, outside: Outside) {
        self.outside[usize::from(n)] = outside;
    }

    /// IDR: an output reads its latch, an input what is outside (the button, else its pull;
    /// a floating pin reads its outside's idle level), analog and alternate pins 0 (RM0390,
    /// I/O port configurations).
    fn idr(&self) -> u32 {
        let mut idr = 0;
        for n in 0..16u8 {
            let high = match self.mode(n) {
                Mode::Output => self.odr(n),
                Mode::Input => match (self.outside[usize::from(n)], self.pull(n)) {
                    (Outside::Drives(level), _) => level,
                    (Outside::Floats(_), Pull::Up) => true,
                    (Outside::Floats(_), Pull::Down) => false,
                    // Floating: the model reads the idle level; a real pin would wander.
                    (Outside::Floats(level), Pull::None) => level,
                },
                Mode::Alternate | Mode::Analog => false,
            };
            idr |= u32::from(high) << n;
        }
        idr
    }

    /// Pin `n`'s mode.
    pub fn mode(&self, n: u8) -> Mode {
        match (self.regs.peek(MODER) >> (2 * n)) & 0b11 {
            0 => Mode::Input,
            1 => Mode::Output,
            2 => Mode::Alternate,
            _ => Mode::Analog,
        }
    }

    /// MODER as it stands, for a fault's message.
    pub fn moder(&self) -> u32 {
        self.regs.peek(MODER)
    }

    /// Pin `n`'s pull.
    pub fn pull(&self, n: u8) -> Pull {
        match (self.regs.peek(PUPDR) >> (2 * n)) & 0b11 {
            0 => Pull::None,
            1 => Pull::Up,
            _ => Pull::Down,
        }
    }

    /// Pin `n`'s alternate function number (AFRL/AFRH).
    pub fn af(&self, n: u8) -> u8 {
        let (reg, shift) = if n < 8 {
            (AFRL, 4 * n)
        } else {
            (AFRH, 4 * (n - 8))
        };
        ((self.regs.peek(reg) >> shift) & 0xF) as u8
    }

    /// The output latch of pin `n`.
    pub fn odr(&self, n: u8) -> bool {
        self.regs.peek(ODR) & (1 << n) != 0
    }

    /// Reads a register.
    pub fn read(&mut self, offset: u32) -> Result<u32, Refusal> {
        match offset {
            // BSRR is write-only and reads 0 (RM0390 8.4.7).
            BSRR => Ok(0),
            IDR => Ok(self.idr()),
            _ => self.regs.get(offset),
        }
    }

    /// Writes a register; returns the ODR before, to find the pins that changed.
    pub fn write(&mut self, offset: u32, value: u32) -> Result<u32, Refusal> {
        let before = self.regs.peek(ODR);
        match offset {
            // Set bits 0..15, reset bits 16..31; set wins (RM0390 8.4.7).
            BSRR => {
                let odr = (before & !(value >> 16)) | (value & 0xFFFF);
                self.regs.set(ODR, odr)?;
            }
            // IDR is read-only: a write is ignored, as on the chip.
            IDR => {}
            ODR => self.regs.set(ODR, value & 0xFFFF)?,
            _ => self.regs.set(offset, value)?,
        }
        Ok(before)
    }
}

impl Peripheral for Gpio {
    fn register(&self, offset: u32) -> Option<&'static str> {
        match offset {
            IDR => Some("IDR"),
            BSRR => Some("BSRR"),
            _ => reg::name(PORT_OTHER, offset),
        }
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        Gpio::read(self, offset)
    }

    /// Every write reports the output latch before it: the board finds what changed.
    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        let before = Gpio::write(self, offset, value)?;
        Ok(Event::Outputs(self.port, before))
    }

    fn reset(&mut self) {
        self.regs = Regs::new(Self::table(self.port));
    }

    fn clock(&self) -> Option<Enable> {
        Some(rcc::gpio_en(crate::chip::port_index(self.port)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bsrr_sets_and_resets_odr_bits_and_set_wins() {
        let mut c = Gpio::new(Port::C);
        c.write(BSRR, 1 << 6 | 1 << 13).unwrap();
        assert!(c.odr(6) && c.odr(13));
        c.write(BSRR, 1 << (16 + 6)).unwrap();
        assert!(!c.odr(6) && c.odr(13));
        c.write(BSRR, 1 << (16 + 13) | 1 << 13).unwrap();
        assert!(c.odr(13));
        assert_eq!(c.read(BSRR).unwrap(), 0);
    }

    #[test]
    fn the_swd_pins_start_in_alternate_mode_and_lckr_is_not_modelled() {
        let mut a = Gpio::new(Port::A);
        assert_eq!(a.mode(13), Mode::Alternate);
        assert_eq!(a.mode(0), Mode::Input);
        assert!(matches!(a.read(0x1C), Err(Refusal::Unmodelled(_))));
    }

    #[test]
    fn an_input_reads_what_drives_it_else_its_pull_else_its_idle_level() {
        let mut c = Gpio::new(Port::C);
        c.set_outside(13, Outside::Floats(true));
        assert_eq!(c.read(IDR).unwrap(), 1 << 13, "floating, idle high");
        c.write(PUPDR, 0b10 << 26).unwrap();
        assert_eq!(c.read(IDR).unwrap(), 0, "pulled down");
        c.set_outside(13, Outside::Drives(true));
        assert_eq!(c.read(IDR).unwrap(), 1 << 13, "driven high over the pull");
        c.write(PUPDR, 0b01 << 4).unwrap();
        assert_eq!(c.read(IDR).unwrap(), 1 << 13 | 1 << 2, "PC2 pulled up");
    }
}
