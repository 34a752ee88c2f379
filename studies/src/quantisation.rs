//! Quantisation study: for every decision position and every resolution, the move the
//! heuristic makes from ADC codes against the exact tied set, each divergence classified.
//!
//! Converters: an ideal ADC on the exact `ideal` network, then boards (their network with
//! parts and converter drawn from a seed, exactly what `birdcage analyze --board P
//! --tolerance-seed S --adc-bits N` reads). A board's divergence is classified by
//! counterfactuals, the first that already diverges naming the cause:
//!
//! 1. the ideal network through an ideal converter at the board's LSB: **quantisation**;
//! 2. the board's network with nominal parts (pull-ups, series resistor, wires) through an
//!    ideal converter: **pullups**;
//! 3. the board's network with its drawn parts through an ideal converter: **tolerance**;
//! 4. otherwise the drawn device's offset, gain, INL, DNL and noise: **adc**.
//!
//! A move outside the exact tied set is a divergence; a move inside it but not the exact
//! choice is an exact tie broken differently (**tie**, benign).

use heuristic::{Edge, Position};
use rayon::prelude::*;
use serde::Serialize;

use super::plot::{self, Axes, Panel, Scale, Series, Title};
use super::positions::PositionSet;
use super::report::{CsvWriter, Output, fmt_f64, percent_text, significant_text};
use super::stats::Rate;
use super::{CHUNK, Control, Truth, code_choice};
use emulator::exact::{self, ExactVoltages};
use emulator::physical::{self, Adc, Board, Build, Parts, PullupState};
use emulator::reading::{Prepared, Reader, code_move};
use emulator::verdict::{Cause, Counterfactuals};

/// What the study reads positions with.
#[derive(Clone, Debug, PartialEq)]
pub enum Converter {
    /// The exact `ideal` network through an ideal converter (Vref = supply).
    Ideal,
    /// A board: `spec` as `--board` takes it, parts and converter drawn from `seed`.
    Board {
        /// Profile name or file.
        spec: String,
        /// The board.
        board: Box<Board>,
        /// Tolerance seed (parts, ADC device, noise).
        seed: u64,
    },
}

impl Converter {
    /// The name reports use.
    pub fn name(&self) -> String {
        match self {
            Converter::Ideal => "ideal".to_string(),
            Converter::Board { spec, seed, .. } => format!("{spec}#{seed}"),
        }
    }

    /// The `birdcage analyze` options that read a position the same way at `bits`.
    pub fn analyze_options(&self, bits: u8) -> String {
        match self {
            Converter::Ideal => format!("--adc-bits {bits}"),
            Converter::Board { spec, seed, .. } => {
                format!("--board {spec} --tolerance-seed {seed} --adc-bits {bits}")
            }
        }
    }
}

