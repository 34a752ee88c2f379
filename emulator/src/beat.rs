//! Can Shannon's machine be beaten? An AND-OR search for a Short strategy that wins
//! against the heuristic (Cut moves first) whatever it does, with the Lehman solver
//! closing every branch where the machine has blundered into a lost position.
//!
//! Short's nodes are OR (some move must work), the machine's are AND over the moves it
//! may make: its single reading-order choice, or with [`Ties::Any`] every resistor tied at
//! the largest drop. A machine node where Short wins against perfect play (Lehman's
//! criterion holds with Cut to move) is a win: the perfect Short player takes over.
//!
//! [`beat`] asks it of the start of the cage; [`plan`] of any position, for whichever side
//! is to move against the heuristic, on the cage or on a graph ([`Arena`]): the hint of
//! `birdcage play`.

use std::collections::HashSet;
use std::hash::Hash;

use heuristic::{Edge, EdgeState, Model, Move, Position, Side, Size};
// The search's tables take millions of lookups; std's DoS-proof hash was a tenth of its time.
use rustc_hash::FxHashMap as HashMap;
use switching::{Play, perfect};

use crate::graphs;
use crate::players::{heuristic_move, heuristic_moves, perfect_move};

/// How the machine breaks exact ties between resistors with the largest drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ties {
    /// As the original did: the first in reading order.
    ReadingOrder,
    /// Any of them: Short must win whatever the machine picks.
    Any,
}

impl Ties {
    /// `reading-order` or `any`.
    pub fn name(self) -> &'static str {
        match self {
            Ties::ReadingOrder => "reading-order",
            Ties::Any => "any",
        }
    }
}

/// The answer to "can the machine be beaten?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeatReport {
    /// Board size.
    pub size: Size,
    /// The network the machine measures.
    pub model: Model,
    /// How it breaks ties.
    pub ties: Ties,
    /// Whether Short has a strategy that wins every game against the machine.
    pub beatable: bool,
    /// A game: the strategy against the machine's reading-order choices, then the
    /// perfect Short player once the machine has blundered. When not beatable: the
    /// perfect Short player against the machine (after an unbeaten opening for `Any`).
    pub line: Vec<Move>,
    /// Short-to-move positions where the strategy names a move, up to each blunder.
    pub strategy_positions: usize,
    /// With [`Ties::Any`]: the machine's tied openings after which Short cannot force a
    /// win (empty when beatable, or with [`Ties::ReadingOrder`]).
    pub unbeaten_openings: Vec<Edge>,
    /// Positions the search visited (both sides to move).
    pub searched: usize,
    /// When beatable: the fewest Short moves within which the strategy makes the machine
    /// blunder into a position lost against perfect play, whatever it does.
    pub budget: Option<u8>,
}

/// What the search knows of a position: proven won for the player (with some budget),
/// proven not won with any budget (its search cut no branch for want of budget), or not won
/// within a budget of the player's moves.
#[derive(Clone, Copy, Debug)]
enum Known {
    Won,
    Lost,
    NotWithin(u8),
}

/// A board the search plays on: the cage ([`Position`]) or a graph ([`Play`]), so that
/// `birdcage play` can ask the same search on either.
pub trait Arena: perfect::Solvable<Move: Send + Sync> + Clone + Send + Sync {
    /// Identifies a position among those of one game (the side to move follows from the
    /// counts of cuts and shorts).
    type Key: Eq + Hash + Clone + Send + Sync;
    /// This position's key.
    fn key(&self) -> Self::Key;
    /// The key of this position's mirror image, when the board has one that keeps the
    /// terminals (the cage's left-right mirror): the mirror image has the same perfect
    /// verdict and, ties broken either way, the mirrored machine moves, so the search
    /// works each pair out once ([`Search::mirror`]).
    fn mirror_key(&self) -> Option<Self::Key> {
        None
    }
    /// The mirror images of `moves` (moves of the mirror image of this position), in
    /// board order: the moves here.
    fn mirror_moves(&self, moves: &[Self::Move]) -> Vec<Self::Move> {
        moves.to_vec()
    }
    /// The key of the position after the side to move plays `mv` here, this position's key
    /// being `key`, without making that position: the search asks its tables before it
    /// plays a move whose answer it may know (making a cage position checks it for a win,
    /// a quarter of a hint's search by perf).
    fn child_key(&self, _key: &Self::Key, mv: Self::Move) -> Self::Key {
        self.after(mv).key()
    }
    /// The resistors left, in board order.
    fn open(&self) -> Vec<Self::Move>;
    /// How many moves have been played.
    fn plies(&self) -> usize;
    /// The position after the side to move plays `mv`, a resistor of an open game.
    fn after(&self, mv: Self::Move) -> Self;
    /// The moves the heuristic (on `model`) may make here, breaking ties by `ties`.
    fn machine_moves(&self, model: Model, ties: Ties) -> Vec<Self::Move>;
    /// The move of a line known to beat the machine on `model`, when the game so far is
    /// that line's start ([`crate::beaten`], the cage's): tried first by [`plan_within`].
    fn known_move(&self, _model: Model) -> Option<Self::Move> {
        None
    }
    /// The resistors left, the largest drop on `model` first (ties in board order): the
    /// order in which [`plan_within`] tries the player's moves that have not won elsewhere.
    /// Board order where the drops are not read (the default).
    fn by_drop(&self, _model: Model) -> Vec<Self::Move> {
        self.open()
    }
}

