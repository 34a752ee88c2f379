//! Faults an emulated board can be given: one typed list of what goes wrong on a real cage,
//! so that the bench can ask which of them the firmware's self-check sees.
//!
//! Places are squares of the game's board (an M=3 game's edges and nodes sit on the same
//! squares of the M=4 cage). Against [`heuristic::Position`]: a `Short` is a wire on the
//! edge, a `Cut` is the resistor removed, a `Resistor` is the part in place.

use heuristic::{Edge, EdgeState, Node, Position, Side, Size};

use super::OPEN_OHMS;
use crate::physical::{Board, Parts};

/// One fault of the cage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defect {
    /// The edge's resistor is open (a broken lead): it carries no current.
    Open(Edge),
    /// The edge's resistor is ten times its value (a part from the wrong bin).
    TenTimes(Edge),
    /// The edge's resistor is a tenth of its value.
    Tenth(Edge),
    /// When the edge is cut, a wire is left across it: the game says `Cut`, the cage holds
    /// `Short` (the person removed the resistor and forgot a jumper there). Nothing differs
    /// until the edge is cut.
    WireLeft(Edge),
    /// Two edges wired to each other's places: the cage holds at each what the game says of
    /// the other (a wire for Short's move lands on the other edge, as does a cut).
    Swapped(Edge, Edge),
    /// The node's ADC channel reads this code whatever its voltage (a shorted or
    /// disconnected input).
    Stuck(Node, u16),
    /// The node's pull-up never connects.
    NoPullup(Node),
    /// The series resistor from the bottom terminal to ground is shorted by a wire.
    SeriesShorted,
}

/// A fault whose place is not on the game's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DefectError {
    /// The edge is not one of the game's.
    #[error("{edge} is not an edge of the M={size} board")]
    Edge {
        /// The edge.
        edge: Edge,
        /// The game's M.
        size: u8,
    },
    /// The node is not one the board measures (the top terminal is the supply).
    #[error("{node} is not a measured node of the M={size} board")]
    Node {
        /// The node.
        node: Node,
        /// The game's M.
        size: u8,
    },
}

impl Defect {
    /// Whether every place of the fault is on a board of `size`.
    pub(super) fn check(self, size: Size) -> Result<(), DefectError> {
        let edge = |edge: Edge| match Edge::new(size, edge.x(), edge.y()) {
            Some(_) => Ok(()),
            None => Err(DefectError::Edge {
                edge,
                size: size.get(),
            }),
        };
        let node = |node: Node| match node {
            Node::Bottom => Ok(()),
            Node::Internal { x, y } if Node::internal(size, x, y).is_some() => Ok(()),
            _ => Err(DefectError::Node {
                node,
                size: size.get(),
            }),
        };
        match self {
            Defect::Open(e) | Defect::TenTimes(e) | Defect::Tenth(e) | Defect::WireLeft(e) => {
                edge(e)
            }
            Defect::Swapped(a, b) => edge(a).and(edge(b)),
            Defect::Stuck(n, _) | Defect::NoPullup(n) => node(n),
            Defect::SeriesShorted => Ok(()),
        }
    }

    /// The parts with this fault made (the cage's parts: edges at their squares on it).
    pub(super) fn apply(self, board: &Board, parts: &mut Parts) {
        let cage = parts.size;
        match self {
            Defect::Open(e) => parts.edge_ohms[e.index(cage)] = OPEN_OHMS,
            Defect::TenTimes(e) => parts.edge_ohms[e.index(cage)] *= 10.0,
            Defect::Tenth(e) => parts.edge_ohms[e.index(cage)] /= 10.0,
            Defect::NoPullup(n) => parts.pullup_ohms[n.index(cage)] = OPEN_OHMS,
            Defect::SeriesShorted => parts.series_ohms = board.wire_ohms,
            Defect::WireLeft(_) | Defect::Swapped(..) | Defect::Stuck(..) => {}
        }
    }

    /// What the cage holds while the game is at `game`: the game itself, but where a wire
    /// is left or two edges are swapped.
    pub fn on_cage(faults: &[Defect], game: &Position) -> Position {
        let size = game.size();
        let mut states = game.states().to_vec();
        for fault in faults {
            match *fault {
                Defect::WireLeft(e) if states[e.index(size)] == EdgeState::Cut => {
                    states[e.index(size)] = EdgeState::Short;
                }
                Defect::Swapped(a, b) => states.swap(a.index(size), b.index(size)),
                _ => {}
            }
        }
        Position::set_up(size, &states, game.to_move().unwrap_or(Side::Cut))
            .unwrap_or_else(|| game.clone())
    }
}
