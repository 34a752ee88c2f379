//! How strong is Shannon's heuristic away from the bird cage?
//!
//! For each start position where the heuristic's side, moving first, wins with perfect
//! play, the study asks whether the heuristic *keeps* that win against a perfect,
//! adversarial opponent: the opponent tries every reply, and the heuristic keeps the win
//! iff every line ends in its win. A heuristic move that is not a perfect-play winning
//! move (Lehman's theorem, [`switching::perfect`]) already loses, so the search stops
//! there; positions are memoised. Where it loses, the study prints the losing line: the
//! opponent's replies to the heuristic's mistake, then perfect play to the end.
//!
//! Families: every connected graph with every terminal pair up to isomorphism
//! ([`switching::enumerate`], nauty), grids with the terminals at opposite sides, Gale
//! boards (the cage, [`Graph::cage`]), random planar graphs (random subgraphs of a
//! triangulated grid) and Erdős–Rényi graphs. The heuristic is any function from a
//! position to the move the side to move plays ([`Heuristic`]).

use std::collections::HashMap;
use std::path::Path;

use heuristic::{EdgeState, Side, Size};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shards::ShardId;
use switching::graph6::SimpleGraph;
use switching::{Graph, Play, perfect};

use super::Control;
use super::plot::{self, Axes, Panel, PlotResult, Scale, Series, Title};
use super::report::{CsvWriter, Output, WriteError, rate_text};
use super::stats::Rate;

/// The heuristic: the move (an edge index in file order) the side to move plays.
pub type Heuristic<'a> = &'a (dyn Fn(&Play<'_>) -> Option<usize> + Sync);

/// What the search found for one start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The heuristic's side, to move, loses with perfect play: nothing to keep.
    NotWinning,
    /// Every line ends in the heuristic's win.
    Kept,
    /// Some line loses: the whole game, heuristic's moves and the opponent's, edge indices.
    Lost(Vec<usize>),
    /// The search gave up after `budget` positions.
    Unfinished,
}

/// Memoised search of one start position.
struct Search<'h, 'g> {
    graph: &'g Graph,
    side: Side,
    heuristic: &'h (dyn Fn(&Play<'_>) -> Option<usize> + Sync),
    memo: HashMap<Vec<EdgeState>, bool>,
    budget: usize,
}

/// Marks a search that ran out of positions.
struct OutOfBudget;

impl Search<'_, '_> {
    /// Whether the heuristic's side keeps its win from `play` (whoever is to move).
    fn keeps(&mut self, play: &Play<'_>) -> Result<bool, OutOfBudget> {
        if let Some(w) = play.winner() {
            return Ok(w == self.side);
        }
        if let Some(&k) = self.memo.get(play.states()) {
            return Ok(k);
        }
        if self.memo.len() >= self.budget {
            return Err(OutOfBudget);
        }
        let result = if play.to_move() == Some(self.side) {
            match (self.heuristic)(play) {
                None => false,
                Some(m) => {
                    let mut child = play.clone();
                    if child.play(m).is_err() || perfect::winner(&child) != self.side {
                        false
                    } else {
                        self.keeps(&child)?
                    }
                }
            }
        } else {
            let mut all = true;
            for r in play.resistors() {
                let mut child = play.clone();
                child.play(r).expect("a resistor is a legal move");
                if !self.keeps(&child)? {
                    all = false;
                    break;
                }
            }
            all
        };
        self.memo.insert(play.states().to_vec(), result);
        Ok(result)
    }

    /// The line that loses from `play` (where `keeps` answered false): the opponent's
    /// refutations, then after the heuristic's mistake perfect play for the opponent.
    fn losing_line(&mut self, mut play: Play<'_>) -> Vec<usize> {
        let mut mistake = false;
        while let Some(side) = play.to_move() {
            let mv = if side == self.side {
                let Some(m) = (self.heuristic)(&play) else {
                    break;
                };
                let mut child = play.clone();
                if child.play(m).is_ok() && perfect::winner(&child) != self.side {
                    mistake = true;
                }
                m
            } else if mistake {
                perfect::winning_move(&play).expect("the opponent wins after the mistake")
            } else {
                play.resistors()
                    .find(|&r| {
                        let mut child = play.clone();
                        child.play(r).is_ok() && !matches!(self.keeps(&child), Ok(true))
                    })
                    .expect("a refutation of a lost position")
            };
            if play.play(mv).is_err() {
                break;
            }
        }
        play.moves().to_vec()
    }
}

