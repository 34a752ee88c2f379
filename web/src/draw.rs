//! The board as SVG: the cage as Shannon drew the circuit (resistors, wires where Short
//! played, gaps where Cut cut, the two terminals), the cage as Gale's two grids of dots, and
//! any graph on its layout. Every coordinate comes from the geometry (`heuristic::Edge`'s
//! square and orientation) or from the graph's layout; every playable edge is a `<g>` with
//! `data-edge` (the name the record would give the person's move) that a click plays.

use std::fmt::Write as _;

use heuristic::{Edge, EdgeState, Orientation, Side, Size, column_letter};
use num_traits::ToPrimitive;

use crate::colour::{CUT, SHORT, viridis};
use crate::game::{Drops, Game};
use crate::html::escape;
use crate::layout;

/// One grid unit of the cage, in SVG user units.
const U: f64 = 48.0;
/// A zig-zag's amplitude at most, in pixels.
const ZIG_AMP: f64 = 0.11 * U;
/// A resistor's stroke, no current to the largest drop.
const MIN_BODY: f64 = 1.5;
const MAX_BODY: f64 = 6.0;
/// The halo's stroke beyond the body's.
const HALO: f64 = 2.5;
/// The widest halo.
const MAX_HALO: f64 = MAX_BODY + HALO;
/// The drop labels' font size, in pixels (set here, not in the style sheet: the labels are
/// placed clear of the zig-zags by it).
const LABEL_PX: f64 = 12.0;

/// The labels' size in user units on a board up to [`COORD_WIDTH`] wide.
const COORD: f64 = 16.0;

/// The widest board (user units) whose labels stay [`COORD`]: the M=5 cage's, 10.5 px on a
/// 375 px phone; wider boards scale their labels with their width.
const COORD_WIDTH: f64 = U * 11.2;

/// What the drawing marks, besides the position.
#[derive(Debug)]
pub struct Scene<'a> {
    /// The game.
    pub game: &'a Game,
    /// Its drops now.
    pub drops: &'a Drops,
    /// Each edge's words on hover or tap.
    pub info: &'a [String],
    /// The edge the hint suggests.
    pub hint: Option<usize>,
    /// Every resistor's drop written beside it.
    pub show_drops: bool,
    /// Gale's dots in place of the circuit (the cage only).
    pub gale: bool,
    /// Each edge's state.
    pub states: Vec<EdgeState>,
    /// Whether the person may play now.
    pub your_turn: bool,
    /// The machine's last move.
    pub last: Option<usize>,
}

type Point = (f64, f64);