impl Arena for Position {
    type Key = (u128, u128);
    fn key(&self) -> (u128, u128) {
        perfect::key(self)
    }
    fn mirror_key(&self) -> Option<(u128, u128)> {
        let size = self.size();
        let (mut cut, mut short) = (0u128, 0u128);
        for (edge, state) in self.edges() {
            let bit = 1u128 << mirror(size, edge).index(size);
            match state {
                EdgeState::Cut => cut |= bit,
                EdgeState::Short => short |= bit,
                EdgeState::Resistor => {}
            }
        }
        Some((cut, short))
    }
    fn mirror_moves(&self, moves: &[Edge]) -> Vec<Edge> {
        let size = self.size();
        let mut mirrored: Vec<Edge> = moves.iter().map(|&e| mirror(size, e)).collect();
        mirrored.sort_by_key(|e| e.index(size));
        mirrored
    }
    fn child_key(&self, &(cut, short): &(u128, u128), edge: Edge) -> (u128, u128) {
        let bit = 1u128 << edge.index(self.size());
        match self.to_move() {
            Some(Side::Cut) => (cut | bit, short),
            _ => (cut, short | bit),
        }
    }
    fn open(&self) -> Vec<Edge> {
        self.resistors().collect()
    }
    fn plies(&self) -> usize {
        Position::plies(self)
    }
    fn after(&self, edge: Edge) -> Position {
        let mut child = self.clone();
        child
            .play_edge(edge)
            .expect("search moves are resistors of an open game");
        child
    }
    fn machine_moves(&self, model: Model, ties: Ties) -> Vec<Edge> {
        match ties {
            Ties::ReadingOrder => heuristic_move(self, model).into_iter().collect(),
            Ties::Any => heuristic_moves(self, model),
        }
    }
    fn known_move(&self, model: Model) -> Option<Edge> {
        crate::beaten::next_move(self, model)
    }
    fn by_drop(&self, model: Model) -> Vec<Edge> {
        let circuit = model.circuit::<f64>(self.size());
        let Ok(voltages) = heuristic::solve(self, &circuit) else {
            return self.open();
        };
        let mut moves: Vec<(f64, Edge)> = self
            .resistors()
            .map(|e| {
                let drop = heuristic::edge_drop(self, voltages.values(), e);
                (drop.unwrap_or(0.0), e)
            })
            .collect();
        // Stable: equal drops stay in board order.
        moves.sort_by(|a, b| b.0.total_cmp(&a.0));
        moves.into_iter().map(|(_, e)| e).collect()
    }
}

/// The cage's left-right mirror image of `edge` (column x to 2M - x, the same row): it keeps
/// the terminals, every node's neighbours and every resistor's drop.
fn mirror(size: Size, edge: Edge) -> Edge {
    Edge::new(size, 2 * size.get() - edge.x(), edge.y()).expect("the mirror of an edge is one")
}

impl Arena for Play<'_> {
    type Key = Vec<EdgeState>;
    fn key(&self) -> Vec<EdgeState> {
        self.states().to_vec()
    }
    fn child_key(&self, key: &Vec<EdgeState>, edge: usize) -> Vec<EdgeState> {
        let mut child = key.clone();
        child[edge] = match self.to_move() {
            Some(Side::Cut) => EdgeState::Cut,
            _ => EdgeState::Short,
        };
        child
    }
    fn open(&self) -> Vec<usize> {
        self.resistors().collect()
    }
    fn plies(&self) -> usize {
        self.moves().len()
    }
    fn after(&self, edge: usize) -> Self {
        let mut child = self.clone();
        child
            .play(edge)
            .expect("search moves are resistors of an open game");
        child
    }
    fn machine_moves(&self, model: Model, ties: Ties) -> Vec<usize> {
        match ties {
            Ties::ReadingOrder => graphs::heuristic_move(self, model).into_iter().collect(),
            Ties::Any => graphs::heuristic_moves(self, model),
        }
    }
}

/// The search state: answers per position, memoised.
///
/// The search deepens iteratively over a budget of the player's moves before the machine
/// must have blundered: strategies that beat the machine make it blunder early, and a
/// short budget keeps the search out of the deep subtrees of moves that do not work. A
/// budget that never ran out proves a "no" exact.
struct Search<'p, B: Arena> {
    /// Told the positions searched every [`TICK`] new positions, for a progress display.
    tick: &'p mut dyn FnMut(usize),
    /// The side the strategy plays; the machine plays the other.
    player: Side,
    model: Model,
    ties: Ties,
    /// Player to move.
    mine: HashMap<B::Key, Known>,
    /// Machine to move.
    machine: HashMap<B::Key, Known>,
    /// Machine to move: the moves it may make.
    choices: HashMap<B::Key, Vec<B::Move>>,
    /// Player to move: whether the player wins against perfect play.
    perfect: HashMap<B::Key, bool>,
    /// Answers worked out ahead in parallel ([`Search::prefetch`]), moved into `choices`
    /// and `perfect` when the search asks for them, so that the search, its order and its
    /// counts are those of the serial search.
    ahead_choices: HashMap<B::Key, Vec<B::Move>>,
    ahead_perfect: HashMap<B::Key, bool>,
    /// Whether [`Search::prefetch`] works ahead (`beat`; the bounded [`plan_within`] does
    /// not, so that a small limit stays cheap).
    ahead: bool,
    /// Whether an answer worked out for a position's mirror image ([`Arena::mirror_key`])
    /// is taken, mirrored, for the position: with [`Ties::Any`] the machine's moves are
    /// the mirror's mirrored (the tied set is symmetric; the reading-order choice is
    /// not), and the perfect verdict is the mirror's with either tie rule. The tables
    /// still hold every position under its own key, so the search and its counts are
    /// unchanged.
    mirror: bool,
    /// Whether some branch of the current iteration was cut for want of budget.
    ran_out: bool,
    /// Whether the player's moves of a known line ([`Arena::known_move`]) are tried first,
    /// then those that won most often elsewhere in this search ([`Search::history`]), as
    /// [`plan_within`] does; `beat`, where the lines come from, searches in board order.
    known_first: bool,
    /// The player's moves that made the machine lose somewhere in this search, and how
    /// often (the history heuristic of game-tree search): a move that works in one branch
    /// tends to work in its siblings (the shorts beside the machine's cuts), so trying it
    /// first finds a deep strategy before its budget is spent on moves that never work.
    /// `hint_reach -- 6 2 16` and `-- 6 3 16` (emulator's examples): the same wins found,
    /// the median search 0.017 and 0.18 s with it, 0.22 and 0.40 s without (load 7 to 8).
    history: Vec<(B::Move, u32)>,
    /// Player to move, with [`Search::known_first`]: the moves by drop
    /// ([`Arena::by_drop`]), worked out once for every iteration that expands the position.
    /// Among moves that have not won elsewhere, a short across a large drop is tried first:
    /// `hint_reach -- 6 2 16` and `-- 6 3 16` with four times the budget found the same 32
    /// wins with 435,091 positions solved in all, 580,596 in board order, and the slowest
    /// (issue 63's miss, `A11,h10,C11,c9,E11`) with 149,324 rather than 161,394 (before
    /// the root's moves took turns, [`Search::root_turn`], which then found it with about
    /// 50,000).
    by_drop: HashMap<B::Key, Vec<B::Move>>,
    /// Positions solved so far (the heuristic's move or the perfect verdict: the search's
    /// cost), and the most allowed: at the limit every answer about a new position is "no"
    /// and `gave_up` is set.
    visited: usize,
    limit: usize,
    gave_up: bool,
    /// Where the share of the root move being searched ends ([`Search::root_turn`]): there
    /// the search gives up as at the limit, until the depth's next turn.
    share_end: usize,
}

