//! Minimal strong and weak links by plain minimax alone (no memo, no pruning), from every
//! game up to isomorphism: `cargo run --release -p switching --example links_minimax N`.
use switching::link::{Link, minimax::short_wins};
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let start = std::time::Instant::now();
    let games = switching::enumerate::games(n).unwrap();
    let (mut weak, mut strong) = (0, 0);
    for g in &games {
        let link = Link::new(g, [0, 1]).unwrap();
        let edges = link.edges();
        if short_wins(&link, false) {
            if edges
                .iter()
                .all(|&e| !short_wins(&link.without_edge(e), false))
            {
                strong += 1;
                println!("strong {g}");
            }
        } else if short_wins(&link, true)
            && edges
                .iter()
                .all(|&e| !short_wins(&link.without_edge(e), true))
        {
            weak += 1;
            println!("weak {g}");
        }
    }
    eprintln!(
        "{n} vertices by plain minimax: {} games, minimal weak {weak}, minimal strong {strong}, {:.1?}",
        games.len(),
        start.elapsed()
    );
}
