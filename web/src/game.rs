//! A game in progress on the cage or on a graph: the moves, the machine's replies, undo,
//! the hint, and every resistor's exact drop. Every rule comes from `heuristic` and
//! `switching`, every reply from `emulator::players`, the hint from `emulator::hint`.

use emulator::hint::{Rival, hint};
use emulator::players::Opponent as Player;
use heuristic::{Edge, EdgeState, Model, Move, Position, Record, Side, Size};
use num_rational::BigRational;
use switching::{Graph, Play};

use crate::settings::{Opponent, Settings};

/// The board and the moves on it.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one value a page, moved only when a game starts: the cage's stack position stays as the firmware has it"
)]
enum Board {
    Cage {
        record: Record,
        position: Position,
    },
    Graph {
        graph: Box<Graph>,
        moves: Vec<usize>,
    },
}

/// Every resistor's drop and the heuristic's tied set in one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drops {
    /// By edge index: the exact drop (a share of the supply) of each resistor.
    pub drops: Vec<Option<BigRational>>,
    /// The resistors whose drop is exactly the largest, tie order first.
    pub tied: Vec<usize>,
}

/// One game.
#[derive(Clone, Debug)]
pub struct Game {
    you: Side,
    opponent: Opponent,
    model: Model,
    board: Board,
    names: Vec<String>,
}

impl Game {
    /// A new game on the cage or on the graph the settings name, with the record replayed
    /// as far as it is legal: the message names the first move that is not.
    pub fn new(settings: &Settings) -> Result<(Game, Option<String>), String> {
        let (board, names) = match &settings.graph {
            Some(text) => {
                let graph: Graph = text
                    .parse()
                    .map_err(|e: switching::ParseGraphError| format!("The graph file: {e}"))?;
                let names = graph.edges().iter().map(|e| e.name.clone()).collect();
                (
                    Board::Graph {
                        graph: Box::new(graph),
                        moves: Vec::new(),
                    },
                    names,
                )
            }
            None => (
                Board::Cage {
                    record: Record::new(Side::Cut),
                    position: Position::new(settings.size, Side::Cut),
                },
                settings.size.edges().map(|e| e.to_string()).collect(),
            ),
        };
        let mut game = Game {
            you: settings.you,
            opponent: settings.opponent,
            model: settings.network,
            board,
            names,
        };
        let mut problem = None;
        let tokens = settings.moves.split(',').map(str::trim);
        for (number, token) in tokens.filter(|t| !t.is_empty()).enumerate() {
            if let Err(e) = game.play_any(token) {
                problem = Some(format!(
                    "The record in the link: move {} {}: {e}. The game goes on from the \
                     moves before it.",
                    number + 1,
                    heuristic::Echo(token)
                ));
                break;
            }
        }
        Ok((game, problem))
    }

    /// The person's side.
    pub fn you(&self) -> Side {
        self.you
    }

    /// The cage's size, or `None` on a graph.
    pub fn size(&self) -> Option<Size> {
        match &self.board {
            Board::Cage { position, .. } => Some(position.size()),
            Board::Graph { .. } => None,
        }
    }

    /// The graph, when the game is on one.
    pub fn graph(&self) -> Option<&Graph> {
        match &self.board {
            Board::Graph { graph, .. } => Some(graph),
            Board::Cage { .. } => None,
        }
    }

    /// The cage's position, when the game is on the cage.
    pub fn position(&self) -> Option<&Position> {
        match &self.board {
            Board::Cage { position, .. } => Some(position),
            Board::Graph { .. } => None,
        }
    }

    /// The moves so far, as edge indices.
    pub fn moves(&self) -> Vec<usize> {
        match &self.board {
            Board::Cage { record, position } => {
                let size = position.size();
                record.moves().iter().map(|m| m.edge.index(size)).collect()
            }
            Board::Graph { moves, .. } => moves.clone(),
        }
    }

    /// The edges' names: A1 squares on the cage, the file's names on a graph.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Who played move `i` (Cut opens).
    pub fn side_of(i: usize) -> Side {
        if i.is_multiple_of(2) {
            Side::Cut
        } else {
            Side::Short
        }
    }

