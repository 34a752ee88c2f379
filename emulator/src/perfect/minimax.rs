//! Brute-force minimax with memoisation: the test oracle for the Lehman solver. Slow by
//! design (it tries every move), and independent of the matroid code.

use std::collections::HashMap;

use heuristic::{Position, Side};

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
