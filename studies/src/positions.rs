//! The position sets the studies walk: the tree Cut's heuristic leaves open to every reply of
//! Short, random games, or the games of a records file. Each set deduplicates positions and
//! keeps one parent link per position, so any position's game record can be printed and
//! replayed (`birdcage analyze --moves ...`).

use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};

use heuristic::{EdgeState, Model, Move, Position, Record, RecordError, Side, Size};
use rand::SeedableRng;
use rand::seq::IteratorRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use rustc_hash::FxBuildHasher;

/// One position of a set and how it was first reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The position.
    pub position: Position,
    /// The entry it was first reached from; `None` for a start position.
    pub parent: Option<u32>,
    /// The move from the parent.
    pub mv: Option<Move>,
}

/// A deduplicated set of positions of one board size, in the order they were found.
#[derive(Clone, Debug)]
pub struct PositionSet {
    size: Size,
    description: String,
    entries: Vec<Entry>,
    /// The index of each position, for the sets built a position at a time (random games,
    /// records); the tree deduplicates a ply at a time ([`next_ply`]) and leaves
    /// it empty. FxHash: the keys are the set's own positions, never an adversary's.
    index: HashMap<Key, u32, FxBuildHasher>,
}

/// A records file that does not replay (the line and what is wrong on it), or holds no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordsError {
    /// A line that does not replay.
    #[error("{origin} line {line}: {error}")]
    Line {
        /// The file, as named by the caller.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The bad move (its number and what is wrong).
        error: RecordError,
    },
    /// The file could not be read: not a regular file (a FIFO, a device), more than
    /// [`MAX_RECORDS_BYTES`], not text, or an I/O error.
    #[error("cannot read records file {origin}: {error}")]
    Read {
        /// The file, as named by the caller.
        origin: String,
        /// Why.
        error: boards::read::ReadError,
    },
    /// Nothing but blank lines and comments: a study of it would study nothing.
    #[error(
        "{origin} holds no game (one record per line, e.g. `A5,c5,C3`; blank lines and `#` \
         comments are skipped)"
    )]
    NoGame {
        /// The file, as named by the caller.
        origin: String,
    },
}

/// The largest records file read, 16 MiB: a game of the largest board is under 600 bytes,
/// and a study of more than the 28,000 games this holds is a study of random games.
pub const MAX_RECORDS_BYTES: u64 = 16 << 20;

/// A position's identity within one size: two bits per edge (up to M=8's 113 edges) and
/// the side to move.
type Key = [u64; 4];

fn key(position: &Position) -> Key {
    let mut k = [0u64; 4];
    k[3] = u64::from(position.to_move() == Some(Side::Short)) << 63;
    for (i, &s) in position.states().iter().enumerate() {
        let bits = match s {
            EdgeState::Resistor => 0,
            EdgeState::Cut => 1,
            EdgeState::Short => 2,
        };
        k[i / 32] |= bits << (2 * (i % 32));
    }
    k
}

/// The move Cut's heuristic plays on the exact `ideal` network, if any resistor is left:
/// the float solve's when it leaves no doubt, else the exact solve's (the same move,
/// [`emulator::players::heuristic_move`]), so the tree does not pay for a rational solve
/// at every decision (a quarter of the M=4 study's CPU time).
pub fn heuristic_move(position: &Position) -> Option<Move> {
    let edge = emulator::players::heuristic_move(position, Model::Ideal)?;
    Some(Move {
        side: Side::Cut,
        edge,
    })
}

/// A position's identity within one size ([`PositionSet`]'s key), for the tree split into
/// shards ([`crate::quantisation::split`]), which deduplicates one ply at a time and matches
/// the shards' results to the tree's positions by it.
pub fn position_key(position: &Position) -> [u64; 4] {
    key(position)
}

/// How reports name the tree of `size` ([`PositionSet::tree`]'s description), shared with
/// the ply walk, which never holds the set.
pub fn tree_description(size: Size) -> String {
    format!(
        "M={} tree: Cut plays the heuristic, Short every move",
        size.get()
    )
}

/// The tree's moves from `position`, in [`PositionSet::tree`]'s order: `cut`'s move for Cut
/// (asked only when Cut is to move), every resistor for Short.
fn tree_moves(position: &Position, cut: impl FnOnce(&Position) -> Option<Move>) -> Vec<Move> {
    match position.to_move() {
        None => Vec::new(),
        Some(Side::Cut) => cut(position).into_iter().collect(),
        Some(Side::Short) => position
            .resistors()
            .map(|edge| Move {
                side: Side::Short,
                edge,
            })
            .collect(),
    }
}

