//! Times one search for minimal weak links: `cargo run --release -p switching --example links_part N [K/P]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let id = args
        .get(2)
        .map_or("1/1".to_string(), Clone::clone)
        .parse()
        .unwrap();
    let start = std::time::Instant::now();
    let part = switching::links::run_part(n, id, &|_| {}).unwrap();
    eprintln!(
        "part {id}: {} graphs, {} sieved, {} pairs, {} weak, {} minimal (raw), {:.2?}",
        part.graphs,
        part.sieved,
        part.pairs,
        part.weak,
        part.links.len(),
        start.elapsed()
    );
    let report = switching::links::merge(&[part]).unwrap();
    eprintln!(
        "minimal weak {} (pendant {}) strong {} s-irr {} t-irr {}, {:.2?}",
        report.weak.len(),
        report.weak.iter().filter(|w| w.pendant).count(),
        report.strong.len(),
        report.s_irreducible(),
        report.t_irreducible(),
        start.elapsed()
    );
}
