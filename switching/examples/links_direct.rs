//! Minimal weak and strong links found with no sieve, from every game up to isomorphism:
//! `cargo run --release -p switching --example links_direct N`.
use switching::link::{Link, Strength};
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let start = std::time::Instant::now();
    let games = switching::enumerate::games(n).unwrap();
    let (mut weak, mut strong, mut weak_pendant) = (0, 0, 0);
    for g in &games {
        let link = Link::new(g, [0, 1]).unwrap();
        let s = link.strength();
        if s != Strength::None && link.is_minimal_at(s) {
            if s == Strength::Weak {
                weak += 1;
                if link.degree(0) == 1 || link.degree(1) == 1 {
                    weak_pendant += 1;
                }
            } else {
                strong += 1;
                println!("strong {g}");
            }
        }
    }
    eprintln!(
        "{n} vertices: {} games, minimal weak {weak} (with a pendant {weak_pendant}), minimal strong {strong} (weight {}), {:.1?}",
        games.len(),
        n - 2,
        start.elapsed()
    );
}
