//! `birdcage play`: a game against the machine, as the original program played it.
//!
//! On a terminal the board is drawn full screen and edges are picked with the cursor keys
//! (see `terminal`); otherwise moves and commands are read one a line and the board is
//! printed after every move, so that a game can be scripted and tested. The same game is
//! played on a graph file (`--graph`, see `graph`), and the cage can be drawn as Gale's
//! two grids of dots (`--view gale`, see `gale`).

mod frame;
mod gale;
mod graph;
mod heat;
mod keys;
mod terminal;

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};

use emulator::hint::Hint;
use emulator::players::Opponent;
use heuristic::{Edge, Model, Move, Position, Side, Size};

use heat::Heat;

use super::{load_graph, parse_model, parse_size};

/// Who the machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpponentArg {
    /// Shannon's heuristic: the largest drop, ties in reading order.
    Heuristic,
    /// The firmware application on an emulated board.
    Firmware,
    /// The perfect player (Lehman's theorem).
    Perfect,
}

/// Play a game against the machine (Cut moves first).
#[derive(Args, Debug)]
pub struct Cmd {
    /// Board size M (2..=8).
    #[arg(long, short = 's', value_name = "M", default_value = "4", value_parser = parse_size,
          allow_negative_numbers = true)]
    size: Size,
    /// The machine you play against.
    #[arg(long, value_enum, default_value_t = OpponentArg::Heuristic)]
    opponent: OpponentArg,
    /// Network the heuristic measures (and the drops shown): ideal or reference.
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = parse_model)]
    network: Model,
    /// The board the firmware runs on (`arduino-mega`, `nucleo-f446re` or a profile file); implies
    /// `--opponent firmware`, whose default board is `nucleo-f446re`.
    #[arg(long, value_name = "NAME", conflicts_with = "network")]
    board: Option<String>,
    /// Draw the firmware's board (parts, ADC errors, noise) from this seed; default nominal.
    #[arg(long, value_name = "S", allow_negative_numbers = true,
          value_parser = crate::args::whole::<u64>(0, u64::MAX))]
    tolerance_seed: Option<u64>,
    /// Your side; Cut moves first.
    #[arg(long, value_enum, default_value_t = YouArg::Short)]
    you: YouArg,
    /// Play on a graph file instead of the cage (opponents heuristic or perfect).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "board", "tolerance_seed"])]
    graph: Option<PathBuf>,
    /// How the cage is drawn: the resistor network, or Gale's two grids of dots (Bridg-It).
    #[arg(long, value_enum, default_value_t = View::Circuit)]
    view: View,
}

/// How the cage is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum View {
    /// Nodes and resistors, as the original program drew them.
    Circuit,
    /// Gale's game: Short's dots join top to bottom, Cut's (the dual grid) left to right.
    Gale,
}

/// The side the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum YouArg {
    /// Replace resistors with wires; the machine cuts first.
    Short,
    /// Cut resistors; you move first.
    Cut,
}

pub(crate) use emulator::session::Machine;
use emulator::session::{CageGame, Session as Played};

/// One game on the cage in progress: the library's session, the network whose drops are
/// shown and how the cage is drawn.
#[derive(Debug)]
pub(crate) struct Session {
    played: Played<CageGame>,
    model: Model,
    view: View,
}

/// What a front end (the scripted game, the terminal) needs of a game in progress, on the
/// cage or on a graph: the library's session underneath, drawn and read here.
pub(crate) trait Front {
    /// Who plays whom, for the first line.
    fn header(&self) -> String;
    /// The position drawn as plain text.
    fn board(&self) -> String;
    /// The machine's move if it is the machine's turn, as the record writes it.
    fn answer(&mut self) -> Result<Option<String>>;
    /// Plays the person's move named by `text`; the move as the record writes it.
    fn play_text(&mut self, text: &str) -> Result<String>;
    /// Whether `word` names an edge (then it is a move, not a command's key): never on
    /// the cage, whose edges are a letter and a number; a graph's names are its own.
    fn names_edge(&self, word: &str) -> bool {
        let _ = word;
        false
    }
    /// Whether some edge's name begins with `prefix` (either case): a key that does not
    /// begin one is a command's (the terminal's key line, its screen).
    fn names_begin(&self, prefix: &str) -> bool;
    /// The hint: one line (`Hint: `, a move for the person or `none`, what it achieves)
    /// and the reasoning behind it (`Why: ...`), for the `why` command.
    fn hint(&self) -> (String, String);
    /// Every resistor's drop (or why there are none to show).
    fn drops(&self) -> String;
    /// Takes back moves until it is the person's turn again.
    fn undo(&mut self) -> bool;
    /// The record so far, `(none)` before the first move.
    fn record(&self) -> String;
    /// The side that has won, if any.
    fn winner(&self) -> Option<Side>;
    /// The person's side.
    fn you(&self) -> Side;
    /// The result line once the game is over.
    fn outcome(&self) -> Option<String>;
    /// Whether somebody has won.
    fn is_over(&self) -> bool {
        self.winner().is_some()
    }
}

