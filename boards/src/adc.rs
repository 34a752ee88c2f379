//! The ADC: resolution, reference, and the datasheet's accuracy figures as data.

/// The converter as the machine uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Adc {
    /// Resolution the firmware reads at: 10 on both boards, so that codes match the original
    /// machine's `analogRead` scale (0..=1023).
    pub bits_used: u8,
    /// What full scale is referred to.
    pub reference: AdcReference,
    /// Accuracy figures as the datasheet gives them, at the datasheet's resolution.
    pub accuracy: AdcAccuracy,
    /// Largest source impedance the datasheet recommends, if it gives one. Nodes cut off from
    /// both terminals are driven only through their pull-up, which can exceed it.
    pub max_source_ohms: Option<u32>,
    /// Conversions the firmware averages into one reading (1 = a single `analogRead`, as the
    /// original sketch does). Averaging n samples divides the noise by about sqrt(n).
    pub samples: u8,
}

/// What the ADC's full scale is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AdcReference {
    /// Ratiometric: the reference is the supply that also feeds the cage, so codes do not
    /// depend on the supply's exact value.
    Supply,
    /// A fixed reference independent of the supply.
    Fixed {
        /// Reference voltage.
        millivolts: u32,
    },
}

/// One accuracy figure, in thousandths of an LSB (exact for the datasheets' half-LSB steps and
/// for scaling them to fewer bits). `None` where the datasheet gives no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LsbFigure {
    /// Typical magnitude (the datasheet's ± value).
    pub typ_milli_lsb: Option<u32>,
    /// Maximum magnitude.
    pub max_milli_lsb: Option<u32>,
}

/// A datasheet's static accuracy figures, specified at `resolution_bits`.
///
/// Figures are stored as given so that they can be checked against the datasheet; use
/// [`AdcAccuracy::at_bits`] for the resolution actually read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AdcAccuracy {
    /// Resolution the figures are specified at.
    pub resolution_bits: u8,
    /// Absolute accuracy / total unadjusted error: everything together.
    pub total: LsbFigure,
    /// Offset error.
    pub offset: LsbFigure,
    /// Gain error.
    pub gain: LsbFigure,
    /// Integral non-linearity.
    pub inl: LsbFigure,
    /// Differential non-linearity.
    pub dnl: LsbFigure,
    /// Random noise, one standard deviation (rms), input-referred.
    pub noise_rms: LsbFigure,
}

impl LsbFigure {
    /// No value given.
    pub const UNSPECIFIED: LsbFigure = LsbFigure {
        typ_milli_lsb: None,
        max_milli_lsb: None,
    };

    /// A figure with both typical and maximum values.
    pub const fn typ_max(typ_milli_lsb: u32, max_milli_lsb: u32) -> LsbFigure {
        LsbFigure {
            typ_milli_lsb: Some(typ_milli_lsb),
            max_milli_lsb: Some(max_milli_lsb),
        }
    }

    /// A figure with only a typical value.
    pub const fn typ(typ_milli_lsb: u32) -> LsbFigure {
        LsbFigure {
            typ_milli_lsb: Some(typ_milli_lsb),
            max_milli_lsb: None,
        }
    }

    /// The figure in LSB at a resolution `shift` bits finer (positive) or coarser (negative):
    /// an error of fixed voltage spans 2^shift times as many LSB. Rounded to the nearest
    /// milli-LSB, saturating.
    ///
    /// ```
    /// use boards::LsbFigure;
    /// let f = LsbFigure::typ_max(1_500, 2_500);
    /// assert_eq!(f.shifted(-2), LsbFigure::typ_max(375, 625));
    /// assert_eq!(f.shifted(1), LsbFigure::typ_max(3_000, 5_000));
    /// ```
    pub fn shifted(self, shift: i8) -> LsbFigure {
        let scale = |v: u32| -> u32 {
            let k = u32::from(shift.unsigned_abs());
            if shift >= 0 {
                v.saturating_mul(1u32.checked_shl(k).unwrap_or(u32::MAX))
            } else if k >= 32 {
                0
            } else {
                // Round half up: (v + 2^(k-1)) / 2^k, in u64 so the addition cannot overflow.
                ((u64::from(v) + (1u64 << k >> 1)) >> k) as u32
            }
        };
        LsbFigure {
            typ_milli_lsb: self.typ_milli_lsb.map(scale),
            max_milli_lsb: self.max_milli_lsb.map(scale),
        }
    }

    /// Typical value in LSB.
    ///
    /// ```
    /// assert_eq!(boards::LsbFigure::typ(1_500).typ_lsb(), Some(1.5));
    /// ```
    pub fn typ_lsb(self) -> Option<f64> {
        self.typ_milli_lsb.map(|v| f64::from(v) / 1000.0)
    }

    /// Maximum value in LSB.
    ///
    /// ```
    /// assert_eq!(boards::LsbFigure::typ_max(1_000, 2_000).max_lsb(), Some(2.0));
    /// ```
    pub fn max_lsb(self) -> Option<f64> {
        self.max_milli_lsb.map(|v| f64::from(v) / 1000.0)
    }

    /// The worst case the datasheet supports: the maximum if given, else the typical value.
    ///
    /// ```
    /// use boards::LsbFigure;
    /// assert_eq!(LsbFigure::typ(2_000).bound_milli_lsb(), Some(2_000));
    /// assert_eq!(LsbFigure::typ_max(1_000, 2_000).bound_milli_lsb(), Some(2_000));
    /// assert_eq!(LsbFigure::UNSPECIFIED.bound_milli_lsb(), None);
    /// ```
    pub fn bound_milli_lsb(self) -> Option<u32> {
        self.max_milli_lsb.or(self.typ_milli_lsb)
    }
}

impl AdcAccuracy {
    /// The figures restated at `bits` of resolution: at 10 bits the STM32's 12-bit figures
    /// shrink by 4.
    ///
    /// ```
    /// let acc = boards::NUCLEO_F446RE.adc.accuracy.at_bits(10);
    /// assert_eq!(acc.resolution_bits, 10);
    /// assert_eq!(acc.offset.typ_milli_lsb, Some(375)); // ±1.5 LSB at 12 bits
    /// ```
    pub fn at_bits(&self, bits: u8) -> AdcAccuracy {
        let shift = (i16::from(bits) - i16::from(self.resolution_bits)).clamp(-64, 64) as i8;
        AdcAccuracy {
            resolution_bits: bits,
            total: self.total.shifted(shift),
            offset: self.offset.shifted(shift),
            gain: self.gain.shifted(shift),
            inl: self.inl.shifted(shift),
            dnl: self.dnl.shifted(shift),
            noise_rms: self.noise_rms.shifted(shift),
        }
    }

    /// Each figure with its field path in a profile (and in validation errors).
    pub fn figures(&self) -> [(&'static str, LsbFigure); 6] {
        [
            ("adc.accuracy.total", self.total),
            ("adc.accuracy.offset", self.offset),
            ("adc.accuracy.gain", self.gain),
            ("adc.accuracy.inl", self.inl),
            ("adc.accuracy.dnl", self.dnl),
            ("adc.accuracy.noise_rms", self.noise_rms),
        ]
    }
}
