//! The independent reference for the search in parts: one `geng` run over every connected
//! graph (no `res/mod` split), each graph read by the graph6 parser, every terminal pair
//! solved (the sieve only counts, it does not choose), the links kept one per isomorphism
//! class and the strong links derived here. It is independent of the split and the merge: it
//! uses no [`run_shard`](super::run_shard), [`LinksShard`](super::LinksShard) or
//! [`merge`](super::merge), so a bug that every split of the search shares shows as a
//! difference from it. It is not independent of the work on each graph: it lists with the
//! same geng, reads with the crate's graph6 parser, solves each pair with the search's solver
//! ([`Link::strength`], [`Link::is_minimal_at`]), and labels with the same `labelg`; the
//! brute force ([`crate::brute`]) is the check that shares none of that. Deliberately plain
//! and slow: for tests and CI at small N, not for the search itself.

use std::collections::BTreeSet;

use super::{Canonical, Found, LinksError, MAX_VERTICES, Report, WeakLink, canonical_forms};
use crate::enumerate::connected_graphs;
use crate::graph6::SimpleGraph;
use crate::link::reduce::Reductions;
use crate::link::sieve::{Shape, candidate_pairs};
use crate::link::{Link, Strength};

/// Every minimal weak link on `vertices` vertices and the strong links they give, in one
/// process and one pass: the report [`merge`](super::merge) must give from any split.
pub fn search(vertices: usize) -> Result<Report, LinksError> {
    if !(3..=MAX_VERTICES).contains(&vertices) {
        return Err(LinksError::Vertices(vertices));
    }
    // It counts the graphs it reads: a geng that prunes would make that count wrong.
    if crate::enumerate::geng_prunes()? {
        return Err(LinksError::PrunedReference);
    }
    let graphs = connected_graphs(vertices)?;
    let (mut sieved, mut pairs) = (0, 0);
    let mut found = Vec::new();
    for graph in &graphs {
        let link = |terminals| Link::new(graph, terminals).expect("geng's graphs are small");
        let candidates = candidate_pairs(&Shape::of(&link([0, 1])));
        sieved += u64::from(!candidates.is_empty());
        pairs += candidates.len() as u64;
        for s in 0..vertices {
            for t in s + 1..vertices {
                let l = link([s, t]);
                if l.strength() == Strength::Weak && l.is_minimal_at(Strength::Weak) {
                    found.push(Found {
                        graph: graph.clone(),
                        terminals: [s, t],
                    });
                }
            }
        }
    }
    let weak: BTreeSet<Canonical> = canonical_forms(&found)?.into_iter().collect();
    let mut strong = Vec::new();
    for c in &weak {
        if let Some(found) = without_pendant_terminal(&c.link()) {
            strong.push(found);
        }
    }
    let strong: BTreeSet<Canonical> = canonical_forms(&strong)?.into_iter().collect();
    Ok(Report {
        vertices,
        graphs: graphs.len() as u64,
        listed: None,
        sieved,
        pairs,
        weak: weak
            .into_iter()
            .map(|link| {
                let l = link.link();
                WeakLink {
                    pivots: l.pivots(),
                    pendant: (0..2).any(|t| l.degree(t) == 1),
                    reductions: Reductions::of(&l),
                    link,
                }
            })
            .collect(),
        strong: strong.into_iter().collect(),
    })
}

/// The strong link a weak link with a pendant terminal (the first, terminal 0 before 1)
/// gives: that terminal gone, its one neighbour the new terminal.
fn without_pendant_terminal(link: &Link) -> Option<Found> {
    let pendant = (0..2).find(|&t| link.degree(t) == 1)?;
    let neighbour = link.neighbours(pendant).trailing_zeros() as usize;
    // Vertices above the pendant move down one.
    let new = |v: usize| if v > pendant { v - 1 } else { v };
    let edges: Vec<[usize; 2]> = link
        .edges()
        .into_iter()
        .filter(|e| !e.contains(&pendant))
        .map(|[u, v]| [new(u), new(v)])
        .collect();
    let graph = SimpleGraph::new(link.vertices() - 1, edges).expect("a subgraph is simple");
    Some(Found {
        graph,
        terminals: [new(neighbour), new(1 - pendant)],
    })
}