/// Whether `heuristic`, playing `side` and moving first on `graph`, keeps a perfect-play win
/// against every defence; gives up after `budget` distinct positions.
pub fn keeps_win(graph: &Graph, side: Side, heuristic: Heuristic<'_>, budget: usize) -> Outcome {
    let start = Play::new(graph, side);
    if perfect::winner(&start) != side {
        return Outcome::NotWinning;
    }
    let mut search = Search {
        graph,
        side,
        heuristic,
        memo: HashMap::new(),
        budget,
    };
    match search.keeps(&start) {
        Err(OutOfBudget) => Outcome::Unfinished,
        Ok(true) => Outcome::Kept,
        Ok(false) => {
            search.budget = usize::MAX;
            let line = search.losing_line(start);
            debug_assert!(search.graph.edges().len() >= line.len());
            Outcome::Lost(line)
        }
    }
}

/// A family of boards of one size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Family {
    /// `games`, `grid`, `gale`, `planar`, `erdos-renyi`.
    pub kind: String,
    /// The size parameter: vertices, or the board's side.
    pub size: String,
}

/// One family and size, one side: how often the heuristic keeps its win.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The family and size.
    pub family: Family,
    /// The vertex count (for families of one graph, or the largest in the family).
    pub vertices: usize,
    /// The heuristic's side (moving first).
    pub side: String,
    /// Boards tried.
    pub boards: u64,
    /// Starts the heuristic's side wins with perfect play.
    pub winnable: u64,
    /// Of those, starts where the heuristic keeps the win against every defence.
    pub kept: u64,
    /// Starts where the search gave up (not counted in `kept`; counted in `winnable`).
    pub unfinished: u64,
    /// kept / (winnable − unfinished), with its 95 % interval.
    pub rate: Rate,
}

impl Row {
    /// The share of the decided winnable starts the heuristic loses: (winnable − unfinished −
    /// kept) / (winnable − unfinished); `None` when there were none. The CSV's `lost_rate`
    /// and the plotted value.
    pub fn lost_rate(&self) -> Option<f64> {
        let r = &self.rate;
        (r.total > 0).then(|| (r.total - r.count) as f64 / r.total as f64)
    }
}

/// The smallest board (fewest vertices, then edges) on which the heuristic loses a win.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Loss {
    /// The heuristic's side.
    pub side: String,
    /// Where it was found.
    pub family: Family,
    /// Vertices and edges.
    pub vertices: usize,
    /// Edges.
    pub edges: usize,
    /// The board in the graph file format.
    pub graph: String,
    /// The losing game: edge names, sides alternating from the heuristic's.
    pub line: String,
    /// The 1-based number, in `line`, of the heuristic's losing move (the first after
    /// which perfect play wins for the opponent).
    pub mistake: usize,
}

/// The 1-based number of the first move of `side` in `line` after which `side` loses
/// against perfect play.
fn mistake(graph: &Graph, side: Side, line: &[usize]) -> usize {
    let mut play = Play::new(graph, side);
    for (i, &e) in line.iter().enumerate() {
        let mover = play.to_move();
        if play.play(e).is_err() {
            break;
        }
        if mover == Some(side) && perfect::winner(&play) != side {
            return i + 1;
        }
    }
    0
}

/// The study's plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// Every game of 2..=this many vertices (nauty).
    pub max_vertices: usize,
    /// Grids: rows × columns of vertices, the first and last columns the terminals.
    pub grids: Vec<(usize, usize)>,
    /// Gale boards: cage sizes M.
    pub gale: Vec<u32>,
    /// Random planar graphs: vertex counts (a triangulated grid of about that many points).
    pub planar: Vec<usize>,
    /// Erdős–Rényi graphs: vertex counts.
    pub erdos_renyi: Vec<usize>,
    /// Random graphs drawn per family and size.
    pub samples: u64,
    /// Seed of the random families.
    pub seed: u64,
    /// Positions a search may memoise before it gives up.
    pub budget: usize,
}

