//! How many times the shards of the tree split at ply D read each decision, with the ply-D
//! positions dealt out k mod P (what `--split-ply` does) or in P contiguous blocks:
//! `cargo run --release -p studies --example split_overlap -- M D P...`. The tree is built
//! once (so M <= 4) and Cut's moves looked up, so only the walks are counted, not solved.

use std::collections::{HashMap, HashSet};

use heuristic::{Move, Position, Side, Size};
use studies::positions::{PositionSet, position_key, tree_children};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("whole numbers: M D P..."))
        .collect();
    let (m, ply, counts) = match args.as_slice() {
        [m, d, p @ ..] if !p.is_empty() => (*m, *d, p.to_vec()),
        _ => panic!("usage: split_overlap M D P..."),
    };
    let size = Size::new(m).expect("a board size");
    let tree = PositionSet::tree(size);
    let cut: HashMap<[u64; 4], Move> = tree
        .entries()
        .iter()
        .filter_map(|e| {
            Some((
                position_key(&tree.entries()[e.parent? as usize].position),
                e.mv?,
            ))
        })
        .filter(|(_, mv)| mv.side == Side::Cut)
        .collect();
    let decides = |p: &Position| p.to_move() == Some(Side::Cut) && p.resistors().next().is_some();
    let next = |level: &[Position]| -> Vec<Position> {
        let mut seen = HashSet::new();
        level
            .iter()
            .flat_map(|p| tree_children(p, |p| cut.get(&position_key(p)).copied()))
            .filter(|(p, _)| seen.insert(position_key(p)))
            .map(|(p, _)| p)
            .collect()
    };
    let mut frontier = vec![Position::new(size, Side::Cut)];
    for _ in 0..ply {
        frontier = next(&frontier);
    }
    let decisions = tree.decisions().len();
    println!(
        "M={m}: {decisions} decisions; ply {ply}: {} positions",
        frontier.len()
    );
    for count in counts {
        for (name, owner) in [("k mod P", 0), ("blocks", 1)] {
            let n = frontier.len();
            let (mut read, mut largest) = (0usize, 0usize);
            for k in 0..count as usize {
                let mut level: Vec<Position> = (0..n)
                    .filter(|&i| match owner {
                        0 => i % count as usize == k,
                        _ => i * count as usize / n == k,
                    })
                    .map(|i| frontier[i].clone())
                    .collect();
                let mut mine = 0;
                while !level.is_empty() {
                    mine += level.iter().filter(|p| decides(p)).count();
                    level = next(&level);
                }
                read += mine;
                largest = largest.max(mine);
            }
            println!(
                "P={count} {name}: {read} read below ply {ply} ({:.2} per decision), largest shard {largest}",
                read as f64 / decisions as f64
            );
        }
    }
}
