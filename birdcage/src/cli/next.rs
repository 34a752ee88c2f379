//! `birdcage next`: the heuristic's move alone, for scripts.

use anyhow::{Result, bail};
use clap::Args;
use heuristic::{Model, Move, Side, Size};

use super::analyze::{cage_game, no_reader_on_a_graph};
use super::progress::Progress;
use super::{
    BoardRecordArgs, LoadedBoard, ReaderArgs, check_network, graph_heuristic_move, parse_model,
};

/// Print only the heuristic's move for the side to move (Cut's or Short's).
///
/// Cut cuts the resistor with the largest drop (Shannon's machine), Short shorts it
/// (Bridj-It 2.0's machine). On the cage
/// the move is printed as the record writes it (Short's in lower case), over exact drops
/// or, for Cut, over the ADC codes a board reads (`--board`, `--adc-bits`); on a graph file
/// (`--graph`), as the file names the edge, ties to the first in file order.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    record: BoardRecordArgs,
    /// Network model: ideal or reference.
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = parse_model)]
    network: Model,
    #[command(flatten)]
    reader: ReaderArgs,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        match self.record.board.load()? {
            LoadedBoard::Cage(size) => self.cage(size),
            LoadedBoard::Graph { graph, path } => {
                no_reader_on_a_graph(&self.reader)?;
                let play = self.record.play(&graph)?;
                if let Some(winner) = play.winner() {
                    bail!("the game is over: {winner} has won");
                }
                check_network(&path, &play, self.network, false)?;
                // Every drop of a large graph takes seconds.
                let progress = Progress::spinner(format!(
                    "next {} ({} edges): the largest drop",
                    path.display(),
                    graph.edges().len()
                ));
                let choice = graph_heuristic_move(&play, self.network);
                progress.finish("done");
                match choice? {
                    Some(edge) => Ok(format!("{}\n", graph.edges()[edge].name)),
                    None => bail!("no resistor is left to play"),
                }
            }
        }
    }

    fn cage(&self, size: Size) -> Result<String> {
        let game = cage_game(&self.record, size, self.network);
        let analysis = self.reader.analyze(&game)?;
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
            // Cut cuts the largest drop; Short (Bridj-It 2.0's machine) shorts it.
            (None, Some(side), Some(edge)) => Ok(format!("{}\n", Move { side, edge })),
            _ => bail!("no resistor is left to play"),
        }
    }
}
