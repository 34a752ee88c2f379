//! The electrical description of a cage, apart from the position: what each edge,
//! pull-up and the series resistor conduct, and the named network models.

use num_traits::Zero;

use crate::{MAX_EDGES, MAX_NODES, Node, Size};

/// Conductances of every part of the network (siemens, or any consistent unit).
///
/// A zero conductance is an open circuit. Shorted edges are ideal wires whatever their
/// entry here says; a model with contact resistance plays them as resistors instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Circuit<T> {
    /// Board size the arrays are laid out for.
    pub size: Size,
    /// Potential of the top terminal Q; ground is 0.
    pub supply: T,
    /// Conductance of each edge while it is a resistor, in reading order.
    pub edges: [T; MAX_EDGES],
    /// Conductance from each node to the supply (pull-ups), in [`Size::nodes`] order.
    /// The entry for Q is ignored: Q is the supply.
    pub pullups: [T; MAX_NODES],
    /// Conductance from the bottom terminal to ground; `None` ties 0 to ground directly.
    pub series: Option<T>,
}

impl<T: Copy + Zero> Circuit<T> {
    /// Every edge `edge`, every node but Q pulled up by `pullup` (if any), and `series`
    /// from 0 to ground.
    pub fn uniform(size: Size, supply: T, edge: T, pullup: Option<T>, series: Option<T>) -> Self {
        let mut pullups = [T::zero(); MAX_NODES];
        if let Some(g) = pullup {
            for node in size.nodes().filter(|&n| n != Node::Top) {
                pullups[node.index(size)] = g;
            }
        }
        Circuit {
            size,
            supply,
            edges: [edge; MAX_EDGES],
            pullups,
            series,
        }
    }
}

/// The named network models every command accepts (see `docs/DESIGN.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Model {
    /// Unit resistors, ideal wires, supply across the terminals, no pull-ups.
    Ideal,
    /// The original Python program's network: `Ideal` plus a 30R pull-up from every node
    /// but Q to the supply and a series resistor R from 0 to ground.
    Reference,
}

/// A network name that is not a model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("unknown network `{0}` (expected ideal or reference)")]
pub struct ModelError(pub crate::notation::Token);

impl Model {
    /// Both models.
    pub const ALL: [Model; 2] = [Model::Ideal, Model::Reference];

    /// Pull-up resistance of the reference model, in units of R.
    pub const REFERENCE_PULLUP_RATIO: u32 = 30;
    /// Series resistance of the reference model, in units of R.
    pub const REFERENCE_SERIES_RATIO: u32 = 1;

    /// `"ideal"` or `"reference"`.
    pub fn name(self) -> &'static str {
        match self {
            Model::Ideal => "ideal",
            Model::Reference => "reference",
        }
    }

    /// The model with unit resistors (R = 1) and a unit supply, so node values are
    /// fractions of the supply.
    pub fn circuit<T: nalgebra::RealField + Copy>(self, size: Size) -> Circuit<T> {
        let one = T::one();
        let ratio = |r: u32| one / nalgebra::convert::<f64, T>(f64::from(r));
        match self {
            Model::Ideal => Circuit::uniform(size, one, one, None, None),
            Model::Reference => Circuit::uniform(
                size,
                one,
                one,
                Some(ratio(Self::REFERENCE_PULLUP_RATIO)),
                Some(ratio(Self::REFERENCE_SERIES_RATIO)),
            ),
        }
    }

    /// The same model with integer conductances (scaled by the pull-up ratio so that
    /// every part is a whole number) and supply 1, for exact solvers.
    pub fn integer_circuit(self, size: Size) -> Circuit<i64> {
        let scale = i64::from(Self::REFERENCE_PULLUP_RATIO * Self::REFERENCE_SERIES_RATIO);
        match self {
            Model::Ideal => Circuit::uniform(size, 1, 1, None, None),
            Model::Reference => Circuit::uniform(
                size,
                1,
                scale,
                Some(scale / i64::from(Self::REFERENCE_PULLUP_RATIO)),
                Some(scale / i64::from(Self::REFERENCE_SERIES_RATIO)),
            ),
        }
    }
}

impl core::str::FromStr for Model {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Model, ModelError> {
        Model::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ModelError(crate::notation::token(s)))
    }
}

impl core::fmt::Display for Model {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
