//! Perfect play: who wins the Shannon switching game from any position, and with which
//! moves, decided in polynomial time by Lehman's theorem and matroid partition.
//!
//! - [`graph`]: the reduced multigraph (wires contracted, cuts deleted);
//! - [`partition`]: two edge-disjoint forests grown by augmenting paths;
//! - `lehman`: the criterion and the verdicts for either side to move;
//! - [`minimax`]: a brute-force oracle that the tests check the criterion against.

pub mod graph;
mod lehman;
#[doc(hidden)]
pub mod minimax;
pub mod partition;

use heuristic::{Edge, Position, Side};

use lehman::Game;

/// What perfect play makes of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The side to move, `None` once the game is over.
    pub to_move: Option<Side>,
    /// The winner, if the game is over.
    pub winner: Option<Side>,
    /// Who wins from here when both sides play perfectly (the winner, if over).
    pub perfect_winner: Side,
    /// Every move that keeps a win for the side to move, in reading order; empty when
    /// that side loses against perfect play or the game is over.
    pub winning_moves: Vec<Edge>,
}

/// Who wins with perfect play from `position`, with its side to move.
///
/// ```
/// use heuristic::{Position, Side, Size};
/// let m3 = Size::new(3).unwrap();
/// // The first player wins the bird cage.
/// assert_eq!(emulator::perfect::winner(&Position::new(m3, Side::Cut)), Side::Cut);
/// assert_eq!(emulator::perfect::winner(&Position::new(m3, Side::Short)), Side::Short);
/// ```
pub fn winner(position: &Position) -> Side {
    match (position.winner(), position.to_move()) {
        (Some(w), _) => w,
        (None, Some(side)) => Game::new(position).winner(side),
        (None, None) => unreachable!("a game not over has a side to move"),
    }
}

/// Lehman's criterion alone: whether Short wins when Cut is to move here (two
/// edge-disjoint trees spanning a vertex set that holds both terminals). Whose turn it
/// really is does not matter; a finished game answers with its winner.
pub fn short_wins_second(position: &Position) -> bool {
    match position.winner() {
        Some(w) => w == Side::Short,
        None => Game::new(position).short_wins_second(),
    }
}

/// The full verdict: who wins and every winning move of the side to move.
///
/// ```
/// use heuristic::{Position, Side, Size};
/// let p = Position::from_record(Size::new(2).unwrap(), Side::Cut, "A3").unwrap();
/// let v = emulator::perfect::solve(&p);
/// assert_eq!(v.perfect_winner, Side::Cut);
/// assert!(v.winning_moves.is_empty()); // Short to move, and lost
/// ```
pub fn solve(position: &Position) -> Verdict {
    let to_move = position.to_move();
    let (perfect_winner, winning_moves) = match (position.winner(), to_move) {
        (Some(w), _) => (w, Vec::new()),
        (None, None) => unreachable!("a game not over has a side to move"),
        (None, Some(side)) => {
            let moves = Game::new(position).winning_moves(side, false);
            let w = if moves.is_empty() {
                side.opponent()
            } else {
                side
            };
            (w, moves)
        }
    };
    Verdict {
        to_move,
        winner: position.winner(),
        perfect_winner,
        winning_moves,
    }
}

/// One winning move for the side to move (the first in reading order), if it has any:
/// cheaper than [`solve`], which finds them all.
pub fn winning_move(position: &Position) -> Option<Edge> {
    let side = position.to_move()?;
    Game::new(position)
        .winning_moves(side, true)
        .into_iter()
        .next()
}

/// A compact key of a position's edge states: bit i of the first word for a cut of the
/// edge with reading-order index i, of the second for a short. With the side to move
/// (fixed by the counts once the first player is known) it identifies the position.
pub fn key(position: &Position) -> (u128, u128) {
    let mut cut = 0u128;
    let mut short = 0u128;
    for (i, &s) in position.states().iter().enumerate() {
        match s {
            heuristic::EdgeState::Cut => cut |= 1 << i,
            heuristic::EdgeState::Short => short |= 1 << i,
            heuristic::EdgeState::Resistor => {}
        }
    }
    (cut, short)
}
