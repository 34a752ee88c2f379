//! Minimal strong links on N vertices found directly, not from the weak links: every
//! biconnected graph from nauty (`geng -C -d2`: a cut vertex either separates the terminals, so
//! Cut wins by taking it, or cuts off a block with no terminal, which is dead; a pendant is dead
//! or a terminal Cut isolates), every terminal pair that passes the conditions that hold for
//! any minimal link (no edge across a terminal, nothing surrounded by a terminal, no lost pair,
//! no dead simplicial vertex, terminals apart), solved for strong and minimal.
//!
//! `cargo run --release -p switching --example strong_links N [PARTS] [K,K,...]` prints the
//! count and the irreducible counts, to set beside `birdcage links --vertices N+1` (which
//! derives them from the minimal weak links with a pendant terminal). With a list of parts
//! (1-based, of PARTS), only those: a sample, whose links must all be among the derived ones
//! (N = 11: `switching/results/links-12/README.md`).
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use switching::graph6::SimpleGraph;
use switching::link::reduce::{Irreducible, Reductions};
use switching::link::sieve::{Condition, Shape};
use switching::link::{Link, Strength};
use switching::links::{Found, canonical_forms};

fn part(n: usize, k: usize, parts: usize) -> Vec<Found> {
    let mut child = Command::new("nauty-geng")
        .args(["-C", "-d2", "-q", &n.to_string(), &format!("{k}/{parts}")])
        .stdout(Stdio::piped())
        .spawn()
        .expect("nauty-geng");
    let mut found = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let graph: SimpleGraph = line.unwrap().parse().unwrap();
        let shape = Shape::of(&Link::new(&graph, [0, 1]).unwrap());
        if !Condition::NoSimplicial.holds_for_graph(&shape) {
            continue;
        }
        for s in 0..n {
            for t in s + 1..n {
                let pair = [s, t];
                let adj = shape.adjacency();
                if adj[s] >> t & 1 == 1
                    || ![
                        Condition::TerminalsTriangleFree,
                        Condition::NothingSurrounded,
                        Condition::NoLostPair,
                    ]
                    .iter()
                    .all(|c| c.holds_for_pair(&shape, pair))
                {
                    continue;
                }
                let link = Link::new(&graph, pair).unwrap();
                if link.strength() == Strength::Strong && link.is_minimal_at(Strength::Strong) {
                    found.push(Found {
                        graph: graph.clone(),
                        terminals: pair,
                    });
                }
            }
        }
    }
    child.wait().unwrap();
    found
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args[0].parse().unwrap();
    let parts: usize = args.get(1).map_or(8, |a| a.parse().unwrap());
    // geng's parts are 0-based; the list (as `links --part K/P`) 1-based.
    let chosen: Vec<usize> = match args.get(2) {
        Some(list) => list
            .split(',')
            .map(|k| k.parse::<usize>().unwrap() - 1)
            .collect(),
        None => (0..parts).collect(),
    };
    let start = std::time::Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let all = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(1, usize::from) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&k) = chosen.get(i) else {
                        return;
                    };
                    let found = part(n, k, parts);
                    all.lock().unwrap().extend(found);
                }
            });
        }
    });
    let found = all.into_inner().unwrap();
    let mut canonical = canonical_forms(&found).unwrap();
    canonical.sort();
    canonical.dedup();
    let counts = Irreducible::count(canonical.iter().map(|c| Reductions::of(&c.link())));
    for c in &canonical {
        println!("{}", c.0);
    }
    eprintln!(
        "minimal strong links on {n} vertices (weight {}), {} of {parts} parts: {} (S-irreducible {}, P {}, T {}, SPT {}), {:.1?}",
        n - 2,
        chosen.len(),
        counts.links,
        counts.s,
        counts.p,
        counts.t,
        counts.spt,
        start.elapsed()
    );
}
