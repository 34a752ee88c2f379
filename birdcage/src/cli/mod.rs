//! The `birdcage` subcommands, one file each, and the options they share.

pub mod analyze;
pub mod beat;
pub mod completions;
pub mod export;
pub mod graph;
pub mod link;
pub mod links;
pub mod next;
pub mod play;
mod progress;
pub mod shard;
pub mod solve;
pub mod study;
pub mod web;

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};

use crate::args::whole;
use clap::{Args, ValueEnum};
use emulator::physical::Board;
use emulator::reading::Reader;
use heuristic::{EdgeState, MAX_SIZE, MIN_SIZE, Model, Side, Size};
use switching::{Graph, Play};

/// How the text of a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: the board drawn as the original program drew it.
    Text,
    /// For programs: one JSON document.
    Json,
}

/// Who opens the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// Cut moves first (Shannon's machine).
    Cut,
    /// Short moves first.
    Short,
}

impl From<First> for Side {
    fn from(f: First) -> Side {
        match f {
            First::Cut => Side::Cut,
            First::Short => Side::Short,
        }
    }
}

/// A board size M: a whole number from [`MIN_SIZE`] to [`MAX_SIZE`], said so in words
/// (negative sizes too: the option takes `allow_negative_numbers`).
pub(crate) fn parse_size(s: &str) -> Result<Size, String> {
    let m: u32 = whole(MIN_SIZE.into(), MAX_SIZE.into())(s).map_err(|e| e.to_string())?;
    Size::new(m).map_err(|e| e.to_string())
}

pub(crate) fn parse_model(s: &str) -> Result<Model, String> {
    s.parse().map_err(|e: heuristic::ModelError| e.to_string())
}

/// A position: board size, the moves that reach it, and who opened.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// Board size M (2..=8).
    #[arg(long, short = 's', value_name = "M", value_parser = parse_size, allow_negative_numbers = true)]
    pub size: Size,
    /// Game record, e.g. `A5,c5,C3` (Cut upper case, Short lower case); empty = start.
    #[arg(
        long,
        short = 'm',
        value_name = "LIST",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub moves: String,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::Cut)]
    pub first: First,
}

/// A position and the network model it is measured on.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[command(flatten)]
    pub record: RecordArgs,
    /// Network model: ideal or reference.
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = parse_model)]
    pub network: Model,
}

/// A physical board in place of a network model.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Board profile (`arduino-mega`, `nucleo-f446re`) or a profile file (TOML): the network
    /// as that board builds it.
    #[arg(long, value_name = "PROFILE", conflicts_with = "network")]
    pub board: Option<String>,
    /// Draw the board's parts (and its ADC's static errors and noise) from this seed; without
    /// it, every part is nominal and the ADC is perfect.
    #[arg(long, value_name = "S", requires = "board", allow_negative_numbers = true,
          value_parser = whole::<u64>(0, u64::MAX))]
    pub tolerance_seed: Option<u64>,
}

impl BoardArgs {
    /// The board's profile, loaded and checked; `None` without `--board`.
    pub fn profile(&self) -> Result<Option<&'static boards::Profile>> {
        Ok(match &self.board {
            Some(spec) => Some(boards::file::load(spec)?),
            None => None,
        })
    }

    /// The board's electrical values; `None` without `--board`.
    pub fn board(&self) -> Result<Option<Board>> {
        Ok(self.profile()?.map(Board::from_profile))
    }
}

/// Who reads the position: a board (`--board`), or the model through an ideal ADC
/// (`--adc-bits` alone).
#[derive(Args, Debug, Clone)]
pub struct ReaderArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// ADC resolution in bits (6..=16): overrides the board's; with a network model, the
    /// model read by an ideal converter with Vref = supply.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = whole::<u8>(
            u64::from(*boards::ADC_BITS.start()),
            u64::from(*boards::ADC_BITS.end())
        )
    )]
    pub adc_bits: Option<u8>,
}

