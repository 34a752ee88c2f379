//! Game records (`A5,c5,C3,a1`) both ways: the one reader and writer of the notation that
//! the CLI, the studies and the bench print and take.
//!
//! Reading a record's text ([`str::parse`]) only checks its notation; whether the moves are
//! legal on a board is the business of [`Record::replay`], so syntax errors
//! ([`ParseRecordError`]) stay apart from rule errors ([`RecordError`]).

use core::fmt::Write as _;

use crate::notation::token;
use crate::{Edge, MAX_EDGES, Move, MoveError, NotationError, PlayError, Position, Side, Size};

/// A game as it was played: who opened and the moves in order.
///
/// Unchecked data, as a record typed by hand is: [`Record::replay`] turns it into a
/// [`Position`] or says which move is wrong. Holds up to [`MAX_EDGES`] moves, more than any
/// game on any supported board lasts.
///
/// ```
/// use heuristic::{Record, Side, Size};
/// let record: Record = "A5,c5,C3".parse().unwrap();
/// assert_eq!((record.first(), record.len()), (Side::Cut, 3));
/// assert_eq!(record.to_string(), "A5,c5,C3");
/// let p = record.replay(Size::M3).unwrap();
/// assert_eq!(p.to_move(), Some(Side::Short));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Record {
    first: Side,
    moves: heapless::Vec<Move, MAX_EDGES>,
}

/// A record's text that is not a list of moves, with the 1-based number of the bad move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ParseRecordError {
    /// The move's text does not name an edge of any supported board.
    #[error("move {number}: {error}")]
    Notation {
        /// 1-based index of the move.
        number: usize,
        /// What is wrong with its text.
        error: NotationError,
    },
    /// More moves than the largest board has edges.
    #[error(
        "move {number}: a record holds at most {MAX_EDGES} moves (every edge of the largest board)"
    )]
    TooLong {
        /// 1-based index of the first move past the capacity.
        number: usize,
    },
}

/// A move pushed on a record that already holds [`MAX_EDGES`] moves, which no legal game
/// reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("a record holds at most {MAX_EDGES} moves (every edge of the largest board)")]
pub struct RecordFull;

/// A game record that does not replay, with the 1-based number of the bad move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("move {number}: {error}")]
pub struct RecordError {
    /// 1-based index of the move in the record.
    pub number: usize,
    /// What is wrong with it: its edge is not on this board, or the rules refuse it.
    pub error: PlayError,
}

/// The tokens of a record's text: commas between moves; blank text has none.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    (!text.trim().is_empty())
        .then(|| text.split(','))
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, t)| (i + 1, t))
}

impl Record {
    /// No moves yet, `first` to open.
    pub const fn new(first: Side) -> Record {
        Record {
            first,
            moves: heapless::Vec::new(),
        }
    }

    /// The moves of a game in order, `first` having opened.
    pub fn from_moves(first: Side, moves: &[Move]) -> Result<Record, RecordFull> {
        let mut record = Record::new(first);
        for &mv in moves {
            record.push(mv)?;
        }
        Ok(record)
    }

    /// Reads `text` as a game on a board of `size` opened by `first`, move by move, so that
    /// the error is the first bad move's: its name read against this board (`z9 is off the
    /// M=3 board`) or the rules. The record returned replays.
    ///
    /// ```
    /// use heuristic::{Record, Side, Size};
    /// let r = Record::read(Size::M3, Side::Short, "c5,A5").unwrap();
    /// assert_eq!(r.first(), Side::Short);
    /// let err = Record::read(Size::M3, Side::Cut, "A5,a5").unwrap_err();
    /// assert_eq!(err.to_string(), "move 2: a5 was already cut");
    /// ```
    pub fn read(size: Size, first: Side, text: &str) -> Result<Record, RecordError> {
        Ok(Record::play_text(size, first, text)?.0)
    }

    /// [`Record::read`] and the position it reaches.
    pub(crate) fn play_text(
        size: Size,
        first: Side,
        text: &str,
    ) -> Result<(Record, Position), RecordError> {
        let mut record = Record::new(first);
        let mut position = Position::new(size, first);
        for (number, token) in tokens(text) {
            let error = |error: PlayError| RecordError { number, error };
            let mv = Move::parse(size, token).map_err(|e| error(e.into()))?;
            position.play(mv).map_err(|e| error(e.into()))?;
            // A legal game plays each edge at most once: never more than MAX_EDGES moves.
            let _ = record.moves.push(mv);
        }
        Ok((record, position))
    }

