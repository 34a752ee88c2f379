//! `birdcage analyze`: every drop of a position, exactly, and the heuristic's choice, on the
//! cage or on a graph file.

use anyhow::{Result, bail};
use clap::Args;
use emulator::share;
use heuristic::{EdgeState, Model, Side};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde::Serialize;
use switching::{Graph, Play};

use super::progress::Progress;
use super::{
    BoardRecordArgs, Format, GameArgs, LoadedBoard, ReaderArgs, RecordArgs, graph_lines,
    parse_model,
};

/// Show the board, every resistor's exact drop and the heuristic's choice.
///
/// On the cage (`--size`), or on a graph file (`--graph`) with edge names in place of squares.
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(flatten)]
    record: BoardRecordArgs,
    /// Network model: ideal or reference.
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = parse_model)]
    network: Model,
    #[command(flatten)]
    reader: ReaderArgs,
    /// Print drops exactly (integers over their common denominator on the cage, fractions on
    /// a graph) instead of as a share of the supply. The JSON is always exact.
    #[arg(long)]
    exact: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The position as the cage's options describe it, with `size`.
pub(crate) fn cage_game(
    record: &BoardRecordArgs,
    size: heuristic::Size,
    network: Model,
) -> GameArgs {
    GameArgs {
        record: RecordArgs {
            size,
            moves: record.moves.clone(),
            first: record.first,
        },
        network,
    }
}

/// A graph has no board to read it: `--board` and `--adc-bits` are the cage's.
pub(crate) fn no_reader_on_a_graph(reader: &ReaderArgs) -> Result<()> {
    if reader.board.board.is_some() || reader.adc_bits.is_some() {
        bail!(
            "--board and --adc-bits read the cage a board wires; a graph file has exact drops only"
        );
    }
    Ok(())
}

/// A game on a graph as [`graph_lines`] draws it, each resistor's drop after it as a share
/// of the supply (digits enough to rank the largest).
pub(crate) fn graph_lines_with_drops(
    play: &Play,
    model: Model,
    marker: impl Fn(usize) -> &'static str,
) -> Vec<String> {
    graph_lines_in(play, model, marker, false)
}

/// [`graph_lines_with_drops`], the drops exact fractions of the supply when `exact`.
fn graph_lines_in(
    play: &Play,
    model: Model,
    marker: impl Fn(usize) -> &'static str,
    exact: bool,
) -> Vec<String> {
    let voltages = match emulator::graphs::try_solve(play, model) {
        Ok(voltages) => voltages,
        Err(e) => {
            // `play` on a graph past the exact solver: the board without its drops.
            let mut lines = graph_lines(play, marker);
            lines.push(format!("(no drops: {e})"));
            return lines;
        }
    };
    let drops: Vec<Option<BigRational>> = (0..play.graph().edges().len())
        .map(|e| {
            (play.states()[e] == EdgeState::Resistor)
                .then(|| voltages.drop(e))
                .flatten()
        })
        .collect();
    let digits = share::digits_to_rank(drops.iter().flatten());
    let mut lines = graph_lines(play, marker);
    let width = lines[1..]
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    for (drop, line) in drops.iter().zip(&mut lines[1..]) {
        if let Some(drop) = drop {
            let text = if exact {
                drop.to_string()
            } else {
                format!("{} %", share::percent(drop, digits))
            };
            *line = format!("{line:<width$}  drop {text}");
        }
    }
    lines
}

/// The ranking of a graph's drops in words (largest, ties, runner-up).
fn graph_ranking(play: &Play, model: Model) -> String {
    let voltages = emulator::graphs::solve(play, model);
    let graph = play.graph();
    let drops: Vec<(&str, BigRational)> = (0..graph.edges().len())
        .filter(|&e| play.states()[e] == EdgeState::Resistor)
        .filter_map(|e| {
            voltages
                .drop(e)
                .map(|d| (graph.edges()[e].name.as_str(), d))
        })
        .collect();
    let digits = share::digits_to_rank(drops.iter().map(|(_, d)| d));
    share::ranking(&drops, digits)
}

/// One edge of a graph's report: the same keys as an edge of the cage's.
#[derive(Serialize)]
struct GraphEdgeReport {
    edge: String,
    state: &'static str,
    drop: Option<String>,
    drop_f64: Option<f64>,
}