/// What `table` settles of a position searched with `budget`: won, or not won within
/// that budget or a larger one; `None` when only a smaller budget's "no" is known.
fn lookup<K: Eq + Hash>(table: &HashMap<K, Known>, key: &K, budget: u8) -> Option<Known> {
    match *table.get(key)? {
        Known::NotWithin(b) if b < budget => None,
        known => Some(known),
    }
}

/// Whether the player wins at the position with `key` within `budget`, when `table`
/// settles it ([`lookup`]). A "no" within a budget rests on branches cut for want of it, so
/// it sets `ran_out` wherever it is read: the budget of [`plan_within`]'s depth that reads
/// it may not be the one that stored it.
fn settled<K: Eq + Hash>(
    table: &HashMap<K, Known>,
    key: &K,
    budget: u8,
    ran_out: &mut bool,
) -> Option<bool> {
    match lookup(table, key, budget)? {
        Known::Won => Some(true),
        Known::Lost => Some(false),
        Known::NotWithin(_) => {
            *ran_out = true;
            Some(false)
        }
    }
}

/// Stores what a search with `budget` found: `won`, or not, and whether it `cut` a branch
/// for want of budget (a "no" that a larger budget may overturn).
fn store<K: Eq + Hash>(table: &mut HashMap<K, Known>, key: K, budget: u8, won: bool, cut: bool) {
    let known = match (won, cut) {
        (true, _) => Known::Won,
        (false, true) => Known::NotWithin(budget),
        (false, false) => Known::Lost,
    };
    table.insert(key, known);
}

/// The search's perfect verdicts, shared with the threads that work ahead.
struct Verdicts<'a, K> {
    tables: [&'a HashMap<K, bool>; 2],
    /// Whether a mirror image's verdict counts ([`Search::mirror`]).
    mirror: bool,
}

impl<K: Eq + Hash> Verdicts<'_, K> {
    /// The player's perfect verdict at the position with `key`, when known already, there
    /// or at its mirror `image`.
    fn known(&self, key: &K, image: Option<&K>) -> Option<bool> {
        let at = |k: &K| self.tables.iter().find_map(|t| t.get(k)).copied();
        at(key).or_else(|| image.filter(|_| self.mirror).and_then(at))
    }
}

/// A budget searched at the root of [`plan_within`]: the player's moves not yet settled
/// there, in the order they are tried, and the share of positions the first of them may
/// solve at the depth's next turn ([`Search::root_turn`]).
struct Depth<M> {
    budget: u8,
    /// Whether the depth moves on to the next budget once this one is settled without a win.
    deepens: bool,
    open: Vec<M>,
    share: usize,
    /// Whether a branch was cut for want of budget: a "no" at this depth is then no proof
    /// that no longer strategy wins.
    ran_out: bool,
}

impl<M> Depth<M> {
    /// `budget` at `position`, every move open, with the first turn's share.
    fn new<B: Arena<Move = M>>(
        search: &mut Search<'_, B>,
        position: &B,
        budget: u8,
        deepens: bool,
    ) -> Self {
        Depth {
            budget,
            deepens,
            open: search.player_moves(position, &position.key(), budget),
            share: FIRST_SHARE,
            ran_out: false,
        }
    }

    /// The depth with the share it will use at its next turn.
    fn with_share(self, share: usize) -> Self {
        Depth { share, ..self }
    }
}

/// How a depth's turn ended.
enum Turn<M> {
    /// This move wins within the depth's budget.
    Won(M),
    /// The search's limit is reached.
    Spent,
    /// Every open move had its share; those cut short by it stay open.
    Went,
}

/// The positions the first of the player's moves may solve at a depth's first turn
/// ([`Search::root_turn`]). Each turn walks again through what the earlier ones solved:
/// with 1,024, the search that only deepened took 2.0 s rather than 1.2 s to spend the
/// hint's budget at M=7 after `l12,e11`.
const FIRST_SHARE: usize = 4096;

