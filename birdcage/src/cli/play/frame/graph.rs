//! The screen of a game on a graph: the edge list in a window that follows the selection.

use heuristic::EdgeState;

use super::layout::{fit, status, wrap};
use super::{CUT_INK, Frame, Line, SHORT_INK, Span, Style};
use crate::cli::play::Game;
use crate::cli::play::graph::GraphSession;

/// What the screen of a game on a graph shows besides the game.
#[derive(Debug)]
pub(crate) struct GraphScene<'a, 'g> {
    pub(crate) game: &'a GraphSession<'g>,
    /// The edge under the cursor, in file order.
    pub(crate) selected: usize,
    /// Whether the drops are shown.
    pub(crate) drops: bool,
    pub(crate) typed: &'a str,
    pub(crate) message: &'a str,
    pub(crate) colours: bool,
}

/// The keys of the game on a graph, in 80 columns.
const GRAPH_HELP: &str = "Up/Down + Enter: play   or type an edge, hint, drops, undo, quit + Enter";

/// The screen of a game on a graph: the header and status, the terminals, a window of the
/// edge list that keeps the selection in view (shorted edges in Short's ink, cut ones in
/// Cut's, the selection `>` in reverse video, the machine's last move `<` in bold), the
/// legend, the message and the keys.
pub(crate) fn graph_frame(scene: &GraphScene, width: u16, height: u16) -> Frame {
    let game = scene.game;
    let width = usize::from(width);
    let last = game.last_machine_move();
    let marker = |i| {
        if i == scene.selected {
            "> "
        } else if Some(i) == last {
            "< "
        } else {
            "  "
        }
    };
    let all = game.lines(marker, scene.drops);
    let states = game.play().states();
    let ink = |colour| Style {
        fg: scene.colours.then_some(colour),
        ..Style::default()
    };
    let message = wrap(scene.message, width);
    let message = &message[..message.len().min(2)];
    let mut lines: Vec<Line> = vec![
        vec![Span::plain(game.header())],
        vec![Span::plain(status(game, game.play().to_move(), game.you()))],
        Vec::new(),
        vec![Span::plain(all[0].clone())],
    ];
    // Everything but the edges takes 8 lines and the message.
    let room = usize::from(height).saturating_sub(8 + message.len()).max(3);
    let edges = &all[1..];
    let start = scene
        .selected
        .saturating_sub(room / 2)
        .min(edges.len().saturating_sub(room));
    let end = (start + room).min(edges.len());
    for (i, line) in edges.iter().enumerate().take(end).skip(start) {
        let mut style = match states[i] {
            EdgeState::Short => ink(SHORT_INK),
            EdgeState::Cut => ink(CUT_INK),
            EdgeState::Resistor => Style::default(),
        };
        style.reverse = i == scene.selected;
        style.bold = Some(i) == last;
        lines.push(vec![Span::styled(line.clone(), style)]);
    }
    if end < edges.len() || start > 0 {
        lines.push(vec![Span::plain(format!(
            "  (edges {}..{} of {})",
            start + 1,
            end,
            edges.len()
        ))]);
    }
    lines.push(vec![
        Span::plain("> selected   < the machine's last move   "),
        Span::styled("shorted", ink(SHORT_INK)),
        Span::plain("   "),
        Span::styled("cut", ink(CUT_INK)),
    ]);
    lines.extend(message.iter().map(|m| vec![Span::plain(m.clone())]));
    lines.push(vec![Span::plain(GRAPH_HELP)]);
    lines.push(vec![Span::plain(format!("> {}", scene.typed))]);
    let rows = usize::from(height);
    if lines.len() > rows {
        // A terminal too small even for three edges: the prompt stays, the header goes.
        let prompt = lines.pop().unwrap_or_default();
        lines.remove(0);
        lines.truncate(rows.saturating_sub(1));
        lines.push(prompt);
    }
    let cursor_row = lines.len().saturating_sub(1);
    let column = (2 + scene.typed.chars().count()).min(width.saturating_sub(1));
    Frame {
        lines: lines.into_iter().map(|l| fit(l, width)).collect(),
        cursor: (column as u16, cursor_row as u16),
    }
}
