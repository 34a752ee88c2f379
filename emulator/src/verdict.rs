//! The judgement of a move, written once for the studies, SIL and the bench: agreeing with
//! the exact choice, an exact tie broken another way (benign), or a divergence (a move
//! outside the exact tied set of the ideal network [`Truth`]) with its cause, found by
//! counterfactual readings.

use heuristic::Edge;
use serde::{Deserialize, Serialize};

use crate::truth::Truth;

/// How a move compares with the exact truth of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Judgement {
    /// The exact choice.
    Agree,
    /// Another edge of the exact tied set: benign.
    Tie,
    /// Outside the exact tied set, for this cause.
    Diverges(Cause),
}

impl Judgement {
    /// Every judgement, in report order.
    pub const ALL: [Judgement; 6] = [
        Judgement::Agree,
        Judgement::Tie,
        Judgement::Diverges(Cause::Quantisation),
        Judgement::Diverges(Cause::Pullups),
        Judgement::Diverges(Cause::Tolerance),
        Judgement::Diverges(Cause::Adc),
    ];

    /// Judges `chosen` on a position whose exact truth is `truth`; `counterfactuals` (the
    /// other readings of the position, costly to make) are asked for only when the move
    /// leaves the tied set.
    ///
    /// ```
    /// use emulator::truth::Truth;
    /// use emulator::verdict::{Cause, Counterfactuals, Judgement};
    /// use heuristic::{Edge, Position, Side, Size};
    /// let e = |name| Edge::parse(Size::M3, name).unwrap();
    /// let truth = Truth::of(&Position::new(Size::M3, Side::Cut)).unwrap();
    /// let none = Counterfactuals::default;
    /// assert_eq!(Judgement::judge(&truth, e("A5"), none), Judgement::Agree);
    /// assert_eq!(Judgement::judge(&truth, e("C3"), none), Judgement::Tie);
    /// let j = Judgement::judge(&truth, e("B4"), none);
    /// assert_eq!(j, Judgement::Diverges(Cause::Tolerance));
    /// assert!(j.diverges());
    /// ```
    pub fn judge(
        truth: &Truth,
        chosen: Edge,
        counterfactuals: impl FnOnce() -> Counterfactuals,
    ) -> Judgement {
        let size = truth.size;
        if chosen == truth.choice {
            Judgement::Agree
        } else if truth.is_tied(size, chosen) {
            Judgement::Tie
        } else {
            Judgement::Diverges(counterfactuals().cause(|e| !truth.is_tied(size, e)))
        }
    }

    /// Whether the move is outside the exact tied set.
    pub fn diverges(self) -> bool {
        matches!(self, Judgement::Diverges(_))
    }

    /// The cause of a divergence.
    pub fn cause(self) -> Option<Cause> {
        match self {
            Judgement::Diverges(c) => Some(c),
            Judgement::Agree | Judgement::Tie => None,
        }
    }

    /// The name reports print: `Agree`, `Tie`, or the cause's (`Quantisation`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Agree => "Agree",
            Judgement::Tie => "Tie",
            Judgement::Diverges(c) => c.name(),
        }
    }

    /// One letter for a per-position table: `.` agree, `b` benign tie, `q` quantisation,
    /// `p` pull-ups, `t` tolerance, `a` the converter's errors.
    pub fn letter(self) -> char {
        match self {
            Judgement::Agree => '.',
            Judgement::Tie => 'b',
            Judgement::Diverges(Cause::Quantisation) => 'q',
            Judgement::Diverges(Cause::Pullups) => 'p',
            Judgement::Diverges(Cause::Tolerance) => 't',
            Judgement::Diverges(Cause::Adc) => 'a',
        }
    }

    /// The position in [`Judgement::ALL`]: a tally's column.
    pub fn index(self) -> usize {
        match self {
            Judgement::Agree => 0,
            Judgement::Tie => 1,
            Judgement::Diverges(c) => 2 + c as usize,
        }
    }
}

/// Serialized as its name in lower case (`"agree"`, `"tie"`, `"quantisation"`, ...), the
/// studies' JSON.
impl Serialize for Judgement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name().to_lowercase())
    }
}

impl<'de> Deserialize<'de> for Judgement {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Judgement::ALL
            .into_iter()
            .find(|j| j.name().eq_ignore_ascii_case(&name))
            .ok_or_else(|| serde::de::Error::custom(format!("no judgement named {name:?}")))
    }
}

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

/// Why a move from codes left the tied set, in the order the counterfactuals are tried.
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

impl Cause {
    /// The name reports print (the variant's).
    pub fn name(self) -> &'static str {
        match self {
            Cause::Quantisation => "Quantisation",
            Cause::Pullups => "Pullups",
            Cause::Tolerance => "Tolerance",
            Cause::Adc => "Adc",
        }
    }
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
