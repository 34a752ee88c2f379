//! Pull-ups: what keeps nodes cut off from both terminals from floating, and how they are
//! switched off for the game-over reading.

use crate::{MEASURED_NODES, Pin};

/// Pull-ups on the [`MEASURED_NODES`] (the internal nodes of M=4 and the bottom terminal), as
/// the board really has them.
///
/// They must be much larger than the cage resistors so that they barely move the drops the
/// heuristic compares; the reference model uses 30R.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Pullups {
    /// The MCU's own pull-ups on the measuring pins (AVR `INPUT_PULLUP`): on while measuring,
    /// switched only by reconfiguring each measuring pin. Their value is a wide range, not a
    /// toleranced part.
    InternalAlwaysOn {
        /// Lowest value the datasheet allows.
        min_ohms: u32,
        /// Highest value the datasheet allows.
        max_ohms: u32,
    },
    /// One external resistor per node, each driven by its own GPIO: releasing one leaves the
    /// others untouched, at the cost of one more pin per measured node.
    SwitchedPerNode {
        /// Value of each pull-up.
        ohms: u32,
        /// The GPIO feeding each pull-up, in the order of [`crate::PinMap::nodes`] then the
        /// bottom terminal.
        controls: [Pin; MEASURED_NODES],
    },
    /// One GPIO drives a rail that feeds every pull-up: one pin for all of them.
    SharedRail {
        /// Value of each pull-up.
        ohms: u32,
        /// The GPIO driving the rail.
        control: Pin,
        /// What the GPIO does to the rail when the pull-ups are released.
        released: RailRelease,
    },
}

/// What a shared pull-up rail does when released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RailRelease {
    /// Driven to ground: the pull-ups become pull-downs. The bottom terminal then reads 0 when
    /// Cut has won and full scale when Short has won, as the game-over test needs.
    DrivenLow,
    /// Left floating (input mode): the rail still joins every node through two pull-ups in
    /// series, so a node cut off from Q still sees the supply through the rail. Modelled so
    /// that studies can show the fault; [`crate::Profile::validate`] rejects it for a profile
    /// that releases the pull-ups for the game-over reading.
    Floating,
}

/// How the bottom terminal is read to decide whether the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum GameOverReading {
    /// Pull-ups released first, as the original sketch does (`pinMode(pin, INPUT)`): with
    /// them on, the bottom terminal of a cut-off cage sits above 0 and a win by Cut would be
    /// missed.
    PullupsReleased,
    /// Read with the pull-ups on.
    PullupsOn,
}

impl Pullups {
    /// The value a model should use: the part's value, or the middle of the datasheet's range
    /// for internal pull-ups.
    ///
    /// ```
    /// use boards::Pullups;
    /// let avr = Pullups::InternalAlwaysOn { min_ohms: 20_000, max_ohms: 50_000 };
    /// assert_eq!(avr.nominal_ohms(), 35_000);
    /// ```
    pub fn nominal_ohms(&self) -> u32 {
        match *self {
            Pullups::InternalAlwaysOn { min_ohms, max_ohms } => {
                min_ohms / 2 + max_ohms / 2 + (min_ohms % 2 + max_ohms % 2) / 2
            }
            Pullups::SwitchedPerNode { ohms, .. } | Pullups::SharedRail { ohms, .. } => ohms,
        }
    }

    /// Whether the pull-ups are external parts (as opposed to the MCU's own).
    ///
    /// ```
    /// assert!(!boards::ARDUINO_MEGA.pullups.is_external());
    /// assert!(boards::NUCLEO_F446RE.pullups.is_external());
    /// ```
    pub fn is_external(&self) -> bool {
        !matches!(self, Pullups::InternalAlwaysOn { .. })
    }
}
