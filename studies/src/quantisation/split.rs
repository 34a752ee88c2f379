//! The quantisation study of the tree split at a ply (`--split-ply D`), for trees no process
//! can hold (M=5's, about 10^9 positions). Shard K of P rebuilds plies 0..D as
//! [`PositionSet::tree`] does, studies the decisions before ply D whose ordinal is K mod P,
//! and walks the subtrees of the ply-D positions whose index in their ply is K mod P, a ply at
//! a time (a position is reached at one ply only, so deduplicating each ply on its own is
//! deduplicating the walk). It keeps, per decision it read, the position's key and the
//! compact result ([`Compact`]); a position under two shards' subtrees is read by both.
//!
//! The merge keeps one result per key, rebuilds the tree with Cut's moves taken from the
//! results (no solve: [`PositionSet::tree_with`]), so indices and records are the one
//! process's, and tallies the decisions in the tree's order into one part, which
//! [`super::report`] turns into the one process's report.

use std::collections::HashMap;

use emulator::quantisation::{ColumnMove, Decision, Quantiser};
use emulator::truth::Truth;
use emulator::verdict::Judgement;
use heuristic::{Edge, MAX_EDGES, Move, Position, Side, Size};
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use shards::ShardId;

use super::{PlainShard, Tally, divergent_row};
use crate::positions::{self, PositionSet, heuristic_move, position_key};
use crate::{CHUNK, Control};

/// Why a split study cannot run or merge; it lives in the leaf module `tree_split`, so the
/// study trait's errors carry it without importing this one.
pub use crate::tree_split::SplitError;

/// What one decision's reading leaves for the report: the exact choice, the tied set and the
/// margin, and per column the judgement, the move from the codes and (for a divergence) the
/// drop it gave away. Everything [`Tally::add`] and the positions' rows read.
#[derive(Clone, Debug, PartialEq)]
pub struct Compact {
    choice: u8,
    tied: u128,
    margin: Option<f64>,
    moves: Vec<(u8, u8, f64)>,
}

impl Compact {
    pub(super) fn new(size: Size, decision: &Decision) -> Compact {
        Compact {
            choice: edge_byte(size, decision.truth.choice),
            tied: decision.truth.tied,
            margin: decision.truth.margin(),
            moves: decision
                .moves
                .iter()
                .map(|m| {
                    let lost = if m.judgement.diverges() { m.lost } else { 0.0 };
                    (m.judgement.index() as u8, edge_byte(size, m.chosen), lost)
                })
                .collect(),
        }
    }

    /// The decision as the tally and the rows read it; the truth's volts and drops, which
    /// they do not read, are left empty.
    pub(super) fn decision(&self, size: Size, edges: &[Edge]) -> Decision {
        Decision {
            truth: Truth {
                size,
                choice: edges[usize::from(self.choice)],
                tied: self.tied,
                volts: Vec::new(),
                drops: [0.0; MAX_EDGES],
                best: 0.0,
                runner_up: None,
                margin: self.margin,
            },
            moves: self
                .moves
                .iter()
                .map(|&(j, chosen, lost)| ColumnMove {
                    judgement: Judgement::ALL[usize::from(j)],
                    chosen: edges[usize::from(chosen)],
                    lost,
                })
                .collect(),
        }
    }

    fn write(&self, key: &[u64; 4], out: &mut Vec<u8>) {
        for w in key {
            out.extend(w.to_le_bytes());
        }
        self.write_result(out);
    }

    /// The result alone, without a key: the ply walk's findings ([`super::walk`]) hold it
    /// after the position's record.
    pub(super) fn write_result(&self, out: &mut Vec<u8>) {
        out.push(self.choice);
        out.extend(self.tied.to_le_bytes());
        match self.margin {
            Some(m) => {
                out.push(1);
                out.extend(m.to_bits().to_le_bytes());
            }
            None => out.push(0),
        }
        for &(j, chosen, lost) in &self.moves {
            // A column that agrees chose the exact choice: its move is not written (most
            // columns agree; this is a quarter of a record at M=5).
            out.push(j);
            match Judgement::ALL[usize::from(j)] {
                Judgement::Agree => debug_assert_eq!(chosen, self.choice),
                judgement => {
                    out.push(chosen);
                    if judgement.diverges() {
                        out.extend(lost.to_bits().to_le_bytes());
                    }
                }
            }
        }
    }

