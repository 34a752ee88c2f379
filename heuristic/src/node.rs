//! Nodes of the network: the two terminals and the internal junctions.

use crate::Size;

/// A node of the bird cage.
///
/// Internal nodes sit at odd columns and even rows 2..=2M−2 and are named like
/// squares (`A4`); the terminals are `Q` (top, supply side) and `0` (bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Node {
    /// The top terminal Q, row 2M, tied to the supply.
    Top,
    /// The bottom terminal 0, row 0, tied to ground (through the series resistor if any).
    Bottom,
    /// An internal node at column x (odd) and row y (even).
    Internal {
        /// Column, 1-based (A = 1).
        x: u8,
        /// Row, counted from the bottom terminal (row 0).
        y: u8,
    },
}

impl Node {
    /// The internal node at (x, y), if there is one on a board of this size.
    ///
    /// ```
    /// use heuristic::{Node, Size};
    /// let m3 = Size::new(3).unwrap();
    /// assert!(Node::internal(m3, 1, 4).is_some());
    /// assert!(Node::internal(m3, 2, 4).is_none()); // even column: an edge
    /// assert!(Node::internal(m3, 1, 6).is_none()); // row 2M is the top terminal
    /// ```
    pub fn internal(size: Size, x: u8, y: u8) -> Option<Node> {
        let ok =
            x % 2 == 1 && x <= size.span() && y.is_multiple_of(2) && y >= 2 && y < 2 * size.get();
        ok.then_some(Node::Internal { x, y })
    }

    /// The node at (x, y) where row 0 and row 2M are the terminals.
    pub fn at(size: Size, x: u8, y: u8) -> Option<Node> {
        if x.is_multiple_of(2) || x > size.span() {
            None
        } else if y == 0 {
            Some(Node::Bottom)
        } else if y == 2 * size.get() {
            Some(Node::Top)
        } else {
            Node::internal(size, x, y)
        }
    }

    /// Position in [`Size::nodes`]: internal nodes in reading order, then Q, then 0.
    ///
    /// ```
    /// use heuristic::{Node, Size};
    /// let m3 = Size::new(3).unwrap();
    /// assert_eq!(Node::internal(m3, 1, 4).unwrap().index(m3), 0);
    /// assert_eq!(Node::internal(m3, 5, 2).unwrap().index(m3), 5);
    /// assert_eq!(Node::Top.index(m3), 6);
    /// assert_eq!(Node::Bottom.index(m3), 7);
    /// ```
    pub fn index(self, size: Size) -> usize {
        let m = size.get() as usize;
        match self {
            Node::Internal { x, y } => (2 * m - 2 - y as usize) / 2 * m + (x as usize - 1) / 2,
            Node::Top => size.internal_node_count(),
            Node::Bottom => size.internal_node_count() + 1,
        }
    }

    /// Whether this is one of the two terminals.
    pub fn is_terminal(self) -> bool {
        matches!(self, Node::Top | Node::Bottom)
    }
}

impl core::fmt::Display for Node {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Node::Top => f.write_str("Q"),
            Node::Bottom => f.write_str("0"),
            Node::Internal { x, y } => write!(f, "{}{}", crate::column::column_letter(x), y),
        }
    }
}
