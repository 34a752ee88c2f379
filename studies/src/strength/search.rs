//! One start position's search: does the heuristic keep its win against a perfect,
//! adversarial opponent? Memoised; stops at the first heuristic move that is not a
//! perfect-play winning move (it already loses).

use std::collections::HashMap;

use heuristic::{EdgeState, Side};
use switching::{Graph, Play, perfect};

/// The heuristic: the move (an edge index in file order) the side to move plays.
pub type Heuristic<'a> = &'a (dyn Fn(&Play<'_>) -> Option<usize> + Sync);

/// What the search found for one start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The heuristic's side, to move, loses with perfect play: nothing to keep.
    NotWinning,
    /// Every line ends in the heuristic's win.
    Kept,
    /// Some line loses: the whole game, heuristic's moves and the opponent's, edge indices.
    Lost(Vec<usize>),
    /// The search gave up after `budget` positions.
    Unfinished,
}

/// Memoised search of one start position.
struct Search<'h, 'g> {
    graph: &'g Graph,
    side: Side,
    heuristic: &'h (dyn Fn(&Play<'_>) -> Option<usize> + Sync),
    memo: HashMap<Vec<EdgeState>, bool>,
    budget: usize,
}

/// Marks a search that ran out of positions.
struct OutOfBudget;

impl Search<'_, '_> {
    /// Whether the heuristic's side keeps its win from `play` (whoever is to move).
    fn keeps(&mut self, play: &Play<'_>) -> Result<bool, OutOfBudget> {
        if let Some(w) = play.winner() {
            return Ok(w == self.side);
        }
        if let Some(&k) = self.memo.get(play.states()) {
            return Ok(k);
        }
        if self.memo.len() >= self.budget {
            return Err(OutOfBudget);
        }
        let result = if play.to_move() == Some(self.side) {
            match (self.heuristic)(play) {
                None => false,
                Some(m) => {
                    let mut child = play.clone();
                    if child.play(m).is_err() || perfect::winner(&child) != self.side {
                        false
                    } else {
                        self.keeps(&child)?
                    }
                }
            }
        } else {
            let mut all = true;
            for r in play.resistors() {
                let mut child = play.clone();
                child.play(r).expect("a resistor is a legal move");
                if !self.keeps(&child)? {
                    all = false;
                    break;
                }
            }
            all
        };
        self.memo.insert(play.states().to_vec(), result);
        Ok(result)
    }

    /// The line that loses from `play` (where `keeps` answered false): the opponent's
    /// refutations, then after the heuristic's mistake perfect play for the opponent.
    fn losing_line(&mut self, mut play: Play<'_>) -> Vec<usize> {
        let mut mistake = false;
        while let Some(side) = play.to_move() {
            let mv = if side == self.side {
                let Some(m) = (self.heuristic)(&play) else {
                    break;
                };
                let mut child = play.clone();
                if child.play(m).is_ok() && perfect::winner(&child) != self.side {
                    mistake = true;
                }
                m
            } else if mistake {
                perfect::winning_move(&play).expect("the opponent wins after the mistake")
            } else {
                play.resistors()
                    .find(|&r| {
                        let mut child = play.clone();
                        child.play(r).is_ok() && !matches!(self.keeps(&child), Ok(true))
                    })
                    .expect("a refutation of a lost position")
            };
            if play.play(mv).is_err() {
                break;
            }
        }
        play.moves().to_vec()
    }
}

/// Whether `heuristic`, playing `side` and moving first on `graph`, keeps a perfect-play win
/// against every defence; gives up after `budget` distinct positions.
pub fn keeps_win(graph: &Graph, side: Side, heuristic: Heuristic<'_>, budget: usize) -> Outcome {
    let start = Play::new(graph, side);
    if perfect::winner(&start) != side {
        return Outcome::NotWinning;
    }
    let mut search = Search {
        graph,
        side,
        heuristic,
        memo: HashMap::new(),
        budget,
    };
    match search.keeps(&start) {
        Err(OutOfBudget) => Outcome::Unfinished,
        Ok(true) => Outcome::Kept,
        Ok(false) => {
            search.budget = usize::MAX;
            let line = search.losing_line(start);
            debug_assert!(search.graph.edges().len() >= line.len());
            Outcome::Lost(line)
        }
    }
}
