//! The boards the study plays on, by family: every game nauty lists, grids, Gale boards,
//! random planar graphs and Erdős–Rényi graphs.

use heuristic::Size;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use switching::Graph;
use switching::graph6::SimpleGraph;

use super::{Family, Plan, StrengthError};

/// Boards of one family and size, built from the plan.
pub(super) fn boards(plan: &Plan) -> Result<Vec<(Family, Vec<Graph>)>, StrengthError> {
    let mut out = Vec::new();
    for n in 2..=plan.max_vertices {
        let games = switching::enumerate::games(n)?
            .iter()
            .map(|g| g.game(0, 1).expect("a connected game"))
            .collect();
        out.push((family("games", n.to_string()), games));
    }
    for &(r, c) in &plan.grids {
        out.push((family("grid", format!("{r}x{c}")), vec![grid(r, c)]));
    }
    for &m in &plan.gale {
        let size = Size::new(m).expect("a cage size of the plan");
        out.push((family("gale", format!("M={m}")), vec![Graph::cage(size)]));
    }
    let draw = |kind: &'static str, n: usize, make: &dyn Fn(&mut ChaCha8Rng) -> Graph| {
        let graphs = (0..plan.samples)
            .map(|k| {
                let mut rng = ChaCha8Rng::seed_from_u64(
                    plan.seed ^ (n as u64) << 40 ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                make(&mut rng)
            })
            .collect();
        (family(kind, n.to_string()), graphs)
    };
    for &n in &plan.planar {
        out.push(draw("planar", n, &|rng| planar(rng, n)));
    }
    for &n in &plan.erdos_renyi {
        out.push(draw("erdos-renyi", n, &|rng| erdos_renyi(rng, n)));
    }
    Ok(out)
}

fn family(kind: &str, size: String) -> Family {
    Family {
        kind: kind.to_string(),
        size,
    }
}

/// Builds a board from vertex pairs (numbered vertices), terminals `s` and `t`, keeping
/// only the edges of the terminals' component.
fn board(n: usize, pairs: &[[usize; 2]], s: usize, t: usize) -> Option<Graph> {
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], mut v: usize) -> usize {
        while root[v] != v {
            root[v] = root[root[v]];
            v = root[v];
        }
        v
    }
    for &[a, b] in pairs {
        let (ra, rb) = (find(&mut root, a), find(&mut root, b));
        root[ra] = rb;
    }
    let rs = find(&mut root, s);
    if rs != find(&mut root, t) {
        return None;
    }
    let kept: Vec<[usize; 2]> = pairs
        .iter()
        .copied()
        .filter(|&[a, _]| find(&mut root, a) == rs)
        .collect();
    SimpleGraph::new(n, kept).ok()?.game(s, t).ok()
}

/// The grid of `rows` × `cols` vertices whose first column is one terminal and last
/// column the other (each column contracted to a vertex, as the cage's terminal rows are).
pub fn grid(rows: usize, cols: usize) -> Graph {
    assert!(rows >= 1 && cols >= 2, "a grid needs two columns");
    // Vertex 0 is the left terminal, 1 the right one, then the inner columns.
    let id = |r: usize, c: usize| match c {
        0 => 0,
        c if c == cols - 1 => 1,
        c => 2 + (c - 1) * rows + r,
    };
    let mut pairs = Vec::new();
    for c in 0..cols - 1 {
        for r in 0..rows {
            pairs.push([id(r, c), id(r, c + 1)]);
        }
    }
    for c in 1..cols - 1 {
        for r in 0..rows - 1 {
            pairs.push([id(r, c), id(r + 1, c)]);
        }
    }
    let n = 2 + (cols - 2) * rows;
    // Parallel edges between the two terminals (cols = 2) would not be simple: graph files
    // take them.
    let names: Vec<String> = (0..n).map(|v| v.to_string()).collect();
    Graph::new(
        ("0", "1"),
        pairs
            .iter()
            .map(|&[a, b]| (names[a].as_str(), names[b].as_str(), None)),
    )
    .expect("a grid is connected")
}

/// A random planar graph on about `n` vertices: a triangulated grid of `n` points (rows of
/// ⌈√n⌉), each edge kept with probability 0.6, terminals the first and last points,
/// redrawn until they are joined.
pub fn planar(rng: &mut impl Rng, n: usize) -> Graph {
    let cols = (n as f64).sqrt().ceil() as usize;
    let mut all = Vec::new();
    for v in 0..n {
        let (r, c) = (v / cols, v % cols);
        let at = |r: usize, c: usize| (c < cols).then_some(r * cols + c).filter(|&w| w < n);
        for w in [at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)]
            .into_iter()
            .flatten()
        {
            all.push([v, w]);
        }
    }
    loop {
        let kept: Vec<[usize; 2]> = all
            .iter()
            .copied()
            .filter(|_| rng.random_bool(0.6))
            .collect();
        if let Some(g) = board(n, &kept, 0, n - 1) {
            return g;
        }
    }
}

/// An Erdős–Rényi graph G(n, p) with p = 3/n (mean degree about 3), terminals 0 and 1,
/// redrawn until they are joined; only their component is kept.
pub fn erdos_renyi(rng: &mut impl Rng, n: usize) -> Graph {
    let p = (3.0 / n as f64).min(1.0);
    loop {
        let pairs: Vec<[usize; 2]> = (1..n)
            .flat_map(|v| (0..v).map(move |u| [u, v]))
            .filter(|_| rng.random_bool(p))
            .collect();
        if let Some(g) = board(n, &pairs, 0, 1) {
            return g;
        }
    }
}

/// Vertices that some edge touches.
pub(super) fn vertex_count(graph: &Graph) -> usize {
    graph.vertices().len()
}
