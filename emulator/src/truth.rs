//! The exact `ideal` truth of a decision position, said once for the studies, SIL and the
//! bench: the heuristic's exact move, every edge tied with it, the best drop and the
//! runner-up. Where no other resistor carries a smaller drop there is no runner-up (`None`),
//! never a stand-in number: a report that prints one converts at its own edge.

use heuristic::{Edge, MAX_EDGES, Model, Position, Size};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::exact::{self, ExactVoltages};

/// The exact `ideal` truth of a position, in f64 where the studies need floats (each value
/// the nearest f64 to the exact one).
#[derive(Clone, Debug, PartialEq)]
pub struct Truth {
    /// The board size (what the edge indices below count on).
    pub size: Size,
    /// The heuristic's exact move (the first tied edge in reading order).
    pub choice: Edge,
    /// Every edge tied with it, one bit per edge index (M=8 has 113 edges).
    pub tied: u128,
    /// Node voltages as fractions of the supply; `None` where undefined.
    pub volts: Vec<Option<f64>>,
    /// Every edge's exact drop as a fraction of the supply (0 for a cut edge), by edge index.
    pub drops: [f64; MAX_EDGES],
    /// The largest drop.
    pub best: f64,
    /// The largest drop strictly below it; `None` when no resistor has one.
    pub runner_up: Option<f64>,
    /// best − runner-up, subtracted exactly and rounded once (the difference of the two
    /// rounded floats above can be a few ulps off); `None` without a runner-up.
    pub margin: Option<f64>,
}

impl Truth {
    /// Solves `position` on the exact `ideal` network; `None` when no resistor is left.
    ///
    /// ```
    /// use emulator::truth::Truth;
    /// use heuristic::{Position, Side, Size};
    /// let t = Truth::of(&Position::new(Size::M3, Side::Cut)).unwrap();
    /// assert_eq!(t.choice.to_string(), "A5");
    /// assert_eq!(t.tied_edges(Size::M3).len(), 9); // every vertical carries a third
    /// // The horizontals carry nothing: a runner-up of 0, not none.
    /// assert_eq!((t.best, t.runner_up), (1.0 / 3.0, Some(0.0)));
    /// ```
    pub fn of(position: &Position) -> Option<Truth> {
        Truth::from_exact(position, &exact::solve_model(position, Model::Ideal))
    }

    /// The same from the `ideal` voltages already solved.
    pub fn from_exact(position: &Position, exact: &ExactVoltages) -> Option<Truth> {
        match Truth::from_small(position, exact) {
            Some(truth) => truth,
            None => Truth::from_big(position, exact),
        }
    }

    /// [`Truth::of`] solved in machine integers ([`exact::solve_small`]) when they hold it:
    /// `Some` of what [`Truth::of`] says, `None` when they may not.
    pub fn of_small(position: &Position) -> Option<Option<Truth>> {
        let (det, values, floating) = exact::solve_small(position, Model::Ideal)?;
        Truth::from_values(position, det, &values, &floating)
    }

    /// [`Truth::from_exact`] in machine integers when the common denominator and every
    /// scaled value fit an `i64` (every M=4 position does): the same ranking, ties and
    /// drops as over the big integers, since both rank the same integers by the same
    /// absolute differences, and the same floats ([`fraction`] of the same numbers), without
    /// allocating a big integer per drop (a sixth of the quantisation study's time).
    /// `None` when a value does not fit.
    fn from_small(position: &Position, exact: &ExactVoltages) -> Option<Option<Truth>> {
        let size = position.size();
        let det = exact.denominator().to_i64()?;
        let values: Vec<i64> = exact
            .scaled()
            .iter()
            .map(|v| v.0.to_i64())
            .collect::<Option<_>>()?;
        let floating: Vec<bool> = size.nodes().map(|n| exact.is_floating(n)).collect();
        Truth::from_values(position, det, &values, &floating)
    }

    /// [`Truth::from_small`] from the determinant, det·v per node and which nodes float.
    fn from_values(
        position: &Position,
        det: i64,
        values: &[i64],
        floating: &[bool],
    ) -> Option<Option<Truth>> {
        let size = position.size();
        let fraction = |n: i128| small_fraction(n, det);
        let Some(ranking) = heuristic::rank(position, values).ok().flatten() else {
            return Some(None);
        };
        let mut drops = [0.0; MAX_EDGES];
        for e in position.resistors() {
            if let Some(d) = heuristic::edge_drop(position, values, e) {
                drops[e.index(size)] = fraction(i128::from(d));
            }
        }
        Some(Some(Truth {
            size,
            choice: ranking.choice,
            tied: mask(size, &ranking.tied),
            volts: values
                .iter()
                .zip(floating)
                .map(|(&v, &off)| (!off).then(|| fraction(i128::from(v))))
                .collect(),
            drops,
            best: fraction(i128::from(ranking.best)),
            runner_up: ranking.runner_up.map(|r| fraction(i128::from(r))),
            margin: ranking
                .runner_up
                .map(|next| fraction(i128::from(ranking.best - next))),
        }))
    }

