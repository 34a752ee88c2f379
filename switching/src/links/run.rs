//! Running one part: geng's graphs, the sieve, the solver.

use std::io::{BufRead, BufReader};

use super::{Found, LinksError, MAX_VERTICES, Part, PartId};
use crate::enumerate::{GENG, NautyError, finish, spawn};
use crate::graph6::SimpleGraph;
use crate::link::sieve::{Shape, candidate_pairs};
use crate::link::{Link, MAX_VERTICES as LINK_MAX, Set, Strength};

/// Decodes a graph6 line of at most 62 vertices into adjacency masks; `None` if it is not
/// one.
fn small_adjacency(line: &[u8], adjacency: &mut [Set; LINK_MAX]) -> Option<usize> {
    let n = usize::from(line.first()?.checked_sub(63)?);
    if n > LINK_MAX || line.len() != 1 + (n * n.saturating_sub(1) / 2).div_ceil(6) {
        return None;
    }
    adjacency[..n].fill(0);
    let mut bit = 0usize;
    for v in 1..n {
        for u in 0..v {
            let byte = line[1 + bit / 6].checked_sub(63)?;
            if byte >> (5 - bit % 6) & 1 == 1 {
                adjacency[u] |= 1 << v;
                adjacency[v] |= 1 << u;
            }
            bit += 1;
        }
    }
    Some(n)
}

/// Runs one part of the search for minimal weak links on `vertices` vertices; `progress`
/// hears how many graphs were read, every few thousand.
pub fn run_part(
    vertices: usize,
    id: PartId,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Part, LinksError> {
    if !(3..=MAX_VERTICES).contains(&vertices) {
        return Err(LinksError::Vertices(vertices));
    }
    let n = vertices.to_string();
    let split = format!("{}/{}", id.index - 1, id.count);
    let (geng, mut child) = spawn(GENG, &["-c", "-q", &n, &split])?;
    drop(child.stdin.take());
    let out = child.stdout.take().expect("piped");
    let mut part = Part {
        vertices,
        id,
        graphs: 0,
        sieved: 0,
        pairs: 0,
        weak: 0,
        links: Vec::new(),
    };
    let mut adjacency = [0 as Set; LINK_MAX];
    let mut reported = 0u64;
    let mut reader = BufReader::with_capacity(1 << 16, out);
    let mut line = Vec::with_capacity(64);
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|source| NautyError::Io {
                program: geng,
                source,
            })?;
        if read == 0 {
            break;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let Some(n) = small_adjacency(text, &mut adjacency) else {
            let text = String::from_utf8_lossy(text).into_owned();
            let error = text
                .parse::<SimpleGraph>()
                .err()
                .unwrap_or(crate::graph6::Graph6Error::TooLarge(0));
            return Err(NautyError::Output {
                program: geng,
                line: text,
                error,
            }
            .into());
        };
        part.graphs += 1;
        if part.graphs - reported >= 1 << 14 {
            progress(part.graphs - reported);
            reported = part.graphs;
        }
        let shape = Shape::new(&adjacency[..n]);
        let pairs = candidate_pairs(&shape);
        if pairs.is_empty() {
            continue;
        }
        part.sieved += 1;
        for terminals in pairs {
            part.pairs += 1;
            let link = Link::from_adjacency(&adjacency[..n], terminals)
                .expect("geng's graphs are small and simple");
            if link.strength() != Strength::Weak {
                continue;
            }
            part.weak += 1;
            if link.is_minimal_at(Strength::Weak) {
                part.links.push(Found {
                    graph: link.graph(),
                    terminals,
                });
            }
        }
    }
    progress(part.graphs - reported);
    finish(geng, child)?;
    Ok(part)
}
