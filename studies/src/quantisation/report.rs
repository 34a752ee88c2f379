//! What the quantisation study reports: per converter and resolution, the counts of each
//! judgement, the divergence rate, margins and losses, and the worst divergences ready to
//! replay; as JSON (serde), CSV and Markdown.

use serde::Serialize;

use super::Verdict;
use crate::plot;
use crate::report::{Output, fmt_f64, percent_text, significant_text};
use crate::stats::Rate;
use emulator::quantisation::{MARGIN_BITS, lsb_share, margin_bin_edges};

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
        let lsb = lsb_share(MARGIN_BITS, 1.0);
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
        plot::caption(
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
                crate::report::rate_text(&r.divergence),
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
                    "- {} at {} bits: `{}` plays {} instead of {} ({} of the supply = {} LSB lost, {}): `{}`\n",
                    r.converter,
                    r.bits,
                    w.record,
                    w.code_choice,
                    w.exact_choice,
                    percent_text(w.lost_share_of_supply),
                    significant_text(w.lost_lsb),
                    w.verdict.name(),
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
