//! Fitting a screen to the terminal, as a pure function of the terminal's size and what
//! the screen holds ([`Sheet`]), so that tests read what a person would see.
//!
//! The status line, the board and the prompt always show, or the screen says how large the
//! terminal must be. Every other part gives way whole, never cut mid-word: a line takes a
//! shorter form first (the key line down to `q quit`), text wraps at its blanks, and a part
//! with no room below the board goes beside it, or else is left out in order of
//! importance. The quit key is always on screen: with no row for the key line, it shares
//! the prompt's.

use heuristic::Side;

use super::{Frame, Line, Span};
use crate::cli::play::Front;

/// The narrowest screen drawn: the status line's shortest forms fit it.
pub(super) const MIN_WIDTH: usize = 20;
/// Blanks between the board and what goes beside it.
const GAP: usize = 3;
/// The narrowest column beside the board worth using.
const MIN_SIDE: usize = 16;
/// Between the legend's items.
const ITEM_GAP: &str = "   ";

/// Where a part goes, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Place {
    Header,
    Status,
    AboveBoard,
    Board,
    Legend,
    BelowLegend,
    Message,
    Keys,
}

/// What a part holds, laid out at a width.
#[derive(Debug)]
pub(super) enum Content {
    /// One line, in forms from the longest: the first that fits is drawn.
    Forms(Vec<Line>),
    /// Text wrapped at its blanks (a word wider than the screen goes on in the next line).
    Words(String),
    /// Words that, with no room for them all, show their first lines and `…` after the
    /// last whole word that fits (the message: the start of a hint names the move).
    Message(String),
    /// A legend's items, as many to a line as fit, [`ITEM_GAP`] apart.
    Items(Vec<Line>),
    /// An empty line, for spacing.
    Blank,
}

impl Content {
    /// The part's lines at `width`, or none if it cannot be shown whole there.
    fn at(&self, width: usize) -> Option<Vec<Line>> {
        match self {
            Content::Forms(forms) => forms
                .iter()
                .find(|l| chars(l) <= width)
                .map(|l| vec![l.clone()]),
            Content::Words(words) | Content::Message(words) => {
                let lines = wrap(words, width);
                (!lines.is_empty())
                    .then(|| lines.into_iter().map(|l| vec![Span::plain(l)]).collect())
            }
            Content::Items(items) => items_at(items, width),
            Content::Blank => Some(vec![Vec::new()]),
        }
    }
}

/// One part of a screen other than the status, the board and the prompt.
#[derive(Debug)]
pub(super) struct Panel {
    /// The lower, the more it matters: parts are kept in this order while there is room.
    pub(super) importance: u8,
    pub(super) place: Place,
    pub(super) content: Content,
}

/// Whose turn it is or who has won, with the record: the status line's parts.
#[derive(Debug)]
pub(super) struct Status {
    /// `Your move (Short).` or the result.
    turn: String,
    /// The same in a few words, for a narrow screen.
    short: String,
    record: String,
}

impl Status {
    pub(super) fn new(game: &impl Front, to_move: Option<Side>, you: Side) -> Status {
        let (turn, short) = match (game.outcome(), game.winner(), to_move) {
            (Some(outcome), Some(w), _) => (
                outcome,
                if w == you {
                    "You win."
                } else {
                    "The machine wins."
                }
                .to_string(),
            ),
            (_, _, Some(side)) if side == you => {
                (format!("Your move ({side})."), "Your move.".to_string())
            }
            _ => (
                "The machine's move.".to_string(),
                "The machine's move.".to_string(),
            ),
        };
        Status {
            turn,
            short,
            record: game.record(),
        }
    }

    /// The line at `width`: the record keeps its latest moves whole (`Record: …,C5,b4`),
    /// or gives way to the turn alone.
    fn at(&self, width: usize) -> String {
        let head = format!("{}   Record: ", self.turn);
        let whole = format!("{head}{}", self.record);
        if whole.chars().count() <= width {
            return whole;
        }
        let room = width.saturating_sub(head.chars().count() + 1);
        let moves: Vec<&str> = self.record.split(',').collect();
        let mut kept = 0;
        let mut used = 0;
        for mv in moves.iter().rev() {
            let more = mv.chars().count() + 1;
            if used + more > room {
                break;
            }
            used += more;
            kept += 1;
        }
        if kept > 0 {
            return format!("{head}…,{}", moves[moves.len() - kept..].join(","));
        }
        if self.turn.chars().count() <= width {
            return self.turn.clone();
        }
        self.short.chars().take(width).collect()
    }
}

