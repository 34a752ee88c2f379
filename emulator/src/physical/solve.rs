//! Nodal analysis of the physical network in f64.
//!
//! The only sources are the supply (Q and the pull-up supply) and ground, both tied to the
//! common reference, so modified nodal analysis needs no extra source rows: the fixed nodes
//! move to the right-hand side and what is left is a symmetric positive definite
//! conductance matrix, factored by Cholesky in a fixed-size (stack) matrix. Parts cut off
//! from every fixed node are found first and left out, so the matrix is singular only when
//! rounding eats its smallest conductances (values far outside [`boards::bounds`]): then
//! [`solve`] returns a [`SolveError`]. Cut-off parts' voltage is reported as undefined and
//! their branches carry no current.

use heuristic::{MAX_NODES, Node, Position, Size, UnionFind};
use nalgebra::{SMatrix, SVector};

use super::network::{Branch, End, PullupState, branches};
use boards::RailRelease;

use super::{Board, Parts, Pullups};

/// Why a network could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Rounding made the conductance matrix singular: the board's conductances span more than
    /// f64 resolves (a profile inside [`boards::bounds`] never does).
    #[error(
        "the board's network cannot be solved: its {unknowns} x {unknowns} conductance matrix \
         is not positive definite in f64 (conductances too far apart)"
    )]
    NotPositiveDefinite {
        /// Unknowns of the system.
        unknowns: usize,
    },
    /// The game does not fit the cage.
    #[error(transparent)]
    Cage(#[from] boards::CageSizeError),
}

/// Node voltages of one reading.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    size: Size,
    supply: f64,
    volts: Vec<Option<f64>>,
    rail: Option<f64>,
}

/// Slots for connectivity: the cage's nodes, a floating rail, and everything held fixed.
const RAIL: usize = MAX_NODES;
const FIXED: usize = MAX_NODES + 1;
const SLOTS: usize = MAX_NODES + 2;
/// Row marker of a slot that is not an unknown.
const CUT_OFF: u8 = u8::MAX;

/// What an end is in the linear system.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Term {
    Unknown(usize),
    Fixed(f64),
    Undefined,
}

/// Which ends are unknowns of the system (and their row), fixed, or cut off.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Numbering {
    /// Per slot: the unknown's row, or [`CUT_OFF`]. One byte each, so that the numbering
    /// stays small to copy.
    rows: [u8; SLOTS],
    unknowns: usize,
}

impl Numbering {
    pub(super) fn new(
        board: &Board,
        parts: &Parts,
        position: &Position,
        pullups: PullupState,
    ) -> Self {
        let size = position.size();
        let mut sets = UnionFind::<SLOTS>::new();
        let rail_used = pullups == PullupState::Released
            && matches!(
                board.pullups,
                Pullups::SharedRail {
                    released: RailRelease::Floating,
                    ..
                }
            );
        // Pull-ups on tie every node to the supply, and a fixture's leakage joins every
        // edge: then nothing is cut off and the connectivity pass can be skipped.
        let all_joined = pullups == PullupState::On || board.switches.is_some();
        if !all_joined {
            branches(board, parts, position, pullups, |b| {
                sets.union(slot(size, b.a), slot(size, b.b));
            });
        }
        let mut rows = [CUT_OFF; SLOTS];
        let mut unknowns = 0;
        let free = size
            .nodes()
            .filter(|n| *n != Node::Top)
            .map(|n| n.index(size))
            .chain(rail_used.then_some(RAIL));
        for s in free {
            if all_joined || sets.same(s, FIXED) {
                rows[s] = unknowns as u8;
                unknowns += 1;
            }
        }
        Numbering { rows, unknowns }
    }

    pub(super) fn unknowns(&self) -> usize {
        self.unknowns
    }

    #[inline]
    /// Stamps one branch: `add(p, q, g)` for matrix entries, `inject(p, i)` for the
    /// right-hand side.
    pub(super) fn stamp(
        &self,
        size: Size,
        supply: f64,
        b: &Branch,
        mut add: impl FnMut(usize, usize, f64),
        mut inject: impl FnMut(usize, f64),
    ) {
        let c = 1.0 / b.ohms;
        match (self.term(size, b.a, supply), self.term(size, b.b, supply)) {
            (Term::Unknown(p), Term::Unknown(q)) => {
                add(p, p, c);
                add(q, q, c);
                add(p, q, -c);
                add(q, p, -c);
            }
            (Term::Unknown(p), Term::Fixed(v)) | (Term::Fixed(v), Term::Unknown(p)) => {
                add(p, p, c);
                inject(p, c * v);
            }
            _ => {}
        }
    }

    /// The unknown an end is, if it is one, else its fixed voltage (`Err(Some(v))`) or
    /// nothing (`Err(None)`, cut off).
    pub(super) fn unknown(&self, size: Size, end: End, supply: f64) -> Result<usize, Option<f64>> {
        match self.term(size, end, supply) {
            Term::Unknown(p) => Ok(p),
            Term::Fixed(v) => Err(Some(v)),
            Term::Undefined => Err(None),
        }
    }

    /// The solution from the unknowns' values.
    pub(super) fn solution(&self, size: Size, supply: f64, values: &[f64]) -> Solution {
        let value = |t: Term| match t {
            Term::Unknown(k) => Some(values[k]),
            Term::Fixed(x) => Some(x),
            Term::Undefined => None,
        };
        Solution {
            size,
            supply,
            volts: size
                .nodes()
                .map(|node| value(self.term(size, End::Node(node), supply)))
                .collect(),
            rail: value(self.slot_term(RAIL)),
        }
    }

