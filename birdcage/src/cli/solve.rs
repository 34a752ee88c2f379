//! `birdcage solve`: who wins with perfect play, and every winning move.

use anyhow::Result;
use clap::Args;
use heuristic::{Move, Side};
use serde::Serialize;

use super::{Format, RecordArgs};

/// Solve a position: the winner with perfect play and all winning moves of the side to move.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    record: RecordArgs,
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
    /// In move notation: upper case for Cut, lower case for Short.
    winning_moves: Vec<String>,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let position = self.record.position()?;
        let verdict = switching::perfect::solve(&position);
        let moves: Vec<String> = verdict
            .to_move
            .map(|side| {
                let mv = |&edge| Move { side, edge }.to_string();
                verdict.winning_moves.iter().map(mv).collect()
            })
            .unwrap_or_default();
        Ok(match self.format {
            Format::Json => {
                let report = Report {
                    to_move: verdict.to_move.map(Side::name),
                    winner: verdict.winner.map(Side::name),
                    perfect_winner: verdict.perfect_winner.name(),
                    winning_moves: moves,
                };
                serde_json::to_string_pretty(&report)? + "\n"
            }
            Format::Text => {
                let record = if self.record.moves.trim().is_empty() {
                    "(start)"
                } else {
                    self.record.moves.trim()
                };
                let mut out = format!("{}, moves: {record}\n\n", position.size());
                out.push_str(&emulator::diagram::board(&position));
                out.push('\n');
                match (verdict.winner, verdict.to_move) {
                    (Some(w), _) => out.push_str(&format!("{w} has won.\n")),
                    (None, Some(side)) => {
                        out.push_str(&format!(
                            "{side} to move; with perfect play {} wins.\n",
                            verdict.perfect_winner
                        ));
                        if moves.is_empty() {
                            out.push_str(&format!("{side} has no winning move.\n"));
                        } else {
                            out.push_str(&format!("Winning moves: {}\n", moves.join(" ")));
                        }
                    }
                    (None, None) => {}
                }
                out
            }
        })
    }
}