/// What a screen holds, before it meets the terminal.
#[derive(Debug)]
pub(super) struct Sheet {
    pub(super) status: Status,
    /// The board (or a graph's window of edges): drawn whole or not at all.
    pub(super) board: Vec<Line>,
    /// What the person is typing.
    pub(super) typed: String,
    /// The key line's forms, longest first (the last is `q quit`).
    pub(super) keys: Vec<String>,
    pub(super) parts: Vec<Panel>,
}

/// The characters of a line.
fn chars(line: &Line) -> usize {
    line.iter().map(|s| s.text.chars().count()).sum()
}

/// Lays `sheet` out on a terminal `width` columns wide and `height` lines high.
pub(super) fn lay_out(sheet: Sheet, width: u16, height: u16) -> Frame {
    let (width, height) = (usize::from(width), usize::from(height));
    let board_width = sheet.board.iter().map(chars).max().unwrap_or(0);
    let need = (board_width.max(MIN_WIDTH), sheet.board.len() + 2);
    if width < need.0 || height < need.1 {
        return too_small((width, height), need);
    }
    let mut rows_left = height - need.1;
    let side_width = width.saturating_sub(board_width + GAP);
    let mut side_left = if side_width >= MIN_SIDE {
        sheet.board.len()
    } else {
        0
    };
    let mut parts = sheet.parts;
    parts.push(Panel {
        importance: 1,
        place: Place::Keys,
        content: Content::Forms(sheet.keys.iter().map(|k| vec![Span::plain(k)]).collect()),
    });
    parts.sort_by_key(|p| p.importance);
    // (place, order of importance, lines), below and beside the board.
    let mut rows: Vec<(Place, usize, Vec<Line>)> = Vec::new();
    let mut side: Vec<(Place, usize, Vec<Line>)> = Vec::new();
    let mut keys_placed = false;
    for (order, part) in parts.iter().enumerate() {
        if let Some(lines) = part.content.at(width).filter(|l| l.len() <= rows_left) {
            rows_left -= lines.len();
            rows.push((part.place, order, lines));
        } else if let Some(lines) = part
            .content
            .at(side_width)
            .filter(|l| l.len() <= side_left && !matches!(part.content, Content::Blank))
        {
            side_left -= lines.len();
            side.push((part.place, order, lines));
        } else if let Some((lines, beside)) =
            cut_short(&part.content, (width, rows_left), (side_width, side_left))
        {
            if beside {
                side_left -= lines.len();
                side.push((part.place, order, lines));
            } else {
                rows_left -= lines.len();
                rows.push((part.place, order, lines));
            }
        } else {
            continue;
        }
        keys_placed |= part.place == Place::Keys;
    }
    side.sort_by_key(|(place, order, _)| (*place, *order));
    let mut beside = side.into_iter().flat_map(|(_, _, lines)| lines);
    let board: Vec<Line> = sheet
        .board
        .into_iter()
        .map(|mut line| {
            if let Some(more) = beside.next() {
                let pad = board_width + GAP - chars(&line);
                line.push(Span::plain(" ".repeat(pad)));
                line.extend(more);
            }
            line
        })
        .collect();
    rows.push((
        Place::Status,
        0,
        vec![vec![Span::plain(sheet.status.at(width))]],
    ));
    rows.push((Place::Board, 0, board));
    rows.sort_by_key(|(place, order, _)| (*place, *order));
    let mut lines: Vec<Line> = rows.into_iter().flat_map(|(_, _, l)| l).collect();
    // The prompt, with the key line at its right when it has no row of its own.
    let keys = if keys_placed {
        None
    } else {
        sheet.keys.iter().find(|k| k.chars().count() + 4 <= width)
    };
    let room = width - 1 - 2 - keys.map_or(0, |k| k.chars().count() + 1);
    let typed: Vec<char> = sheet.typed.chars().collect();
    let shown: String = if typed.len() > room {
        let tail = &typed[typed.len() - room.saturating_sub(1)..];
        std::iter::once('…').chain(tail.iter().copied()).collect()
    } else {
        sheet.typed.clone()
    };
    let mut prompt = format!("> {shown}");
    let column = prompt.chars().count();
    if let Some(keys) = keys {
        let pad = width - column - keys.chars().count();
        prompt.push_str(&" ".repeat(pad));
        prompt.push_str(keys);
    }
    lines.push(vec![Span::plain(prompt)]);
    Frame {
        cursor: (column as u16, (lines.len() - 1) as u16),
        lines,
    }
}

