//! The report of a whole search: the parts merged, the strong links derived, the tables'
//! figures.

use std::collections::BTreeSet;

use super::{Canonical, Found, LinksError, LinksShard, canonical_forms};
use crate::graph6::SimpleGraph;
use crate::link::Link;
use crate::link::reduce::{Irreducible, Reductions};

/// One minimal weak link of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeakLink {
    /// Canonical form, terminals 0 and 1.
    pub link: Canonical,
    /// Its pivots.
    pub pivots: Vec<usize>,
    /// Whether a terminal is a pendant (it then yields a minimal strong link).
    pub pendant: bool,
    /// Its reductions.
    pub reductions: Reductions,
}

/// Every minimal weak link on N vertices and what follows from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// N.
    pub vertices: usize,
    /// Connected graphs on N vertices: the ones read, or, when the listing was pruned, the
    /// known count (OEIS A001349), which nothing counted.
    pub graphs: u64,
    /// When geng pruned the listing: the graphs it listed (counted), which [`Report::graphs`]
    /// is not; `None` when every graph was listed and `graphs` is that count.
    pub listed: Option<u64>,
    /// Graphs the sieve kept.
    pub sieved: u64,
    /// Terminal pairs solved.
    pub pairs: u64,
    /// Minimal weak links on N vertices, one per isomorphism class, sorted.
    pub weak: Vec<WeakLink>,
    /// Minimal strong links on N − 1 vertices from the weak links with a pendant terminal,
    /// one per isomorphism class, sorted.
    pub strong: Vec<Canonical>,
}

impl Report {
    /// The minimal weak links without each reduction (table 2's columns).
    pub fn weak_irreducible(&self) -> Irreducible {
        Irreducible::count(self.weak.iter().map(|w| w.reductions))
    }

    /// How many minimal weak links are S-irreducible (table 1's last column).
    pub fn s_irreducible(&self) -> usize {
        self.weak_irreducible().s as usize
    }

    /// The spread of the minimal weak links (table 2's middle columns).
    pub fn weak_spread(&self) -> Option<Spread> {
        let links: Vec<Link> = self.weak.iter().map(|w| w.link.link()).collect();
        Spread::of(&links)
    }

    /// The spread of the minimal strong links (table 3's middle columns).
    pub fn strong_spread(&self) -> Option<Spread> {
        let links: Vec<Link> = self.strong.iter().map(Canonical::link).collect();
        Spread::of(&links)
    }

    /// The minimal strong links without each reduction (table 3's columns).
    pub fn strong_irreducible(&self) -> Irreducible {
        Irreducible::count(self.strong.iter().map(|c| Reductions::of(&c.link())))
    }
}

/// The shape of a set of links as tables 2 and 3 give it: the smallest centre (play vertices
/// next to neither terminal), and the least and most edges and largest degree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spread {
    /// The smallest centre.
    pub centre: u32,
    /// Fewest and most edges.
    pub edges: [u32; 2],
    /// Least and most of the largest vertex degree.
    pub max_degree: [u32; 2],
}

impl Spread {
    /// The spread of `links`; `None` for none.
    pub fn of<'a>(links: impl IntoIterator<Item = &'a Link>) -> Option<Spread> {
        links
            .into_iter()
            .map(|l| {
                let [s, t] = l.terminals();
                let centre = l.play_area() & !l.neighbours(s) & !l.neighbours(t);
                let edges = l.edges().len() as u32;
                let degree = (0..l.vertices()).map(|v| l.degree(v)).max().unwrap_or(0);
                Spread {
                    centre: centre.count_ones(),
                    edges: [edges; 2],
                    max_degree: [degree; 2],
                }
            })
            .reduce(|a, b| Spread {
                centre: a.centre.min(b.centre),
                edges: [a.edges[0].min(b.edges[0]), a.edges[1].max(b.edges[1])],
                max_degree: [
                    a.max_degree[0].min(b.max_degree[0]),
                    a.max_degree[1].max(b.max_degree[1]),
                ],
            })
    }
}

