//! The `birdcage` subcommands, one file each, and the options they share.

pub mod analyze;
pub mod beat;
pub mod next;
pub mod play;
pub mod solve;

use clap::{Args, ValueEnum};
use heuristic::{Model, Position, RecordError, Side, Size};

/// How the text of a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: the board drawn as the original program drew it.
    Text,
    /// For programs: one JSON document.
    Json,
}

/// Who opens the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// Cut moves first (Shannon's machine).
    Cut,
    /// Short moves first.
    Short,
}

impl From<First> for Side {
    fn from(f: First) -> Side {
        match f {
            First::Cut => Side::Cut,
            First::Short => Side::Short,
        }
    }
}

pub(crate) fn parse_size(s: &str) -> Result<Size, String> {
    let m: u32 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a board size (expected 2..=8)"))?;
    Size::new(m).map_err(|e| e.to_string())
}

pub(crate) fn parse_model(s: &str) -> Result<Model, String> {
    s.parse().map_err(|e: heuristic::ModelError| e.to_string())
}

/// A position: board size, the moves that reach it, and who opened.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// Board size M (2..=8).
    #[arg(long, short = 's', value_name = "M", value_parser = parse_size)]
    pub size: Size,
    /// Game record, e.g. `A5,c5,C3` (Cut upper case, Short lower case); empty = start.
    #[arg(
        long,
        short = 'm',
        value_name = "LIST",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub moves: String,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::Cut)]
    pub first: First,
}

impl RecordArgs {
    /// Replays the record; errors name the move and what is wrong with it.
    pub fn position(&self) -> Result<Position, RecordError> {
        Position::from_record(self.size, self.first.into(), &self.moves)
    }
}

/// A position and the network model it is measured on.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[command(flatten)]
    pub record: RecordArgs,
    /// Network model: ideal or reference.
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = parse_model)]
    pub network: Model,
}
