//! Tolerance study: Monte Carlo over boards whose resistors are drawn from each tolerance band
//! and distribution, read through an ideal converter at the board's resolution (the ADC's own
//! errors belong to the quantisation study). A decision diverges on a drawn board when its move
//! differs from the nominal board's, unless both moves are exact ties of the `ideal` network.
//! At 0 % tolerance a drawn board is the nominal board, so nothing diverges.
//!
//! Per position: the probability over boards that its move diverges; per game (every finished
//! game of the set, along its recorded path): the probability that any of its moves does; and
//! the impact under perfect play: how often the divergent move turns a position Cut would win
//! (after the nominal move) into one Short wins, and the reverse.

use boards::{Distribution, Tolerance};
use heuristic::{Edge, MAX_EDGES, Position, Side};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shards::ShardId;

use super::outcome::Winner;
use super::positions::PositionSet;
use super::report::{CsvWriter, Header, Output, fmt_f64, rate_text};
use super::stats::Rate;
use super::{Control, Truth, code_choice};
use emulator::physical::{self, Adc, Board, Build, PullupState};

/// Tolerance bands studied by default, ppm (0.1 % .. 10 %).
pub const TOLERANCES_PPM: [u32; 6] = [1_000, 5_000, 10_000, 20_000, 50_000, 100_000];

/// The distributions studied for a band of `ppm`: 3σ Gaussian, uniform, binned with the
/// inner half of the band sorted out.
pub fn distributions(ppm: u32) -> [Distribution; 3] {
    [
        Distribution::TruncatedGaussian { sigmas: 3 },
        Distribution::Uniform,
        Distribution::Binned { hole_ppm: ppm / 2 },
    ]
}

/// A distribution's name in reports.
pub fn distribution_name(d: Distribution) -> &'static str {
    match d {
        Distribution::TruncatedGaussian { .. } => "gaussian",
        Distribution::Uniform => "uniform",
        Distribution::Binned { .. } => "binned",
    }
}

/// The seed of board `i`: the same boards (as random streams) for every band, so bands
/// compare like with like.
pub fn board_seed(seed: u64, i: u64) -> u64 {
    seed ^ (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// One band and distribution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Band half-width, %.
    pub tolerance_percent: f64,
    /// `gaussian`, `uniform` or `binned`.
    pub distribution: &'static str,
    /// Boards drawn (fewer than asked if interrupted).
    pub boards: u64,
    /// Decision × board pairs that diverge.
    pub decision_divergence: Rate,
    /// Positions that diverged on at least one board.
    pub positions_ever: u64,
    /// The position most likely to diverge: its probability over boards.
    pub worst_position: Option<PositionRate>,
    /// Game × board pairs with at least one divergent move.
    pub game_divergence: Rate,
    /// Decision × board pairs where the divergence turns a Cut win into a Short win;
    /// `None` without a perfect-play solver.
    pub cut_win_lost: Option<Rate>,
    /// ... and a Short win into a Cut win.
    pub short_win_lost: Option<Rate>,
}

/// One position's divergence probability over the boards of a cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionRate {
    /// Index in the set.
    pub index: u32,
    /// Game record.
    pub record: String,
    /// Boards on which it diverged, of all boards.
    pub rate: Rate,
}

/// The study's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Study, size, board, resolution, seed and position set.
    #[serde(flatten)]
    pub header: Header,
    /// Decision positions.
    pub decisions: usize,
    /// Finished games in the set.
    pub games: usize,
    /// Boards per cell asked for.
    pub boards_per_cell: u64,
    /// Whether the run was stopped before the end.
    pub interrupted: bool,
    /// Decisions where Cut, after the nominal board's move, wins with perfect play (the
    /// positions where a divergence could lose a win); `None` without a solver.
    pub cut_wins_after_nominal: Option<u64>,
    /// Which solver gave the outcome impact.
    pub perfect_play: String,
    /// The cells done, band by band.
    pub cells: Vec<Cell>,
}

/// What the study needs besides the set and the board.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Bands, ppm.
    pub tolerances_ppm: Vec<u32>,
    /// Boards per band and distribution.
    pub boards: u64,
    /// Seed of the boards.
    pub seed: u64,
}