/// A message with no room for all its lines: as many as fit below the board (`rows`, width
/// and lines) or beside it (`side`), whichever holds more, the last ending in `…` after a
/// whole word; whether it goes beside. None for other parts, or with no room at all.
fn cut_short(
    content: &Content,
    rows: (usize, usize),
    side: (usize, usize),
) -> Option<(Vec<Line>, bool)> {
    let Content::Message(text) = content else {
        return None;
    };
    let beside = side.0 >= MIN_SIDE && side.1 > rows.1;
    let (width, room) = if beside { side } else { rows };
    let mut lines = wrap(text, width);
    if room == 0 || lines.len() <= room {
        return None;
    }
    lines.truncate(room);
    let last = lines.last_mut()?;
    while !last.is_empty() && last.chars().count() + 2 > width {
        match last.rfind(' ') {
            Some(at) => last.truncate(at),
            None => last.clear(),
        }
    }
    if last.is_empty() {
        last.push('…');
    } else {
        last.push_str(" …");
    }
    Some((
        lines.into_iter().map(|l| vec![Span::plain(l)]).collect(),
        beside,
    ))
}

/// The screen of a terminal smaller than `need` (columns, lines): how large it must be and
/// how to quit, as far as it fits.
fn too_small((width, height): (usize, usize), (columns, rows): (usize, usize)) -> Frame {
    let forms = [
        format!(
            "The terminal is {width}×{height}; this board needs {columns}×{rows}. Enlarge it, \
             or q to quit."
        ),
        format!("Too small: needs {columns}×{rows}. q to quit."),
        "q quit".to_string(),
    ];
    let lines = forms
        .iter()
        .map(|f| wrap(f, width))
        .find(|l| l.len() <= height && l.iter().all(|l| l.chars().count() <= width))
        .unwrap_or_default();
    Frame {
        lines: lines.into_iter().map(|l| vec![Span::plain(l)]).collect(),
        cursor: (0, 0),
    }
}

/// A legend's items at `width`: as many to a line as fit; an item wider than the screen
/// wraps at its blanks. None on a screen too narrow for a word of it.
fn items_at(items: &[Line], width: usize) -> Option<Vec<Line>> {
    let mut lines: Vec<Line> = Vec::new();
    let mut line: Line = Vec::new();
    for item in items {
        let n = chars(item);
        if !line.is_empty() && chars(&line) + ITEM_GAP.len() + n <= width {
            line.push(Span::plain(ITEM_GAP));
            line.extend(item.iter().cloned());
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if n <= width {
            line = item.clone();
        } else {
            lines.extend(wrap_spans(item, width)?);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Some(lines)
}

/// A styled line wrapped at the blanks of its unstyled text (a styled span, a colour
/// swatch or a mark, is never split); None if a word is wider than `width`.
fn wrap_spans(line: &Line, width: usize) -> Option<Vec<Line>> {
    let mut words: Vec<Line> = Vec::new();
    let mut word: Line = Vec::new();
    for span in line {
        if span.style != Default::default() {
            word.push(span.clone());
            continue;
        }
        for (i, piece) in span.text.split(' ').enumerate() {
            if i > 0 && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            if !piece.is_empty() {
                word.push(Span::plain(piece));
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut lines: Vec<Line> = Vec::new();
    let mut line: Line = Vec::new();
    for word in words {
        let n = chars(&word);
        if n > width {
            return None;
        }
        if !line.is_empty() && chars(&line) + 1 + n > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(Span::plain(" "));
        }
        line.extend(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Some(lines)
}

/// Words of `text` in lines of at most `width` characters; a word wider than that goes on
/// in the next line, so nothing is lost.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let word: Vec<char> = word.chars().collect();
        let n = word.len();
        if !line.is_empty() && line.chars().count() + 1 + n > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        let mut chunks = word.chunks(width).peekable();
        while let Some(chunk) = chunks.next() {
            line.extend(chunk);
            if chunks.peek().is_some() {
                lines.push(std::mem::take(&mut line));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
