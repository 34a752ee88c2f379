//! The board's wiring from the profile: which pin is which node, LED, button, rail and fixture
//! line, checked against the pins the chip bonds.

use boards::{Level, Pin, Port, Profile, Pullups};
use heuristic::Node;

use crate::chip::{self, pin_name};

/// Why a profile cannot be the virtual board's wiring.
#[derive(Debug, thiserror::Error)]
pub enum WiringError {
    /// A pin the chip does not have (LQFP64).
    #[error("the profile's {role} is on {pin}, which the STM32F446RE (LQFP64) does not bond")]
    NoSuchPin {
        /// What the pin is for.
        role: String,
        /// The pin.
        pin: String,
    },
    /// The binary drives a shared rail; other pull-up wirings are not modelled.
    #[error(
        "the profile's pull-ups are not a shared rail: the NUCLEO board binary drives one rail pin"
    )]
    Pullups,
    /// No fixture: the board binary's cage is set by the fixture or by hand.
    #[error("the profile has no edge fixture on SPI2; the virtual board models the ADG714 chain")]
    Fixture,
}

/// What the pins are wired to, from the profile.
#[derive(Debug)]
pub struct Wiring {
    /// Each measured node, its pin and the ADC1 channel the profile names for it.
    pub nodes: Vec<(Node, Pin, u8)>,
    /// The shared pull-up rail's control pin.
    pub rail: Pin,
    /// The pull-ups' resistance (the nodes' source impedance).
    pub pullup_ohms: u32,
    /// The row LEDs' pins, row 1 first.
    pub rows: [Pin; 7],
    /// The column LEDs' pins, column A first.
    pub columns: [Pin; 7],
    /// The level that lights an LED.
    pub led_active: Level,
    /// The button.
    pub button: boards::Button,
    /// The ADG714 chain's pins.
    pub fixture: boards::EdgeFixture,
}

impl Wiring {
    /// The wiring of `profile`, every pin one the chip bonds.
    pub fn of(profile: &Profile) -> Result<Wiring, WiringError> {
        let Pullups::SharedRail { ohms, control, .. } = profile.pullups else {
            return Err(WiringError::Pullups);
        };
        let fixture = profile.fixture.ok_or(WiringError::Fixture)?;
        let wiring = Wiring {
            nodes: profile
                .pins
                .measured()
                .map(|(node, input)| (node, input.pin, input.channel))
                .collect(),
            rail: control,
            pullup_ohms: ohms,
            rows: profile.pins.row_leds,
            columns: profile.pins.column_leds,
            led_active: profile.leds.active,
            button: profile.pins.button,
            fixture,
        };
        for (role, pin) in wiring.pins() {
            let bonded = chip::split(pin).is_some_and(|(port, n)| {
                chip::PORTS.contains(&port)
                    && n < 16
                    && !(port == Port::D && n != 2)
                    && !(port == Port::H && n > 1)
                    && !(port == Port::B && n == 11)
            });
            if !bonded {
                return Err(WiringError::NoSuchPin {
                    role,
                    pin: pin_name(pin),
                });
            }
        }
        Ok(wiring)
    }

    fn pins(&self) -> Vec<(String, Pin)> {
        let mut pins: Vec<(String, Pin)> = self
            .nodes
            .iter()
            .map(|(node, pin, _)| (format!("node {node}"), *pin))
            .collect();
        pins.push(("pull-up rail".into(), self.rail));
        for (i, p) in self.rows.iter().enumerate() {
            pins.push((format!("row {} LED", i + 1), *p));
        }
        for (i, p) in self.columns.iter().enumerate() {
            pins.push((format!("column {} LED", (b'A' + i as u8) as char), *p));
        }
        pins.push(("button".into(), self.button.pin));
        for (signal, pin) in self.fixture.pins() {
            if let Some(pin) = pin {
                pins.push((format!("fixture {signal:?}"), pin));
            }
        }
        pins
    }
}
