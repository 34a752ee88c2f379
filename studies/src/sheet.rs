//! A sheet of small link drawings, as the paper's figure 1 draws the minimal weak links: one
//! cell per link, terminals as black squares at the left and right edges, pivots filled.
//!
//! The layout is by distance: a vertex at distance a from the left terminal and b from the
//! right one sits at x = a / (a + b), so paths run left to right; each column is ordered by
//! the mean height of its neighbours in the columns before it (one barycentre pass), which
//! removes most crossings on graphs this small.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::prelude::*;
use switching::link::Link;

use crate::plot::PlotResult;

/// One drawing on the sheet.
#[derive(Clone, Debug)]
pub struct Cell<'a> {
    /// The link.
    pub link: &'a Link,
    /// Vertices to fill (pivots).
    pub marked: &'a [usize],
    /// Caption under the drawing.
    pub caption: String,
}

const CELL: (u32, u32) = (220, 170);
const COLUMNS: usize = 5;
const HEADER: u32 = 40;
/// Okabe–Ito orange: pivots, told apart from black and white by colour-blind readers too.
const PIVOT: RGBColor = RGBColor(230, 159, 0);

/// Breadth-first distances from `from` (`u32::MAX` when unreachable).
fn distances(link: &Link, from: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; link.vertices()];
    dist[from] = 0;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        let mut around = link.neighbours(v);
        while around != 0 {
            let u = around.trailing_zeros() as usize;
            around &= around - 1;
            if dist[u] == u32::MAX {
                dist[u] = dist[v] + 1;
                queue.push_back(u);
            }
        }
    }
    dist
}

/// Positions in the unit square: terminals at (0, ½) and (1, ½).
pub fn layout(link: &Link) -> Vec<(f64, f64)> {
    let [s, t] = link.terminals();
    let (ds, dt) = (distances(link, s), distances(link, t));
    let n = link.vertices();
    // Columns keyed by x as an exact fraction a / (a + b), scaled to an integer key.
    let mut columns: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for v in 0..n {
        let (a, b) = (u64::from(ds[v].min(64)), u64::from(dt[v].min(64)));
        let key = (a * 1_000_000).checked_div(a + b).unwrap_or(0);
        columns.entry(key).or_default().push(v);
    }
    let mut pos = vec![(0.5, 0.5); n];
    let mut placed = vec![false; n];
    let mut lone = 0;
    for (key, mut column) in columns {
        let x = key as f64 / 1_000_000.0;
        let barycentre = |v: usize| {
            let ys: Vec<f64> = (0..n)
                .filter(|&u| placed[u] && link.neighbours(v) >> u & 1 == 1)
                .map(|u| pos[u].1)
                .collect();
            if ys.is_empty() {
                0.5
            } else {
                ys.iter().sum::<f64>() / ys.len() as f64
            }
        };
        column.sort_by(|&a, &b| barycentre(a).total_cmp(&barycentre(b)).then(a.cmp(&b)));
        let k = column.len();
        for (i, &v) in column.iter().enumerate() {
            pos[v] = (x, (i as f64 + 1.0) / (k as f64 + 1.0));
            placed[v] = true;
        }
        // A lone vertex off the terminals' line, alternately above and below, so that an
        // edge along the line does not run through it.
        if let [v] = column[..]
            && v != s
            && v != t
        {
            lone += 1;
            pos[v].1 += if lone % 2 == 1 { -0.15 } else { 0.15 };
        }
    }
    pos
}

/// Draws `cells` on one SVG sheet under `title`.
pub fn draw(path: &Path, title: &str, cells: &[Cell<'_>]) -> PlotResult {
    let rows = cells.len().div_ceil(COLUMNS).max(1);
    let width = CELL.0 * COLUMNS as u32;
    let height = HEADER + CELL.1 * rows as u32;
    crate::plot::svg_file(path, (width, height), |root| draw_on(root, title, cells))
}

fn draw_on(root: &crate::plot::Svg<'_>, title: &str, cells: &[Cell<'_>]) -> PlotResult {
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        title.to_string(),
        (12, 12),
        ("sans-serif", 18).into_font(),
    ))?;
    for (i, cell) in cells.iter().enumerate() {
        let ox = (i % COLUMNS) as i32 * CELL.0 as i32;
        let oy = HEADER as i32 + (i / COLUMNS) as i32 * CELL.1 as i32;
        let (w, h) = (CELL.0 as f64 - 40.0, CELL.1 as f64 - 50.0);
        let at = |(x, y): (f64, f64)| (ox + 20 + (x * w) as i32, oy + 10 + (y * h) as i32);
        let pos = layout(cell.link);
        for [u, v] in cell.link.edges() {
            root.draw(&PathElement::new(
                vec![at(pos[u]), at(pos[v])],
                BLACK.stroke_width(1),
            ))?;
        }
        let terminals = cell.link.terminals();
        for (v, &p) in pos.iter().enumerate() {
            let c = at(p);
            if terminals.contains(&v) {
                root.draw(&Rectangle::new(
                    [(c.0 - 6, c.1 - 6), (c.0 + 6, c.1 + 6)],
                    BLACK.filled(),
                ))?;
            } else {
                let fill = if cell.marked.contains(&v) {
                    PIVOT.filled()
                } else {
                    WHITE.filled()
                };
                root.draw(&Circle::new(c, 6, fill))?;
                root.draw(&Circle::new(c, 6, BLACK.stroke_width(1)))?;
            }
        }
        root.draw(&Text::new(
            cell.caption.clone(),
            (ox + 10, oy + CELL.1 as i32 - 32),
            ("sans-serif", 13).into_font(),
        ))?;
    }
    Ok(())
}
