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
        let mut wires: UnionFind = UnionFind::new();
        let mut paths: UnionFind = UnionFind::new();
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
        let (wired_top, wired_bottom) = (wires.find(top), wires.find(bottom));
        let (path_top, path_bottom) = (paths.find(top), paths.find(bottom));
        for (i, slot) in slots.iter_mut().enumerate().take(size.node_count()) {
            let root = wires.find(i);
            *slot = *root_slot[root].get_or_insert_with(|| {
                let path = paths.find(root);
                if root == wired_top {
                    // Also when Short has joined Q to 0: everything sits at the supply.
                    Slot::Supply
                } else if root == wired_bottom && circuit.series.is_none() {
                    Slot::Ground
                } else if path == path_top || (grounded && path == path_bottom) {
                    unknowns += 1;
                    Slot::Unknown((unknowns - 1) as u8)
                } else {
                    Slot::Floating
                }
            });
        }
        Reduction {
            size,
            slots,
            unknowns,
        }
    }

    /// Number of unknowns in the system.
    pub fn unknowns(&self) -> usize {
        self.unknowns
    }

    /// The slot of `node`.
    pub fn slot(&self, node: Node) -> Slot {
        self.slots[node.index(self.size)]
    }

    /// Writes the nodal equations G·v = i of the unknowns into `sink`: every resistor
    /// between two groups, every pull-up and the series resistor.
    pub fn stamp<T, S>(&self, position: &Position, circuit: &Circuit<T>, sink: &mut S)
    where
        T: Copy + PartialOrd + Zero,
        S: Stamp<T>,
    {
        let size = self.size;
        for (i, &state) in position.states().iter().enumerate() {
            if state == EdgeState::Resistor {
                let (a, b) = size.edge_ends(i);
                branch(sink, self.slots[a], self.slots[b], circuit.edges[i]);
            }
        }
        let top = Node::Top.index(size);
        for (i, &g) in circuit.pullups[..size.node_count()].iter().enumerate() {
            if i != top {
                branch(sink, self.slots[i], Slot::Supply, g);
            }
        }
        if let Some(g) = circuit.series {
            branch(sink, self.slot(Node::Bottom), Slot::Ground, g);
        }
    }
}

/// Stamps one conductance `g` between slots `a` and `b`; nothing if it does not conduct,
/// joins a group to itself, or touches no unknown.
fn branch<T: Copy + PartialOrd + Zero, S: Stamp<T>>(sink: &mut S, a: Slot, b: Slot, g: T) {
    if !conducts(&g) || a == b {
        return;
    }
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
