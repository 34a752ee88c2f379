//! ngspice netlists of exactly the circuit a model solved.

use std::fmt::Write as _;

use heuristic::{EdgeState, Model, Node, Position, UnionFind};

use super::{Network, node_name};
use crate::exact;
use crate::physical::{self, Branch, Element, End, PullupState};

/// Options that make ngspice's operating point agree with an exact solver to far better than
/// 1e-6 (its defaults stop at 1e-3 relative).
const OPTIONS: &str = ".options reltol=1e-12 abstol=1e-18 vntol=1e-15";

/// The netlist of `position` on `network` with `.op` and a control block that prints every
/// node voltage with 15 digits (`ngspice -b` runs it). SPICE names are case-insensitive, so
/// nodes are `a6`, `c4`, ... for A6, C4; `q` for the top terminal, `bottom` for 0, `rail` for
/// a floating pull-up rail; `0` is ground. Parts cut off from both terminals are left out
/// (listed in a comment): nothing defines their voltage. An error when a board's network
/// cannot be solved.
pub fn netlist(
    network: &Network,
    position: &Position,
    record: &str,
    pullups: PullupState,
) -> Result<String, physical::SolveError> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "* birdcage: M={}, moves {record}, {}",
        position.size().get(),
        network.describe(pullups)
    );
    out.push_str(
        "* nodes: a6 = node A6 (column A, row 6), q = top terminal Q, bottom = terminal 0\n",
    );
    match network {
        Network::Model(model) => model_lines(&mut out, *model, position),
        Network::Board { board, parts } => {
            let solution = physical::solve(board, parts, position, pullups)?;
            cut_off_comment(&mut out, position, |n| solution.volts(n).is_none());
            let _ = writeln!(out, "Vsupply q 0 DC {}", board.supply_volts);
            physical::branches(board, parts, position, pullups, |b| {
                let defined = |end| solution.end_volts(end).is_some();
                if defined(b.a) && defined(b.b) {
                    branch_line(&mut out, &b);
                }
            });
        }
    }
    out.push_str(OPTIONS);
    out.push_str("\n.op\n.control\nset numdgt=15\nop\nprint all\n.endc\n.end\n");
    Ok(out)
}

/// A comment naming the nodes left out because nothing defines their voltage.
fn cut_off_comment(out: &mut String, position: &Position, cut_off: impl Fn(Node) -> bool) {
    let names: Vec<String> = position
        .size()
        .nodes()
        .filter(|n| cut_off(*n))
        .map(|n| n.to_string())
        .collect();
    if !names.is_empty() {
        let _ = writeln!(
            out,
            "* cut off from both terminals, left out: {}",
            names.join(" ")
        );
    }
}

fn end_name(end: End) -> String {
    match end {
        End::Node(n) => node_name(n),
        End::Supply => "q".to_string(),
        End::Ground => "0".to_string(),
        End::Rail => "rail".to_string(),
    }
}

fn branch_line(out: &mut String, b: &Branch) {
    let name = match b.part {
        Element::Resistor(e) => format!("R{e}"),
        Element::Wire(e) => format!("Rwire_{e}"),
        Element::Bypass(e) => format!("Rbypass_{e}"),
        Element::Leak(e) => format!("Rleak_{e}"),
        Element::Pullup(n) => format!("Rpullup_{}", node_name(n)),
        Element::Series => "Rseries".to_string(),
    };
    // `{:e}` keeps every digit of the f64 (shortest round-trip form).
    let _ = writeln!(
        out,
        "{name} {} {} {:e}",
        end_name(b.a),
        end_name(b.b),
        b.ohms
    );
}

/// Net names of a model netlist, one per node in [`heuristic::Size::nodes`] order. Wires are
/// ideal in the models, so the nodes they join are one net (as the exact solver merges them;
/// SPICE would reject a loop of 0 V sources): named `q` if it holds Q, `bottom` if it holds 0
/// (`0`, ground itself, in `ideal`), else after its first node in reading order.
pub fn model_nets(position: &Position, model: Model) -> Vec<String> {
    let size = position.size();
    let mut wires: UnionFind = UnionFind::new();
    for (i, state) in position.states().iter().enumerate() {
        if *state == EdgeState::Short {
            let (a, b) = size.edge_ends(i);
            wires.union(a, b);
        }
    }
    let (top, bottom) = (Node::Top.index(size), Node::Bottom.index(size));
    (0..size.node_count())
        .map(|i| {
            if wires.same(i, top) {
                "q".to_string()
            } else if wires.same(i, bottom) {
                match model {
                    Model::Ideal => "0".to_string(),
                    Model::Reference => "bottom".to_string(),
                }
            } else {
                node_name(size.node(wires.find(i)))
            }
        })
        .collect()
}

/// The exact models: unit resistors, ideal wires as merged nets, pull-ups of 30 and a series
/// resistor of 1 for `reference`, supply 1 V.
fn model_lines(out: &mut String, model: Model, position: &Position) {
    let size = position.size();
    let exact = exact::solve_model(position, model);
    cut_off_comment(out, position, |n| exact.is_floating(n));
    let nets = model_nets(position, model);
    let net = |n: Node| nets[n.index(size)].as_str();
    for (edge, state) in position.edges() {
        let (a, b) = edge.ends(size);
        if state == EdgeState::Short {
            let _ = writeln!(
                out,
                "* wire {edge}: {} and {} are net {}",
                node_name(a),
                node_name(b),
                net(a)
            );
        }
    }
    if position.winner() == Some(heuristic::Side::Short) && model == Model::Ideal {
        out.push_str(
            "* Short has won: wires join the supply to ground, so ngspice will reject the circuit\n",
        );
    }
    out.push_str("Vsupply q 0 DC 1\n");
    let live = |n: Node| !exact.is_floating(n);
    for (edge, state) in position.edges() {
        let (a, b) = edge.ends(size);
        if state == EdgeState::Resistor && live(a) && live(b) && net(a) != net(b) {
            let _ = writeln!(out, "R{edge} {} {} 1", net(a), net(b));
        }
    }
    if model == Model::Reference {
        for node in size.nodes().filter(|n| *n != Node::Top && net(*n) != "q") {
            let _ = writeln!(
                out,
                "Rpullup_{} {} q {}",
                node_name(node),
                net(node),
                Model::REFERENCE_PULLUP_RATIO
            );
        }
        let _ = writeln!(
            out,
            "Rseries {} 0 {}",
            net(Node::Bottom),
            Model::REFERENCE_SERIES_RATIO
        );
    }
}