impl ReaderArgs {
    /// The reader the options ask for, if any.
    pub fn reader(&self) -> Result<Option<Reader>> {
        Ok(match (self.board.board()?, self.adc_bits) {
            (Some(board), bits) => {
                let board = match bits {
                    Some(b) => board.with_adc_bits(b)?,
                    None => board,
                };
                Some(Reader::Board {
                    board: Box::new(board),
                    seed: self.board.tolerance_seed,
                })
            }
            (None, Some(bits)) => Some(Reader::IdealAdc { bits }),
            (None, None) => None,
        })
    }

    /// Replays the game and analyses it, read as these options ask.
    pub fn analyze(&self, game: &GameArgs) -> Result<emulator::analysis::Analysis> {
        let r = &game.record;
        let reader = self.reader()?;
        let model = self.model(game);
        Ok(emulator::analysis::analyze(
            r.size,
            r.first.into(),
            &r.moves,
            model,
            reader.as_ref(),
        )?)
    }

    /// The exact model the reading is compared with: `ideal` for a board.
    pub fn model(&self, game: &GameArgs) -> Model {
        if self.board.board.is_some() {
            Model::Ideal
        } else {
            game.network
        }
    }
}

/// Reads and checks a graph file; errors name the file (and the line, when one is at fault).
pub fn load_graph(path: &Path) -> Result<Graph> {
    Ok(switching::file::read(path)?)
}

/// The board a command works on: the cage of size M or a graph file, one of the two.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct BoardChoice {
    /// Board size M (2..=8): the bird cage.
    #[arg(long, short = 's', value_name = "M", value_parser = parse_size, allow_negative_numbers = true)]
    pub size: Option<Size>,
    /// A graph file (two terminals and a list of edges; see the README): any board.
    #[arg(long, value_name = "FILE")]
    pub graph: Option<PathBuf>,
}

/// A board that is loaded: the cage, or a graph read from its file.
#[derive(Debug)]
pub enum LoadedBoard {
    Cage(Size),
    Graph { path: PathBuf, graph: Graph },
}

impl BoardChoice {
    /// The cage, or the graph file read and checked.
    pub fn load(&self) -> Result<LoadedBoard> {
        match (&self.graph, self.size) {
            (Some(path), _) => Ok(LoadedBoard::Graph {
                path: path.clone(),
                graph: load_graph(path)?,
            }),
            (None, Some(size)) => Ok(LoadedBoard::Cage(size)),
            // clap's group makes one of the two required.
            (None, None) => Err(anyhow!("give --size M or --graph FILE")),
        }
    }
}

/// A position on the cage or on a graph: the board, the moves that reach it, who opened.
#[derive(Args, Debug, Clone)]
pub struct BoardRecordArgs {
    #[command(flatten)]
    pub board: BoardChoice,
    /// Game record. On the cage, e.g. `A5,c5,C3` (Cut upper case, Short lower case); on a
    /// graph, edge names separated by commas, sides alternating from `--first`. Empty = start.
    #[arg(
        long,
        short = 'm',
        value_name = "LIST",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub moves: String,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::Cut)]
    pub first: First,
}

impl BoardRecordArgs {
    /// The record as given, or `(start)` when empty.
    pub fn record_text(&self) -> &str {
        match self.moves.trim() {
            "" => "(start)",
            moves => moves,
        }
    }

    /// Replays the record on a graph; errors name the move and what is wrong with it.
    pub fn play<'g>(&self, graph: &'g Graph) -> Result<Play<'g>> {
        Ok(Play::from_record(graph, self.first.into(), &self.moves)?)
    }
}

