//! A game in progress on the cage or on a graph, as the page shows it: the library's
//! session ([`emulator::session`]: the moves, the machine's replies, undo, the hint) with
//! edges named by index, and every resistor's exact drop. Every rule comes from `heuristic`
//! and `switching`, every reply from `emulator::players`, the hint from `emulator::hint`.

use emulator::hint::Hint;
use emulator::players::Opponent as Player;
use emulator::session::{CageGame, Game as _, GraphGame, Machine, Session};
use heuristic::{Edge, EdgeState, Model, Position, Record, Side, Size};
use num_rational::BigRational;
use switching::Graph;

use crate::settings::{Opponent, Settings};

/// The session on its board.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one value a page, moved only when a game starts: the cage's stack position stays as the firmware has it"
)]
enum Board {
    Cage(Session<CageGame>),
    Graph(Session<GraphGame>),
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
    opponent: Opponent,
    model: Model,
    board: Board,
    names: Vec<String>,
}

impl Game {
    /// A new game on the cage or on the graph the settings name, with the record replayed
    /// as far as it is legal: the message names the first move that is not.
    pub fn new(settings: &Settings) -> Result<(Game, Option<String>), String> {
        let machine = Machine::Player(match settings.opponent {
            Opponent::Heuristic => Player::Heuristic(settings.network),
            Opponent::Perfect => Player::Perfect,
        });
        let (board, names) = match &settings.graph {
            Some(text) => {
                let graph: Graph = text
                    .parse()
                    .map_err(|e: switching::ParseGraphError| format!("The graph file: {e}"))?;
                let names = graph.edges().iter().map(|e| e.name.clone()).collect();
                let session = Session::new(GraphGame::new(graph), settings.you, machine);
                (Board::Graph(session), names)
            }
            None => (
                Board::Cage(Session::new(
                    CageGame::new(settings.size),
                    settings.you,
                    machine,
                )),
                settings.size.edges().map(|e| e.to_string()).collect(),
            ),
        };
        let mut game = Game {
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
        match &self.board {
            Board::Cage(s) => s.you(),
            Board::Graph(s) => s.you(),
        }
    }

    /// The cage's size, or `None` on a graph.
    pub fn size(&self) -> Option<Size> {
        self.position().map(Position::size)
    }

    /// The graph, when the game is on one.
    pub fn graph(&self) -> Option<&Graph> {
        match &self.board {
            Board::Graph(s) => Some(s.game().graph()),
            Board::Cage(_) => None,
        }
    }

    /// The cage's position, when the game is on the cage.
    pub fn position(&self) -> Option<&Position> {
        match &self.board {
            Board::Cage(s) => Some(s.game().position()),
            Board::Graph(_) => None,
        }
    }

    /// The moves so far, as edge indices.
    pub fn moves(&self) -> Vec<usize> {
        match &self.board {
            Board::Cage(s) => {
                let size = s.game().position().size();
                s.game().moves().iter().map(|e| e.index(size)).collect()
            }
            Board::Graph(s) => s.game().moves(),
        }
    }

    /// The edges' names: A1 squares on the cage, the file's names on a graph.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Who played move `i` (Cut opens).
    pub fn side_of(&self, i: usize) -> Side {
        match &self.board {
            Board::Cage(s) => s.side_of(i),
            Board::Graph(s) => s.side_of(i),
        }
    }

    /// The cage's edge with index `e`.
    fn edge(size: Size, e: usize) -> Option<Edge> {
        size.edges().nth(e)
    }

    /// The name the record gives a move of `side` on edge `e` (on the cage, Short's in
    /// lower case).
    pub fn move_name(&self, side: Side, e: usize) -> String {
        match &self.board {
            Board::Cage(s) => {
                let edge = Game::edge(s.game().position().size(), e).expect("an edge of the board");
                s.name(side, edge)
            }
            Board::Graph(_) => self.names[e].clone(),
        }
    }

    /// The record so far in the project's notation (`A7,c5,C7`; names on a graph).
    pub fn record(&self) -> String {
        match &self.board {
            Board::Cage(s) => s.record(),
            Board::Graph(s) => s.record(),
        }
    }

    /// Each edge's state, by index.
    pub fn states(&self) -> Vec<EdgeState> {
        match &self.board {
            Board::Cage(s) => s.game().position().states().to_vec(),
            Board::Graph(s) => s.game().as_play().states().to_vec(),
        }
    }

    /// Whose turn it is; `None` once somebody has won.
    pub fn to_move(&self) -> Option<Side> {
        match &self.board {
            Board::Cage(s) => s.to_move(),
            Board::Graph(s) => s.to_move(),
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Side> {
        match &self.board {
            Board::Cage(s) => s.winner(),
            Board::Graph(s) => s.winner(),
        }
    }

    /// The result once the game is over: `Short has won: you win.`
    pub fn outcome(&self) -> Option<String> {
        match &self.board {
            Board::Cage(s) => s.outcome(),
            Board::Graph(s) => s.outcome(),
        }
    }

    /// Plays a move of the record for the side to move (the link's record).
    fn play_any(&mut self, text: &str) -> Result<(), String> {
        match &mut self.board {
            Board::Cage(s) => {
                // The record's case must match the side (as `birdcage analyze` reads it).
                let size = s.game().position().size();
                let side = s.to_move().ok_or("the game is over")?;
                let record = Record::read(size, side, text).map_err(|e| e.error.to_string())?;
                s.push(record.moves()[0].edge).map_err(|e| e.to_string())
            }
            Board::Graph(s) => {
                let e = s.game().parse(text).map_err(|e| e.to_string())?;
                s.push(e).map_err(|e| e.to_string())
            }
        }
    }

    /// Plays the person's move on the edge named `name`.
    pub fn play(&mut self, name: &str) -> Result<(), String> {
        match &mut self.board {
            Board::Cage(s) => s.play_named(name).map(drop).map_err(|e| e.to_string()),
            Board::Graph(s) => s.play_named(name).map(drop).map_err(|e| e.to_string()),
        }
    }

    /// The machine's move, played, if it is the machine's turn: the heuristic's (Cut cuts
    /// the largest drop, Short shorts it, ties in reading or file order) or the perfect
    /// player's, exactly as `birdcage next` and `birdcage play` answer. A graph past the
    /// solver's limits gets no move (the page says the machine has none).
    pub fn reply(&mut self) -> Option<usize> {
        match &mut self.board {
            Board::Cage(s) => {
                let size = s.game().position().size();
                s.reply().ok().flatten().map(|e| e.index(size))
            }
            Board::Graph(s) => s.reply().ok().flatten(),
        }
    }

    /// Takes back moves until it is the person's turn again, one of theirs at least.
    pub fn undo(&mut self) -> bool {
        match &mut self.board {
            Board::Cage(s) => s.undo(),
            Board::Graph(s) => s.undo(),
        }
    }

    /// Keeps the first `len` moves.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.board {
            Board::Cage(s) => s.truncate(len),
            Board::Graph(s) => s.truncate(len),
        }
    }

    /// The machine's last move: its index in the record and its edge.
    pub fn last_machine_move(&self) -> Option<(usize, usize)> {
        match &self.board {
            Board::Cage(s) => {
                let size = s.game().position().size();
                s.last_machine_move().map(|(i, e)| (i, e.index(size)))
            }
            Board::Graph(s) => s.last_machine_move(),
        }
    }

    /// The network the heuristic measures.
    pub fn model(&self) -> Model {
        self.model
    }

    /// Who the machine is, in words.
    pub fn machine(&self) -> String {
        match (self.opponent, self.you()) {
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
            Board::Cage(s) => {
                let position = s.game().position();
                let size = position.size();
                let report =
                    emulator::analysis::report(position, s.game().record_moves(), self.model);
                let mut drops = vec![None; size.edge_count()];
                for e in &report.edges {
                    if e.state == EdgeState::Resistor {
                        drops[e.edge.index(size)] = e.drop.clone();
                    }
                }
                let tied = report.tied.iter().map(|e| e.index(size)).collect();
                Drops { drops, tied }
            }
            Board::Graph(s) => {
                let play = s.game().as_play();
                let voltages = emulator::graphs::solve(&play, self.model);
                let drops = (0..play.graph().edges().len())
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

    /// The hint, as `birdcage play` gives it: the move it suggests (an edge index), its
    /// line and its reasons.
    pub fn hint(&self) -> Hint<usize> {
        match &self.board {
            Board::Cage(s) => {
                let size = s.game().position().size();
                let hint = s.hint();
                Hint {
                    mv: hint.mv.map(|e| e.index(size)),
                    line: hint.line,
                    why: hint.why,
                }
            }
            Board::Graph(s) => s.hint(),
        }
    }
}