impl Plan {
    /// The documented full run.
    pub fn full(seed: u64) -> Plan {
        Plan {
            max_vertices: 8,
            grids: vec![(2, 3), (2, 4), (3, 3), (3, 4), (2, 5), (4, 4), (3, 5)],
            gale: (2..=6).collect(),
            planar: vec![8, 10, 12, 14],
            erdos_renyi: vec![8, 10, 12],
            samples: 200,
            seed,
            budget: 2_000_000,
        }
    }

    /// How many families (of one kind and size) the plan has.
    pub fn families(&self) -> usize {
        self.max_vertices.saturating_sub(1)
            + self.grids.len()
            + self.gale.len()
            + self.planar.len()
            + self.erdos_renyi.len()
    }

    /// A short run for the tests.
    pub fn short(seed: u64) -> Plan {
        Plan {
            max_vertices: 5,
            grids: vec![(2, 3), (3, 3)],
            gale: vec![2, 3],
            planar: vec![8],
            erdos_renyi: vec![8],
            samples: 4,
            seed,
            budget: 200_000,
        }
    }
}

/// The study's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// `heuristic`.
    pub study: &'static str,
    /// The command that reproduces it.
    pub command: String,
    /// The heuristic, as named by the caller.
    pub heuristic: String,
    /// The plan (with its seed).
    pub plan: Plan,
    /// One row per family, size and side.
    pub rows: Vec<Row>,
    /// The smallest loss found for each side (fewest vertices, then edges, then first found).
    pub smallest_losses: Vec<Loss>,
    /// Whether the run was interrupted (rows cover what finished).
    pub interrupted: bool,
}

/// Why the study could not run.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// nauty could not enumerate the games.
    #[error(transparent)]
    Nauty(#[from] switching::enumerate::NautyError),
    /// The report could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Boards of one family and size, built from the plan.
fn boards(plan: &Plan) -> Result<Vec<(Family, Vec<Graph>)>, StudyError> {
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
fn vertex_count(graph: &Graph) -> usize {
    graph.vertices().len()
}

/// One family's counts in a shard: per side (Cut, Short) boards, winnable, kept, unfinished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyCounts {
    /// The family and size.
    pub family: Family,
    /// Its largest vertex count (over every board of the family, not only the shard's).
    pub vertices: usize,
    /// Boards, winnable, kept, unfinished; Cut's then Short's.
    pub counts: [[u64; 4]; 2],
}

/// What one shard of the study found: board i of the plan (numbered across families in
/// order) belongs to shard i mod P.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrengthShard {
    /// The families finished, in plan order.
    pub families: Vec<FamilyCounts>,
    /// The smallest loss this shard found for each side, with the board's number in the
    /// plan (ties go to the first board, as in one process).
    pub smallest: [Option<(u64, Loss)>; 2],
}

/// Runs the study: every family, both sides; the rows in plan order.
pub fn run(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    name: &str,
    command: &str,
    control: &Control<'_>,
) -> Result<Report, StudyError> {
    run_streaming(plan, heuristic, (name, command), control, &mut |_| Ok(()))
}

/// [`run`], handing each family's rows to `finished` as soon as the family is done (to
/// write them to the CSV file then, so that a killed run keeps them).
pub fn run_streaming(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    (name, command): (&str, &str),
    control: &Control<'_>,
    finished: &mut dyn FnMut(&[Row]) -> Result<(), WriteError>,
) -> Result<Report, StudyError> {
    let part = run_part(plan, heuristic, control, ShardId::WHOLE, finished)?;
    Ok(report(plan, (name, command), vec![part]))
}

