//! The range of every numeric profile value, with the physical reason for it: one table, read
//! by [`Profile::validate`](crate::Profile::validate), by the error it returns and by the
//! README's table (a test keeps the two equal).
//!
//! The ranges keep a profile a board someone could build from the parts the two profiles
//! cite, and keep the network the emulator solves well inside f64: the largest conductance
//! (a 1 mΩ wire) over the smallest (an open switch passing 1 pA at 5.5 V) stays below 10¹⁶.

use core::ops::RangeInclusive;

/// The range of one or more profile fields, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The fields it bounds, as profile files name them.
    pub fields: &'static [&'static str],
    /// Smallest value allowed.
    pub min: u32,
    /// Largest value allowed.
    pub max: u32,
    /// Why: the physical reason, with the datasheet it comes from.
    pub why: &'static str,
}

impl Bound {
    /// Whether `value` is allowed.
    ///
    /// ```
    /// assert!(boards::bounds::CAGE_OHMS.contains(1_000));
    /// assert!(!boards::bounds::CAGE_OHMS.contains(0));
    /// ```
    pub const fn contains(&self, value: u32) -> bool {
        self.min <= value && value <= self.max
    }

    /// The range as `min..=max`.
    pub const fn range(&self) -> RangeInclusive<u32> {
        self.min..=self.max
    }
}

/// Supply across the cage.
pub const SUPPLY_MILLIVOLTS: Bound = Bound {
    fields: &["supply_millivolts"],
    min: 1_700,
    max: 5_500,
    why: "the cage is fed from the MCU's supply: STM32F446 VDD 1.7-3.6 V (DS10693, general \
          operating conditions), ATmega2560 1.8-5.5 V (2549Q, electrical characteristics)",
};

/// A fixed ADC reference (it must also not exceed the supply).
pub const REFERENCE_MILLIVOLTS: Bound = Bound {
    fields: &["adc.reference"],
    min: 1_000,
    max: 5_500,
    why: "ATmega2560 AREF 1.0 V to AVCC (2549Q, ADC characteristics), STM32F446 VREF+ from \
          1.7 V (DS10693); never above the supply, which bounds the inputs",
};

/// ADC resolutions.
pub const ADC_BITS: Bound = Bound {
    fields: &["adc.bits_used", "adc.accuracy.resolution_bits"],
    min: 6,
    max: 16,
    why: "the resolutions the STM32F446 (6, 8, 10, 12 bits, RM0390 ADC_CR1.RES) and the \
          ATmega2560 (8 or 10) read, up to a 16-bit external converter",
};

/// Conversions averaged per reading.
pub const ADC_SAMPLES: Bound = Bound {
    fields: &["adc.samples"],
    min: 1,
    max: 64,
    why: "at least one conversion; the bench protocol carries at most 64 per request",
};

/// The ADC's largest source impedance.
pub const SOURCE_OHMS: Bound = Bound {
    fields: &["adc.max_source_ohms"],
    min: 100,
    max: 1_000_000,
    why: "datasheets give 10 kOhm (ATmega2560, 2549Q section 26.6.1) and 50 kOhm (STM32F446 \
          R_AIN, DS10693); 1 MOhm would not charge the sampling capacitor",
};

/// Datasheet accuracy figures, typical and maximum, in thousandths of an LSB.
pub const FIGURE_MILLI_LSB: Bound = Bound {
    fields: &[
        "adc.accuracy.<figure>.typ_milli_lsb",
        "adc.accuracy.<figure>.max_milli_lsb",
    ],
    min: 0,
    max: 64_000,
    why: "datasheets quote a few LSB (STM32F446 total error 5 LSB max, ATmega2560 2 LSB); an \
          error of 64 LSB (6 bits of the code) is no converter anyone would fit",
};

/// The edge resistors and the series resistor.
pub const CAGE_OHMS: Bound = Bound {
    fields: &["resistors.nominal_ohms", "series_ohms"],
    min: 100,
    max: 1_000_000,
    why: "at least 100 Ohm, so that the cage (a win by Short: supply to ground through the \
          series resistor) draws at most 55 mA at 5.5 V; at most 1 MOhm, 20 times the 50 kOhm \
          source impedance the STM32F446's ADC settles from (DS10693)",
};