    /// The fewest bytes a record takes: key, choice, tied set, margin flag, one byte a column.
    fn least_bytes(columns: usize) -> usize {
        32 + 1 + 16 + 1 + columns
    }

    /// One record; its edges must be among the cage's `edges` (a body whose hash was
    /// recomputed may hold anything: it is refused, never indexed with).
    fn read(
        bytes: &mut &[u8],
        columns: usize,
        edges: usize,
    ) -> Result<([u64; 4], Compact), SplitError> {
        let mut key = [0u64; 4];
        for w in &mut key {
            *w = u64::from_le_bytes(take(bytes)?);
        }
        Ok((key, Compact::read_result(bytes, columns, edges)?))
    }

    /// A result [`Compact::write_result`] wrote, of `columns` columns, its edges among the
    /// cage's `edges`.
    pub(super) fn read_result(
        bytes: &mut &[u8],
        columns: usize,
        edges: usize,
    ) -> Result<Compact, SplitError> {
        let [choice] = take(bytes)?;
        if usize::from(choice) >= edges {
            return Err(SplitError::Body("a choice that is not an edge of the cage"));
        }
        let tied = u128::from_le_bytes(take(bytes)?);
        let margin = match take(bytes)? {
            [0] => None,
            [1] => Some(f64::from_bits(u64::from_le_bytes(take(bytes)?))),
            _ => return Err(SplitError::Body("a margin flag not 0 or 1")),
        };
        let mut moves = Vec::with_capacity(columns);
        for _ in 0..columns {
            let [j] = take(bytes)?;
            let judgement = *Judgement::ALL
                .get(usize::from(j))
                .ok_or(SplitError::Body("a judgement out of range"))?;
            let [chosen] = match judgement {
                Judgement::Agree => [choice],
                _ => take(bytes)?,
            };
            if usize::from(chosen) >= edges {
                return Err(SplitError::Body(
                    "a column's move that is not an edge of the cage",
                ));
            }
            let lost = match judgement.diverges() {
                true => f64::from_bits(u64::from_le_bytes(take(bytes)?)),
                false => 0.0,
            };
            moves.push((j, chosen, lost));
        }
        Ok(Compact {
            choice,
            tied,
            margin,
            moves,
        })
    }
}

pub(super) fn take<const N: usize>(bytes: &mut &[u8]) -> Result<[u8; N], SplitError> {
    let (head, rest) = bytes
        .split_first_chunk::<N>()
        .ok_or(SplitError::Body("cut short"))?;
    *bytes = rest;
    Ok(*head)
}

fn edge_byte(size: Size, edge: Edge) -> u8 {
    u8::try_from(edge.index(size)).unwrap_or_else(|_| unreachable!("at most 113 edges"))
}

/// The first bytes of a split part's body: not JSON, so never taken for a plain part.
const MAGIC: &[u8; 8] = b"QSPLIT2\n";

/// One shard's part of the split study: its results, encoded as they are found.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitShard {
    /// Decisions read.
    pub decisions: u64,
    /// Whether the walk ended (Ctrl-C stops it between chunks).
    pub complete: bool,
    /// The body as the shard file holds it: [`HEADER`] bytes (magic, decisions, the
    /// completion flag; filled in by [`SplitShard::into_bytes`]), then [`Compact::write`]'s
    /// records, one per decision read. Built in place, so the body is never copied: at M=5
    /// it is gigabytes.
    body: Vec<u8>,
}

/// The body's header: the magic, the decisions read (u64) and the completion flag.
const HEADER: usize = MAGIC.len() + 8 + 1;

impl SplitShard {
    /// A part with nothing read yet.
    fn new() -> SplitShard {
        SplitShard {
            decisions: 0,
            complete: false,
            body: vec![0; HEADER],
        }
    }

    /// The records, after the header.
    fn records(&self) -> &[u8] {
        &self.body[HEADER..]
    }

    /// The part as its shard file's body: the header written into the bytes it kept for it.
    pub fn into_bytes(mut self) -> Vec<u8> {
        let mut header = Vec::with_capacity(HEADER);
        header.extend(MAGIC);
        header.extend(self.decisions.to_le_bytes());
        header.push(u8::from(self.complete));
        self.body[..HEADER].copy_from_slice(&header);
        self.body
    }

