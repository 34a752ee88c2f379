//! The ply walk's report, merged from its findings without holding the tree: a ply after
//! another, the P findings files of a ply merged in record order (the one process's order,
//! [`super::walk`]), each position numbered as it comes, each decision tallied and its row
//! written as it comes. Memory: the tally, one ply's findings and the records of the
//! positions in the worst lists.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use emulator::quantisation::{Study, Tally};
use heuristic::{Edge, Move, Position, Record, Side};
use shards::ShardId;

use super::split::Compact;
use super::walk::{Walk, WalkError, findings_entries, read_counts};
use super::{Converter, Facts, Report, from_tally, row_of};
use crate::report::CsvWriter;

/// One findings body being read: its entries left and its shard.
struct Cursor<'b> {
    rest: &'b [u8],
    id: ShardId,
}

/// The report of the walk in `walk`'s folder, its divergent positions' rows into
/// `positions_csv`; the walk must be complete.
pub(super) fn report(
    walk: &Walk<'_>,
    study: &Study,
    (converters, seed): (&[Converter], u64),
    bits: &[u8],
    worst: usize,
    positions_csv: &mut CsvWriter,
) -> Result<Report, WalkError> {
    let size = walk.size();
    let edges: Vec<Edge> = size.edges().collect();
    let columns = study.columns();
    let mut tally = Tally::new(columns, worst);
    let mut records: HashMap<u32, Vec<u8>> = HashMap::new();
    positions_csv.row(&super::positions_header(converters, bits))?;
    let (mut index, mut decisions) = (0u64, 0u64);
    for ply in 0.. {
        let dir = walk.ply_dir(ply);
        let job = walk.findings_job(ply);
        let bodies = shards::read_shards(&dir, &job, walk.parts())?;
        let damaged = |id: ShardId, why: &str| WalkError::Damaged {
            path: shards::shard_path(&dir, &job, id),
            why: why.to_string(),
            command: job.shard_command(id),
        };
        let mut cursors = Vec::new();
        let mut heap = BinaryHeap::new();
        let mut in_ply = 0;
        for (body, id) in bodies.iter().zip(ShardId::all(walk.parts())) {
            let (positions, _) = read_counts(body).ok_or_else(|| damaged(id, "no header"))?;
            in_ply += positions;
            let rest = findings_entries(body).ok_or_else(|| damaged(id, "no header"))?;
            if let Some(record) = rest.get(..ply as usize).filter(|_| positions > 0) {
                heap.push(Reverse((record, cursors.len())));
            }
            cursors.push(Cursor { rest, id });
        }
        if in_ply == 0 {
            break;
        }
        while let Some(Reverse((record, c))) = heap.pop() {
            let cursor = &mut cursors[c];
            let id = cursor.id;
            let mut rest = &cursor.rest[ply as usize..];
            let [flag] = super::split::take(&mut rest).map_err(|_| damaged(id, "cut short"))?;
            let i = u32::try_from(index).map_err(|_| damaged(id, "over 2^32 positions"))?;
            index += 1;
            if flag == 1 {
                let compact = Compact::read_result(&mut rest, columns)
                    .map_err(|e| damaged(id, &e.to_string()))?;
                let decision = compact.decision(size, &edges);
                decisions += 1;
                tally.add(i, &decision);
                if let Some(row) = row_of(size, bits, i, || record_text(&edges, record), &decision)
                {
                    positions_csv.row(&row)?;
                    if tally
                        .columns
                        .iter()
                        .any(|c| c.worst.iter().any(|w| w.index == i))
                    {
                        records.insert(i, record.to_vec());
                    }
                }
            } else if flag != 0 {
                return Err(damaged(id, "a flag not 0 or 1"));
            }
            cursor.rest = rest;
            if let Some(next) = rest.get(..ply as usize).filter(|_| !rest.is_empty()) {
                heap.push(Reverse((next, c)));
            }
        }
    }
    positions_csv.flush()?;
    let lookup = |i: u32| {
        let record = records.get(&i).map(Vec::as_slice).unwrap_or_default();
        let mut position = Position::new(size, Side::Cut);
        for mv in moves(&edges, record) {
            let _ = position.play(mv);
        }
        let choice = crate::positions::heuristic_move(&position)
            .map(|m| m.edge.to_string())
            .unwrap_or_default();
        (record_text(&edges, record), choice)
    };
    let facts = Facts {
        size,
        description: crate::positions::tree_description(size),
        positions: index as usize,
        decisions: decisions as usize,
        lookup: &lookup,
    };
    let study_ref = study;
    Ok(from_tally(
        &facts,
        (converters, seed),
        bits,
        worst,
        study_ref,
        tally,
        decisions as usize,
    ))
}

/// The moves of a stored record: Cut first, the sides alternating.
fn moves<'a>(edges: &'a [Edge], record: &'a [u8]) -> impl Iterator<Item = Move> + 'a {
    record.iter().enumerate().map(|(n, &e)| Move {
        side: if n % 2 == 0 { Side::Cut } else { Side::Short },
        edge: edges[usize::from(e)],
    })
}

/// A stored record as `analyze --moves` takes it (`A5,c5,C3`).
fn record_text(edges: &[Edge], record: &[u8]) -> String {
    let moves: Vec<Move> = moves(edges, record).collect();
    Record::from_moves(Side::Cut, &moves)
        .map(|r| r.to_string())
        .unwrap_or_default()
}