    /// The name the record gives a move of `side` on edge `e` (on the cage, Short's in
    /// lower case).
    pub fn move_name(&self, side: Side, e: usize) -> String {
        match &self.board {
            Board::Cage { position, .. } => {
                let edge = position
                    .size()
                    .edges()
                    .nth(e)
                    .expect("an edge of the board");
                Move { side, edge }.to_string()
            }
            Board::Graph { .. } => self.names[e].clone(),
        }
    }

    /// The record so far in the project's notation (`A7,c5,C7`; names on a graph).
    pub fn record(&self) -> String {
        match &self.board {
            Board::Cage { record, .. } => record.to_string(),
            Board::Graph { graph, moves } => moves
                .iter()
                .map(|&e| graph.edges()[e].name.as_str())
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// Each edge's state, by index.
    pub fn states(&self) -> Vec<EdgeState> {
        self.with_play(|p| p.states().to_vec(), |p| p.states().to_vec())
    }

    /// Whose turn it is; `None` once somebody has won.
    pub fn to_move(&self) -> Option<Side> {
        self.with_play(|p| p.to_move(), |p| p.to_move())
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Side> {
        self.with_play(|p| p.winner(), |p| p.winner())
    }

    fn with_play<T>(&self, cage: impl Fn(&Position) -> T, graph: impl Fn(&Play) -> T) -> T {
        match &self.board {
            Board::Cage { position, .. } => cage(position),
            Board::Graph { graph: g, moves } => graph(&replay(g, moves)),
        }
    }

    /// The edge named `name` (either case on the cage; exactly or in any case on a graph).
    pub fn edge_named(&self, name: &str) -> Result<usize, String> {
        match &self.board {
            Board::Cage { position, .. } => {
                let size = position.size();
                Edge::parse(size, name)
                    .map(|e| e.index(size))
                    .map_err(|e| e.to_string())
            }
            Board::Graph { graph, .. } => graph
                .find_edge(name)
                .ok_or_else(|| switching::GraphMoveError::Unknown(name.to_string()).to_string()),
        }
    }

    /// Plays edge `e` for the side to move, whoever it is; the rules' message if illegal.
    fn play_index(&mut self, e: usize) -> Result<(), String> {
        match &mut self.board {
            Board::Cage { record, position } => {
                let edge = position.size().edges().nth(e).ok_or("no such edge")?;
                let side = position.to_move().ok_or("the game is over")?;
                let mv = Move { side, edge };
                position.play(mv).map_err(|e| e.to_string())?;
                record.push(mv).map_err(|e| e.to_string())
            }
            Board::Graph { graph, moves } => {
                let mut play = replay(graph, moves);
                play.play(e).map_err(|e| e.to_string())?;
                moves.push(e);
                Ok(())
            }
        }
    }

    /// Plays a move of the record for the side to move (the link's record).
    fn play_any(&mut self, text: &str) -> Result<(), String> {
        if let Board::Cage { position, .. } = &self.board {
            // The record's case must match the side (as `birdcage analyze` reads it).
            let size = position.size();
            let side = position.to_move().ok_or("the game is over")?;
            let record = Record::read(size, side, text).map_err(|e| e.error.to_string())?;
            let mv = record.moves()[0];
            return self.play_index(mv.edge.index(size));
        }
        let e = self.edge_named(text)?;
        self.play_index(e)
    }

    /// Plays the person's move on the edge named `name`.
    pub fn play(&mut self, name: &str) -> Result<(), String> {
        match self.to_move() {
            None => return Err("the game is over".to_string()),
            Some(side) if side != self.you => return Err(format!("it is {side}'s turn")),
            Some(_) => {}
        }
        let e = self.edge_named(name)?;
        self.play_index(e)
    }

    /// The machine's move, played, if it is the machine's turn: the heuristic's (Cut cuts
    /// the largest drop, Short shorts it, ties in reading or file order) or the perfect
    /// player's, exactly as `birdcage next` and `birdcage play` answer.
    pub fn reply(&mut self) -> Option<usize> {
        self.to_move().filter(|&s| s != self.you)?;
        let player = match self.opponent {
            Opponent::Heuristic => Player::Heuristic(self.model),
            Opponent::Perfect => Player::Perfect,
        };
        let e = match &self.board {
            Board::Cage { position, .. } => {
                let size = position.size();
                player.reply(position).map(|edge| edge.index(size))
            }
            // A graph past the solver's limits gets no move (the page says the machine has none).
            Board::Graph { graph, moves } => {
                player.reply_on_graph(&replay(graph, moves)).ok().flatten()
            }
        }?;
        self.play_index(e).ok()?;
        Some(e)
    }

    /// Takes back moves until it is the person's turn again, one of theirs at least.
    pub fn undo(&mut self) -> bool {
        let moves = self.moves();
        let Some(last_own) = (0..moves.len())
            .rev()
            .find(|&i| Game::side_of(i) == self.you)
        else {
            return false;
        };
        self.truncate(last_own);
        true
    }

    /// Keeps the first `len` moves.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.board {
            Board::Cage { record, position } => {
                record.truncate(len);
                *position = record
                    .replay(position.size())
                    .expect("a prefix of a legal game is legal");
            }
            Board::Graph { moves, .. } => moves.truncate(len),
        }
    }

    /// The machine's last move: its index in the record and its edge.
    pub fn last_machine_move(&self) -> Option<(usize, usize)> {
        let moves = self.moves();
        (0..moves.len())
            .rev()
            .find(|&i| Game::side_of(i) != self.you)
            .map(|i| (i, moves[i]))
    }

    /// The network the heuristic measures.
    pub fn model(&self) -> Model {
        self.model
    }

    /// Who the machine is, in words.
    pub fn machine(&self) -> String {
        match (self.opponent, self.you) {
            (Opponent::Perfect, _) => "the perfect player (Lehman's theorem)".to_string(),
            (Opponent::Heuristic, Side::Short) => format!(
                "Shannon's machine (Cut: it cuts the resistor with the largest current; {} \
                 network)",
                self.model
            ),
            (Opponent::Heuristic, Side::Cut) => format!(
                "Bridj-It 2.0's machine (Short: it shorts the resistor with the largest drop; \
                 {} network)",
                self.model
            ),
        }
    }

    /// Whether the machine is the heuristic.
    pub fn machine_is_heuristic(&self) -> bool {
        self.opponent == Opponent::Heuristic
    }

    /// Every resistor's exact drop after the first `plies` moves, and the tied set.
    pub fn drops_after(&self, plies: usize) -> Drops {
        let mut earlier = self.clone();
        earlier.truncate(plies);
        earlier.drops()
    }

    /// Every resistor's exact drop now, and the heuristic's tied set.
    pub fn drops(&self) -> Drops {
        match &self.board {
            Board::Cage { record, position } => {
                let size = position.size();
                let report = emulator::analysis::report(position, record, self.model);
                let mut drops = vec![None; size.edge_count()];
                for e in &report.edges {
                    if e.state == EdgeState::Resistor {
                        drops[e.edge.index(size)] = e.drop.clone();
                    }
                }
                let tied = report.tied.iter().map(|e| e.index(size)).collect();
                Drops { drops, tied }
            }
            Board::Graph { graph, moves } => {
                let play = replay(graph, moves);
                let voltages = emulator::graphs::solve(&play, self.model);
                let drops = (0..graph.edges().len())
                    .map(|e| {
                        (play.states()[e] == EdgeState::Resistor)
                            .then(|| voltages.drop(e))
                            .flatten()
                    })
                    .collect();
                let tied = emulator::graphs::heuristic_moves(&play, self.model);
                Drops { drops, tied }
            }
        }
    }

    /// The hint, as `birdcage play` gives it: the move it suggests (an edge index) and its
    /// line.
    pub fn hint(&self) -> (Option<usize>, String) {
        let rival = match self.opponent {
            Opponent::Heuristic => Rival::Heuristic(self.model),
            Opponent::Perfect => Rival::Perfect,
        };
        match &self.board {
            Board::Cage { position, .. } => {
                let size = position.size();
                let (edge, line) = hint(position, size.edge_count(), self.you, rival, |s, e| {
                    Move { side: s, edge: e }.to_string()
                });
                (edge.map(|e| e.index(size)), line)
            }
            Board::Graph { graph, moves } => {
                let play = replay(graph, moves);
                hint(&play, graph.edges().len(), self.you, rival, |_, e| {
                    graph.edges()[e].name.clone()
                })
            }
        }
    }
}

/// The game on a graph after `moves` (legal: they were checked when played).
fn replay<'g>(graph: &'g Graph, moves: &[usize]) -> Play<'g> {
    let mut play = Play::new(graph, Side::Cut);
    for &e in moves {
        play.play(e).expect("moves are checked when played");
    }
    play
}
