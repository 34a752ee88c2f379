//! The screen of a game on the cage: the board in the circuit or Gale view, its legends, the
//! message, the keys and the prompt, as much as the terminal holds.

use crossterm::style::Color;
use emulator::diagram::{self, Piece};
use heuristic::{Edge, EdgeState, Move, Position, Side};

use super::ink::{HEAT, HEAT_TEXT};
use super::layout::{self, Content, Place, Sheet, Status, lay_out};
use super::{CUT_INK, Frame, Line, SHORT_INK, Span, Style, text};
use crate::cli::play::gale::{self, Ink};
use crate::cli::play::heat::{self, Heat};
use crate::cli::play::keys;
use crate::cli::play::{Front, Session, View};

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

/// Builds the screen for a terminal `width` columns wide and `height` lines high (see
/// [`lay_out`]): the status line, the board and the prompt, then as room allows the
/// message (a hint's reason matters), the keys, the legend and the header.
pub(crate) fn frame(scene: &Scene, width: u16, height: u16) -> Frame {
    let game = scene.game;
    let (board, legends, note) = board_lines(scene, usize::from(width));
    let mut parts = vec![
        layout::Panel {
            importance: 0,
            place: Place::Message,
            content: Content::Message(scene.message.to_string()),
        },
        layout::Panel {
            importance: 3,
            place: Place::Header,
            content: Content::Words(game.header()),
        },
        layout::Panel {
            importance: 5,
            place: Place::AboveBoard,
            content: Content::Blank,
        },
        layout::Panel {
            importance: 5,
            place: Place::BelowLegend,
            content: Content::Blank,
        },
    ];
    if let Some(note) = note {
        parts.push(layout::Panel {
            importance: 1,
            place: Place::Legend,
            content: Content::Words(note),
        });
    }
    for (i, items) in legends.into_iter().enumerate() {
        parts.push(layout::Panel {
            importance: if i == 0 { 2 } else { 4 },
            place: Place::Legend,
            content: Content::Items(items),
        });
    }
    let size = game.position().size();
    let example = Edge::new(size, size.get(), size.get()).map_or(String::new(), |edge| {
        format!(
            " ({})",
            Move {
                side: game.you(),
                edge
            }
        )
    });
    let how = format!("arrows + Enter, or a move{example} + Enter: play");
    let keys = keys::key_line(&how, |c| !game.names_begin(&c.to_string()));
    let sheet = Sheet {
        status: Status::new(game, game.position().to_move(), game.you()),
        board,
        typed: scene.typed.to_string(),
        keys,
        parts,
    };
    lay_out(sheet, width, height)
}

/// The board as plain text, as on the screen: what is printed once the game gives the
/// terminal back, and what `solve` and `analyze` print (one drawing: `emulator::diagram`).
pub(crate) fn plain_board(position: &Position) -> String {
    diagram::board(position)
}

/// A legend: its items, each kept whole on a line.
type Legend = Vec<Line>;

/// The board's lines, the legends' (the first matters most), and a note when the drops
/// do not fit `width` and the plain board stands in for them.
fn board_lines(scene: &Scene, width: usize) -> (Vec<Line>, Vec<Legend>, Option<String>) {
    let game = scene.game;
    let position = game.position();
    let colours = scene.colours;
    let ink = |colour: Color| Style {
        fg: colours.then_some(colour),
        ..Style::default()
    };
    let marks = vec![
        vec![
            Span::styled(
                "[ ]",
                Style {
                    reverse: true,
                    ..Style::default()
                },
            ),
            Span::plain(" selected"),
        ],
        vec![
            Span::styled(
                "< >",
                Style {
                    bold: true,
                    ..Style::default()
                },
            ),
            Span::plain(" the machine's last move"),
        ],
    ];
    let heat = scene.drops.then(|| game.heat());
    let drops = heat.as_ref().map(|heat| {
        diagram::labelled_pieces(position, |e| heat.cell(e))
            .into_iter()
            .map(|line| {
                line.into_iter()
                    .map(|(text, part)| circuit_span(text, part, Some(heat), colours))
                    .collect::<Line>()
            })
            .collect::<Vec<Line>>()
    });
    let drops_width = drops
        .as_ref()
        .and_then(|d| d.iter().map(|l| text(l).chars().count()).max());
    let mut note = None;
    let (mut lines, legends) = if let (Some(lines), Some(heat)) = (
        drops.filter(|_| drops_width.is_some_and(|w| w <= width)),
        &heat,
    ) {
        (lines, vec![heat_legend(heat, colours), marks])
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
        // Gale's own legend (who joins what) is its last line: an item a side.
        let legend = lines.pop().unwrap_or_default();
        let items = legend
            .chunks(2)
            .map(|item| {
                item.iter()
                    .map(|s| Span {
                        text: s.text.trim_end().to_string(),
                        ..s.clone()
                    })
                    .collect()
            })
            .collect();
        (lines, vec![items, marks])
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
            vec![Span::plain("- |"), Span::plain(" resistor")],
            vec![Span::styled("= ‖", ink(SHORT_INK)), Span::plain(" wire")],
            vec![Span::styled("×", ink(CUT_INK)), Span::plain(" cut")],
        ];
        legend.extend(marks);
        (lines, vec![legend])
    };
    if let Some(needed) = drops_width.filter(|&w| w > width) {
        note = Some(drops_note(needed));
    }
    if let Some(edge) = game
        .last_machine_move()
        .filter(|&e| Some(e) != scene.selected)
    {
        mark(&mut lines, edge, '<', '>', |s| s.bold = true);
    }
    if let Some(edge) = scene.selected {
        mark(&mut lines, edge, '[', ']', |s| s.reverse = true);
    }
    (lines, legends, note)
}

/// What stands for the drops when they do not fit the terminal.
pub(super) fn drops_note(needed: usize) -> String {
    format!("The drops need a terminal {needed} columns wide; v hides them.")
}

/// One piece of the circuit drawing as a span: wires and cuts inked by side (a cut is
/// `emulator::diagram`'s `×`, centred in a wider cell); with `heat`, each resistor on its
/// heat step.
fn circuit_span(text: String, part: Piece, heat: Option<&Heat>, colours: bool) -> Span {
    let Piece::Edge(edge, state) = part else {
        return Span::plain(text);
    };
    let mut style = Style::default();
    match state {
        EdgeState::Cut => style.fg = colours.then_some(CUT_INK),
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
fn heat_legend(heat: &Heat, colours: bool) -> Legend {
    let largest: Vec<String> = heat.largest().iter().map(Edge::to_string).collect();
    let where_ = largest.join(" ");
    if !colours {
        return vec![
            vec![Span::plain("Drops in % of the supply.")],
            vec![Span::plain(format!(
                "Largest (bold, underlined): {}% at {where_}",
                heat::percent(heat.max())
            ))],
        ];
    }
    let mut legend = vec![vec![Span::plain("Drop, % of supply:")]];
    for (level, &colour) in HEAT.iter().enumerate() {
        let floor = heat::percent(heat.floor(level));
        legend.push(vec![
            Span::styled(
                "  ",
                Style {
                    bg: Some(colour),
                    ..Style::default()
                },
            ),
            Span::plain(if level == heat::LEVELS - 1 {
                format!(" {floor} largest: {where_}")
            } else {
                format!(" {floor}+")
            }),
        ]);
    }
    legend
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
