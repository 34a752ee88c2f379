//! The quantisation study of the tree walked a ply at a time (issue 64): every decision read
//! once, no process holding more than one partition of one ply.
//!
//! Ply k's positions live on disk in P partitions by a hash of the position ([`PlyKey`]).
//! Shard K of ply k ([`Walk::run_shard`]) reads partition K (the P files the shards of ply
//! k-1 wrote for it, each sorted by key and deduplicated), keeps each position once with its
//! smallest record, reads its decisions ([`Quantiser::read`]), writes its findings (every
//! position of the partition in record order, each decision with its result) and its
//! children, as P files, one per partition of ply k+1. Every file is a shard file of the
//! `shards` crate (header, spec hash, content hash, written whole or not at all), so a file
//! cut short, damaged or of another spec is refused naming it and the command that makes it
//! again, and a full disk leaves only a temporary file that no reader takes.
//!
//! Why records order the tree: the one process numbers a ply's positions in the order first
//! found, parents in order, each one's moves in edge order. By induction that is the order of
//! each position's smallest record (its moves' edges, compared as bytes): two records of one
//! ply first differ at a Short move (the same position before it has one Cut move), where
//! the smaller edge is found first. So keeping the smallest record per position and sorting
//! by record gives the one process's order, and the merge ([`super::walk_report`]) numbers
//! positions by a P-way merge of the findings, a ply after another.

use std::path::{Path, PathBuf};

use emulator::quantisation::{Decision, Quantiser};
use heuristic::{Edge, Move, Side, Size};
use rayon::prelude::*;
use serde::Serialize;
use shards::{Job, ShardId};

use super::split::{Compact, decides};
use crate::ply_key::{KEY_BYTES, PlyKey};
use crate::{CHUNK, Control};

pub use crate::walk_error::WalkError;

/// The first bytes of a findings body.
const FINDINGS_MAGIC: &[u8; 8] = b"QWALK1\n\0";

/// One ply walk: its folder, the study, P and the shard model's job words.
#[derive(Debug)]
pub struct Walk<'a> {
    dir: PathBuf,
    size: Size,
    study: &'a Quantiser,
    parts: u32,
    /// The study's spec (its options and inputs), hashed into every file's job.
    spec: serde_json::Value,
    version: String,
    /// The command that runs the walk (`birdcage study quantisation ... --ply-walk P --out
    /// DIR`); a ply's shard is it with `--ply k --shard K/P`.
    command: Vec<String>,
}

/// What the folder holds of a walk: the ply in hand and its shards not done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkStatus {
    /// Plies whose every shard is stored.
    pub finished_plies: u32,
    /// Whether the walk is over (the last ply stored had no position).
    pub complete: bool,
    /// The shards of ply `finished_plies` not stored (empty when complete).
    pub not_done: Vec<ShardId>,
}

/// The ply file spec: the study's, the partitions, which file.
#[derive(Serialize)]
struct FileSpec<'a> {
    study: &'a serde_json::Value,
    ply_walk: u32,
    ply: u32,
    file: &'a str,
}

