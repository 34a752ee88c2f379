//! Perfect-play speed: Lehman's criterion on M=4 positions, every winning move of M=6
//! positions and who wins M=7 positions with Short to move (`beat`'s question), each over
//! fixed random positions (seeded).
//!
//! `cargo bench -p switching --bench perfect`; criterion prints the time per batch, and
//! per position through the element throughput.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use heuristic::{Position, Side, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use switching::Play;
use switching::perfect;
use switching::random::{multigraph, random_position};

/// 256 open positions of an M board with `side` to move, 0..=max_plies plies in.
fn positions(m: u32, side: Side, max_plies: usize) -> Vec<Position> {
    let size = Size::new(m).expect("a size");
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(m));
    let mut out = Vec::new();
    while out.len() < 256 {
        let plies = rng.random_range(0..=max_plies);
        let p = random_position(&mut rng, size, Side::Cut, plies);
        if p.to_move() == Some(side) {
            out.push(p);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perfect");
    let m4 = positions(4, Side::Cut, 14);
    group.throughput(Throughput::Elements(m4.len() as u64));
    group.bench_function("lehman M=4", |b| {
        b.iter(|| {
            for p in &m4 {
                black_box(perfect::short_wins_second(black_box(p)));
            }
        })
    });
    for side in [Side::Cut, Side::Short] {
        let m6 = positions(6, side, 30);
        group.throughput(Throughput::Elements(m6.len() as u64));
        group.bench_function(format!("winning moves M=6, {side} to move"), |b| {
            b.iter(|| {
                for p in &m6 {
                    black_box(perfect::solve(black_box(p)));
                }
            })
        });
    }
    // What `beat --size 7` asks at every position the machine has just moved to: who
    // wins, Short to move (the packing's reach is most of it).
    let m7 = positions(7, Side::Short, 40);
    group.throughput(Throughput::Elements(m7.len() as u64));
    group.bench_function("winner M=7, Short to move", |b| {
        b.iter(|| {
            for p in &m7 {
                black_box(perfect::winner(black_box(p)));
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("perfect, any graph");
    // The bird cage of M=10 (181 edges), past the firmware's sizes: random positions of
    // up to 60 plies, Cut to move (Lehman's criterion alone).
    let m10 = switching::Graph::cage_of(10);
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut plays = Vec::new();
    while plays.len() < 256 {
        let mut p = Play::new(&m10, Side::Cut);
        for _ in 0..rng.random_range(0..=30) * 2 {
            let open: Vec<usize> = p.resistors().collect();
            p.play(open[rng.random_range(0..open.len())])
                .expect("a resistor");
            if p.winner().is_some() {
                break;
            }
        }
        if p.to_move() == Some(Side::Cut) {
            plays.push(p);
        }
    }
    group.throughput(Throughput::Elements(plays.len() as u64));
    group.bench_function("lehman verdict, M=10 cage", |b| {
        b.iter(|| {
            for p in &plays {
                black_box(perfect::winner(black_box(p)));
            }
        })
    });
    // Every winning move at the start of a random multigraph of 1,000 edges on 540
    // vertices whose start is neutral (whoever moves first wins: Cut has 13 winning
    // moves, Short 1), the hard case: denser graphs are Short's whatever Cut does, sparser
    // ones Cut's, and then every move wins and the solver says so at once.
    let big = multigraph(&mut ChaCha8Rng::seed_from_u64(0), 540, 1000);
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    for side in [Side::Cut, Side::Short] {
        let start = Play::new(&big, side);
        group.bench_function(
            format!("every winning move, 1000 edges, {side} to move"),
            |b| b.iter(|| black_box(perfect::solve(black_box(&start)))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
