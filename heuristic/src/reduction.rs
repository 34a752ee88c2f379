//! From a position and a circuit to the unknowns of a nodal system.
//!
//! Shorts merge nodes; groups tied to Q sit at the supply, groups tied to 0 (with no
//! series resistor) at ground; groups that no conducting path joins to either are
//! *floating*: they carry no current and stay out of the system, so it is never
//! singular. Both the float solver here and the emulator's exact solver build their
//! systems from this one reduction.

use num_traits::Zero;

use crate::union_find::UnionFind;
use crate::{Circuit, EdgeState, MAX_NODES, Node, Position, Size};

/// What a node is in the reduced system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Slot {
    /// The i-th unknown of the system.
    Unknown(u8),
    /// Held at the supply (joined to Q by wires).
    Supply,
    /// Held at ground (joined to 0 by wires, and 0 has no series resistor).
    Ground,
    /// Cut off from both terminals and from every pull-up: no defined potential.
    Floating,
}

/// A conductance between two slots: a resistor edge, a pull-up or the series resistor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Branch<T> {
    /// One end.
    pub a: Slot,
    /// The other end.
    pub b: Slot,
    /// Its conductance.
    pub g: T,
}

/// Where a nodal system is written: the solvers implement this for their matrices.
pub trait Stamp<T> {
    /// Adds `g` to the matrix entry (row, col).
    fn add(&mut self, row: usize, col: usize, g: T);
    /// Subtracts `g` from the matrix entry (row, col).
    fn sub(&mut self, row: usize, col: usize, g: T);
    /// Adds the current `g` × (potential of `fixed`) into the right-hand side of `row`.
    fn inject(&mut self, row: usize, g: T, fixed: Slot);
}

/// The slot of every node of a position under a circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    size: Size,
    slots: [Slot; MAX_NODES],
    unknowns: usize,
}

fn conducts<T: PartialOrd + Zero>(g: &T) -> bool {
    *g > T::zero()
}

impl Reduction {
    /// Reduces `position` under `circuit` (which must be laid out for the same size).
    pub fn new<T: Copy + PartialOrd + Zero>(position: &Position, circuit: &Circuit<T>) -> Self {
        let size = position.size();
        let index = |n: Node| n.index(size);
        let (top, bottom) = (index(Node::Top), index(Node::Bottom));
        let grounded = circuit.series.is_none_or(|g| conducts(&g));

        // Groups of nodes joined by wires, then by anything that conducts.
        let mut wires = UnionFind::new();
        let mut paths = UnionFind::new();
        for (i, &state) in position.states().iter().enumerate() {
            let (a, b) = size.edge_ends(i);
            match state {
                EdgeState::Short => {
                    wires.union(a, b);
                    paths.union(a, b);
                }
                EdgeState::Resistor if conducts(&circuit.edges[i]) => paths.union(a, b),
                _ => {}
            }
        }
        for (i, g) in circuit.pullups[..size.node_count()].iter().enumerate() {
            if i != top && conducts(g) {
                paths.union(i, top);
            }
        }

        let mut slots = [Slot::Floating; MAX_NODES];
        let mut unknowns = 0usize;
        let mut root_slot = [None::<Slot>; MAX_NODES];
        for i in 0..size.node_count() {
            let root = wires.find(i);
            let slot = match root_slot[root] {
                Some(slot) => slot,
                None => {
                    let slot = if wires.same(root, top) {
                        // Also when Short has joined Q to 0: everything sits at the supply.
                        Slot::Supply
                    } else if wires.same(root, bottom) && circuit.series.is_none() {
                        Slot::Ground
                    } else if paths.same(root, top) || (grounded && paths.same(root, bottom)) {
                        unknowns += 1;
                        Slot::Unknown((unknowns - 1) as u8)
                    } else {
                        Slot::Floating
                    };
                    root_slot[root] = Some(slot);
                    slot
                }
            };
            slots[i] = slot;
        }
        Reduction { size, slots, unknowns }
    }

    /// Number of unknowns in the system.
    pub fn unknowns(&self) -> usize {
        self.unknowns
    }

    /// The slot of `node`.
    pub fn slot(&self, node: Node) -> Slot {
        self.slots[node.index(self.size)]
    }

    /// Every branch that touches an unknown: resistor edges between different groups,
    /// pull-ups and the series resistor.
    pub fn branches<'a, T: Copy + PartialOrd + Zero>(
        &'a self,
        position: &'a Position,
        circuit: &'a Circuit<T>,
    ) -> impl Iterator<Item = Branch<T>> + 'a {
        let size = self.size;
        let slot = move |i: usize| self.slots[i];
        let edges = position
            .states()
            .iter()
            .enumerate()
            .filter(|&(_, &state)| state == EdgeState::Resistor)
            .map(move |(i, _)| {
                let (a, b) = size.edge_ends(i);
                Branch { a: slot(a), b: slot(b), g: circuit.edges[i] }
            });
        let top = Node::Top.index(size);
        let pullups = (0..size.node_count())
            .filter(move |&i| i != top)
            .map(move |i| Branch { a: slot(i), b: Slot::Supply, g: circuit.pullups[i] });
        let series = circuit.series.map(|g| Branch { a: self.slot(Node::Bottom), b: Slot::Ground, g });
        edges
            .chain(pullups)
            .chain(series)
            .filter(|br| conducts(&br.g) && br.a != br.b)
            .filter(|br| matches!(br.a, Slot::Unknown(_)) || matches!(br.b, Slot::Unknown(_)))
    }

    /// Writes the nodal equations G·v = i of the unknowns into `sink`.
    pub fn stamp<T, S>(&self, position: &Position, circuit: &Circuit<T>, sink: &mut S)
    where
        T: Copy + PartialOrd + Zero,
        S: Stamp<T>,
    {
        for Branch { a, b, g } in self.branches(position, circuit) {
            match (a, b) {
                (Slot::Unknown(i), Slot::Unknown(j)) => {
                    let (i, j) = (usize::from(i), usize::from(j));
                    sink.add(i, i, g);
                    sink.add(j, j, g);
                    sink.sub(i, j, g);
                    sink.sub(j, i, g);
                }
                (Slot::Unknown(i), fixed) | (fixed, Slot::Unknown(i)) => {
                    let i = usize::from(i);
                    sink.add(i, i, g);
                    sink.inject(i, g, fixed);
                }
                _ => {}
            }
        }
    }
}
