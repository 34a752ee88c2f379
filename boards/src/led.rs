//! How the move LEDs are driven.

use crate::Level;

/// How the 14 move LEDs are driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LedDrive {
    /// The pin level that lights an LED.
    pub active: Level,
    /// Series resistor per LED (330 Ω in the original bill of materials).
    pub series_ohms: u32,
}
