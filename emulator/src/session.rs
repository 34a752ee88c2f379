//! A game of the person against the machine, on the cage or on any graph: whose turn it is,
//! the person's moves, the machine's reply, the hint, undo back to the person's turn, the
//! record. The one session `birdcage play` (on a terminal or scripted, on the cage or a
//! graph file) and the web app run; they only draw it and read input.
//!
//! What differs between the cage and a graph (how an edge is named, how the machine picks
//! its move, how the hint searches) is a [`Game`]: [`CageGame`] and [`GraphGame`].

use std::sync::Arc;

use boards::Profile;
use heuristic::{Edge, Move, Position, Record, Side};
use switching::{Graph, GraphMoveError, Play};

use crate::emulated::SilError;
use crate::graphs::GraphSizeError;
use crate::hint::{Hint, Rival, hint};
use crate::players::Opponent;

/// Who answers the person: a player that needs only the position, or the firmware on an
/// emulated board, which is replayed from the moves (so undo just works).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Machine {
    /// The heuristic or the perfect player ([`Opponent`]).
    Player(Opponent),
    /// The firmware application on an emulated board (the cage only, as Cut).
    Firmware {
        /// The board it runs on.
        profile: &'static Profile,
        /// Its parts drawn from this seed; `None`: nominal parts.
        seed: Option<u64>,
    },
}

impl Machine {
    /// How the machine is named to the person.
    pub fn describe(&self) -> String {
        match self {
            Machine::Player(o) => o.describe(),
            Machine::Firmware { profile, seed } => match seed {
                Some(s) => format!(
                    "the firmware on an emulated {} (tolerance seed {s})",
                    profile.name
                ),
                None => format!(
                    "the firmware on an emulated {} (nominal parts)",
                    profile.name
                ),
            },
        }
    }

    /// What the hint knows of this machine.
    pub fn rival(&self) -> Rival {
        match *self {
            Machine::Player(Opponent::Heuristic(model)) => Rival::Heuristic(model),
            Machine::Player(Opponent::Perfect) => Rival::Perfect,
            Machine::Firmware { .. } => Rival::Firmware,
        }
    }
}

/// Why the machine has no reply.
#[derive(Debug, thiserror::Error)]
pub enum ReplyError {
    /// The firmware on its emulated board failed.
    #[error(transparent)]
    Firmware(#[from] SilError),
    /// The graph is past the solver's limits.
    #[error(transparent)]
    TooLarge(#[from] GraphSizeError),
    /// The machine found no move although it is its turn.
    #[error("the machine has no move for {side} on this graph")]
    NoMove {
        /// The machine's side.
        side: Side,
    },
    /// The firmware plays only the cage its boards wire.
    #[error("the firmware plays the cage its boards wire, not a graph")]
    FirmwareOnGraph,
}

/// A move of the person's the session refuses; the game is untouched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError<R> {
    /// Somebody has won.
    #[error("the game is over")]
    GameOver {
        /// Who won.
        winner: Side,
    },
    /// It is the machine's turn.
    #[error("it is {side}'s turn")]
    NotYourTurn {
        /// The side to move.
        side: Side,
    },
    /// The board refuses the move (its name, or the edge already played).
    #[error(transparent)]
    Refused(R),
}

/// The game on one board: its rules, its names and its machine. The cage and a graph.
pub trait Game: Clone {
    /// How a move is named: an [`Edge`] on the cage, an edge index on a graph.
    type Move: Copy + PartialEq + core::fmt::Debug;
    /// A move the board refuses.
    type Refusal: std::error::Error + Send + Sync + 'static;
    /// The side to move, `None` once somebody has won.
    fn to_move(&self) -> Option<Side>;
    /// The winner, once there is one.
    fn winner(&self) -> Option<Side>;
    /// The side that opened.
    fn first(&self) -> Side;
    /// The moves played so far, in order.
    fn moves(&self) -> Vec<Self::Move>;
    /// The move a text names (the cage: either case; a graph: its names, as
    /// [`Graph::find_edge`] finds them).
    fn parse(&self, text: &str) -> Result<Self::Move, Self::Refusal>;
    /// Plays `mv` for the side to move.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::Refusal>;
    /// Keeps the first `len` moves.
    fn truncate(&mut self, len: usize);
    /// The machine's move for the side to move, `Ok(None)` once the game is over.
    fn reply(&self, machine: &Machine) -> Result<Option<Self::Move>, ReplyError>;
    /// The hint for `you` against `rival`: see [`hint`].
    fn hint(&self, you: Side, rival: Rival) -> Hint<Self::Move>;
    /// A move as the record writes it (on the cage Short's in lower case).
    fn name(&self, side: Side, mv: Self::Move) -> String;
    /// The record, names joined by commas; empty before the first move.
    fn record(&self) -> String;
}

/// A game in progress against the machine: the board, the person's side, the machine.
#[derive(Clone, Debug)]
pub struct Session<G> {
    game: G,
    you: Side,
    machine: Machine,
}

impl<G: Game> Session<G> {
    /// A session on `game` (usually the start), the person playing `you`.
    pub fn new(game: G, you: Side, machine: Machine) -> Self {
        Session { game, you, machine }
    }

