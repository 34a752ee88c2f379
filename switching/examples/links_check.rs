//! A second method for a links report (issue 53 item 3): a seeded sample of its minimal weak
//! links, and of the minimal strong links derived from them, each checked by the brute force
//! alone ([`switching::brute`]: plain minimax from the rules, its own graph6 reading, no code
//! of the search; it shares with the search only the report's text). A weak link: Short wins
//! moving first and not moving second, and with any one edge removed no longer wins moving
//! first. A strong link: Short wins moving second, and with any one edge removed no longer
//! does. `tests/brute_force.rs` runs the same check on the committed N = 9 report and a
//! sample of N = 12's.
//!
//! `cargo run --release -p switching --example links_check -- REPORT [SAMPLE] [SEED]`
//! (REPORT: `links-N.txt` or `links-N.json` from `birdcage links --vertices N --out DIR`;
//! SAMPLE 20 of each kind, or `all`; SEED 1). Prints each link checked; exits 1 naming every
//! link that fails, 2 on a report that does not read.
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use serde_json::Value;
use switching::brute::{self, LinkKind, Listed};

/// The report's links as a `links-N.txt` listing: a JSON report's lists written as its lines.
fn listing(path: &str, text: &str) -> Result<Vec<Listed>, String> {
    let text = if path.ends_with(".json") {
        let report: Value = serde_json::from_str(text).map_err(|e| format!("{path}: {e}"))?;
        let mut lines = String::new();
        for (list, kind) in [("links", "weak"), ("strong_links", "strong")] {
            let entries = report[list]
                .as_array()
                .ok_or_else(|| format!("{path}: no list `{list}`"))?;
            for entry in entries {
                let t = &entry["terminals"];
                lines += &format!(
                    "{kind} {} {} {}\n",
                    entry["graph6"].as_str().unwrap_or("?"),
                    t[0],
                    t[1]
                );
            }
        }
        lines
    } else {
        text.to_string()
    };
    brute::listing(&text).map_err(|e| format!("{path}: {e}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fail = |message: String| -> ! {
        eprintln!("error: {message}");
        std::process::exit(2)
    };
    let Some(path) = args.first() else {
        fail("usage: links_check REPORT [SAMPLE] [SEED]".into());
    };
    let sample: usize = match args.get(1).map(String::as_str) {
        None => 20,
        Some("all") => usize::MAX,
        Some(a) => a
            .parse()
            .unwrap_or_else(|_| fail(format!("SAMPLE `{a}`: a count or `all`"))),
    };
    let seed: u64 = args.get(2).map_or(1, |a| {
        a.parse()
            .unwrap_or_else(|_| fail(format!("SEED `{a}`: a whole number")))
    });
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let links = listing(path, &text).unwrap_or_else(|e| fail(e));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut failed = 0;
    for kind in [LinkKind::Weak, LinkKind::Strong] {
        let all: Vec<&Listed> = links.iter().filter(|l| l.kind == kind).collect();
        let start = std::time::Instant::now();
        let picked: Vec<&&Listed> = all.choose_multiple(&mut rng, sample).collect();
        for l in &picked {
            let pair = l.game.terminals();
            match l.game.fault(kind) {
                None => println!("{kind:?} {} {pair:?}: confirmed", l.graph6),
                Some(why) => {
                    failed += 1;
                    println!("{kind:?} {} {pair:?}: FAILS, {why}", l.graph6);
                }
            }
        }
        eprintln!(
            "{kind:?}: {} of {} checked by the brute force (seed {seed}), {:.1?}",
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