/// Per decision: the perfect-play winner after each edge is cut (by edge index).
pub type ChildWinners = Vec<[Option<Side>; MAX_EDGES]>;

/// The winners [`run`] needs, from `winner`: after every legal Cut move of every decision.
pub fn child_winners(set: &PositionSet, winner: Winner<'_>) -> ChildWinners {
    let size = set.size();
    set.decisions()
        .par_iter()
        .map(|&i| {
            let p = &set.entries()[i as usize].position;
            let mut out = [None; MAX_EDGES];
            for e in p.resistors() {
                let mut child = p.clone();
                if child.play_edge(e).is_ok() {
                    out[e.index(size)] = winner(&child);
                }
            }
            out
        })
        .collect()
}

struct Decision {
    position: Position,
    truth: Truth,
    nominal: Edge,
}

/// One cell's counts over the boards a shard drew: sums, so shards merge by adding.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellCounts {
    /// Per decision (in set order), boards on which it diverged.
    pub diverged: Vec<u64>,
    /// Game × board pairs with a divergent move.
    pub game_hits: u64,
    /// Decision × board pairs where a Cut win turns into a Short win.
    pub cut_lost: u64,
    /// ... and a Short win into a Cut win.
    pub short_lost: u64,
    /// Decision × board pairs read.
    pub pairs: u64,
    /// Boards drawn.
    pub boards: u64,
}

/// What one shard of the study found: its boards of every cell (board b of each cell belongs
/// to shard b mod P).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToleranceShard {
    /// Decisions where Cut, after the nominal board's move, wins (the same in every shard).
    pub cut_wins: Option<u64>,
    /// The cells begun, band by band.
    pub cells: Vec<CellCounts>,
}

impl ToleranceShard {
    /// Adds another shard's counts.
    pub fn merge(&mut self, other: ToleranceShard) {
        self.cut_wins = self.cut_wins.or(other.cut_wins);
        for (k, o) in other.cells.into_iter().enumerate() {
            if k == self.cells.len() {
                self.cells.push(CellCounts {
                    diverged: vec![0; o.diverged.len()],
                    ..CellCounts::default()
                });
            }
            let c = &mut self.cells[k];
            for (a, b) in c.diverged.iter_mut().zip(&o.diverged) {
                *a += b;
            }
            c.game_hits += o.game_hits;
            c.cut_lost += o.cut_lost;
            c.short_lost += o.short_lost;
            c.pairs += o.pairs;
            c.boards += o.boards;
        }
    }
}

/// Runs the study; `winners` (from [`child_winners`]) gives the outcome impact. Streams one
/// row per position that ever diverges to `positions_csv`. The one-process run: [`run_shard`]
/// of shard 1/1, then [`cells`].
pub fn run(
    set: &PositionSet,
    board: &Board,
    plan: &Plan,
    winners: Option<&ChildWinners>,
    control: &Control<'_>,
    positions_csv: &mut CsvWriter,
) -> Result<(Vec<Cell>, Option<u64>), super::report::FileError> {
    let part = run_shard(set, board, plan, winners, control, ShardId::WHOLE);
    let cut_wins = part.cut_wins;
    Ok((
        cells(set, plan, winners.is_some(), part, positions_csv)?,
        cut_wins,
    ))
}

/// Runs shard `shard` of the study: in every cell, the boards it owns.
pub fn run_shard(
    set: &PositionSet,
    board: &Board,
    plan: &Plan,
    winners: Option<&ChildWinners>,
    control: &Control<'_>,
    shard: ShardId,
) -> ToleranceShard {
    let study = Readings::new(set, board, winners);
    let owned: Vec<u64> = (0..plan.boards).filter(|&b| shard.owns(b)).collect();
    let cells_total = plan.tolerances_ppm.len() as u64 * 3;
    let mut cells = Vec::new();
    'cells: for &ppm in &plan.tolerances_ppm {
        for distribution in distributions(ppm) {
            if control.stopped() {
                break 'cells;
            }
            let done_cells = cells.len() as u64;
            let progress = |boards_done: u64| {
                (control.progress)(
                    done_cells * owned.len() as u64 + boards_done,
                    cells_total * owned.len() as u64,
                )
            };
            let tolerance = Tolerance { ppm, distribution };
            cells.push(study.cell(
                tolerance,
                plan.seed,
                &owned,
                &|| control.stopped(),
                &progress,
            ));
        }
    }
    ToleranceShard {
        cut_wins: study.cut_wins(),
        cells,
    }
}

