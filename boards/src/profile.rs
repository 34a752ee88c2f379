//! A board profile: everything about one physical build that the firmware, the emulator and
//! the bench need, as plain const data.

use crate::pin_map::measured_node;
use crate::{
    Adc, AdcAccuracy, EdgeFixture, GameOverReading, LedDrive, Pin, PinMap, PinRole, Pullups,
    Resistors,
};

/// One board the machine runs on.
///
/// Fields are public so that studies and tests can build modified copies
/// (`Profile { series_ohms: 0, ..boards::ARDUINO_MEGA }`); such copies are raw data until
/// [`Profile::validate`] accepts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Profile {
    /// Registry name, as given on command lines: `arduino-mega`, `nucleo-f446re`.
    pub name: &'static str,
    /// One line for listings.
    pub description: &'static str,
    /// The microcontroller.
    pub mcu: &'static str,
    /// probe-rs chip name, if probe-rs can flash and talk to the board.
    pub probe_rs_chip: Option<&'static str>,
    /// Supply across the cage (top terminal Q).
    pub supply_millivolts: u32,
    /// The converter.
    pub adc: Adc,
    /// The edge resistors.
    pub resistors: Resistors,
    /// Resistor from the bottom terminal to ground, so that a win by Short is not a short
    /// circuit of the supply.
    pub series_ohms: u32,
    /// Resistance of a Short: the wire that replaces a resistor, contacts included.
    pub wire_milliohms: u32,
    /// Pull-ups on the measured nodes.
    pub pullups: Pullups,
    /// How the game-over reading is taken.
    pub game_over: GameOverReading,
    /// Pin map.
    pub pins: PinMap,
    /// How the LEDs are driven.
    pub leds: LedDrive,
    /// The edge fixture, where the board has one.
    pub fixture: Option<EdgeFixture>,
}

impl Profile {
    /// Nominal value of the edge resistors.
    ///
    /// ```
    /// assert_eq!(boards::ARDUINO_MEGA.resistor_ohms(), 1_000);
    /// ```
    pub fn resistor_ohms(&self) -> u32 {
        self.resistors.nominal_ohms
    }

    /// Series resistor from the bottom terminal to ground.
    ///
    /// ```
    /// assert_eq!(boards::NUCLEO_F446RE.series_ohms(), 1_000);
    /// ```
    pub fn series_ohms(&self) -> u32 {
        self.series_ohms
    }

    /// Pull-up value a model should use (the middle of the range for AVR internal pull-ups).
    ///
    /// ```
    /// assert_eq!(boards::ARDUINO_MEGA.pullup_ohms(), 35_000);
    /// assert_eq!(boards::NUCLEO_F446RE.pullup_ohms(), 30_000);
    /// ```
    pub fn pullup_ohms(&self) -> u32 {
        self.pullups.nominal_ohms()
    }

    /// Highest code the ADC returns at the resolution used: 2^bits − 1.
    ///
    /// ```
    /// assert_eq!(boards::ARDUINO_MEGA.full_scale_code(), 1023);
    /// ```
    pub fn full_scale_code(&self) -> u16 {
        let bits = u32::from(self.adc.bits_used.min(16));
        ((1u32 << bits) - 1) as u16
    }

    /// The supply in volts.
    ///
    /// ```
    /// assert_eq!(boards::NUCLEO_F446RE.supply_volts(), 3.3);
    /// ```
    pub fn supply_volts(&self) -> f64 {
        f64::from(self.supply_millivolts) / 1000.0
    }

    /// The supply in volts, as `f32` for the MCU's FPU.
    ///
    /// ```
    /// assert_eq!(boards::ARDUINO_MEGA.supply_volts_f32(), 5.0);
    /// ```
    pub fn supply_volts_f32(&self) -> f32 {
        self.supply_millivolts as f32 / 1000.0
    }

    /// The ADC's full-scale reference: the supply when ratiometric.
    ///
    /// ```
    /// assert_eq!(boards::ARDUINO_MEGA.reference_millivolts(), 5_000);
    /// ```
    pub fn reference_millivolts(&self) -> u32 {
        match self.adc.reference {
            crate::AdcReference::Supply => self.supply_millivolts,
            crate::AdcReference::Fixed { millivolts } => millivolts,
        }
    }

    /// Whether ADC codes are ratiometric with the supply (reference = supply).
    ///
    /// ```
    /// assert!(boards::NUCLEO_F446RE.is_ratiometric());
    /// ```
    pub fn is_ratiometric(&self) -> bool {
        matches!(self.adc.reference, crate::AdcReference::Supply)
    }

    /// Whether the pull-ups are released before the game-over reading.
    ///
    /// ```
    /// assert!(boards::ARDUINO_MEGA.releases_pullups_for_game_over());
    /// ```
    pub fn releases_pullups_for_game_over(&self) -> bool {
        matches!(self.game_over, GameOverReading::PullupsReleased)
    }

    /// The datasheet's accuracy figures restated at the resolution the firmware reads.
    ///
    /// ```
    /// let acc = boards::NUCLEO_F446RE.adc_accuracy();
    /// assert_eq!(acc.resolution_bits, 10);
    /// assert_eq!(acc.dnl.max_milli_lsb, Some(500)); // ±2 LSB at 12 bits
    /// ```
    pub fn adc_accuracy(&self) -> AdcAccuracy {
        self.adc.accuracy.at_bits(self.adc.bits_used)
    }

    /// Every pin the profile uses, with its role: node inputs (M=4 reading order, then 0), row
    /// LEDs, column LEDs, button, pull-up controls, fixture bus.
    ///
    /// ```
    /// let pins: Vec<_> = boards::NUCLEO_F446RE.pins().collect();
    /// assert_eq!(pins.len(), 13 + 14 + 1 + 1 + 4);
    /// assert_eq!(pins[0].0.to_string(), "node A6");
    /// assert_eq!(pins[0].1.to_string(), "PA0");
    /// ```
    pub fn pins(&self) -> impl Iterator<Item = (PinRole, Pin)> + '_ {
        let nodes = self
            .pins
            .measured()
            .map(|(node, input)| (PinRole::Node(node), input.pin));
        let rows = (1u8..)
            .zip(self.pins.row_leds)
            .map(|(y, pin)| (PinRole::RowLed(y), pin));
        let columns = (1u8..)
            .zip(self.pins.column_leds)
            .map(|(x, pin)| (PinRole::ColumnLed(x), pin));
        let button = core::iter::once((PinRole::Button, self.pins.button.pin));
        let pullups = (0..crate::MEASURED_NODES).filter_map(move |i| match self.pullups {
            Pullups::InternalAlwaysOn { .. } => None,
            Pullups::SwitchedPerNode { controls, .. } => {
                Some((PinRole::Pullup(measured_node(i)), controls[i]))
            }
            Pullups::SharedRail { control, .. } => {
                (i == 0).then_some((PinRole::PullupRail, control))
            }
        });
        let fixture = self
            .fixture
            .iter()
            .flat_map(|f| f.pins())
            .filter_map(|(signal, pin)| Some((PinRole::Fixture(signal), pin?)));
        nodes
            .chain(rows)
            .chain(columns)
            .chain(button)
            .chain(pullups)
            .chain(fixture)
    }
}
