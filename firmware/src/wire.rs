//! How the messages write `heuristic`'s types, which know nothing of serde: a mirror of each
//! enum, whose variant order fixes its byte on the wire (postcard writes a variant's index), and
//! the `#[serde(with = ...)]` modules that convert from and to the domain type. Changing a
//! mirror changes the protocol (`tests/wire_format.rs` pins the bytes).

use heuristic::{EdgeState, Side};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use boards::CAGE_EDGES;

/// [`EdgeState`] on the wire: Resistor 0, Cut 1, Short 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum WireState {
    /// In circuit.
    Resistor,
    /// Open.
    Cut,
    /// A wire.
    Short,
}

impl From<EdgeState> for WireState {
    fn from(state: EdgeState) -> WireState {
        match state {
            EdgeState::Resistor => WireState::Resistor,
            EdgeState::Cut => WireState::Cut,
            EdgeState::Short => WireState::Short,
        }
    }
}

impl From<WireState> for EdgeState {
    fn from(state: WireState) -> EdgeState {
        match state {
            WireState::Resistor => EdgeState::Resistor,
            WireState::Cut => EdgeState::Cut,
            WireState::Short => EdgeState::Short,
        }
    }
}

/// [`Side`] on the wire: Cut 0, Short 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum WireSide {
    /// The machine.
    Cut,
    /// The human (or the bench).
    Short,
}

impl From<Side> for WireSide {
    fn from(side: Side) -> WireSide {
        match side {
            Side::Cut => WireSide::Cut,
            Side::Short => WireSide::Short,
        }
    }
}

impl From<WireSide> for Side {
    fn from(side: WireSide) -> Side {
        match side {
            WireSide::Cut => Side::Cut,
            WireSide::Short => Side::Short,
        }
    }
}

/// A [`Side`] field: `#[serde(with = "wire::side")]`.
pub(crate) mod side {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(side: &Side, serializer: S) -> Result<S::Ok, S::Error> {
        WireSide::from(*side).serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Side, D::Error> {
        WireSide::deserialize(deserializer).map(Side::from)
    }
}

/// The states of every edge of the M=4 cage, a fixed-length array (no length on the wire):
/// `#[serde(with = "wire::cage_states")]`.
pub(crate) mod cage_states {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(
        states: &[EdgeState; CAGE_EDGES],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        states.map(WireState::from).serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<[EdgeState; CAGE_EDGES], D::Error> {
        <[WireState; CAGE_EDGES]>::deserialize(deserializer)
            .map(|states| states.map(EdgeState::from))
    }
}

/// Up to [`CAGE_EDGES`] edge states, a sequence (its length first on the wire):
/// `#[serde(with = "wire::edge_states")]`.
pub(crate) mod edge_states {
    use super::*;

    type States = heapless::Vec<EdgeState, CAGE_EDGES>;
    type Wire = heapless::Vec<WireState, CAGE_EDGES>;

    pub(crate) fn serialize<S: Serializer>(
        states: &States,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        states
            .iter()
            .copied()
            .map(WireState::from)
            .collect::<Wire>()
            .serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<States, D::Error> {
        Wire::deserialize(deserializer)
            .map(|states| states.into_iter().map(EdgeState::from).collect())
    }
}