/// What every cell reads: the set's decisions with the nominal board's move, each finished
/// game's decisions, and the perfect-play winners after each move.
struct Readings<'a> {
    board: &'a Board,
    size: heuristic::Size,
    adc: Adc,
    decisions: Vec<Decision>,
    games: Vec<Vec<usize>>,
    winners: Option<&'a ChildWinners>,
}

impl<'a> Readings<'a> {
    fn new(set: &PositionSet, board: &'a Board, winners: Option<&'a ChildWinners>) -> Readings<'a> {
        let size = set.size();
        let adc = Adc::ideal(board.adc.bits, board.reference_volts());
        let nominal_parts = Build::parts(board, size, None);
        let decision_indices = set.decisions();
        let decisions: Vec<Decision> = decision_indices
            .par_iter()
            .filter_map(|&i| {
                let position = set.entries()[i as usize].position.clone();
                let truth = Truth::of(&position)?;
                let volts =
                    physical::game_volts(board, &nominal_parts, &position, PullupState::On).ok()?;
                let nominal = code_choice(&position, &adc, &volts)?;
                Some(Decision {
                    position,
                    truth,
                    nominal,
                })
            })
            .collect();
        // Each finished game's decisions along its recorded path.
        let slot: std::collections::HashMap<u32, usize> = decision_indices
            .iter()
            .enumerate()
            .map(|(k, &i)| (i, k))
            .collect();
        let games: Vec<Vec<usize>> = set
            .finished()
            .iter()
            .map(|&g| {
                set.path(g)
                    .iter()
                    .filter_map(|i| slot.get(i).copied())
                    .collect()
            })
            .collect();
        Readings {
            board,
            size,
            adc,
            decisions,
            games,
            winners,
        }
    }

    /// Decisions where Cut, after the nominal board's move, wins.
    fn cut_wins(&self) -> Option<u64> {
        self.winners.map(|w| {
            self.decisions
                .iter()
                .enumerate()
                .filter(|(k, d)| w[*k][d.nominal.index(self.size)] == Some(Side::Cut))
                .count() as u64
        })
    }

    /// One cell over the boards numbered `boards`, drawn from `seed` with `tolerance`, in
    /// chunks that `stopped` can end; `progress(boards done)` after each chunk.
    fn cell(
        &self,
        tolerance: Tolerance,
        seed: u64,
        boards: &[u64],
        stopped: &dyn Fn() -> bool,
        progress: &dyn Fn(u64),
    ) -> CellCounts {
        let (size, adc, decisions, winners) = (self.size, &self.adc, &self.decisions, self.winners);
        let mut drawn = self.board.clone();
        drawn.tolerance = tolerance;
        let mut diverged = vec![0u64; decisions.len()];
        let (mut game_hits, mut cut_lost, mut short_lost, mut pairs) = (0u64, 0u64, 0u64, 0u64);
        let mut boards_done = 0u64;
        for chunk in boards.chunks(64) {
            if stopped() {
                break;
            }
            let results: Vec<Vec<(usize, Edge)>> = chunk
                .par_iter()
                .map(|&b| {
                    let parts = Build::parts(&drawn, size, Some(board_seed(seed, b)));
                    decisions
                        .iter()
                        .enumerate()
                        .filter_map(|(k, d)| {
                            let volts =
                                physical::game_volts(&drawn, &parts, &d.position, PullupState::On)
                                    .ok()?;
                            let e = code_choice(&d.position, adc, &volts)?;
                            let benign = e == d.nominal
                                || (d.truth.is_tied(size, e) && d.truth.is_tied(size, d.nominal));
                            (!benign).then_some((k, e))
                        })
                        .collect()
                })
                .collect();
            for divergences in results {
                let mut hit = vec![false; decisions.len()];
                for &(k, e) in &divergences {
                    diverged[k] += 1;
                    hit[k] = true;
                    if let Some(w) = winners {
                        let d = &decisions[k];
                        let before = w[k][d.nominal.index(size)];
                        let after = w[k][e.index(size)];
                        match (before, after) {
                            (Some(Side::Cut), Some(Side::Short)) => cut_lost += 1,
                            (Some(Side::Short), Some(Side::Cut)) => short_lost += 1,
                            _ => {}
                        }
                    }
                }
                game_hits += self
                    .games
                    .iter()
                    .filter(|g| g.iter().any(|&k| hit[k]))
                    .count() as u64;
                pairs += decisions.len() as u64;
            }
            boards_done += chunk.len() as u64;
            progress(boards_done);
        }
        CellCounts {
            diverged,
            game_hits,
            cut_lost,
            short_lost,
            pairs,
            boards: boards_done,
        }
    }
}

