//! The hint's speed, as a person waits for it (`emulator::hint::hint`, the search and its
//! words): positions after moves of one's own at M=6 and M=7, where the hint once fell back
//! on perfect play (issue 63), and one where its search ends at its budget without a win.
//!
//! `cargo bench -p emulator --bench hint`

use criterion::{Criterion, criterion_group, criterion_main};
use emulator::hint::{Rival, hint};
use heuristic::{Model, Move, Position, Side, Size};
use std::hint::black_box;

/// (M, the record so far, Short to move against the heuristic on the ideal network.)
const POSITIONS: [(u32, &str); 10] = [
    // Issue 52's two moves, g9 and i9: a win against this machine, four moves deep.
    (6, "A11,g9,G11,i9,I11"),
    // Issue 63's miss: a win four moves of one's own deep that the moves tried first hid.
    (6, "A11,h10,C11,c9,E11"),
    // The "three moves of one's own".
    (6, "A11,g9,G11,i9,I11,k9,K11"),
    // The slowest win found among 32 positions after two or three random moves of one's own
    // (`cargo run --release -p emulator --example hint_reach -- 6 2 16`).
    (6, "A11,d8,C11,b10,E11"),
    // `birdcage play --size 7` after c1 and e1.
    (7, "A13,c1,C13,e1,E13"),
    // Issue 63's M=7 miss: a win five moves deep, after ruling out four (`hint_reach -- 7 3 16`).
    (7, "A13,k1,K3,d4,M3,a5,I3"),
    // Issue 63's last M=7 miss: a win five moves deep, found only with ten times the budget
    // while the search deepened a move at a time; the dive to eight moves finds it.
    (7, "A13,l12,C13,e11,E13,m11,G13"),
    // Once the longest wait (no win within ten times the budget); the dive finds one.
    (7, "A13,l12,C13,e11,E13"),
    // No win found within the budget: the longest waits, M=7 and M=6 (the slowest of 400
    // positions after two to five random moves of one's own, `hint_reach`'s games).
    (7, "A13,l10,C13,b12,E13"),
    (6, "A11,e11,E9,h2,G9,j2,C9"),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("hint");
    group.sample_size(10);
    for (m, record) in POSITIONS {
        let size = Size::new(m).expect("a size");
        let position = Position::from_record(size, Side::Cut, record).expect("a legal record");
        let rival = Rival::Heuristic(Model::Ideal);
        group.bench_function(format!("M={m} {record}"), |b| {
            b.iter(|| {
                black_box(hint(
                    &position,
                    size.edge_count(),
                    Side::Short,
                    rival,
                    |side, edge| Move { side, edge }.to_string(),
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
