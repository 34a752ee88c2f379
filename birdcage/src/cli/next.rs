//! `birdcage next`: the heuristic's move alone, for scripts.

use anyhow::{Result, bail};
use clap::Args;
use heuristic::{Move, Side};

use super::{GameArgs, ReaderArgs};

/// Print only the heuristic's move for the side to move: Cut cuts the resistor with the
/// largest drop (Shannon's machine), Short shorts it (Bridj-It 2.0's machine), printed as
/// the record writes it (Short's in lower case). Over exact drops, or, for Cut, over the ADC
/// codes a board reads (`--board`, `--adc-bits`).
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
            (None, Some(Side::Short), _) if analysis.board.is_some() => bail!(
                "it is Short's turn; the firmware reads the board for Cut (drop --board and \
                 --adc-bits for Short's move over exact drops)"
            ),
            (None, Some(Side::Short), _) => {
                let model = self.reader.model(&self.game);
                match emulator::players::heuristic_move(position, model) {
                    Some(edge) => Ok(format!(
                        "{}\n",
                        Move {
                            side: Side::Short,
                            edge
                        }
                    )),
                    None => bail!("no resistor is left to short"),
                }
            }
            (_, _, Some(choice)) => Ok(format!("{choice}\n")),
            _ => bail!("no resistor is left to cut"),
        }
    }
}