/// The study in one plain loop, every cell over all its boards, the report written from
/// those counts: no shard, part or merge. The independent reference a merged study is
/// checked against (issue 49); it shares with [`run_shard`] only each cell's computation and
/// with [`write_report`] only the files' writer. `perfect` names the solver behind `winner`.
pub fn write_reference(
    set: &PositionSet,
    (spec, board): (String, Board),
    plan: &Plan,
    winner: Option<(&str, Winner<'_>)>,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let winners = winner.map(|(_, w)| child_winners(set, w));
    let study = Readings::new(set, &board, winners.as_ref());
    let all: Vec<u64> = (0..plan.boards).collect();
    let mut cells = Vec::new();
    for &ppm in &plan.tolerances_ppm {
        for distribution in distributions(ppm) {
            let tolerance = Tolerance { ppm, distribution };
            cells.push(study.cell(tolerance, plan.seed, &all, &|| false, &|_| {}));
        }
    }
    let counts = ToleranceShard {
        cut_wins: study.cut_wins(),
        cells,
    };
    write_counts(
        set,
        (spec, &board),
        plan,
        winner.map(|(n, _)| n),
        counts,
        out,
        command,
    )
}

/// The cells of the report from the merged counts, and one CSV row per position that ever
/// diverged in each.
pub fn cells(
    set: &PositionSet,
    plan: &Plan,
    with_winners: bool,
    part: ToleranceShard,
    positions_csv: &mut CsvWriter,
) -> Result<Vec<Cell>, super::report::FileError> {
    let decision_indices = set.decisions();
    positions_csv.row(&[
        "tolerance_percent",
        "distribution",
        "index",
        "record",
        "boards_diverged",
        "boards",
        "rate",
        "ci_low",
        "ci_high",
    ])?;
    let games = set.finished().len() as u64;
    let bands = plan
        .tolerances_ppm
        .iter()
        .flat_map(|&ppm| distributions(ppm).map(|d| (ppm, d)));
    let mut cells = Vec::new();
    for ((ppm, distribution), counts) in bands.zip(part.cells) {
        let CellCounts {
            diverged,
            game_hits,
            cut_lost,
            short_lost,
            pairs,
            boards: boards_done,
        } = counts;
        let percent = f64::from(ppm) / 1e4;
        let name = distribution_name(distribution);
        let mut worst: Option<PositionRate> = None;
        for (k, &n) in diverged.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let index = decision_indices[k];
            let rate = Rate::new(n, boards_done);
            positions_csv.row(&[
                fmt_f64(percent),
                name.to_string(),
                index.to_string(),
                set.record(index),
                n.to_string(),
                boards_done.to_string(),
                fmt_f64(rate.rate),
                fmt_f64(rate.low),
                fmt_f64(rate.high),
            ])?;
            if worst.as_ref().is_none_or(|w| n > w.rate.count) {
                worst = Some(PositionRate {
                    index,
                    record: set.record(index),
                    rate,
                });
            }
        }
        positions_csv.flush()?;
        let total_div: u64 = diverged.iter().sum();
        cells.push(Cell {
            tolerance_percent: percent,
            distribution: name,
            boards: boards_done,
            decision_divergence: Rate::new(total_div, pairs),
            positions_ever: diverged.iter().filter(|&&n| n > 0).count() as u64,
            worst_position: worst,
            game_divergence: Rate::new(game_hits, boards_done * games),
            cut_win_lost: with_winners.then(|| Rate::new(cut_lost, pairs)),
            short_win_lost: with_winners.then(|| Rate::new(short_lost, pairs)),
        });
    }
    Ok(cells)
}