    /// A part read back from its body (its records are decoded by the merge).
    pub fn from_bytes(bytes: &[u8]) -> Result<SplitShard, SplitError> {
        let mut rest = bytes
            .strip_prefix(MAGIC)
            .ok_or(SplitError::Body("no split part header"))?;
        let decisions = u64::from_le_bytes(take(&mut rest)?);
        let complete = match take(&mut rest)? {
            [0] => false,
            [1] => true,
            _ => return Err(SplitError::Body("a completion flag not 0 or 1")),
        };
        Ok(SplitShard {
            decisions,
            complete,
            body: bytes.to_vec(),
        })
    }
}

/// Whether Cut decides at `position` (the tree's [`PositionSet::decisions`]).
pub(super) fn decides(position: &Position) -> bool {
    position.to_move() == Some(Side::Cut) && position.resistors().next().is_some()
}

/// The next ply of the tree from `level`, deduplicated, in [`PositionSet::tree`]'s order:
/// `cut[i]` is Cut's move at `level[i]` when known (else the heuristic's is solved).
fn next_ply(level: &[Position], cut: &[Option<Move>]) -> Vec<Position> {
    positions::next_ply(level, |i| cut[i].or_else(|| heuristic_move(&level[i])))
        .par_iter()
        .map(|&(s, mv)| positions::child(&level[s as usize], mv))
        .collect()
}

/// Checks `ply` against the size: a ply past the longest game is refused.
pub fn check_ply(size: Size, ply: u32) -> Result<(), SplitError> {
    let edges = size.edge_count();
    match ply as usize > edges {
        true => Err(SplitError::PastTheGame {
            ply,
            m: size.get(),
            edges,
        }),
        false => Ok(()),
    }
}

/// Shard `id` of the study split at `ply`: the decisions before `ply` whose ordinal is
/// `id`'s, then the subtrees of `id`'s positions of ply `ply`, read with `study`.
pub fn run_split(
    size: Size,
    study: &Quantiser,
    ply: u32,
    id: ShardId,
    control: &Control<'_>,
) -> Result<SplitShard, SplitError> {
    check_ply(size, ply)?;
    // Plies 0..ply as the one process builds them, and their decisions in its order.
    let mut level = vec![Position::new(size, Side::Cut)];
    let mut before = Vec::new();
    for _ in 0..ply {
        before.extend(level.iter().filter(|p| decides(p)).cloned());
        level = next_ply(&level, &vec![None; level.len()]);
    }
    if (level.len() as u64) < u64::from(id.count) {
        return Err(SplitError::TooManyShards {
            ply,
            m: size.get(),
            positions: level.len(),
            count: id.count,
        });
    }
    let mut part = SplitShard::new();
    let owned = |list: Vec<Position>| -> Vec<Position> {
        list.into_iter()
            .enumerate()
            .filter(|&(k, _)| id.owns(k as u64))
            .map(|(_, p)| p)
            .collect()
    };
    // The decisions before the split: read only, their subtrees are the frontier's.
    if !read_level(size, study, &owned(before), &mut part, control).0 {
        return Ok(part);
    }
    let mut level = owned(level);
    while !level.is_empty() {
        let (finished, cut) = read_level(size, study, &level, &mut part, control);
        if !finished {
            return Ok(part);
        }
        level = next_ply(&level, &cut);
    }
    part.complete = true;
    Ok(part)
}

/// Reads the decisions of `level` in chunks into `part`; returns whether it finished and
/// Cut's move at each position (the exact choice of each decision read).
fn read_level(
    size: Size,
    study: &Quantiser,
    level: &[Position],
    part: &mut SplitShard,
    control: &Control<'_>,
) -> (bool, Vec<Option<Move>>) {
    let mut cut = Vec::with_capacity(level.len());
    for chunk in level.chunks(CHUNK) {
        if control.stopped() {
            return (false, cut);
        }
        let read: Vec<Option<Decision>> = chunk
            .par_iter()
            .map(|p| decides(p).then(|| study.read(p)).flatten())
            .collect();
        for (p, d) in chunk.iter().zip(read) {
            cut.push(d.as_ref().map(|d| Move {
                side: Side::Cut,
                edge: d.truth.choice,
            }));
            if let Some(d) = d {
                Compact::new(size, &d).write(&position_key(p), &mut part.body);
                part.decisions += 1;
            }
        }
        // The subtrees' decisions are known only once walked: a count, no total.
        (control.progress)(part.decisions, 0);
    }
    (true, cut)
}

