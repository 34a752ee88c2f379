//! The screen of a game on the cage: the board in the circuit or Gale view, its legends, the
//! message, the keys and the prompt, as much as the terminal holds.

use crossterm::style::Color;
use emulator::diagram::{self, Part};
use heuristic::{Edge, EdgeState, Side};

use super::ink::{HEAT, HEAT_TEXT};
use super::layout::{fit, status, wrap};
use super::{CUT_INK, Frame, Line, SHORT_INK, Span, Style, text};
use crate::cli::play::gale::{self, Ink};
use crate::cli::play::heat::{self, Heat};
use crate::cli::play::{Session, View};

/// What the screen shows besides the game.
#[derive(Debug)]
pub(crate) struct Scene<'a> {
    pub(crate) game: &'a Session,
    /// The edge under the cursor.
    pub(crate) selected: Option<Edge>,
    /// Whether `v` shows the drops.
    pub(crate) drops: bool,
    /// What the person is typing.
    pub(crate) typed: &'a str,
    /// The last message (a move, a hint, an error).
    pub(crate) message: &'a str,
    /// Whether colours may be used (`NO_COLOR` unset).
    pub(crate) colours: bool,
}

/// The keys, in 80 columns.
const HELP: &str = "arrows + Enter, or a move (c5) + Enter: play   ? hint  v drops  u undo  q quit";

/// Builds the screen for a terminal `width` columns wide and `height` lines high.
///
/// The status line, the board and the prompt always show; the message (up to three lines:
/// a hint's reason matters), the legend, the keys and the header follow as room allows,
/// in that order of importance, so that the M=8 board fits 80×24 and a small board gets
/// the spacing.
pub(crate) fn frame(scene: &Scene, width: u16, height: u16) -> Frame {
    let game = scene.game;
    let (board, legends) = board_lines(scene);
    let width_chars = usize::from(width);
    let board_width = board
        .iter()
        .map(|l| text(l).chars().count())
        .max()
        .unwrap_or(0);
    let rows = usize::from(height);
    if rows < board.len() + 2 || width_chars < board_width {
        let line = format!(
            "The terminal is {width}×{height}; this board needs {board_width}×{}. Enlarge it, or q to quit.",
            board.len() + 2
        );
        return Frame {
            lines: wrap(&line, width_chars)
                .into_iter()
                .map(|l| vec![Span::plain(l)])
                .collect(),
            cursor: (0, 0),
        };
    }
    let mut message = wrap(scene.message, width_chars);
    message.truncate(3);
    // (importance, place on screen, line): the lowest importance goes first when short.
    let status = status(game, game.position().to_move(), game.you());
    let mut parts: Vec<(u8, u8, Line)> = vec![(0, 1, vec![Span::plain(status)])];
    parts.extend(board.into_iter().map(|l| (0, 3, l)));
    parts.push((0, 9, vec![Span::plain(format!("> {}", scene.typed))]));
    parts.extend(message.into_iter().map(|l| (1, 7, vec![Span::plain(l)])));
    let mut legends = legends.into_iter();
    if let Some(first) = legends.next() {
        parts.push((2, 4, first));
    }
    parts.extend(legends.map(|l| (5, 5, l)));
    parts.push((3, 8, vec![Span::plain(HELP)]));
    parts.push((4, 0, vec![Span::plain(game.header())]));
    parts.push((6, 2, Vec::new()));
    parts.push((6, 6, Vec::new()));
    // Keep the most important lines that fit (stable: ties keep their order), then put
    // them in their places.
    let mut kept: Vec<(usize, (u8, u8, Line))> = parts.into_iter().enumerate().collect();
    kept.sort_by_key(|(i, (importance, _, _))| (*importance, *i));
    kept.truncate(rows);
    kept.sort_by_key(|(i, (_, place, _))| (*place, *i));
    let lines: Vec<Line> = kept
        .into_iter()
        .map(|(_, (_, _, line))| fit(line, width_chars))
        .collect();
    let prompt_row = lines
        .iter()
        .rposition(|l| text(l).starts_with("> "))
        .unwrap_or(0);
    let column = (2 + scene.typed.chars().count()).min(width_chars.saturating_sub(1));
    Frame {
        lines,
        cursor: (column as u16, prompt_row as u16),
    }
}

