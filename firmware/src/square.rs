//! A square of the board on the wire: an edge or a node by its coordinates, independent of the
//! board size (M=3 squares keep their M=4 coordinates on the cage).

use core::fmt;

use heuristic::{Edge, Node, Size};
use serde::{Deserialize, Serialize};

/// An edge or a node by column `x` (1 = A) and row `y`; the terminals have `x = 0`
/// (`y = 0` for the bottom terminal 0, `y = 1` for the top terminal Q).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Square {
    /// Column, 1-based; 0 for a terminal.
    pub x: u8,
    /// Row from the bottom; for a terminal, 0 = bottom, 1 = top.
    pub y: u8,
}

impl Square {
    /// The bottom terminal 0.
    pub const BOTTOM: Square = Square { x: 0, y: 0 };
    /// The top terminal Q.
    pub const TOP: Square = Square { x: 0, y: 1 };

    /// The square of a node.
    pub fn node(node: Node) -> Square {
        match node {
            Node::Bottom => Square::BOTTOM,
            Node::Top => Square::TOP,
            Node::Internal { x, y } => Square { x, y },
        }
    }

    /// The edge this square names on a board of `size`, if it is one.
    pub fn edge(self, size: Size) -> Option<Edge> {
        Edge::new(size, self.x, self.y)
    }
}

impl From<Edge> for Square {
    fn from(edge: Edge) -> Square {
        Square {
            x: edge.x(),
            y: edge.y(),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.x, self.y) {
            (0, 0) => f.write_str("0"),
            (0, _) => f.write_str("Q"),
            (x, y) => write!(f, "{}{}", heuristic::column_letter(x), y),
        }
    }
}
