//! The "next move" button: an embedded-hal input pin, its active level from the board profile,
//! and a debouncer.

use boards::Level;
use embedded_hal::digital::InputPin;

use crate::{Debouncer, Transition};

/// A debounced button on an input pin.
#[derive(Debug)]
pub struct Button<P> {
    pin: P,
    active: Level,
    debouncer: Debouncer,
}

impl<P: InputPin> Button<P> {
    /// A button that reads `active` while pressed ([`boards::Button::active`]).
    pub fn new(pin: P, active: Level, debouncer: Debouncer) -> Button<P> {
        Button {
            pin,
            active,
            debouncer,
        }
    }

    /// Samples the pin once; `true` when this sample completes a debounced press.
    pub fn poll(&mut self) -> Result<bool, P::Error> {
        let raw = match self.active {
            Level::Low => self.pin.is_low()?,
            Level::High => self.pin.is_high()?,
        };
        Ok(self.debouncer.update(raw) == Some(Transition::Pressed))
    }

    /// The pin back.
    pub fn release(self) -> P {
        self.pin
    }
}
