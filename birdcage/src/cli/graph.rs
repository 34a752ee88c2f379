//! `birdcage graph`: the bird cage written as a graph file, to edit or to play as a graph.

use anyhow::Result;
use clap::Args;
use heuristic::Size;
use switching::Graph;

use super::parse_size;

/// Print the bird cage of size M as a graph file.
///
/// Vertices `Q` (top terminal), `0` (bottom terminal), `A2`, …; edges named by their squares,
/// in reading order. The file reads back as the same graph, for `--graph FILE`.
#[derive(Args, Debug)]
pub struct Cmd {
    /// Board size M (2..=8).
    #[arg(long, short = 's', value_name = "M", value_parser = parse_size, allow_negative_numbers = true)]
    size: Size,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        Ok(Graph::cage(self.size).to_string())
    }
}
