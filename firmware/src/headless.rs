//! Stand-ins for the hardware a board without a person at it lacks: the emulated board (SIL)
//! and the QEMU build (PIL), where the bench decides when the machine moves.

use core::convert::Infallible;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin};

/// A button nobody presses, active low (it always reads high); the bench calls
/// [`crate::App::on_button`] or sends `decide` instead.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unpressed;

impl ErrorType for Unpressed {
    type Error = Infallible;
}

impl InputPin for Unpressed {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(true)
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(false)
    }
}

/// Delays that return at once: an emulated network settles instantly.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDelay;

impl DelayNs for NoDelay {
    fn delay_ns(&mut self, _ns: u32) {}
}
