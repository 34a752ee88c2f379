//! A board fault, in the words `virtual-board --fault` takes: `no-fixture`, `adc-open:PA0`,
//! `adc-stuck:PC1:1023`, ...

use core::fmt;
use core::str::FromStr;
use std::string::{String, ToString};
use std::vec::Vec;

use crate::{Pin, Port};

/// What a real board can get wrong, made by the virtual board at register level.
///
/// ```
/// use boards::virtual_board::BoardFault;
/// use boards::{Pin, Port};
/// let fault: BoardFault = "adc-stuck:PC1:1023".parse().unwrap();
/// assert_eq!(fault, BoardFault::AdcStuck(Pin::stm32(Port::C, 1), 1023));
/// assert_eq!(fault.to_string(), "adc-stuck:PC1:1023");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardFault {
    /// No fixture fitted: MOSI reaches nothing, MISO floats low, the cage is wired by hand
    /// ([`Monitor::Wire`](super::Monitor::Wire)).
    NoFixture,
    /// MISO stuck low: the chain still switches the cage, but nothing answers.
    MisoLow,
    /// An ADC input stuck at a code (a pin shorted to a rail, a damaged input).
    AdcStuck(Pin, u16),
    /// An ADC input open: the pin reaches no node (a loose wire); it reads a discharged
    /// sampling capacitor, 0.
    AdcOpen(Pin),
    /// An LED whose pin never drives it (a dead LED, a broken trace).
    LedDead(Pin),
    /// The PLL never locks (RCC_CR.PLLRDY stays 0): the firmware waits for it forever.
    PllStuck,
    /// The firmware panics at its first self-check (planted: no register of the chip makes
    /// the board's binary panic).
    Panic,
    /// The firmware hangs at its first self-check (planted: a branch to itself), so it stops
    /// feeding its watchdog.
    Hang,
}

/// Words that are not a board fault, each naming what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardFaultError {
    /// Not one of the faults.
    #[error("{0:?}: give {forms}", forms = crate::Listed(BoardFault::FORMS, " or "))]
    Unknown(String),
    /// The pin is not `P`, a port letter and a number.
    #[error("{0:?} is not a pin like PA0")]
    NotAPin(String),
    /// The port is not one of the STM32F446RE's in LQFP64.
    #[error("{pin:?}: no port {port} on LQFP64")]
    NoPort {
        /// The pin as given.
        pin: String,
        /// Its port letter.
        port: char,
    },
    /// The pin number is not 0..15.
    #[error("{0:?}: the pin number is 0..15")]
    PinNumber(String),
    /// The code is not a `u16`.
    #[error("{0:?} is not a code (0..65535)")]
    Code(String),
}

impl BoardFault {
    /// Every fault's form on the command line, in the order `--fault`'s help and the error
    /// list them: the error names them from here, and a test holds [`FromStr`] and
    /// `Display` to it.
    pub const FORMS: [&'static str; 8] = [
        "no-fixture",
        "miso-low",
        "pll-stuck",
        "panic",
        "hang",
        "adc-open:PIN",
        "adc-stuck:PIN:CODE",
        "led-dead:PIN",
    ];

    /// Its form: its words with the pin `PIN` and the code `CODE` (`adc-stuck:PIN:CODE`).
    pub fn form(self) -> &'static str {
        match self {
            BoardFault::NoFixture => "no-fixture",
            BoardFault::MisoLow => "miso-low",
            BoardFault::PllStuck => "pll-stuck",
            BoardFault::Panic => "panic",
            BoardFault::Hang => "hang",
            BoardFault::AdcOpen(_) => "adc-open:PIN",
            BoardFault::AdcStuck(..) => "adc-stuck:PIN:CODE",
            BoardFault::LedDead(_) => "led-dead:PIN",
        }
    }
}

impl fmt::Display for BoardFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardFault::AdcOpen(pin) => write!(f, "adc-open:{pin}"),
            BoardFault::LedDead(pin) => write!(f, "led-dead:{pin}"),
            BoardFault::AdcStuck(pin, code) => write!(f, "adc-stuck:{pin}:{code}"),
            bare => f.write_str(bare.form()),
        }
    }
}

/// An STM32 pin of the LQFP64 package, `PA0`..`PH15`.
fn stm32_pin(name: &str) -> Result<Pin, BoardFaultError> {
    let mut chars = name.chars();
    let (Some('P'), Some(port)) = (chars.next(), chars.next()) else {
        return Err(BoardFaultError::NotAPin(name.to_string()));
    };
    let port = match port {
        'A' => Port::A,
        'B' => Port::B,
        'C' => Port::C,
        'D' => Port::D,
        'H' => Port::H,
        _ => {
            return Err(BoardFaultError::NoPort {
                pin: name.to_string(),
                port,
            });
        }
    };
    let number: u8 = chars
        .as_str()
        .parse()
        .ok()
        .filter(|n| *n < 16)
        .ok_or_else(|| BoardFaultError::PinNumber(name.to_string()))?;
    Ok(Pin::stm32(port, number))
}