/// The tree's children of `position` and their moves (Cut's from `cut`, Short's every resistor). The split study
/// gives Cut's move from a result already worked out rather than solving again.
pub fn tree_children(
    position: &Position,
    cut: impl FnOnce(&Position) -> Option<Move>,
) -> Vec<(Position, Move)> {
    tree_moves(position, cut)
        .into_iter()
        .map(|mv| (child(position, mv), mv))
        .collect()
}

/// The position after `mv`, a move of the tree from `position`.
pub fn child(position: &Position, mv: Move) -> Position {
    let mut child = position.clone();
    child
        .play(mv)
        .expect("the tree's moves are resistors of open games");
    child
}

/// The edges' states of the position `mv` leads to from the one whose key is `parent`,
/// without the side to move: a position's identity within its ply ([`next_ply`]).
fn child_states(size: Size, parent: Key, mv: Move) -> Key {
    let mut k = parent;
    k[3] &= !(1 << 63);
    let i = mv.edge.index(size);
    let bits: u64 = match mv.side {
        Side::Cut => 1,
        Side::Short => 2,
    };
    k[i / 32] |= bits << (2 * (i % 32));
    k
}

/// The tree's next ply below `ply` (a ply of the tree, or of one of its subtrees): each new
/// position once, in the order first found (the parents in order, each one's moves in
/// [`tree_children`]' order), as the index in `ply` of the parent it was first found from and
/// the move; [`child`] makes it. `cut(i)` is Cut's move at `ply[i]`, asked only when Cut is to
/// move.
///
/// A position with k moves played is at ply k only, so deduplicating each ply on its own
/// deduplicates the tree; within a ply the edges' states alone tell positions apart (the side
/// to move follows from them), so a child is identified from its parent's key
/// (`child_states`) before it is made, and a duplicate is never made: a ply's children are
/// ten to twenty times the next ply, and holding them all as positions was most of a split
/// shard's memory beside its records.
pub fn next_ply<T: Borrow<Position> + Sync>(
    ply: &[T],
    cut: impl Fn(usize) -> Option<Move> + Sync,
) -> Vec<(u32, Move)> {
    let mut seen: HashSet<Key, FxBuildHasher> = HashSet::default();
    let mut firsts = Vec::new();
    for (c, chunk) in ply.chunks(crate::CHUNK).enumerate() {
        let base = c * crate::CHUNK;
        let found: Vec<Vec<(Key, Move)>> = chunk
            .par_iter()
            .enumerate()
            .map(|(j, p)| {
                let p: &Position = p.borrow();
                let states = key(p);
                tree_moves(p, |_| cut(base + j))
                    .into_iter()
                    .map(|mv| (child_states(p.size(), states, mv), mv))
                    .collect()
            })
            .collect();
        for (j, kids) in found.into_iter().enumerate() {
            for (k, mv) in kids {
                if seen.insert(k) {
                    let parent = u32::try_from(base + j)
                        .unwrap_or_else(|_| unreachable!("plies stay far below 2^32"));
                    firsts.push((parent, mv));
                }
            }
        }
    }
    firsts
}

impl Borrow<Position> for Entry {
    fn borrow(&self) -> &Position {
        &self.position
    }
}

impl PositionSet {
    fn empty(size: Size, description: String) -> PositionSet {
        PositionSet {
            size,
            description,
            entries: Vec::new(),
            index: HashMap::default(),
        }
    }

    /// Adds `position` unless it is already in the set; returns its index and whether it is new.
    fn insert(&mut self, position: Position, parent: Option<u32>, mv: Option<Move>) -> (u32, bool) {
        let k = key(&position);
        if let Some(&i) = self.index.get(&k) {
            return (i, false);
        }
        let i = u32::try_from(self.entries.len())
            .unwrap_or_else(|_| unreachable!("sets stay far below 2^32"));
        self.index.insert(k, i);
        self.entries.push(Entry {
            position,
            parent,
            mv,
        });
        (i, true)
    }

    /// Every position reachable from the start (Cut first) when Cut plays the heuristic on
    /// the exact `ideal` network and Short plays every legal move. Built ply by ply; the
    /// heuristic's moves of a ply are solved in parallel, the set grows in a fixed order.
    pub fn tree(size: Size) -> PositionSet {
        PositionSet::tree_with(size, heuristic_move)
    }

    /// [`PositionSet::tree`] with Cut's move at each decision given by `cut` instead of
    /// solved: the same set, entry for entry, when `cut` gives the heuristic's move. The split
    /// study's merge builds the tree from the moves its shards found, with no solve.
    pub fn tree_with(size: Size, cut: impl Fn(&Position) -> Option<Move> + Sync) -> PositionSet {
        let built: Result<_, std::convert::Infallible> =
            PositionSet::tree_reading(size, |p| cut(p).map(|mv| (mv, ())), |_, _| Ok(true));
        match built {
            Ok(set) => set.expect("a builder that never stops finishes"),
        }
    }

