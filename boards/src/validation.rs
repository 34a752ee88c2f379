//! Checking a profile's invariants, with errors that name the offending field.

use crate::bounds::{self, Bound};
use crate::{
    AdcReference, CAGE_EDGES, Distribution, GameOverReading, Pin, PinRole, Profile, Pullups,
    RailRelease,
};

/// Supported ADC resolutions ([`bounds::ADC_BITS`]).
pub const ADC_BITS: core::ops::RangeInclusive<u8> =
    (bounds::ADC_BITS.min as u8)..=(bounds::ADC_BITS.max as u8);
/// Conversions a reading may average ([`bounds::ADC_SAMPLES`]).
pub const ADC_SAMPLES: core::ops::RangeInclusive<u8> =
    (bounds::ADC_SAMPLES.min as u8)..=(bounds::ADC_SAMPLES.max as u8);
/// Tolerances must be below this (50 %, [`bounds::TOLERANCE_PPM`]).
pub const MAX_TOLERANCE_PPM: u32 = bounds::TOLERANCE_PPM.max + 1;

/// A profile value that breaks an invariant; the message names the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ProfileError {
    /// A text field that must say something is empty.
    #[error("{field} is empty")]
    Empty {
        /// The field.
        field: &'static str,
    },
    /// A value outside its range in [`bounds`](crate::bounds), which says why.
    #[error("{field} = {value} is out of range ({min}..={max})")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// Its value.
        value: u32,
        /// Smallest value allowed.
        min: u32,
        /// Largest value allowed.
        max: u32,
    },
    /// A datasheet figure whose typical value exceeds its maximum.
    #[error("{figure}: typical {typ_milli_lsb} mLSB exceeds maximum {max_milli_lsb} mLSB")]
    TypicalAboveMax {
        /// Which figure (`adc.accuracy.inl`).
        figure: &'static str,
        /// Its typical value.
        typ_milli_lsb: u32,
        /// Its maximum.
        max_milli_lsb: u32,
    },
    /// A fixed ADC reference above the supply (the inputs never exceed the supply).
    #[error("adc.reference = {millivolts} mV exceeds supply_millivolts = {supply_millivolts} mV")]
    ReferenceAboveSupply {
        /// The reference.
        millivolts: u32,
        /// The supply.
        supply_millivolts: u32,
    },
    /// A binned distribution whose hole is as wide as the band, leaving no parts.
    #[error(
        "resistors.tolerance.distribution: hole_ppm = {hole_ppm} is not below the tolerance ({ppm} ppm)"
    )]
    BinHole {
        /// The hole.
        hole_ppm: u32,
        /// The band.
        ppm: u32,
    },
    /// An internal pull-up range upside down.
    #[error("pullups.min_ohms = {min_ohms} exceeds pullups.max_ohms = {max_ohms}")]
    PullupRange {
        /// Lower end.
        min_ohms: u32,
        /// Upper end.
        max_ohms: u32,
    },
    /// A floating rail couples all nodes during the game-over reading.
    #[error(
        "pullups.released = Floating couples every node through the rail during the game-over \
         reading; use DrivenLow"
    )]
    FloatingRail,
    /// A pin that does not exist.
    #[error("pins: {role} is on {pin}, which does not exist")]
    NoSuchPin {
        /// What the pin is for.
        role: PinRole,
        /// The pin.
        pin: Pin,
    },
    /// A pin named in another board's scheme.
    #[error("pins: {role} is on {pin}, not a pin of this board's kind")]
    ForeignPin {
        /// What the pin is for.
        role: PinRole,
        /// The pin.
        pin: Pin,
    },
    /// A node input on a digital-only Arduino pin.
    #[error("pins.nodes: {role} is on {pin}, which is not an analog input")]
    NotAnalog {
        /// What the pin is for.
        role: PinRole,
        /// The pin.
        pin: Pin,
    },
    /// Two roles on one pin.
    #[error("pins: {pin} is used twice ({first} and {second})")]
    PinUsedTwice {
        /// The pin.
        pin: Pin,
        /// The role listed first.
        first: PinRole,
        /// The role listed second.
        second: PinRole,
    },
    /// Two node inputs on one ADC channel.
    #[error("pins.nodes: ADC channel {channel} is used twice ({first} and {second})")]
    ChannelUsedTwice {
        /// The channel.
        channel: u8,
        /// The role listed first.
        first: PinRole,
        /// The role listed second.
        second: PinRole,
    },
    /// A fixture too small for the M=4 cage.
    #[error(
        "fixture: {devices} devices x {switches_per_device} switches cannot switch {CAGE_EDGES} \
         edges x {switches_per_edge}"
    )]
    FixtureTooSmall {
        /// Packages.
        devices: u8,
        /// Switches per package.
        switches_per_device: u8,
        /// Switches per edge.
        switches_per_edge: u8,
    },
}