impl Front for Session {
    fn names_begin(&self, prefix: &str) -> bool {
        let prefix = prefix.to_ascii_uppercase();
        self.position()
            .size()
            .edges()
            .any(|e| e.to_string().starts_with(&prefix))
    }

    fn header(&self) -> String {
        Session::header(self)
    }
    fn board(&self) -> String {
        Session::board(self)
    }
    fn answer(&mut self) -> Result<Option<String>> {
        Ok(self.reply()?.map(|mv| mv.to_string()))
    }
    fn play_text(&mut self, text: &str) -> Result<String> {
        Ok(self.play(text)?.to_string())
    }
    fn hint(&self) -> (String, String) {
        let hint = Session::hint(self);
        (hint.line, hint.why)
    }
    fn drops(&self) -> String {
        Session::drops(self)
    }
    fn undo(&mut self) -> bool {
        Session::undo(self)
    }
    fn record(&self) -> String {
        Session::record(self)
    }
    fn winner(&self) -> Option<Side> {
        self.position().winner()
    }
    fn you(&self) -> Side {
        Session::you(self)
    }
    fn outcome(&self) -> Option<String> {
        Session::outcome(self)
    }
}

/// What `why` says before any hint (or after a move or an undo, which leave the last hint
/// behind).
pub(crate) const NO_HINT_YET: &str = "No hint to explain: ask for one first (? or hint).";

/// What a line of input (or a key) asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Move(String),
    Hint,
    /// The last hint's reasoning.
    Why,
    Drops,
    Undo,
    Quit,
}

impl Command {
    /// Reads a typed line: an edge's name (`names_edge`), else a command's word or key
    /// (see [`keys::BINDINGS`]: `q` quits as `quit` does), else a move.
    pub(crate) fn parse(line: &str, names_edge: impl Fn(&str) -> bool) -> Option<Command> {
        let word = line.trim();
        if word.is_empty() {
            return None;
        }
        if names_edge(word) {
            return Some(Command::Move(word.to_string()));
        }
        Some(keys::command(word).unwrap_or_else(|| Command::Move(word.to_string())))
    }
}

impl Session {
    pub(crate) fn new(
        size: Size,
        you: Side,
        opponent: Machine,
        model: Model,
        view: View,
    ) -> Session {
        Session {
            played: Played::new(CageGame::new(size), you, opponent),
            model,
            view,
        }
    }

    pub(crate) fn position(&self) -> &Position {
        self.played.game().position()
    }

    pub(crate) fn view(&self) -> View {
        self.view
    }

    /// The person's side.
    pub(crate) fn you(&self) -> Side {
        self.played.you()
    }

    /// The board as plain text, in the chosen view: cuts drawn `×` as on the terminal's
    /// screen, from the same drawing ([`frame::plain_board`]).
    pub(crate) fn board(&self) -> String {
        match self.view {
            View::Circuit => frame::plain_board(self.position()),
            View::Gale => gale::plain(self.position(), self.you()),
        }
    }

    /// The machine's move, if it is the machine's turn; an error only from the firmware
    /// (a fault on the emulated board).
    pub(crate) fn reply(&mut self) -> Result<Option<Move>> {
        let side = self.you().opponent();
        Ok(self.played.reply()?.map(|edge| Move { side, edge }))
    }

    /// Plays the person's move named by `text` (either case: the side is theirs).
    pub(crate) fn play(&mut self, text: &str) -> Result<Move> {
        let edge = self.played.play_named(text)?;
        Ok(Move {
            side: self.you(),
            edge,
        })
    }

    /// Plays `edge` for the person.
    pub(crate) fn play_edge(&mut self, edge: Edge) -> Result<Move> {
        self.played.play(edge)?;
        Ok(Move {
            side: self.you(),
            edge,
        })
    }

    /// Takes back moves until it is the person's turn again, one of theirs at least.
    pub(crate) fn undo(&mut self) -> bool {
        self.played.undo()
    }

    /// A move for the person, if there is one to suggest, the hint's line and its reasons:
    /// see [`emulator::hint::hint`].
    pub(crate) fn hint(&self) -> Hint<Edge> {
        self.played.hint()
    }

