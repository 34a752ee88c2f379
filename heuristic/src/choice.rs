//! Shannon's heuristic over measured node values: cut the resistor with the largest
//! voltage drop, ties to the first edge in reading order.

use crate::{Edge, EdgeState, MAX_EDGES, Position};

/// A value measured (or computed) at a node: an ADC code, a voltage, an exact scaled
/// voltage. All that the heuristic needs is the size of the difference between two.
pub trait NodeValue: Clone {
    /// The magnitude of a difference; compared with `PartialOrd`, equal means tied.
    type Drop: Clone + PartialOrd;

    /// |self − other|.
    fn drop_to(&self, other: &Self) -> Self::Drop;
}

macro_rules! unsigned_value {
    ($($t:ty),*) => {$(
        impl NodeValue for $t {
            type Drop = $t;
            fn drop_to(&self, other: &Self) -> $t {
                self.abs_diff(*other)
            }
        }
    )*};
}
unsigned_value!(u8, u16, u32, u64);

macro_rules! signed_value {
    ($($t:ty => $u:ty),*) => {$(
        impl NodeValue for $t {
            type Drop = $u;
            fn drop_to(&self, other: &Self) -> $u {
                self.abs_diff(*other)
            }
        }
    )*};
}
signed_value!(i16 => u16, i32 => u32, i64 => u64, i128 => u128);

macro_rules! float_value {
    ($($t:ty),*) => {$(
        impl NodeValue for $t {
            type Drop = $t;
            fn drop_to(&self, other: &Self) -> $t {
                let d = *self - *other;
                if d < 0.0 { -d } else { d }
            }
        }
    )*};
}
float_value!(f32, f64);

/// Node values given for fewer nodes than the board has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("expected a value for each of the {expected} nodes, got {got}")]
pub struct ValuesError {
    /// Nodes on the board (internal nodes, Q, 0).
    pub expected: usize,
    /// Values given.
    pub got: usize,
}

/// The heuristic's decision and what a study needs to judge it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Ranking<D> {
    /// The move: the first edge in reading order among those tied at `best`.
    pub choice: Edge,
    /// The largest drop over the resistors.
    pub best: D,
    /// The largest drop strictly below `best`, if any resistor has one. The margin
    /// `best − runner_up` is what quantisation or tolerance must eat to change the move.
    pub runner_up: Option<D>,
    /// Every resistor whose drop equals `best`, in reading order (starts with `choice`).
    pub tied: heapless::Vec<Edge, MAX_EDGES>,
}

/// The drop across `edge` given node values in [`crate::Size::nodes`] order.
///
/// `None` for a cut edge, which carries nothing whatever its ends read.
pub fn edge_drop<V: NodeValue>(position: &Position, values: &[V], edge: Edge) -> Option<V::Drop> {
    if position.state(edge) == EdgeState::Cut {
        return None;
    }
    let size = position.size();
    let (a, b) = edge.ends(size);
    Some(values[a.index(size)].drop_to(&values[b.index(size)]))
}

/// Ranks the resistors of `position` by the drop across them.
///
/// `values` holds one value per node in [`crate::Size::nodes`] order (internal nodes in
/// reading order, then Q, then 0). Returns `Ok(None)` when no resistor is left. Whose
/// turn it is does not matter here; the caller decides whether to play the choice.
///
/// ```
/// use heuristic::{rank, Position, Side, Size};
/// let m2 = Size::new(2).unwrap();
/// let p = Position::new(m2, Side::Cut);
/// // Nodes A2, C2, Q, 0: on the empty board both columns split the supply evenly.
/// let r = rank(&p, &[500u16, 500, 1000, 0]).unwrap().unwrap();
/// assert_eq!(r.choice.to_string(), "A3");
/// assert_eq!(r.tied.len(), 4);
/// assert_eq!(r.runner_up, Some(0)); // B2 joins two equal nodes
/// ```
pub fn rank<V: NodeValue>(
    position: &Position,
    values: &[V],
) -> Result<Option<Ranking<V::Drop>>, ValuesError> {
    let size = position.size();
    if values.len() < size.node_count() {
        return Err(ValuesError {
            expected: size.node_count(),
            got: values.len(),
        });
    }
    let drops = || {
        position
            .resistors()
            .map(|e| (e, edge_drop(position, values, e)))
    };
    let mut best: Option<(Edge, V::Drop)> = None;
    for (edge, drop) in drops() {
        let Some(drop) = drop else { continue };
        let better = match &best {
            None => true,
            Some((_, b)) => drop > *b,
        };
        if better {
            best = Some((edge, drop));
        }
    }
    let Some((choice, best)) = best else {
        return Ok(None);
    };
    let mut tied = heapless::Vec::new();
    let mut runner_up: Option<V::Drop> = None;
    for (edge, drop) in drops() {
        let Some(drop) = drop else { continue };
        if drop == best {
            // Capacity is MAX_EDGES, the most edges any board has.
            let _ = tied.push(edge);
        } else if drop < best && runner_up.as_ref().is_none_or(|r| drop > *r) {
            runner_up = Some(drop);
        }
    }
    Ok(Some(Ranking {
        choice,
        best,
        runner_up,
        tied,
    }))
}

/// The heuristic's move alone: see [`rank`].
pub fn choose<V: NodeValue>(
    position: &Position,
    values: &[V],
) -> Result<Option<Edge>, ValuesError> {
    Ok(rank(position, values)?.map(|r| r.choice))
}