/// Why the move from the codes differs from the exact choice (or that it does not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The exact choice.
    Agree,
    /// Another edge of the exact tied set: benign.
    Tie,
    /// Outside the tied set already with an ideal converter on the ideal network.
    Quantisation,
    /// Outside it once the board's network (nominal parts) is read.
    Pullups,
    /// Outside it once the board's drawn parts are read.
    Tolerance,
    /// Outside it only through the drawn converter's errors and noise.
    Adc,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 6] = [
        Verdict::Agree,
        Verdict::Tie,
        Verdict::Quantisation,
        Verdict::Pullups,
        Verdict::Tolerance,
        Verdict::Adc,
    ];

    /// Whether the move is outside the exact tied set.
    pub fn diverges(self) -> bool {
        !matches!(self, Verdict::Agree | Verdict::Tie)
    }

    /// One letter for the per-position CSV: `.` agree, `b` benign tie, `q`, `p`, `t`, `a`.
    pub fn letter(self) -> char {
        match self {
            Verdict::Agree => '.',
            Verdict::Tie => 'b',
            Verdict::Quantisation => 'q',
            Verdict::Pullups => 'p',
            Verdict::Tolerance => 't',
            Verdict::Adc => 'a',
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A converter at one resolution, ready to read any position.
struct Stage {
    /// One LSB as a share of the supply: reference / (supply · 2^bits).
    lsb_share: f64,
    /// Ideal converter on the ideal network's fractions of the supply, at this LSB.
    quantiser: Adc,
    board: Option<BoardStage>,
}

struct BoardStage {
    /// Ideal converter on the board's volts.
    ideal: Adc,
    /// The board as `analyze` reads it (drawn parts and converter).
    reader: Prepared,
}

struct PreparedConverter {
    stages: Vec<Stage>,
    board: Option<(Box<Board>, Parts)>,
}

impl PreparedConverter {
    fn new(
        converter: &Converter,
        bits: &[u8],
        set: &PositionSet,
    ) -> Result<Self, boards::ProfileError> {
        let size = set.size();
        let mut stages = Vec::new();
        for &b in bits {
            stages.push(match converter {
                Converter::Ideal => Stage {
                    lsb_share: super::lsb_share(b, 1.0),
                    quantiser: Adc::ideal(b, 1.0),
                    board: None,
                },
                Converter::Board { board, seed, .. } => {
                    let board = board.as_ref().clone().with_adc_bits(b)?;
                    let ratio = board.reference_volts() / board.supply_volts;
                    Stage {
                        lsb_share: super::lsb_share(b, ratio),
                        quantiser: Adc::ideal(b, ratio),
                        board: Some(BoardStage {
                            ideal: Adc::ideal(b, board.reference_volts()),
                            reader: Reader::Board {
                                board: Box::new(board),
                                seed: Some(*seed),
                            }
                            .prepare(size),
                        }),
                    }
                }
            });
        }
        let board = match converter {
            Converter::Ideal => None,
            Converter::Board { board, .. } => {
                Some((board.clone(), Build::parts(board, size, None)))
            }
        };
        Ok(PreparedConverter { stages, board })
    }
}

/// One converter at one resolution over the positions done.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Converter name.
    pub converter: String,
    /// Resolution.
    pub bits: u8,
    /// Decision positions read.
    pub decisions: u64,
    /// Count per verdict, in [`Verdict::ALL`] order.
    pub agree: u64,
    /// Exact ties broken differently.
    pub tie: u64,
    /// Lost to quantisation.
    pub quantisation: u64,
    /// Lost to the board's network.
    pub pullups: u64,
    /// Lost to the drawn parts.
    pub tolerance: u64,
    /// Lost to the converter's errors.
    pub adc: u64,
    /// Divergences (outside the tied set) per decision, with its 95 % interval.
    pub divergence: Rate,
    /// One LSB of this converter at this resolution, as a share of the supply.
    pub lsb_share_of_supply: f64,
    /// The smallest exact margin (best − runner-up) over the positions, as a share of the
    /// supply (the same at every resolution: it is the positions' own).
    pub min_margin_share_of_supply: Option<f64>,
    /// The same in LSB of this resolution.
    pub min_margin_lsb: Option<f64>,
    /// The largest exact drop difference a divergence gave away, as a share of the supply
    /// (comparable across resolutions).
    pub max_lost_share_of_supply: Option<f64>,
    /// The same in LSB of this resolution.
    pub max_lost_lsb: Option<f64>,
    /// The divergences that gave away most, largest first.
    pub worst: Vec<Worst>,
}

/// A divergent position, ready to replay.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Worst {
    /// Index in the position set.
    pub index: u32,
    /// Game record from the start (Cut first).
    pub record: String,
    /// The exact choice.
    pub exact_choice: String,
    /// The move from the codes.
    pub code_choice: String,
    /// Exact drop of the best edge minus that of the code choice, as a share of the supply.
    pub lost_share_of_supply: f64,
    /// The same in LSB of the row's resolution.
    pub lost_lsb: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// The command that shows it.
    pub replay: String,
}

/// The quantisation study's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The study.
    pub study: &'static str,
    /// Board size.
    pub size: u8,
    /// Seed of the boards' parts, converters and noise (and of random games).
    pub seed: u64,
    /// The position set.
    pub positions: String,
    /// Positions in the set.
    pub position_count: usize,
    /// Decision positions (Cut to move) in the set.
    pub decisions: usize,
    /// Decision positions read before the run ended.
    pub decisions_done: usize,
    /// Whether the run was stopped before the end.
    pub interrupted: bool,
    /// The classification rule, in words.
    pub rule: &'static str,
    /// Converters in column order.
    pub converters: Vec<String>,
    /// One row per converter and resolution.
    pub rows: Vec<Row>,
    /// Exact margins (best − runner-up) of the decisions done, as fractions of the supply,
    /// binned by log2 of the margin in LSB at 10 bits: bin k holds margins in
    /// [2^(k−8), 2^(k−7)) LSB; the first bin holds everything smaller, the last everything larger.
    pub margin_histogram_10bit: Vec<u64>,
    /// Decisions whose exact move is tied with another edge.
    pub exact_ties: u64,
}

