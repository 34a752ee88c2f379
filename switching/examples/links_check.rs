//! A second method for a links report (issue 53 item 3): a seeded sample of its minimal weak
//! links, and of the minimal strong links derived from them, each checked by plain minimax
//! alone ([`switching::link::minimax`]: every line of play to the end, no memo, no sieve, no
//! move ordering; it shares with the search only the graph, the terminals and the rule of who
//! wins). A weak link: Short wins moving first and not moving second, and with any one edge
//! removed no longer wins moving first. A strong link: Short wins moving second, and with any
//! one edge removed no longer does.
//!
//! `cargo run --release -p switching --example links_check -- REPORT.json [SAMPLE] [SEED]`
//! (REPORT from `birdcage links --vertices N --merge --format json`; SAMPLE 20 of each kind,
//! or `all`; SEED 1). Prints each link checked; exits 1 naming every link that fails.
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use serde_json::Value;
use switching::graph6::SimpleGraph;
use switching::link::{Link, minimax::short_wins};

/// What plain minimax says is wrong with `link` as a minimal link of its kind; None if nothing.
fn fault(link: &Link, strong: bool) -> Option<String> {
    let (kind, short_first) = if strong {
        ("strong", false)
    } else {
        ("weak", true)
    };
    if !short_wins(link, short_first) {
        return Some(format!("not {kind}: Short does not win"));
    }
    if !strong && short_wins(link, false) {
        return Some("strong, not weak: Short wins moving second".into());
    }
    link.edges()
        .into_iter()
        .find(|&e| short_wins(&link.without_edge(e), short_first))
        .map(|[u, v]| format!("not minimal: Short still wins without edge {u}-{v}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: links_check REPORT.json [SAMPLE] [SEED]");
        std::process::exit(2);
    };
    let sample: usize = match args.get(1).map(String::as_str) {
        None => 20,
        Some("all") => usize::MAX,
        Some(a) => a.parse().expect("SAMPLE: a count or `all`"),
    };
    let seed: u64 = args
        .get(2)
        .map_or(1, |a| a.parse().expect("SEED: a number"));
    let text = std::fs::read_to_string(path).expect("the report");
    let report: Value = serde_json::from_str(&text).expect("a links report in JSON");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut failed = 0;
    for (list, strong) in [("links", false), ("strong_links", true)] {
        let all = report[list].as_array().expect("the report's link lists");
        let start = std::time::Instant::now();
        let picked: Vec<&Value> = all.choose_multiple(&mut rng, sample).collect();
        for entry in &picked {
            let graph6 = entry["graph6"].as_str().expect("graph6");
            let terminals = entry["terminals"].as_array().expect("terminals");
            let pair = [0, 1].map(|i| terminals[i].as_u64().expect("a terminal") as usize);
            let graph: SimpleGraph = graph6.parse().expect("a graph6 string");
            let link = Link::new(&graph, pair).expect("a link");
            match fault(&link, strong) {
                None => println!("{list} {graph6} {pair:?}: confirmed"),
                Some(why) => {
                    failed += 1;
                    println!("{list} {graph6} {pair:?}: FAILS, {why}");
                }
            }
        }
        eprintln!(
            "{list}: {} of {} checked by plain minimax (seed {seed}), {:.1?}",
            picked.len(),
            all.len(),
            start.elapsed()
        );
    }
    if failed > 0 {
        eprintln!("{failed} links fail");
        std::process::exit(1);
    }
}