/// A Short's wire.
pub const WIRE_MILLIOHMS: Bound = Bound {
    fields: &["wire_milliohms"],
    min: 1,
    max: 10_000,
    why: "a jumper through two socket contacts is about 50 mOhm; 1 mOhm is a bus bar, and \
          above 10 Ohm the wire is no longer a short next to a 100 Ohm resistor",
};

/// The LEDs' series resistors.
pub const LED_OHMS: Bound = Bound {
    fields: &["leds.series_ohms"],
    min: 100,
    max: 100_000,
    why: "at least 100 Ohm keeps a pin under the 25 mA an STM32F446 I/O sinks (DS10693) and \
          the ATmega2560's 40 mA (2549Q, absolute maximum ratings); above 100 kOhm an LED gets \
          under 50 uA and does not light",
};

/// Pull-ups (one value, or the internal range's ends).
pub const PULLUP_OHMS: Bound = Bound {
    fields: &["pullups.ohms", "pullups.min_ohms", "pullups.max_ohms"],
    min: 1_000,
    max: 1_000_000,
    why: "internal pull-ups are 20-50 kOhm (ATmega2560, 2549Q chapter 31), the Nucleo's are \
          30 kOhm parts; below 1 kOhm 13 of them would load a GPIO rail past its current, above \
          1 MOhm the ADC no longer settles (50 kOhm source, DS10693)",
};

/// The resistors' tolerance band.
pub const TOLERANCE_PPM: Bound = Bound {
    fields: &["resistors.tolerance.ppm"],
    min: 0,
    max: 499_999,
    why: "below 50 %: beyond it a resistor may be a short",
};

/// Standard deviations in a truncated Gaussian's half band.
pub const SIGMAS: Bound = Bound {
    fields: &["resistors.tolerance.distribution.sigmas"],
    min: 1,
    max: 6,
    why: "a band of 1 to 6 standard deviations; beyond 6 no part in a billion falls",
};

/// A closed analog switch of the edge fixture.
pub const SWITCH_ON_MILLIOHMS: Bound = Bound {
    fields: &["fixture.switch_on_milliohms"],
    min: 100,
    max: 1_000_000,
    why: "the ADG714 is 2.5 Ohm typical (its data sheet); low-resistance switches reach \
          0.3 Ohm, old CMOS ones (CD4066B) about 500 Ohm at 5 V",
};

/// Leakage through an open analog switch of the edge fixture.
pub const SWITCH_LEAKAGE_PICOAMPS: Bound = Bound {
    fields: &["fixture.switch_off_leakage_picoamps"],
    min: 1,
    max: 1_000_000,
    why: "the ADG714 leaks 10 pA typical (its data sheet); at 1 uA an open switch would be \
          5.5 MOhm at 5.5 V, no longer open next to a 1 MOhm resistor",
};

/// Switches per edge of the edge fixture.
pub const SWITCHES_PER_EDGE: Bound = Bound {
    fields: &["fixture.switches_per_edge"],
    min: 1,
    max: 2,
    why: "one in series with the resistor (cut) and one across it (short); a third has no role",
};

/// Every bound, in the order of the README's table.
pub const BOUNDS: [&Bound; 15] = [
    &SUPPLY_MILLIVOLTS,
    &REFERENCE_MILLIVOLTS,
    &ADC_BITS,
    &ADC_SAMPLES,
    &SOURCE_OHMS,
    &FIGURE_MILLI_LSB,
    &CAGE_OHMS,
    &WIRE_MILLIOHMS,
    &LED_OHMS,
    &PULLUP_OHMS,
    &TOLERANCE_PPM,
    &SIGMAS,
    &SWITCH_ON_MILLIOHMS,
    &SWITCH_LEAKAGE_PICOAMPS,
    &SWITCHES_PER_EDGE,
];
