//! Exact node voltages of a network with integer conductances, as rationals over one
//! common denominator, so that equal drops are equal and ties are exact ties.
//!
//! The reduced nodal system (built by [`heuristic::Reduction`], shared with the float
//! solver) is solved by the crate's one fraction-free Gaussian elimination (Bareiss, in
//! `bareiss`, shared with [`crate::graphs`] and [`crate::mesh`]): every entry stays an
//! integer minor of the matrix, the last pivot is the determinant, and back substitution
//! gives det·v exactly. The elimination runs in `i64` and widens to `i128`, `i256` and
//! finally `BigInt` as Hadamard's bound requires. The matrix is symmetric positive
//! definite (every unknown is tied to a terminal), so no pivoting is needed.

use heuristic::{
    Circuit, Edge, EdgeState, Model, Node, NodeValue, Position, Ranking, Reduction, Size, Slot,
    Stamp, ValuesError,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::bareiss;

/// Row-major integer nodal system, written by [`Reduction::stamp`].
struct IntSystem {
    n: usize,
    supply: i64,
    g: Vec<i64>,
    rhs: Vec<i64>,
    overflow: bool,
}

impl IntSystem {
    fn bump(&mut self, at: usize, by: Option<i64>) {
        match by.and_then(|by| self.g[at].checked_add(by)) {
            Some(v) => self.g[at] = v,
            None => self.overflow = true,
        }
    }
}

impl Stamp<i64> for IntSystem {
    fn add(&mut self, row: usize, col: usize, g: i64) {
        self.bump(row * self.n + col, Some(g));
    }
    fn sub(&mut self, row: usize, col: usize, g: i64) {
        self.bump(row * self.n + col, g.checked_neg());
    }
    fn inject(&mut self, row: usize, g: i64, fixed: Slot) {
        if fixed == Slot::Supply {
            match g
                .checked_mul(self.supply)
                .and_then(|c| self.rhs[row].checked_add(c))
            {
                Some(v) => self.rhs[row] = v,
                None => self.overflow = true,
            }
        }
    }
}

/// Conductances too large to stamp into an `i64` system, or a circuit that is not
/// positive definite (negative conductances).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// A sum of conductances overflowed `i64`.
    #[error("integer conductances overflow i64 when stamped")]
    Overflow,
    /// A zero pivot: the circuit has a negative or otherwise invalid conductance.
    #[error("the nodal system is singular (negative conductance?)")]
    Singular,
    /// The circuit was made for another board size.
    #[error("the circuit is for a {circuit} board but the position is {position}")]
    SizeMismatch {
        /// Size of the circuit.
        circuit: Size,
        /// Size of the position.
        position: Size,
    },
}

/// An exact node value: det·v for a common positive det. Differences compare exactly.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Scaled(pub BigInt);

impl NodeValue for Scaled {
    type Drop = BigInt;
    fn drop_to(&self, other: &Self) -> BigInt {
        (&self.0 - &other.0).abs()
    }
}

/// Exact potentials of every node of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactVoltages {
    position: Position,
    det: BigInt,
    scaled: Vec<Scaled>,
    floating: Vec<bool>,
}

impl ExactVoltages {
    /// The common denominator (positive).
    pub fn denominator(&self) -> &BigInt {
        &self.det
    }

    /// det·v for each node in [`Size::nodes`] order; floating nodes read 0.
    pub fn scaled(&self) -> &[Scaled] {
        &self.scaled
    }

    /// The potential of `node` as a fraction of the supply unit, `None` if it floats.
    pub fn voltage(&self, node: Node) -> Option<BigRational> {
        let i = node.index(self.position.size());
        (!self.floating[i]).then(|| BigRational::new(self.scaled[i].0.clone(), self.det.clone()))
    }

    /// Whether `node` is cut off from both terminals and every pull-up.
    pub fn is_floating(&self, node: Node) -> bool {
        self.floating[node.index(self.position.size())]
    }

    /// Exact drop across `edge` in lowest terms; `None` for a cut edge.
    pub fn drop(&self, edge: Edge) -> Option<BigRational> {
        heuristic::edge_drop(&self.position, &self.scaled, edge)
            .map(|d| BigRational::new(d, self.det.clone()))
    }

    /// The heuristic's ranking over the exact values: ties are exact ties.
    pub fn rank(&self) -> Option<Ranking<BigInt>> {
        match heuristic::rank(&self.position, &self.scaled) {
            Ok(r) => r,
            Err(ValuesError { .. }) => unreachable!("one value per node by construction"),
        }
    }