/// The heuristic's move on a graph for the side to move: the resistor with the largest
/// exact drop, ties to the first edge in file order (Cut cuts it; Bridj-It 2.0's machine,
/// as Short, shorts it).
///
/// A position too large to solve ([`emulator::graphs::MAX_FILL`]) is an error, not a panic.
pub(crate) fn graph_heuristic_move(play: &Play, model: Model) -> Result<Option<usize>> {
    let tied = emulator::graphs::try_heuristic_moves(play, model)?;
    Ok(tied.first().copied())
}

/// The most edges a graph may have for perfect play (`solve --graph`, `play --opponent
/// perfect`): Lehman's theorem by matroid partition takes about a second at 10^4 edges and
/// grows faster than the square of the edges (40 s at 3·10^4), so past this it is refused.
pub(crate) const MAX_PERFECT_EDGES: usize = 10_000;

/// Refuses a graph too large for perfect play, before any work, in one line.
pub(crate) fn check_perfect(path: &Path, graph: &Graph) -> Result<()> {
    let edges = graph.edges().len();
    if edges > MAX_PERFECT_EDGES {
        anyhow::bail!(
            "{}: {edges} edges: perfect play is solved for at most {MAX_PERFECT_EDGES} edges \
             (its time grows faster than the square of the edges)",
            path.display()
        );
    }
    Ok(())
}

/// Checks that a position's network can be solved ([`emulator::graphs::check`]) and, when
/// `exact`, solved exactly; a position the heuristic can only rank in f64 gets a one-line
/// note on stderr saying that its ties are not exact.
pub(crate) fn check_network(path: &Path, play: &Play, model: Model, exact: bool) -> Result<()> {
    use emulator::graphs::{GraphSizeError, MAX_EXACT_UNKNOWNS, Precision};
    match emulator::graphs::check(play, model) {
        Err(e) => Err(anyhow!("{}: {e}", path.display())),
        Ok(Precision::Float { unknowns }) if exact => Err(anyhow!(
            "{}: {}",
            path.display(),
            GraphSizeError::Exact { unknowns }
        )),
        Ok(Precision::Float { unknowns }) => {
            eprintln!(
                "note: {}: {unknowns} unknowns, more than the {MAX_EXACT_UNKNOWNS} solved \
                 exactly: the heuristic ranks drops in f64, and drops within 1e-9 of the \
                 supply count as tied (ties not exact)",
                path.display()
            );
            Ok(())
        }
        Ok(Precision::Exact) => Ok(()),
    }
}

/// How an edge of a graph is in a game: `resistor`, `cut` or `shorted`.
pub(crate) fn state_word(state: EdgeState) -> &'static str {
    match state {
        EdgeState::Resistor => "resistor",
        EdgeState::Cut => "cut",
        EdgeState::Short => "shorted",
    }
}

/// A game on a graph drawn as a list: the terminals, then one line per edge in file
/// order with its ends and its state. `marker(i)` prefixes line i (two characters).
pub(crate) fn graph_lines(play: &Play, marker: impl Fn(usize) -> &'static str) -> Vec<String> {
    let graph = play.graph();
    let [s, t] = graph.terminal_names();
    let names = graph.edges().iter().map(|e| e.name.chars().count());
    let name_width = names.max().unwrap_or(0);
    let ends: Vec<String> = graph
        .edges()
        .iter()
        .map(|e| {
            let [u, v] = e.ends.map(|x| graph.vertices()[x].as_str());
            format!("{u} - {v}")
        })
        .collect();
    let ends_width = ends.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    let mut lines = vec![format!(
        "Terminals {s} and {t}; Short joins them, Cut separates them."
    )];
    for (i, (edge, ends)) in graph.edges().iter().zip(&ends).enumerate() {
        let line = format!(
            "{}{:<name_width$}  {ends:<ends_width$}  {}",
            marker(i),
            edge.name,
            state_word(play.states()[i]),
        );
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// [`graph_lines`] as one text, each line indented by two spaces.
pub(crate) fn graph_text(play: &Play) -> String {
    let mut out = String::new();
    for line in graph_lines(play, |_| "  ") {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
