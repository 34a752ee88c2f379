//! Where the time of a links search goes, part by part: the same geng part read in passes that
//! each add one stage (geng counting only, geng listing into the pipe, graph6 decoded, the
//! sieve, solving, minimality), so that the differences are the stages' costs, with no timer
//! inside the loop. The canonical forms (`labelg`) run once at the merge and are timed there.
//!
//! `cargo run --release -p switching --example links_cost N K/P [STAGES]` prints one line per
//! stage: wall and CPU seconds (this process and its children), graphs, and what the stage
//! found. STAGES (default `count,list,decode,sieve,solve,minimal`; `why` counts the graph
//! condition that rejects first) picks the passes; `part` alone prints the part file that
//! `birdcage links --part K/P` stores, to compare two builds byte for byte; `links_cost merge
//! FILE...` prints the counts of the report those part files make.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

use switching::link::sieve::{Condition, Shape, candidate_pairs};
use switching::link::{Link, MAX_VERTICES, Set, Strength};

/// CPU seconds of this process and of its waited-for children (user + system).
fn cpu() -> f64 {
    let parse = |path: &str| -> f64 {
        let text = std::fs::read_to_string(path).unwrap();
        let f: Vec<&str> = text
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        // Fields 14..17 of /proc/self/stat (utime, stime, cutime, cstime), counted from
        // the state field at index 0 here (field 3 there).
        let tick = 100.0;
        f[11..15]
            .iter()
            .map(|x| x.parse::<f64>().unwrap())
            .sum::<f64>()
            / tick
    };
    parse("/proc/self/stat")
}

#[derive(Default, Debug)]
struct Found {
    graphs: u64,
    sieved: u64,
    pairs: u64,
    weak: u64,
    minimal: u64,
    /// Graphs first rejected by each graph condition, then those passing all.
    why: [u64; 6],
}

fn pass(n: usize, part: &str, stage: usize) -> Found {
    let mut found = Found::default();
    if stage == 0 {
        let out = Command::new("nauty-geng")
            .args(["-c", "-u", &n.to_string(), part])
            .output()
            .expect("nauty-geng");
        let text = String::from_utf8_lossy(&out.stderr);
        found.graphs = text
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or(0);
        return found;
    }
    let mut child = Command::new("nauty-geng")
        .args(["-c", "-q", &n.to_string(), part])
        .stdout(Stdio::piped())
        .spawn()
        .expect("nauty-geng");
    let mut reader = BufReader::with_capacity(1 << 16, child.stdout.take().unwrap());
    let mut line = Vec::with_capacity(64);
    let mut adjacency = [0 as Set; MAX_VERTICES];
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).unwrap() == 0 {
            break;
        }
        found.graphs += 1;
        if stage == 1 {
            continue;
        }
        let k = switching::links::small_adjacency(&line[..line.len() - 1], &mut adjacency)
            .expect("graph6 from geng");
        if stage == 2 {
            std::hint::black_box(&adjacency);
            continue;
        }
        if stage == 6 {
            // Which graph condition rejects first, in the sieve's order.
            let shape = Shape::new(&adjacency[..k]);
            let first = Condition::GRAPH
                .iter()
                .position(|c| !c.holds_for_graph(&shape))
                .unwrap_or(Condition::GRAPH.len());
            found.why[first] += 1;
            continue;
        }
        let pairs = candidate_pairs(&Shape::new(&adjacency[..k]));
        if pairs.is_empty() {
            continue;
        }
        found.sieved += 1;
        found.pairs += pairs.len() as u64;
        if stage == 3 {
            continue;
        }
        for terminals in pairs {
            let link = Link::from_adjacency(&adjacency[..k], terminals).unwrap();
            if link.strength() != Strength::Weak {
                continue;
            }
            found.weak += 1;
            if stage == 5 && link.is_minimal_at(Strength::Weak) {
                found.minimal += 1;
            }
        }
    }
    child.wait().unwrap();
    found
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("merge") {
        // The counts of the report the part files make (`birdcage links --merge`'s figures).
        let parts: Vec<switching::links::LinksShard> = args[2..]
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap().parse().unwrap())
            .collect();
        let r = switching::links::merge(&parts).expect("the parts merge");
        println!(
            "N = {}: graphs {}, sieved {}, pairs {}, minimal weak {}, S-irreducible {}, strong {}",
            r.vertices,
            r.graphs,
            r.sieved,
            r.pairs,
            r.weak.len(),
            r.s_irreducible(),
            r.strong.len()
        );
        return;
    }
    let usage = "usage: links_cost N K/P [count,list,decode,sieve,solve,minimal]";
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let (k, p) = args
        .get(2)
        .and_then(|a| a.split_once('/'))
        .map(|(k, p)| (k.parse::<u32>().unwrap(), p.parse::<u32>().unwrap()))
        .expect(usage);
    // geng numbers parts from 0, the project from 1.
    let part = format!("{}/{p}", k - 1);
    let names = [
        "count", "list", "decode", "sieve", "solve", "minimal", "why",
    ];
    let wanted = args
        .get(3)
        .map_or("count,list,decode,sieve,solve,minimal", String::as_str);
    if wanted == "part" {
        // The part file `birdcage links --part K/P` stores, to stdout, to compare builds.
        let id = switching::links::ShardId { index: k, count: p };
        let part = switching::links::run_shard(n, id, &|_| {}).expect("the part runs");
        print!("{part}");
        return;
    }
    println!("N = {n}, part {k}/{p}");
    println!("stage      wall s   cpu s   graphs        sieved     pairs      weak   minimal");
    for name in wanted.split(',') {
        let stage = names.iter().position(|s| *s == name).expect(usage);
        let (wall, cpu0) = (Instant::now(), cpu());
        let f = pass(n, &part, stage);
        let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu() - cpu0);
        println!(
            "{name:<9}{wall:>8.2}{cpu:>8.2}{:>10}{:>12}{:>10}{:>10}{:>10}",
            f.graphs, f.sieved, f.pairs, f.weak, f.minimal
        );
        if stage == 6 {
            for (c, count) in Condition::GRAPH
                .iter()
                .map(|c| format!("{c:?}"))
                .chain(["pass".into()])
                .zip(f.why)
            {
                println!("  first rejected by {c}: {count}");
            }
        }
    }
}