    /// The game on its board.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The person's side.
    pub fn you(&self) -> Side {
        self.you
    }

    /// Who answers the person.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The side to move, `None` once somebody has won.
    pub fn to_move(&self) -> Option<Side> {
        self.game.to_move()
    }

    /// The winner, once there is one.
    pub fn winner(&self) -> Option<Side> {
        self.game.winner()
    }

    /// Whether somebody has won.
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Whether it is the person's turn.
    pub fn your_turn(&self) -> bool {
        self.to_move() == Some(self.you)
    }

    /// The result once the game is over: `Short has won: you win.`
    pub fn outcome(&self) -> Option<String> {
        let w = self.winner()?;
        let who = if w == self.you {
            "you win"
        } else {
            "the machine wins"
        };
        Some(format!("{w} has won: {who}."))
    }

    /// Who played move `i` of the game.
    pub fn side_of(&self, i: usize) -> Side {
        let first = self.game.first();
        if i.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        }
    }

    /// Plays the person's move `mv`.
    pub fn play(&mut self, mv: G::Move) -> Result<G::Move, PlayError<G::Refusal>> {
        self.check_turn()?;
        self.game.play(mv).map_err(PlayError::Refused)?;
        Ok(mv)
    }

    /// Plays the person's move named by `text` (see [`Game::parse`]).
    pub fn play_named(&mut self, text: &str) -> Result<G::Move, PlayError<G::Refusal>> {
        self.check_turn()?;
        let mv = self.game.parse(text).map_err(PlayError::Refused)?;
        self.play(mv)
    }

    fn check_turn(&self) -> Result<(), PlayError<G::Refusal>> {
        match (self.winner(), self.to_move()) {
            (Some(winner), _) => Err(PlayError::GameOver { winner }),
            (None, Some(side)) if side != self.you => Err(PlayError::NotYourTurn { side }),
            _ => Ok(()),
        }
    }

    /// Plays `mv` for the side to move, whoever it is (a record read back).
    pub fn push(&mut self, mv: G::Move) -> Result<(), G::Refusal> {
        self.game.play(mv)
    }

    /// The machine's move, played, if it is the machine's turn.
    pub fn reply(&mut self) -> Result<Option<G::Move>, ReplyError> {
        if self.to_move().is_none_or(|side| side == self.you) {
            return Ok(None);
        }
        let Some(mv) = self.game.reply(&self.machine)? else {
            return Ok(None);
        };
        self.game
            .play(mv)
            .expect("the machine plays a resistor of an open game");
        Ok(Some(mv))
    }

    /// Takes back moves until it is the person's turn again, one of theirs at least; false
    /// (and nothing changed) before the person's first move.
    pub fn undo(&mut self) -> bool {
        let moves = self.game.moves().len();
        let Some(last_own) = (0..moves).rev().find(|&i| self.side_of(i) == self.you) else {
            return false;
        };
        self.game.truncate(last_own);
        true
    }

    /// Keeps the first `len` moves.
    pub fn truncate(&mut self, len: usize) {
        self.game.truncate(len);
    }

    /// A move for the person, if there is one to suggest, and the hint's line ([`hint`]).
    pub fn hint(&self) -> Hint<G::Move> {
        self.game.hint(self.you, self.machine.rival())
    }

    /// The machine's last move: its number in the record (from 0) and the move.
    pub fn last_machine_move(&self) -> Option<(usize, G::Move)> {
        let moves = self.game.moves();
        (0..moves.len())
            .rev()
            .find(|&i| self.side_of(i) != self.you)
            .map(|i| (i, moves[i]))
    }

    /// The move `mv` of `side` as the record writes it.
    pub fn name(&self, side: Side, mv: G::Move) -> String {
        self.game.name(side, mv)
    }

    /// The record, empty before the first move.
    pub fn record(&self) -> String {
        self.game.record()
    }
}

/// The game on the cage: the position and its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageGame {
    record: Record,
    position: Position,
}

