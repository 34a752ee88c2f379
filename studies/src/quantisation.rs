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

use std::io;

use heuristic::{Edge, Position};
use rayon::prelude::*;
use serde::Serialize;

use super::positions::PositionSet;
use super::report::{CsvWriter, fmt_f64};
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
    /// LSB per unit of the supply: 2^bits · supply / reference.
    lsb: f64,
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
                    lsb: f64::from(1u32 << b),
                    quantiser: Adc::ideal(b, 1.0),
                    board: None,
                },
                Converter::Board { board, seed, .. } => {
                    let board = board.as_ref().clone().with_adc_bits(b)?;
                    let ratio = board.reference_volts() / board.supply_volts;
                    Stage {
                        lsb: f64::from(1u32 << b) / ratio,
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
    /// The smallest exact margin (best − runner-up) over the positions, in LSB.
    pub min_margin_lsb: Option<f64>,
    /// The largest exact drop difference a divergence gave away, in LSB.
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
    /// Exact drop of the best edge minus that of the code choice, in LSB.
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

struct Accumulator {
    counts: [u64; 6],
    min_margin: Option<f64>,
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
        let drawn = p.stages[0]
            .board
            .as_ref()
            .map(|s| s.reader.volts(position, exact));
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
    converters: &[Converter],
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
                let lsb10 = margin * 1024.0;
                let bin = (lsb10.log2().floor() + 8.0).clamp(0.0, (MARGIN_BINS - 1) as f64);
                histogram[bin as usize] += 1;
            }
            for (column, &(verdict, chosen, lost)) in verdicts.iter().enumerate() {
                let a = &mut acc[column];
                let lsb = prepared[column / bits.len()].stages[column % bits.len()].lsb;
                a.counts[verdict.index()] += 1;
                if let Some(m) = truth.margin() {
                    let m = m * lsb;
                    a.min_margin = Some(a.min_margin.map_or(m, |x: f64| x.min(m)));
                }
                if verdict.diverges() {
                    a.worst.push((lost * lsb, i, chosen, verdict));
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
                    lost_lsb: lost,
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
            min_margin_lsb: a.min_margin,
            max_lost_lsb: a.worst.first().map(|w| w.0),
            worst,
        });
    }
    Ok(Report {
        study: "quantisation",
        size: size.get(),
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
    /// Writing the data failed.
    #[error("writing the study's data: {0}")]
    Io(#[from] io::Error),
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
            ]);
        }
        out
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
        md.push_str("| converter | bits | divergence (95 % CI) | quantisation | pullups | tolerance | adc | benign ties | smallest margin (LSB) | worst lost (LSB) |\n");
        md.push_str("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
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
                r.min_margin_lsb.map_or("-".into(), |m| format!("{m:.4}")),
                r.max_lost_lsb.map_or("-".into(), |m| format!("{m:.4}")),
            ));
        }
        md.push_str("\n## Worst positions\n\nThe divergence that gave away the largest exact drop, per converter and resolution; each line replays.\n\n");
        for r in &self.rows {
            if let Some(w) = r.worst.first() {
                md.push_str(&format!(
                    "- {} at {} bits: `{}` plays {} instead of {} ({:.3} LSB lost, {:?}): `{}`\n",
                    r.converter,
                    r.bits,
                    w.record,
                    w.code_choice,
                    w.exact_choice,
                    w.lost_lsb,
                    w.verdict,
                    w.replay
                ));
            }
        }
        md.push_str("\nFiles: `quantisation.json` (everything), `quantisation.csv` (one row per converter and \
            resolution), `quantisation-positions.csv` (every position that diverges somewhere: one letter per \
            resolution, `.` agree, `b` exact tie broken differently, `q` quantisation, `p` pull-ups, `t` tolerance, \
            `a` ADC errors), `divergence-vs-bits.svg`, `margins.svg`.\n");
        md
    }
}

/// `divergence-vs-bits.svg` (one line per converter) and `margins.svg` (the exact margins'
/// histogram).
pub fn plots(report: &Report, out: &super::report::Output) -> super::plot::PlotResult {
    let series: Vec<super::plot::Series> = report
        .converters
        .iter()
        .map(|c| super::plot::Series {
            name: c.clone(),
            points: report
                .rows
                .iter()
                .filter(|r| &r.converter == c)
                .map(|r| (f64::from(r.bits), 100.0 * r.divergence.rate))
                .collect(),
        })
        .collect();
    super::plot::lines(
        &out.path("divergence-vs-bits.svg"),
        super::plot::Axes {
            title: &format!("M={}: moves outside the exact tied set", report.size),
            x: "ADC bits",
            y: "divergence rate (%)",
            log_x: false,
        },
        &series,
    )?;
    let bins: Vec<(String, u64)> = report
        .margin_histogram_10bit
        .iter()
        .enumerate()
        .map(|(k, &n)| (format!("2^{}", k as i32 - 8), n))
        .collect();
    super::plot::histogram(
        &out.path("margins.svg"),
        super::plot::Axes {
            title: "Exact margin best - runner-up, in LSB at 10 bits",
            x: "margin (LSB at 10 bits, bin lower edge)",
            y: "decisions",
            log_x: false,
        },
        &bins,
    )
}
