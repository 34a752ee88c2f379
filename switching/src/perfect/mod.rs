//! Perfect play: who wins the Shannon switching game from any position, on the bird cage
//! or on any graph, and with which moves, decided in polynomial time by Lehman's theorem
//! and matroid partition.
//!
//! - [`reduced`]: the reduced multigraph (wires contracted, cuts deleted);
//! - [`partition`]: two edge-disjoint forests grown by augmenting paths;
//! - `lehman`: the criterion and the verdicts for either side to move;
//! - [`minimax`]: brute-force oracles that the tests check the criterion against.
//!
//! Every function takes a [`Solvable`]: a cage [`Position`] (moves are [`Edge`]s) or a
//! [`Play`] on a graph (moves are edge indices in file order).

mod lehman;
#[doc(hidden)]
pub mod minimax;
pub mod partition;
pub mod reduced;

use heuristic::{Edge, EdgeState, Node, Position, Side};

use crate::play::Play;
use lehman::Game;
pub use reduced::Reduced;

/// A position the solver can read: its edges' ends and states, whose turn, who has won.
pub trait Solvable {
    /// How a move is named: an [`Edge`] on the cage, an edge index on a graph.
    type Move: Copy + PartialEq + core::fmt::Debug;
    /// The side to move, `None` once over.
    fn to_move(&self) -> Option<Side>;
    /// The winner, once there is one.
    fn winner(&self) -> Option<Side>;
    /// The reduced multigraph of the position.
    fn reduced(&self) -> Reduced;
    /// The move that plays edge `index` (in board order).
    fn move_of(&self, index: usize) -> Self::Move;
}

impl Solvable for Position {
    type Move = Edge;
    fn to_move(&self) -> Option<Side> {
        Position::to_move(self)
    }
    fn winner(&self) -> Option<Side> {
        Position::winner(self)
    }
    fn reduced(&self) -> Reduced {
        let size = self.size();
        let edges = self
            .states()
            .iter()
            .enumerate()
            .map(move |(i, &s)| (<[usize; 2]>::from(size.edge_ends(i)), s));
        Reduced::new(
            size.node_count(),
            [Node::Top.index(size), Node::Bottom.index(size)],
            edges,
        )
    }
    fn move_of(&self, index: usize) -> Edge {
        self.size()
            .edges()
            .nth(index)
            .expect("an edge index of this size")
    }
}

impl Solvable for Play<'_> {
    type Move = usize;
    fn to_move(&self) -> Option<Side> {
        Play::to_move(self)
    }
    fn winner(&self) -> Option<Side> {
        Play::winner(self)
    }
    fn reduced(&self) -> Reduced {
        let graph = self.graph();
        let edges = graph
            .edges()
            .iter()
            .zip(self.states())
            .map(|(e, &s)| (e.ends, s));
        Reduced::new(graph.vertices().len(), graph.terminals(), edges)
    }
    fn move_of(&self, index: usize) -> usize {
        index
    }
}

/// What perfect play makes of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict<M = Edge> {
    /// The side to move, `None` once the game is over.
    pub to_move: Option<Side>,
    /// The winner, if the game is over.
    pub winner: Option<Side>,
    /// Who wins from here when both sides play perfectly (the winner, if over).
    pub perfect_winner: Side,
    /// Every move that keeps a win for the side to move, in board order (reading order on
    /// the cage, file order on a graph); empty when that side loses against perfect play
    /// or the game is over.
    pub winning_moves: Vec<M>,
}

/// Who wins with perfect play from `position`, with its side to move.
///
/// ```
/// use heuristic::{Position, Side, Size};
/// let m3 = Size::new(3).unwrap();
/// // The first player wins the bird cage.
/// assert_eq!(switching::perfect::winner(&Position::new(m3, Side::Cut)), Side::Cut);
/// assert_eq!(switching::perfect::winner(&Position::new(m3, Side::Short)), Side::Short);
/// ```
pub fn winner<B: Solvable>(position: &B) -> Side {
    match (position.winner(), position.to_move()) {
        (Some(w), _) => w,
        (None, Some(side)) => Game::new(position.reduced()).winner(side),
        (None, None) => unreachable!("a game not over has a side to move"),
    }
}

/// Lehman's criterion alone: whether Short wins when Cut is to move here (two
/// edge-disjoint trees spanning a vertex set that holds both terminals). Whose turn it
/// really is does not matter; a finished game answers with its winner.
pub fn short_wins_second<B: Solvable>(position: &B) -> bool {
    match position.winner() {
        Some(w) => w == Side::Short,
        None => Game::new(position.reduced()).short_wins_second(),
    }
}

/// The full verdict: who wins and every winning move of the side to move.
///
/// ```
/// use heuristic::{Position, Side, Size};
/// let p = Position::from_record(Size::new(2).unwrap(), Side::Cut, "A3").unwrap();
/// let v = switching::perfect::solve(&p);
/// assert_eq!(v.perfect_winner, Side::Cut);
/// assert!(v.winning_moves.is_empty()); // Short to move, and lost
/// ```
pub fn solve<B: Solvable>(position: &B) -> Verdict<B::Move> {
    let to_move = position.to_move();
    let (perfect_winner, winning_moves) = match (position.winner(), to_move) {
        (Some(w), _) => (w, Vec::new()),
        (None, None) => unreachable!("a game not over has a side to move"),
        (None, Some(side)) => {
            let moves = Game::new(position.reduced()).winning_moves(side, false);
            let w = if moves.is_empty() {
                side.opponent()
            } else {
                side
            };
            (w, moves.into_iter().map(|i| position.move_of(i)).collect())
        }
    };
    Verdict {
        to_move,
        winner: position.winner(),
        perfect_winner,
        winning_moves,
    }
}

/// One winning move for the side to move (the first in board order), if it has any:
/// cheaper than [`solve`], which finds them all.
pub fn winning_move<B: Solvable>(position: &B) -> Option<B::Move> {
    let side = position.to_move()?;
    if position.winner().is_some() {
        return None;
    }
    Game::new(position.reduced())
        .winning_moves(side, true)
        .into_iter()
        .next()
        .map(|i| position.move_of(i))
}

/// A compact key of a position's edge states: bit i of the first word for a cut of the
/// edge with reading-order index i, of the second for a short. With the side to move
/// (fixed by the counts once the first player is known) it identifies the position.
pub fn key(position: &Position) -> (u128, u128) {
    let mut cut = 0u128;
    let mut short = 0u128;
    for (i, &s) in position.states().iter().enumerate() {
        match s {
            EdgeState::Cut => cut |= 1 << i,
            EdgeState::Short => short |= 1 << i,
            EdgeState::Resistor => {}
        }
    }
    (cut, short)
}
