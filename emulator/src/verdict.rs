//! What "diverges" means, said once for the studies and the bench: a move outside the exact
//! tied set of the ideal network (an exact tie broken another way is benign, not a
//! divergence); and why a divergence happened, by counterfactual readings.

use heuristic::Edge;
use serde::{Deserialize, Serialize};

/// Whether `chosen` leaves `tied`, the ideal network's exactly tied best edges.
///
/// ```
/// use heuristic::{Edge, Size};
/// let m3 = Size::M3;
/// let (a5, c5) = (Edge::parse(m3, "A5").unwrap(), Edge::parse(m3, "C5").unwrap());
/// assert!(!emulator::verdict::diverges(&[a5, c5], c5)); // a tie broken another way
/// assert!(emulator::verdict::diverges(&[a5], c5));
/// ```
pub fn diverges(tied: &[Edge], chosen: Edge) -> bool {
    !tied.contains(&chosen)
}

/// Why a move from codes left the tied set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cause {
    /// An ideal converter of the board's resolution on the ideal network already leaves it.
    Quantisation,
    /// The board's network with nominal parts (pull-ups, series resistor, wires) through an
    /// ideal converter already leaves it.
    Pullups,
    /// The board's drawn parts through an ideal converter leave it (on a real board, whose
    /// parts are unknown: its parts or its converter).
    Tolerance,
    /// Only the converter's own errors (offset, gain, INL, DNL, noise) explain it.
    Adc,
}

/// The moves counterfactual readings of the same position make, each `None` where the
/// reading is not available (no board; a real board's parts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counterfactuals {
    /// An ideal converter at the board's LSB on the ideal network.
    pub quantised: Option<Edge>,
    /// The board's nominal network through an ideal converter.
    pub nominal: Option<Edge>,
    /// The board's drawn parts through an ideal converter.
    pub drawn: Option<Edge>,
}

impl Counterfactuals {
    /// The cause of a divergence: the first counterfactual, in the order quantisation,
    /// pull-ups, tolerance, whose move already leaves the tied set (`outside` says whether a
    /// move does); the converter when none does. Without the drawn parts (a real board), a
    /// divergence the first two do not explain is put down to [`Cause::Tolerance`].
    ///
    /// ```
    /// use emulator::verdict::{Cause, Counterfactuals};
    /// use heuristic::{Edge, Size};
    /// let e = |name| Edge::parse(Size::M3, name).unwrap();
    /// let tied = [e("A5")];
    /// let outside = |m: Edge| emulator::verdict::diverges(&tied, m);
    /// let c = Counterfactuals { quantised: Some(e("A5")), nominal: Some(e("C5")), drawn: None };
    /// assert_eq!(c.cause(outside), Cause::Pullups);
    /// let c = Counterfactuals { nominal: Some(e("A5")), drawn: Some(e("A5")), ..c };
    /// assert_eq!(c.cause(outside), Cause::Adc);
    /// ```
    pub fn cause(&self, outside: impl Fn(Edge) -> bool) -> Cause {
        let leaves = |m: Option<Edge>| m.is_some_and(&outside);
        if leaves(self.quantised) {
            Cause::Quantisation
        } else if leaves(self.nominal) {
            Cause::Pullups
        } else if leaves(self.drawn) || self.drawn.is_none() {
            Cause::Tolerance
        } else {
            Cause::Adc
        }
    }
}