impl ProfileError {
    /// The profile field at fault, as profile files name it (`adc.bits_used`).
    ///
    /// ```
    /// use boards::ProfileError;
    /// let e = boards::ARDUINO_MEGA.with_adc_bits(20).unwrap_err();
    /// assert_eq!(e.field(), "adc.bits_used");
    /// ```
    pub fn field(&self) -> &'static str {
        match self {
            ProfileError::Empty { field } | ProfileError::OutOfRange { field, .. } => field,
            ProfileError::TypicalAboveMax { figure, .. } => figure,
            ProfileError::ReferenceAboveSupply { .. } => "adc.reference",
            ProfileError::BinHole { .. } => "resistors.tolerance.distribution",
            ProfileError::PullupRange { .. } => "pullups.min_ohms",
            ProfileError::FloatingRail => "pullups.released",
            ProfileError::NoSuchPin { .. }
            | ProfileError::ForeignPin { .. }
            | ProfileError::NotAnalog { .. }
            | ProfileError::PinUsedTwice { .. }
            | ProfileError::ChannelUsedTwice { .. } => "pins",
            ProfileError::FixtureTooSmall { .. } => "fixture",
        }
    }
}

impl Profile {
    /// The same board read at `bits` of resolution (a study's or `--adc-bits`'s change),
    /// checked: the datasheet figures stay as given and are restated by
    /// [`Profile::adc_accuracy`].
    ///
    /// ```
    /// let p = boards::NUCLEO_F446RE.with_adc_bits(12).unwrap();
    /// assert_eq!(p.adc_accuracy().offset.typ_milli_lsb, Some(1_500));
    /// assert_eq!(
    ///     boards::NUCLEO_F446RE.with_adc_bits(17).unwrap_err().to_string(),
    ///     "adc.bits_used = 17 is out of range (6..=16)"
    /// );
    /// ```
    pub fn with_adc_bits(mut self, bits: u8) -> Result<Profile, ProfileError> {
        self.adc.bits_used = bits;
        self.validate()?;
        Ok(self)
    }