/// The rule stated in reports.
pub const RULE: &str = "a move outside the exact tied set diverges; a board's divergence is \
blamed on the first counterfactual that already diverges: ideal network + ideal ADC at the \
board's LSB (quantisation), board network with nominal parts + ideal ADC (pullups), drawn \
parts + ideal ADC (tolerance), else the drawn ADC's offset/gain/INL/DNL/noise (adc)";

/// Bins of [`Report::margin_histogram_10bit`].
pub const MARGIN_BINS: usize = 20;

/// The resolution the margins' histogram counts LSB in.
pub const MARGIN_BITS: u8 = 10;

/// The log2 of the lower edge of bin 1, in LSB at [`MARGIN_BITS`]: bin k ≥ 1 holds margins in
/// [2^(k + MARGIN_LOW_EXP − 1), 2^(k + MARGIN_LOW_EXP)) LSB.
const MARGIN_LOW_EXP: i32 = -7;

/// The bin of [`Report::margin_histogram_10bit`] an exact margin (a share of the supply) falls in.
///
/// ```
/// use studies::quantisation::{margin_bin, margin_bin_edges};
/// // 1 LSB at 10 bits is the lower edge of bin 8; 1 LSB at 6 bits (16 LSB at 10) of bin 12.
/// assert_eq!(margin_bin(1.0 / 1024.0), 8);
/// assert_eq!(margin_bin_edges(12).0, 16.0);
/// assert_eq!(margin_bin(1e-9), 0);
/// ```
pub fn margin_bin(margin: f64) -> usize {
    let lsb = margin / super::lsb_share(MARGIN_BITS, 1.0);
    let bin = lsb.log2().floor() - f64::from(MARGIN_LOW_EXP) + 1.0;
    bin.clamp(0.0, (MARGIN_BINS - 1) as f64) as usize
}

/// The edges of bin `k` in LSB at [`MARGIN_BITS`]: [low, high); the first bin starts at 0 and
/// the last has no upper edge (infinite).
pub fn margin_bin_edges(k: usize) -> (f64, f64) {
    let edge = |k: usize| 2f64.powi(k as i32 + MARGIN_LOW_EXP - 1);
    let low = if k == 0 { 0.0 } else { edge(k) };
    let high = if k + 1 >= MARGIN_BINS {
        f64::INFINITY
    } else {
        edge(k + 1)
    };
    (low, high)
}

struct Accumulator {
    counts: [u64; 6],
    /// Shares of the supply.
    min_margin: Option<f64>,
    /// (drop given away as a share of the supply, position, move, verdict).
    worst: Vec<(f64, u32, Edge, Verdict)>,
}

/// One position's verdicts: per converter and stage, the verdict, the code move and the
/// drop it gave away (fraction of the supply).
type Verdicts = Vec<(Verdict, Edge, f64)>;

