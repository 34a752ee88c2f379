//! A board's electrical description, derived from a checked [`boards::Profile`] (built in or
//! read from a profile file by [`boards::file`]), in the units a solver wants.

use boards::{AdcAccuracy, Profile, ProfileError, RailRelease, Tolerance};

/// Everything about a physical build that decides what its ADC reads: parts and their spread,
/// pull-ups, the edge fixture's switches and the converter. Pins are left out: they do not
/// change a voltage.
///
/// Derived from a profile that [`Profile::validate`] accepted, with [`Board::from_profile`],
/// and never checked again: the profile is the one description of a build. Fields are public
/// so that a study can vary one electrical value as a counterfactual.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// The profile it was derived from.
    pub profile: Profile,
    /// Profile name (or profile file) it came from, for reports.
    pub name: String,
    /// Supply across the cage (top terminal Q), volts.
    pub supply_volts: f64,
    /// What the ADC's full scale refers to.
    pub reference: Reference,
    /// Nominal edge resistor, ohms.
    pub resistor_ohms: f64,
    /// Tolerance band and spread of the edge resistors, the series resistor and external
    /// pull-ups (one batch of parts).
    pub tolerance: Tolerance,
    /// Series resistor from the bottom terminal to ground, ohms.
    pub series_ohms: f64,
    /// A Short: the wire and its contacts, ohms.
    pub wire_ohms: f64,
    /// Pull-ups on the measured nodes (internal nodes and the bottom terminal).
    pub pullups: Pullups,
    /// The edge fixture's analog switches, where the board has one.
    pub switches: Option<Switches>,
    /// The converter.
    pub adc: AdcSpec,
}

/// The ADC's full scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reference {
    /// Ratiometric: full scale is the supply.
    Supply,
    /// A fixed reference, volts.
    Fixed(f64),
}

/// Pull-ups as boards really have them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pullups {
    /// The MCU's own (AVR `INPUT_PULLUP`): one per measuring pin, each somewhere in the
    /// datasheet's range, released by reconfiguring the pin.
    Internal {
        /// Lowest value, ohms.
        min_ohms: f64,
        /// Highest value, ohms.
        max_ohms: f64,
    },
    /// One external resistor per node, each fed by its own GPIO (released = input, so the
    /// resistor carries nothing).
    PerNode {
        /// Nominal value, ohms.
        ohms: f64,
    },
    /// External resistors from every node to one rail driven by a GPIO.
    SharedRail {
        /// Nominal value, ohms.
        ohms: f64,
        /// What the rail does when released.
        released: RailRelease,
    },
}

/// The analog switches of an edge fixture: each edge has one in series with its resistor
/// (open = cut) and one across it (closed = short).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Switches {
    /// A closed switch, ohms.
    pub on_ohms: f64,
    /// An open switch, as the resistance that passes the datasheet's leakage at the full
    /// supply, ohms.
    pub off_ohms: f64,
}

/// The converter as the firmware uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdcSpec {
    /// Resolution read, 6..=16 bits.
    pub bits: u8,
    /// Datasheet figures restated at `bits`.
    pub accuracy: AdcAccuracy,
    /// Conversions averaged into one reading.
    pub samples: u8,
}

fn milli(v: u32) -> f64 {
    f64::from(v) / 1000.0
}

impl Board {
    /// The electrical values of `profile`, which must have passed [`Profile::validate`] (the
    /// built-in profiles, and every profile [`boards::file`] returns, have).
    ///
    /// ```
    /// let b = emulator::physical::Board::from_profile(&boards::NUCLEO_F446RE);
    /// assert_eq!((b.supply_volts, b.series_ohms, b.adc.bits), (3.3, 1000.0, 10));
    /// ```
    pub fn from_profile(profile: &Profile) -> Board {
        let pullups = match profile.pullups {
            boards::Pullups::InternalAlwaysOn { min_ohms, max_ohms } => Pullups::Internal {
                min_ohms: f64::from(min_ohms),
                max_ohms: f64::from(max_ohms),
            },
            boards::Pullups::SwitchedPerNode { ohms, .. } => Pullups::PerNode {
                ohms: f64::from(ohms),
            },
            boards::Pullups::SharedRail { ohms, released, .. } => Pullups::SharedRail {
                ohms: f64::from(ohms),
                released,
            },
        };
        let supply_volts = profile.supply_volts();
        Board {
            profile: *profile,
            name: profile.name.to_string(),
            supply_volts,
            reference: match profile.adc.reference {
                boards::AdcReference::Supply => Reference::Supply,
                boards::AdcReference::Fixed { millivolts } => Reference::Fixed(milli(millivolts)),
            },
            resistor_ohms: f64::from(profile.resistors.nominal_ohms),
            tolerance: profile.resistors.tolerance,
            series_ohms: f64::from(profile.series_ohms),
            wire_ohms: milli(profile.wire_milliohms),
            pullups,
            switches: profile.fixture.map(|f| Switches {
                on_ohms: milli(f.switch_on_milliohms),
                off_ohms: supply_volts / (f64::from(f.switch_off_leakage_picoamps.max(1)) * 1e-12),
            }),
            adc: AdcSpec {
                bits: profile.adc.bits_used,
                accuracy: profile.adc_accuracy(),
                samples: profile.adc.samples,
            },
        }
    }

    /// The same board read at `bits` of resolution: the profile's ADC changed and checked,
    /// the accuracy figures restated; the other values, varied or not, are kept.
    ///
    /// ```
    /// use emulator::physical::Board;
    /// let b = Board::from_profile(&boards::NUCLEO_F446RE).with_adc_bits(12).unwrap();
    /// assert_eq!(b.adc.accuracy.offset.typ_milli_lsb, Some(1_500));
    /// let e = Board::from_profile(&boards::NUCLEO_F446RE).with_adc_bits(17).unwrap_err();
    /// assert_eq!(e.to_string(), "adc.bits_used = 17 is out of range (6..=16)");
    /// ```
    pub fn with_adc_bits(mut self, bits: u8) -> Result<Board, ProfileError> {
        self.profile = self.profile.with_adc_bits(bits)?;
        self.adc.accuracy = self.profile.adc_accuracy();
        self.adc.bits = bits;
        Ok(self)
    }

    /// The ADC's full-scale voltage.
    pub fn reference_volts(&self) -> f64 {
        match self.reference {
            Reference::Supply => self.supply_volts,
            Reference::Fixed(v) => v,
        }
    }
}