/// The report from every part of one search: checks that the parts belong together, that
/// none is missing and that their graphs add up to [`CONNECTED_GRAPHS`](super::CONNECTED_GRAPHS), then keeps one link
/// per isomorphism class and derives the strong links.
pub fn merge(parts: &[LinksShard]) -> Result<Report, LinksError> {
    let first = parts
        .first()
        .ok_or_else(|| LinksError::Parts("no parts to merge".into()))?;
    let (vertices, count) = (first.vertices, first.id.count);
    let mut seen = BTreeSet::new();
    for part in parts {
        if part.vertices != vertices || part.id.count != count {
            return Err(LinksError::Parts(format!(
                "part {} on {} vertices does not belong with part {} on {vertices}",
                part.id, part.vertices, first.id
            )));
        }
        if !seen.insert(part.id.index) {
            return Err(LinksError::Parts(format!(
                "part {} is given twice",
                part.id
            )));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| !seen.contains(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(LinksError::Parts(format!(
            "parts {} of {count} are missing",
            missing.join(", ")
        )));
    }
    let pruned = first.pruned;
    if let Some(odd) = parts.iter().find(|p| p.pruned != pruned) {
        let how = |p: &LinksShard| if p.pruned { "with" } else { "without" };
        return Err(LinksError::Parts(format!(
            "part {} was listed by geng {} the PRUNE hook and part {} {} it: parts of one \
             search come from one geng",
            first.id,
            how(first),
            odd.id,
            how(odd)
        )));
    }
    let listed: u64 = parts.iter().map(|p| p.graphs).sum();
    let known = super::CONNECTED_GRAPHS.get(vertices).copied();
    // A pruned listing is short by design: the report counts the graphs there are.
    let graphs = match known {
        Some(known) if pruned && listed <= known => known,
        _ => listed,
    };
    if let Some(known) = known
        && graphs != known
    {
        return Err(LinksError::Parts(format!(
            "the parts list {listed} connected graphs on {vertices} vertices, not the {known} \
             there are (OEIS A001349): a part is not geng's whole share"
        )));
    }
    let found: Vec<Found> = parts.iter().flat_map(|p| p.links.iter().cloned()).collect();
    let canonical: BTreeSet<Canonical> = canonical_forms(&found)?.into_iter().collect();
    let mut weak = Vec::new();
    let mut pendant_strong = Vec::new();
    for link in canonical {
        let l = link.link();
        let pendant_terminal = [0, 1].into_iter().find(|&t| l.degree(t) == 1);
        if let Some(p) = pendant_terminal {
            let other = 1 - p;
            let neighbour = l.neighbours(p).trailing_zeros() as usize;
            // Strip the pendant: the strong link runs from its neighbour to the other end.
            let keep: Vec<usize> = (0..l.vertices()).filter(|&v| v != p).collect();
            let index = |v: usize| keep.iter().position(|&k| k == v).expect("kept");
            let edges: Vec<[usize; 2]> = l
                .edges()
                .into_iter()
                .filter(|e| !e.contains(&p))
                .map(|[u, v]| [index(u), index(v)])
                .collect();
            let graph = SimpleGraph::new(keep.len(), edges).expect("a subgraph is simple");
            pendant_strong.push(Found {
                graph,
                terminals: [index(neighbour), index(other)],
            });
        }
        weak.push(WeakLink {
            pivots: l.pivots(),
            pendant: pendant_terminal.is_some(),
            reductions: Reductions::of(&l),
            link,
        });
    }
    let strong: BTreeSet<Canonical> = canonical_forms(&pendant_strong)?.into_iter().collect();
    Ok(Report {
        vertices,
        graphs,
        listed: pruned.then_some(listed),
        sieved: parts.iter().map(|p| p.sieved).sum(),
        pairs: parts.iter().map(|p| p.pairs).sum(),
        weak,
        strong: strong.into_iter().collect(),
    })
}