    /// Who opened the game.
    pub fn first(&self) -> Side {
        self.first
    }

    /// The moves in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Appends a move, unchecked (see [`Record::replay`]).
    pub fn push(&mut self, mv: Move) -> Result<(), RecordFull> {
        self.moves.push(mv).map_err(|_| RecordFull)
    }

    /// Drops every move after the first `len`.
    pub fn truncate(&mut self, len: usize) {
        self.moves.truncate(len);
    }

    /// Plays the record from the start position of `size`: the position it reaches, or the
    /// first move whose edge is not on this board or that the rules refuse.
    ///
    /// ```
    /// use heuristic::{Record, Size};
    /// let record: Record = "A5,g1".parse().unwrap(); // G1 is an edge from M=4 on
    /// assert!(record.replay(Size::M4).is_ok());
    /// assert_eq!(
    ///     record.replay(Size::M3).unwrap_err().to_string(),
    ///     "move 2: g1 is off the M=3 board (columns A..E, rows 1..5)"
    /// );
    /// ```
    pub fn replay(&self, size: Size) -> Result<Position, RecordError> {
        let mut position = Position::new(size, self.first);
        for (i, &mv) in self.moves.iter().enumerate() {
            let error = |error: PlayError| RecordError {
                number: i + 1,
                error,
            };
            let on_board = Edge::new(size, mv.edge.x(), mv.edge.y())
                .ok_or_else(|| error(off_board(size, mv).into()))?;
            position
                .play(Move {
                    side: mv.side,
                    edge: on_board,
                })
                .map_err(|e: MoveError| error(e.into()))?;
        }
        Ok(position)
    }
}

/// The error a move's text gets when its edge is beyond `size`.
fn off_board(size: Size, mv: Move) -> NotationError {
    let mut text = heapless::String::<8>::new();
    // A move's text is a letter and at most two digits: it fits.
    let _ = write!(text, "{mv}");
    NotationError::OffBoard {
        token: token(&text),
        size,
        last_column: crate::column_letter(size.span()),
        last_row: size.span(),
    }
}

/// Reads the notation only, each edge against the largest board; whether the moves are legal
/// on a given board is [`Record::replay`]'s business. The text does not say who opened a game
/// with no moves: that reads as Cut's, the notation's default.
impl core::str::FromStr for Record {
    type Err = ParseRecordError;

    fn from_str(text: &str) -> Result<Record, ParseRecordError> {
        let mut record = Record::new(Side::Cut);
        for (number, token) in tokens(text) {
            let mv = Move::parse(Size::MAX, token)
                .map_err(|error| ParseRecordError::Notation { number, error })?;
            if number == 1 {
                record.first = mv.side;
            }
            record
                .moves
                .push(mv)
                .map_err(|_| ParseRecordError::TooLong { number })?;
        }
        Ok(record)
    }
}

/// The moves joined by commas, Cut's upper case and Short's lower case; nothing for no moves.
impl core::fmt::Display for Record {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for (i, mv) in self.moves.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}

/// A position from its record: here, beside the record, which plays positions (a position
/// knows no record).
impl Position {
    /// Replays a game record such as `A5,c5,C3` (Cut upper case, Short lower case;
    /// commas between moves; an empty record is the start position).
    ///
    /// ```
    /// use heuristic::{Position, Side, Size};
    /// let m3 = Size::new(3).unwrap();
    /// let p = Position::from_record(m3, Side::Cut, "A5,c5").unwrap();
    /// assert_eq!(p.to_move(), Some(Side::Cut));
    /// let err = Position::from_record(m3, Side::Cut, "A5,a5").unwrap_err();
    /// assert_eq!(err.to_string(), "move 2: a5 was already cut");
    /// ```
    pub fn from_record(size: Size, first: Side, record: &str) -> Result<Position, RecordError> {
        Ok(Record::play_text(size, first, record)?.1)
    }
}
