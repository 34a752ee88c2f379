//! The cage's geometry at each size: its edges in reading order, the nodes each joins and
//! its nodes, laid out once at compile time. Above the edge, the node and the size, which it
//! lays out; beside them in the crate's API (`Size::edges`, `Size::nodes`, `cage_edges`).

use crate::edge::end_squares;
use crate::size::{MAX_EDGES, MAX_NODES, MAX_SIZE, MIN_SIZE};
use crate::{Edge, Node, Size};

impl Size {
    /// Every edge in reading order (highest row first, then column A first): the
    /// heuristic's tie-break order.
    ///
    /// ```
    /// use heuristic::Size;
    /// let names: Vec<_> = Size::new(2).unwrap().edges().map(|e| e.to_string()).collect();
    /// assert_eq!(names, ["A3", "C3", "B2", "A1", "C1"]);
    /// ```
    pub fn edges(self) -> impl DoubleEndedIterator<Item = Edge> + ExactSizeIterator + Clone {
        self.table().edges[..self.edge_count()].iter().copied()
    }

    /// The node indices ([`Node::index`]) at the two ends of the edge with reading-order
    /// index `edge` (as [`Edge::ends`]), from a table built at compile time.
    pub fn edge_ends(self, edge: usize) -> (usize, usize) {
        let [a, b] = self.table().ends[edge];
        (usize::from(a), usize::from(b))
    }

    /// The node with [`Node::index`] `index`, from the compile-time table (cheaper than
    /// `nodes().nth(index)` in hot loops). Panics past [`Size::node_count`].
    ///
    /// ```
    /// use heuristic::{Node, Size};
    /// let m3 = Size::new(3).unwrap();
    /// assert_eq!(m3.node(6), Node::Top);
    /// assert_eq!(m3.node(0), Node::internal(m3, 1, 4).unwrap());
    /// ```
    pub fn node(self, index: usize) -> Node {
        self.table().nodes[..self.node_count()][index]
    }

    fn table(self) -> &'static Table {
        &TABLES[usize::from(self.get() - MIN_SIZE)]
    }

    /// Every node: internal nodes in reading order, then `Q`, then `0`, so that
    /// `nodes().nth(i)` is the node with [`Node::index`] i.
    pub fn nodes(self) -> impl DoubleEndedIterator<Item = Node> + ExactSizeIterator + Clone {
        self.table().nodes[..self.node_count()].iter().copied()
    }
}

/// Geometry of one size, laid out once at compile time so that hot loops (solvers,
/// winner detection) never rebuild it.
struct Table {
    edges: [Edge; MAX_EDGES],
    ends: [[u8; 2]; MAX_EDGES],
    nodes: [Node; MAX_NODES],
}

/// Every edge of the bird cage of size `m` in reading order with the nodes it joins (as
/// [`crate::Edge::ends`]), for any `m` from 2 to 13 (the columns A..Y), past
/// [`MAX_SIZE`]: hosts draw larger cages as graphs, while [`Size`] bounds what the
/// firmware's tables hold.
///
/// ```
/// use heuristic::{Size, cage_edges};
/// let m3 = Size::new(3).unwrap();
/// let ends: Vec<_> = m3.edges().map(|e| (e, e.ends(m3))).collect();
/// let any: Vec<_> = cage_edges(3).map(|(e, a, b)| (e, (a, b))).collect();
/// assert_eq!(any, ends);
/// assert_eq!(cage_edges(10).count(), 181);
/// ```
pub fn cage_edges(m: u8) -> impl Iterator<Item = (Edge, Node, Node)> {
    assert!(
        (MIN_SIZE..=13).contains(&m),
        "a cage of size {m} has no column letters"
    );
    let span = 2 * m - 1;
    let node = move |(x, y): (u8, u8)| {
        if y == 0 {
            Node::Bottom
        } else if y == 2 * m {
            Node::Top
        } else {
            Node::Internal { x, y }
        }
    };
    (1..=span).rev().flat_map(move |y| {
        (1..=span)
            .filter(move |x| (x + y).is_multiple_of(2))
            .map(move |x| {
                let [a, b] = end_squares(x, y);
                (Edge::at(x, y), node(a), node(b))
            })
    })
}

/// [`Node::index`] of the node at (x, y), with rows 0 and 2M the terminals.
const fn node_index(m: u8, x: u8, y: u8) -> u8 {
    let internal = m * (m - 1);
    if y == 0 {
        internal + 1
    } else if y == 2 * m {
        internal
    } else {
        (2 * m - 2 - y) / 2 * m + (x - 1) / 2
    }
}

const fn table(m: u8) -> Table {
    let mut t = Table {
        edges: [Edge::UNUSED; MAX_EDGES],
        ends: [[0; 2]; MAX_EDGES],
        nodes: [Node::Top; MAX_NODES],
    };
    let span = 2 * m - 1;
    let mut k = 0;
    let mut y = span;
    while y >= 1 {
        let mut x = 1;
        while x <= span {
            if (x + y).is_multiple_of(2) {
                t.edges[k] = Edge::at(x, y);
                let [(ax, ay), (bx, by)] = end_squares(x, y);
                t.ends[k] = [node_index(m, ax, ay), node_index(m, bx, by)];
                k += 1;
            }
            x += 1;
        }
        y -= 1;
    }
    let mut k = 0;
    let mut y = 2 * m - 2;
    while y >= 2 {
        let mut x = 1;
        while x <= span {
            t.nodes[k] = Node::Internal { x, y };
            k += 1;
            x += 2;
        }
        y -= 2;
    }
    t.nodes[k] = Node::Top;
    t.nodes[k + 1] = Node::Bottom;
    t
}

static TABLES: [Table; (MAX_SIZE - MIN_SIZE + 1) as usize] = [
    table(2),
    table(3),
    table(4),
    table(5),
    table(6),
    table(7),
    table(8),
];