    #[inline]
    fn term(&self, size: Size, end: End, supply: f64) -> Term {
        match end {
            End::Supply | End::Node(Node::Top) => Term::Fixed(supply),
            End::Ground => Term::Fixed(0.0),
            other => self.slot_term(slot(size, other)),
        }
    }

    #[inline]
    fn slot_term(&self, slot: usize) -> Term {
        match self.rows[slot] {
            CUT_OFF => Term::Undefined,
            row => Term::Unknown(usize::from(row)),
        }
    }
}

fn slot(size: Size, end: End) -> usize {
    match end {
        End::Node(Node::Top) | End::Supply | End::Ground => FIXED,
        End::Node(n) => n.index(size),
        End::Rail => RAIL,
    }
}

/// Solves the reading `position` makes on a board built from `parts` with the pull-ups in
/// `pullups`.
///
/// ```
/// use emulator::physical::{Board, Parts, PullupState, solve};
/// use heuristic::{Node, Position, Side, Size};
/// let m3 = Size::new(3).unwrap();
/// let board = Board::from_profile(&boards::NUCLEO_F446RE);
/// let parts = Parts::nominal(&board, m3);
/// let start = Position::new(m3, Side::Cut);
/// let on = solve(&board, &parts, &start, PullupState::On).unwrap();
/// // The cage (three columns of three 1 kΩ) over the 1 kΩ series resistor: the bottom
/// // terminal sits near half the supply, lifted a little by the 30 kΩ pull-ups.
/// let v0 = on.volts(Node::Bottom).unwrap() / board.supply_volts;
/// assert!(v0 > 0.5 && v0 < 0.53);
/// ```
pub fn solve(
    board: &Board,
    parts: &Parts,
    position: &Position,
    pullups: PullupState,
) -> Result<Solution, SolveError> {
    let numbering = Numbering::new(board, parts, position, pullups);
    match numbering.unknowns {
        0..=8 => solve_in::<8>(board, parts, position, pullups, &numbering),
        // 13: M=4's 12 internal nodes and the bottom terminal; 14 with a floating rail.
        9..=13 => solve_in::<13>(board, parts, position, pullups, &numbering),
        14 => solve_in::<14>(board, parts, position, pullups, &numbering),
        15..=32 => solve_in::<32>(board, parts, position, pullups, &numbering),
        _ => solve_in::<64>(board, parts, position, pullups, &numbering),
    }
}

fn solve_in<const N: usize>(
    board: &Board,
    parts: &Parts,
    position: &Position,
    pullups: PullupState,
    numbering: &Numbering,
) -> Result<Solution, SolveError> {
    let size = position.size();
    let supply = board.supply_volts;
    let n = numbering.unknowns;
    let mut g = SMatrix::<f64, N, N>::zeros();
    let mut i = SVector::<f64, N>::zeros();
    for k in n..N {
        g[(k, k)] = 1.0;
    }
    branches(board, parts, position, pullups, |b: Branch| {
        numbering.stamp(size, supply, &b, |p, q, c| g[(p, q)] += c, |p, c| i[p] += c);
    });
    // Every unknown is joined to a fixed node through positive conductances, so the matrix
    // is positive definite in exact arithmetic; in f64 only while the conductances are not
    // too far apart.
    let v = g
        .cholesky()
        .ok_or(SolveError::NotPositiveDefinite { unknowns: n })?
        .solve(&i);
    solved(numbering.solution(size, supply, &v.as_slice()[..n]), n)
}

/// `solution`, unless rounding left a voltage that is not finite.
pub(super) fn solved(solution: Solution, unknowns: usize) -> Result<Solution, SolveError> {
    let finite = solution.volts.iter().flatten().chain(&solution.rail);
    if finite.clone().all(|v| v.is_finite()) {
        Ok(solution)
    } else {
        Err(SolveError::NotPositiveDefinite { unknowns })
    }
}

impl Solution {
    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The voltage of `node`; `None` when it is cut off from the supply and ground (with the
    /// pull-ups released), where nothing defines it.
    pub fn volts(&self, node: Node) -> Option<f64> {
        self.volts[node.index(self.size)]
    }

    /// Every node's voltage in [`Size::nodes`] order.
    pub fn all_volts(&self) -> &[Option<f64>] {
        &self.volts
    }

    /// A floating pull-up rail's voltage, when there is one and it is defined.
    pub fn rail_volts(&self) -> Option<f64> {
        self.rail
    }

    /// The voltage at a branch end; `None` where undefined.
    pub fn end_volts(&self, end: End) -> Option<f64> {
        match end {
            End::Node(n) => self.volts(n),
            End::Supply => Some(self.supply),
            End::Ground => Some(0.0),
            End::Rail => self.rail,
        }
    }

    /// The current through `branch` from `a` to `b`, amperes; 0 in a part cut off from
    /// both terminals.
    pub fn current(&self, branch: &Branch) -> f64 {
        match (self.end_volts(branch.a), self.end_volts(branch.b)) {
            (Some(a), Some(b)) => (a - b) / branch.ohms,
            _ => 0.0,
        }
    }
}
