//! A part of a search: what it found, and its text form (the part file).

use std::fmt;
use std::str::FromStr;

use super::LinksError;
use crate::graph6::SimpleGraph;

/// One of `count` parts of a search, numbered from 1 as a person (and a job array) counts:
/// a shard of the search ([`shards::ShardId`], the one type every sharded job uses).
pub use shards::{ShardId, ShardIdError};

/// A weak link as found: a graph in geng's labelling and its terminals.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Found {
    /// The graph.
    pub graph: SimpleGraph,
    /// Its terminals.
    pub terminals: [usize; 2],
}

/// What one part of a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinksShard {
    /// Vertices of every graph.
    pub vertices: usize,
    /// Which part.
    pub id: ShardId,
    /// Connected graphs geng listed in this part.
    pub graphs: u64,
    /// Whether geng carried the PRUNE hook ([`crate::enumerate::geng_prunes`]): it then lists
    /// only the graphs whose every prefix can grow into one the sieve keeps, so `graphs` is
    /// not the part's whole share.
    pub pruned: bool,
    /// Graphs with at least one terminal pair left by the sieve.
    pub sieved: u64,
    /// Terminal pairs solved.
    pub pairs: u64,
    /// Of them, weak links.
    pub weak: u64,
    /// Of them, minimal weak links (isomorphic copies within one graph included).
    pub links: Vec<Found>,
}

impl fmt::Display for LinksShard {
    /// The part file: a header, one `link GRAPH6 S T` line per link, and `end` so that a
    /// part cut short by a crash is never taken for a finished one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# birdcage links: one part of a search for minimal weak links"
        )?;
        writeln!(f, "vertices {}", self.vertices)?;
        writeln!(f, "part {}", self.id)?;
        writeln!(f, "graphs {}", self.graphs)?;
        // Only when pruned, so a plain part's file is what it always was.
        if self.pruned {
            writeln!(f, "listing pruned")?;
        }
        writeln!(f, "sieved {}", self.sieved)?;
        writeln!(f, "pairs {}", self.pairs)?;
        writeln!(f, "weak {}", self.weak)?;
        for found in &self.links {
            let [s, t] = found.terminals;
            writeln!(f, "link {} {s} {t}", found.graph)?;
        }
        writeln!(f, "end")
    }
}

impl FromStr for LinksShard {
    type Err = LinksError;
    fn from_str(text: &str) -> Result<LinksShard, LinksError> {
        let mut fields: [Option<u64>; 5] = [None; 5];
        const NAMES: [&str; 5] = ["vertices", "graphs", "sieved", "pairs", "weak"];
        let mut id = None;
        let mut links = Vec::new();
        let mut ended = false;
        let mut pruned = false;
        let err = |line: usize, message: String| LinksError::PartFile { line, message };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            if ended {
                return Err(err(line, "text after `end`".into()));
            }
            let words: Vec<&str> = content.split_whitespace().collect();
            match words.as_slice() {
                ["end"] => ended = true,
                ["listing", "pruned"] => pruned = true,
                ["part", k] => {
                    id = Some(
                        k.parse::<ShardId>()
                            .map_err(|e| err(line, format!("part {}: {e}", heuristic::Echo(k))))?,
                    )
                }
                ["link", g6, s, t] => {
                    let graph: SimpleGraph = g6
                        .parse()
                        .map_err(|e| err(line, format!("graph {g6}: {e}")))?;
                    let vertex = |w: &str| -> Result<usize, LinksError> {
                        w.parse::<usize>()
                            .ok()
                            .filter(|&v| v < graph.vertices())
                            .ok_or_else(|| {
                                err(line, format!("terminal {w} is not a vertex of {g6}"))
                            })
                    };
                    let terminals = [vertex(s)?, vertex(t)?];
                    links.push(Found { graph, terminals });
                }
                [name, value] if NAMES.contains(name) => {
                    let k = NAMES.iter().position(|n| n == name).expect("listed");
                    let number = value.parse().map_err(|_| {
                        err(
                            line,
                            format!("{name} {} is not a count", heuristic::Echo(value)),
                        )
                    })?;
                    fields[k] = Some(number);
                }
                _ => {
                    return Err(err(
                        line,
                        format!("not a part line: {}", heuristic::Echo(content)),
                    ));
                }
            }
        }
        let last = text.lines().count().max(1);
        if !ended {
            return Err(err(last, "no `end` line: the part did not finish".into()));
        }
        let get = |k: usize| fields[k].ok_or_else(|| err(last, format!("no `{}` line", NAMES[k])));
        let vertices = get(0)? as usize;
        let id = id.ok_or_else(|| err(last, "no `part` line".into()))?;
        if let Some(bad) = links.iter().find(|f| f.graph.vertices() != vertices) {
            return Err(err(
                last,
                format!("link {} does not have {vertices} vertices", bad.graph),
            ));
        }
        Ok(LinksShard {
            vertices,
            id,
            graphs: get(1)?,
            pruned,
            sieved: get(2)?,
            pairs: get(3)?,
            weak: get(4)?,
            links,
        })
    }
}
