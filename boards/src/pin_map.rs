//! Which pin measures which node, and which pins show the move.
//!
//! The map is wired for M=4. M=3 is played on the same cage with its top internal row jumpered
//! to Q (wires instead of resistors at A7, C7, E7) and column G left empty, as in the
//! original machine; every M=3 node then sits at the same coordinates as on M=4 and keeps that
//! node's pin, and every M=3 edge keeps its row and column LEDs.

use core::fmt;

use heuristic::{Edge, Node, Size};

use crate::{AnalogInput, Button, CAGE_SIZE, FixtureSignal, Pin};

/// Rows of edges on M=4 (and of row LEDs).
pub const LED_ROWS: usize = CAGE_SIZE.span() as usize;
/// Columns of edges on M=4 (and of column LEDs).
pub const LED_COLUMNS: usize = CAGE_SIZE.span() as usize;
/// Row and column LEDs together.
pub const LED_PINS: usize = LED_ROWS + LED_COLUMNS;
/// Internal nodes of M=4: the analog inputs besides the bottom terminal.
pub const INTERNAL_NODES: usize = CAGE_SIZE.internal_node_count();
/// Nodes the board measures: the internal nodes and the bottom terminal (Q is the supply).
pub const MEASURED_NODES: usize = INTERNAL_NODES + 1;

const M3: Size = Size::M3;
const M4: Size = CAGE_SIZE;

/// The board's pin map for the M=4 cage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PinMap {
    /// The analog input of each internal node, in the heuristic's node order
    /// (`Size::nodes()`): A6, C6, E6, G6, A4, C4, E4, G4, A2, C2, E2, G2.
    pub nodes: [AnalogInput; INTERNAL_NODES],
    /// The analog input of the bottom terminal 0, read for the game-over test too.
    pub bottom: AnalogInput,
    /// Row LEDs, row 1 (bottom) first.
    pub row_leds: [Pin; LED_ROWS],
    /// Column LEDs, column A first.
    pub column_leds: [Pin; LED_COLUMNS],
    /// The "next move" button.
    pub button: Button,
}

/// What a pin is for, to name it in messages and wiring tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PinRole {
    /// Measures a node (internal or the bottom terminal), named as on M=4.
    Node(Node),
    /// Lights row `y` (1..=7).
    RowLed(u8),
    /// Lights column `x` (1..=7, A..=G).
    ColumnLed(u8),
    /// Reads the button.
    Button,
    /// Feeds the pull-up of one node.
    Pullup(Node),
    /// Drives the shared pull-up rail.
    PullupRail,
    /// A signal of the edge fixture's bus.
    Fixture(FixtureSignal),
}

/// A node that has no pin on this board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NodePinError {
    /// Only M=3 and M=4 are wired.
    #[error("{0} is not wired on this board (the pin map covers M=3 and M=4)")]
    SizeNotWired(Size),
    /// The node does not exist on a board of that size.
    #[error("node {node} is not on the {size} board")]
    NotOnBoard {
        /// The node asked for.
        node: Node,
        /// The size asked for.
        size: Size,
    },
    /// Q is the supply; it is never measured.
    #[error("the top terminal Q is tied to the supply and has no pin")]
    TopTerminal,
}

impl PinMap {
    /// The sizes this map is wired for.
    pub const SIZES: [Size; 2] = [M3, M4];

