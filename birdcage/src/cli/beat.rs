//! `birdcage beat`: can a Short strategy always beat Shannon's machine?

use anyhow::Result;
use clap::{Args, ValueEnum};
use emulator::beat::{BeatReport, Ties};
use heuristic::{Model, Record, Side, Size};
use serde::Serialize;

use super::progress::Progress;
use super::{Format, parse_model, parse_size};

/// How the machine breaks exact ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TiesArg {
    /// The first tied resistor in reading order, as the original did.
    ReadingOrder,
    /// Any tied resistor: Short must win whatever the machine picks.
    Any,
}

impl From<TiesArg> for Ties {
    fn from(t: TiesArg) -> Ties {
        match t {
            TiesArg::ReadingOrder => Ties::ReadingOrder,
            TiesArg::Any => Ties::Any,
        }
    }
}

/// Search for a Short strategy that beats the heuristic every time (Cut moves first).
#[derive(Args, Debug)]
pub struct Cmd {
    /// Board size M (2..=8).
    #[arg(long, short = 's', value_name = "M", value_parser = parse_size, allow_negative_numbers = true)]
    size: Size,
    /// Network the machine measures: ideal or reference.
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = parse_model)]
    network: Model,
    /// How the machine breaks exact ties.
    #[arg(long, value_enum, default_value_t = TiesArg::ReadingOrder)]
    ties: TiesArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The JSON document; the field order is the key order.
#[derive(Serialize)]
struct Json {
    size: u8,
    network: &'static str,
    ties: &'static str,
    beatable: bool,
    line: String,
    strategy_positions: usize,
    unbeaten_openings: Vec<String>,
    searched: usize,
}

/// The line as a game record (Cut opens every game `beat` searches).
fn record(report: &BeatReport) -> Result<String> {
    Ok(Record::from_moves(Side::Cut, &report.line)?.to_string())
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let progress = Progress::counted(format!("beat {}", self.size), "positions", None);
        let report = emulator::beat::beat_with_progress(
            self.size,
            self.network,
            self.ties.into(),
            &mut |p| {
                progress.set(p.searched as u64);
                progress.note(format!("Short budget {} of {} moves", p.budget, p.most));
            },
        );
        progress.finish(&format!(
            "{} positions searched; {}",
            indicatif::HumanCount(report.searched as u64),
            if report.beatable {
                "beatable"
            } else {
                "not beatable"
            }
        ));
        let openings: Vec<String> = report
            .unbeaten_openings
            .iter()
            .map(ToString::to_string)
            .collect();
        Ok(match self.format {
            Format::Json => {
                let json = Json {
                    size: report.size.get(),
                    network: report.model.name(),
                    ties: report.ties.name(),
                    beatable: report.beatable,
                    line: record(&report)?,
                    strategy_positions: report.strategy_positions,
                    unbeaten_openings: openings,
                    searched: report.searched,
                };
                serde_json::to_string_pretty(&json)? + "\n"
            }
            Format::Text => {
                let mut out = format!(
                    "{}, {} network, ties: {}\n",
                    report.size,
                    report.model,
                    report.ties.name()
                );
                if report.beatable {
                    out.push_str(&format!(
                        "Beatable: Short wins every game with a strategy of {} positions.\n",
                        report.strategy_positions
                    ));
                } else {
                    out.push_str("Not beatable: no Short strategy wins every game.\n");
                }
                if !openings.is_empty() {
                    out.push_str(&format!(
                        "Openings after which the machine cannot be beaten: {}\n",
                        openings.join(" ")
                    ));
                }
                out.push_str(&format!("Line: {}\n", record(&report)?));
                out.push_str(&format!("Positions searched: {}\n", report.searched));
                out
            }
        })
    }
}
