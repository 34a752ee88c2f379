//! Running one part: geng's graphs, the sieve, the solver.

use std::io::{BufRead, BufReader};

use super::{Found, LinksError, LinksShard, MAX_VERTICES, ShardId};
use crate::enumerate::{GENG, NautyError, finish, spawn};
use crate::graph6::SimpleGraph;
use crate::link::sieve::{Shape, candidate_pairs};
use crate::link::{Link, MAX_VERTICES as LINK_MAX, Set, Strength};

/// Decodes a graph6 line of at most 62 vertices into adjacency masks; `None` if it is not
/// one. Byte by byte, visiting only the set bits (the edges), with the pair of each bit
/// position from [`PAIRS`]: a third of a search's own time went into decoding bit by bit.
pub fn small_adjacency(line: &[u8], adjacency: &mut [Set; LINK_MAX]) -> Option<usize> {
    let n = usize::from(line.first()?.checked_sub(63)?);
    if n > LINK_MAX || line.len() != 1 + (n * n.saturating_sub(1) / 2).div_ceil(6) {
        return None;
    }
    adjacency[..n].fill(0);
    let pairs = n * n.saturating_sub(1) / 2;
    for (j, &byte) in line[1..].iter().enumerate() {
        let mut six = byte.checked_sub(63)? & 63;
        while six != 0 {
            let bit = 6 * j + 5 - six.trailing_zeros() as usize;
            six &= six - 1;
            // Padding bits past the last pair mean nothing.
            if bit >= pairs {
                continue;
            }
            let [u, v] = PAIRS[bit];
            adjacency[usize::from(u)] |= 1 << v;
            adjacency[usize::from(v)] |= 1 << u;
        }
    }
    Some(n)
}

/// graph6's bit order: bit i of the upper triangle is the pair `[u, v]` (u < v), column by
/// column (0-1, 0-2, 1-2, 0-3, ...), for graphs of up to [`LINK_MAX`] vertices.
const PAIRS: [[u8; 2]; LINK_MAX * (LINK_MAX - 1) / 2] = {
    let mut pairs = [[0u8; 2]; LINK_MAX * (LINK_MAX - 1) / 2];
    let (mut i, mut v) = (0, 1);
    while v < LINK_MAX {
        let mut u = 0;
        while u < v {
            pairs[i] = [u as u8, v as u8];
            i += 1;
            u += 1;
        }
        v += 1;
    }
    pairs
};

/// Runs one part of the search for minimal weak links on `vertices` vertices; `progress`
/// hears how many graphs were read, every few thousand.
pub fn run_shard(
    vertices: usize,
    id: ShardId,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<LinksShard, LinksError> {
    if !(3..=MAX_VERTICES).contains(&vertices) {
        return Err(LinksError::Vertices(vertices));
    }
    let n = vertices.to_string();
    let split = format!("{}/{}", id.index - 1, id.count);
    let pruned = crate::enumerate::geng_prunes()?;
    let (geng, mut child) = spawn(GENG, &["-c", "-q", &n, &split])?;
    child.stdin = None; // closed: the child reads its end of input
    let out = child.stdout.take().expect("piped");
    let mut part = LinksShard {
        vertices,
        id,
        graphs: 0,
        pruned,
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