impl CageGame {
    /// The start on the cage of `size`, Cut first.
    pub fn new(size: heuristic::Size) -> Self {
        CageGame {
            record: Record::new(Side::Cut),
            position: Position::new(size, Side::Cut),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves with their sides.
    pub fn record_moves(&self) -> &Record {
        &self.record
    }
}

impl Game for CageGame {
    type Move = Edge;
    type Refusal = heuristic::PlayError;
    fn to_move(&self) -> Option<Side> {
        self.position.to_move()
    }
    fn winner(&self) -> Option<Side> {
        self.position.winner()
    }
    fn first(&self) -> Side {
        Side::Cut
    }
    fn moves(&self) -> Vec<Edge> {
        self.record.moves().iter().map(|m| m.edge).collect()
    }
    fn parse(&self, text: &str) -> Result<Edge, heuristic::PlayError> {
        Ok(Edge::parse(self.position.size(), text)?)
    }
    fn play(&mut self, edge: Edge) -> Result<(), heuristic::PlayError> {
        let side = self.position.to_move().unwrap_or(Side::Cut);
        let mv = Move { side, edge };
        self.position.play(mv)?;
        self.record
            .push(mv)
            .expect("a legal game never fills a record");
        Ok(())
    }
    fn truncate(&mut self, len: usize) {
        self.record.truncate(len);
        self.position = self
            .record
            .replay(self.position.size())
            .expect("a prefix of a legal game is legal");
    }
    fn reply(&self, machine: &Machine) -> Result<Option<Edge>, ReplyError> {
        Ok(match *machine {
            Machine::Player(o) => o.reply(&self.position),
            Machine::Firmware { profile, seed } => crate::emulated::firmware_reply(
                profile,
                seed,
                self.position.size(),
                self.record.moves(),
            )?,
        })
    }
    fn hint(&self, you: Side, rival: Rival) -> Hint<Edge> {
        let edges = self.position.size().edge_count();
        hint(&self.position, edges, you, rival, |side, edge| {
            Move { side, edge }.to_string()
        })
    }
    fn name(&self, side: Side, edge: Edge) -> String {
        Move { side, edge }.to_string()
    }
    fn record(&self) -> String {
        self.record.to_string()
    }
}

/// The game on a graph: the graph (shared, so that a session owns it) and the edges played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphGame {
    graph: Arc<Graph>,
    moves: Vec<usize>,
}

impl GraphGame {
    /// The start on `graph`, Cut first.
    pub fn new(graph: impl Into<Arc<Graph>>) -> Self {
        GraphGame {
            graph: graph.into(),
            moves: Vec::new(),
        }
    }

    /// The graph played on.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The game as [`switching`] plays it, replayed from the moves.
    pub fn as_play(&self) -> Play<'_> {
        let mut play = Play::new(&self.graph, Side::Cut);
        for &e in &self.moves {
            play.play(e).expect("moves are checked when played");
        }
        play
    }

    /// Edge `e`'s name in the file.
    pub fn edge_name(&self, e: usize) -> &str {
        &self.graph.edges()[e].name
    }
}

impl Game for GraphGame {
    type Move = usize;
    type Refusal = GraphMoveError;
    fn to_move(&self) -> Option<Side> {
        self.as_play().to_move()
    }
    fn winner(&self) -> Option<Side> {
        self.as_play().winner()
    }
    fn first(&self) -> Side {
        Side::Cut
    }
    fn moves(&self) -> Vec<usize> {
        self.moves.clone()
    }
    fn parse(&self, text: &str) -> Result<usize, GraphMoveError> {
        self.graph
            .find_edge(text)
            .ok_or_else(|| GraphMoveError::Unknown(text.to_string()))
    }
    fn play(&mut self, edge: usize) -> Result<(), GraphMoveError> {
        if edge >= self.graph.edges().len() {
            return Err(GraphMoveError::Unknown(edge.to_string()));
        }
        self.as_play().play(edge)?;
        self.moves.push(edge);
        Ok(())
    }
    fn truncate(&mut self, len: usize) {
        self.moves.truncate(len);
    }
    fn reply(&self, machine: &Machine) -> Result<Option<usize>, ReplyError> {
        let play = self.as_play();
        let Some(side) = play.to_move() else {
            return Ok(None);
        };
        // As on the cage: the heuristic, or the first winning move and once lost the
        // heuristic's move.
        let Machine::Player(opponent) = machine else {
            return Err(ReplyError::FirmwareOnGraph);
        };
        match opponent.reply_on_graph(&play)? {
            Some(edge) => Ok(Some(edge)),
            None => Err(ReplyError::NoMove { side }),
        }
    }
    fn hint(&self, you: Side, rival: Rival) -> Hint<usize> {
        let edges = self.graph.edges().len();
        hint(&self.as_play(), edges, you, rival, |_, e| {
            self.edge_name(e).to_string()
        })
    }
    fn name(&self, _side: Side, e: usize) -> String {
        self.edge_name(e).to_string()
    }
    fn record(&self) -> String {
        self.as_play().record()
    }
}

#[cfg(test)]
mod tests;
