//! Drawing a screen on the terminal with crossterm's escape codes.

use std::io::Write;

use crossterm::cursor::{MoveTo, Show};
use crossterm::queue;
use crossterm::style::{Attribute, Print, SetAttribute, SetBackgroundColor, SetForegroundColor};
use crossterm::terminal::{Clear, ClearType};

use super::{Frame, Style};

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
