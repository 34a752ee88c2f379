//! The exhaustive quantisation tree counted exactly, ply by ply, to the end of the game, in
//! bounded memory: each ply's positions live on disk as 16-byte keys ([`PlyKey`]) in P
//! partition files (by a hash of the key), each sorted and deduplicated. Ply k+1 is made from
//! ply k one partition at a time: every position's children (Cut: the heuristic's move on the
//! exact `ideal` network; Short: every resistor) go, as keys, to the partition of ply k+1 they
//! hash to, in sorted runs; then each partition of ply k+1 is sorted and deduplicated on its
//! own. Memory is one partition and the runs' buffer, whatever the ply's size.
//!
//! `cargo run --release -p studies --example tree_count -- M DIR [P] [THREADS]`: appends one
//! line per finished ply to `DIR/counts.tsv` (ply, positions, decisions (Cut to move),
//! finished games, CPU seconds of the process, wall seconds, bytes of the ply's files) and
//! resumes after the last ply written there. Plies older than the one in hand are removed.

#![allow(clippy::disallowed_methods)] // a measuring script run by hand into a folder of its own, not a command of the workspace (clippy.toml)
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use heuristic::{Move, Position, Side, Size};
use rayon::prelude::*;
use studies::ply_key::{KEY_BYTES, PlyKey};
use studies::positions::heuristic_move;

/// Keys buffered for ply k+1 before they are written out as sorted runs (512 MiB).
const BUFFERED: usize = 1 << 25;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let m: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let dir = PathBuf::from(args.get(2).map_or("tree-count", String::as_str));
    let parts: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(64);
    let threads: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .expect("one pool");
    let size = Size::new(u32::from(m)).expect("a board size");
    fs::create_dir_all(&dir)?;
    let counts = dir.join("counts.tsv");
    let done = fs::read_to_string(&counts).unwrap_or_default();
    let last = done
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next()?.parse::<usize>().ok())
        .max();
    let mut ply = match last {
        // Ply `last` was counted and expanded: its children are ply last+1, kept whole.
        Some(l) => l + 1,
        None => {
            let start = PlyKey::of(&Position::new(size, Side::Cut)).expect("M <= 6");
            write_part(&part_path(&dir, 0, start.partition(parts)), &[start])?;
            let mut f = File::create(&counts)?;
            writeln!(
                f,
                "# M={m}, P={parts}: ply\tpositions\tdecisions\tfinished\tcpu_s\twall_s\tbytes"
            )?;
            0
        }
    };
    loop {
        let t = Instant::now();
        let cpu = process_cpu();
        let mut totals = [0u64; 3];
        let mut bytes = 0u64;
        // Runs of a ply killed part-way would be counted twice: start the next ply afresh.
        for part in 0..parts {
            let _ = fs::remove_file(run_path(&dir, ply + 1, part));
        }
        let mut out: Vec<Vec<PlyKey>> = vec![Vec::new(); parts as usize];
        let mut buffered = 0usize;
        for part in 0..parts {
            let path = part_path(&dir, ply, part);
            let Ok(keys) = read_part(&path) else { continue };
            bytes += (keys.len() * KEY_BYTES) as u64;
            for chunk in keys.chunks(studies::CHUNK) {
                let found: Vec<(u8, Vec<PlyKey>)> =
                    chunk.par_iter().map(|&k| expand(size, k)).collect();
                for (kind, kids) in found {
                    totals[0] += 1;
                    match kind {
                        1 => totals[1] += 1,
                        2 => totals[2] += 1,
                        _ => {}
                    }
                    for kid in kids {
                        out[kid.partition(parts) as usize].push(kid);
                        buffered += 1;
                    }
                }
                if buffered >= BUFFERED {
                    flush(&dir, ply + 1, &mut out)?;
                    buffered = 0;
                }
            }
        }
        flush(&dir, ply + 1, &mut out)?;
        let mut next = 0u64;
        for part in 0..parts {
            let raw = run_path(&dir, ply + 1, part);
            if let Ok(mut keys) = read_part(&raw) {
                keys.sort_unstable();
                keys.dedup();
                next += keys.len() as u64;
                write_part(&part_path(&dir, ply + 1, part), &keys)?;
                fs::remove_file(&raw)?;
            }
        }
        let mut f = OpenOptions::new().append(true).open(&counts)?;
        writeln!(
            f,
            "{ply}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{bytes}",
            totals[0],
            totals[1],
            totals[2],
            process_cpu() - cpu,
            t.elapsed().as_secs_f64()
        )?;
        f.sync_all()?;
        println!(
            "ply {ply}: {} positions, {} decisions, {} finished ({:.1} s)",
            totals[0],
            totals[1],
            totals[2],
            t.elapsed().as_secs_f64()
        );
        for part in 0..parts {
            let _ = fs::remove_file(part_path(&dir, ply, part));
        }
        if next == 0 {
            println!("the tree ends after ply {ply}");
            return Ok(());
        }
        ply += 1;
    }
}

/// What `key`'s position is (0 Short to move, 1 a decision, 2 finished) and its children.
fn expand(size: Size, key: PlyKey) -> (u8, Vec<PlyKey>) {
    let p = key.position(size).expect("keys this program wrote");
    match p.to_move() {
        None => (2, Vec::new()),
        Some(Side::Cut) => (
            1,
            heuristic_move(&p)
                .map(|mv| key.after(size, mv))
                .into_iter()
                .collect(),
        ),
        Some(Side::Short) => (
            0,
            p.resistors()
                .map(|edge| {
                    key.after(
                        size,
                        Move {
                            side: Side::Short,
                            edge,
                        },
                    )
                })
                .collect(),
        ),
    }
}

/// Appends each partition's buffered keys, sorted and deduplicated, as a run of its file.
fn flush(dir: &Path, ply: usize, out: &mut [Vec<PlyKey>]) -> std::io::Result<()> {
    for (part, keys) in out.iter_mut().enumerate() {
        if keys.is_empty() {
            continue;
        }
        keys.sort_unstable();
        keys.dedup();
        let f =
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(run_path(dir, ply, part as u32))?;
        let mut w = BufWriter::new(f);
        for k in keys.iter() {
            w.write_all(&k.to_bytes())?;
        }
        w.flush()?;
        keys.clear();
        keys.shrink_to_fit();
    }
    Ok(())
}

fn part_path(dir: &Path, ply: usize, part: u32) -> PathBuf {
    dir.join(format!("ply{ply:02}.part{part:04}.keys"))
}

fn run_path(dir: &Path, ply: usize, part: u32) -> PathBuf {
    dir.join(format!("ply{ply:02}.part{part:04}.runs"))
}

fn write_part(path: &Path, keys: &[PlyKey]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut w = BufWriter::new(File::create(&tmp)?);
    for k in keys {
        w.write_all(&k.to_bytes())?;
    }
    w.into_inner()?.sync_all()?;
    fs::rename(tmp, path)
}

fn read_part(path: &Path) -> std::io::Result<Vec<PlyKey>> {
    let mut r = BufReader::new(File::open(path)?);
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes)?;
    Ok(bytes
        .chunks_exact(KEY_BYTES)
        .map(|c| PlyKey::from_bytes(c.try_into().expect("16 bytes")))
        .collect())
}

/// CPU seconds (user + system) of this process so far, from the kernel.
fn process_cpu() -> f64 {
    let text = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = text
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, r)| r.split_whitespace().collect());
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}