/// Runs shard `shard` of the study: in every family, the boards it owns. `finished` gets each
/// family's rows (this shard's counts) as the family finishes.
pub fn run_part(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    control: &Control<'_>,
    shard: ShardId,
    finished: &mut dyn FnMut(&[Row]) -> Result<(), WriteError>,
) -> Result<StrengthShard, StudyError> {
    let families = boards(plan)?;
    let mut first = 0u64; // the plan's number of each family's first board
    let owned: Vec<Vec<(u64, &Graph)>> = families
        .iter()
        .map(|(_, graphs)| {
            let mine = (first..)
                .zip(graphs)
                .filter(|(i, _)| shard.owns(*i))
                .collect();
            first += graphs.len() as u64;
            mine
        })
        .collect();
    let total: u64 = owned.iter().map(|o| o.len() as u64).sum();
    let mut done = 0u64;
    let mut part = StrengthShard {
        families: Vec::new(),
        smallest: [None, None],
    };
    'families: for ((fam, graphs), owned) in families.iter().zip(&owned) {
        let mut counts = [[0u64; 4]; 2]; // boards, winnable, kept, unfinished
        for chunk in owned.chunks(64) {
            if control.stopped() {
                break 'families;
            }
            let found: Vec<[Outcome; 2]> = chunk
                .par_iter()
                .map(|(_, g)| {
                    [Side::Cut, Side::Short].map(|side| keeps_win(g, side, heuristic, plan.budget))
                })
                .collect();
            for (&(i, g), f) in chunk.iter().zip(found) {
                for (k, outcome) in f.into_iter().enumerate() {
                    count(
                        &mut counts[k],
                        &mut part.smallest[k],
                        (k, i, fam, g),
                        outcome,
                    );
                }
            }
            done += chunk.len() as u64;
            (control.progress)(done, total);
        }
        let family = FamilyCounts {
            family: fam.clone(),
            vertices: graphs.iter().map(vertex_count).max().unwrap_or(0),
            counts,
        };
        finished(&family.rows())?;
        part.families.push(family);
    }
    Ok(part)
}

/// Counts board `i` of the plan (`g`, of family `fam`) for side `k` (Cut 0, Short 1):
/// boards, winnable, kept, unfinished into `c`; a loss on a board smaller (vertices, then
/// edges) than `smallest`'s becomes the smallest.
fn count(
    c: &mut [u64; 4],
    smallest: &mut Option<(u64, Loss)>,
    (k, i, fam, g): (usize, u64, &Family, &Graph),
    outcome: Outcome,
) {
    c[0] += 1;
    match outcome {
        Outcome::NotWinning => {}
        Outcome::Kept => {
            c[1] += 1;
            c[2] += 1;
        }
        Outcome::Unfinished => {
            c[1] += 1;
            c[3] += 1;
        }
        Outcome::Lost(line) => {
            c[1] += 1;
            let key = (vertex_count(g), g.edges().len());
            let better = smallest
                .as_ref()
                .is_none_or(|(_, l)| key < (l.vertices, l.edges));
            if better {
                let side = [Side::Cut, Side::Short][k];
                let names: Vec<&str> = line.iter().map(|&e| g.edges()[e].name.as_str()).collect();
                *smallest = Some((
                    i,
                    Loss {
                        side: side.to_string().to_lowercase(),
                        family: fam.clone(),
                        vertices: key.0,
                        edges: key.1,
                        graph: g.to_string(),
                        line: names.join(","),
                        mistake: mistake(g, side, &line),
                    },
                ));
            }
        }
    }
}

/// The study in one plain loop, every board of every family in plan order, both sides, the
/// report made from those counts: no shard, chunk, part or merge. The independent reference
/// a merged study is checked against (issue 49); it shares with [`run_part`] only each
/// board's game ([`keeps_win`]) and its counting, and with [`write_report`] the files' writer.
pub fn write_reference(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    (name, command): (&str, &str),
    out: &Output,
) -> Result<String, StudyError> {
    let mut families = Vec::new();
    let mut smallest: [Option<(u64, Loss)>; 2] = [None, None];
    let mut i = 0u64;
    for (fam, graphs) in boards(plan)? {
        let mut counts = [[0u64; 4]; 2];
        let outcomes: Vec<[Outcome; 2]> = graphs
            .par_iter()
            .map(|g| {
                [Side::Cut, Side::Short].map(|side| keeps_win(g, side, heuristic, plan.budget))
            })
            .collect();
        for (g, sides) in graphs.iter().zip(outcomes) {
            for (k, outcome) in sides.into_iter().enumerate() {
                count(&mut counts[k], &mut smallest[k], (k, i, &fam, g), outcome);
            }
            i += 1;
        }
        families.push(FamilyCounts {
            vertices: graphs.iter().map(vertex_count).max().unwrap_or(0),
            family: fam,
            counts,
        });
    }
    let report = Report::new(plan, (name, command), families, smallest);
    write_files(&report, out, false)
}

