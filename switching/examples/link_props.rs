//! Table 2/3-style properties of links given as `graph6` lines on stdin (terminals 0 and 1):
//! edges, largest degree, centre size, S-, P- and T-reducibility, then the counts.
//! `birdcage links --vertices 9 --format json | jq -r '.strong_links[].graph6' | cargo run --release -p switching --example link_props`
use std::io::BufRead;
use switching::link::{Link, reduce};
fn main() {
    let mut irreducible = [0; 4];
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let g6 = line.split_whitespace().last().unwrap();
        let g: switching::graph6::SimpleGraph = g6.parse().unwrap();
        let link = Link::new(&g, [0, 1]).unwrap();
        let n = link.vertices();
        let max_degree = (0..n).map(|v| link.degree(v)).max().unwrap();
        let border = link.neighbours(0) | link.neighbours(1);
        let centre = (link.play_area() & !border).count_ones();
        let (s, p, t) = (
            reduce::s_reducible(&link).unwrap(),
            reduce::p_reducible(&link),
            reduce::t_reducible(&link),
        );
        for (k, r) in [s, p, t, s || p || t].into_iter().enumerate() {
            irreducible[k] += usize::from(!r);
        }
        println!(
            "{g6:<12} edges {:>2} max-degree {max_degree} centre {centre} S {s} P {p} T {t} {} pivots {:?}",
            link.edges().len(),
            link.strength(),
            link.pivots()
        );
        if std::env::var_os("EDGES").is_some() {
            println!(
                "  edges {:?} pair {:?}",
                link.edges(),
                reduce::supporting_pair(&link)
            );
        }
    }
    println!(
        "irreducible: S {} P {} T {} SPT {}",
        irreducible[0], irreducible[1], irreducible[2], irreducible[3]
    );
}
