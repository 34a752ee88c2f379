//! The vertex-game solver: negamax over (Short's set, Cut's set), each position stored once.
//!
//! A position is a base-3 number over the play area (0 free, 1 Short's, 2 Cut's), so the memo
//! of a link with up to [`DENSE`] play vertices is a flat table of 3^k entries; larger ones use
//! a hash map. The game ends as soon as Short's vertices join the terminals or Cut's separate
//! them, and a move is only tried on a vertex that some still-open path passes through: a
//! vertex on no path between the terminals avoiding Cut's vertices changes nothing for
//! either side (claiming it is a pass, and passing never helps in this game).

use std::collections::HashMap;

use super::{Link, Set, Strength, bits, reach};

/// The most play vertices whose memo is a flat table (3^12 bytes = 531 kB).
pub const DENSE: usize = 12;

/// Each entry: bit 0 set when known with Short to move, bit 1 its value (Short wins);
/// bits 2 and 3 the same with Cut to move.
#[derive(Debug)]
enum Memo {
    Dense(Vec<u8>),
    Sparse(HashMap<u64, u8>),
}

impl Memo {
    fn get(&self, key: u64) -> u8 {
        match self {
            Memo::Dense(table) => table[key as usize],
            Memo::Sparse(map) => map.get(&key).copied().unwrap_or(0),
        }
    }

    fn set(&mut self, key: u64, bits: u8) {
        match self {
            Memo::Dense(table) => table[key as usize] |= bits,
            Memo::Sparse(map) => *map.entry(key).or_insert(0) |= bits,
        }
    }
}

/// A solver for one link; its memo serves every question asked of that link.
#[derive(Debug)]
pub struct Solver<'l> {
    link: &'l Link,
    /// 3^i for the i-th play vertex, by vertex (0 for the terminals).
    weight: Vec<u64>,
    memo: Memo,
}

impl<'l> Solver<'l> {
    /// A solver with an empty memo.
    pub fn new(link: &'l Link) -> Solver<'l> {
        let play = link.play_area();
        let mut weight = vec![0u64; link.vertices()];
        let mut w = 1u64;
        for (v, slot) in weight.iter_mut().enumerate() {
            if play >> v & 1 == 1 {
                *slot = w;
                w *= 3;
            }
        }
        let k = play.count_ones() as usize;
        let memo = if k <= DENSE {
            Memo::Dense(vec![0; w as usize])
        } else {
            Memo::Sparse(HashMap::new())
        };
        Solver { link, weight, memo }
    }

    /// Whether Short wins moving first (`true`) or second.
    pub fn short_wins(&mut self, short_first: bool) -> bool {
        let link = self.link;
        if link.joined(0) {
            return true;
        }
        if !link.joined(link.play_area()) {
            return false;
        }
        if short_first {
            self.wins(true, 0, 0, 0)
        } else {
            !self.wins(false, 0, 0, 0)
        }
    }

    /// Strong, weak or none.
    pub fn strength(&mut self) -> Strength {
        if self.short_wins(false) {
            Strength::Strong
        } else if self.short_wins(true) {
            Strength::Weak
        } else {
            Strength::None
        }
    }

    /// Short's winning first moves, in vertex order (none when the terminals start
    /// joined or separated: there is nothing to play for).
    pub fn winning_first_moves(&mut self) -> Vec<usize> {
        let link = self.link;
        if link.joined(0) || !link.joined(link.play_area()) {
            return Vec::new();
        }
        let play = link.play_area();
        (0..link.vertices())
            .filter(|&v| play >> v & 1 == 1)
            .filter(|&v| {
                let short = 1 << v;
                link.joined(short) || !self.wins(false, short, 0, self.weight[v])
            })
            .collect()
    }

    /// The free vertices worth a move: on some path between the terminals that avoids
    /// Cut's vertices.
    fn live(&self, short: Set, cut: Set) -> Set {
        let link = self.link;
        let open = link.all() & !cut;
        let [s, t] = link.terminals();
        let from_s = reach(link.adjacency(), s, open);
        let from_t = reach(link.adjacency(), t, open);
        // A superset of the vertices on simple open paths, cheap to find: the terminals'
        // open component with dead ends (fewer than two neighbours left) trimmed
        // repeatedly. Extra vertices in it are passes, which never beat the best move.
        let mut alive = from_s & from_t;
        loop {
            let mut trimmed = alive;
            let mut rest = alive & !(1 << s) & !(1 << t);
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if (link.neighbours(v) & alive).count_ones() < 2 {
                    trimmed &= !(1 << v);
                }
            }
            if trimmed == alive {
                break;
            }
            alive = trimmed;
        }
        alive & link.play_area() & !short & !cut
    }

    /// Whether the side to move (Short when `short_to_move`) wins from (short, cut);
    /// neither side has won yet.
    ///
    /// Before searching, each side's immediate wins: a free vertex joining Short's component
    /// of one terminal to his component of the other, and a free vertex on every open path
    /// (Cut taking it separates the terminals). The side to move wins at once if it has one.
    /// Otherwise the opponent's immediate wins are threats, and neither side's moves change
    /// them (Short's depend on Short's vertices only, Cut's on Cut's only): with two threats
    /// the mover loses whatever he does, with one he must take it, since any other move lets
    /// the opponent win next. So only that move is searched. The value is the same as
    /// searching every move; only the work differs (the must-play rule of Hex solvers).
    fn wins(&mut self, short_to_move: bool, short: Set, cut: Set, key: u64) -> bool {
        let (known_bit, value_bit) = if short_to_move { (1, 2) } else { (4, 8) };
        let known = self.memo.get(key);
        if known & known_bit != 0 {
            return known & value_bit != 0;
        }
        let link = self.link;
        let moves = self.live(short, cut);
        let short_now = self.short_wins_now(short, moves);
        let cut_now = || {
            let open = link.play_area() & !cut;
            bits(moves)
                .filter(|&v| !link.joined(open & !(1 << v)))
                .fold(0 as Set, |m, v| m | 1 << v)
        };
        let (mine, threats) = if short_to_move {
            (short_now, if short_now == 0 { cut_now() } else { 0 })
        } else {
            let c = cut_now();
            (c, if c == 0 { short_now } else { 0 })
        };
        let mut wins = mine != 0;
        if !wins {
            let mut candidates = match threats.count_ones() {
                0 => moves,
                1 => threats,
                _ => 0,
            };
            while candidates != 0 {
                let v = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                wins = if short_to_move {
                    !self.wins(false, short | 1 << v, cut, key + self.weight[v])
                } else {
                    !self.wins(true, short, cut | 1 << v, key + 2 * self.weight[v])
                };
                if wins {
                    break;
                }
            }
        }
        self.memo
            .set(key, known_bit | if wins { value_bit } else { 0 });
        wins
    }

    /// The vertices of `moves` whose shorting joins the terminals: those next to both
    /// terminals' components through Short's vertices (the terminals not yet joined).
    fn short_wins_now(&self, short: Set, moves: Set) -> Set {
        let link = self.link;
        let adjacency = link.adjacency();
        let [s, t] = link.terminals();
        let around = |from: usize| {
            bits(reach(adjacency, from, short)).fold(0 as Set, |m, v| m | adjacency[v])
        };
        moves & around(s) & around(t)
    }
}