/// `analyze --graph --format json`: the cage's keys, edge names in place of squares and
/// `size` null (a graph has no M).
#[derive(Serialize)]
struct GraphAnalysis {
    #[serde(skip)]
    model: Model,
    size: Option<u8>,
    network: &'static str,
    moves: Vec<String>,
    to_move: Option<&'static str>,
    winner: Option<&'static str>,
    edges: Vec<GraphEdgeReport>,
    /// The heuristic's move, only when it is Cut's turn (as on the cage).
    choice: Option<String>,
    /// Every resistor whose drop equals the largest, in file order.
    tied: Vec<String>,
}

impl GraphAnalysis {
    fn new(play: &Play, model: Model) -> GraphAnalysis {
        let graph = play.graph();
        let name = |e: usize| graph.edges()[e].name.clone();
        let voltages = emulator::graphs::solve(play, model);
        let edges = graph
            .edges()
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let drop: Option<BigRational> = voltages.drop(i);
                GraphEdgeReport {
                    edge: e.name.clone(),
                    state: play.states()[i].name(),
                    drop: drop.as_ref().map(ToString::to_string),
                    drop_f64: drop.as_ref().and_then(ToPrimitive::to_f64),
                }
            })
            .collect();
        let tied = emulator::graphs::heuristic_moves(play, model);
        // The machine's move for whichever side is to move: Cut cuts it, Short (Bridj-It
        // 2.0's machine) shorts it.
        let choice = play.to_move().and(tied.first().map(|&e| name(e)));
        GraphAnalysis {
            model,
            size: None,
            network: model.name(),
            moves: play.moves().iter().map(|&e| name(e)).collect(),
            to_move: play.to_move().map(Side::name),
            winner: play.winner().map(Side::name),
            edges,
            choice,
            tied: tied.into_iter().map(name).collect(),
        }
    }

    fn to_text(&self, path: &str, play: &Play, exact: bool) -> String {
        let record = if self.moves.is_empty() {
            "(start)".to_string()
        } else {
            self.moves.join(",")
        };
        let mut out = format!(
            "{path} ({} edges) {} network, moves: {record}\n\n",
            self.edges.len(),
            self.network
        );
        for line in graph_lines_in(play, self.model, |_| "  ", exact) {
            out.push_str(&line);
            out.push('\n');
        }
        out.push('\n');
        if !exact && play.winner().is_none() {
            out.push_str(&graph_ranking(play, self.model));
            out.push('\n');
        }
        let tied = self.tied.join(" ");
        match (play.winner(), play.to_move(), &self.choice) {
            (Some(w), _, _) => out.push_str(&format!("{w} has won.\n")),
            (None, Some(side), Some(choice)) => {
                let label = match side {
                    Side::Cut => "Cut's move (largest drop)",
                    Side::Short => "Short's move (short the largest drop)",
                };
                out.push_str(&format!("{label}: {choice}"));
                if self.tied.len() > 1 {
                    out.push_str(&format!(" (tied: {tied})"));
                }
                out.push('\n');
            }
            _ => out.push_str("No resistor carries current.\n"),
        }
        out
    }
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        match self.record.board.load()? {
            LoadedBoard::Cage(size) => {
                let game = cage_game(&self.record, size, self.network);
                let analysis = self.reader.analyze(&game)?;
                Ok(match self.format {
                    Format::Text if self.exact => analysis.to_text_exact(),
                    Format::Text => analysis.to_text(),
                    Format::Json => serde_json::to_string_pretty(&analysis)? + "\n",
                })
            }
            LoadedBoard::Graph { path, graph } => {
                no_reader_on_a_graph(&self.reader)?;
                let play = self.record.play(&graph)?;
                super::check_network(&path, &play, self.network, true)?;
                self.graph(&path.display().to_string(), &graph)
            }
        }
    }

    fn graph(&self, path: &str, graph: &Graph) -> Result<String> {
        let play = self.record.play(graph)?;
        // Exact drops on a large graph take seconds.
        let progress = Progress::spinner(format!(
            "analyze {path} ({} edges): exact drops",
            graph.edges().len()
        ));
        let analysis = GraphAnalysis::new(&play, self.network);
        progress.finish("done");
        Ok(match self.format {
            Format::Text => analysis.to_text(path, &play, self.exact),
            Format::Json => serde_json::to_string_pretty(&analysis)? + "\n",
        })
    }
}
