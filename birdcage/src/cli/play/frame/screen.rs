//! The screen as data: styled spans of text in lines, and where the cursor goes.

use crossterm::style::Color;
use heuristic::Edge;

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
    pub(crate) edge: Option<Edge>,
}

impl Span {
    pub(super) fn plain(text: impl Into<String>) -> Span {
        Span {
            text: text.into(),
            style: Style::default(),
            edge: None,
        }
    }

    pub(super) fn styled(text: impl Into<String>, style: Style) -> Span {
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

/// A screen: its lines from the top, and where the terminal cursor goes (the prompt).
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub(crate) lines: Vec<Line>,
    pub(crate) cursor: (u16, u16),
}
