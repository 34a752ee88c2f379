//! The ply walk's report, merged from its findings without holding the tree: a ply after
//! another, the P findings files of a ply merged in record order (the one process's order,
//! [`super::walk`]), each position numbered as it comes, each decision tallied and its row
//! written as it comes. Memory: the tally, a buffer per findings file and the records of
//! the positions in the worst lists.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::Read;

use emulator::quantisation::{Quantiser, Tally};
use heuristic::{Edge, Move, Position, Record, Side};
use shards::ShardId;

use super::split::Compact;
use super::walk::{FINDINGS_HEADER, Walk, WalkError, read_counts};
use super::{Converter, Facts, Report, from_tally, row_of};
use crate::report::CsvWriter;

/// One findings file being read, a position at a time.
struct Cursor {
    reader: std::io::Take<std::io::BufReader<std::fs::File>>,
    id: ShardId,
    /// Positions not yet read.
    left: u64,
}

impl Cursor {
    /// The next position's record, or `None` past the last.
    fn record(&mut self, ply: u32) -> std::io::Result<Option<Vec<u8>>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let mut record = vec![0; ply as usize];
        self.reader.read_exact(&mut record)?;
        Ok(Some(record))
    }

    /// The result after a record: `None` for a position that is no decision.
    fn result(&mut self) -> std::io::Result<Result<Option<Vec<u8>>, &'static str>> {
        let mut flag = [0u8];
        self.reader.read_exact(&mut flag)?;
        match flag {
            [0] => Ok(Ok(None)),
            [1] => {
                let mut length = [0u8; 4];
                self.reader.read_exact(&mut length)?;
                let mut result = vec![0; u32::from_le_bytes(length) as usize];
                self.reader.read_exact(&mut result)?;
                Ok(Ok(Some(result)))
            }
            _ => Ok(Err("a flag not 0 or 1")),
        }
    }
}

/// The report of the walk in `walk`'s folder, its divergent positions' rows into
/// `positions_csv`; the walk must be complete. Each ply's P findings files are read as
/// streams ([`shards::open_body`]: checked whole first), merged in record order.
pub(super) fn report(
    walk: &Walk<'_>,
    study: &Quantiser,
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
    for ply in 0..=walk.last_ply() {
        let dir = walk.ply_dir(ply);
        let job = walk.findings_job(ply);
        let damaged = |id: ShardId, why: &str| WalkError::Damaged {
            path: shards::shard_path(&dir, &job, id),
            why: why.to_string(),
            command: job.shard_command(id),
        };
        let mut cursors = Vec::new();
        let mut heap = BinaryHeap::new();
        for id in ShardId::all(walk.parts()) {
            let mut reader = shards::open_body(&dir, &job, id)?;
            let mut header = [0u8; FINDINGS_HEADER];
            reader
                .read_exact(&mut header)
                .map_err(|_| damaged(id, "no header"))?;
            let (left, _) = read_counts(&header).ok_or_else(|| damaged(id, "no header"))?;
            let mut cursor = Cursor { reader, id, left };
            if let Some(record) = cursor.record(ply).map_err(|_| damaged(id, "cut short"))? {
                heap.push(Reverse((record, cursors.len())));
            }
            cursors.push(cursor);
        }
        while let Some(Reverse((record, c))) = heap.pop() {
            let cursor = &mut cursors[c];
            let id = cursor.id;
            let cut_short = |_| damaged(id, "cut short");
            let i = u32::try_from(index).map_err(|_| damaged(id, "over 2^32 positions"))?;
            index += 1;
            let result = cursor.result().map_err(cut_short)?;
            if let Some(bytes) = result.map_err(|why| damaged(id, why))? {
                let compact = Compact::read_result(&mut bytes.as_slice(), columns, edges.len())
                    .map_err(|e| damaged(id, &e.to_string()))?;
                let decision = compact.decision(size, &edges);
                decisions += 1;
                tally.add(i, &decision);
                let text = || record_text(&edges, &record);
                if let Some(row) = row_of(size, bits, i, text, &decision) {
                    positions_csv.row(&row)?;
                    if tally
                        .columns
                        .iter()
                        .any(|c| c.worst.iter().any(|w| w.index == i))
                    {
                        records.insert(i, record);
                    }
                }
            }
            if let Some(next) = cursor.record(ply).map_err(cut_short)? {
                heap.push(Reverse((next, c)));
            }
        }
        if let Some(c) = cursors.iter().find(|c| c.reader.limit() > 0) {
            return Err(damaged(c.id, "bytes after the last position"));
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
    Ok(from_tally(
        &facts,
        (converters, seed),
        bits,
        worst,
        study,
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