/// Runs the study with the default bands and writes `tolerance.json`, `tolerance.csv`,
/// `tolerance-positions.csv`, `divergence-vs-tolerance.svg` and `summary.md`; returns the
/// summary. `perfect` names the solver behind `winner`.
#[allow(clippy::too_many_arguments)]
pub fn write(
    set: &PositionSet,
    (spec, board): (String, Board),
    plan: &Plan,
    winner: Option<(&str, Winner<'_>)>,
    control: &Control<'_>,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let part = write_shard(
        set,
        &board,
        plan,
        winner.map(|(_, w)| w),
        control,
        ShardId::WHOLE,
    );
    write_report(
        set,
        (spec, board),
        plan,
        winner.map(|(n, _)| n),
        vec![part],
        out,
        command,
    )
}

/// Shard `shard` of the study [`write`] runs.
pub fn write_shard(
    set: &PositionSet,
    board: &Board,
    plan: &Plan,
    winner: Option<Winner<'_>>,
    control: &Control<'_>,
    shard: ShardId,
) -> ToleranceShard {
    let winners = winner.map(|w| child_winners(set, w));
    run_shard(set, board, plan, winners.as_ref(), control, shard)
}

/// The report [`write`] writes, from every shard's part; `perfect` names the solver the
/// parts used (None: no outcome impact).
pub fn write_report(
    set: &PositionSet,
    (spec, board): (String, Board),
    plan: &Plan,
    perfect: Option<&str>,
    parts: Vec<ToleranceShard>,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let mut merged = ToleranceShard {
        cut_wins: None,
        cells: Vec::new(),
    };
    for part in parts {
        merged.merge(part);
    }
    write_counts(set, (spec, &board), plan, perfect, merged, out, command)
}

/// The files from the study's counts over all its boards.
fn write_counts(
    set: &PositionSet,
    (spec, board): (String, &Board),
    plan: &Plan,
    perfect: Option<&str>,
    counts: ToleranceShard,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let cut_wins = counts.cut_wins;
    let mut positions_csv = out.csv("tolerance-positions.csv")?;
    let cells = cells(set, plan, perfect.is_some(), counts, &mut positions_csv)?;
    positions_csv.flush()?;
    let report = Report {
        header: Header::new("tolerance", set, &spec, board.adc.bits, plan.seed),
        decisions: set.decisions().len(),
        games: set.finished().len(),
        boards_per_cell: plan.boards,
        interrupted: cells.len() < plan.tolerances_ppm.len() * 3
            || cells.iter().any(|c| c.boards < plan.boards),
        cut_wins_after_nominal: cut_wins,
        perfect_play: perfect.map_or(
            "none (outcome impact not computed)".to_string(),
            str::to_string,
        ),
        cells,
    };
    out.csv_rows("tolerance.csv", &report.csv_rows())?;
    let summary = report.markdown(command);
    super::report::finish(out, "tolerance", &report, summary, || report.plots(out))
}