fn judge(
    position: &Position,
    truth: &Truth,
    exact: &ExactVoltages,
    prepared: &[PreparedConverter],
) -> Verdicts {
    let size = position.size();
    let mut out = Vec::new();
    for p in prepared {
        // The drawn board's volts are read at every resolution; the nominal board's, and the
        // ideal converter's move on the ideal network, only explain a divergence (about 1 % of
        // decisions), so they are worked out when one needs them.
        let drawn = p.stages[0].board.as_ref().map(|s| {
            // A network f64 cannot solve (a board far outside `boards::bounds`; the CLI
            // refuses those) reads as undefined, as a cut-off node does.
            s.reader
                .volts(position, exact)
                .unwrap_or_else(|_| vec![None; size.node_count()])
        });
        let mut nominal_volts: Option<Vec<Option<f64>>> = None;
        for stage in &p.stages {
            let quantised = || code_choice(position, &stage.quantiser, &truth.volts);
            let chosen = match (&stage.board, &drawn) {
                (Some(s), Some(drawn)) => code_move(position, &s.reader.codes(drawn)),
                _ => quantised(),
            };
            let Some(chosen) = chosen else { continue };
            let verdict = if truth.is_tied(size, chosen) {
                if chosen == truth.choice {
                    Verdict::Agree
                } else {
                    Verdict::Tie
                }
            } else {
                let counterfactuals = match (&stage.board, &drawn, &p.board) {
                    (Some(s), Some(drawn), Some((board, nominal_parts))) => {
                        let nominal = nominal_volts.get_or_insert_with(|| {
                            physical::game_volts(board, nominal_parts, position, PullupState::On)
                                .unwrap_or_else(|_| vec![None; size.node_count()])
                        });
                        Counterfactuals {
                            quantised: quantised(),
                            nominal: code_choice(position, &s.ideal, nominal),
                            drawn: code_choice(position, &s.ideal, drawn),
                        }
                    }
                    _ => Counterfactuals {
                        quantised: quantised(),
                        ..Counterfactuals::default()
                    },
                };
                match counterfactuals.cause(|e| !truth.is_tied(size, e)) {
                    Cause::Quantisation => Verdict::Quantisation,
                    Cause::Pullups => Verdict::Pullups,
                    Cause::Tolerance => Verdict::Tolerance,
                    Cause::Adc => Verdict::Adc,
                }
            };
            out.push((verdict, chosen, truth.shortfall(size, chosen)));
        }
    }
    out
}

