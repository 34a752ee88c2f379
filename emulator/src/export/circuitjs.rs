//! CircuitJS1 circuits (legacy text format) of any position, laid out as the original
//! project's circuit files were: each edge a three-way switch choosing resistor (middle,
//! with an ammeter beside it), short or open; the supply rail on the top terminal; the series
//! resistor and a test point on the bottom terminal; pull-ups when the network has them.
//!
//! Switch positions follow the position: resistor = middle throw, short = throw 0, cut =
//! throw 2, so moving a switch plays a move. CircuitJS's switches and wires are ideal, so a
//! physical board's wire and switch resistances are not drawn; its part values are.

use std::fmt::Write as _;

use heuristic::{Edge, EdgeState, Model, Node, Orientation, Position, Size};

use super::Network;

/// Grid step between a node and the next edge square, pixels (a multiple of CircuitJS's
/// 16 px grid).
const STEP: i32 = 96;
/// Resistance of one edge in the exact models, ohms (the original build's 1 kΩ).
const MODEL_OHMS: f64 = 1000.0;
/// Supply of the exact models, volts (the original build's 5 V).
const MODEL_VOLTS: f64 = 5.0;
/// The ideal model has no series resistor; the circuit needs one so that a win by Short
/// does not short the rail. One ohm moves the drops by about 0.1 %.
const IDEAL_SERIES_OHMS: f64 = 1.0;

/// Values the circuit is drawn with.
struct Values<'a> {
    supply: f64,
    edge: Box<dyn Fn(Edge) -> f64 + 'a>,
    pullup: Option<Box<dyn Fn(Node) -> f64 + 'a>>,
    series: f64,
}

fn values(network: &Network) -> Values<'_> {
    match network {
        Network::Model(Model::Ideal) => Values {
            supply: MODEL_VOLTS,
            edge: Box::new(|_| MODEL_OHMS),
            pullup: None,
            series: IDEAL_SERIES_OHMS,
        },
        Network::Model(Model::Reference) => Values {
            supply: MODEL_VOLTS,
            edge: Box::new(|_| MODEL_OHMS),
            pullup: Some(Box::new(|_| {
                MODEL_OHMS * f64::from(Model::REFERENCE_PULLUP_RATIO)
            })),
            series: MODEL_OHMS * f64::from(Model::REFERENCE_SERIES_RATIO),
        },
        Network::Board { board, parts } => Values {
            supply: board.supply_volts,
            edge: Box::new(|e| parts.edge(e)),
            // Every board has pull-ups; drawn on, as the machine measures.
            pullup: Some(Box::new(|n| parts.pullup(n))),
            series: parts.series_ohms,
        },
    }
}

/// Pixel position of the node at board coordinates (x, y).
fn pixel(size: Size, x: u8, y: u8) -> (i32, i32) {
    let top_row = 2 * i32::from(size.get());
    (
        32 + STEP * i32::from(x),
        96 + STEP * (top_row - i32::from(y)),
    )
}

/// The CircuitJS1 text of `position` on `network`.
pub fn circuit(network: &Network, position: &Position) -> String {
    let size = position.size();
    let v = values(network);
    let mut out = String::from("$ 1 0.000005 10.20027730826997 50 5 50 5e-11\n");
    let top_row = 2 * size.get();
    let columns: Vec<u8> = (1..size.span() + 1).step_by(2).collect();
    // Terminal buses: one wire between each pair of neighbouring attachment points.
    for y in [0, top_row] {
        for pair in columns.windows(2) {
            let (x1, y1) = pixel(size, pair[0], y);
            let (x2, y2) = pixel(size, pair[1], y);
            let _ = writeln!(out, "w {x1} {y1} {x2} {y2} 0");
        }
    }
    let (qx, qy) = pixel(size, columns[0], top_row);
    let _ = writeln!(out, "{}", rail(qx, qy, qy - 48, v.supply));
    let (bx, by) = pixel(size, *columns.last().unwrap_or(&1), 0);
    let _ = writeln!(out, "r {bx} {by} {} {by} 0 {}", bx + STEP, v.series);
    let _ = writeln!(out, "g {0} {by} {0} {1} 0", bx + STEP, by + 32);
    let _ = writeln!(out, "368 {bx} {by} {bx} {} 0 0", by + 48);
    for (edge, state) in position.edges() {
        edge_elements(&mut out, size, edge, state, (v.edge)(edge));
    }
    if let Some(pullup) = &v.pullup {
        for node in size.nodes().filter(|n| *n != Node::Top) {
            let (x, y) = match node {
                Node::Bottom => pixel(size, columns[0], 0),
                Node::Internal { x, y } => pixel(size, x, y),
                Node::Top => unreachable!("filtered out"),
            };
            let _ = writeln!(out, "r {x} {y} {} {} 0 {}", x + 48, y - 48, pullup(node));
            let _ = writeln!(out, "{}", rail(x + 48, y - 48, y - 80, v.supply));
        }
    }
    out
}

fn rail(x: i32, y: i32, label_y: i32, volts: f64) -> String {
    format!("R {x} {y} {x} {label_y} 0 0 40 {volts} 0 0 0.5")
}

/// One edge: a three-way switch at its first end (top or left), the resistor and ammeter on
/// the middle throw, a wire on throw 0 and nothing on throw 2, all meeting 16 px before the
/// far end.
fn edge_elements(out: &mut String, size: Size, edge: Edge, state: EdgeState, ohms: f64) {
    let (x, y) = (edge.x(), edge.y());
    // Start point and unit direction along the edge; `side` points to throw 0.
    let ((sx, sy), (dx, dy), (nx, ny)) = match edge.orientation() {
        Orientation::Vertical => (pixel(size, x, y + 1), (0, 1), (1, 0)),
        Orientation::Horizontal => (pixel(size, x - 1, y), (1, 0), (0, -1)),
    };
    let at = |along: i32, side: i32| (sx + dx * along + nx * side, sy + dy * along + ny * side);
    let position = match state {
        EdgeState::Resistor => 1,
        EdgeState::Short => 0,
        EdgeState::Cut => 2,
    };
    let line = |out: &mut String, kind: &str, a: (i32, i32), b: (i32, i32), tail: &str| {
        let _ = writeln!(out, "{kind} {} {} {} {} {tail}", a.0, a.1, b.0, b.1);
    };
    line(
        out,
        "S",
        at(0, 0),
        at(32, 0),
        &format!("0 {position} false 0 3"),
    );
    line(out, "r", at(32, 0), at(96, 0), &format!("0 {ohms}"));
    line(out, "370", at(96, 0), at(160, 0), "1 0 0");
    line(out, "w", at(160, 0), at(176, 0), "0");
    line(out, "w", at(176, 0), at(192, 0), "0");
    line(out, "w", at(32, 16), at(176, 16), "0");
    line(out, "w", at(176, 16), at(176, 0), "0");
}
