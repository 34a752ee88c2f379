//! `birdcage next`: the heuristic's move alone, for scripts.

use anyhow::{Result, bail};
use clap::Args;
use heuristic::Side;

use super::GameArgs;

/// Print only the heuristic's move (Cut's) for the position.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    game: GameArgs,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let g = &self.game;
        let r = &g.record;
        let analysis = emulator::analysis::analyze(r.size, r.first.into(), &r.moves, g.network)?;
        let position = analysis.voltages.position();
        match (position.winner(), position.to_move(), analysis.choice) {
            (Some(winner), _, _) => bail!("the game is over: {winner} has won"),
            (None, Some(Side::Short), _) => bail!("it is Short's turn; the heuristic plays Cut"),
            (_, _, Some(choice)) => Ok(choice + "\n"),
            _ => bail!("no resistor is left to cut"),
        }
    }
}
