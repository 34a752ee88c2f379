//! `birdcage graph`: the bird cage written as a graph file, to edit or to play as a graph.

use anyhow::Result;
use clap::Args;
use heuristic::Size;
use switching::Graph;

use super::parse_size;

/// Print the bird cage of size M in the graph file format (vertices `Q`, `0`, `A2`, …;
/// edges named as squares, in reading order).
#[derive(Args, Debug)]
pub struct Cmd {
    /// Board size M (2..=8).
    #[arg(long, short = 's', value_name = "M", value_parser = parse_size)]
    size: Size,
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        Ok(Graph::cage(self.size).to_string())
    }
}
