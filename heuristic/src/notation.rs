//! A1 notation: edge names and moves, both ways.
//!
//! Syntax errors ("5A is not an edge name") are kept apart from geometry errors ("Z9 is
//! off the M=3 board") and from rule errors, which live in [`crate::MoveError`].

use crate::column::column_letter;
use crate::{Edge, Side, Size};

/// How much of a bad token an error keeps (enough for any sane name, bounded for no_std).
pub const TOKEN_CAPACITY: usize = 12;

/// The offending text, truncated to [`TOKEN_CAPACITY`] bytes.
pub type Token = heapless::String<TOKEN_CAPACITY>;

/// A name that is not an edge of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NotationError {
    /// Not of the form letter + row number.
    #[error("`{0}` is not an edge name (expected a column letter and a row number, like C3)")]
    Syntax(Token),
    /// Column or row beyond the board.
    #[error("{token} is off the {size} board (columns A..{last_column}, rows 1..{last_row})")]
    OffBoard {
        /// The name as given.
        token: Token,
        /// The board it was read against.
        size: Size,
        /// Last column letter.
        last_column: char,
        /// Last row number.
        last_row: u8,
    },
    /// A square where column + row is odd: a node or a gap, not an edge.
    #[error("{0} is not an edge (column and row must both be odd or both even)")]
    NotAnEdge(Token),
}

pub(crate) fn token(text: &str) -> Token {
    escaped(text).0
}

/// User input as an error may repeat it: control characters escaped (`\n`, `\u{0}`), so
/// that an error stays one line and prints no raw NUL or terminal escape, cut to `N` bytes
/// at a character or a whole escape. The flag says whether anything was cut. Every error
/// of the workspace that repeats user input in a fixed-size string uses this one helper
/// (heap strings use `{:?}` or [`str::escape_debug`]).
///
/// ```
/// let (t, cut) = heuristic::escaped::<12>("A\0\n1");
/// assert_eq!((t.as_str(), cut), ("A\\u{0}\\n1", false));
/// let (t, cut) = heuristic::escaped::<4>("ab\ncd");
/// assert_eq!((t.as_str(), cut), ("ab\\n", true));
/// ```
pub fn escaped<const N: usize>(text: &str) -> (heapless::String<N>, bool) {
    let mut out = heapless::String::new();
    for c in text.chars() {
        let pushed = if c.is_control() {
            // All of an escape or none of it, so that a cut never splits `\n`.
            let mut escape = c.escape_default();
            out.len() + escape.len() <= N && escape.all(|e| out.push(e).is_ok())
        } else {
            out.push(c).is_ok()
        };
        if !pushed {
            return (out, true);
        }
    }
    (out, false)
}

/// Splits `c5` into the side its case names and the (x, y) it names.
fn split(text: &str) -> Result<(Side, u8, u8), NotationError> {
    let syntax = || NotationError::Syntax(token(text));
    let mut chars = text.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_alphabetic)
        .ok_or_else(syntax)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax());
    }
    let y: u8 = digits.parse().map_err(|_| syntax())?;
    let x = letter.to_ascii_uppercase() as u8 - b'A' + 1;
    let side = if letter.is_ascii_uppercase() {
        Side::Cut
    } else {
        Side::Short
    };
    Ok((side, x, y))
}

fn edge_at(size: Size, text: &str, x: u8, y: u8) -> Result<Edge, NotationError> {
    let span = size.span();
    if x > span || y == 0 || y > span {
        return Err(NotationError::OffBoard {
            token: token(text),
            size,
            last_column: column_letter(span),
            last_row: span,
        });
    }
    Edge::new(size, x, y).ok_or_else(|| NotationError::NotAnEdge(token(text)))
}

impl Edge {
    /// Reads an edge name in either case.
    ///
    /// ```
    /// use heuristic::{Edge, Size};
    /// let m3 = Size::new(3).unwrap();
    /// assert_eq!(Edge::parse(m3, "c3").unwrap().to_string(), "C3");
    /// assert_eq!(
    ///     Edge::parse(m3, "Z9").unwrap_err().to_string(),
    ///     "Z9 is off the M=3 board (columns A..E, rows 1..5)"
    /// );
    /// ```
    pub fn parse(size: Size, text: &str) -> Result<Edge, NotationError> {
        let (_, x, y) = split(text.trim())?;
        edge_at(size, text.trim(), x, y)
    }
}

/// One move: a side and the edge it plays.
///
/// Written with Cut's moves in upper case and Short's in lower case: `A5` cuts A5,
/// `c5` shorts C5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Move {
    /// Who plays it.
    pub side: Side,
    /// The edge played.
    pub edge: Edge,
}

impl Move {
    /// Reads a move; the case of the letter names the side.
    ///
    /// ```
    /// use heuristic::{Move, Side, Size};
    /// let m3 = Size::new(3).unwrap();
    /// let mv = Move::parse(m3, "c5").unwrap();
    /// assert_eq!(mv.side, Side::Short);
    /// assert_eq!(mv.to_string(), "c5");
    /// ```
    pub fn parse(size: Size, text: &str) -> Result<Move, NotationError> {
        let text = text.trim();
        let (side, x, y) = split(text)?;
        Ok(Move {
            side,
            edge: edge_at(size, text, x, y)?,
        })
    }
}

impl core::fmt::Display for Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let letter = column_letter(self.edge.x());
        let letter = match self.side {
            Side::Cut => letter,
            Side::Short => letter.to_ascii_lowercase(),
        };
        write!(f, "{}{}", letter, self.edge.y())
    }
}