impl FamilyCounts {
    /// The family's two rows, Cut's then Short's.
    fn rows(&self) -> Vec<Row> {
        [Side::Cut, Side::Short]
            .into_iter()
            .zip(self.counts)
            .map(|(side, [boards, winnable, kept, unfinished])| Row {
                family: self.family.clone(),
                vertices: self.vertices,
                side: side.to_string().to_lowercase(),
                boards,
                winnable,
                kept,
                unfinished,
                rate: Rate::new(kept, winnable - unfinished),
            })
            .collect()
    }
}

/// The report from every shard's part (in shard order): each family's counts summed, the
/// smallest loss the least (vertices, edges, then board number) of the shards'. A family
/// some shard did not finish is left out, and the report says interrupted.
pub fn report(plan: &Plan, (name, command): (&str, &str), parts: Vec<StrengthShard>) -> Report {
    let finished = parts.iter().map(|p| p.families.len()).min().unwrap_or(0);
    let mut families: Vec<FamilyCounts> = Vec::new();
    let mut smallest: [Option<(u64, Loss)>; 2] = [None, None];
    for part in parts {
        for (k, f) in part.families.into_iter().take(finished).enumerate() {
            match families.get_mut(k) {
                None => families.push(f),
                Some(m) => {
                    for (a, b) in m.counts.iter_mut().flatten().zip(f.counts.iter().flatten()) {
                        *a += b;
                    }
                }
            }
        }
        for (best, found) in smallest.iter_mut().zip(part.smallest) {
            let key = |(i, l): &(u64, Loss)| (l.vertices, l.edges, *i);
            if let Some(found) = found
                && best.as_ref().is_none_or(|b| key(&found) < key(b))
            {
                *best = Some(found);
            }
        }
    }
    Report::new(plan, (name, command), families, smallest)
}

impl Report {
    /// The report of `families` (in plan order) and each side's smallest loss.
    fn new(
        plan: &Plan,
        (name, command): (&str, &str),
        families: Vec<FamilyCounts>,
        smallest: [Option<(u64, Loss)>; 2],
    ) -> Report {
        Report {
            study: "heuristic",
            command: command.to_string(),
            heuristic: name.to_string(),
            plan: plan.clone(),
            rows: families.iter().flat_map(FamilyCounts::rows).collect(),
            smallest_losses: smallest.into_iter().flatten().map(|(_, l)| l).collect(),
            interrupted: families.len() < plan.families(),
        }
    }
}

impl Report {
    /// One CSV row per family, size and side, with a header.
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let header = CSV_HEADER.map(String::from).to_vec();
        core::iter::once(header)
            .chain(self.rows.iter().map(Row::csv))
            .collect()
    }

    /// The summary people read (Markdown).
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "# Shannon's heuristic away from the bird cage\n\n`{}` (heuristic: {}; seed {}).\n\n\
             For each start where the heuristic's side, moving first, wins with perfect play: \
             does the heuristic keep the win against a perfect opponent who tries every reply?\n\n\
             | family | size | side | boards | winnable | kept | unfinished | kept rate (95 %) |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |\n",
            self.command, self.heuristic, self.plan.seed
        );
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                r.family.kind,
                r.family.size,
                r.side,
                r.boards,
                r.winnable,
                r.kept,
                r.unfinished,
                rate_text(&r.rate)
            ));
        }
        for l in &self.smallest_losses {
            s.push_str(&format!(
                "\nSmallest loss as {} ({} {}): {} vertices, {} edges; losing line `{}` (the \
                 heuristic's losing move is move {}, `{}`)\n\n```text\n{}```\n",
                l.side,
                l.family.kind,
                l.family.size,
                l.vertices,
                l.edges,
                l.line,
                l.mistake,
                l.line
                    .split(',')
                    .nth(l.mistake.saturating_sub(1))
                    .unwrap_or("?"),
                l.graph
            ));
        }
        if self.smallest_losses.is_empty() {
            s.push_str("\nThe heuristic kept every winnable start.\n");
        }
        if self.interrupted {
            s.push_str("\nInterrupted: the rows cover the families finished.\n");
        }
        s
    }

    /// `heuristic.svg`: the share of winnable starts the heuristic *loses* (the CSV's
    /// `lost_rate`), against vertices, over every game, one line per side. Losses, not the
    /// kept rate: kept rates sit within a few percent of 100, where a 0..100 axis shows nothing.
    pub fn plot(&self, path: &Path) -> PlotResult {
        let series: Vec<Series> = [("cut", "Cut"), ("short", "Short")]
            .iter()
            .enumerate()
            .map(|(i, &(side, name))| {
                Series::new(
                    format!("heuristic as {name}"),
                    i,
                    self.rows
                        .iter()
                        .filter(|r| r.family.kind == "games" && r.side == side)
                        .filter_map(|r| Some((r.vertices as f64, Some(r.lost_rate()?))))
                        .collect(),
                )
            })
            .collect();
        let caption = format!(
            "every game of 2 to {} vertices · ideal network, ties to the first edge · seed {}",
            self.plan.max_vertices, self.plan.seed
        );
        plot::lines(
            path,
            Title {
                title: "Shannon's heuristic loses a perfect-play win",
                caption: &caption,
            },
            &[Panel {
                heading: "",
                axes: Axes {
                    x: "vertices",
                    y: "lost (% of winnable starts)",
                    x_scale: Scale::Integer,
                    y_scale: Scale::Percent,
                },
                series: &series,
            }],
        )
    }
}