    /// The analog input that measures `node` on a cage of `size` (M=3 or M=4).
    ///
    /// ```
    /// use boards::{NodePinError, ARDUINO_MEGA};
    /// use heuristic::{Node, Size};
    /// let (m3, m4) = (Size::new(3).unwrap(), Size::new(4).unwrap());
    /// let pins = &ARDUINO_MEGA.pins;
    /// let a6 = Node::internal(m4, 1, 6).unwrap();
    /// assert_eq!(pins.node(m4, a6).unwrap().pin.to_string(), "A13");
    /// // M=3 keeps the M=4 coordinates: its A4 is the M=4 A4.
    /// let a4 = Node::internal(m3, 1, 4).unwrap();
    /// assert_eq!(pins.node(m3, a4), pins.node(m4, a4));
    /// assert_eq!(pins.node(m3, Node::Bottom).unwrap().pin.to_string(), "A15");
    /// assert_eq!(pins.node(m4, Node::Top), Err(NodePinError::TopTerminal));
    /// ```
    pub fn node(&self, size: Size, node: Node) -> Result<AnalogInput, NodePinError> {
        if !Self::SIZES.contains(&size) {
            return Err(NodePinError::SizeNotWired(size));
        }
        match node {
            Node::Top => Err(NodePinError::TopTerminal),
            Node::Bottom => Ok(self.bottom),
            Node::Internal { x, y } => match Node::internal(size, x, y) {
                // M=3 nodes lie inside M=4's at the same coordinates.
                Some(on_board) => Ok(self.nodes[on_board.index(M4)]),
                None => Err(NodePinError::NotOnBoard { node, size }),
            },
        }
    }

    /// The LED of row `y` (1..=7).
    ///
    /// ```
    /// let pins = &boards::ARDUINO_MEGA.pins;
    /// assert_eq!(pins.row_led(1).unwrap().to_string(), "D51");
    /// assert_eq!(pins.row_led(8), None);
    /// ```
    pub fn row_led(&self, y: u8) -> Option<Pin> {
        self.row_leds.get(usize::from(y).checked_sub(1)?).copied()
    }

    /// The LED of column `x` (1..=7, A..=G).
    ///
    /// ```
    /// let pins = &boards::ARDUINO_MEGA.pins;
    /// assert_eq!(pins.column_led(1).unwrap().to_string(), "D35");
    /// assert_eq!(pins.column_led(0), None);
    /// ```
    pub fn column_led(&self, x: u8) -> Option<Pin> {
        self.column_leds
            .get(usize::from(x).checked_sub(1)?)
            .copied()
    }

    /// The row and column LEDs that show `edge` as the machine's move, for M=3 and M=4.
    ///
    /// ```
    /// use heuristic::{Edge, Size};
    /// let pins = &boards::ARDUINO_MEGA.pins;
    /// let c3 = Edge::parse(Size::new(3).unwrap(), "C3").unwrap();
    /// let [row, column] = pins.edge_leds(c3).unwrap();
    /// assert_eq!((row.to_string(), column.to_string()), ("D47".into(), "D31".into()));
    /// ```
    pub fn edge_leds(&self, edge: Edge) -> Option<[Pin; 2]> {
        Some([self.row_led(edge.y())?, self.column_led(edge.x())?])
    }

    /// The 13 measured nodes with their inputs: internal nodes in reading order, then 0.
    ///
    /// ```
    /// let names: Vec<_> = boards::NUCLEO_F446RE
    ///     .pins
    ///     .measured()
    ///     .map(|(node, input)| format!("{node}={}", input.pin))
    ///     .collect();
    /// assert_eq!(names[0], "A6=PA0");
    /// assert_eq!(names[12], "0=PA7");
    /// ```
    pub fn measured(&self) -> impl Iterator<Item = (Node, AnalogInput)> + '_ {
        (0..=INTERNAL_NODES).map(move |i| {
            let node = measured_node(i);
            let input = self.nodes.get(i).copied().unwrap_or(self.bottom);
            (node, input)
        })
    }
}

/// The i-th measured node: the internal nodes of M=4 in reading order, then the bottom
/// terminal (unlike `Size::nodes`, which puts Q before 0).
pub(crate) fn measured_node(i: usize) -> Node {
    M4.nodes()
        .take(INTERNAL_NODES)
        .nth(i)
        .unwrap_or(Node::Bottom)
}

impl fmt::Display for PinRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PinRole::Node(node) => write!(f, "node {node}"),
            PinRole::RowLed(y) => write!(f, "row LED {y}"),
            PinRole::ColumnLed(x) => write!(f, "column LED {}", heuristic::column_letter(x)),
            PinRole::Button => f.write_str("button"),
            PinRole::Pullup(node) => write!(f, "pull-up of {node}"),
            PinRole::PullupRail => f.write_str("pull-up rail"),
            PinRole::Fixture(signal) => write!(f, "fixture {signal}"),
        }
    }
}