impl Report {
    /// One row per cell (header first).
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let mut rows = vec![
            [
                "tolerance_percent",
                "distribution",
                "boards",
                "decision_rate",
                "decision_ci_low",
                "decision_ci_high",
                "positions_ever",
                "game_rate",
                "game_ci_low",
                "game_ci_high",
                "cut_win_lost_rate",
                "cut_win_lost_ci_high",
                "short_win_lost_rate",
                "short_win_lost_ci_high",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ];
        let opt = |r: &Option<Rate>, f: fn(&Rate) -> f64| {
            r.as_ref().map(|r| fmt_f64(f(r))).unwrap_or_default()
        };
        for c in &self.cells {
            rows.push(vec![
                fmt_f64(c.tolerance_percent),
                c.distribution.to_string(),
                c.boards.to_string(),
                fmt_f64(c.decision_divergence.rate),
                fmt_f64(c.decision_divergence.low),
                fmt_f64(c.decision_divergence.high),
                c.positions_ever.to_string(),
                fmt_f64(c.game_divergence.rate),
                fmt_f64(c.game_divergence.low),
                fmt_f64(c.game_divergence.high),
                opt(&c.cut_win_lost, |r| r.rate),
                opt(&c.cut_win_lost, |r| r.high),
                opt(&c.short_win_lost, |r| r.rate),
                opt(&c.short_win_lost, |r| r.high),
            ]);
        }
        rows
    }

    /// The Markdown summary.
    pub fn markdown(&self, command: &str) -> String {
        let mut md = format!(
            "# Tolerance study, M={}\n\nCommand: `{command}`\n\nBoard {} read by an ideal {}-bit converter \
             (pull-ups on); {} boards per band and distribution, seed {}. Positions: {} ({} decisions, {} finished \
             games).{}\n\nA decision diverges on a drawn board when its move differs from the nominal board's, \
             unless both are exact ties of the ideal network. Outcome impact by {}; after the nominal \
             board's move Cut still wins {} of the decisions with perfect play.\n\n",
            self.header.size,
            self.header.board,
            self.header.adc_bits,
            self.boards_per_cell,
            self.header.seed,
            self.header.positions,
            self.decisions,
            self.games,
            if self.interrupted {
                " INTERRUPTED: the table covers the boards finished."
            } else {
                ""
            },
            self.perfect_play,
            self.cut_wins_after_nominal
                .map_or("-".to_string(), |n| n.to_string()),
        );
        md.push_str("| tolerance | distribution | boards | decision diverges (95 % CI) | positions ever | game diverges (95 % CI) | Cut win lost | Short win lost |\n");
        md.push_str("| ---: | --- | ---: | --- | ---: | --- | --- | --- |\n");
        for c in &self.cells {
            md.push_str(&format!(
                "| {} % | {} | {} | {} | {} | {} | {} | {} |\n",
                c.tolerance_percent,
                c.distribution,
                c.boards,
                rate_text(&c.decision_divergence),
                c.positions_ever,
                rate_text(&c.game_divergence),
                c.cut_win_lost.as_ref().map_or("-".into(), rate_text),
                c.short_win_lost.as_ref().map_or("-".into(), rate_text),
            ));
        }
        md.push_str("\n## Most fragile position per cell\n\n");
        for c in &self.cells {
            if let Some(w) = &c.worst_position {
                md.push_str(&format!(
                    "- {} % {}: `{}` diverges on {}\n",
                    c.tolerance_percent,
                    c.distribution,
                    w.record,
                    rate_text(&w.rate)
                ));
            }
        }
        md.push_str("\nFiles: `tolerance.json`, `tolerance.csv` (one row per cell), `tolerance-positions.csv` \
            (every position that diverged, per cell, with its Wilson interval), `divergence-vs-tolerance.svg`.\n");
        md
    }

