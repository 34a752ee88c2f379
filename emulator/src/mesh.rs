//! Bridj-It 2.0's own method (seed 002): loop currents. A second exact solver of the
//! `ideal` network on any graph, independent of the nodal one in [`crate::graphs`], so each
//! checks the other.
//!
//! Wires are contracted and cut edges removed. The supply is a source branch of no
//! resistance from the ground terminal to the supply terminal. Each resistor not in a
//! spanning forest of the resistors closes one loop (its fundamental cycle), and the supply
//! closes loop 0 (Bridj-It's loop 0, the one with V on the right-hand side). Kirchhoff's
//! voltage law round each loop gives R·I = V with R = Cᵀ·diag(r)·C (C: the branches'
//! signed membership in each loop, r: unit resistors, 0 for the source), which the crate's
//! shared Bareiss elimination solves exactly; a branch's current is the signed sum of the
//! loop currents through it (Bridj-It's "I0 − I1").
//!
//! Bridj-It draws the board in the plane and takes its meshes (the faces) as loops. On a
//! planar drawing the meshes are one cycle basis of the graph; fundamental cycles of a
//! spanning tree are another, and they exist on any graph, planar or not. Branch currents
//! do not depend on the basis chosen, only the loop currents do.
//!
//! Only the `ideal` model: pull-ups would add one source branch per vertex, which the nodal
//! solver handles more simply.

use heuristic::EdgeState;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use petgraph::unionfind::UnionFind;
use switching::Play;

use crate::bareiss;

/// The current through each edge of a position on a graph under the `ideal` model, in
/// units of supply/R, signed along the edge as written (from its first vertex to its
/// second): a resistor's |current| is its drop. `None` for cut edges and for wires: a loop
/// of wires may carry any current at no voltage, so the ideal network leaves wire currents
/// undefined. Resistors cut off from the supply, and every resistor once Short's wires join
/// the terminals (the supply is shorted, the nodal solver puts everything at the supply),
/// carry 0.
///
/// ```
/// use heuristic::Side;
/// // Two resistors in series, and a third in parallel with both.
/// let g: switching::Graph = "terminals s t\ns m\nm t\ns t".parse().unwrap();
/// let i = emulator::mesh::currents(&switching::Play::new(&g, Side::Cut));
/// let text: Vec<String> = i.iter().map(|c| c.as_ref().unwrap().to_string()).collect();
/// assert_eq!(text, ["1/2", "1/2", "1"]);
/// ```
pub fn currents(play: &Play) -> Vec<Option<BigRational>> {
    let graph = play.graph();
    let states = play.states();
    let edges = graph.edges();
    let vertices = graph.vertices().len();
    let mut out: Vec<Option<BigRational>> = states
        .iter()
        .map(|&s| (s == EdgeState::Resistor).then(BigRational::zero))
        .collect();

    let mut wires = UnionFind::<usize>::new(vertices);
    for (e, &state) in edges.iter().zip(states) {
        if state == EdgeState::Short {
            wires.union(e.ends[0], e.ends[1]);
        }
    }
    let group = |v: usize| wires.find(v);
    let [s, t] = graph.terminals().map(group);
    if s == t {
        return out;
    }

    // A spanning forest of the resistors between groups (file order); the rest are chords.
    let mut forest = UnionFind::<usize>::new(vertices);
    let mut tree: Vec<Vec<(usize, usize)>> = vec![Vec::new(); vertices];
    let mut chords = Vec::new();
    for e in play.resistors() {
        let [a, b] = edges[e].ends.map(group);
        if a == b {
            // Both ends on one wire: no voltage across it, current 0.
            continue;
        }
        if forest.union(a, b) {
            tree[a].push((b, e));
            tree[b].push((a, e));
        } else {
            chords.push(e);
        }
    }
    if !forest.equiv(s, t) {
        // Cut has won: nothing drives a current.
        return out;
    }

    // Root every tree: parent (vertex, edge) and depth, for tree paths.
    let mut parent: Vec<Option<(usize, usize)>> = vec![None; vertices];
    let mut depth = vec![0usize; vertices];
    let mut seen = vec![false; vertices];
    for root in 0..vertices {
        if seen[root] || tree[root].is_empty() {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            for &(w, e) in &tree[u] {
                if !seen[w] {
                    seen[w] = true;
                    parent[w] = Some((u, e));
                    depth[w] = depth[u] + 1;
                    stack.push(w);
                }
            }
        }
    }
    // The tree path from `from` to `to`: each edge with +1 if walked from its first vertex
    // to its second.
    let along = |e: usize, from: usize| {
        if group(edges[e].ends[0]) == from {
            1
        } else {
            -1
        }
    };
    let path = |mut from: usize, mut to: usize| {
        let (mut head, mut tail) = (Vec::new(), Vec::new());
        while from != to {
            if depth[from] >= depth[to] {
                let (up, e) = parent[from].unwrap_or_else(|| unreachable!("same tree"));
                head.push((e, along(e, from)));
                from = up;
            } else {
                let (up, e) = parent[to].unwrap_or_else(|| unreachable!("same tree"));
                tail.push((e, along(e, up)));
                to = up;
            }
        }
        head.extend(tail.into_iter().rev());
        head
    };

    // Loop 0: through the source from t to s, then the tree back from s to t. Loop k ≥ 1:
    // chord k − 1 along its direction, then the tree back to its first vertex.
    let mut through: Vec<Vec<(usize, i64)>> = vec![Vec::new(); edges.len()];
    for (e, sign) in path(s, t) {
        through[e].push((0, sign));
    }
    for (k, &e) in chords.iter().enumerate() {
        let [a, b] = edges[e].ends.map(group);
        through[e].push((k + 1, 1));
        for (f, sign) in path(b, a) {
            through[f].push((k + 1, sign));
        }
    }

    // R = Cᵀ·diag(r)·C with unit resistors; the source has no resistance, only EMF.
    let m = chords.len() + 1;
    let mut r = vec![0i64; m * m];
    for loops in &through {
        for &(k, sk) in loops {
            for &(l, sl) in loops {
                r[k * m + l] += sk * sl;
            }
        }
    }
    let mut v = vec![0i64; m];
    v[0] = 1;
    let (det, scaled) = match bareiss::solve(m, &r, &v) {
        Some((det, y)) if det.is_positive() => (det, y),
        // Independent loops, each with a resistor: R is positive definite.
        _ => unreachable!("the loop matrix of a graph is positive definite"),
    };
    for (e, loops) in through.iter().enumerate() {
        if loops.is_empty() {
            continue;
        }
        let sum = loops.iter().fold(BigInt::zero(), |acc, &(k, sign)| {
            if sign > 0 {
                acc + &scaled[k]
            } else {
                acc - &scaled[k]
            }
        });
        out[e] = Some(BigRational::new(sum, det.clone()));
    }
    out
}
