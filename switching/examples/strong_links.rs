//! Minimal strong links on N vertices found directly, not from the weak links
//! ([`switching::links::strong_links_shard`] on every part, in threads).
//!
//! `cargo run --release -p switching --example strong_links N [PARTS] [K,K,...]` prints the
//! count and the irreducible counts, to set beside `birdcage links --vertices N+1` (which
//! derives them from the minimal weak links with a pendant terminal). With a list of parts
//! (1-based, of PARTS), only those: a sample, whose links must all be among the derived ones
//! (N = 11: `switching/results/links-12/README.md`).
use switching::link::reduce::{Irreducible, Reductions};
use switching::links::{canonical_forms, strong_links_shard};

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
                    let found = strong_links_shard(n, k, parts).expect("nauty's geng");
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
