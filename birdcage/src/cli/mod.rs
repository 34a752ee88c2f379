//! The `birdcage` subcommands, one file each, and the options they share.

pub mod analyze;
pub mod beat;
pub mod export;
pub mod next;
pub mod play;
pub mod solve;
pub mod study;

use anyhow::Result;
use clap::{Args, ValueEnum};
use emulator::physical::Board;
use emulator::reading::Reader;
use heuristic::{MAX_SIZE, MIN_SIZE, Model, Position, RecordError, Side, Size};

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
        .map_err(|_| format!("`{s}` is not a board size (expected {MIN_SIZE}..={MAX_SIZE})"))?;
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

/// A physical board in place of a network model.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Board profile (`arduino-mega`, `nucleo-f446re`) or a profile file (TOML): the network
    /// as that board builds it.
    #[arg(long, value_name = "PROFILE", conflicts_with = "network")]
    pub board: Option<String>,
    /// Draw the board's parts (and its ADC's static errors and noise) from this seed; without
    /// it, every part is nominal and the ADC is perfect.
    #[arg(long, value_name = "S", requires = "board")]
    pub tolerance_seed: Option<u64>,
}

impl BoardArgs {
    /// The board's profile, loaded and checked; `None` without `--board`.
    pub fn profile(&self) -> Result<Option<&'static boards::Profile>> {
        Ok(match &self.board {
            Some(spec) => Some(boards::file::load(spec)?),
            None => None,
        })
    }

    /// The board's electrical values; `None` without `--board`.
    pub fn board(&self) -> Result<Option<Board>> {
        Ok(self.profile()?.map(Board::from_profile))
    }
}

/// Who reads the position: a board (`--board`), or the model through an ideal ADC
/// (`--adc-bits` alone).
#[derive(Args, Debug, Clone)]
pub struct ReaderArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// ADC resolution in bits (6..=16): overrides the board's; with a network model, the
    /// model read by an ideal converter with Vref = supply.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u8).range(
            i64::from(*boards::ADC_BITS.start())..=i64::from(*boards::ADC_BITS.end())
        )
    )]
    pub adc_bits: Option<u8>,
}

impl ReaderArgs {
    /// The reader the options ask for, if any.
    pub fn reader(&self) -> Result<Option<Reader>> {
        Ok(match (self.board.board()?, self.adc_bits) {
            (Some(board), bits) => {
                let board = match bits {
                    Some(b) => board.with_adc_bits(b)?,
                    None => board,
                };
                Some(Reader::Board {
                    board: Box::new(board),
                    seed: self.board.tolerance_seed,
                })
            }
            (None, Some(bits)) => Some(Reader::IdealAdc { bits }),
            (None, None) => None,
        })
    }

    /// Replays the game and analyses it, read as these options ask.
    pub fn analyze(&self, game: &GameArgs) -> Result<emulator::analysis::Analysis> {
        let r = &game.record;
        let reader = self.reader()?;
        let model = self.model(game);
        Ok(emulator::analysis::analyze(
            r.size,
            r.first.into(),
            &r.moves,
            model,
            reader.as_ref(),
        )?)
    }

    /// The exact model the reading is compared with: `ideal` for a board.
    pub fn model(&self, game: &GameArgs) -> Model {
        if self.board.board.is_some() {
            Model::Ideal
        } else {
            game.network
        }
    }
}