    /// Every resistor's drop on the board, in percent of the supply, and the largest.
    pub(crate) fn drops(&self) -> String {
        self.heat().to_text(self.position())
    }

    /// Every resistor's drop on the chosen network.
    pub(crate) fn heat(&self) -> Heat {
        Heat::new(
            self.position(),
            self.played.game().record_moves(),
            self.model,
        )
    }

    /// The machine's last move, if it has moved.
    pub(crate) fn last_machine_move(&self) -> Option<Edge> {
        self.played.last_machine_move().map(|(_, edge)| edge)
    }

    /// The game record so far, `(none)` before the first move.
    pub(crate) fn record(&self) -> String {
        none_if_empty(self.played.record())
    }

    /// Who the person plays against, for the header.
    pub(crate) fn header(&self) -> String {
        format!(
            "{}: you play {} against {}. Cut moves first.",
            self.position().size(),
            self.you(),
            self.played.machine().describe()
        )
    }

    /// The result line once the game is over.
    pub(crate) fn outcome(&self) -> Option<String> {
        self.played.outcome()
    }
}

/// A record as the game prints it: `(none)` before the first move.
pub(crate) fn none_if_empty(record: String) -> String {
    if record.is_empty() {
        "(none)".to_string()
    } else {
        record
    }
}

impl Cmd {
    /// The machine on a graph: a player that needs only the position.
    fn graph_opponent(&self) -> Result<Opponent> {
        if self.opponent == OpponentArg::Firmware {
            bail!(
                "the firmware plays the cage its boards wire; on a graph play --opponent heuristic or perfect"
            );
        }
        if self.view == View::Gale {
            bail!("--view gale draws the cage; a graph is shown as its list of edges");
        }
        Ok(match self.opponent {
            OpponentArg::Perfect => Opponent::Perfect,
            _ => Opponent::Heuristic(self.network),
        })
    }

    fn opponent(&self, you: Side) -> Result<Machine> {
        let firmware = self.opponent == OpponentArg::Firmware || self.board.is_some();
        if !firmware {
            if self.tolerance_seed.is_some() {
                bail!(
                    "--tolerance-seed draws the firmware's board; use it with --opponent firmware"
                );
            }
            return Ok(Machine::Player(match self.opponent {
                OpponentArg::Perfect => Opponent::Perfect,
                _ => Opponent::Heuristic(self.network),
            }));
        }
        if self.opponent == OpponentArg::Perfect {
            bail!("--board runs the firmware; the perfect player needs no board");
        }
        if you == Side::Cut {
            bail!("the firmware plays Cut; play it with --you short");
        }
        if !matches!(self.size.get(), 3 | 4) {
            bail!(
                "the firmware plays M=3 and M=4 (the cage its boards wire), not M={}",
                self.size.get()
            );
        }
        let name = self.board.as_deref().unwrap_or(boards::NUCLEO_F446RE.name);
        let profile = boards::file::load(name)?;
        Ok(Machine::Firmware {
            profile,
            seed: self.tolerance_seed,
        })
    }

