//! The links search against the brute force (`switching::brute`: plain minimax from the rules,
//! its own graph6 and canonical form, no code of the search), and the committed reports
//! (`results/links-9`, a sample of `results/links-12`) checked link by link by it, as
//! `examples/links_check.rs` does. Each check is also shown to fail on a wrong input.

use std::collections::BTreeSet;
use std::path::Path;

use switching::brute::{self, Fault, Game, LinkKind};
use switching::enumerate;
use switching::links::{self, Report, ShardId};

fn nauty() -> bool {
    let ok = enumerate::nauty_available().expect("nauty's geng is installed but does not run");
    if !ok {
        needs::skip("nauty", "nauty not installed");
    }
    ok
}

/// The search's report on `n` vertices, in one part.
fn search(n: usize) -> Report {
    let part = links::run_shard(n, ShardId { index: 1, count: 1 }, &|_| {}).unwrap();
    links::merge(&[part]).unwrap()
}

/// The brute force's canonical form of each link of a report's list (terminals 0 and 1).
fn canonical<'a>(graphs: impl Iterator<Item = &'a links::Canonical>) -> BTreeSet<(usize, u128)> {
    graphs
        .map(|c| {
            let adjacency = brute::graph6(&c.0.to_string()).unwrap();
            Game::new(adjacency, [0, 1]).unwrap().canonical()
        })
        .collect()
}

/// The source of `brute.rs` names nothing else of the crate (no `crate::`, `super::` or
/// `switching::` outside comments): the claim that it shares no code with the search.
#[test]
fn the_brute_force_imports_nothing_from_the_crate() {
    let names = |file: &str| -> Vec<&'static str> {
        let source =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        let code: String = source
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        ["crate::", "super::", "switching::"]
            .into_iter()
            .filter(|word| code.contains(word))
            .collect()
    };
    assert_eq!(names("src/brute.rs"), Vec::<&str>::new());
    // The scan can fail: the reference search, which shares the solver, is caught.
    assert_eq!(names("src/links/reference.rs"), ["crate::", "super::"]);
}

/// Issue 62: the minimal weak links on 3 to 8 vertices by the brute force, every terminal
/// pair of every connected graph with no sieve, are the search's; and the minimal strong
/// links on 3 to 7 vertices are the ones the search derives from the weak links on one more.
/// About 1 s (N = 8: 11,117 graphs, 311,276 terminal pairs).
#[test]
fn the_brute_force_finds_the_search_s_links_up_to_8_vertices() {
    if !nauty() {
        return;
    }
    let mut weak_found = 0;
    for n in 3..=8 {
        let graphs = brute::connected_graphs(n).unwrap();
        let report = search(n);
        let by_search = canonical(report.weak.iter().map(|w| &w.link));
        let by_brute = brute::minimal_links(&graphs, LinkKind::Weak);
        assert_eq!(by_brute, by_search, "minimal weak links on {n} vertices");
        weak_found += by_brute.len();
        let strong_brute =
            brute::minimal_links(&brute::connected_graphs(n - 1).unwrap(), LinkKind::Strong);
        assert_eq!(
            strong_brute,
            canonical(report.strong.iter()),
            "minimal strong links on {} vertices",
            n - 1
        );
    }
    // Table 1: W1, W3 and the W5 family.
    assert_eq!(weak_found, 1 + 1 + 5);
}

/// The same on 9 vertices (36 weak links, and the 13 strong links of weight 6 on 8, where
/// the paper says 14): `cargo test --release -p switching --test brute_force -- --ignored`.
#[test]
#[ignore = "about 85 CPU-seconds: the brute force on all 261,080 graphs on 9 vertices"]
fn the_brute_force_finds_the_search_s_links_on_9_vertices() {
    if !nauty() {
        return;
    }
    let report = search(9);
    let weak = brute::minimal_links(&brute::connected_graphs(9).unwrap(), LinkKind::Weak);
    assert_eq!(weak, canonical(report.weak.iter().map(|w| &w.link)));
    assert_eq!(weak.len(), 36);
    let strong = brute::minimal_links(&brute::connected_graphs(8).unwrap(), LinkKind::Strong);
    assert_eq!(strong, canonical(report.strong.iter()));
    assert_eq!(strong.len(), 13);
}

