//! Resistor tolerance: how far a part may stray from its nominal value, and how parts spread.

/// Parts per million in one percent.
pub const PPM_PER_PERCENT: u32 = 10_000;

/// A tolerance band as an exact integer, and the assumed spread of parts inside it.
///
/// Stored in parts per million rather than as a float so that profiles compare exactly and
/// a 1 % part is exactly `10_000`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Tolerance {
    /// Half-width of the band: a part lies within nominal × (1 ± ppm / 10⁶).
    pub ppm: u32,
    /// How parts are spread within the band; only data here, the emulator draws from it.
    pub distribution: Distribution,
}

/// How resistor values spread inside their tolerance band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Distribution {
    /// Normal around nominal, cut off at the band's edges, with the band `sigmas` standard
    /// deviations wide on each side. The usual assumption for a process centred on nominal.
    TruncatedGaussian {
        /// Band half-width in standard deviations (3 is customary).
        sigmas: u8,
    },
    /// Equally likely anywhere in the band: the pessimistic assumption.
    Uniform,
    /// Parts within ±`hole_ppm` of nominal were sorted out and sold as a tighter grade, so
    /// none lie there.
    Binned {
        /// Half-width of the empty middle of the band.
        hole_ppm: u32,
    },
}

impl Default for Distribution {
    /// A truncated Gaussian with the band at ±3σ.
    fn default() -> Distribution {
        Distribution::TruncatedGaussian { sigmas: 3 }
    }
}

impl Tolerance {
    /// A band of `percent` %, spread as the default distribution.
    ///
    /// ```
    /// use boards::{Distribution, Tolerance};
    /// let t = Tolerance::percent(1);
    /// assert_eq!(t.ppm, 10_000);
    /// assert_eq!(t.distribution, Distribution::TruncatedGaussian { sigmas: 3 });
    /// ```
    pub const fn percent(percent: u32) -> Tolerance {
        Tolerance {
            ppm: percent * PPM_PER_PERCENT,
            distribution: Distribution::TruncatedGaussian { sigmas: 3 },
        }
    }

    /// The band's half-width as a fraction: 0.01 for 1 %.
    ///
    /// ```
    /// assert_eq!(boards::Tolerance::percent(1).fraction(), 0.01);
    /// ```
    pub fn fraction(self) -> f64 {
        f64::from(self.ppm) / 1e6
    }

    /// Lowest and highest value a part of `nominal_ohms` may have, in ohms (rounded outwards).
    ///
    /// ```
    /// assert_eq!(boards::Tolerance::percent(1).bounds_ohms(1_000), (990, 1_010));
    /// ```
    pub fn bounds_ohms(self, nominal_ohms: u32) -> (u32, u32) {
        let nominal = u64::from(nominal_ohms);
        let delta = (nominal * u64::from(self.ppm)).div_ceil(1_000_000);
        let low = nominal.saturating_sub(delta);
        let high = (nominal + delta).min(u64::from(u32::MAX));
        (low as u32, high as u32)
    }
}
