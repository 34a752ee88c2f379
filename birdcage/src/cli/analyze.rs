//! `birdcage analyze`: every drop of a position, exactly, and the heuristic's choice.

use anyhow::Result;
use clap::Args;

use super::{Format, GameArgs, ReaderArgs};

/// Show the board, every resistor's exact drop and the heuristic's choice.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    reader: ReaderArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let analysis = self.reader.analyze(&self.game)?;
        Ok(match self.format {
            Format::Text => analysis.to_text(),
            Format::Json => serde_json::to_string_pretty(&analysis)? + "\n",
        })
    }
}