impl Scene<'_> {
    /// The largest drop as a float (0 when none carries current).
    fn max_drop(&self) -> f64 {
        self.drops
            .drops
            .iter()
            .flatten()
            .filter_map(ToPrimitive::to_f64)
            .fold(0.0, f64::max)
    }

    /// The share of the largest drop that `e` carries, 0..=1.
    fn heat(&self, e: usize) -> f64 {
        let max = self.max_drop();
        let d = self.drops.drops[e]
            .as_ref()
            .and_then(ToPrimitive::to_f64)
            .unwrap_or(0.0);
        if max > 0.0 { d / max } else { 0.0 }
    }

    /// Percent of the supply, three significant digits (as the terminal's `v`).
    fn percent(&self, e: usize) -> Option<String> {
        let d = self.drops.drops[e].as_ref()?;
        Some(emulator::share::percent(d, emulator::share::MIN_DIGITS))
    }

    /// The SVG of the board.
    pub fn svg(&self) -> String {
        match (self.game.position(), self.game.graph()) {
            (Some(p), _) if self.gale => self.gale_svg(p.size()),
            (Some(p), _) => self.cage_svg(p.size()),
            (None, Some(g)) => self.graph_svg(g),
            (None, None) => String::new(),
        }
    }

    /// The opening tag and the definitions every view shares. The row and column labels
    /// grow with the board in its units (`--coord`), so that a board shrunk to a phone's
    /// width still has labels of about 10 px or more (at M=8 they were 6 px).
    fn open(&self, width: f64, height: f64, label: &str) -> String {
        let coord = COORD * (width / COORD_WIDTH).max(1.0);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" \
             role=\"group\" aria-label=\"{}\" class=\"board\" style=\"--coord: {coord:.1}px\">",
            escape(label)
        )
    }

    /// One edge as a group: its title, the hit area, and its drawing.
    fn edge(&self, out: &mut String, e: usize, a: Point, b: Point, body: &str) {
        let states = &self.states;
        let playable = states[e] == EdgeState::Resistor && self.your_turn;
        let name = self.game.move_name(self.game.you(), e);
        let mut class = String::from("edge");
        class.push_str(match states[e] {
            EdgeState::Resistor => " resistor",
            EdgeState::Cut => " cut",
            EdgeState::Short => " short",
        });
        if self.drops.tied.contains(&e) {
            class.push_str(" largest");
        }
        if self.last == Some(e) {
            class.push_str(" last");
        }
        if self.hint == Some(e) {
            class.push_str(" hinted");
        }
        let info = escape(&self.info[e]);
        if playable {
            let _ = write!(
                out,
                "<g class=\"{class}\" data-edge=\"{}\" data-info=\"{info}\" tabindex=\"0\" \
                 role=\"button\" aria-label=\"{info}\">",
                escape(&name)
            );
        } else {
            let _ = write!(
                out,
                "<g class=\"{class}\" data-name=\"{}\" data-info=\"{info}\">",
                escape(&self.game.names()[e])
            );
        }
        let _ = write!(out, "<title>{info}</title>");
        let _ = write!(
            out,
            "<line class=\"hit\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
            a.0, a.1, b.0, b.1
        );
        out.push_str(body);
        out.push_str("</g>");
    }

    /// A resistor, a wire or a gap from `a` to `b`, as the circuit shows it.
    fn circuit_body(&self, e: usize, a: Point, b: Point) -> String {
        let mut s = String::new();
        let line = |s: &mut String, p: Point, q: Point, class: &str, extra: &str| {
            let _ = write!(
                s,
                "<line class=\"{class}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"{extra}/>",
                p.0, p.1, q.0, q.1
            );
        };
        let at = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        match self.states[e] {
            EdgeState::Short => line(&mut s, a, b, "wire", ""),
            EdgeState::Cut => {
                // The leads stay; the resistor between them is gone, a cross marks the gap.
                line(&mut s, a, at(0.3), "lead", "");
                line(&mut s, at(0.7), b, "lead", "");
                let m = at(0.5);
                let r = 0.09 * U;
                let _ = write!(
                    s,
                    "<path class=\"gap\" d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\"/>",
                    m.0 - r,
                    m.1 - r,
                    m.0 + r,
                    m.1 + r,
                    m.0 - r,
                    m.1 + r,
                    m.0 + r,
                    m.1 - r
                );
            }
            EdgeState::Resistor => {
                let t = self.heat(e);
                let width = MIN_BODY + (MAX_BODY - MIN_BODY) * t;
                let colour = viridis(t);
                line(&mut s, a, at(0.22), "lead", "");
                line(&mut s, at(0.78), b, "lead", "");
                let zig = zigzag(at(0.22), at(0.78));
                let _ = write!(
                    s,
                    "<path class=\"halo\" d=\"{zig}\" stroke-width=\"{:.1}\"/>\
                     <path class=\"body\" d=\"{zig}\" stroke=\"{colour}\" stroke-width=\"{width:.1}\"/>",
                    width + HALO
                );
                if self.show_drops
                    && let Some(p) = self.percent(e)
                {
                    let m = at(0.5);
                    // Clear of the zig-zag at its widest (amplitude and half the widest halo)
                    // by a gap: beside a vertical one, above a horizontal one by half a line.
                    let clear = ZIG_AMP + MAX_HALO / 2.0 + 2.0;
                    let (dx, dy) = if (a.0 - b.0).abs() < 1e-6 {
                        (clear, 0.0)
                    } else {
                        (0.0, -(clear + LABEL_PX / 2.0))
                    };
                    let anchor = if dx > 0.0 { "start" } else { "middle" };
                    let _ = write!(
                        s,
                        "<text class=\"pct\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\" \
                         dominant-baseline=\"middle\" font-size=\"{LABEL_PX}\">{p}</text>",
                        m.0 + dx,
                        m.1 + dy
                    );
                }
            }
        }
        s
    }

    /// The cage as a circuit: the supply bar Q on top, ground 0 below, the resistors.
    fn cage_svg(&self, size: Size) -> String {
        let span = f64::from(size.span()) + 1.0; // 2M
        let x = |x: f64| U * (x + 0.6);
        let y = |y: f64| U * (span + 1.4 - y);
        let (w, h) = (U * (span + 1.2), U * (span + 2.6));
        let mut out = self.open(w, h, &format!("The M={} bird cage", size.get()));
        // Terminals: one node each, drawn as a bar across the cage.
        for (row, label, class) in [(span, "Q", "terminal top"), (0.0, "0", "terminal bottom")] {
            let _ = write!(
                out,
                "<line class=\"{class}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>\
                 <text class=\"terminal-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" \
                 dominant-baseline=\"middle\">{label}</text>",
                x(1.0) - 0.2 * U,
                y(row),
                x(span - 1.0) + 0.2 * U,
                y(row),
                x(1.0) - 0.35 * U,
                y(row),
            );
        }
        // Column letters below, row numbers on the left: the squares' names.
        for c in 1..size.span() + 1 {
            let _ = write!(
                out,
                "<text class=\"coord\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x(f64::from(c)),
                y(-0.75),
                column_letter(c)
            );
        }
        for r in 1..size.span() + 1 {
            let _ = write!(
                out,
                "<text class=\"coord\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
                 dominant-baseline=\"middle\">{r}</text>",
                x(0.0) - 0.05 * U,
                y(f64::from(r))
            );
        }
        for (e, edge) in size.edges().enumerate() {
            let (a, b) = ends(edge);
            let (a, b) = ((x(a.0), y(a.1)), (x(b.0), y(b.1)));
            let body = self.circuit_body(e, a, b);
            self.edge(&mut out, e, a, b, &body);
        }
        // Internal nodes: dots where resistors meet.
        for node in size.nodes().filter(|n| !n.is_terminal()) {
            if let heuristic::Node::Internal { x: nx, y: ny } = node {
                let _ = write!(
                    out,
                    "<circle class=\"node\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\"/>",
                    x(f64::from(nx)),
                    y(f64::from(ny)),
                    0.07 * U
                );
            }
        }
        out.push_str("</svg>");
        out
    }

    /// The cage as Gale's game: Short's dots join top to bottom, Cut's left to right.
    fn gale_svg(&self, size: Size) -> String {
        let span = f64::from(size.span()) + 1.0; // 2M
        let x = |x: f64| U * (x + 1.2);
        let y = |y: f64| U * (span + 0.6 - y);
        let (w, h) = (U * (span + 2.1), U * (span + 1.9));
        let mut out = self.open(w, h, &format!("The M={} cage as Gale's dots", size.get()));
        // The squares' names, as on the circuit: columns below, rows on the left.
        for c in 1..size.span() + 1 {
            let _ = write!(
                out,
                "<text class=\"coord\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x(f64::from(c)),
                y(-0.75),
                column_letter(c)
            );
        }
        for r in 1..size.span() + 1 {
            let _ = write!(
                out,
                "<text class=\"coord\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
                 dominant-baseline=\"middle\">{r}</text>",
                x(-0.6),
                y(f64::from(r))
            );
        }
        let states = &self.states;
        for (e, edge) in size.edges().enumerate() {
            let (a, b) = ends(edge);
            let (c, d) = dual_ends(edge);
            let (a, b) = ((x(a.0), y(a.1)), (x(b.0), y(b.1)));
            let (c, d) = ((x(c.0), y(c.1)), (x(d.0), y(d.1)));
            let body = match states[e] {
                EdgeState::Short => format!(
                    "<line class=\"bridge\" stroke=\"{SHORT}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                    a.0, a.1, b.0, b.1
                ),
                EdgeState::Cut => format!(
                    "<line class=\"bridge\" stroke=\"{CUT}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                    c.0, c.1, d.0, d.1
                ),
                EdgeState::Resistor => {
                    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                    format!(
                        "<line class=\"open\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>\
                         <circle class=\"square\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\"/>",
                        a.0,
                        a.1,
                        b.0,
                        b.1,
                        mid.0,
                        mid.1,
                        0.06 * U
                    )
                }
            };
            // The hit area lies along the bridge drawn: Cut's across the edge.
            let (p, q) = if states[e] == EdgeState::Cut {
                (c, d)
            } else {
                (a, b)
            };
            self.edge(&mut out, e, p, q, &body);
        }
        let top = size.span() + 1;
        for gx in 0..=top {
            for gy in 0..=top {
                let (cx, cy) = (x(f64::from(gx)), y(f64::from(gy)));
                match (gx % 2, gy % 2) {
                    (1, 0) => {
                        let _ = write!(
                            out,
                            "<circle class=\"dot short-dot\" fill=\"{SHORT}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\"/>",
                            0.16 * U
                        );
                    }
                    (0, 1) => {
                        let _ = write!(
                            out,
                            "<circle class=\"dot cut-dot\" stroke=\"{CUT}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\"/>",
                            0.14 * U
                        );
                    }
                    _ => {}
                }
            }
        }
        out.push_str("</svg>");
        out
    }

    /// A graph on its layout: terminals on top and at the bottom, every other vertex at the
    /// height of its voltage at the start.
    fn graph_svg(&self, graph: &switching::Graph) -> String {
        let at = layout::layout(graph);
        let (w, h) = (640.0, 560.0);
        let pad = 48.0;
        let place = |p: Point| (pad + p.0 * (w - 2.0 * pad), pad + p.1 * (h - 2.0 * pad));
        let mut out = self.open(w, h, "The board of the graph file");
        // Parallel edges side by side: the k-th of n copies offset across the line.
        let edges = graph.edges();
        for (e, edge) in edges.iter().enumerate() {
            let [u, v] = edge.ends;
            let copies: Vec<usize> = (0..edges.len())
                .filter(|&f| {
                    let [p, q] = edges[f].ends;
                    (p, q) == (u, v) || (p, q) == (v, u)
                })
                .collect();
            let k = copies.iter().position(|&f| f == e).unwrap_or(0) as f64;
            let offset = (k - (copies.len() as f64 - 1.0) / 2.0) * 18.0;
            let (a, b) = (place(at[u]), place(at[v]));
            let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1e-6);
            let (nx, ny) = (-(b.1 - a.1) / len * offset, (b.0 - a.0) / len * offset);
            let (a, b) = ((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny));
            let mut body = self.circuit_body(e, a, b);
            // The name beside the middle, on the side the copy is offset to (clear of the
            // resistor's zigzag).
            let m = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1e-6);
            let side = if offset < 0.0 { -1.0 } else { 1.0 };
            let (ux, uy) = (-(b.1 - a.1) / len * side, (b.0 - a.0) / len * side);
            let _ = write!(
                body,
                "<text class=\"edge-name\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
                 dominant-baseline=\"middle\">{}</text>",
                m.0 + ux * 22.0,
                m.1 + uy * 22.0,
                escape(&edge.name)
            );
            self.edge(&mut out, e, a, b, &body);
        }
        let terminals = graph.terminals();
        for (i, name) in graph.vertices().iter().enumerate() {
            let p = place(at[i]);
            let terminal = terminals.contains(&i);
            let _ = write!(
                out,
                "<circle class=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{}\"/>\
                 <text class=\"vertex-name\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                if terminal {
                    "node terminal-node"
                } else {
                    "node"
                },
                p.0,
                p.1,
                if terminal { 9 } else { 4 },
                p.0,
                if terminal { p.1 - 14.0 } else { p.1 + 16.0 },
                escape(name)
            );
        }
        out.push_str("</svg>");
        out
    }
}

