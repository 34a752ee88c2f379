//! Minimal strong links found directly, not from the weak links (the second method for the
//! strong links a search derives): every biconnected graph from nauty (`geng -C -d2`: a cut
//! vertex either separates the terminals, so Cut wins by taking it, or cuts off a block with
//! no terminal, which is dead; a pendant is dead or a terminal Cut isolates), every terminal
//! pair that passes the conditions that hold for any minimal link (no edge across a terminal,
//! nothing surrounded by a terminal, no lost pair, no dead simplicial vertex, terminals apart),
//! solved for strong and minimal. It shares the solver and those sieve conditions with the
//! search, not its listing (connected graphs), its derivation (a pendant terminal stripped)
//! or its parts. `examples/strong_links.rs` runs it; `tests/links.rs` holds it against the
//! search.

use std::io::{BufRead, BufReader};

use super::{Found, LinksError};
use crate::enumerate::{GENG, NautyError, finish, spawn};
use crate::graph6::SimpleGraph;
use crate::link::sieve::{Condition, Shape};
use crate::link::{Link, Strength};

/// The minimal strong links among part `k` (0-based) of `parts` of the biconnected graphs on
/// `n` vertices (geng's `res/mod`), before isomorphism.
pub fn strong_links_shard(n: usize, k: usize, parts: usize) -> Result<Vec<Found>, LinksError> {
    if !(3..=super::MAX_VERTICES).contains(&n) {
        return Err(LinksError::Vertices(n));
    }
    let (program, mut child) = spawn(
        GENG,
        &["-C", "-d2", "-q", &n.to_string(), &format!("{k}/{parts}")],
    )?;
    child.stdin = None;
    let out = child.stdout.take().expect("piped");
    let mut found = Vec::new();
    for line in BufReader::new(out).lines() {
        let line = line.map_err(|source| NautyError::Io { program, source })?;
        let graph: SimpleGraph = line.parse().map_err(|error| NautyError::Output {
            program,
            line: line.clone(),
            error,
        })?;
        let link = |pair| Link::new(&graph, pair).expect("geng's graphs are small");
        let shape = Shape::of(&link([0, 1]));
        if !Condition::NoSimplicial.holds_for_graph(&shape) {
            continue;
        }
        for s in 0..n {
            for t in s + 1..n {
                let pair = [s, t];
                if shape.adjacency()[s] >> t & 1 == 1
                    || ![
                        Condition::TerminalsTriangleFree,
                        Condition::NothingSurrounded,
                        Condition::NoLostPair,
                    ]
                    .iter()
                    .all(|c| c.holds_for_pair(&shape, pair))
                {
                    continue;
                }
                let l = link(pair);
                if l.strength() == Strength::Strong && l.is_minimal_at(Strength::Strong) {
                    found.push(Found {
                        graph: graph.clone(),
                        terminals: pair,
                    });
                }
            }
        }
    }
    finish(program, child)?;
    Ok(found)
}
