//! Stand-ins for hardware a board may lack, so that an emulated board (SIL) implements only what
//! it models: a button that is never pressed (drive the application with `on_button` instead)
//! and a delay that does not wait.

use core::convert::Infallible;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin};

/// A button that reads released forever; with it, presses come from [`crate::App::on_button`].
#[derive(Clone, Copy, Debug, Default)]
pub struct NoButton;

impl ErrorType for NoButton {
    type Error = Infallible;
}

impl InputPin for NoButton {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(true)
    }

    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(false)
    }
}

/// A delay that returns at once: an emulated cage settles instantly.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDelay;

impl DelayNs for NoDelay {
    fn delay_ns(&mut self, _ns: u32) {}
}
