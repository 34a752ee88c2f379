//! Counts the games (connected graph, terminal pair) up to isomorphism per vertex count,
//! by nauty and by brute force: `cargo run --release -p switching --example count_games 7`.
use std::time::Instant;

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(6);
    for n in 2..=max {
        let t = Instant::now();
        let nauty = switching::enumerate::games(n).map(|g| g.len());
        let tn = t.elapsed();
        let t = Instant::now();
        let brute = (n <= switching::enumerate::MAX_BRUTE_FORCE)
            .then(|| switching::enumerate::brute_force(n).len());
        println!(
            "N={n}: nauty {nauty:?} ({tn:.2?}), brute force {brute:?} ({:.2?})",
            t.elapsed()
        );
    }
}
