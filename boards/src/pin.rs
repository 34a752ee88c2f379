//! Pins, named the way the board's pinout prints them.

use core::fmt;

/// A pin as printed on the board or in its pinout: `A13`, `D22`, `PA0`.
///
/// ```
/// use boards::{ArduinoPin, Pin, Port};
/// assert_eq!(Pin::Arduino(ArduinoPin::Analog(13)).to_string(), "A13");
/// assert_eq!(Pin::Arduino(ArduinoPin::Digital(22)).to_string(), "D22");
/// assert_eq!(Pin::stm32(Port::A, 0).to_string(), "PA0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Pin {
    /// An Arduino Mega 2560 header pin.
    Arduino(ArduinoPin),
    /// An STM32 GPIO, named by port letter and bit.
    Stm32 {
        /// GPIO port.
        port: Port,
        /// Bit in the port, 0..=15.
        number: u8,
    },
}

/// An Arduino Mega 2560 header pin, numbered as the Arduino core numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ArduinoPin {
    /// `A0`..=`A15`: the analog header (ADC0..=ADC15 on ports F and K).
    Analog(u8),
    /// `D0`..=`D69`: the digital headers, and `D54`..=`D69` as the analog header's other name.
    Digital(u8),
}

/// An STM32 GPIO port of the STM32F446RE in LQFP64 (ports E, F and G are not bonded out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Port {
    /// GPIOA.
    A,
    /// GPIOB.
    B,
    /// GPIOC.
    C,
    /// GPIOD (only PD2 in LQFP64).
    D,
    /// GPIOH (PH0/PH1, the HSE pins).
    H,
}

/// A logic level: which level means "active" for a button or an LED.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Level {
    /// Active at 0 V.
    Low,
    /// Active at the supply.
    High,
}

/// A pin wired to the ADC, with the converter channel it is multiplexed to.
///
/// The channel is data, not derived, because it is what the firmware programs into the ADC
/// and the mapping differs per MCU (ATmega2560: `A13` is ADC13; STM32F446: `PC1` is ADC1_IN11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AnalogInput {
    /// The header pin.
    pub pin: Pin,
    /// ADC input channel.
    pub channel: u8,
}

/// Which family of pin names a pin belongs to; a profile must not mix them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PinFamily {
    /// Arduino Mega 2560 header names.
    Arduino,
    /// STM32 port names.
    Stm32,
}

impl ArduinoPin {
    /// Digital number of `A0` on the Mega: the analog header doubles as `D54`..=`D69`
    /// (Arduino Mega 2560 pinout), so `A1` and `D55` are the same pin.
    pub const ANALOG_BASE: u8 = 54;

    /// The digital number of this pin, under which `A1` and `D55` are equal.
    ///
    /// ```
    /// use boards::ArduinoPin;
    /// assert_eq!(ArduinoPin::Analog(1).digital_number(), 55);
    /// assert_eq!(ArduinoPin::Digital(8).digital_number(), 8);
    /// ```
    pub const fn digital_number(self) -> u8 {
        match self {
            ArduinoPin::Analog(n) => Self::ANALOG_BASE.saturating_add(n),
            ArduinoPin::Digital(n) => n,
        }
    }
}

impl ArduinoPin {
    /// Whether the pin can be read by the ADC: the analog header under either name.
    ///
    /// ```
    /// use boards::ArduinoPin;
    /// assert!(ArduinoPin::Analog(3).is_analog());
    /// assert!(ArduinoPin::Digital(57).is_analog()); // A3
    /// assert!(!ArduinoPin::Digital(8).is_analog());
    /// ```
    pub const fn is_analog(self) -> bool {
        self.digital_number() >= Self::ANALOG_BASE
    }
}

impl Pin {
    /// An STM32 GPIO; `const` so that board tables stay plain data.
    pub const fn stm32(port: Port, number: u8) -> Pin {
        Pin::Stm32 { port, number }
    }

    /// Whether two names denote the same physical pin (`A1` and `D55` on the Mega do).
    ///
    /// ```
    /// use boards::{ArduinoPin, Pin};
    /// let a1 = Pin::Arduino(ArduinoPin::Analog(1));
    /// assert!(a1.same_pin(Pin::Arduino(ArduinoPin::Digital(55))));
    /// assert!(!a1.same_pin(Pin::Arduino(ArduinoPin::Digital(1))));
    /// ```
    pub fn same_pin(self, other: Pin) -> bool {
        match (self, other) {
            (Pin::Arduino(a), Pin::Arduino(b)) => a.digital_number() == b.digital_number(),
            _ => self == other,
        }
    }

    /// Which family of names this pin uses.
    pub fn family(self) -> PinFamily {
        match self {
            Pin::Arduino(_) => PinFamily::Arduino,
            Pin::Stm32 { .. } => PinFamily::Stm32,
        }
    }

    /// Whether the pin exists: `A0`..=`A15`, `D0`..=`D69`, or bit 0..=15 of a port.
    ///
    /// ```
    /// use boards::{ArduinoPin, Pin, Port};
    /// assert!(Pin::Arduino(ArduinoPin::Analog(15)).exists());
    /// assert!(Pin::Arduino(ArduinoPin::Digital(69)).exists()); // A15's other name
    /// assert!(!Pin::Arduino(ArduinoPin::Digital(70)).exists());
    /// assert!(!Pin::stm32(Port::B, 16).exists());
    /// ```
    pub fn exists(self) -> bool {
        match self {
            Pin::Arduino(ArduinoPin::Analog(n)) => n <= 15,
            Pin::Arduino(ArduinoPin::Digital(n)) => n <= ArduinoPin::ANALOG_BASE + 15,
            Pin::Stm32 { number, .. } => number <= 15,
        }
    }
}

impl fmt::Display for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Pin::Arduino(ArduinoPin::Analog(n)) => write!(f, "A{n}"),
            Pin::Arduino(ArduinoPin::Digital(n)) => write!(f, "D{n}"),
            Pin::Stm32 { port, number } => write!(f, "P{port}{number}"),
        }
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Port::A => "A",
            Port::B => "B",
            Port::C => "C",
            Port::D => "D",
            Port::H => "H",
        })
    }
}
