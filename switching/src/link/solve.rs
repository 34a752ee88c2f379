//! The vertex-game solver: negamax over (Short's set, Cut's set), each position stored once.
//!
//! A position is a base-3 number over the play area (0 free, 1 Short's, 2 Cut's), so the memo
//! of a link with up to [`DENSE`] play vertices is a flat table of 3^k entries; larger ones use
//! a hash map. The game ends as soon as Short's vertices join the terminals or Cut's separate
//! them, and a move is only tried on a vertex that some still-open path passes through: a
//! vertex on no path between the terminals avoiding Cut's vertices changes nothing for
//! either side (claiming it is a pass, and passing never helps in this game).
//!
//! What makes it fast (N = 12's sparse parts solve millions of terminal pairs; on part
//! 2560/4096 a pair's strength took 100 µs before these, 4 µs after): moves tried most
//! promising first (next to Short's side of a terminal, then by neighbours in play), so a
//! refutation usually comes first; the live vertices and Cut's immediate wins depend on
//! Cut's set alone, and the sides of the terminals on Short's alone, so each is worked out
//! once per set, not once per position; and the solver's tables come from a per-thread pool
//! instead of being zeroed for every link. None of it changes a value: only which positions
//! are visited, and in what order.

use std::collections::HashMap;

use super::{Link, Set, Strength, bits, reach};

/// The most play vertices whose memo is a flat table (3^12 bytes = 531 kB).
pub const DENSE: usize = 12;

/// Each entry: bit 0 set when known with Short to move, bit 1 its value (Short wins);
/// bits 2 and 3 the same with Cut to move.
///
/// A dense table comes from the thread's pool and goes back to it with the entries it set
/// cleared: a minimality check makes one solver per edge, each visiting a few hundred of the
/// 3^k entries, so zeroing a fresh table each time cost more than the search.
#[derive(Debug)]
enum Memo {
    Dense { table: Vec<u8>, touched: Vec<u32> },
    Sparse(HashMap<u64, u8>),
}

