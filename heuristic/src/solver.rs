//! Node voltages in floating point (f32 on the MCU, f64 on the host), by Cholesky
//! factorisation of the reduced nodal system in a fixed-size nalgebra matrix.

use nalgebra::{RealField, SMatrix, SVector};

use crate::{Circuit, MAX_NODES, Node, Position, Reduction, Size, Slot, Stamp};

/// Why a system could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SolveError {
    /// The circuit was laid out for another board size.
    #[error("the circuit is for a {circuit} board but the position is {position}")]
    SizeMismatch {
        /// Size of the circuit.
        circuit: Size,
        /// Size of the position.
        position: Size,
    },
    /// More unknowns than the matrix capacity chosen.
    #[error("{unknowns} unknowns do not fit a {capacity}x{capacity} system")]
    Capacity {
        /// Unknowns of the reduced system.
        unknowns: usize,
        /// Rows of the matrix.
        capacity: usize,
    },
    /// The system is not positive definite (a negative conductance, or NaN in the circuit).
    #[error("the nodal system is not positive definite (negative or NaN conductance?)")]
    NotPositiveDefinite,
}

/// The potential of every node, in [`Size::nodes`] order.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Voltages<T> {
    size: Size,
    values: [T; MAX_NODES],
    floating: [bool; MAX_NODES],
}

impl<T: Copy> Voltages<T> {
    /// The potential of `node`, or `None` if it floats (cut off from both terminals and
    /// every pull-up).
    pub fn get(&self, node: Node) -> Option<T> {
        let i = node.index(self.size);
        (!self.floating[i]).then_some(self.values[i])
    }

    /// One value per node, for [`crate::rank`]. Floating nodes read as 0: a floating
    /// part carries no current, and equal values give its resistors no drop.
    pub fn values(&self) -> &[T] {
        &self.values[..self.size.node_count()]
    }

    /// Whether `node` floats.
    pub fn is_floating(&self, node: Node) -> bool {
        self.floating[node.index(self.size)]
    }
}

struct System<T: RealField + Copy, const N: usize> {
    g: SMatrix<T, N, N>,
    i: SVector<T, N>,
    supply: T,
}

impl<T: RealField + Copy, const N: usize> Stamp<T> for System<T, N> {
    fn add(&mut self, row: usize, col: usize, g: T) {
        self.g[(row, col)] += g;
    }
    fn sub(&mut self, row: usize, col: usize, g: T) {
        self.g[(row, col)] -= g;
    }
    fn inject(&mut self, row: usize, g: T, fixed: Slot) {
        if fixed == Slot::Supply {
            self.i[row] += g * self.supply;
        }
    }
}

/// Solves with an N×N matrix (unused rows are padded with the identity). Pick N at
/// least the unknowns of the largest board in use: M(M−1)+1, so 13 covers M ≤ 4.
pub fn solve_in<T: RealField + Copy, const N: usize>(
    position: &Position,
    circuit: &Circuit<T>,
) -> Result<Voltages<T>, SolveError> {
    solve_reduced::<T, N>(position, circuit, &reduce(position, circuit)?)
}

fn reduce<T: RealField + Copy>(
    position: &Position,
    circuit: &Circuit<T>,
) -> Result<Reduction, SolveError> {
    if circuit.size != position.size() {
        return Err(SolveError::SizeMismatch {
            circuit: circuit.size,
            position: position.size(),
        });
    }
    Ok(Reduction::new(position, circuit))
}

fn solve_reduced<T: RealField + Copy, const N: usize>(
    position: &Position,
    circuit: &Circuit<T>,
    reduction: &Reduction,
) -> Result<Voltages<T>, SolveError> {
    let size = position.size();
    let n = reduction.unknowns();
    if n > N {
        return Err(SolveError::Capacity {
            unknowns: n,
            capacity: N,
        });
    }
    let mut system = System::<T, N> {
        g: SMatrix::zeros(),
        i: SVector::zeros(),
        supply: circuit.supply,
    };
    for k in n..N {
        system.g[(k, k)] = T::one();
    }
    reduction.stamp(position, circuit, &mut system);
    let v = system
        .g
        .cholesky()
        .ok_or(SolveError::NotPositiveDefinite)?
        .solve(&system.i);

    let zero = T::zero();
    let mut values = [zero; MAX_NODES];
    let mut floating = [false; MAX_NODES];
    for (k, node) in size.nodes().enumerate() {
        values[k] = match reduction.slot(node) {
            Slot::Unknown(u) => v[usize::from(u)],
            Slot::Supply => circuit.supply,
            Slot::Ground => zero,
            Slot::Floating => {
                floating[k] = true;
                zero
            }
        };
    }
    Ok(Voltages {
        size,
        values,
        floating,
    })
}

/// Solves in the smallest of 8, 13, 16, 24, 32, 48 or 64 unknowns that fits this position's system
/// (the host's entry point; firmware picks one capacity with [`solve_in`]).
///
/// ```
/// use heuristic::{solve, Model, Node, Position, Side, Size};
/// let m3 = Size::new(3).unwrap();
/// let p = Position::new(m3, Side::Cut);
/// let v = solve::<f64>(&p, &Model::Ideal.circuit(m3)).unwrap();
/// let a4 = Node::internal(m3, 1, 4).unwrap();
/// assert!((v.get(a4).unwrap() - 2.0 / 3.0).abs() < 1e-12);
/// ```
pub fn solve<T: RealField + Copy>(
    position: &Position,
    circuit: &Circuit<T>,
) -> Result<Voltages<T>, SolveError> {
    let reduction = reduce(position, circuit)?;
    match reduction.unknowns() {
        0..=8 => solve_reduced::<T, 8>(position, circuit, &reduction),
        // 13 = M(M-1)+1 at M=4, the classic machine's largest system.
        9..=13 => solve_reduced::<T, 13>(position, circuit, &reduction),
        14..=16 => solve_reduced::<T, 16>(position, circuit, &reduction),
        17..=24 => solve_reduced::<T, 24>(position, circuit, &reduction),
        25..=32 => solve_reduced::<T, 32>(position, circuit, &reduction),
        // M=7 has up to 43 unknowns: a 48-matrix is 0.42 of the 64-matrix's Cholesky and
        // little more than half its bytes to move (`beat --size 7` spent a third of its
        // time in the 64-matrix's factorisation and copies).
        33..=48 => solve_reduced::<T, 48>(position, circuit, &reduction),
        _ => solve_reduced::<T, 64>(position, circuit, &reduction),
    }
}