    pub fn run(&self) -> Result<ExitCode> {
        let you = match self.you {
            YouArg::Short => Side::Short,
            YouArg::Cut => Side::Cut,
        };
        let on_terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        let played = if let Some(path) = &self.graph {
            let opponent = self.graph_opponent()?;
            let graph = load_graph(path)?;
            if opponent == Opponent::Perfect {
                super::check_perfect(path, &graph)?;
            }
            let model = match opponent {
                Opponent::Heuristic(model) => model,
                Opponent::Perfect => Model::Ideal,
            };
            super::check_network(path, &switching::Play::new(&graph, Side::Cut), model, false)?;
            let session = graph::GraphSession::new(
                &path.display().to_string(),
                &graph,
                you,
                opponent,
                self.network,
            );
            if on_terminal {
                terminal::run(session)
            } else {
                scripted(
                    session,
                    std::io::stdin().lock(),
                    &mut std::io::stdout().lock(),
                )
            }
        } else {
            let opponent = self.opponent(you)?;
            let session = Session::new(self.size, you, opponent, self.network, self.view);
            if on_terminal {
                terminal::run(session)
            } else {
                scripted(
                    session,
                    std::io::stdin().lock(),
                    &mut std::io::stdout().lock(),
                )
            }
        };
        match played {
            // A closed pipe (`| head`) is not worth an error message.
            Err(e) if is_broken_pipe(&e) => Ok(ExitCode::FAILURE),
            other => other,
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

/// The machine's reply; if it fails (the firmware faulted), the record so far is written
/// before the error goes up, so nothing already played is lost.
fn reply_or_record(game: &mut impl Front, out: &mut impl Write) -> Result<Option<String>> {
    match game.answer() {
        Ok(mv) => Ok(mv),
        Err(e) => {
            writeln!(out, "Record: {}", game.record())?;
            out.flush()?;
            Err(e)
        }
    }
}

/// Plays from lines of input, writing everything to `out`. A bad move ends the game with
/// exit code 2 after the record so far; end of input or `quit` ends it with 0.
fn scripted(mut game: impl Front, input: impl BufRead, out: &mut impl Write) -> Result<ExitCode> {
    writeln!(out, "{}\n\n{}", game.header(), game.board())?;
    if let Some(mv) = reply_or_record(&mut game, out)? {
        writeln!(out, "Machine: {mv}\n\n{}", game.board())?;
    }
    // The last hint's reasoning, for `why`, until the next move or undo.
    let mut why: Option<String> = None;
    for (number, line) in input.lines().enumerate() {
        if game.is_over() {
            break;
        }
        let line = match line {
            Ok(line) => line,
            // Not UTF-8 (or unreadable): the record so far, then which line, exit 2.
            Err(e) => {
                writeln!(out, "Record: {}", game.record())?;
                out.flush()?;
                let what = if e.kind() == std::io::ErrorKind::InvalidData {
                    "is not UTF-8 text".to_string()
                } else {
                    format!("cannot be read: {e}")
                };
                eprintln!("error: input line {} {what}", number + 1);
                return Ok(ExitCode::from(2));
            }
        };
        let Some(command) = Command::parse(&line, |w| game.names_edge(w)) else {
            continue;
        };
        match command {
            Command::Quit => break,
            Command::Hint => {
                let (line, reasons) = game.hint();
                writeln!(out, "{line}\n")?;
                why = Some(reasons);
            }
            Command::Why => writeln!(out, "{}\n", why.as_deref().unwrap_or(NO_HINT_YET))?,
            Command::Drops => writeln!(out, "{}", game.drops())?,
            Command::Undo => {
                why = None;
                if game.undo() {
                    writeln!(out, "Undone.\n\n{}", game.board())?;
                } else {
                    writeln!(out, "Nothing to undo.\n")?;
                }
            }
            Command::Move(text) => match game.play_text(&text) {
                Ok(mv) => {
                    why = None;
                    writeln!(out, "You: {mv}\n\n{}", game.board())?;
                    if let Some(mv) = reply_or_record(&mut game, out)? {
                        writeln!(out, "Machine: {mv}\n\n{}", game.board())?;
                    }
                }
                Err(e) => {
                    writeln!(out, "Record: {}", game.record())?;
                    out.flush()?;
                    // The error names the move (bounded); the line is not repeated.
                    eprintln!("error: line {}: {e:#}", number + 1);
                    return Ok(ExitCode::from(2));
                }
            },
        }
    }
    if let Some(outcome) = game.outcome() {
        writeln!(out, "{outcome}")?;
    }
    writeln!(out, "Record: {}", game.record())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

// The hint (what it searches, its bounds and its words) is the library's, shared with the
// web app: see `emulator::hint`.
#[cfg(test)]
use emulator::hint::hint_limit;

#[cfg(test)]
mod tests {
    use super::*;
    use emulator::beat::{Plan, Ties};
    use rand::SeedableRng;

    #[test]
    fn the_hint_search_is_exact_at_m3_and_m4() {
        // The limit is never reached on the small cages: random early positions (the
        // largest searches), either side to move, both networks.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        for m in [3, 4] {
            let size = Size::new(m).unwrap();
            let limit = hint_limit(size.edge_count());
            for model in Model::ALL {
                for plies in 1..=6 {
                    for _ in 0..8 {
                        let p = emulator::games::random_position(&mut rng, size, Side::Cut, plies);
                        if p.winner().is_some() {
                            continue;
                        }
                        let plan = emulator::beat::plan(&p, model, Ties::ReadingOrder, limit);
                        assert!(!matches!(plan, Plan::GaveUp { .. }), "M={m} {model} {p:?}");
                    }
                }
            }
        }
        // Strategies of any length on every board: the budget shrinks with the board's
        // cost, never to nothing.
        let limits: Vec<usize> = (3..=8)
            .map(|m| hint_limit(Size::new(m).unwrap().edge_count()))
            .collect();
        assert!(limits.windows(2).all(|w| w[0] > w[1]), "{limits:?}");
        assert!(limits[limits.len() - 1] > 1000, "{limits:?}");
    }
}