/// The budget of [`plan_within`]'s diving depth: seven moves of the player's, then the
/// perfect player's. Chosen on 400 positions after two to five random moves of one's own at
/// M=6 and M=7 (`hint_reach`'s games, seeds 0 to 39, 100 to 123 and 200 to 219; the last
/// group drawn only to decide between the two best), 356 of them with a win that some
/// search found: within the hint's budget the dive to 8 beside deepening finds 354, dives
/// to 6 and 10 353, deepening alone (the search before) 340.
const DIVE: u8 = 8;

/// New positions between two calls of the search's progress callback.
const TICK: usize = 1024;

impl<'p, B: Arena> Search<'p, B> {
    fn new(
        player: Side,
        model: Model,
        ties: Ties,
        limit: usize,
        tick: &'p mut dyn FnMut(usize),
    ) -> Self {
        Search {
            tick,
            player,
            model,
            ties,
            mine: HashMap::default(),
            machine: HashMap::default(),
            choices: HashMap::default(),
            perfect: HashMap::default(),
            ahead_choices: HashMap::default(),
            ahead_perfect: HashMap::default(),
            ahead: false,
            mirror: false,
            ran_out: false,
            known_first: false,
            history: Vec::new(),
            by_drop: HashMap::default(),
            visited: 0,
            limit,
            gave_up: false,
            share_end: usize::MAX,
        }
    }

    /// Counts one more position to solve; `false` (and gives up) once the limit is reached.
    fn visit(&mut self) -> bool {
        if self.visited >= self.limit.min(self.share_end) {
            self.gave_up = true;
        }
        if !self.gave_up {
            self.visited += 1;
            if self.visited.is_multiple_of(TICK) {
                let searched = self.searched();
                (self.tick)(searched);
            }
        }
        !self.gave_up
    }

    /// Positions searched so far (both sides to move), as [`BeatReport::searched`] counts.
    fn searched(&self) -> usize {
        self.mine.len() + self.machine.len()
    }

    /// The moves the machine may make here, each position solved once.
    fn machine_moves(&mut self, position: &B) -> Vec<B::Move> {
        self.machine_moves_at(position, position.key())
    }

    /// [`Search::machine_moves`] at `position`, whose key is `key`.
    fn machine_moves_at(&mut self, position: &B, key: B::Key) -> Vec<B::Move> {
        let (model, ties) = (self.model, self.ties);
        if let Some(moves) = self.choices.get(&key) {
            return moves.clone();
        }
        let moves = self
            .ahead_choices
            .remove(&key)
            .or_else(|| self.mirrored_choices(position))
            .unwrap_or_else(|| position.machine_moves(model, ties));
        self.choices.insert(key, moves.clone());
        moves
    }

    /// The machine's moves here from those known at the mirror image, when they may be
    /// taken from there ([`Search::mirror`]).
    fn mirrored_choices(&self, position: &B) -> Option<Vec<B::Move>> {
        if !self.mirror || self.ties != Ties::Any {
            return None;
        }
        let image = position.mirror_key()?;
        let moves = self
            .choices
            .get(&image)
            .or_else(|| self.ahead_choices.get(&image))?;
        Some(position.mirror_moves(moves))
    }