/// Runs the study over the decision positions of `set`, writing one CSV row per position
/// that diverges somewhere to `positions_csv` as chunks finish. `worst` divergences are kept
/// per row.
pub fn run(
    set: &PositionSet,
    (converters, seed): (&[Converter], u64),
    bits: &[u8],
    worst: usize,
    control: &Control<'_>,
    positions_csv: &mut CsvWriter,
) -> Result<Report, StudyError> {
    let size = set.size();
    let prepared = converters
        .iter()
        .map(|c| PreparedConverter::new(c, bits, set))
        .collect::<Result<Vec<_>, _>>()?;
    let decisions = set.decisions();
    let columns = converters.len() * bits.len();
    let mut header = vec![
        "index".to_string(),
        "record".to_string(),
        "exact_choice".to_string(),
        "tied".to_string(),
    ];
    for c in converters {
        header.push(format!(
            "{} ({})",
            c.name(),
            bits.iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    positions_csv.row(&header)?;
    let mut acc: Vec<Accumulator> = (0..columns)
        .map(|_| Accumulator {
            counts: [0; 6],
            min_margin: None,
            worst: Vec::new(),
        })
        .collect();
    let mut histogram = vec![0u64; MARGIN_BINS];
    let mut exact_ties = 0;
    let mut done = 0;
    for chunk in decisions.chunks(CHUNK) {
        if control.stopped() {
            break;
        }
        let results: Vec<Option<(Truth, Verdicts)>> = chunk
            .par_iter()
            .map(|&i| {
                let position = &set.entries()[i as usize].position;
                let exact = exact::solve_model(position, heuristic::Model::Ideal);
                let truth = Truth::from_exact(position, &exact)?;
                let verdicts = judge(position, &truth, &exact, &prepared);
                Some((truth, verdicts))
            })
            .collect();
        for (&i, result) in chunk.iter().zip(results) {
            let Some((truth, verdicts)) = result else {
                continue;
            };
            if truth.tied.count_ones() > 1 {
                exact_ties += 1;
            }
            if let Some(margin) = truth.margin() {
                histogram[margin_bin(margin)] += 1;
            }
            for (column, &(verdict, chosen, lost)) in verdicts.iter().enumerate() {
                let a = &mut acc[column];
                a.counts[verdict.index()] += 1;
                if let Some(m) = truth.margin() {
                    a.min_margin = Some(a.min_margin.map_or(m, |x: f64| x.min(m)));
                }
                if verdict.diverges() {
                    a.worst.push((lost, i, chosen, verdict));
                    a.worst
                        .sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
                    a.worst.truncate(worst.max(1));
                }
            }
            if verdicts.iter().any(|v| v.0.diverges()) {
                let mut row = vec![
                    i.to_string(),
                    set.record(i),
                    truth.choice.to_string(),
                    tied_names(size, truth.tied).join(" "),
                ];
                for c in verdicts.chunks(bits.len()) {
                    row.push(c.iter().map(|v| v.0.letter()).collect());
                }
                positions_csv.row(&row)?;
            }
        }
        positions_csv.flush()?;
        done += chunk.len();
        (control.progress)(done as u64, decisions.len() as u64);
    }
    let mut rows = Vec::new();
    for (column, a) in acc.into_iter().enumerate() {
        let converter = &converters[column / bits.len()];
        let b = bits[column % bits.len()];
        let lsb_share = prepared[column / bits.len()].stages[column % bits.len()].lsb_share;
        let total: u64 = a.counts.iter().sum();
        let diverged: u64 = Verdict::ALL
            .iter()
            .filter(|v| v.diverges())
            .map(|v| a.counts[v.index()])
            .sum();
        let worst: Vec<Worst> = a
            .worst
            .iter()
            .take(worst)
            .map(|&(lost, index, chosen, verdict)| {
                let record = set.record(index);
                let truth_choice = set.entries()[index as usize].position.clone();
                let exact_choice = super::positions::heuristic_move(&truth_choice)
                    .map(|m| m.edge.to_string())
                    .unwrap_or_default();
                Worst {
                    index,
                    replay: format!(
                        "birdcage analyze --size {} --moves '{record}' {}",
                        size.get(),
                        converter.analyze_options(b)
                    ),
                    record,
                    exact_choice,
                    code_choice: chosen.to_string(),
                    lost_share_of_supply: lost,
                    lost_lsb: lost / lsb_share,
                    verdict,
                }
            })
            .collect();
        rows.push(Row {
            converter: converter.name(),
            bits: b,
            decisions: total,
            agree: a.counts[0],
            tie: a.counts[1],
            quantisation: a.counts[2],
            pullups: a.counts[3],
            tolerance: a.counts[4],
            adc: a.counts[5],
            divergence: Rate::new(diverged, total),
            lsb_share_of_supply: lsb_share,
            min_margin_share_of_supply: a.min_margin,
            min_margin_lsb: a.min_margin.map(|m| m / lsb_share),
            max_lost_share_of_supply: a.worst.first().map(|w| w.0),
            max_lost_lsb: a.worst.first().map(|w| w.0 / lsb_share),
            worst,
        });
    }
    Ok(Report {
        study: "quantisation",
        size: size.get(),
        seed,
        positions: set.description().to_string(),
        position_count: set.len(),
        decisions: decisions.len(),
        decisions_done: done,
        interrupted: done < decisions.len(),
        rule: RULE,
        converters: converters.iter().map(Converter::name).collect(),
        rows,
        margin_histogram_10bit: histogram,
        exact_ties,
    })
}

/// The edges of a tied mask, in reading order.
pub fn tied_names(size: heuristic::Size, tied: u128) -> Vec<String> {
    size.edges()
        .filter(|e| tied & (1 << e.index(size)) != 0)
        .map(|e| e.to_string())
        .collect()
}

/// Why a study could not run or write its data.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// A board value out of range (ADC bits).
    #[error(transparent)]
    Board(#[from] boards::ProfileError),
    /// Writing the data failed (the error names the file).
    #[error(transparent)]
    File(#[from] crate::report::FileError),
}

impl Report {
    /// The summary rows as CSV lines (header first).
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let mut out = vec![
            [
                "converter",
                "bits",
                "decisions",
                "agree",
                "tie",
                "quantisation",
                "pullups",
                "tolerance",
                "adc",
                "divergence_rate",
                "ci_low",
                "ci_high",
                "min_margin_lsb",
                "max_lost_lsb",
                "lsb_share_of_supply",
                "min_margin_share_of_supply",
                "max_lost_share_of_supply",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ];
        for r in &self.rows {
            out.push(vec![
                r.converter.clone(),
                r.bits.to_string(),
                r.decisions.to_string(),
                r.agree.to_string(),
                r.tie.to_string(),
                r.quantisation.to_string(),
                r.pullups.to_string(),
                r.tolerance.to_string(),
                r.adc.to_string(),
                fmt_f64(r.divergence.rate),
                fmt_f64(r.divergence.low),
                fmt_f64(r.divergence.high),
                r.min_margin_lsb.map(fmt_f64).unwrap_or_default(),
                r.max_lost_lsb.map(fmt_f64).unwrap_or_default(),
                fmt_f64(r.lsb_share_of_supply),
                r.min_margin_share_of_supply
                    .map(fmt_f64)
                    .unwrap_or_default(),
                r.max_lost_share_of_supply.map(fmt_f64).unwrap_or_default(),
            ]);
        }
        out
    }

    /// The margins' histogram as CSV lines (header first): each bin's edges in LSB at 10 bits
    /// and as shares of the supply (the last bin's upper edge is empty: unbounded), and its
    /// count; the numbers `margins.svg` draws.
    pub fn margin_csv_rows(&self) -> Vec<Vec<String>> {
        let mut out = vec![
            [
                "bin",
                "low_lsb_10bit",
                "high_lsb_10bit",
                "low_share_of_supply",
                "high_share_of_supply",
                "decisions",
            ]
            .map(String::from)
            .to_vec(),
        ];
        let lsb = super::lsb_share(MARGIN_BITS, 1.0);
        let edge = |v: f64| {
            if v.is_finite() {
                fmt_f64(v)
            } else {
                String::new()
            }
        };
        for (k, n) in self.margin_histogram_10bit.iter().enumerate() {
            let (low, high) = margin_bin_edges(k);
            out.push(vec![
                k.to_string(),
                edge(low),
                edge(high),
                edge(low * lsb),
                edge(high * lsb),
                n.to_string(),
            ]);
        }
        out
    }

    /// The caption of the plots: size, converters, seed and decisions read.
    pub fn caption(&self) -> String {
        super::plot::caption(
            self.size,
            &self.converters.join(", "),
            self.seed,
            &format!(
                "{} decisions",
                plot::integer_text(self.decisions_done as i64)
            ),
        )
    }

    /// The Markdown summary a person reads first.
    pub fn markdown(&self, command: &str) -> String {
        let mut md = String::new();
        md.push_str(&format!("# Quantisation study, M={}\n\n", self.size));
        md.push_str(&format!("Command: `{command}`\n\n"));
        md.push_str(&format!(
            "Positions: {} ({} positions, {} where Cut's heuristic decides; {} of those read{}). \
             {} decisions have an exact tie for the largest drop.\n\n",
            self.positions,
            self.position_count,
            self.decisions,
            self.decisions_done,
            if self.interrupted {
                ", INTERRUPTED: the figures cover only these"
            } else {
                ""
            },
            self.exact_ties
        ));
        md.push_str(&format!("Rule: {}.\n\n", self.rule));
        md.push_str("Margins and losses are given as a share of the supply, which compares across resolutions, \
            and in LSB of the row's resolution.\n\n");
        md.push_str("| converter | bits | divergence (95 % CI) | quantisation | pullups | tolerance | adc | benign ties | smallest margin: % of supply (LSB) | worst lost: % of supply (LSB) |\n");
        md.push_str("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        let share = |share: Option<f64>, lsb: Option<f64>| match (share, lsb) {
            (Some(s), Some(l)) => format!("{} ({} LSB)", percent_text(s), significant_text(l)),
            _ => "-".to_string(),
        };
        for r in &self.rows {
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                r.converter,
                r.bits,
                super::report::rate_text(&r.divergence),
                r.quantisation,
                r.pullups,
                r.tolerance,
                r.adc,
                r.tie,
                share(r.min_margin_share_of_supply, r.min_margin_lsb),
                share(r.max_lost_share_of_supply, r.max_lost_lsb),
            ));
        }
        md.push_str("\n## Worst positions\n\nThe divergence that gave away the largest exact drop, per converter and resolution; each line replays.\n\n");
        for r in &self.rows {
            if let Some(w) = r.worst.first() {
                md.push_str(&format!(
                    "- {} at {} bits: `{}` plays {} instead of {} ({} of the supply = {} LSB lost, {:?}): `{}`\n",
                    r.converter,
                    r.bits,
                    w.record,
                    w.code_choice,
                    w.exact_choice,
                    percent_text(w.lost_share_of_supply),
                    significant_text(w.lost_lsb),
                    w.verdict,
                    w.replay
                ));
            }
        }
        md.push_str("\nFiles: `quantisation.json` (everything), `quantisation.csv` (one row per converter and \
            resolution), `quantisation-positions.csv` (every position that diverges somewhere: one letter per \
            resolution, `.` agree, `b` exact tie broken differently, `q` quantisation, `p` pull-ups, `t` tolerance, \
            `a` ADC errors), `quantisation-margins.csv` (the exact margins' histogram), `divergence-vs-bits.svg`, \
            `lost-vs-bits.svg`, `margins.svg`.\n");
        md
    }
}

/// Writes `quantisation.csv` (one row per converter and resolution) and
/// `quantisation-margins.csv` (the exact margins' histogram).
pub fn write_tables(report: &Report, out: &Output) -> Result<(), crate::report::FileError> {
    out.csv_rows("quantisation.csv", &report.csv_rows())?;
    out.csv_rows("quantisation-margins.csv", &report.margin_csv_rows())
}

/// The resolutions marked on `margins.svg`: 1 LSB at each of them is a bin edge.
pub const MARKED_BITS: [u8; 6] = [6, 8, 10, 12, 14, 16];

/// `divergence-vs-bits.svg` (the divergence rate, one line per converter), `lost-vs-bits.svg`
/// (the largest drop a divergence gave away, as a share of the supply, with the size of one
/// LSB for scale) and `margins.svg` (the exact margins' histogram on a log count axis).
pub fn plots(report: &Report, out: &Output) -> plot::PlotResult {
    let caption = report.caption();
    let per_converter = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<Series> {
        report
            .converters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                Series::new(
                    c.clone(),
                    i,
                    report
                        .rows
                        .iter()
                        .filter(|r| &r.converter == c)
                        .map(|r| (f64::from(r.bits), f(r)))
                        .collect(),
                )
            })
            .collect()
    };
    plot::lines(
        &out.path("divergence-vs-bits.svg"),
        Title {
            title: "Moves outside the exact tied set",
            caption: &caption,
        },
        &[Panel {
            heading: "",
            axes: Axes {
                x: "ADC bits",
                y: "divergence (% of decisions)",
                x_scale: Scale::Integer,
                y_scale: Scale::Percent,
            },
            series: &per_converter(&|r| Some(r.divergence.rate)),
        }],
    )?;
    let mut lost = per_converter(&|r| r.max_lost_share_of_supply);
    for s in &mut lost {
        if s.points.iter().all(|p| p.1.is_none()) {
            s.name.push_str(" (no divergence)");
        }
    }
    let bits: Vec<u8> = report
        .rows
        .iter()
        .map(|r| r.bits)
        .collect::<std::collections::BTreeSet<u8>>()
        .into_iter()
        .collect();
    lost.push(
        Series::new(
            "1 LSB (ideal ADC)",
            6,
            bits.iter()
                .map(|&b| (f64::from(b), Some(super::lsb_share(b, 1.0))))
                .collect(),
        )
        .dashed(),
    );
    plot::lines(
        &out.path("lost-vs-bits.svg"),
        Title {
            title: "Largest drop a divergence gave away",
            caption: &caption,
        },
        &[Panel {
            heading: "",
            axes: Axes {
                x: "ADC bits",
                y: "drop given away (% of the supply, log scale)",
                x_scale: Scale::Integer,
                y_scale: Scale::LogPercent,
            },
            series: &lost,
        }],
    )?;
    let n = report.margin_histogram_10bit.len();
    let edges: Vec<String> = (0..=n)
        .map(|k| {
            if k == 0 {
                "0".to_string()
            } else if k == n {
                String::new()
            } else {
                let low = margin_bin_edges(k).0;
                if low >= 1.0 {
                    plot::integer_text(low as i64)
                } else {
                    format!("1/{}", (1.0 / low) as i64)
                }
            }
        })
        .collect();
    let marks: Vec<(usize, String)> = MARKED_BITS
        .iter()
        .filter_map(|&b| {
            let share = super::lsb_share(b, 1.0);
            let k = margin_bin(share);
            (margin_bin_edges(k).0 * super::lsb_share(MARGIN_BITS, 1.0) == share)
                .then(|| (k, format!("{b} bits")))
        })
        .collect();
    plot::histogram(
        &out.path("margins.svg"),
        Title {
            title: "Exact margin between the best and the runner-up",
            caption: &caption,
        },
        Axes {
            x: "margin in LSB at 10 bits (bin edges); dashed: 1 LSB at 6 … 16 bits",
            y: "decisions (log scale)",
            x_scale: Scale::Integer,
            y_scale: Scale::LogCount,
        },
        &edges,
        &report.margin_histogram_10bit,
        &marks,
    )
}