    /// `divergence-vs-tolerance.svg`: game and decision divergence against the band, one
    /// panel each, a line per distribution (the CSV's `game_rate` and `decision_rate`).
    pub fn plots(&self, out: &Output) -> super::plot::PlotResult {
        use super::plot::{Axes, Panel, Scale, Series, Title};
        let series = |rate: fn(&Cell) -> f64| -> Vec<Series> {
            ["gaussian", "uniform", "binned"]
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    Series::new(
                        *name,
                        i,
                        self.cells
                            .iter()
                            .filter(|c| c.distribution == *name)
                            .map(|c| (c.tolerance_percent, Some(rate(c))))
                            .collect(),
                    )
                })
                .collect()
        };
        let axes = |y| Axes {
            x: "tolerance (%, log scale)",
            y,
            x_scale: Scale::Log,
            y_scale: Scale::Percent,
        };
        let (games, decisions) = (
            series(|c| c.game_divergence.rate),
            series(|c| c.decision_divergence.rate),
        );
        super::plot::lines(
            &out.path("divergence-vs-tolerance.svg"),
            Title {
                title: "Moves that differ from the nominal board's",
                caption: &self.header.caption(&format!(
                    "ideal {}-bit ADC · {} boards per cell",
                    self.header.adc_bits,
                    super::plot::integer_text(self.boards_per_cell as i64)
                )),
            },
            &[
                Panel {
                    heading: "games with a divergent move",
                    axes: axes("divergence (% of games × boards)"),
                    series: &games,
                },
                Panel {
                    heading: "decisions that diverge",
                    axes: axes("divergence (% of decisions × boards)"),
                    series: &decisions,
                },
            ],
        )
    }
}

/// The solver the outcome impact comes from, as the report names it.
pub const PERFECT: &str = "Lehman's theorem (switching::perfect)";

/// The perfect-play winner of a position ([`PERFECT`]).
fn perfect_winner(position: &Position) -> Option<Side> {
    Some(switching::perfect::winner(position))
}

/// The tolerance study as the shard model runs it: its shards are the boards drawn (board b
/// of every band belongs to shard b mod P).
#[derive(Debug)]
pub struct ToleranceStudy {
    set: PositionSet,
    board: (String, Board),
    plan: Plan,
    command: String,
}

impl crate::study::Study for ToleranceStudy {
    const NAME: &'static str = "tolerance";
    const UNIT: &'static str = "boards";
    type Options = crate::study::CageOptions;
    type Shard = ToleranceShard;

    fn plan(options: &Self::Options, command: &str) -> Result<Self, crate::study::StudyError> {
        let board = options.board_or_nucleo()?;
        let set = options.positions()?;
        let plan = Plan {
            tolerances_ppm: TOLERANCES_PPM.to_vec(),
            boards: options.boards.unwrap_or(200),
            seed: options.seed,
        };
        Ok(ToleranceStudy {
            set,
            board,
            plan,
            command: command.to_string(),
        })
    }

    fn inputs(options: &Self::Options) -> Result<crate::study::Inputs, crate::study::StudyError> {
        options.inputs()
    }

    fn run_shard(
        &self,
        id: ShardId,
        control: &Control<'_>,
        _: Option<&Output>,
    ) -> Result<ToleranceShard, crate::study::StudyError> {
        let winner: Winner<'_> = &perfect_winner;
        Ok(write_shard(
            &self.set,
            &self.board.1,
            &self.plan,
            Some(winner),
            control,
            id,
        ))
    }

    fn finished(&self, shard: &ToleranceShard, id: ShardId) -> bool {
        let owned = (0..self.plan.boards).filter(|&b| id.owns(b)).count() as u64;
        shard.cells.len() == self.plan.tolerances_ppm.len() * 3
            && shard.cells.iter().all(|c| c.boards == owned)
    }

    fn shard_bytes(&self, shard: ToleranceShard) -> Result<Vec<u8>, crate::study::StudyError> {
        Ok(serde_json::to_vec(&shard)?)
    }

    fn read_shard(&self, bytes: &[u8]) -> Result<ToleranceShard, crate::study::StudyError> {
        crate::study::from_json(bytes)
    }

    fn write_report(
        &self,
        shards: Vec<ToleranceShard>,
        out: &Output,
        _: bool,
    ) -> Result<String, crate::study::StudyError> {
        Ok(write_report(
            &self.set,
            self.board.clone(),
            &self.plan,
            Some(PERFECT),
            shards,
            out,
            &self.command,
        )?)
    }

    fn write_reference(&self, out: &Output) -> Result<String, crate::study::StudyError> {
        let winner: Winner<'_> = &perfect_winner;
        Ok(write_reference(
            &self.set,
            self.board.clone(),
            &self.plan,
            Some((PERFECT, winner)),
            out,
            &self.command,
        )?)
    }
}