    /// [`Truth::from_exact`] over big integers: any position.
    fn from_big(position: &Position, exact: &ExactVoltages) -> Option<Truth> {
        let size = position.size();
        let ranking = exact.rank()?;
        let det = exact.denominator();
        let fraction = |n: &BigInt| fraction(n, det);
        let mut drops = [0.0; MAX_EDGES];
        for e in position.resistors() {
            if let Some(d) = heuristic::edge_drop(position, exact.scaled(), e) {
                drops[e.index(size)] = fraction(&d);
            }
        }
        Some(Truth {
            size,
            choice: ranking.choice,
            tied: mask(size, &ranking.tied),
            volts: size
                .nodes()
                .zip(exact.scaled())
                .map(|(n, v)| (!exact.is_floating(n)).then(|| fraction(&v.0)))
                .collect(),
            drops,
            best: fraction(&ranking.best),
            runner_up: ranking.runner_up.as_ref().map(fraction),
            margin: ranking
                .runner_up
                .as_ref()
                .map(|next| fraction(&(&ranking.best - next))),
        })
    }

    /// Whether `edge` is one of the exact choices.
    pub fn is_tied(&self, size: Size, edge: Edge) -> bool {
        self.tied & (1 << edge.index(size)) != 0
    }

    /// The tied edges in reading order (the first is [`Truth::choice`]).
    pub fn tied_edges(&self, size: Size) -> Vec<Edge> {
        size.edges().filter(|&e| self.is_tied(size, e)).collect()
    }

    /// best − runner-up, as a fraction of the supply: how much a reading may blur before the
    /// move changes; `None` without a runner-up.
    pub fn margin(&self) -> Option<f64> {
        self.margin
    }

    /// How much smaller than the best `edge`'s exact drop is, as a fraction of the supply.
    pub fn shortfall(&self, size: Size, edge: Edge) -> f64 {
        self.best - self.drops[edge.index(size)]
    }
}

/// n / d as the nearest f64: one correctly rounded division while both are exact in f64
/// (|x| < 2^53, the usual case), the rational's own conversion otherwise.
fn fraction(n: &BigInt, d: &BigInt) -> f64 {
    const EXACT: i64 = 1 << 53;
    match (n.to_i64(), d.to_i64()) {
        (Some(a), Some(b)) if a.abs() < EXACT && b.abs() < EXACT && b != 0 => a as f64 / b as f64,
        _ => BigRational::new(n.clone(), d.clone())
            .to_f64()
            .unwrap_or(0.0),
    }
}

/// [`fraction`] of machine integers: the same correctly rounded division while both are
/// exact in f64, the big integers' conversion otherwise.
fn small_fraction(n: i128, d: i64) -> f64 {
    const EXACT: i128 = 1 << 53;
    if n.abs() < EXACT && i128::from(d).abs() < EXACT && d != 0 {
        n as f64 / d as f64
    } else {
        fraction(&BigInt::from(n), &BigInt::from(d))
    }
}

/// One bit per edge of `edges`.
pub fn mask(size: Size, edges: &[Edge]) -> u128 {
    edges.iter().fold(0, |m, e| m | (1 << e.index(size)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The machine-integer truth is the big-integer truth, field for field, on positions of
    /// every size where it applies (ties, cut-off nodes and finished boards included).
    #[test]
    fn small_truth_is_the_big_truth() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(53);
        let mut compared = 0;
        for m in 2..=6 {
            let size = Size::new(m).unwrap();
            for _ in 0..300 {
                let p = crate::games::any_position(&mut rng, size);
                let exact = exact::solve_model(&p, Model::Ideal);
                if let Some(small) = Truth::from_small(&p, &exact) {
                    assert_eq!(small, Truth::from_big(&p, &exact), "{p:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// The truth solved in machine integers from the start is the big-integer truth, on
    /// every M=2..4 position sampled (where it applies: all of them up to M=4).
    #[test]
    fn truth_solved_small_is_the_big_truth() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(54);
        let mut compared = 0;
        for m in 2..=5 {
            let size = Size::new(m).unwrap();
            for _ in 0..300 {
                let p = crate::games::any_position(&mut rng, size);
                let exact = exact::solve_model(&p, Model::Ideal);
                match Truth::of_small(&p) {
                    Some(small) => {
                        assert_eq!(small, Truth::from_big(&p, &exact), "{p:?}");
                        compared += 1;
                    }
                    None => assert!(m > 4, "M={m} fits an i64: {p:?}"),
                }
            }
        }
        assert!(compared >= 900, "{compared}");
    }
}