/// The comparison can fail: the search's N = 7 links with one link changed (an edge added)
/// or one left out are not the brute force's.
#[test]
fn a_changed_or_missing_link_is_told_apart() {
    if !nauty() {
        return;
    }
    let report = search(7);
    let by_brute = brute::minimal_links(&brute::connected_graphs(7).unwrap(), LinkKind::Weak);
    let mut games: Vec<Game> = report
        .weak
        .iter()
        .map(|w| Game::new(brute::graph6(&w.link.0.to_string()).unwrap(), [0, 1]).unwrap())
        .collect();
    let all: BTreeSet<_> = games.iter().map(Game::canonical).collect();
    assert_eq!(all, by_brute);
    let missing: BTreeSet<_> = games[1..].iter().map(Game::canonical).collect();
    assert_ne!(missing, by_brute);
    let first = &games[0];
    let absent = (0..7)
        .flat_map(|u| (u + 1..7).map(move |v| [u, v]))
        .find(|&[u, v]| first.adjacency()[u] >> v & 1 == 0)
        .unwrap();
    let mut adjacency = first.adjacency().to_vec();
    adjacency[absent[0]] |= 1 << absent[1];
    adjacency[absent[1]] |= 1 << absent[0];
    games[0] = Game::new(adjacency, [0, 1]).unwrap();
    let changed: BTreeSet<_> = games.iter().map(Game::canonical).collect();
    assert_ne!(changed, by_brute);
}

/// Reads a committed listing (`results/…/links-N.txt`).
fn listing(path: &str) -> Vec<brute::Listed> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    brute::listing(&text).unwrap()
}

/// Issue 62: the committed report on 9 vertices passes `links_check`'s check, every link:
/// the 36 minimal weak links and the 13 minimal strong links of weight 6. Under 1 s.
#[test]
fn the_committed_9_vertex_report_passes_the_links_check() {
    let links = listing("results/links-9/links-9.txt");
    let weak = links.iter().filter(|l| l.kind == LinkKind::Weak).count();
    assert_eq!((weak, links.len() - weak), (36, 13));
    for l in &links {
        assert_eq!(l.game.fault(l.kind), None, "line {}: {}", l.line, l.graph6);
    }
}

/// Issue 62: a sample of the committed N = 12 links (every 512th weak link and every 170th
/// strong link, 11 and 11, on 12 and 11 vertices) passes the same check. About 2 s.
#[test]
fn a_sample_of_the_committed_12_vertex_links_passes_the_links_check() {
    let links = listing("results/links-12/links-12.txt");
    let weak: Vec<_> = links.iter().filter(|l| l.kind == LinkKind::Weak).collect();
    let strong: Vec<_> = links
        .iter()
        .filter(|l| l.kind == LinkKind::Strong)
        .collect();
    assert_eq!((weak.len(), strong.len()), (5_133, 1_704));
    let sample = weak.iter().step_by(512).chain(strong.iter().step_by(170));
    let mut checked = 0;
    for l in sample {
        assert_eq!(l.game.fault(l.kind), None, "line {}: {}", l.line, l.graph6);
        checked += 1;
    }
    assert_eq!(checked, 22);
}

/// The check fails where it should, naming why: a strong link listed as weak, a weak link
/// listed as strong, a weak link with an edge added, and a listing line that does not read.
#[test]
fn the_links_check_refuses_a_wrong_entry() {
    let links = listing("results/links-9/links-9.txt");
    let weak = links.iter().find(|l| l.kind == LinkKind::Weak).unwrap();
    let strong = links.iter().find(|l| l.kind == LinkKind::Strong).unwrap();
    assert_eq!(strong.game.fault(LinkKind::Weak), Some(Fault::Strong));
    assert_eq!(
        weak.game.fault(LinkKind::Strong),
        Some(Fault::NotWinning(LinkKind::Strong))
    );
    // W1 (the path 0-2-1) with the edge 0-1 added is strong; with a pendant vertex joined to
    // its middle and a terminal it is weak but not minimal.
    let w1 = Game::new(brute::graph6("BW").unwrap(), [0, 1]).unwrap();
    assert_eq!(w1.fault(LinkKind::Weak), None);
    let extra = Game::new(brute::graph6("C\\").unwrap(), [0, 1]).unwrap();
    assert!(
        matches!(extra.fault(LinkKind::Weak), Some(Fault::NotMinimal(..))),
        "{:?}",
        extra.fault(LinkKind::Weak)
    );
    // One entry of the committed listing changed (its terminals moved): refused.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/links-9/links-9.txt"),
    )
    .unwrap();
    let changed = text.replacen(
        &format!("{} 0 1", weak.graph6),
        &format!("{} 0 2", weak.graph6),
        1,
    );
    let faults: Vec<_> = brute::listing(&changed)
        .unwrap()
        .iter()
        .filter_map(|l| l.game.fault(l.kind).map(|f| (l.line, f.to_string())))
        .collect();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].0, weak.line);
    let bad = brute::listing("weak H?aBQio 0\n").unwrap_err().to_string();
    assert_eq!(
        bad,
        "line 1: `weak H?aBQio 0` is not `weak|strong GRAPH6 S T`"
    );
    let bad = brute::listing("weak H?aBQi 0 1\n").unwrap_err().to_string();
    assert_eq!(bad, "`H?aBQi` is not graph6 of a graph on 1 to 12 vertices");
}