/// The CSV file's columns.
const CSV_HEADER: [&str; 12] = [
    "family",
    "size",
    "vertices",
    "side",
    "boards",
    "winnable",
    "kept",
    "unfinished",
    "kept_rate",
    "low95",
    "high95",
    "lost_rate",
];

impl Row {
    /// The row as CSV fields, in [`CSV_HEADER`]'s order.
    fn csv(&self) -> Vec<String> {
        vec![
            self.family.kind.to_string(),
            self.family.size.clone(),
            self.vertices.to_string(),
            self.side.clone(),
            self.boards.to_string(),
            self.winnable.to_string(),
            self.kept.to_string(),
            self.unfinished.to_string(),
            super::report::fmt_f64(self.rate.rate),
            super::report::fmt_f64(self.rate.low),
            super::report::fmt_f64(self.rate.high),
            self.lost_rate()
                .map(super::report::fmt_f64)
                .unwrap_or_default(),
        ]
    }
}

/// Runs the study and writes `heuristic.json`, `heuristic.csv`, `summary.md` and
/// `heuristic.svg` into `out`; returns the summary.
pub fn write(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    name: &str,
    command: &str,
    control: &Control<'_>,
    out: &Output,
) -> Result<String, StudyError> {
    let mut csv = out.csv("heuristic.csv").map_err(WriteError::from)?;
    let part = write_part(plan, heuristic, control, ShardId::WHOLE, Some(&mut csv))?;
    write_report(plan, (name, command), vec![part], out, true)
}

/// Shard `shard` of the study [`write`] runs; `csv` (the one-process run's) gets each
/// family's rows as the family finishes, so a killed run keeps them.
pub fn write_part(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    control: &Control<'_>,
    shard: ShardId,
    mut csv: Option<&mut CsvWriter>,
) -> Result<StrengthShard, StudyError> {
    if let Some(csv) = csv.as_deref_mut() {
        csv.row(&CSV_HEADER).map_err(WriteError::from)?;
    }
    run_part(
        plan,
        heuristic,
        control,
        shard,
        &mut |rows| match csv.as_deref_mut() {
            Some(csv) => rows
                .iter()
                .try_for_each(|r| csv.row(&r.csv()))
                .map_err(WriteError::from),
            None => Ok(()),
        },
    )
}

/// The files [`write`] writes, from every shard's part; `streamed`: `heuristic.csv` was
/// written as the one process ran.
pub fn write_report(
    plan: &Plan,
    (name, command): (&str, &str),
    parts: Vec<StrengthShard>,
    out: &Output,
    streamed: bool,
) -> Result<String, StudyError> {
    write_files(&report(plan, (name, command), parts), out, streamed)
}

/// `heuristic.csv` (unless `streamed`), the JSON, the summary and the plot.
fn write_files(report: &Report, out: &Output, streamed: bool) -> Result<String, StudyError> {
    if !streamed {
        out.csv_rows("heuristic.csv", &report.csv_rows())
            .map_err(WriteError::from)?;
    }
    let summary = report.markdown();
    Ok(super::report::finish(
        out,
        "heuristic",
        &report,
        summary,
        || report.plot(&out.path("heuristic.svg")),
    )?)
}

