//! The links search's inner steps: the sieve over every connected graph on 9 vertices, and
//! the solver's two questions (strength, then minimality for the weak links) over the
//! terminal pairs the sieve keeps. Needs nauty's geng for the graphs (skipped without it).
//!
//! `cargo bench -p switching --bench links`; criterion prints the time per batch, and per
//! graph or pair through the element throughput.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use switching::enumerate::connected_graphs;
use switching::link::sieve::{Shape, candidate_pairs};
use switching::link::{Link, Set, Strength};

fn bench(c: &mut Criterion) {
    let graphs = match connected_graphs(9) {
        Ok(graphs) => graphs,
        Err(e) => {
            eprintln!("skipped: the links bench needs nauty's geng ({e})");
            return;
        }
    };
    let shapes: Vec<Vec<Set>> = graphs
        .iter()
        .map(|g| {
            let link = Link::new(g, [0, 1]).expect("a small simple graph");
            link.adjacency().to_vec()
        })
        .collect();
    let links: Vec<Link> = shapes
        .iter()
        .flat_map(|adjacency| {
            candidate_pairs(&Shape::new(adjacency))
                .into_iter()
                .map(|pair| Link::from_adjacency(adjacency, pair).expect("a link"))
        })
        .collect();
    let weak: Vec<Link> = links
        .iter()
        .filter(|l| l.strength() == Strength::Weak)
        .cloned()
        .collect();
    let mut group = c.benchmark_group("links");
    group.sample_size(20);
    group.throughput(Throughput::Elements(shapes.len() as u64));
    group.bench_function("sieve N=9", |b| {
        b.iter(|| {
            for adjacency in &shapes {
                black_box(candidate_pairs(&Shape::new(black_box(adjacency))));
            }
        })
    });
    group.throughput(Throughput::Elements(links.len() as u64));
    group.bench_function("strength N=9", |b| {
        b.iter(|| {
            for link in &links {
                black_box(black_box(link).strength());
            }
        })
    });
    group.throughput(Throughput::Elements(weak.len() as u64));
    group.bench_function("minimality N=9", |b| {
        b.iter(|| {
            for link in &weak {
                black_box(black_box(link).is_minimal_at(Strength::Weak));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