    /// The perfect verdicts known so far, for [`known_perfect`].
    fn verdicts(&self) -> Verdicts<'_, B::Key> {
        Verdicts {
            tables: [&self.perfect, &self.ahead_perfect],
            mirror: self.mirror,
        }
    }

    /// Works out ahead, in parallel, what the search will ask of `batch` (machine to move,
    /// each searched with `budget`): the machine's moves there, and whether the player wins
    /// against perfect play after each. Both are pure, so doing them early changes no
    /// answer. A batch is every move of the player's at a position: its later positions are
    /// wasted when an earlier one wins, but a search that deepens mostly meets positions where
    /// no move wins within the budget, and every child is searched anyway. Batches of 4, 8,
    /// 32 and all of them: `beat --size 7 --ties any` in 12.9, 12.6, 11.3 and 10.1 s (the
    /// wake-ups of small batches cost 4 s of system time; 2026-11-29).
    #[cfg(not(target_arch = "wasm32"))]
    fn prefetch(&mut self, batch: &[B], budget: u8) {
        use rayon::prelude::*;
        if !self.ahead {
            return;
        }
        let (model, ties, player) = (self.model, self.ties, self.player);
        let todo: Vec<&B> = batch
            .iter()
            .filter(|c| {
                c.winner().is_none() && {
                    let key = c.key();
                    !self.choices.contains_key(&key)
                        && !self.ahead_choices.contains_key(&key)
                        && self.mirrored_choices(c).is_none()
                }
            })
            .collect();
        if todo.is_empty() {
            return;
        }
        // The player's positions after the machine's moves are judged only when the search
        // will judge them: with a budget left there.
        // A verdict known already, here or at the mirror image, is not worked out again.
        let judge = budget >= 1;
        let known = self.verdicts();
        let done: Vec<_> = todo
            .par_iter()
            .map(|c| {
                let moves = c.machine_moves(model, ties);
                let verdicts: Vec<(B::Key, bool)> = if judge {
                    moves
                        .iter()
                        .map(|&e| c.after(e))
                        .filter(|g| g.winner().is_none())
                        .filter_map(|g| {
                            let key = g.key();
                            let image = g.mirror_key();
                            match known.known(&key, image.as_ref()) {
                                Some(_) => None,
                                None => Some((key, perfect::winner(&g) == player)),
                            }
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                (c.key(), moves, verdicts)
            })
            .collect();
        for (key, moves, verdicts) in done {
            self.ahead_choices.insert(key, moves);
            for (k, won) in verdicts {
                if !self.perfect.contains_key(&k) {
                    self.ahead_perfect.insert(k, won);
                }
            }
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn prefetch(&mut self, _batch: &[B], _budget: u8) {}

    /// Player to move, with `budget` moves to make the machine blunder: is there a move
    /// after which the machine loses whatever it does?
    fn player_wins(&mut self, position: &B, budget: u8) -> bool {
        if let Some(w) = position.winner() {
            return w == self.player;
        }
        if budget == 0 {
            self.ran_out = true;
            return false;
        }
        let key = position.key();
        if let Some(known) = settled(&self.mine, &key, budget, &mut self.ran_out) {
            return known;
        }
        // Only a position new to the solver costs (a deeper budget's visit is cheap).
        if !self.perfect.contains_key(&key) && !self.visit() {
            return false;
        }
        // Whether this position's own search cuts a branch for want of budget.
        let outer = std::mem::take(&mut self.ran_out);
        // The machine has blundered: the player wins against perfect play from here.
        let won = self.machine_lost_at(position, key.clone()) || {
            if budget == 1 {
                self.ran_out = true;
                false
            } else {
                // No move of the player's loses the machine at once here, so each child
                // must be searched.
                let moves = self.player_moves(position, &key, budget);
                let winner = if self.ahead {
                    let children: Vec<B> = moves.iter().map(|&f| position.after(f)).collect();
                    self.prefetch(&children, budget - 1);
                    children
                        .iter()
                        .position(|c| self.machine_loses(c, budget - 1))
                } else {
                    // Each child made only when its turn comes: a win spares the rest.
                    moves
                        .iter()
                        .position(|&f| self.machine_loses_after(position, &key, f, budget - 1))
                };
                if let Some(at) = winner {
                    self.remember(moves[at]);
                }
                winner.is_some()
            }
        };
        let cut = self.ran_out;
        self.ran_out = cut || outer;
        // A win is proven whatever happened elsewhere; a "no" past the limit is not.
        if won || !self.gave_up {
            store(&mut self.mine, key, budget, won, cut);
        }
        won
    }

    /// [`Search::player_wins`] after the machine's move `mv` at `position` (whose key is
    /// `key`), from the table when it settles the answer: only an unsettled position is
    /// made. A settled key is of an open game (a finished one is never stored) and the
    /// budget is not 0 (a 0 answers without the table).
    fn player_wins_after(&mut self, position: &B, key: &B::Key, mv: B::Move, budget: u8) -> bool {
        if budget >= 1
            && let Some(known) = settled(
                &self.mine,
                &position.child_key(key, mv),
                budget,
                &mut self.ran_out,
            )
        {
            return known;
        }
        self.player_wins(&position.after(mv), budget)
    }

    /// [`Search::machine_loses`] after the player's move `mv` at `position` (whose key is
    /// `key`), from the table when it settles the answer ([`Search::player_wins_after`]).
    fn machine_loses_after(&mut self, position: &B, key: &B::Key, mv: B::Move, budget: u8) -> bool {
        if let Some(known) = settled(
            &self.machine,
            &position.child_key(key, mv),
            budget,
            &mut self.ran_out,
        ) {
            return known;
        }
        self.machine_loses(&position.after(mv), budget)
    }

    /// One turn of a depth at the root of [`plan_within`] (player to move, not yet won):
    /// each move still open at `depth.budget` is searched with a share of the positions to
    /// solve, `depth.share` divided by its rank, so that a move whose strategy is cheap to
    /// prove is not reached only once the moves before it have spent the limit on subtrees
    /// that hold no win. A move cut short by its share stays open for the depth's next turn,
    /// with four times the share: what it solved stays in the tables, only the walk down to
    /// it is repeated. Issue 63's miss, M=6 after `A11,h10,C11,c9,E11`: the win of `f10` is
    /// proven with 1,775 positions, yet in order the moves before it spent 113,000 first.
    fn root_turn(&mut self, position: &B, depth: &mut Depth<B::Move>) -> Turn<B::Move> {
        let budget = depth.budget;
        let key = position.key();
        let mut cut_short = Vec::new();
        for (rank, &f) in depth.open.iter().enumerate() {
            self.ran_out = false;
            self.share_end = self.visited.saturating_add(depth.share / (rank + 1));
            let won = self.machine_loses_after(position, &key, f, budget - 1);
            self.share_end = usize::MAX;
            depth.ran_out |= self.ran_out;
            if won {
                self.remember(f);
                store(&mut self.mine, key, budget, true, false);
                return Turn::Won(f);
            }
            if self.gave_up {
                if self.visited >= self.limit {
                    return Turn::Spent;
                }
                // Only the share was spent: this move's "no" is not one yet.
                self.gave_up = false;
                cut_short.push(f);
            }
        }
        depth.open = cut_short;
        depth.share = depth.share.saturating_mul(4);
        if depth.open.is_empty() {
            store(&mut self.mine, key, budget, false, depth.ran_out);
        }
        Turn::Went
    }

    /// The player's moves at `position` (whose key is `key`) in the order they are tried:
    /// board order; with [`Search::known_first`], a known line's move first, then the
    /// others by how often they won elsewhere ([`Search::history`]), ties by drop
    /// ([`Search::by_drop`]).
    fn player_moves(&mut self, position: &B, key: &B::Key, budget: u8) -> Vec<B::Move> {
        if !self.known_first {
            return position.open();
        }
        // With one move left before the machine must have blundered, every move costs the
        // same two positions: the drops would cost a solve and spare none.
        let mut moves = if budget <= 2 {
            position.open()
        } else if let Some(moves) = self.by_drop.get(key) {
            moves.clone()
        } else {
            let moves = position.by_drop(self.model);
            self.by_drop.insert(key.clone(), moves.clone());
            moves
        };
        let wins = |m: &B::Move| {
            self.history
                .iter()
                .find(|(h, _)| h == m)
                .map_or(0, |&(_, n)| n)
        };
        moves.sort_by_key(|m| std::cmp::Reverse(wins(m)));
        if let Some(known) = position.known_move(self.model)
            && let Some(at) = moves.iter().position(|&m| m == known)
        {
            let known = moves.remove(at);
            moves.insert(0, known);
        }
        moves
    }

    /// Counts a win of the player's `mv` in [`Search::history`] (only where it orders moves).
    fn remember(&mut self, mv: B::Move) {
        if !self.known_first {
            return;
        }
        match self.history.iter_mut().find(|(h, _)| *h == mv) {
            Some((_, n)) => *n += 1,
            None => self.history.push((mv, 1)),
        }
    }

    /// Whether the player wins against perfect play here (player to move), solved once.
    fn machine_lost(&mut self, position: &B) -> bool {
        self.machine_lost_at(position, position.key())
    }

    /// [`Search::machine_lost`] at `position`, whose key is `key`.
    fn machine_lost_at(&mut self, position: &B, key: B::Key) -> bool {
        let player = self.player;
        if let Some(&won) = self.perfect.get(&key) {
            return won;
        }
        let won = self.ahead_perfect.remove(&key).or_else(|| {
            let image = self.mirror.then(|| position.mirror_key()).flatten();
            self.verdicts().known(&key, image.as_ref())
        });
        let won = won.unwrap_or_else(|| perfect::winner(position) == player);
        self.perfect.insert(key, won);
        won
    }

    /// Machine to move: does the player win whatever the machine picks?
    fn machine_loses(&mut self, position: &B, budget: u8) -> bool {
        if let Some(w) = position.winner() {
            return w == self.player;
        }
        let key = position.key();
        if let Some(known) = settled(&self.machine, &key, budget, &mut self.ran_out) {
            return known;
        }
        if !self.choices.contains_key(&key) && !self.visit() {
            return false;
        }
        let outer = std::mem::take(&mut self.ran_out);
        let won = self
            .machine_moves_at(position, key.clone())
            .into_iter()
            .all(|e| self.player_wins_after(position, &key, e, budget));
        let cut = self.ran_out;
        self.ran_out = cut || outer;
        if won || !self.gave_up {
            store(&mut self.machine, key, budget, won, cut);
        }
        won
    }

    /// The strategy's move at a player-to-move position it wins within `budget`: the
    /// perfect player's once the machine has blundered, else the first move that wins in
    /// the order they are tried ([`Search::player_moves`]).
    fn strategy_move(&mut self, position: &B, budget: u8) -> Option<B::Move> {
        if self.machine_lost(position) {
            return perfect::winning_move(position);
        }
        let rest = budget.checked_sub(1)?;
        self.player_moves(position, &position.key(), budget)
            .into_iter()
            .find(|&f| self.machine_loses(&position.after(f), rest))
    }

    /// Counts the player-to-move positions of the strategy below a machine node it wins,
    /// up to and including those where the machine has just blundered.
    fn count(&mut self, position: &B, budget: u8, seen: &mut HashSet<B::Key>) {
        if position.winner().is_some() {
            return;
        }
        for e in self.machine_moves(position) {
            let turn = position.after(e);
            if turn.winner().is_some() || !seen.insert(turn.key()) {
                continue;
            }
            if self.machine_lost(&turn) {
                continue;
            }
            if let Some(f) = self.strategy_move(&turn, budget) {
                self.count(&turn.after(f), budget.saturating_sub(1), seen);
            }
        }
    }
}

impl Search<'_, Position> {
    /// Plays the machine (reading-order choices) against the strategy while it has one,
    /// then against the perfect Short player, to the end.
    fn line(&mut self, mut position: Position, mut budget: Option<u8>) -> Vec<Move> {
        let mut moves = Vec::new();
        while let Some(side) = position.to_move() {
            let edge = match (side, budget) {
                (Side::Cut, _) => heuristic_move(&position, self.model),
                (Side::Short, Some(b)) => {
                    let mv = self.strategy_move(&position, b);
                    budget = mv.map(|_| b.saturating_sub(1));
                    mv.or_else(|| perfect_move(&position))
                }
                (Side::Short, _) => perfect_move(&position),
            }
            .expect("an open game has a resistor");
            moves.push(Move { side, edge });
            position = position.after(edge);
        }
        moves
    }
}

/// What the search makes of a position where the player is to move against the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan<M> {
    /// The player forces a win against this machine: `first` is a move of such a
    /// strategy. `perfect` when the machine has already lost against perfect play (the
    /// move is then the perfect player's); otherwise perfect play would beat the player,
    /// and the strategy wins only because the machine blunders.
    Wins { first: M, perfect: bool },
    /// No strategy wins against this machine from here (or the game is over).
    Loses,
    /// The search stopped undecided after solving `visited` positions, its limit.
    GaveUp { visited: usize },
    /// No strategy of at most `moves` moves of the player's before the machine blunders
    /// (the depth [`plan_within`] was given); a deeper one may exist.
    NotWithin { moves: u8 },
}

/// Can the side to move force a win against the heuristic (measuring `model`, breaking
/// ties by `ties`) from `position`, and with what move? The `beat` search started from
/// any position of the game and for either side, so that a hint can exploit the machine
/// in front of the player rather than assume a perfect one. It solves at most `limit`
/// positions (the heuristic's move or the perfect verdict of each): exact and fast on the
/// small cages, but exponential in general.
///
/// ```
/// use emulator::beat::{Plan, Ties, plan};
/// use heuristic::{Model, Position, Side, Size};
/// // M=4 after the machine's opening A7: lost for Short against perfect play, yet Short
/// // beats this machine.
/// let p = Position::from_record(Size::new(4).unwrap(), Side::Cut, "A7").unwrap();
/// assert_eq!(switching::perfect::winner(&p), Side::Cut);
/// let Plan::Wins { first, perfect } = plan(&p, Model::Ideal, Ties::ReadingOrder, 100_000)
/// else { panic!("beatable") };
/// assert_eq!((first.to_string(), perfect), ("C7".to_string(), false));
/// ```
pub fn plan<B: Arena>(position: &B, model: Model, ties: Ties, limit: usize) -> Plan<B::Move> {
    plan_within(position, model, ties, limit, u8::MAX)
}

/// [`plan`], looking only for strategies that make the machine blunder within `moves`
/// moves of the player's (the position after the blunder counted: 3 is two moves, then the
/// perfect player's), so that a large board's search stays short: the strategies that beat
/// the cage's machine from M=3 to 8 are all that short (README, "Results"). On the cage, the
/// moves of the line `beat` found ([`crate::beaten`]) are tried first, so that on the line
/// the strategy is proven within a few hundred positions even at M=8.
///
/// ```
/// use emulator::beat::{Plan, Ties, plan_within};
/// use heuristic::{Model, Position, Side, Size};
/// // M=8 after the opening: lost against perfect play, yet two moves beat this machine.
/// let p = Position::from_record(Size::new(8).unwrap(), Side::Cut, "A15").unwrap();
/// let Plan::Wins { perfect, .. } = plan_within(&p, Model::Ideal, Ties::ReadingOrder, 100_000, 3)
/// else { panic!("beatable within two moves") };
/// assert!(!perfect);
/// ```
pub fn plan_within<B: Arena>(
    position: &B,
    model: Model,
    ties: Ties,
    limit: usize,
    moves: u8,
) -> Plan<B::Move> {
    let Some(player) = position.to_move() else {
        return Plan::Loses;
    };
    let mut quiet = |_| {};
    let mut search = Search::<B>::new(player, model, ties, limit, &mut quiet);
    search.known_first = true;
    // The player makes at most every other move; a budget that large never runs out.
    let most = u8::try_from(position.open().len() / 2 + 1).unwrap_or(u8::MAX);
    let last = most.min(moves);
    if last >= 1 && search.player_wins(position, 1) {
        // The machine has blundered already.
        return match perfect::winning_move(position) {
            Some(first) => Plan::Wins {
                first,
                perfect: true,
            },
            None => Plan::Loses,
        };
    }
    // Two depths take turns ([`Depth`]): one that deepens a move at a time from 2, and one
    // that dives at once to [`DIVE`] moves. Deepening proves a budget empty before the next;
    // at M=7 that can cost more than the whole limit (after `A13,l12,C13,e11,E13,m11,G13`,
    // 217,388 positions on strategies of up to four moves, ruling out three took 109,116),
    // where the dive, trying the moves that won elsewhere first, finds a longer win within a
    // few hundred. A dive too deep spends its share on long lines that do not work, where
    // deepening finds the shorter win: each covers what the other misses.
    let mut depths = Vec::new();
    if last >= 2 {
        depths.push(Depth::new(&mut search, position, 2, true));
    }
    if DIVE < last {
        depths.push(Depth::new(&mut search, position, DIVE, false));
    }
    while !depths.is_empty() {
        for depth in &mut depths {
            match search.root_turn(position, depth) {
                Turn::Won(first) => {
                    return Plan::Wins {
                        first,
                        perfect: false,
                    };
                }
                Turn::Spent => {
                    return Plan::GaveUp {
                        visited: search.visited,
                    };
                }
                Turn::Went => {}
            }
            if !depth.open.is_empty() {
                continue;
            }
            // Every move settled without a win: with no branch cut for want of budget, no
            // strategy of any length wins.
            if !depth.ran_out {
                return Plan::Loses;
            }
            if depth.deepens && depth.budget < last {
                *depth = Depth::new(&mut search, position, depth.budget + 1, true)
                    .with_share(depth.share);
            }
        }
        // A budget that deepening has reached needs no dive of its own.
        let reached = depths.iter().find(|d| d.deepens).map_or(0, |d| d.budget);
        depths.retain(|d| !d.open.is_empty() && (d.deepens || d.budget > reached));
    }
    if moves < most {
        Plan::NotWithin { moves }
    } else {
        Plan::Loses
    }
}

/// How far [`beat_with_progress`] has got, for a progress display: the search has no
/// total, only a count and the bound it deepens towards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far, as [`BeatReport::searched`] counts them.
    pub searched: usize,
    /// The budget of Short moves the current iteration allows.
    pub budget: u8,
    /// The largest budget the search can need: it stops there at the latest.
    pub most: u8,
}

/// Searches for a Short strategy that beats the machine on an M board, Cut first.
pub fn beat(size: Size, model: Model, ties: Ties) -> BeatReport {
    beat_with_progress(size, model, ties, &mut |_| {})
}

/// [`beat`], telling `progress` how far it has got at each new budget and every thousand or
/// so new positions (the M=8 search runs for minutes).
pub fn beat_with_progress(
    size: Size,
    model: Model,
    ties: Ties,
    progress: &mut dyn FnMut(Progress),
) -> BeatReport {
    search_start(size, model, ties, progress, true, true)
}

/// The search of [`beat_with_progress`], working `ahead` in parallel or not, taking answers
/// from the `mirror` images or not (the same report every way: the tests compare them).
fn search_start(
    size: Size,
    model: Model,
    ties: Ties,
    progress: &mut dyn FnMut(Progress),
    ahead: bool,
    mirror: bool,
) -> BeatReport {
    // Short makes at most every other move; a budget that large never runs out.
    let most = (size.edge_count() / 2 + 1) as u8;
    let budget_now = std::cell::Cell::new(0u8);
    let mut tick = |searched| {
        progress(Progress {
            searched,
            budget: budget_now.get(),
            most,
        })
    };
    let mut search = Search::<Position>::new(Side::Short, model, ties, usize::MAX, &mut tick);
    search.ahead = ahead;
    search.mirror = mirror;
    let start = Position::new(size, Side::Cut);
    let mut budget = 0;
    let beatable = loop {
        budget += 1;
        budget_now.set(budget);
        let searched = search.searched();
        (search.tick)(searched);
        search.ran_out = false;
        if perfect::short_wins_second(&start) || search.machine_loses(&start, budget) {
            break true;
        }
        if !search.ran_out || budget >= most {
            break false;
        }
    };
    let unbeaten_openings = match ties {
        Ties::Any if !beatable => search
            .machine_moves(&start)
            .into_iter()
            .filter(|&e| !search.player_wins(&start.after(e), budget))
            .collect(),
        _ => Vec::new(),
    };
    let mut strategy_positions = 0;
    if beatable {
        let mut seen = HashSet::new();
        search.count(&start, budget, &mut seen);
        strategy_positions = seen.len();
    }
    // The line opens with an unbeaten opening when there is one.
    let line = match unbeaten_openings.first() {
        Some(&opening) => {
            let mut line = vec![Move {
                side: Side::Cut,
                edge: opening,
            }];
            line.extend(search.line(start.after(opening), None));
            line
        }
        None => search.line(start, beatable.then_some(budget)),
    };
    BeatReport {
        size,
        model,
        ties,
        beatable,
        line,
        strategy_positions,
        unbeaten_openings,
        searched: search.searched(),
        budget: beatable.then_some(budget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Working ahead in parallel changes no answer and no count: the report is the serial
    /// search's, on every network and tie rule, beatable or not (M=3 with `any` is not).
    #[test]
    fn working_ahead_gives_the_serial_report() {
        for m in [3, 4] {
            let size = Size::new(m).unwrap();
            for model in [Model::Ideal, Model::Reference] {
                for ties in [Ties::ReadingOrder, Ties::Any] {
                    let serial = search_start(size, model, ties, &mut |_| {}, false, false);
                    let ahead = search_start(size, model, ties, &mut |_| {}, true, false);
                    assert_eq!(ahead, serial, "M={m} {model:?} {ties:?}");
                }
            }
        }
    }

    /// Answers taken from mirror images change no answer and no count either, alone or
    /// with the parallel look-ahead.
    #[test]
    fn mirror_images_give_the_plain_report() {
        for m in [3, 4] {
            let size = Size::new(m).unwrap();
            for model in [Model::Ideal, Model::Reference] {
                for ties in [Ties::ReadingOrder, Ties::Any] {
                    let plain = search_start(size, model, ties, &mut |_| {}, false, false);
                    let mirror = search_start(size, model, ties, &mut |_| {}, false, true);
                    assert_eq!(mirror, plain, "M={m} {model:?} {ties:?}");
                    let both = search_start(size, model, ties, &mut |_| {}, true, true);
                    assert_eq!(both, plain, "M={m} {model:?} {ties:?} ahead");
                }
            }
        }
    }

    /// With reading-order ties the machine's moves are not taken from the mirror image:
    /// where ties are broken, the first in reading order here is not the mirror of the
    /// first there. Checked at every M=4 position after one move each that has a tie.
    #[test]
    fn reading_order_choices_are_not_mirrored() {
        let m4 = Size::new(4).unwrap();
        let start = Position::new(m4, Side::Cut);
        let mut tied = 0;
        for c in start.open() {
            for s in start.after(c).open() {
                let p = start.after(c).after(s);
                if p.machine_moves(Model::Ideal, Ties::Any).len() < 2 {
                    continue;
                }
                tied += 1;
                let mut quiet = |_| {};
                let mut search = Search::<Position>::new(
                    Side::Short,
                    Model::Ideal,
                    Ties::ReadingOrder,
                    10,
                    &mut quiet,
                );
                search.mirror = true;
                let image = Position::from_record(
                    m4,
                    Side::Cut,
                    &format!(
                        "{},{}",
                        mirror(m4, c),
                        mirror(m4, s).to_string().to_lowercase()
                    ),
                )
                .unwrap();
                search.machine_moves(&image);
                assert_eq!(
                    search.machine_moves(&p),
                    p.machine_moves(Model::Ideal, Ties::ReadingOrder),
                    "{c},{s}"
                );
            }
        }
        assert!(tied > 0);
    }

    /// The mirror key is the key of the game played with every move mirrored (columns
    /// A..G of M=4 read G..A), and the mirrored moves come back in reading order.
    #[test]
    fn mirror_key_is_the_mirrored_games_key() {
        let m4 = Size::new(4).unwrap();
        let game = Position::from_record(m4, Side::Cut, "A7,b6,C5,d2").unwrap();
        let image = Position::from_record(m4, Side::Cut, "G7,f6,E5,d2").unwrap();
        assert_eq!(game.mirror_key(), Some(image.key()));
        assert_eq!(image.mirror_key(), Some(game.key()));
        let edge = |s: &str| Edge::parse(m4, s).unwrap();
        assert_eq!(
            game.mirror_moves(&[edge("A7"), edge("B6"), edge("G1")]),
            vec![edge("G7"), edge("F6"), edge("A1")]
        );
    }
}