/// An edge's two ends on the grid (x, y), from its square and orientation: a vertical edge
/// joins (x, y−1) and (x, y+1), a horizontal one (x−1, y) and (x+1, y).
fn ends(edge: Edge) -> (Point, Point) {
    let (x, y) = (f64::from(edge.x()), f64::from(edge.y()));
    match edge.orientation() {
        Orientation::Vertical => ((x, y - 1.0), (x, y + 1.0)),
        Orientation::Horizontal => ((x - 1.0, y), (x + 1.0, y)),
    }
}

/// The two dual dots across an edge (Cut's bridge over it).
fn dual_ends(edge: Edge) -> (Point, Point) {
    let (x, y) = (f64::from(edge.x()), f64::from(edge.y()));
    match edge.orientation() {
        Orientation::Vertical => ((x - 1.0, y), (x + 1.0, y)),
        Orientation::Horizontal => ((x, y - 1.0), (x, y + 1.0)),
    }
}

/// A resistor's zigzag from `a` to `b` (SVG path data), six half-waves.
fn zigzag(a: Point, b: Point) -> String {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (nx, ny) = (-dy / len, dx / len);
    let amp = ZIG_AMP.min(len * 0.2);
    let mut d = format!("M{:.1} {:.1}", a.0, a.1);
    let n = 6;
    for i in 0..n {
        let t = (f64::from(i) + 0.5) / f64::from(n);
        let s = if i % 2 == 0 { amp } else { -amp };
        let _ = write!(
            d,
            "L{:.1} {:.1}",
            a.0 + dx * t + nx * s,
            a.1 + dy * t + ny * s
        );
    }
    let _ = write!(d, "L{:.1} {:.1}", b.0, b.1);
    d
}

/// Which side `Side` draws in (for the legend).
pub fn side_colour(side: Side) -> &'static str {
    match side {
        Side::Short => SHORT,
        Side::Cut => CUT,
    }
}