    /// Checks the invariants every later crate relies on: every number within its range in
    /// [`bounds`](crate::bounds) (which says why), a fixed reference not above the supply,
    /// typical figures not above their maximum, 13 distinct analog node inputs on distinct
    /// channels, 7 + 7 LED pins, and no pin used twice.
    ///
    /// ```
    /// use boards::{Adc, Profile, ARDUINO_MEGA};
    /// assert_eq!(ARDUINO_MEGA.validate(), Ok(()));
    /// let bad = Profile { adc: Adc { bits_used: 20, ..ARDUINO_MEGA.adc }, ..ARDUINO_MEGA };
    /// assert_eq!(
    ///     bad.validate().unwrap_err().to_string(),
    ///     "adc.bits_used = 20 is out of range (6..=16)"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ProfileError> {
        self.validate_text()?;
        self.validate_adc()?;
        self.validate_resistors()?;
        self.validate_pullups()?;
        self.validate_pins()?;
        self.validate_fixture()
    }

    fn validate_text(&self) -> Result<(), ProfileError> {
        let fields = [
            ("name", Some(self.name)),
            ("description", Some(self.description)),
            ("mcu", Some(self.mcu)),
            ("probe_rs_chip", self.probe_rs_chip),
        ];
        match fields
            .into_iter()
            .find(|(_, text)| text.is_some_and(|t| t.trim().is_empty()))
        {
            Some((field, _)) => Err(ProfileError::Empty { field }),
            None => Ok(()),
        }
    }

    fn validate_adc(&self) -> Result<(), ProfileError> {
        let adc = &self.adc;
        within(&bounds::SUPPLY_MILLIVOLTS, 0, self.supply_millivolts)?;
        within(&bounds::ADC_BITS, 0, u32::from(adc.bits_used))?;
        within(
            &bounds::ADC_BITS,
            1,
            u32::from(adc.accuracy.resolution_bits),
        )?;
        for (figure, value) in adc.accuracy.figures() {
            for v in [value.typ_milli_lsb, value.max_milli_lsb]
                .into_iter()
                .flatten()
            {
                within_as(&bounds::FIGURE_MILLI_LSB, figure, v)?;
            }
            if let (Some(typ_milli_lsb), Some(max_milli_lsb)) =
                (value.typ_milli_lsb, value.max_milli_lsb)
                && typ_milli_lsb > max_milli_lsb
            {
                return Err(ProfileError::TypicalAboveMax {
                    figure,
                    typ_milli_lsb,
                    max_milli_lsb,
                });
            }
        }
        if let AdcReference::Fixed { millivolts } = adc.reference {
            within(&bounds::REFERENCE_MILLIVOLTS, 0, millivolts)?;
            if millivolts > self.supply_millivolts {
                return Err(ProfileError::ReferenceAboveSupply {
                    millivolts,
                    supply_millivolts: self.supply_millivolts,
                });
            }
        }
        if let Some(ohms) = adc.max_source_ohms {
            within(&bounds::SOURCE_OHMS, 0, ohms)?;
        }
        within(&bounds::ADC_SAMPLES, 0, u32::from(adc.samples))
    }

    fn validate_resistors(&self) -> Result<(), ProfileError> {
        within(&bounds::CAGE_OHMS, 0, self.resistors.nominal_ohms)?;
        within(&bounds::CAGE_OHMS, 1, self.series_ohms)?;
        within(&bounds::WIRE_MILLIOHMS, 0, self.wire_milliohms)?;
        within(&bounds::LED_OHMS, 0, self.leds.series_ohms)?;
        let tolerance = self.resistors.tolerance;
        within(&bounds::TOLERANCE_PPM, 0, tolerance.ppm)?;
        match tolerance.distribution {
            Distribution::TruncatedGaussian { sigmas } => {
                within(&bounds::SIGMAS, 0, u32::from(sigmas))
            }
            Distribution::Uniform => Ok(()),
            Distribution::Binned { hole_ppm } if hole_ppm >= tolerance.ppm => {
                Err(ProfileError::BinHole {
                    hole_ppm,
                    ppm: tolerance.ppm,
                })
            }
            Distribution::Binned { .. } => Ok(()),
        }
    }

    fn validate_pullups(&self) -> Result<(), ProfileError> {
        match self.pullups {
            Pullups::InternalAlwaysOn { min_ohms, max_ohms } => {
                within(&bounds::PULLUP_OHMS, 1, min_ohms)?;
                within(&bounds::PULLUP_OHMS, 2, max_ohms)?;
                if min_ohms > max_ohms {
                    return Err(ProfileError::PullupRange { min_ohms, max_ohms });
                }
            }
            Pullups::SwitchedPerNode { ohms, .. } => within(&bounds::PULLUP_OHMS, 0, ohms)?,
            Pullups::SharedRail { ohms, released, .. } => {
                within(&bounds::PULLUP_OHMS, 0, ohms)?;
                if released == RailRelease::Floating
                    && self.game_over == GameOverReading::PullupsReleased
                {
                    return Err(ProfileError::FloatingRail);
                }
            }
        }
        Ok(())
    }

    fn validate_pins(&self) -> Result<(), ProfileError> {
        let family = self.pins.bottom.pin.family();
        for (role, pin) in self.pins() {
            if !pin.exists() {
                return Err(ProfileError::NoSuchPin { role, pin });
            }
            if pin.family() != family {
                return Err(ProfileError::ForeignPin { role, pin });
            }
        }
        for (node, input) in self.pins.measured() {
            if let Pin::Arduino(pin) = input.pin
                && !pin.is_analog()
            {
                return Err(ProfileError::NotAnalog {
                    role: PinRole::Node(node),
                    pin: input.pin,
                });
            }
        }
        for (i, (first, a)) in self.pins().enumerate() {
            if let Some((second, _)) = self.pins().skip(i + 1).find(|(_, b)| a.same_pin(*b)) {
                return Err(ProfileError::PinUsedTwice {
                    pin: a,
                    first,
                    second,
                });
            }
        }
        for (i, (first, a)) in self.pins.measured().enumerate() {
            let twin = self
                .pins
                .measured()
                .skip(i + 1)
                .find(|(_, b)| a.channel == b.channel);
            if let Some((second, _)) = twin {
                return Err(ProfileError::ChannelUsedTwice {
                    channel: a.channel,
                    first: PinRole::Node(first),
                    second: PinRole::Node(second),
                });
            }
        }
        Ok(())
    }

    fn validate_fixture(&self) -> Result<(), ProfileError> {
        let Some(fixture) = self.fixture else {
            return Ok(());
        };
        within(&bounds::SWITCH_ON_MILLIOHMS, 0, fixture.switch_on_milliohms)?;
        within(
            &bounds::SWITCH_LEAKAGE_PICOAMPS,
            0,
            fixture.switch_off_leakage_picoamps,
        )?;
        within(
            &bounds::SWITCHES_PER_EDGE,
            0,
            u32::from(fixture.switches_per_edge),
        )?;
        if !fixture.covers(CAGE_EDGES) {
            return Err(ProfileError::FixtureTooSmall {
                devices: fixture.devices,
                switches_per_device: fixture.switches_per_device,
                switches_per_edge: fixture.switches_per_edge,
            });
        }
        Ok(())
    }
}

/// `value` of the `index`-th field `bound` names, checked against it.
fn within(bound: &Bound, index: usize, value: u32) -> Result<(), ProfileError> {
    within_as(bound, bound.fields[index], value)
}

/// `value` of `field`, checked against `bound`.
fn within_as(bound: &Bound, field: &'static str, value: u32) -> Result<(), ProfileError> {
    if bound.contains(value) {
        Ok(())
    } else {
        Err(ProfileError::OutOfRange {
            field,
            value,
            min: bound.min,
            max: bound.max,
        })
    }
}
