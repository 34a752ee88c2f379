//! A board's electrical description, read from a [`boards::Profile`] (or a profile file) and
//! checked, in the units a solver wants.

use boards::{AdcAccuracy, Distribution, Profile, RailRelease, Tolerance};

/// Everything about a physical build that decides what its ADC reads: parts and their spread,
/// pull-ups, the edge fixture's switches and the converter. Pins are left out: they do not
/// change a voltage.
///
/// Built from a profile with [`Board::from_profile`]; fields are public so that studies can
/// vary one, and [`Board::validate`] checks a modified copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
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

/// A board value that cannot describe a real board; the message names the value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BoardError {
    /// A resistance, voltage or count that must be positive is not.
    #[error("{field} = {value} is not positive")]
    NotPositive {
        /// The value's name.
        field: &'static str,
        /// The value.
        value: f64,
    },
    /// A tolerance outside 0..50 %.
    #[error("tolerance {percent} % is outside 0..50 %")]
    Tolerance {
        /// The tolerance.
        percent: f64,
    },
    /// A resolution outside [`boards::ADC_BITS`].
    #[error(
        "ADC resolution {bits} bits is outside {}..={}",
        boards::ADC_BITS.start(),
        boards::ADC_BITS.end()
    )]
    Bits {
        /// The resolution.
        bits: i64,
    },
    /// Internal pull-up range upside down.
    #[error("pull-up range {min} .. {max} ohms is upside down")]
    PullupRange {
        /// Lower end.
        min: f64,
        /// Upper end.
        max: f64,
    },
    /// A binned distribution whose hole swallows the band.
    #[error("binned tolerance: hole {hole_percent} % is not inside the band ({percent} %)")]
    BinHole {
        /// The hole's half-width.
        hole_percent: f64,
        /// The band's half-width.
        percent: f64,
    },
    /// A fixed reference above the supply.
    #[error("ADC reference {reference} V is above the supply {supply} V")]
    ReferenceAboveSupply {
        /// The reference.
        reference: f64,
        /// The supply.
        supply: f64,
    },
}

fn milli(v: u32) -> f64 {
    f64::from(v) / 1000.0
}

impl Board {
    /// The profile's electrical values.
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

    /// The same board read at `bits` of resolution (accuracy figures restated).
    ///
    /// ```
    /// use emulator::physical::Board;
    /// let b = Board::from_profile(&boards::NUCLEO_F446RE).with_adc_bits(12).unwrap();
    /// assert_eq!(b.adc.accuracy.offset.typ_milli_lsb, Some(1_500));
    /// assert!(Board::from_profile(&boards::NUCLEO_F446RE).with_adc_bits(17).is_err());
    /// ```
    pub fn with_adc_bits(mut self, bits: i64) -> Result<Board, BoardError> {
        let bits = u8::try_from(bits)
            .ok()
            .filter(|b| boards::ADC_BITS.contains(b))
            .ok_or(BoardError::Bits { bits })?;
        self.adc.accuracy = self.adc.accuracy.at_bits(bits);
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

    /// Checks that the values describe a buildable board (positive resistances, tolerance
    /// inside 0..50 %, 6..=16 bits); the error names the first value that does not.
    ///
    /// ```
    /// use emulator::physical::Board;
    /// let mut b = Board::from_profile(&boards::ARDUINO_MEGA);
    /// assert_eq!(b.validate(), Ok(()));
    /// b.series_ohms = -5.0;
    /// assert_eq!(b.validate().unwrap_err().to_string(), "series_ohms = -5 is not positive");
    /// ```
    pub fn validate(&self) -> Result<(), BoardError> {
        let mut values = vec![
            ("supply_volts", self.supply_volts),
            ("resistor_ohms", self.resistor_ohms),
            ("series_ohms", self.series_ohms),
            ("wire_ohms", self.wire_ohms),
            ("adc.samples", f64::from(self.adc.samples)),
        ];
        match self.pullups {
            Pullups::Internal { min_ohms, max_ohms } => {
                values.push(("pullups.min_ohms", min_ohms));
                values.push(("pullups.max_ohms", max_ohms));
            }
            Pullups::PerNode { ohms } | Pullups::SharedRail { ohms, .. } => {
                values.push(("pullups.ohms", ohms));
            }
        }
        if let Some(s) = self.switches {
            values.push(("switches.on_ohms", s.on_ohms));
            values.push(("switches.off_ohms", s.off_ohms));
        }
        if let Reference::Fixed(v) = self.reference {
            values.push(("adc.reference_volts", v));
        }
        for (field, value) in values {
            // `!(v > 0)` also catches NaN.
            if !(value > 0.0 && value.is_finite()) {
                return Err(BoardError::NotPositive { field, value });
            }
        }
        let percent = self.tolerance.fraction() * 100.0;
        if self.tolerance.ppm >= boards::MAX_TOLERANCE_PPM {
            return Err(BoardError::Tolerance { percent });
        }
        if let Distribution::Binned { hole_ppm } = self.tolerance.distribution
            && hole_ppm >= self.tolerance.ppm
        {
            return Err(BoardError::BinHole {
                hole_percent: f64::from(hole_ppm) / 1e4,
                percent,
            });
        }
        if let Distribution::TruncatedGaussian { sigmas: 0 } = self.tolerance.distribution {
            return Err(BoardError::NotPositive {
                field: "tolerance.sigmas",
                value: 0.0,
            });
        }
        if let Pullups::Internal { min_ohms, max_ohms } = self.pullups
            && min_ohms > max_ohms
        {
            return Err(BoardError::PullupRange {
                min: min_ohms,
                max: max_ohms,
            });
        }
        if !boards::ADC_BITS.contains(&self.adc.bits) {
            return Err(BoardError::Bits {
                bits: i64::from(self.adc.bits),
            });
        }
        if self.reference_volts() > self.supply_volts {
            return Err(BoardError::ReferenceAboveSupply {
                reference: self.reference_volts(),
                supply: self.supply_volts,
            });
        }
        Ok(())
    }
}