/// The merge: one result per key over `parts`, the tree rebuilt from their Cut moves, and
/// its decisions tallied in its order into one part of `columns` columns keeping `worst`.
pub fn merge(
    size: Size,
    bits: &[u8],
    columns: usize,
    worst: usize,
    parts: &[SplitShard],
) -> Result<(PositionSet, PlainShard), SplitError> {
    let edges: Vec<Edge> = size.edges().collect();
    // A count no body can hold (2^62, its hash recomputed) is refused before any capacity
    // is asked for it.
    if parts
        .iter()
        .any(|p| p.decisions > (p.records().len() / Compact::least_bytes(columns)) as u64)
    {
        return Err(SplitError::Body("more decisions than its bytes can hold"));
    }
    let held: usize = parts.iter().map(|p| p.decisions as usize).sum();
    let mut results: HashMap<[u64; 4], Compact, FxBuildHasher> =
        HashMap::with_capacity_and_hasher(held, FxBuildHasher);
    for part in parts {
        let mut bytes = part.records();
        for _ in 0..part.decisions {
            let (key, compact) = Compact::read(&mut bytes, columns, edges.len())?;
            match results.get(&key) {
                Some(c) if *c != compact => {
                    return Err(SplitError::Disagree(format!("{key:x?}")));
                }
                Some(_) => {}
                None => {
                    results.insert(key, compact);
                }
            }
        }
        if !bytes.is_empty() {
            return Err(SplitError::Body("bytes after the last record"));
        }
    }
    let set = PositionSet::tree_with(size, |p| {
        results.get(&position_key(p)).map(|c| Move {
            side: Side::Cut,
            edge: edges[usize::from(c.choice)],
        })
    });
    let decisions = set.decisions();
    if decisions.len() != results.len() {
        // A decision missing is named below; otherwise some result is not the tree's.
        let missing = decisions
            .iter()
            .find(|&&i| !results.contains_key(&position_key(&set.entries()[i as usize].position)));
        return Err(match missing {
            Some(&index) => SplitError::Missing {
                index,
                record: set.record(index),
            },
            None => SplitError::Foreign {
                held: results.len(),
                tree: decisions.len(),
            },
        });
    }
    let mut tally = Tally::new(columns, worst);
    let mut rows = Vec::new();
    for (k, &i) in decisions.iter().enumerate() {
        let position = &set.entries()[i as usize].position;
        let Some(compact) = results.get(&position_key(position)) else {
            return Err(SplitError::Missing {
                index: i,
                record: set.record(i),
            });
        };
        let decision = compact.decision(size, &edges);
        tally.add(i, &decision);
        if let Some(row) = divergent_row(&set, bits, i, &decision) {
            rows.push((k as u64, row));
        }
    }
    let part = PlainShard {
        tally,
        rows,
        done: decisions.len(),
        owned: decisions.len(),
    };
    Ok((set, part))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 62: a body whose shard hash was recomputed may say anything. A count of 2^62
    /// decisions panicked the merge ("capacity overflow"), a choice of 255 at an index: both
    /// are refused now, and the same record with a real edge merges past that check.
    #[test]
    fn a_body_its_hash_accepts_is_refused_never_a_panic() {
        let size = Size::new(3).unwrap();
        let merged = |part: SplitShard| {
            let part = SplitShard::from_bytes(&part.into_bytes()).unwrap();
            merge(size, &[10], 1, 1, &[part])
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        let mut huge = SplitShard::new();
        huge.decisions = 1 << 62;
        huge.complete = true;
        assert_eq!(
            merged(huge),
            SplitError::Body("more decisions than its bytes can hold").to_string()
        );
        let record = |choice: u8| {
            let mut part = SplitShard::new();
            let compact = Compact {
                choice,
                tied: 1,
                margin: None,
                moves: vec![(Judgement::Agree.index() as u8, choice, 0.0)],
            };
            compact.write(&[1, 2, 3, 4], &mut part.body);
            part.decisions = 1;
            part.complete = true;
            part
        };
        assert_eq!(
            merged(record(255)),
            SplitError::Body("a choice that is not an edge of the cage").to_string()
        );
        // A real edge gets past the record's checks; this key is no position of the tree.
        let e = merged(record(0));
        assert!(!e.contains("not an edge"), "{e}");
    }
}