    /// [`PositionSet::tree_with`], where `read` gives Cut's move at each decision together
    /// with whatever else the caller keeps of it, and `take` is handed those, in the set's
    /// order, a chunk of [`crate::CHUNK`] positions of a ply at a time, with the set built so
    /// far (every entry's parents are in it). The quantisation study reads each decision
    /// exactly once this way: the tree's move is the read's exact choice. `take` returns
    /// `Ok(false)` to stop: the set is then `None`, as it is not the tree.
    pub fn tree_reading<R: Send, E>(
        size: Size,
        read: impl Fn(&Position) -> Option<(Move, R)> + Sync,
        mut take: impl FnMut(&PositionSet, Vec<(u32, R)>) -> Result<bool, E>,
    ) -> Result<Option<PositionSet>, E> {
        let mut set = PositionSet::empty(size, tree_description(size));
        set.entries.push(Entry {
            position: Position::new(size, Side::Cut),
            parent: None,
            mv: None,
        });
        // A ply's entries are contiguous ([`next_ply`]).
        let mut ply = 0..1u32;
        while !ply.is_empty() {
            let start = ply.start as usize;
            let positions = &set.entries[start..ply.end as usize];
            let mut cuts: Vec<Option<Move>> = Vec::with_capacity(positions.len());
            for (c, chunk) in positions.chunks(crate::CHUNK).enumerate() {
                let read: Vec<Option<(Move, R)>> = chunk
                    .par_iter()
                    .map(|e| {
                        (e.position.to_move() == Some(Side::Cut))
                            .then(|| read(&e.position))
                            .flatten()
                    })
                    .collect();
                let mut taken = Vec::new();
                for (j, r) in read.into_iter().enumerate() {
                    cuts.push(r.as_ref().map(|(mv, _)| *mv));
                    let i = ply.start + (c * crate::CHUNK + j) as u32;
                    taken.extend(r.map(|(_, r)| (i, r)));
                }
                if !take(&set, taken)? {
                    return Ok(None);
                }
            }
            let firsts = next_ply(positions, |i| cuts[i]);
            let next: Vec<Entry> = firsts
                .par_iter()
                .map(|&(s, mv)| Entry {
                    position: child(&positions[s as usize].position, mv),
                    parent: Some(ply.start + s),
                    mv: Some(mv),
                })
                .collect();
            set.entries.extend(next);
            ply = ply.end
                ..u32::try_from(set.entries.len())
                    .unwrap_or_else(|_| unreachable!("sets stay far below 2^32"));
        }
        Ok(Some(set))
    }

    /// `games` games from the start (Cut first): Cut plays the heuristic, Short a random legal
    /// move drawn from `seed`. The games are drawn in parallel from one seed each, then added in
    /// order, so the set depends on the seed alone.
    pub fn random_games(size: Size, games: usize, seed: u64) -> PositionSet {
        let mut set = PositionSet::empty(
            size,
            format!(
                "M={}, {games} random games (Cut plays the heuristic, Short at random; seed {seed})",
                size.get()
            ),
        );
        let lines: Vec<Vec<Move>> = (0..games as u64)
            .into_par_iter()
            .map(|g| {
                let mut rng =
                    ChaCha8Rng::seed_from_u64(seed ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                let mut position = Position::new(size, Side::Cut);
                let mut moves = Vec::new();
                while let Some(side) = position.to_move() {
                    let mv = match side {
                        Side::Cut => heuristic_move(&position),
                        Side::Short => position
                            .resistors()
                            .choose(&mut rng)
                            .map(|edge| Move { side, edge }),
                    };
                    let Some(mv) = mv else { break };
                    if position.play(mv).is_err() {
                        break;
                    }
                    moves.push(mv);
                }
                moves
            })
            .collect();
        for moves in lines {
            set.add_line(&moves);
        }
        set
    }

    /// The games of a records file, one record per line (Cut first; blank lines and lines
    /// starting with `#` are skipped), every position along each game. `origin` names the file
    /// in errors. A file with no game is an error.
    ///
    /// ```
    /// use studies::positions::PositionSet;
    /// let m3 = heuristic::Size::new(3).unwrap();
    /// let e = PositionSet::records(m3, "# nothing\n\n", "games.txt").unwrap_err();
    /// assert!(e.to_string().starts_with("games.txt holds no game"));
    /// ```
    pub fn records(size: Size, text: &str, origin: &str) -> Result<PositionSet, RecordsError> {
        PositionSet::records_text(size, text, origin)
    }

    /// [`PositionSet::records`] of the file at `path`: a regular file (a FIFO or a device is
    /// refused before it is opened) of at most [`MAX_RECORDS_BYTES`].
    pub fn read_records(size: Size, path: &std::path::Path) -> Result<PositionSet, RecordsError> {
        let origin = path.display().to_string();
        let text =
            boards::read::text(path, MAX_RECORDS_BYTES).map_err(|error| RecordsError::Read {
                origin: origin.clone(),
                error,
            })?;
        PositionSet::records_text(size, &text, &origin)
    }

    fn records_text(size: Size, text: &str, origin: &str) -> Result<PositionSet, RecordsError> {
        let mut set = PositionSet::empty(size, format!("M={} games of {origin}", size.get()));
        let mut games = 0;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |error| RecordsError::Line {
                origin: origin.to_string(),
                line: n + 1,
                error,
            };
            let record = Record::read(size, Side::Cut, line).map_err(error)?;
            set.add_line(record.moves());
            games += 1;
        }
        if games == 0 {
            return Err(RecordsError::NoGame {
                origin: origin.to_string(),
            });
        }
        Ok(set)
    }