impl FromStr for BoardFault {
    type Err = BoardFaultError;

    fn from_str(s: &str) -> Result<Self, BoardFaultError> {
        let parts: Vec<&str> = s.split(':').collect();
        match parts.as_slice() {
            ["no-fixture"] => Ok(BoardFault::NoFixture),
            ["miso-low"] => Ok(BoardFault::MisoLow),
            ["pll-stuck"] => Ok(BoardFault::PllStuck),
            ["panic"] => Ok(BoardFault::Panic),
            ["hang"] => Ok(BoardFault::Hang),
            ["adc-open", p] => Ok(BoardFault::AdcOpen(stm32_pin(p)?)),
            ["led-dead", p] => Ok(BoardFault::LedDead(stm32_pin(p)?)),
            ["adc-stuck", p, code] => Ok(BoardFault::AdcStuck(
                stm32_pin(p)?,
                code.parse()
                    .map_err(|_| BoardFaultError::Code(code.to_string()))?,
            )),
            _ => Err(BoardFaultError::Unknown(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pin() -> impl Strategy<Value = Pin> {
        (
            prop_oneof![
                Just(Port::A),
                Just(Port::B),
                Just(Port::C),
                Just(Port::D),
                Just(Port::H)
            ],
            0u8..16,
        )
            .prop_map(|(port, number)| Pin::stm32(port, number))
    }

    fn fault() -> impl Strategy<Value = BoardFault> {
        prop_oneof![
            Just(BoardFault::NoFixture),
            Just(BoardFault::MisoLow),
            Just(BoardFault::PllStuck),
            Just(BoardFault::Panic),
            Just(BoardFault::Hang),
            pin().prop_map(BoardFault::AdcOpen),
            pin().prop_map(BoardFault::LedDead),
            (pin(), any::<u16>()).prop_map(|(p, c)| BoardFault::AdcStuck(p, c)),
        ]
    }

    proptest! {
        #[test]
        fn every_fault_reads_back_as_written(fault in fault()) {
            prop_assert_eq!(fault.to_string().parse::<BoardFault>(), Ok(fault));
            prop_assert!(BoardFault::FORMS.contains(&fault.form()), "{} is not in FORMS", fault.form());
        }
    }

    #[test]
    fn the_words_are_the_command_lines() {
        let pa0 = Pin::stm32(Port::A, 0);
        for (words, fault) in [
            ("no-fixture", BoardFault::NoFixture),
            ("miso-low", BoardFault::MisoLow),
            ("pll-stuck", BoardFault::PllStuck),
            ("panic", BoardFault::Panic),
            ("hang", BoardFault::Hang),
            ("adc-open:PA0", BoardFault::AdcOpen(pa0)),
            ("led-dead:PA0", BoardFault::LedDead(pa0)),
            ("adc-stuck:PA0:0", BoardFault::AdcStuck(pa0, 0)),
        ] {
            assert_eq!(words.parse::<BoardFault>(), Ok(fault));
            assert_eq!(fault.to_string(), words);
        }
    }

    /// The table the error lists is the parser's: each form, its PIN and CODE filled in,
    /// reads as a fault of that form and writes back as it was read.
    #[test]
    fn every_form_in_the_table_is_read_and_written() {
        for form in BoardFault::FORMS {
            let words = form.replace("PIN", "PB3").replace("CODE", "7");
            let fault: BoardFault = words
                .parse()
                .unwrap_or_else(|e| panic!("FORMS lists {form}, which FromStr refuses: {e}"));
            assert_eq!((fault.form(), fault.to_string()), (form, words));
        }
    }

    #[test]
    fn an_error_names_what_is_wrong() {
        let said = |s: &str| s.parse::<BoardFault>().unwrap_err().to_string();
        assert_eq!(
            said("pll"),
            "\"pll\": give no-fixture, miso-low, pll-stuck, panic, hang, adc-open:PIN, \
             adc-stuck:PIN:CODE or led-dead:PIN"
        );
        assert_eq!(said("adc-open:A0"), "\"A0\" is not a pin like PA0");
        assert_eq!(said("adc-open:PE1"), "\"PE1\": no port E on LQFP64");
        assert_eq!(said("led-dead:PA16"), "\"PA16\": the pin number is 0..15");
        assert_eq!(
            said("adc-stuck:PA0:65536"),
            "\"65536\" is not a code (0..65535)"
        );
        assert!(said("adc-stuck:PA0").starts_with("\"adc-stuck:PA0\": give"));
    }
}