impl StrengthShard {
    /// Whether the shard finished every family of `plan` (a stopped shard is not stored).
    pub fn finished(&self, plan: &Plan) -> bool {
        self.families.len() == plan.families()
    }
}

/// The heuristic study's errors as every study's (the trait's module knows no study).
impl From<StudyError> for crate::study::StudyError {
    fn from(error: StudyError) -> Self {
        match error {
            StudyError::Nauty(e) => e.into(),
            StudyError::Write(e) => e.into(),
        }
    }
}

/// The heuristic the study measures, as the report names it.
pub const HEURISTIC: &str = "largest exact drop on the ideal network, ties to the first \
     edge in file order (emulator::graphs::heuristic_move, Model::Ideal)";

/// [`HEURISTIC`].
fn ideal_heuristic(play: &Play<'_>) -> Option<usize> {
    emulator::graphs::heuristic_move(play, heuristic::Model::Ideal)
}

/// The heuristic study's options: its graphs are its own (no cage size, board or position
/// set). Field order is the command's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Options {
    /// Seed of the random graph families.
    #[cfg_attr(feature = "clap", arg(long, value_name = "S", default_value_t = 1,
          allow_negative_numbers = true, value_parser = shards::whole::<u64>(0, u64::MAX)))]
    pub seed: u64,
    /// Every game (connected graph, terminal pair) of up to N vertices (nauty).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = shards::whole::<u64>(2, 9)))]
    pub max_vertices: Option<u64>,
    /// Random graphs drawn per family and size.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = shards::whole::<u64>(1, u64::MAX)))]
    pub samples: Option<u64>,
}

/// The heuristic study as the shard model runs it: its shards are the boards (board i of
/// the plan, families in order, belongs to shard i mod P).
#[derive(Debug)]
pub struct StrengthStudy {
    plan: Plan,
    command: String,
}

impl crate::study::Study for StrengthStudy {
    const NAME: &'static str = "heuristic";
    const UNIT: &'static str = "boards";
    type Options = Options;
    type Shard = StrengthShard;

    fn plan(options: &Options, command: &str) -> Result<Self, crate::study::StudyError> {
        let mut plan = Plan::full(options.seed);
        if let Some(n) = options.max_vertices {
            plan.max_vertices = n as usize;
        }
        if let Some(n) = options.samples {
            plan.samples = n;
        }
        Ok(StrengthStudy {
            plan,
            command: command.to_string(),
        })
    }

    /// Names geng, refusing one with the links' PRUNE hook (issue 62: with it first on PATH,
    /// the study enumerated the pruned listing without a word).
    fn inputs(_: &Options) -> Result<crate::study::Inputs, crate::study::StudyError> {
        Ok(crate::study::Inputs {
            geng: Some(switching::enumerate::plain_geng()?),
            ..crate::study::Inputs::default()
        })
    }

    fn run_shard(
        &self,
        id: ShardId,
        control: &Control<'_>,
        rows: Option<&Output>,
    ) -> Result<StrengthShard, crate::study::StudyError> {
        let mut csv = rows.map(|out| out.csv("heuristic.csv")).transpose()?;
        Ok(write_part(
            &self.plan,
            &ideal_heuristic,
            control,
            id,
            csv.as_mut(),
        )?)
    }

    fn finished(&self, shard: &StrengthShard, _: ShardId) -> bool {
        shard.finished(&self.plan)
    }

    fn shard_bytes(&self, shard: StrengthShard) -> Result<Vec<u8>, crate::study::StudyError> {
        Ok(serde_json::to_vec(&shard)?)
    }

    fn read_shard(&self, bytes: &[u8]) -> Result<StrengthShard, crate::study::StudyError> {
        crate::study::from_json(bytes)
    }

    fn write_report(
        &self,
        shards: Vec<StrengthShard>,
        out: &Output,
        streamed: bool,
    ) -> Result<String, crate::study::StudyError> {
        Ok(write_report(
            &self.plan,
            (HEURISTIC, &self.command),
            shards,
            out,
            streamed,
        )?)
    }

    fn write_reference(&self, out: &Output) -> Result<String, crate::study::StudyError> {
        Ok(write_reference(
            &self.plan,
            &ideal_heuristic,
            (HEURISTIC, &self.command),
            out,
        )?)
    }
}
