//! Nodal analysis of the physical network in f64.
//!
//! The only sources are the supply (Q and the pull-up supply) and ground, both tied to the
//! common reference, so modified nodal analysis needs no extra source rows: the fixed nodes
//! move to the right-hand side and what is left is a symmetric positive definite
//! conductance matrix, factored by Cholesky in a fixed-size (stack) matrix. Parts cut off
//! from every fixed node are found first and left out, so the matrix is never singular:
//! their voltage is reported as undefined and their branches carry no current.

use heuristic::{MAX_NODES, Node, Position, Size, UnionFind};
use nalgebra::{SMatrix, SVector};

use super::network::{Branch, End, PullupState, branches};
use super::{Board, Parts};

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

/// What an end is in the linear system.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Term {
    Unknown(usize),
    Fixed(f64),
    Undefined,
}

struct Numbering {
    terms: [Term; SLOTS],
    unknowns: usize,
}

impl Numbering {
    fn new(board: &Board, parts: &Parts, position: &Position, pullups: PullupState) -> Self {
        let size = position.size();
        let mut sets = UnionFind::<SLOTS>::new();
        let mut rail_used = false;
        branches(board, parts, position, pullups, |b| {
            rail_used |= b.a == End::Rail || b.b == End::Rail;
            sets.union(slot(size, b.a), slot(size, b.b));
        });
        let mut terms = [Term::Undefined; SLOTS];
        let mut unknowns = 0;
        let free = size
            .nodes()
            .filter(|n| *n != Node::Top)
            .map(|n| n.index(size))
            .chain(rail_used.then_some(RAIL));
        for s in free {
            if sets.same(s, FIXED) {
                terms[s] = Term::Unknown(unknowns);
                unknowns += 1;
            }
        }
        Numbering { terms, unknowns }
    }

    fn term(&self, size: Size, end: End, supply: f64) -> Term {
        match end {
            End::Supply | End::Node(Node::Top) => Term::Fixed(supply),
            End::Ground => Term::Fixed(0.0),
            other => self.terms[slot(size, other)],
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
/// let on = solve(&board, &parts, &start, PullupState::On);
/// // The cage (three columns of three 1 kΩ) over the 1 kΩ series resistor: the bottom
/// // terminal sits near half the supply, lifted a little by the 30 kΩ pull-ups.
/// let v0 = on.volts(Node::Bottom).unwrap() / board.supply_volts;
/// assert!(v0 > 0.5 && v0 < 0.53);
/// ```
pub fn solve(board: &Board, parts: &Parts, position: &Position, pullups: PullupState) -> Solution {
    let numbering = Numbering::new(board, parts, position, pullups);
    match numbering.unknowns {
        0..=8 => solve_in::<8>(board, parts, position, pullups, &numbering),
        // 14: M=4's 12 internal nodes, the bottom terminal and a floating rail.
        9..=14 => solve_in::<14>(board, parts, position, pullups, &numbering),
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
) -> Solution {
    let size = position.size();
    let supply = board.supply_volts;
    let n = numbering.unknowns;
    let mut g = SMatrix::<f64, N, N>::zeros();
    let mut i = SVector::<f64, N>::zeros();
    for k in n..N {
        g[(k, k)] = 1.0;
    }
    branches(board, parts, position, pullups, |b: Branch| {
        let c = 1.0 / b.ohms;
        let ta = numbering.term(size, b.a, supply);
        let tb = numbering.term(size, b.b, supply);
        match (ta, tb) {
            (Term::Unknown(p), Term::Unknown(q)) => {
                g[(p, p)] += c;
                g[(q, q)] += c;
                g[(p, q)] -= c;
                g[(q, p)] -= c;
            }
            (Term::Unknown(p), Term::Fixed(v)) | (Term::Fixed(v), Term::Unknown(p)) => {
                g[(p, p)] += c;
                i[p] += c * v;
            }
            _ => {}
        }
    });
    // Every unknown is joined to a fixed node through positive conductances, so the matrix
    // is positive definite; a failure would be a bug in the numbering, not bad input.
    let v = g
        .cholesky()
        .expect("reduced conductance matrix is positive definite")
        .solve(&i);
    let value = |t: Term| match t {
        Term::Unknown(k) => Some(v[k]),
        Term::Fixed(x) => Some(x),
        Term::Undefined => None,
    };
    Solution {
        size,
        supply,
        volts: size
            .nodes()
            .map(|node| value(numbering.term(size, End::Node(node), supply)))
            .collect(),
        rail: value(numbering.terms[RAIL]),
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
