//! The network of a random graph: one heuristic move (f64 pre-solve, exact only for
//! near-ties), the f64 pre-solve alone and one full exact solve, on seeded random
//! multigraphs of 200 edges (100 vertices) and 1000 edges (500 vertices), each over the same 16 positions of
//! 0..=edges/4 random plies. Also Bridj-It's loop-current solver on the 200-edge graph.
//!
//! `cargo bench -p emulator --bench graphs`; criterion prints the time per position.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use emulator::{graphs, mesh};
use heuristic::{Model, Side};
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use switching::{Graph, Play};

fn graph(edges: usize) -> Graph {
    let mut rng = ChaCha8Rng::seed_from_u64(edges as u64);
    switching::random::multigraph(&mut rng, edges / 2, edges)
}

/// Positions still in play: the start and random games of up to a quarter of the edges.
fn positions(graph: &Graph, count: usize) -> Vec<Play<'_>> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out = vec![Play::new(graph, Side::Cut)];
    while out.len() < count {
        let mut play = Play::new(graph, Side::Cut);
        for _ in 0..rng.random_range(0..=graph.edges().len() / 4) {
            let Some(edge) = play.resistors().choose(&mut rng) else {
                break;
            };
            play.play(edge).expect("a resistor");
            if play.winner().is_some() {
                break;
            }
        }
        if play.winner().is_none() {
            out.push(play);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    for (edges, samples) in [(200, 100), (1000, 10)] {
        let graph = graph(edges);
        let positions = positions(&graph, 16);
        let mut group = c.benchmark_group(format!("graph {edges} edges"));
        group.sample_size(samples);
        for model in Model::ALL {
            group.bench_with_input(
                BenchmarkId::new("heuristic_move", model),
                &positions,
                |b, ps| {
                    let mut i = 0;
                    b.iter(|| {
                        i = (i + 1) % ps.len();
                        black_box(graphs::heuristic_move(black_box(&ps[i]), model))
                    })
                },
            );
            group.bench_with_input(
                BenchmarkId::new("f64 pre-solve", model),
                &positions,
                |b, ps| {
                    let mut i = 0;
                    b.iter(|| {
                        i = (i + 1) % ps.len();
                        black_box(graphs::float_drops(black_box(&ps[i]), model))
                    })
                },
            );
            group.bench_with_input(
                BenchmarkId::new("exact solve", model),
                &positions,
                |b, ps| {
                    let mut i = 0;
                    b.iter(|| {
                        i = (i + 1) % ps.len();
                        black_box(graphs::solve(black_box(&ps[i]), model))
                    })
                },
            );
        }
        if edges == 200 {
            group.bench_with_input(BenchmarkId::new("mesh", "ideal"), &positions, |b, ps| {
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) % ps.len();
                    black_box(mesh::currents(black_box(&ps[i])))
                })
            });
        }
        group.finish();
    }
}

/// A path of `edges` resistors between the terminals: sparse, no fill, one unknown an edge.
fn path(edges: usize) -> Graph {
    let names: Vec<String> = (0..=edges).map(|i| format!("v{i}")).collect();
    Graph::new(
        ("v0", names[edges].as_str()),
        (0..edges).map(|i| (names[i].as_str(), names[i + 1].as_str(), None)),
    )
    .expect("a path is a board")
}

/// Large graphs (issue 27): the heuristic's move on paths of 10^3, 10^4 and 10^5 edges (the
/// sparse f64 solve; exact only up to `MAX_EXACT_UNKNOWNS`), and `check` on random
/// multigraphs of the same sizes (10^3 passes, 10^4 and 10^5 are refused by the fill and
/// work budgets: the figure is what a refusal costs).
fn large(c: &mut Criterion) {
    let mut group = c.benchmark_group("large graphs");
    group.sample_size(10);
    for edges in [1_000, 10_000, 100_000] {
        let line = path(edges);
        let play = Play::new(&line, Side::Cut);
        group.bench_with_input(
            BenchmarkId::new("path heuristic_move", edges),
            &play,
            |b, p| b.iter(|| black_box(graphs::heuristic_move(black_box(p), Model::Ideal))),
        );
        let random = graph(edges);
        let play = Play::new(&random, Side::Cut);
        group.bench_with_input(BenchmarkId::new("random check", edges), &play, |b, p| {
            b.iter(|| black_box(graphs::check(black_box(p), Model::Ideal)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench, large);
criterion_main!(benches);
