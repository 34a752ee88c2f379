//! A drawing of any graph: each vertex at the height of its exact voltage at the start (the
//! ideal network, supply on top: so current flows down the page), and across the page where
//! a few hundred rounds of springs and repulsion put it (deterministic: the same file is
//! always drawn the same way).

use heuristic::{Model, Side};
use num_traits::ToPrimitive;
use switching::{Graph, Play};

/// Each vertex's place, both coordinates in 0..=1 (y down the page).
pub fn layout(graph: &Graph) -> Vec<(f64, f64)> {
    let n = graph.vertices().len();
    let voltages = emulator::graphs::solve(&Play::new(graph, Side::Cut), Model::Ideal);
    let [top, bottom] = graph.terminals();
    let (v_top, v_bottom) = (volts(&voltages, top, 1.0), volts(&voltages, bottom, 0.0));
    let span = if (v_top - v_bottom).abs() > 1e-12 {
        v_top - v_bottom
    } else {
        1.0
    };
    let ys: Vec<f64> = (0..n)
        .map(|v| ((v_top - volts(&voltages, v, 0.5)) / span).clamp(0.0, 1.0))
        .collect();
    // Across: start spread by the golden ratio, then springs along edges and repulsion
    // between vertices at similar heights; the terminals stay in the middle.
    let mut xs: Vec<f64> = (0..n)
        .map(|v| (v as f64 * 0.618_033_988_75).fract())
        .collect();
    xs[top] = 0.5;
    xs[bottom] = 0.5;
    for round in 0..300 {
        let step = 0.05 * (1.0 - f64::from(round) / 300.0) + 0.002;
        let mut force = vec![0.0; n];
        for e in graph.edges() {
            let [a, b] = e.ends;
            let pull = xs[b] - xs[a];
            force[a] += 0.5 * pull;
            force[b] -= 0.5 * pull;
        }
        for a in 0..n {
            for b in (a + 1)..n {
                let dx = xs[a] - xs[b];
                let dy = ys[a] - ys[b];
                let d2 = dx * dx + dy * dy + 1e-4;
                let push = 0.02 * dx / d2;
                let push = if dx.abs() < 1e-9 {
                    // Vertices on top of each other: apart by their numbers.
                    if a < b { -0.05 } else { 0.05 }
                } else {
                    push
                };
                force[a] += push;
                force[b] -= push;
            }
        }
        for v in 0..n {
            if v != top && v != bottom {
                xs[v] = (xs[v] + step * force[v].clamp(-1.0, 1.0)).clamp(0.0, 1.0);
            }
        }
    }
    // Stretched to the page's width.
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
            (l.min(x), h.max(x))
        });
    let width = hi - lo;
    xs.iter()
        .zip(ys)
        .map(|(&x, y)| {
            let x = if width > 1e-9 { (x - lo) / width } else { 0.5 };
            (x, y)
        })
        .collect()
}

fn volts(v: &emulator::graphs::GraphVoltages, vertex: usize, default: f64) -> f64 {
    v.voltage(vertex)
        .and_then(|r| r.to_f64())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminals_are_on_top_and_at_the_bottom() {
        let g: Graph = "terminals s t\ns a\na t\ns b\nb t\na b".parse().unwrap();
        let at = layout(&g);
        assert_eq!(at[0].1, 0.0);
        assert_eq!(at[g.terminals()[1]].1, 1.0);
        // The bridge's middle vertices at half the supply, apart.
        assert!((at[1].1 - 0.5).abs() < 1e-9 && (at[3].1 - 0.5).abs() < 1e-9);
        assert!((at[1].0 - at[3].0).abs() > 0.3, "{at:?}");
    }
}
