//! The screen of a game on a graph: the edge list in a window that follows the selection.

use heuristic::EdgeState;

use super::layout::{Content, Panel, Place, Sheet, Status, lay_out, wrap};
use super::{CUT_INK, Frame, SHORT_INK, Span, Style};
use crate::cli::play::Front;
use crate::cli::play::graph::GraphSession;
use crate::cli::play::keys;

/// What the screen of a game on a graph shows besides the game.
#[derive(Debug)]
pub(crate) struct GraphScene<'a> {
    pub(crate) game: &'a GraphSession,
    /// The edge under the cursor, in file order.
    pub(crate) selected: usize,
    /// Whether the drops are shown.
    pub(crate) drops: bool,
    pub(crate) typed: &'a str,
    pub(crate) message: &'a str,
    pub(crate) colours: bool,
}

/// The screen of a game on a graph (see [`super::layout::lay_out`]): the status, the
/// terminals, a window of the edge list that keeps the selection in view (shorted edges in
/// Short's ink, cut ones in Cut's, the selection `>` in reverse video, the machine's last
/// move `<` in bold) and the prompt; then as room allows the message, the keys, the legend
/// and the header.
pub(crate) fn graph_frame(scene: &GraphScene, width: u16, height: u16) -> Frame {
    let game = scene.game;
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
    let play = game.play();
    let states = play.states();
    let ink = |colour| Style {
        fg: scene.colours.then_some(colour),
        ..Style::default()
    };
    let message = wrap(scene.message, usize::from(width)).len().min(3);
    // Everything but the edges takes 8 lines and the message; three edges at least.
    let room = usize::from(height).saturating_sub(8 + message).max(3);
    let edges = &all[1..];
    let start = scene
        .selected
        .saturating_sub(room / 2)
        .min(edges.len().saturating_sub(room));
    let end = (start + room).min(edges.len());
    let mut board = vec![vec![Span::plain(all[0].clone())]];
    for (i, line) in edges.iter().enumerate().take(end).skip(start) {
        let mut style = match states[i] {
            EdgeState::Short => ink(SHORT_INK),
            EdgeState::Cut => ink(CUT_INK),
            EdgeState::Resistor => Style::default(),
        };
        style.reverse = i == scene.selected;
        style.bold = Some(i) == last;
        board.push(vec![Span::styled(line.clone(), style)]);
    }
    if end < edges.len() || start > 0 {
        board.push(vec![Span::plain(format!(
            "  (edges {}..{} of {})",
            start + 1,
            end,
            edges.len()
        ))]);
    }
    let legend = vec![
        vec![Span::plain("> selected")],
        vec![Span::plain("< the machine's last move")],
        vec![Span::styled("shorted", ink(SHORT_INK))],
        vec![Span::styled("cut", ink(CUT_INK))],
    ];
    let parts = vec![
        Panel {
            importance: 0,
            place: Place::Message,
            content: Content::Message(scene.message.to_string()),
        },
        Panel {
            importance: 2,
            place: Place::Legend,
            content: Content::Items(legend),
        },
        Panel {
            importance: 3,
            place: Place::Header,
            content: Content::Words(game.header()),
        },
        Panel {
            importance: 5,
            place: Place::AboveBoard,
            content: Content::Blank,
        },
    ];
    let how = "Up/Down + Enter, or an edge's name + Enter: play";
    let sheet = Sheet {
        status: Status::new(game, game.play().to_move(), game.you()),
        board,
        typed: scene.typed.to_string(),
        keys: keys::key_line(how, |c| !game.names_begin(&c.to_string())),
        parts,
    };
    lay_out(sheet, width, height)
}
