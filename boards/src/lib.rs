//! Shannon's Bird Cage: the boards the machine runs on, as plain typed const data.
//!
//! One [`Profile`] per physical build holds what the firmware, the emulator and the bench
//! need to agree on: supply and ADC (resolution, reference, the datasheet's accuracy figures),
//! resistor values and tolerance, series resistor, pull-ups and how they are switched, the pin
//! map (node inputs, LEDs, button, pull-up control, edge fixture) and the probe-rs chip name.
//!
//! `no_std`, no alloc, no unsafe. Values carry their unit in their name and cite the datasheet
//! they come from. One concept per private module, every item re-exported here; two public
//! modules: [`bounds`], the range of every numeric profile value and why, and [`file`](mod@file)
//! (feature `file`, std): profile files (TOML) read into a [`Profile`] and checked once, for
//! the host tools. [`virtual_board`] (feature `std`) is the contract between the bench and the
//! virtual board: its `--fault` words and its monitor vocabulary.
//!
//! ```
//! let board = boards::by_name("nucleo-f446re").unwrap();
//! assert_eq!(board.validate(), Ok(()));
//! assert_eq!((board.full_scale_code(), board.supply_volts()), (1023, 3.3));
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod adc;
mod arduino_mega;
pub mod bounds;
mod button;
mod cage;
#[cfg(feature = "file")]
pub mod file;
mod fixture;
mod led;
mod listed;
mod nucleo_f446re;
mod pin;
mod pin_map;
mod profile;
mod pullup;
#[cfg(feature = "read")]
pub mod read;
mod registry;
mod resistor;
mod tolerance;
mod validation;
#[cfg(feature = "std")]
pub mod virtual_board;

pub use adc::{Adc, AdcAccuracy, AdcReference, LsbFigure};
pub use arduino_mega::ARDUINO_MEGA;
pub use button::{Button, ButtonPull};
pub use cage::{CAGE_EDGES, CAGE_SIZE, CageSizeError, cage_states};
pub use fixture::{EdgeFixture, FixtureSignal, SpiBus};
pub use led::LedDrive;
pub use listed::Listed;
pub use nucleo_f446re::NUCLEO_F446RE;
pub use pin::{AnalogInput, ArduinoPin, Level, Pin, PinFamily, Port};
pub use pin_map::{
    INTERNAL_NODES, LED_COLUMNS, LED_PINS, LED_ROWS, MEASURED_NODES, NodePinError, PinMap, PinRole,
};
pub use profile::Profile;
pub use pullup::{GameOverReading, Pullups, RailRelease};
pub use registry::{PROFILES, UNKNOWN_NAME_CAPACITY, UnknownBoard, by_name};
pub use resistor::Resistors;
pub use tolerance::{Distribution, PPM_PER_PERCENT, Tolerance};
pub use validation::{ADC_BITS, ADC_SAMPLES, MAX_TOLERANCE_PPM, ProfileError};
