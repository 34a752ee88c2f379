//! `birdcage next`: the heuristic's move alone, for scripts.

use anyhow::{Result, bail};
use clap::Args;
use heuristic::Side;

use super::{GameArgs, ReaderArgs};

/// Print only the heuristic's move (Cut's) for the position: over exact drops, or over the
/// ADC codes a board reads (`--board`, `--adc-bits`).
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    reader: ReaderArgs,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let analysis = self.reader.analyze(&self.game)?;
        let position = analysis.voltages.position();
        // With a reader, the move the firmware makes from the codes.
        let choice = match analysis.board {
            Some(_) => analysis.firmware_choice,
            None => analysis.choice,
        };
        match (position.winner(), position.to_move(), choice) {
            (Some(winner), _, _) => bail!("the game is over: {winner} has won"),
            (None, Some(Side::Short), _) => bail!("it is Short's turn; the heuristic plays Cut"),
            (_, _, Some(choice)) => Ok(format!("{choice}\n")),
            _ => bail!("no resistor is left to cut"),
        }
    }
}
