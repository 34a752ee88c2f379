//! Edges (the resistors of the cage) and their geometry.

use crate::{Node, Size};

/// One edge of the bird cage: the square (x, y) with x + y even.
///
/// Odd x is a vertical edge between nodes (x, y−1) and (x, y+1); even x is a horizontal
/// edge between (x−1, y) and (x+1, y). Named in A1 notation (`C3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Edge {
    x: u8,
    y: u8,
}

/// Which way an edge runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Orientation {
    /// Between two rows of nodes; carries the current from Q towards 0.
    Vertical,
    /// Between two nodes of the same row.
    Horizontal,
}

impl Edge {
    /// Filler for unused slots of fixed-capacity tables.
    pub(crate) const UNUSED: Edge = Edge { x: 0, y: 0 };

    /// The edge at (x, y), unchecked: for tables built from the geometry itself.
    pub(crate) const fn at(x: u8, y: u8) -> Edge {
        Edge { x, y }
    }

    /// The edge at (x, y), if the square is an edge of a board of this size.
    ///
    /// ```
    /// use heuristic::{Edge, Size};
    /// let m3 = Size::new(3).unwrap();
    /// assert!(Edge::new(m3, 3, 3).is_some());
    /// assert!(Edge::new(m3, 2, 3).is_none()); // x + y odd: a node or a gap
    /// assert!(Edge::new(m3, 7, 1).is_none()); // off the board
    /// ```
    pub fn new(size: Size, x: u8, y: u8) -> Option<Edge> {
        let span = size.span();
        let ok = (1..=span).contains(&x) && (1..=span).contains(&y) && (x + y).is_multiple_of(2);
        ok.then_some(Edge { x, y })
    }

    /// Column, 1-based (A = 1).
    pub fn x(self) -> u8 {
        self.x
    }

    /// Row, 1-based from the bottom.
    pub fn y(self) -> u8 {
        self.y
    }

    /// Vertical for odd columns, horizontal for even ones.
    pub fn orientation(self) -> Orientation {
        if self.x % 2 == 1 {
            Orientation::Vertical
        } else {
            Orientation::Horizontal
        }
    }

    /// Position in reading order (highest row first, then column A first), which is
    /// the heuristic's tie-break order and the index of every per-edge array.
    ///
    /// ```
    /// use heuristic::{Edge, Size};
    /// let m3 = Size::new(3).unwrap();
    /// let e = |x, y| Edge::new(m3, x, y).unwrap();
    /// assert_eq!(e(1, 5).index(m3), 0); // A5
    /// assert_eq!(e(2, 4).index(m3), 3); // B4
    /// assert_eq!(e(5, 1).index(m3), 12); // E1
    /// ```
    pub fn index(self, size: Size) -> usize {
        let m = size.get() as usize;
        let rows_above = (size.span() - self.y) as usize;
        let before = rows_above / 2 * (2 * m - 1) + (rows_above % 2) * m;
        before + (self.x as usize - 1) / 2
    }

    /// The two nodes the edge joins: upper then lower for a vertical edge, left then
    /// right for a horizontal one.
    ///
    /// ```
    /// use heuristic::{Edge, Node, Size};
    /// let m2 = Size::new(2).unwrap();
    /// let a3 = Edge::new(m2, 1, 3).unwrap();
    /// assert_eq!(a3.ends(m2), (Node::Top, Node::internal(m2, 1, 2).unwrap()));
    /// ```
    pub fn ends(self, size: Size) -> (Node, Node) {
        let [a, b] = end_squares(self.x, self.y);
        let node = |(x, y)| Node::at(size, x, y).unwrap_or(Node::Top);
        (node(a), node(b))
    }
}

impl core::fmt::Display for Edge {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", crate::column::column_letter(self.x), self.y)
    }
}

/// The squares of the two nodes the edge at (x, y) joins: upper then lower for a vertical
/// edge (odd x), left then right for a horizontal one. Rows 0 and 2M are the terminals.
pub(crate) const fn end_squares(x: u8, y: u8) -> [(u8, u8); 2] {
    if x % 2 == 1 {
        [(x, y + 1), (x, y - 1)]
    } else {
        [(x - 1, y), (x + 1, y)]
    }
}