/// The board's lines and the legend's, in the scene's view.
fn board_lines(scene: &Scene) -> (Vec<Line>, Vec<Line>) {
    let game = scene.game;
    let position = game.position();
    let colours = scene.colours;
    let ink = |colour: Color| Style {
        fg: colours.then_some(colour),
        ..Style::default()
    };
    let marks = vec![
        Span::styled(
            "[ ]",
            Style {
                reverse: true,
                ..Style::default()
            },
        ),
        Span::plain(" selected   "),
        Span::styled(
            "< >",
            Style {
                bold: true,
                ..Style::default()
            },
        ),
        Span::plain(" the machine's last move"),
    ];
    let (mut lines, legends) = if scene.drops {
        let heat = game.heat();
        let pieces = diagram::labelled_pieces(position, |e| heat.label(e));
        let lines = pieces
            .into_iter()
            .map(|line| {
                line.into_iter()
                    .map(|(text, part)| circuit_span(text, part, Some(&heat), colours))
                    .collect()
            })
            .collect();
        (lines, vec![heat_legend(&heat, colours), marks])
    } else if game.view() == View::Gale {
        let mut lines: Vec<Line> = gale::lines(position, game.you())
            .into_iter()
            .map(|line| {
                line.into_iter()
                    .map(|piece| Span {
                        style: match piece.ink {
                            Ink::Side(Side::Short) => ink(SHORT_INK),
                            Ink::Side(Side::Cut) => ink(CUT_INK),
                            Ink::Plain => Style::default(),
                        },
                        text: piece.text,
                        edge: piece.edge,
                    })
                    .collect()
            })
            .collect();
        // Gale's own legend (who joins what) is its last line.
        let legend = lines.pop().unwrap_or_default();
        (lines, vec![legend, marks])
    } else {
        let lines = diagram::board_pieces(position)
            .into_iter()
            .map(|line| {
                line.into_iter()
                    .map(|(text, part)| circuit_span(text, part, None, colours))
                    .collect()
            })
            .collect();
        let mut legend = vec![
            Span::plain("- |"),
            Span::plain(" resistor   "),
            Span::styled("= ‖", ink(SHORT_INK)),
            Span::plain(" wire   "),
            Span::styled("×", ink(CUT_INK)),
            Span::plain(" cut   "),
        ];
        legend.extend(marks);
        (lines, vec![legend])
    };
    if let Some(edge) = game
        .last_machine_move()
        .filter(|&e| Some(e) != scene.selected)
    {
        mark(&mut lines, edge, '<', '>', |s| s.bold = true);
    }
    if let Some(edge) = scene.selected {
        mark(&mut lines, edge, '[', ']', |s| s.reverse = true);
    }
    (lines, legends)
}

/// One piece of the circuit drawing as a span: wires and cuts inked by side, a cut drawn
/// `×` (a blank in the original's drawing, which no colour can show); with `heat`, each
/// resistor on its heat step.
fn circuit_span(text: String, part: Part, heat: Option<&Heat>, colours: bool) -> Span {
    let Part::Edge(edge, state) = part else {
        return Span::plain(text);
    };
    let mut style = Style::default();
    let mut text = text;
    match state {
        EdgeState::Cut => {
            let width = text.chars().count();
            text = format!("{:^width$}", "×");
            style.fg = colours.then_some(CUT_INK);
        }
        EdgeState::Short => style.fg = colours.then_some(SHORT_INK),
        EdgeState::Resistor => {
            if let Some(level) = heat.and_then(|h| h.level(edge)) {
                if colours {
                    style.bg = Some(HEAT[level]);
                    style.fg = Some(HEAT_TEXT[level]);
                }
                if level == heat::LEVELS - 1 {
                    style.bold = true;
                    // Without colours the largest drop needs a mark of its own.
                    style.underline = !colours;
                }
            }
        }
    }
    Span {
        text,
        style,
        edge: Some(edge),
    }
}

/// The heat map's legend: each step's colour and lowest drop in percent, and where the
/// largest drop is; without colours, where the largest is and how it is marked.
fn heat_legend(heat: &Heat, colours: bool) -> Line {
    let largest: Vec<String> = heat.largest().iter().map(Edge::to_string).collect();
    let where_ = largest.join(" ");
    if !colours {
        return vec![Span::plain(format!(
            "Drops in % of the supply. Largest (bold, underlined): {}% at {where_}",
            heat::percent(heat.max())
        ))];
    }
    let mut line = vec![Span::plain("Drop, % of supply: ")];
    for (level, &colour) in HEAT.iter().enumerate() {
        line.push(Span::styled(
            "  ",
            Style {
                bg: Some(colour),
                ..Style::default()
            },
        ));
        let floor = heat::percent(heat.floor(level));
        line.push(Span::plain(if level == heat::LEVELS - 1 {
            format!(" {floor} largest: {where_}")
        } else {
            format!(" {floor}+ ")
        }));
    }
    line
}

/// Marks `edge` on the board: `open` and `close` in the blanks either side of its cell,
/// and `style` on the cell.
fn mark(lines: &mut [Line], edge: Edge, open: char, close: char, style: impl Fn(&mut Style)) {
    for line in lines.iter_mut() {
        let Some(i) = line.iter().position(|s| s.edge == Some(edge)) else {
            continue;
        };
        style(&mut line[i].style);
        // Cells are one blank apart, and a row number's blank stands before the first.
        if i > 0 {
            let before = &mut line[i - 1].text;
            if before.ends_with(' ') {
                before.pop();
                before.push(open);
            }
        }
        match line.get_mut(i + 1) {
            Some(after) if after.text.starts_with(' ') => {
                after.text.replace_range(..1, &close.to_string());
            }
            Some(_) => {}
            None => line.push(Span::plain(close.to_string())),
        }
        return;
    }
}
