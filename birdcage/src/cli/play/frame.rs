//! The terminal game's screen, built as lines of styled text apart from the terminal, so
//! that tests can read what a person would see (colours or none, what fits 80×24).
//!
//! On the board: resistors in the terminal's own colour, Short's wires in blue and Cut's
//! cuts (`×`) in vermillion, Okabe and Ito's colour-blind-safe pair (Gale's view inks the
//! two sides' dots and bridges the same way). The selected edge is in reverse video
//! between `[` `]`, the machine's last move between `<` `>`. With `v` every resistor
//! shows its drop in percent of the supply on a viridis-like heat step, the largest alone
//! on the brightest (and bold). With `NO_COLOR` no colour is used at all: the marks, the
//! reverse video, and bold underlined text for the largest drop remain.

use std::io::Write;

use crossterm::cursor::{MoveTo, Show};
use crossterm::queue;
use crossterm::style::{
    Attribute, Color, Print, SetAttribute, SetBackgroundColor, SetForegroundColor,
};
use crossterm::terminal::{Clear, ClearType};
use emulator::diagram::{self, Part};
use heuristic::{Edge, EdgeState, Side};

use super::gale::{self, Ink};
use super::graph::GraphSession;
use super::heat::{self, Heat};
use super::{Game, Session, View};

/// Okabe and Ito's blue (xterm-256's nearest): Short's wires, dots and bridges.
pub(crate) const SHORT_INK: Color = Color::AnsiValue(25);
/// Okabe and Ito's vermillion (xterm-256's nearest): Cut's cuts, dots and bridges.
pub(crate) const CUT_INK: Color = Color::AnsiValue(166);
/// The heat steps, low to high: viridis at 0, 0.2, …, 1 (xterm-256's nearest), the last
/// for the largest drop alone. Viridis stays ordered in lightness for colour-blind eyes
/// and in grey.
const HEAT: [Color; heat::LEVELS] = [
    Color::AnsiValue(53),
    Color::AnsiValue(60),
    Color::AnsiValue(30),
    Color::AnsiValue(36),
    Color::AnsiValue(113),
    Color::AnsiValue(220),
];
/// The text on each heat step: white on the dark ones, black on the light ones.
const HEAT_TEXT: [Color; heat::LEVELS] = [
    Color::AnsiValue(231),
    Color::AnsiValue(231),
    Color::AnsiValue(231),
    Color::AnsiValue(16),
    Color::AnsiValue(16),
    Color::AnsiValue(16),
];

/// How a piece of text is drawn; the default is the terminal's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Style {
    pub(crate) fg: Option<Color>,
    pub(crate) bg: Option<Color>,
    pub(crate) reverse: bool,
    pub(crate) bold: bool,
    pub(crate) underline: bool,
}

/// A piece of a line: text, its style, and the edge it draws, if any.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Span {
    pub(crate) text: String,
    pub(crate) style: Style,
    edge: Option<Edge>,
}

impl Span {
    fn plain(text: impl Into<String>) -> Span {
        Span {
            text: text.into(),
            style: Style::default(),
            edge: None,
        }
    }

    fn styled(text: impl Into<String>, style: Style) -> Span {
        Span {
            text: text.into(),
            style,
            edge: None,
        }
    }
}

/// One line of the screen.
pub(crate) type Line = Vec<Span>;

/// The characters of a line.
pub(crate) fn text(line: &Line) -> String {
    line.iter().map(|s| s.text.as_str()).collect()
}

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

