//! Quantisation study: for every decision position and every resolution, the move the
//! heuristic makes from ADC codes against the exact tied set, each divergence classified.
//!
//! The computation (converters, judgements, causes, the tally) is
//! [`emulator::quantisation`], beside the ADC model it studies, where `cargo test -p
//! emulator` runs it; this module runs it over a [`PositionSet`] in parallel chunks that
//! Ctrl-C can stop, and reports: [`report`] (JSON, CSV, Markdown) and [`plots`] (SVG).
//!
//! A move outside the exact tied set is a divergence, blamed on the first counterfactual
//! that already diverges ([`RULE`]); a move inside it but not the exact choice is an exact
//! tie broken differently (**tie**, benign).

mod plots;
mod report;

pub use emulator::quantisation::{
    Converter, MARGIN_BINS, MARGIN_BITS, margin_bin, margin_bin_edges,
};
/// The judgement of one move ([`emulator::verdict::Judgement`]), serialized in lower case.
pub use emulator::verdict::Judgement as Verdict;
pub use plots::{MARKED_BITS, plots};
pub use report::{Report, Row, Worst, write_tables};

use rayon::prelude::*;

use super::positions::PositionSet;
use super::report::CsvWriter;
use super::stats::Rate;
use super::{CHUNK, Control};
use emulator::quantisation::{Decision, Study, Tally};

/// The rule stated in reports.
pub const RULE: &str = "a move outside the exact tied set diverges; a board's divergence is \
blamed on the first counterfactual that already diverges: ideal network + ideal ADC at the \
board's LSB (quantisation), board network with nominal parts + ideal ADC (pullups), drawn \
parts + ideal ADC (tolerance), else the drawn ADC's offset/gain/INL/DNL/noise (adc)";

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
    let study = Study::new(converters, bits, size)?;
    let decisions = set.decisions();
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
    let mut tally = Tally::new(study.columns(), worst);
    let mut done = 0;
    for chunk in decisions.chunks(CHUNK) {
        if control.stopped() {
            break;
        }
        let results: Vec<Option<Decision>> = chunk
            .par_iter()
            .map(|&i| study.read(&set.entries()[i as usize].position))
            .collect();
        for (&i, decision) in chunk.iter().zip(results) {
            let Some(decision) = decision else {
                continue;
            };
            tally.add(i, &decision);
            if decision.readings.iter().any(|r| r.judgement.diverges()) {
                let truth = &decision.truth;
                let mut row = vec![
                    i.to_string(),
                    set.record(i),
                    truth.choice.to_string(),
                    tied_names(size, truth.tied).join(" "),
                ];
                for c in decision.readings.chunks(bits.len()) {
                    row.push(c.iter().map(|r| r.judgement.letter()).collect());
                }
                positions_csv.row(&row)?;
            }
        }
        positions_csv.flush()?;
        done += chunk.len();
        (control.progress)(done as u64, decisions.len() as u64);
    }
    let mut rows = Vec::new();
    for (column, a) in tally.columns.iter().enumerate() {
        let converter = &converters[column / bits.len()];
        let b = bits[column % bits.len()];
        let lsb_share = study.lsb_share(column);
        let total = a.decisions();
        let worst: Vec<Worst> = a
            .worst
            .iter()
            .take(worst)
            .map(|w| {
                let record = set.record(w.index);
                let exact_choice =
                    super::positions::heuristic_move(&set.entries()[w.index as usize].position)
                        .map(|m| m.edge.to_string())
                        .unwrap_or_default();
                Worst {
                    index: w.index,
                    replay: format!(
                        "birdcage analyze --size {} --moves '{record}' {}",
                        size.get(),
                        converter.analyze_options(b)
                    ),
                    record,
                    exact_choice,
                    code_choice: w.chosen.to_string(),
                    lost_share_of_supply: w.lost,
                    lost_lsb: w.lost / lsb_share,
                    verdict: w.judgement,
                }
            })
            .collect();
        let count = |j: usize| a.count(Verdict::ALL[j]);
        rows.push(Row {
            converter: converter.name(),
            bits: b,
            decisions: total,
            agree: count(0),
            tie: count(1),
            quantisation: count(2),
            pullups: count(3),
            tolerance: count(4),
            adc: count(5),
            divergence: Rate::new(a.diverged(), total),
            lsb_share_of_supply: lsb_share,
            min_margin_share_of_supply: a.min_margin,
            min_margin_lsb: a.min_margin.map(|m| m / lsb_share),
            max_lost_share_of_supply: a.worst.first().map(|w| w.lost),
            max_lost_lsb: a.worst.first().map(|w| w.lost / lsb_share),
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
        margin_histogram_10bit: tally.margin_histogram,
        exact_ties: tally.exact_ties,
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
