//! The size of the quantisation study's exhaustive tree (Cut plays the heuristic on the exact
//! `ideal` network, Short every legal move, transpositions merged) level by level, and the
//! study's cost per decision, without running the study.
//!
//! A position with k moves played sits only at ply k, so each ply is deduplicated on its own
//! and only two plies are held at once: the same positions and counts as
//! `PositionSet::tree`, which keeps every ply (checked at M=3 and M=4 against the README's
//! table). The cost per decision is `Quantiser::read` with the study's default converters (ideal,
//! then every board profile) at every resolution, timed on a sample of the deepest ply built.
//!
//! `cargo run --release -p studies --example tree_size -- M [SECONDS] [SAMPLE]`: builds plies
//! until the next would pass SECONDS of wall time (estimated from the last ply's rate;
//! default 300). SAMPLE decisions of each ply (default 20) are read as the study reads them
//! (`Quantiser::read`), and the ply's cost is its decisions times their mean CPU time (the
//! thread's, from the kernel: wall time on a shared machine measures the other jobs too).
use std::collections::HashSet;
use std::time::Instant;

use emulator::physical::Board;
use heuristic::{Position, Side, Size};
use rayon::prelude::*;
use studies::positions::{heuristic_move, position_key, tree_children};
use studies::quantisation::Converter;

/// The tree's children of `position` (`positions::tree_children`: the heuristic's move for
/// Cut, every resistor for Short), without their moves.
fn children(position: &Position) -> Vec<Position> {
    tree_children(position, heuristic_move)
        .into_iter()
        .map(|(child, _)| child)
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let m: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let budget: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(300.0);
    let sample: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20);
    let size = Size::new(m).expect("a board size");
    let start = Instant::now();
    let mut level = vec![Position::new(size, Side::Cut)];
    let mut totals = [0u64; 3];
    let study = study(size);
    // The study's estimated cost: per ply, its decisions times the mean time of a sample.
    let mut study_secs = 0.0;
    let mut heuristic_secs = 0.0;
    println!("M = {m}: ply, positions, decisions (Cut to move), finished, seconds for the ply");
    let mut ply = 0;
    let mut complete = true;
    while !level.is_empty() {
        let t = Instant::now();
        let decisions = level
            .iter()
            .filter(|p| p.to_move() == Some(Side::Cut))
            .count() as u64;
        let finished = level.iter().filter(|p| p.to_move().is_none()).count() as u64;
        totals[0] += level.len() as u64;
        totals[1] += decisions;
        totals[2] += finished;
        if decisions > 0 {
            let picked: Vec<&Position> = level
                .iter()
                .filter(|p| p.to_move() == Some(Side::Cut))
                .step_by((decisions as usize / sample).max(1))
                .take(sample)
                .collect();
            let t = thread_cpu();
            for p in &picked {
                std::hint::black_box(study.read(p));
            }
            study_secs += (thread_cpu() - t) / picked.len() as f64 * decisions as f64;
            let t = thread_cpu();
            for p in &picked {
                std::hint::black_box(heuristic_move(p));
            }
            heuristic_secs += (thread_cpu() - t) / picked.len() as f64 * decisions as f64;
        }
        // In chunks, so that a ply's children before deduplication never all sit in memory.
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for chunk in level.chunks(1 << 16) {
            let kids: Vec<Vec<Position>> = chunk.par_iter().map(children).collect();
            for kid in kids.into_iter().flatten() {
                if seen.insert(position_key(&kid)) {
                    next.push(kid);
                }
            }
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{ply:>4} {:>12} {decisions:>12} {finished:>10} {secs:>9.2}",
            level.len()
        );
        ply += 1;
        // Stop before a ply that would not fit the budget: its cost is about this ply's
        // times the growth.
        let growth = next.len() as f64 / level.len().max(1) as f64;
        if start.elapsed().as_secs_f64() + secs * growth.max(1.0) > budget && !next.is_empty() {
            let to_move = next[0].to_move();
            println!(
                "stopped before ply {ply}: {} positions there ({}), about {:.0} s to expand",
                next.len(),
                match to_move {
                    Some(Side::Cut) => "Cut to move",
                    Some(Side::Short) => "Short to move",
                    None => "finished",
                },
                secs * growth
            );
            if to_move == Some(Side::Short) {
                // Short's moves need no solving: count the ply after it too, keys only.
                let mut seen = HashSet::new();
                let mut decisions = 0u64;
                for chunk in next.chunks(1 << 16) {
                    let kids: Vec<Vec<Position>> = chunk.par_iter().map(children).collect();
                    for kid in kids.into_iter().flatten() {
                        if seen.insert(position_key(&kid)) && kid.to_move() == Some(Side::Cut) {
                            decisions += 1;
                        }
                    }
                }
                println!(
                    "ply {}: {} positions, {decisions} decisions (counted, not expanded)",
                    ply + 1,
                    seen.len()
                );
            }
            complete = false;
            break;
        }
        level = next;
    }
    println!(
        "{} plies: {} positions, {} decisions, {} finished games ({}) in {:.1} s",
        ply,
        totals[0],
        totals[1],
        totals[2],
        if complete { "the whole tree" } else { "so far" },
        start.elapsed().as_secs_f64()
    );
    println!(
        "the study over these decisions, one core (thread CPU time): about {study_secs:.1} s ({:.3} ms a decision, \
         from {sample} decisions timed per ply); the heuristic's moves alone: {heuristic_secs:.1} s",
        study_secs * 1e3 / totals[1].max(1) as f64
    );
}

/// CPU seconds of this thread (the kernel's scheduler count, in nanoseconds): the machine is
/// shared, so wall time would measure the other jobs too.
fn thread_cpu() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns: f64 = text
        .split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or(0.0);
    ns * 1e-9
}

/// The quantisation study as `birdcage study quantisation` runs it by default: the ideal
/// converter, then every board profile, at every resolution.
fn study(size: Size) -> emulator::quantisation::Quantiser {
    let seed = 1;
    let mut converters = vec![Converter::Ideal];
    converters.extend(boards::PROFILES.iter().map(|p| Converter::Board {
        spec: p.name.to_string(),
        board: Box::new(Board::from_profile(p)),
        seed,
    }));
    let bits: Vec<u8> = studies::BITS.collect();
    emulator::quantisation::Quantiser::new(&converters, &bits, size).expect("the default study")
}