/// A screen: its lines from the top, and where the terminal cursor goes (the prompt).
#[derive(Debug)]
pub(crate) struct Frame {
    pub(crate) lines: Vec<Line>,
    pub(crate) cursor: (u16, u16),
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

/// Whose turn it is (or who has won) and the record (cut at its start by `fit`).
fn status(game: &impl Game, to_move: Option<Side>, you: Side) -> String {
    let turn = match (game.outcome(), to_move) {
        (Some(outcome), _) => outcome,
        (None, Some(side)) if side == you => format!("Your move ({side})."),
        (None, _) => "The machine's move.".to_string(),
    };
    format!("{turn}   Record: {}", game.record())
}

/// Cuts a line to `width` characters; a status line keeps the end of its record.
fn fit(line: Line, width: usize) -> Line {
    let count: usize = line.iter().map(|s| s.text.chars().count()).sum();
    if count <= width {
        return line;
    }
    let whole = text(&line);
    if line.len() == 1
        && let Some(at) = whole.find("Record: ")
    {
        // Keep the latest moves: "Record: …,C5,b4".
        let head = &whole[..at + "Record: ".len()];
        let room = width.saturating_sub(head.chars().count() + 1);
        let moves: Vec<char> = whole[head.len()..].chars().collect();
        let tail: String = moves[moves.len().saturating_sub(room)..].iter().collect();
        if room > 0 {
            return vec![Span::plain(format!("{head}…{tail}"))];
        }
    }
    let mut left = width;
    let mut out = Vec::new();
    for mut span in line {
        let n = span.text.chars().count();
        if n > left {
            span.text = span.text.chars().take(left).collect();
        }
        left -= span.text.chars().count();
        out.push(span);
        if left == 0 {
            break;
        }
    }
    out
}

/// Words of `text` in lines of at most `width` characters (a longer word is cut).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let word: String = word.chars().take(width.max(1)).collect();
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
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

/// Draws `frame` on `out` (the terminal, or a buffer in tests): every styled span between
/// its escape codes and a reset, plain text as it is.
pub(crate) fn paint(out: &mut impl Write, frame: &Frame) -> std::io::Result<()> {
    queue!(out, Clear(ClearType::All))?;
    for (row, line) in frame.lines.iter().enumerate() {
        queue!(out, MoveTo(0, row as u16))?;
        for span in line {
            let style = span.style;
            let plain = style == Style::default();
            if let Some(colour) = style.fg {
                queue!(out, SetForegroundColor(colour))?;
            }
            if let Some(colour) = style.bg {
                queue!(out, SetBackgroundColor(colour))?;
            }
            for (on, attribute) in [
                (style.reverse, Attribute::Reverse),
                (style.bold, Attribute::Bold),
                (style.underline, Attribute::Underlined),
            ] {
                if on {
                    queue!(out, SetAttribute(attribute))?;
                }
            }
            queue!(out, Print(&span.text))?;
            if !plain {
                queue!(out, SetAttribute(Attribute::Reset))?;
            }
        }
    }
    let (column, row) = frame.cursor;
    queue!(out, MoveTo(column, row), Show)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::play::{Machine, YouArg};
    use emulator::players::Opponent;
    use heuristic::{Model, Size};

    /// Escape codes that set a colour: foreground, background, or back to the default.
    const COLOUR_CODES: [&str; 4] = ["\x1b[38;", "\x1b[48;", "\x1b[39m", "\x1b[49m"];

    /// A game against the heuristic after `moves` of the person's (each answered).
    fn game(m: u32, view: View, you: YouArg, moves: &[&str]) -> Session {
        let you = match you {
            YouArg::Short => Side::Short,
            YouArg::Cut => Side::Cut,
        };
        let model = Model::Ideal;
        let machine = Machine::Player(Opponent::Heuristic(model));
        let mut game = Session::new(Size::new(m).unwrap(), you, machine, model, view);
        game.reply().unwrap();
        for mv in moves {
            game.play(mv).unwrap();
            game.reply().unwrap();
        }
        game
    }

    fn scene<'a>(game: &'a Session, selected: &str, drops: bool, colours: bool) -> Scene<'a> {
        Scene {
            game,
            selected: Edge::parse(game.position().size(), selected).ok(),
            drops,
            typed: "c",
            message: "Hint: c7: it starts a strategy that beats this machine whatever it does, \
                      though with perfect play the machine would win.",
            colours,
        }
    }

    fn painted(frame: &Frame) -> String {
        let mut out = Vec::new();
        paint(&mut out, frame).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn lines(frame: &Frame) -> Vec<String> {
        frame.lines.iter().map(text).collect()
    }

    #[test]
    fn every_board_and_view_fits_80_by_24_with_the_status_board_and_prompt() {
        for m in 2..=8 {
            for view in [View::Circuit, View::Gale] {
                // Both sides have moved, so wires and cuts are on the board.
                let game = game(m, view, YouArg::Short, &["c3"]);
                assert_eq!(game.position().to_move(), Some(Side::Short));
                for drops in [false, true] {
                    for colours in [false, true] {
                        let what = format!("M={m} {view:?} drops {drops} colours {colours}");
                        let frame = frame(&scene(&game, "A1", drops, colours), 80, 24);
                        let shown = lines(&frame);
                        assert!(shown.len() <= 24, "{what}: {}", shown.len());
                        for line in &shown {
                            assert!(line.chars().count() <= 80, "{what}: {line}");
                        }
                        assert!(shown.iter().any(|l| l.starts_with("Your move (Short).")));
                        // The board's column letters, and the prompt where the cursor is.
                        let letters = (1..=Size::new(m).unwrap().span())
                            .map(|x| heuristic::column_letter(x).to_string())
                            .collect::<Vec<_>>();
                        let last = letters.last().unwrap();
                        assert!(
                            shown.iter().any(|l| l.trim_end().ends_with(last.as_str())),
                            "{what}: no column {last}\n{}",
                            shown.join("\n")
                        );
                        let (column, row) = frame.cursor;
                        assert_eq!(shown[usize::from(row)], "> c", "{what}");
                        assert_eq!(column, 3, "{what}");
                        // The whole hint: the message outranks the keys and the header.
                        assert!(shown.iter().any(|l| l.starts_with("Hint: c7")), "{what}");
                        assert!(
                            shown.iter().any(|l| l.ends_with("the machine would win.")),
                            "{what}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn without_colours_no_colour_code_is_written_and_marks_remain() {
        // M=4 after A7 (the machine), c7 (you), and the machine's answer.
        let game = game(4, View::Circuit, YouArg::Short, &["c7"]);
        let last = game.last_machine_move().unwrap().to_string();
        assert_eq!(last, "C5");
        for drops in [false, true] {
            let frame = frame(&scene(&game, "E1", drops, false), 80, 24);
            let out = painted(&frame);
            for code in COLOUR_CODES {
                assert!(!out.contains(code), "drops {drops}: {code:?} in {out:?}");
            }
            let shown = lines(&frame).join("\n");
            // The selection: reverse video and brackets; the machine's move: < >.
            assert!(out.contains("\x1b[7m"), "drops {drops}");
            let row = shown.lines().find(|l| l.starts_with('1')).unwrap();
            let (_, inside) = row.split_once('[').unwrap();
            let (inside, _) = inside.split_once(']').unwrap();
            let e1 = Edge::parse(Size::new(4).unwrap(), "E1").unwrap();
            let cell = if drops {
                game.heat().label(e1).unwrap()
            } else {
                "|".to_string()
            };
            assert_eq!(inside.trim(), cell, "drops {drops}:\n{shown}");
            let row = shown.lines().find(|l| l.starts_with('5')).unwrap();
            let (_, inside) = row.split_once('<').unwrap();
            let (inside, _) = inside.split_once('>').unwrap();
            assert_eq!(inside.trim(), "×", "drops {drops}:\n{shown}");
        }
        // The drops: percent, and the largest in bold underlined, named in the legend.
        let frame = frame(&scene(&game, "E1", true, false), 80, 24);
        let shown = lines(&frame).join("\n");
        assert!(
            shown.contains("Drops in % of the supply. Largest (bold, underlined):"),
            "{shown}"
        );
        let underlined: Vec<&Span> = frame
            .lines
            .iter()
            .flatten()
            .filter(|s| s.style.underline)
            .collect();
        assert!(!underlined.is_empty());
        let heat = game.heat();
        for span in underlined {
            let edge = span.edge.unwrap();
            assert!(heat.largest().contains(&edge), "{edge}");
            assert!(span.style.bold);
            assert_eq!(span.text.trim(), heat.label(edge).unwrap());
        }
    }

    #[test]
    fn colours_ink_wires_cuts_and_the_heat_steps() {
        let game = game(4, View::Circuit, YouArg::Short, &["c7"]);
        let board = painted(&frame(&scene(&game, "E1", false, true), 80, 24));
        let code = |c: Color| {
            let mut s = String::new();
            queue!(s_writer(&mut s), SetForegroundColor(c)).unwrap();
            s
        };
        assert!(
            board.contains(&format!("{}‖", code(SHORT_INK))),
            "{board:?}"
        );
        assert!(board.contains(&format!("{}×", code(CUT_INK))), "{board:?}");
        // The heat map: every resistor on its step, the largest alone on the top one.
        let frame = frame(&scene(&game, "E1", true, true), 80, 24);
        let heat = game.heat();
        let mut resistors = 0;
        for span in frame.lines.iter().flatten() {
            let Some(edge) = span.edge else { continue };
            let Some(level) = heat.level(edge) else {
                continue;
            };
            resistors += 1;
            assert_eq!(span.style.bg, Some(HEAT[level]), "{edge}");
            assert_eq!(
                level == heat::LEVELS - 1,
                heat.largest().contains(&edge),
                "{edge}"
            );
        }
        assert_eq!(resistors, game.position().resistors().count());
        let legend = lines(&frame)
            .into_iter()
            .find(|l| l.starts_with("Drop, % of supply:"))
            .unwrap();
        let top = heat.largest()[0];
        assert!(
            legend.ends_with(&format!(" {} largest: {top}", heat::percent(heat.max()))),
            "{legend}"
        );
    }

    /// A `fmt::Write` string as an `io::Write`, to read the codes crossterm writes.
    fn s_writer(s: &mut String) -> impl Write + '_ {
        struct W<'a>(&'a mut String);
        impl Write for W<'_> {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.push_str(std::str::from_utf8(buf).unwrap());
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        W(s)
    }

    #[test]
    fn the_status_keeps_the_end_of_a_long_record() {
        let mut game = game(8, View::Circuit, YouArg::Cut, &[]);
        // Cut plays the first resistor in reading order, the machine answers, until the
        // record is longer than the screen is wide.
        while game.record().len() <= 45 {
            let edge = game.position().resistors().next().unwrap();
            game.play_edge(edge).unwrap();
            game.reply().unwrap();
        }
        assert_eq!(game.position().to_move(), Some(Side::Cut));
        let record = game.record();
        assert!(record.len() > 40, "{record}");
        let frame = frame(&scene(&game, "A1", false, true), 40, 24);
        let shown = lines(&frame);
        let status = shown
            .iter()
            .find(|l| l.starts_with("Your move (Cut)."))
            .unwrap();
        assert!(status.chars().count() <= 40, "{status}");
        assert!(status.contains("Record: …"), "{status}");
        let tail = record.rsplit(',').next().unwrap();
        assert!(status.ends_with(&format!(",{tail}")), "{status}");
    }

    #[test]
    fn a_terminal_too_small_says_so() {
        let game = game(8, View::Circuit, YouArg::Short, &[]);
        let shown = lines(&frame(&scene(&game, "A1", false, true), 80, 12));
        assert_eq!(
            shown.join(" "),
            "The terminal is 80×12; this board needs 32×20. Enlarge it, or q to quit."
        );
    }

    #[test]
    fn the_graph_screen_fits_and_marks_the_selection() {
        let graph = switching::Graph::cage(Size::new(8).unwrap());
        let mut game = crate::cli::play::graph::GraphSession::new(
            "cage.txt",
            &graph,
            Side::Short,
            Opponent::Heuristic(Model::Ideal),
            Model::Ideal,
        );
        game.reply().unwrap();
        for colours in [false, true] {
            let scene = GraphScene {
                game: &game,
                selected: 60,
                drops: true,
                typed: "",
                message: "Machine: A15",
                colours,
            };
            let frame = graph_frame(&scene, 80, 24);
            let shown = lines(&frame);
            assert_eq!(shown.len(), 24);
            assert!(shown.iter().all(|l| l.chars().count() <= 80), "{shown:?}");
            assert!(
                shown.iter().any(|l| l.starts_with("  (edges ")),
                "{shown:?}"
            );
            let selected: Vec<&Span> = frame
                .lines
                .iter()
                .flatten()
                .filter(|s| s.style.reverse)
                .collect();
            assert_eq!(selected.len(), 1);
            let name = &graph.edges()[60].name;
            assert!(selected[0].text.starts_with(&format!("> {name} ")));
            let out = painted(&frame);
            for code in COLOUR_CODES {
                assert_eq!(out.contains(code), colours && code == COLOUR_CODES[0]);
            }
        }
    }
}
