//! `birdcage solve`: who wins with perfect play, and every winning move, on the cage or on
//! any graph.

use anyhow::Result;
use clap::Args;
use heuristic::{Move, Position, Side, Size};
use serde::Serialize;
use switching::Graph;
use switching::perfect::Verdict;

use super::progress::Progress;
use super::{BoardRecordArgs, Format, LoadedBoard, graph_text};

/// Solve a position: the winner with perfect play and all winning moves of the side to move.
///
/// On the cage (`--size`), or on a graph file (`--graph`) with edge names in place of squares.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    record: BoardRecordArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The JSON document; the field order is the key order.
#[derive(Serialize)]
struct Report {
    to_move: Option<&'static str>,
    winner: Option<&'static str>,
    perfect_winner: &'static str,
    /// On the cage in move notation (upper case for Cut, lower case for Short); on a graph,
    /// edge names as the file writes them.
    winning_moves: Vec<String>,
}

impl Report {
    fn new<M>(verdict: &Verdict<M>, moves: Vec<String>) -> Report {
        Report {
            to_move: verdict.to_move.map(Side::name),
            winner: verdict.winner.map(Side::name),
            perfect_winner: verdict.perfect_winner.name(),
            winning_moves: moves,
        }
    }
}

/// The verdict in words, after the board.
fn verdict_text<M>(verdict: &Verdict<M>, moves: &[String]) -> String {
    match (verdict.winner, verdict.to_move) {
        (Some(w), _) => format!("{w} has won.\n"),
        (None, Some(side)) => {
            let mut out = format!(
                "{side} to move; with perfect play {} wins.\n",
                verdict.perfect_winner
            );
            if moves.is_empty() {
                out.push_str(&format!("{side} has no winning move.\n"));
            } else {
                out.push_str(&format!("Winning moves: {}\n", moves.join(" ")));
            }
            out
        }
        (None, None) => String::new(),
    }
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        match self.record.board.load()? {
            LoadedBoard::Cage(size) => self.cage(size),
            LoadedBoard::Graph { path, graph } => {
                super::check_perfect(&path, &graph)?;
                self.graph(&path.display().to_string(), &graph)
            }
        }
    }

    fn cage(&self, size: Size) -> Result<String> {
        let r = &self.record;
        let position = Position::from_record(size, r.first.into(), &r.moves)?;
        let verdict = switching::perfect::solve(&position);
        let moves: Vec<String> = verdict
            .to_move
            .map(|side| {
                let mv = |&edge| Move { side, edge }.to_string();
                verdict.winning_moves.iter().map(mv).collect()
            })
            .unwrap_or_default();
        Ok(match self.format {
            Format::Json => serde_json::to_string_pretty(&Report::new(&verdict, moves))? + "\n",
            Format::Text => {
                let mut out = format!("{}, moves: {}\n\n", size, r.record_text());
                out.push_str(&emulator::diagram::board(&position));
                out.push('\n');
                out.push_str(&verdict_text(&verdict, &moves));
                out
            }
        })
    }

    fn graph(&self, path: &str, graph: &Graph) -> Result<String> {
        let play = self.record.play(graph)?;
        // Lehman's theorem on a large graph takes seconds.
        let progress = Progress::spinner(format!(
            "solve {path} ({} edges): perfect play",
            graph.edges().len()
        ));
        let verdict = switching::perfect::solve(&play);
        progress.finish(&format!("{} wins", verdict.perfect_winner));
        let moves: Vec<String> = verdict
            .winning_moves
            .iter()
            .map(|&e| graph.edges()[e].name.clone())
            .collect();
        Ok(match self.format {
            Format::Json => serde_json::to_string_pretty(&Report::new(&verdict, moves))? + "\n",
            Format::Text => {
                let mut out = format!(
                    "{path} ({} edges), moves: {}\n\n",
                    graph.edges().len(),
                    self.record.record_text()
                );
                out.push_str(&graph_text(&play));
                out.push('\n');
                out.push_str(&verdict_text(&verdict, &moves));
                out
            }
        })
    }
}