thread_local! {
    /// Cleared dense tables, ready for the thread's next solver.
    static TABLES: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Memo {
    fn dense(entries: usize) -> Memo {
        let mut table = TABLES
            .with(|pool| pool.borrow_mut().pop())
            .unwrap_or_default();
        if table.len() < entries {
            table.resize(entries, 0);
        }
        Memo::Dense {
            table,
            touched: Vec::new(),
        }
    }

    fn get(&self, key: u64) -> u8 {
        match self {
            Memo::Dense { table, .. } => table[key as usize],
            Memo::Sparse(map) => map.get(&key).copied().unwrap_or(0),
        }
    }

    fn set(&mut self, key: u64, bits: u8) {
        match self {
            Memo::Dense { table, touched } => {
                let entry = &mut table[key as usize];
                if *entry == 0 {
                    touched.push(key as u32);
                }
                *entry |= bits;
            }
            Memo::Sparse(map) => *map.entry(key).or_insert(0) |= bits,
        }
    }
}

impl Drop for Memo {
    fn drop(&mut self) {
        if let Memo::Dense { table, touched } = self {
            for &key in touched.iter() {
                table[key as usize] = 0;
            }
            let table = std::mem::take(table);
            TABLES.with(|pool| pool.borrow_mut().push(table));
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
    facts: Facts,
    /// Bit of each play vertex in [`Solver::packed`] (0 for the terminals).
    index: [u32; 32],
}

/// Per Cut set, worked out once for the solver: (stamp, live vertices, separating vertices).
/// Entries are valid when their stamp is the table's, so a table from the thread's pool
/// needs no clearing between solvers.
#[derive(Debug)]
struct Facts {
    /// 0: no table (play areas past [`DENSE`]).
    stamp: u32,
    by_cut: Vec<(u32, Set, Set)>,
    /// Per Short set: (stamp, vertices next to the first terminal's side, to the second's).
    by_short: Vec<(u32, Set, Set)>,
}

/// A facts table: the stamp it last used, by Cut set, by Short set.
type FactsTable = (u32, Vec<(u32, Set, Set)>, Vec<(u32, Set, Set)>);

thread_local! {
    /// The thread's facts table and the last stamp it used.
    static FACTS: std::cell::RefCell<Option<FactsTable>> = const { std::cell::RefCell::new(None) };
}

impl Facts {
    fn none() -> Facts {
        Facts {
            stamp: 0,
            by_cut: Vec::new(),
            by_short: Vec::new(),
        }
    }

    fn new(entries: usize) -> Facts {
        let (last, mut by_cut, mut by_short) = FACTS
            .with(|pool| pool.borrow_mut().take())
            .unwrap_or((0, Vec::new(), Vec::new()));
        let mut stamp = last.wrapping_add(1);
        if stamp == 0 {
            by_cut.clear();
            by_short.clear();
            stamp = 1;
        }
        for table in [&mut by_cut, &mut by_short] {
            if table.len() < entries {
                table.resize(entries, (0, 0, 0));
            }
        }
        Facts {
            stamp,
            by_cut,
            by_short,
        }
    }
}

impl Drop for Facts {
    fn drop(&mut self) {
        if self.stamp != 0 {
            let by_cut = std::mem::take(&mut self.by_cut);
            let by_short = std::mem::take(&mut self.by_short);
            FACTS.with(|pool| *pool.borrow_mut() = Some((self.stamp, by_cut, by_short)));
        }
    }
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
            Memo::dense(w as usize)
        } else {
            Memo::Sparse(HashMap::new())
        };
        let facts = if k <= DENSE {
            Facts::new(1 << k)
        } else {
            Facts::none()
        };
        let mut index = [0u32; 32];
        for (i, v) in bits(play).enumerate() {
            index[v] = 1 << i;
        }
        Solver {
            link,
            weight,
            memo,
            facts,
            index,
        }
    }

    /// A set of play vertices as a number below 2^k (bit i for the i-th play vertex).
    fn packed(&self, set: Set) -> usize {
        bits(set).fold(0, |m, v| m | self.index[v]) as usize
    }

    /// What a position's Short vertices decide: the vertices next to the side of each
    /// terminal (its component through Short's vertices), worked out once per Short set.
    fn short_facts(&mut self, short: Set) -> (Set, Set) {
        let slot = (self.facts.stamp != 0).then(|| self.packed(short));
        if let Some(i) = slot
            && self.facts.by_short[i].0 == self.facts.stamp
        {
            let (_, near_s, near_t) = self.facts.by_short[i];
            return (near_s, near_t);
        }
        let adjacency = self.link.adjacency();
        let [s, t] = self.link.terminals();
        let neighbours_of = |set: Set| bits(set).fold(0 as Set, |m, v| m | adjacency[v]);
        let near_s = neighbours_of(reach(adjacency, s, short));
        let near_t = neighbours_of(reach(adjacency, t, short));
        if let Some(i) = slot {
            self.facts.by_short[i] = (self.facts.stamp, near_s, near_t);
        }
        (near_s, near_t)
    }

    /// What a position's Cut vertices decide: the live vertices and Cut's immediate wins
    /// (before taking out Short's vertices), worked out once per Cut set.
    fn cut_facts(&mut self, cut: Set) -> (Set, Set) {
        let slot = (self.facts.stamp != 0).then(|| self.packed(cut));
        if let Some(i) = slot
            && self.facts.by_cut[i].0 == self.facts.stamp
        {
            let (_, alive, separating) = self.facts.by_cut[i];
            return (alive, separating);
        }
        let alive = self.alive(cut);
        let separating = self.on_every_path(cut, alive);
        if let Some(i) = slot {
            self.facts.by_cut[i] = (self.facts.stamp, alive, separating);
        }
        (alive, separating)
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
    fn alive(&self, cut: Set) -> Set {
        let link = self.link;
        let open = link.all() & !cut;
        let [s, t] = link.terminals();
        // The terminals are joined through open vertices (the game is not over), so one
        // search finds their common component.
        debug_assert!(reach(link.adjacency(), s, open) >> t & 1 == 1);
        // A superset of the vertices on simple open paths, cheap to find: the terminals'
        // open component with dead ends (fewer than two neighbours left) trimmed
        // repeatedly. Extra vertices in it are passes, which never beat the best move.
        let mut alive = reach(link.adjacency(), s, open);
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
        alive & link.play_area() & !cut
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
    /// The rest are searched most promising first, which changes the work, never the value.
    fn wins(&mut self, short_to_move: bool, short: Set, cut: Set, key: u64) -> bool {
        let (known_bit, value_bit) = if short_to_move { (1, 2) } else { (4, 8) };
        let known = self.memo.get(key);
        if known & known_bit != 0 {
            return known & value_bit != 0;
        }
        let link = self.link;
        let adjacency = link.adjacency();
        let [s, t] = link.terminals();
        let (alive, separating) = self.cut_facts(cut);
        let moves = alive & !short;
        let (near_s, near_t) = self.short_facts(short);
        let short_now = moves & near_s & near_t;
        let cut_now = || separating & !short;
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
            let mut order = [0u8; 32];
            let mut count = 0;
            while candidates != 0 {
                let v = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                order[count] = v as u8;
                count += 1;
            }
            if count > 1 {
                let around = moves | short | 1 << s | 1 << t;
                // Most promising first: next to Short's side of a terminal (2 for each),
                // then more neighbours in play; ties by vertex. Packed as one number.
                let mut keyed = [0u32; 32];
                for (slot, &v) in keyed.iter_mut().zip(&order[..count]) {
                    let bit = 1 << v;
                    let score = (adjacency[v as usize] & around).count_ones()
                        + 2 * u32::from(near_s & bit != 0)
                        + 2 * u32::from(near_t & bit != 0);
                    *slot = score << 8 | (255 - u32::from(v));
                }
                let keyed = &mut keyed[..count];
                keyed.sort_unstable_by(|a, b| b.cmp(a));
                for (slot, k) in order.iter_mut().zip(keyed.iter()) {
                    *slot = (255 - (k & 255)) as u8;
                }
            }
            for &v in &order[..count] {
                let v = v as usize;
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

    /// The vertices of `moves` on every path between the terminals avoiding `cut`: Cut's
    /// immediate wins. Only the free vertices of one such path can be on all of them, so
    /// only those are tried (a path found by layers from the first terminal).
    fn on_every_path(&self, cut: Set, moves: Set) -> Set {
        let link = self.link;
        let adjacency = link.adjacency();
        let [s, t] = link.terminals();
        let open = link.all() & !cut;
        let mut layers = [0 as Set; 33];
        layers[0] = 1 << s;
        let mut seen = layers[0];
        let mut depth = 0;
        while seen >> t & 1 == 0 {
            let next = bits(layers[depth]).fold(0 as Set, |m, v| m | adjacency[v]) & open & !seen;
            if next == 0 {
                return 0;
            }
            depth += 1;
            layers[depth] = next;
            seen |= next;
        }
        let mut path = 0;
        let mut at = t;
        for layer in layers[1..depth].iter().rev() {
            at = (adjacency[at] & layer).trailing_zeros() as usize;
            path |= 1 << at;
        }
        bits(path & moves & !cut)
            .filter(|&v| !link.joined(open & link.play_area() & !(1 << v)))
            .fold(0 as Set, |m, v| m | 1 << v)
    }
}