impl<'a> Walk<'a> {
    /// The walk of `study` (over the tree of `size`) into `dir` in `parts` partitions.
    /// `spec`: the study's spec ([`crate::study::spec`]), `version`: the program's;
    /// `command`: the one that runs the walk, for the files' remake commands.
    pub fn new(
        dir: &Path,
        size: Size,
        study: &'a Quantiser,
        parts: u32,
        spec: serde_json::Value,
        version: &str,
        command: Vec<String>,
    ) -> Result<Walk<'a>, WalkError> {
        if size.get() > crate::ply_key::MAX_M {
            return Err(WalkError::TooLarge { m: size.get() });
        }
        Ok(Walk {
            dir: dir.to_path_buf(),
            size,
            study,
            parts,
            spec,
            version: version.to_string(),
            command,
        })
    }

    /// Partitions (P).
    pub fn parts(&self) -> u32 {
        self.parts
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Ply k's folder.
    pub fn ply_dir(&self, ply: u32) -> PathBuf {
        self.dir.join(format!("ply-{ply:02}"))
    }

    /// The job of ply `ply`'s file `file`, made by ply `maker`'s shards.
    fn job(&self, ply: u32, file: &str, maker: u32) -> Job {
        let mut command = self.command.clone();
        command.extend(["--ply".to_string(), maker.to_string()]);
        let spec = FileSpec {
            study: &self.spec,
            ply_walk: self.parts,
            ply,
            file,
        };
        Job::new(file, &spec, &self.version, command)
    }

    /// The findings of ply `ply` (shard K's: file `findings.K-of-P.shard`).
    pub fn findings_job(&self, ply: u32) -> Job {
        self.job(ply, "findings", ply)
    }

    /// Partition `part` (0-based) of ply `ply`, one file per shard of ply `ply - 1`.
    fn part_job(&self, ply: u32, part: u32) -> Job {
        self.job(ply, &format!("part{part:04}"), ply.saturating_sub(1))
    }

    /// The positions of partition `id` of ply `ply`, each once with its smallest record,
    /// in record order.
    fn positions(&self, ply: u32, id: ShardId) -> Result<Vec<(PlyKey, Vec<u8>)>, WalkError> {
        let part = id.index - 1;
        if ply == 0 {
            let start = heuristic::Position::new(self.size, Side::Cut);
            let key = PlyKey::of(&start).ok_or(WalkError::TooLarge { m: self.size.get() })?;
            return Ok(match key.partition(self.parts) == part {
                true => vec![(key, Vec::new())],
                false => Vec::new(),
            });
        }
        let dir = self.ply_dir(ply);
        let job = self.part_job(ply, part);
        let bodies = shards::read_shards(&dir, &job, self.parts)?;
        let width = KEY_BYTES + ply as usize;
        let mut entries = Vec::new();
        for (body, maker) in bodies.iter().zip(ShardId::all(self.parts)) {
            let damaged = |why: &str| WalkError::Damaged {
                path: shards::shard_path(&dir, &job, maker),
                why: why.to_string(),
                command: job.shard_command(maker),
            };
            if body.len() % width != 0 {
                return Err(damaged("a body that is not whole entries"));
            }
            for entry in body.chunks_exact(width) {
                let (key, record) = entry.split_at(KEY_BYTES);
                let key = PlyKey::from_bytes(key.try_into().expect("16 bytes"));
                if key.partition(self.parts) != part {
                    return Err(damaged("a position of another partition"));
                }
                entries.push((key, record.to_vec()));
            }
        }
        // Each position once, with its smallest record, then in record order.
        entries.sort_unstable();
        entries.dedup_by(|later, first| later.0 == first.0);
        entries.sort_unstable_by(|a, b| a.1.cmp(&b.1));
        Ok(entries)
    }

    /// Shard `id` of ply `ply`: reads its partition, writes its children's P files for ply
    /// `ply + 1`, then its findings (last: a shard is done when its findings are stored).
    /// Returns the positions and decisions of the partition.
    pub fn run_shard(
        &self,
        ply: u32,
        id: ShardId,
        control: &Control<'_>,
    ) -> Result<(u64, u64), WalkError> {
        if ply > self.last_ply() {
            return Err(WalkError::PastTheGame {
                ply,
                last: self.last_ply(),
                m: self.size.get(),
            });
        }
        // Ply k-2's files of this partition: read by no shard once ply k-1 is finished
        // (a rerun of ply k-1's shard, which a damaged file of ply k names, reads ply k-1's).
        if ply >= 2 && self.finished(ply - 1) {
            self.remove_partition(ply - 2, id.index - 1)?;
        }
        let entries = self.positions(ply, id)?;
        let edges: Vec<Edge> = self.size.edges().collect();
        let mut findings = Vec::new();
        findings.extend(FINDINGS_MAGIC);
        findings.extend([0u8; 16]);
        // The findings' entries, in record order: the record, then 0, or 1, the result's
        // length (u32) and the result ([`Compact::write_result`]).
        // Each child as its key, its parent's index in `entries` and the move's edge (32
        // bytes; its record is the parent's and the edge): the parents are in record order,
        // so the smallest (parent, edge) of a key is its smallest record.
        let mut children: Vec<Vec<(PlyKey, u32, u8)>> = vec![Vec::new(); self.parts as usize];
        let mut decisions = 0u64;
        let in_file = || {
            let dir = self.ply_dir(ply);
            let job = self.findings_job(ply);
            (shards::shard_path(&dir, &job, id), job.shard_command(id))
        };
        for (c, chunk) in entries.chunks(CHUNK).enumerate() {
            if control.stopped() {
                return Err(WalkError::Interrupted { ply, id });
            }
            let read: Vec<Result<(heuristic::Position, Option<Decision>), ()>> = chunk
                .par_iter()
                .map(|(key, _)| {
                    let p = key.position(self.size).ok_or(())?;
                    let d = decides(&p).then(|| self.study.read(&p)).flatten();
                    Ok((p, d))
                })
                .collect();
            for (j, ((key, record), r)) in chunk.iter().zip(read).enumerate() {
                let parent = u32::try_from(c * CHUNK + j)
                    .unwrap_or_else(|_| unreachable!("a partition stays far below 2^32"));
                let Ok((position, decision)) = r else {
                    let (path, command) = in_file();
                    return Err(WalkError::Damaged {
                        path,
                        why: format!("a key that is no position of M={}", self.size.get()),
                        command,
                    });
                };
                findings.extend(record);
                let moves: Vec<Move> = match (&decision, position.to_move()) {
                    (Some(d), _) => {
                        decisions += 1;
                        // Its length first, so the merge reads a result as a stream.
                        findings.push(1);
                        let at = findings.len();
                        findings.extend([0u8; 4]);
                        Compact::new(self.size, d).write_result(&mut findings);
                        let length = (findings.len() - at - 4) as u32;
                        findings[at..at + 4].copy_from_slice(&length.to_le_bytes());
                        vec![Move {
                            side: Side::Cut,
                            edge: d.truth.choice,
                        }]
                    }
                    (None, Some(Side::Short)) => {
                        findings.push(0);
                        position
                            .resistors()
                            .map(|edge| Move {
                                side: Side::Short,
                                edge,
                            })
                            .collect()
                    }
                    (None, _) => {
                        findings.push(0);
                        Vec::new()
                    }
                };
                for mv in moves {
                    let child = key.after(self.size, mv);
                    let edge = edge_byte(&edges, mv.edge);
                    children[child.partition(self.parts) as usize].push((child, parent, edge));
                }
            }
            (control.progress)(decisions, 0);
        }
        let positions = entries.len() as u64;
        findings[8..16].copy_from_slice(&positions.to_le_bytes());
        findings[16..24].copy_from_slice(&decisions.to_le_bytes());
        let next = ply + 1;
        // The last ply has no children: every edge is taken.
        let children = match ply < self.last_ply() {
            true => children,
            false => Vec::new(),
        };
        for (part, mut kids) in children.into_iter().enumerate() {
            kids.sort_unstable();
            kids.dedup_by(|later, first| later.0 == first.0);
            let mut body = Vec::with_capacity(kids.len() * (KEY_BYTES + next as usize));
            for (key, parent, edge) in kids {
                body.extend(key.to_bytes());
                body.extend(&entries[parent as usize].1);
                body.push(edge);
            }
            let dir = self.ply_dir(next);
            make_dir(&dir)?;
            shards::write_shard(&dir, &self.part_job(next, part as u32), id, &body)?;
        }
        let dir = self.ply_dir(ply);
        make_dir(&dir)?;
        shards::write_shard(&dir, &self.findings_job(ply), id, &findings)?;
        Ok((positions, decisions))
    }

    /// Whether every shard of ply `ply` has stored its findings (by the files' names).
    fn finished(&self, ply: u32) -> bool {
        let dir = self.ply_dir(ply);
        let job = self.findings_job(ply);
        ShardId::all(self.parts).all(|id| shards::shard_path(&dir, &job, id).is_file())
    }

    /// Removes partition `part`'s files of ply `ply` (one from each shard of ply `ply - 1`),
    /// those there are: the positions a finished ply read, which neither a resumption nor
    /// `--status` nor `--merge` reads again (the findings stay).
    fn remove_partition(&self, ply: u32, part: u32) -> Result<(), WalkError> {
        let dir = self.ply_dir(ply);
        let job = self.part_job(ply, part);
        for maker in ShardId::all(self.parts) {
            let path = shards::shard_path(&dir, &job, maker);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(WalkError::Remove { path, source }),
            }
        }
        Ok(())
    }

    /// The last ply of the walk: the edges' count (no game is longer); the plies past the
    /// tree's end are empty, and cost a few empty files each.
    pub fn last_ply(&self) -> u32 {
        self.size.edge_count() as u32
    }

    /// What the folder holds: the plies finished, and the shards of the next not stored.
    /// By the findings files' names alone (a stat each): each file is checked whole when it
    /// is read, by the next ply or the merge.
    pub fn status(&self) -> Result<WalkStatus, WalkError> {
        for ply in 0..=self.last_ply() {
            let dir = self.ply_dir(ply);
            let job = self.findings_job(ply);
            let not_done: Vec<ShardId> = ShardId::all(self.parts)
                .filter(|&id| !shards::shard_path(&dir, &job, id).is_file())
                .collect();
            if !not_done.is_empty() {
                return Ok(WalkStatus {
                    finished_plies: ply,
                    complete: false,
                    not_done,
                });
            }
        }
        Ok(WalkStatus {
            finished_plies: self.last_ply() + 1,
            complete: true,
            not_done: Vec::new(),
        })
    }

    /// Runs the walk to its end from where the folder stands: the shards of the ply in hand
    /// not stored, then every later ply, a ply after another.
    pub fn run(&self, control: &Control<'_>) -> Result<WalkStatus, WalkError> {
        loop {
            let status = self.status()?;
            if status.complete {
                // The last ply but one's files, which no shard of a later ply removed (the
                // last ply's stay: the positions of the walk's end, empty past the tree's).
                if let Some(ply) = self.last_ply().checked_sub(1) {
                    for part in 0..self.parts {
                        self.remove_partition(ply, part)?;
                    }
                }
                return Ok(status);
            }
            for id in status.not_done {
                self.run_shard(status.finished_plies, id, control)?;
            }
        }
    }
}

/// The positions and decisions a findings body holds, from its header.
pub(super) fn read_counts(header: &[u8]) -> Option<(u64, u64)> {
    let rest = header.strip_prefix(FINDINGS_MAGIC)?;
    let positions = u64::from_le_bytes(rest.get(..8)?.try_into().ok()?);
    let decisions = u64::from_le_bytes(rest.get(8..16)?.try_into().ok()?);
    Some((positions, decisions))
}

/// The bytes of a findings body's header.
pub(super) const FINDINGS_HEADER: usize = FINDINGS_MAGIC.len() + 16;

fn edge_byte(edges: &[Edge], edge: Edge) -> u8 {
    edges
        .iter()
        .position(|&e| e == edge)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or_else(|| unreachable!("an edge of the board"))
}

fn make_dir(dir: &Path) -> Result<(), WalkError> {
    shards::safe::create_dir_all(dir).map_err(|error| WalkError::Write { error })
}