    /// Adds every position along `moves` from the start.
    fn add_line(&mut self, moves: &[Move]) {
        let mut position = Position::new(self.size, Side::Cut);
        let (mut parent, _) = self.insert(position.clone(), None, None);
        for &mv in moves {
            if position.play(mv).is_err() {
                return;
            }
            parent = self.insert(position.clone(), Some(parent), Some(mv)).0;
        }
    }

    /// Board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// What the set is, for reports.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Every entry in the order found.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the set holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The positions where the heuristic decides: Cut to move, game not over.
    pub fn decisions(&self) -> Vec<u32> {
        self.indices(|p| p.to_move() == Some(Side::Cut) && p.resistors().next().is_some())
    }

    /// The finished games: positions with a winner.
    pub fn finished(&self) -> Vec<u32> {
        self.indices(|p| p.winner().is_some())
    }

    fn indices(&self, keep: impl Fn(&Position) -> bool) -> Vec<u32> {
        (0..self.entries.len() as u32)
            .filter(|&i| keep(&self.entries[i as usize].position))
            .collect()
    }

    /// The entries from the start to `index`, following parent links.
    pub fn path(&self, index: u32) -> Vec<u32> {
        let mut path = vec![index];
        let mut at = index;
        while let Some(parent) = self.entries[at as usize].parent {
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The game record that reaches entry `index` (`A5,c5,C3`), as `analyze --moves` takes it.
    pub fn record(&self, index: u32) -> String {
        let moves: Vec<Move> = self
            .path(index)
            .iter()
            .filter_map(|&i| self.entries[i as usize].mv)
            .collect();
        Record::from_moves(Side::Cut, &moves)
            .expect("a path of the set is a legal game")
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashSet, VecDeque};

    /// The tree as first built: the exact rational solve's move at every decision, found
    /// breadth first. The float-first move and the parallel keys leave it unchanged, entry
    /// for entry (position, parent, move), on M=2 and M=3.
    #[test]
    fn tree_is_the_exact_solves_tree() {
        for m in [2, 3] {
            let size = Size::new(m).unwrap();
            let start = Position::new(size, Side::Cut);
            let mut expected = vec![(start.clone(), None, None)];
            let mut seen = HashSet::from([start.states().to_vec()]);
            let mut queue = VecDeque::from([0usize]);
            while let Some(i) = queue.pop_front() {
                let position: Position = expected[i].0.clone();
                let moves: Vec<Move> = match position.to_move() {
                    None => Vec::new(),
                    Some(Side::Cut) => emulator::exact::solve_model(&position, Model::Ideal)
                        .rank()
                        .map(|r| Move {
                            side: Side::Cut,
                            edge: r.choice,
                        })
                        .into_iter()
                        .collect(),
                    Some(side) => position
                        .resistors()
                        .map(|edge| Move { side, edge })
                        .collect(),
                };
                for mv in moves {
                    let mut child = position.clone();
                    child.play(mv).unwrap();
                    if seen.insert(child.states().to_vec()) {
                        queue.push_back(expected.len());
                        expected.push((child, Some(i as u32), Some(mv)));
                    }
                }
            }
            let tree = PositionSet::tree(size);
            let got: Vec<_> = tree
                .entries()
                .iter()
                .map(|e| (e.position.clone(), e.parent, e.mv))
                .collect();
            assert_eq!(got, expected, "M={m}");
        }
    }
}
