//! The circuit a position makes on a board, as a list of two-terminal branches. The solver,
//! the SPICE export and the tests all walk this one list, so the exported netlist is exactly
//! the circuit that was solved.

use boards::RailRelease;
use heuristic::{Edge, EdgeState, Node, Position, Size};

use super::{Board, Parts, Pullups};

/// Where a branch ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A node of the cage (Q is held at the supply).
    Node(Node),
    /// The supply rail that feeds the pull-ups: the same potential as Q.
    Supply,
    /// Ground.
    Ground,
    /// A shared pull-up rail left floating: a node of its own.
    Rail,
}

/// What a branch is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// An edge's resistor (with its series switch, when a fixture drives the edge).
    Resistor(Edge),
    /// A Short's wire.
    Wire(Edge),
    /// A Short made by the fixture's closed bypass switch.
    Bypass(Edge),
    /// Leakage through the fixture's open switches of an edge.
    Leak(Edge),
    /// A node's pull-up.
    Pullup(Node),
    /// The series resistor from the bottom terminal to ground.
    Series,
}

impl Element {
    /// The edge the part belongs to, if it is an edge's.
    pub fn edge(self) -> Option<Edge> {
        match self {
            Element::Resistor(e) | Element::Wire(e) | Element::Bypass(e) | Element::Leak(e) => {
                Some(e)
            }
            Element::Pullup(_) | Element::Series => None,
        }
    }
}

/// One two-terminal resistance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Branch {
    /// What it is.
    pub part: Element,
    /// One end.
    pub a: End,
    /// The other end.
    pub b: End,
    /// Its resistance, ohms (always positive).
    pub ohms: f64,
}

/// Whether the pull-ups are connected for a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PullupState {
    /// Connected: the heuristic's measurement.
    On,
    /// Released: the game-over reading.
    Released,
}

/// Calls `visit` on every branch of the circuit `position` makes on a board built from
/// `parts`, with the pull-ups in `pullups`.
///
/// Per edge: a resistor is its part (plus one closed switch when a fixture drives it); a cut
/// is nothing, or the fixture's two open switches; a short is a wire, or the fixture's closed
/// bypass beside the open series switch.
pub fn branches(
    board: &Board,
    parts: &Parts,
    position: &Position,
    pullups: PullupState,
    mut visit: impl FnMut(Branch),
) {
    let size = position.size();
    for (i, (edge, state)) in position.edges().enumerate() {
        edge_branches(board, parts, size, i, edge, state, &mut visit);
    }
    let pull_to = match (pullups, board.pullups) {
        (PullupState::On, _) => Some(End::Supply),
        // Released pins (AVR INPUT, per-node GPIO as input) leave their resistor dangling.
        (PullupState::Released, Pullups::Internal { .. } | Pullups::PerNode { .. }) => None,
        (PullupState::Released, Pullups::SharedRail { released, .. }) => match released {
            RailRelease::DrivenLow => Some(End::Ground),
            RailRelease::Floating => Some(End::Rail),
        },
    };
    if let Some(to) = pull_to {
        for node in size.nodes().filter(|n| *n != Node::Top) {
            visit(Branch {
                part: Element::Pullup(node),
                a: End::Node(node),
                b: to,
                ohms: parts.pullup(node),
            });
        }
    }
    visit(Branch {
        part: Element::Series,
        a: End::Node(Node::Bottom),
        b: End::Ground,
        ohms: parts.series_ohms,
    });
}

/// The branches of the edge with reading-order index `i` (`edge`, in `state`): what
/// [`branches`] visits for it, for callers that update one edge at a time.
pub(super) fn edge_branches(
    board: &Board,
    parts: &Parts,
    size: Size,
    i: usize,
    edge: Edge,
    state: EdgeState,
    mut visit: impl FnMut(Branch),
) {
    // Ends from the compile-time table: this is the solver's hot path.
    let (a, b) = size.edge_ends(i);
    let (a, b) = (End::Node(size.node(a)), End::Node(size.node(b)));
    let resistor = parts.edge_ohms[i];
    let mut branch = |part, ohms| visit(Branch { part, a, b, ohms });
    match (state, board.switches) {
        (EdgeState::Resistor, None) => branch(Element::Resistor(edge), resistor),
        (EdgeState::Cut, None) => {}
        (EdgeState::Short, None) => branch(Element::Wire(edge), board.wire_ohms),
        (EdgeState::Resistor, Some(s)) => {
            branch(Element::Resistor(edge), resistor + s.on_ohms);
            branch(Element::Leak(edge), s.off_ohms);
        }
        (EdgeState::Cut, Some(s)) => {
            // Series path (resistor + open switch) beside the open bypass.
            let series_path = resistor + s.off_ohms;
            branch(
                Element::Leak(edge),
                series_path * s.off_ohms / (series_path + s.off_ohms),
            );
        }
        (EdgeState::Short, Some(s)) => {
            branch(Element::Bypass(edge), s.on_ohms);
            branch(Element::Leak(edge), resistor + s.off_ohms);
        }
    }
}
