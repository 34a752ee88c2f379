//! The `beat` search's speed: one whole search for a Short strategy that always beats the
//! heuristic on the M=4 cage.
//!
//! `cargo bench -p emulator --bench beat`

use criterion::{Criterion, criterion_group, criterion_main};
use emulator::beat::{Ties, beat};
use heuristic::{Model, Size};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("beat");
    group.sample_size(10);
    group.bench_function("M=4 ideal any", |b| {
        b.iter(|| black_box(beat(Size::new(4).expect("4"), Model::Ideal, Ties::Any)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
