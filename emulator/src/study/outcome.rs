//! Who wins a position under perfect play, for the outcome impact of a divergence.
//!
//! Studies take the winner as a function, so any solver can serve. [`Minimax`] is the plain
//! memoised game-tree search: exact for any size, practical for M ≤ 3.

use std::collections::HashMap;

use heuristic::{Position, Side};

/// Perfect-play winner of a position (`None` when the solver cannot tell).
pub type Winner<'a> = &'a (dyn Fn(&Position) -> Option<Side> + Sync);

/// Memoised minimax over the edge states.
#[derive(Debug, Default)]
pub struct Minimax {
    memo: HashMap<u64, Side>,
}

impl Minimax {
    /// An empty memo.
    pub fn new() -> Minimax {
        Minimax::default()
    }

    /// The perfect-play winner of `position`.
    ///
    /// ```
    /// use heuristic::{Position, Side, Size};
    /// let mut solver = emulator::study::outcome::Minimax::new();
    /// // Cut moving first wins the 2x2 cage? Whatever the answer, Short moving first on the
    /// // same board never does worse for Short.
    /// let m2 = Size::new(2).unwrap();
    /// let cut_first = solver.winner(&Position::new(m2, Side::Cut));
    /// let short_first = solver.winner(&Position::new(m2, Side::Short));
    /// assert!(!(cut_first == Side::Short && short_first == Side::Cut));
    /// ```
    pub fn winner(&mut self, position: &Position) -> Side {
        if let Some(w) = position.winner() {
            return w;
        }
        let Some(side) = position.to_move() else {
            unreachable!("a position without a winner has a side to move")
        };
        let key = super::positions::key(position);
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let edges: Vec<_> = position.resistors().collect();
        let mut result = side.opponent();
        for edge in edges {
            let mut child = position.clone();
            if child.play_edge(edge).is_ok() && self.winner(&child) == side {
                result = side;
                break;
            }
        }
        self.memo.insert(key, result);
        result
    }
}