    /// The position these voltages belong to.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// Exact voltages of a named model; the supply is 1, so values are fractions of it.
///
/// ```
/// use emulator::exact::solve_model;
/// use heuristic::{Model, Position, Side, Size, Edge};
/// let m3 = Size::new(3).unwrap();
/// let v = solve_model(&Position::new(m3, Side::Cut), Model::Ideal);
/// let a5 = Edge::parse(m3, "A5").unwrap();
/// assert_eq!(v.drop(a5).unwrap().to_string(), "1/3");
/// ```
pub fn solve_model(position: &Position, model: Model) -> ExactVoltages {
    match solve(position, &model.integer_circuit(position.size())) {
        Ok(v) => v,
        // The model circuits are small positive integers on a board of the right size.
        Err(e) => unreachable!("model circuits always solve: {e}"),
    }
}

/// The reduced nodal system of `position` on `circuit`, stamped in integers.
fn system(
    position: &Position,
    circuit: &Circuit<i64>,
) -> Result<(Reduction, IntSystem), ExactError> {
    let size = position.size();
    if circuit.size != size {
        return Err(ExactError::SizeMismatch {
            circuit: circuit.size,
            position: size,
        });
    }
    let reduction = Reduction::new(position, circuit);
    let n = reduction.unknowns();
    let mut system = IntSystem {
        n,
        supply: circuit.supply,
        g: vec![0; n * n],
        rhs: vec![0; n],
        overflow: false,
    };
    reduction.stamp(position, circuit, &mut system);
    if system.overflow {
        return Err(ExactError::Overflow);
    }
    Ok((reduction, system))
}

/// Exact voltages in machine integers, when Hadamard's bound says Bareiss on the system
/// stays within an `i64` (every M=4 position of the `ideal` network): the determinant and
/// det·v per node in [`Size::nodes`] order (0 where a node floats), and which nodes float.
/// The values [`solve_model`] gives as big integers, without allocating one per node;
/// `None` when they may not fit.
pub fn solve_small(position: &Position, model: Model) -> Option<(i64, Vec<i64>, Vec<bool>)> {
    let circuit = model.integer_circuit(position.size());
    let (reduction, system) = system(position, &circuit).ok()?;
    let n = system.n;
    if bareiss::bits_needed(n, &system.g, &system.rhs) >= 63.0 {
        return None;
    }
    let (det, y) = bareiss::bareiss::<i64>(n, &system.g, &system.rhs)?;
    if det <= 0 {
        return None;
    }
    let supply = det.checked_mul(circuit.supply)?;
    let mut values = Vec::with_capacity(position.size().node_count());
    let mut floating = Vec::with_capacity(position.size().node_count());
    for node in position.size().nodes() {
        let slot = reduction.slot(node);
        floating.push(slot == Slot::Floating);
        values.push(match slot {
            Slot::Unknown(u) => y[usize::from(u)],
            Slot::Supply => supply,
            Slot::Ground | Slot::Floating => 0,
        });
    }
    Some((det, values, floating))
}

/// Exact voltages for any circuit with integer conductances and supply.
pub fn solve(position: &Position, circuit: &Circuit<i64>) -> Result<ExactVoltages, ExactError> {
    let size = position.size();
    let (reduction, system) = system(position, circuit)?;
    let n = system.n;
    let (det, y) = bareiss::solve(n, &system.g, &system.rhs).ok_or(ExactError::Singular)?;
    if !det.is_positive() {
        return Err(ExactError::Singular);
    }
    let supply = &det * BigInt::from(circuit.supply);
    let mut scaled = Vec::with_capacity(size.node_count());
    let mut floating = Vec::with_capacity(size.node_count());
    for node in size.nodes() {
        let slot = reduction.slot(node);
        floating.push(slot == Slot::Floating);
        scaled.push(Scaled(match slot {
            Slot::Unknown(u) => y[usize::from(u)].clone(),
            Slot::Supply => supply.clone(),
            Slot::Ground | Slot::Floating => BigInt::zero(),
        }));
    }
    Ok(ExactVoltages {
        position: position.clone(),
        det,
        scaled,
        floating,
    })
}

/// Every edge's state and exact drop, in reading order.
pub fn drops(
    v: &ExactVoltages,
) -> impl Iterator<Item = (Edge, EdgeState, Option<BigRational>)> + '_ {
    v.position.edges().map(|(e, s)| (e, s, v.drop(e)))
}

/// The least common denominator of a set of fractions (1 for an empty set).
pub fn common_denominator<'a>(values: impl IntoIterator<Item = &'a BigRational>) -> BigInt {
    use num_integer::Integer;
    values
        .into_iter()
        .fold(BigInt::one(), |acc, v| acc.lcm(v.denom()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bareiss::{Ring, bareiss, bits_needed};
    use ethnum::I256;

    /// Every tier gives the same exact answer where it fits, and overflow is reported
    /// rather than wrapped.
    #[test]
    fn integer_tiers_agree() {
        use heuristic::Model;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut overflowed = 0;
        for m in 2..=5 {
            let size = Size::new(m).unwrap();
            for _ in 0..50 {
                let p = crate::games::any_position(&mut rng, size);
                for model in Model::ALL {
                    let circuit = model.integer_circuit(size);
                    let reduction = Reduction::new(&p, &circuit);
                    let n = reduction.unknowns();
                    let mut s = IntSystem {
                        n,
                        supply: 1,
                        g: vec![0; n * n],
                        rhs: vec![0; n],
                        overflow: false,
                    };
                    reduction.stamp(&p, &circuit, &mut s);
                    let want = bareiss::<BigInt>(n, &s.g, &s.rhs).unwrap();
                    let tiers = [
                        bareiss::<i64>(n, &s.g, &s.rhs).map(|(d, y)| {
                            (
                                d.into_big(),
                                y.into_iter().map(Ring::into_big).collect::<Vec<_>>(),
                            )
                        }),
                        bareiss::<i128>(n, &s.g, &s.rhs).map(|(d, y)| {
                            (d.into_big(), y.into_iter().map(Ring::into_big).collect())
                        }),
                        // i256 wraps instead of failing: only where the bound admits it.
                        (bits_needed(n, &s.g, &s.rhs) < 255.0)
                            .then(|| bareiss::<I256>(n, &s.g, &s.rhs))
                            .flatten()
                            .map(|(d, y)| {
                                (d.into_big(), y.into_iter().map(Ring::into_big).collect())
                            }),
                    ];
                    for got in tiers {
                        match got {
                            Some(got) => assert_eq!(got, want, "{p:?} {model}"),
                            None => overflowed += 1,
                        }
                    }
                }
            }
        }
        assert!(overflowed > 0, "the sample never exercised an overflow");
    }
}
