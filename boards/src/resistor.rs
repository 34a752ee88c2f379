//! The cage's resistors.

use crate::Tolerance;

/// The resistors that make up the cage's edges: one part number, one tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Resistors {
    /// Nominal value of every edge resistor.
    pub nominal_ohms: u32,
    /// Tolerance of the part; the series resistor is taken from the same batch.
    pub tolerance: Tolerance,
}
