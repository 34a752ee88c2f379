//! Solver throughput on M=4 positions, each over the same 512 random positions of
//! 0..=12 plies: exact (Bareiss, integer tier by Hadamard's bound), f64 (`solve`, capacity
//! by unknowns) and f32 at the firmware's fixed 13x13 capacity.
//!
//! Then the exact truth of each (`Truth::from_exact`, the quantisation study's step), and
//! the step with its solve: through big integers, and in machine integers from the start.
//! Then the study's whole read of a decision by the ideal converter at 6..=16 bits
//! (`quantisation::Quantiser::read`: the truth, then each resolution's move judged).
//!
//! `cargo bench -p emulator --bench solve`; criterion prints time per batch and
//! elements (positions) per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use emulator::exact;
use emulator::games::random_position;
use emulator::quantisation::{Converter, Quantiser};
use emulator::truth::Truth;
use heuristic::{Model, Position, Side, Size, solve, solve_in};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn positions() -> Vec<Position> {
    let size = Size::new(4).expect("4 is a size");
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    (0..512)
        .map(|_| {
            let plies = rng.random_range(0..=12);
            random_position(&mut rng, size, Side::Cut, plies)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let size = positions[0].size();
    let mut group = c.benchmark_group("solve M=4");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for model in Model::ALL {
        let circuit = model.circuit::<f64>(size);
        group.bench_with_input(BenchmarkId::new("f64", model), &positions, |b, ps| {
            b.iter(|| {
                for p in ps {
                    black_box(solve::<f64>(black_box(p), &circuit).ok());
                }
            })
        });
        let circuit32 = model.circuit::<f32>(size);
        group.bench_with_input(BenchmarkId::new("f32", model), &positions, |b, ps| {
            b.iter(|| {
                for p in ps {
                    // As the firmware does: one capacity for M <= 4.
                    black_box(solve_in::<f32, 13>(black_box(p), &circuit32).ok());
                }
            })
        });
        group.bench_with_input(BenchmarkId::new("exact", model), &positions, |b, ps| {
            b.iter(|| {
                for p in ps {
                    black_box(exact::solve_model(black_box(p), model));
                }
            })
        });
    }
    group.finish();

    // The quantisation study's step after the exact solve: the truth in floats (machine
    // integers whenever the values fit, as they do at M=4).
    let mut group = c.benchmark_group("truth M=4");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let solved: Vec<_> = positions
        .iter()
        .map(|p| (p, exact::solve_model(p, Model::Ideal)))
        .collect();
    group.bench_function("from_exact", |b| {
        b.iter(|| {
            for (p, e) in &solved {
                black_box(Truth::from_exact(black_box(p), e));
            }
        })
    });
    // The whole step, solve included: through the big-integer voltages, as the study did,
    // and in machine integers from the start (`Truth::of_small`), as it does.
    group.bench_function("solved big", |b| {
        b.iter(|| {
            for p in &positions {
                let e = exact::solve_model(black_box(p), Model::Ideal);
                black_box(Truth::from_exact(p, &e));
            }
        })
    });
    group.bench_function("solved small", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(Truth::of_small(black_box(p)));
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("read M=4");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let bits: Vec<u8> = (6..=16).collect();
    let study = Quantiser::new(&[Converter::Ideal], &bits, size).expect("ideal bits");
    group.bench_function("Quantiser::read", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(study.read(black_box(p)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
