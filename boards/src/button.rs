//! The "next move" button.

use crate::{Level, Pin};

/// The button the player presses to ask for the machine's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Button {
    /// The pin it is read on.
    pub pin: Pin,
    /// The level while pressed.
    pub active: Level,
    /// Where its pull resistor is.
    pub pull: ButtonPull,
}

/// Where a button's pull resistor is, which tells the firmware whether to enable its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ButtonPull {
    /// The MCU's internal pull-up (the original sketch's `INPUT_PULLUP`).
    Internal,
    /// A resistor already on the board (the Nucleo's B1).
    OnBoard,
}
