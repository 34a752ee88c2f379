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

use heuristic::Side;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shards::ShardId;
use switching::{Graph, Play, perfect};

mod families;
use families::{boards, vertex_count};
use output::write_files;
mod output;
mod search;

pub use families::{erdos_renyi, grid, planar};
pub use output::{report, write, write_report, write_shard};
pub use search::{Heuristic, Outcome, keeps_win};

use super::Control;
use super::report::{Output, WriteError};
use super::stats::Rate;

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
pub enum StrengthError {
    /// nauty could not enumerate the games.
    #[error(transparent)]
    Nauty(#[from] switching::enumerate::NautyError),
    /// The report could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
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
) -> Result<Report, StrengthError> {
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
) -> Result<Report, StrengthError> {
    let part = run_shard(plan, heuristic, control, ShardId::WHOLE, finished)?;
    Ok(report(plan, (name, command), vec![part]))
}

/// Runs shard `shard` of the study: in every family, the boards it owns. `finished` gets each
/// family's rows (this shard's counts) as the family finishes.
pub fn run_shard(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    control: &Control<'_>,
    shard: ShardId,
    finished: &mut dyn FnMut(&[Row]) -> Result<(), WriteError>,
) -> Result<StrengthShard, StrengthError> {
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
/// a merged study is checked against (issue 49); it shares with [`run_shard`] only each
/// board's game ([`keeps_win`]) and its counting, and with [`write_report`] the files' writer.
pub fn write_reference(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    (name, command): (&str, &str),
    out: &Output,
) -> Result<String, StrengthError> {
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

impl StrengthShard {
    /// Whether the shard finished every family of `plan` (a stopped shard is not stored).
    pub fn finished(&self, plan: &Plan) -> bool {
        self.families.len() == plan.families()
    }
}

/// The heuristic study's errors as every study's (the trait's module knows no study).
impl From<StrengthError> for crate::study::StudyError {
    fn from(error: StrengthError) -> Self {
        match error {
            StrengthError::Nauty(e) => e.into(),
            StrengthError::Write(e) => e.into(),
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
        Ok(write_shard(
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
