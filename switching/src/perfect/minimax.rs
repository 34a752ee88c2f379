//! Brute-force minimax with memoisation: the test oracle for the Lehman solver. Slow by
//! design (it tries every move), and independent of the matroid code.

use std::collections::HashMap;

use heuristic::{EdgeState, Position, Side};

use crate::play::Play;

/// Memoised perfect-play winners, keyed by edge states and the side to move.
#[derive(Debug, Default)]
pub struct Minimax {
    memo: HashMap<(u128, u128, bool), Side>,
}

impl Minimax {
    /// An empty table.
    pub fn new() -> Minimax {
        Minimax::default()
    }

    /// Who wins from `position` with perfect play.
    pub fn winner(&mut self, position: &Position) -> Side {
        if let Some(w) = position.winner() {
            return w;
        }
        let side = position.to_move().expect("not over");
        let (cut, short) = super::key(position);
        let k = (cut, short, side == Side::Cut);
        if let Some(&w) = self.memo.get(&k) {
            return w;
        }
        let mut result = side.opponent();
        for edge in position.resistors() {
            let mut child = position.clone();
            child.play_edge(edge).expect("a resistor is a legal move");
            if self.winner(&child) == side {
                result = side;
                break;
            }
        }
        self.memo.insert(k, result);
        result
    }

    /// Every move of the side to move whose result is a win for it, in reading order.
    pub fn winning_moves(&mut self, position: &Position) -> Vec<heuristic::Edge> {
        let Some(side) = position.to_move() else {
            return Vec::new();
        };
        position
            .resistors()
            .filter(|&edge| {
                let mut child = position.clone();
                child.play_edge(edge).expect("legal");
                self.winner(&child) == side
            })
            .collect()
    }
}

/// The same oracle on a graph of at most 128 edges.
#[derive(Debug, Default)]
pub struct GraphMinimax {
    memo: HashMap<(u128, u128, bool), Side>,
}

impl GraphMinimax {
    /// An empty table (for one graph: the key does not name it).
    pub fn new() -> GraphMinimax {
        GraphMinimax::default()
    }

    /// Who wins from `play` with perfect play.
    pub fn winner(&mut self, play: &Play<'_>) -> Side {
        if let Some(w) = play.winner() {
            return w;
        }
        let side = play.to_move().expect("not over");
        let mut cut = 0u128;
        let mut short = 0u128;
        for (i, &s) in play.states().iter().enumerate() {
            match s {
                EdgeState::Cut => cut |= 1 << i,
                EdgeState::Short => short |= 1 << i,
                EdgeState::Resistor => {}
            }
        }
        let k = (cut, short, side == Side::Cut);
        if let Some(&w) = self.memo.get(&k) {
            return w;
        }
        let mut result = side.opponent();
        for edge in play.resistors() {
            let mut child = play.clone();
            child.play(edge).expect("a resistor is a legal move");
            if self.winner(&child) == side {
                result = side;
                break;
            }
        }
        self.memo.insert(k, result);
        result
    }

    /// Every move of the side to move whose result is a win for it, in file order.
    pub fn winning_moves(&mut self, play: &Play<'_>) -> Vec<usize> {
        let Some(side) = play.to_move() else {
            return Vec::new();
        };
        play.resistors()
            .filter(|&edge| {
                let mut child = play.clone();
                child.play(edge).expect("legal");
                self.winner(&child) == side
            })
            .collect()
    }
}
