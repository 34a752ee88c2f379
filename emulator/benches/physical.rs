//! Physical f64 solves of M=4 positions on both boards (drawn parts, pull-ups on, as the
//! machine measures), against the ideal float solve of the same positions as a baseline in
//! the same run, and move by move along whole games (rank-one updates of the factor) against
//! solving every position of those games from scratch.
//!
//! `cargo bench -p emulator --bench physical`; criterion prints time per batch and elements
//! (positions) per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use emulator::games::random_position;
use emulator::physical::{Board, Incremental, Parts, PullupState, solve};
use heuristic::{Model, Move, Position, Side, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn m4() -> Size {
    Size::new(4).expect("4 is a size")
}

fn positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    (0..512)
        .map(|_| {
            let plies = rng.random_range(0..=12);
            random_position(&mut rng, m4(), Side::Cut, plies)
        })
        .collect()
}

/// 32 random games played to the end, as move lists.
fn games() -> Vec<Vec<Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    (0..32)
        .map(|_| {
            let mut p = Position::new(m4(), Side::Cut);
            let mut moves = Vec::new();
            while p.winner().is_none() {
                let edges: Vec<_> = p.resistors().collect();
                let edge = edges[rng.random_range(0..edges.len())];
                let mv = Move {
                    side: p.to_move().expect("game not over"),
                    edge,
                };
                p.play(mv).expect("legal");
                moves.push(mv);
            }
            moves
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("physical M=4");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let ideal = Model::Ideal.circuit::<f64>(m4());
    group.bench_function("baseline: ideal f64 (heuristic::solve)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(heuristic::solve::<f64>(black_box(p), &ideal).ok());
            }
        })
    });
    for profile in boards::PROFILES {
        let board = Board::from_profile(profile);
        let parts = Parts::draw(&board, m4(), 1);
        group.bench_with_input(
            BenchmarkId::new("solve", profile.name),
            &positions,
            |b, ps| {
                b.iter(|| {
                    for p in ps {
                        let _ = black_box(solve(&board, &parts, black_box(p), PullupState::On));
                    }
                })
            },
        );
    }
    group.finish();

    let games = games();
    let plies: usize = games.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("physical M=4 games");
    group.throughput(Throughput::Elements(plies as u64));
    for profile in boards::PROFILES {
        let board = Board::from_profile(profile);
        let parts = Parts::draw(&board, m4(), 1);
        group.bench_with_input(
            BenchmarkId::new("from scratch", profile.name),
            &games,
            |b, gs| {
                b.iter(|| {
                    for g in gs {
                        let mut p = Position::new(m4(), Side::Cut);
                        for mv in g {
                            p.play(*mv).expect("legal");
                            let _ = black_box(solve(&board, &parts, &p, PullupState::On));
                        }
                    }
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("rank-one updates", profile.name),
            &games,
            |b, gs| {
                b.iter(|| {
                    for g in gs {
                        let start = Position::new(m4(), Side::Cut);
                        let mut game = Incremental::new(&board, &parts, start, PullupState::On)
                            .expect("solves");
                        for mv in g {
                            game.play(*mv).expect("legal");
                            black_box(game.solution().expect("solves"));
                        }
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
