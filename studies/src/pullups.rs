//! Pull-up study: pull-up value (10R .. 1000R) and topology (the MCU's internal pull-ups, one
//! switched resistor per node, one shared rail driven low when released), on two things:
//!
//! - decisions: boards with their parts drawn from the board's tolerance, pull-ups on, read
//!   through an ideal converter at the board's resolution; a move outside the exact tied set
//!   of the `ideal` network diverges. The same converter on the ideal network gives the part
//!   quantisation alone would cause;
//! - the game-over reading: every position of the set with the pull-ups released, the bottom
//!   terminal's code against the firmware's own thresholds
//!   ([`firmware::GameOverThresholds::derive`] for the board's profile with that pull-up):
//!   the margin in codes (how far inside its band the reading stays; negative = misjudged).

use boards::{Profile, RailRelease};
use heuristic::{Node, Side};
use rayon::prelude::*;
use serde::Serialize;

use super::positions::PositionSet;
use super::report::{CsvWriter, Header, Output, fmt_f64, rate_text};
use super::stats::Rate;
use super::tolerance::board_seed;
use super::{Control, Truth, code_choice};
use emulator::physical::{self, Adc, Board, Build, Parts, PullupState, Pullups};

/// One game-over reading: who has won, and the margin in codes.
type Reading = (Option<Side>, i64);

/// Pull-up values studied, in units of the cage resistor R.
pub const RATIOS: [u32; 8] = [10, 20, 30, 50, 100, 200, 500, 1000];

/// The three topologies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topology {
    /// The MCU's own: each anywhere in 20/35 .. 50/35 of the value (the AVR's 20..50 kΩ
    /// around 35 kΩ), released by reconfiguring the pin.
    Internal,
    /// One external resistor per node on its own GPIO; released = open.
    PerNode,
    /// One rail feeds every pull-up; released = rail driven low (pull-downs).
    SharedRail,
}

impl Topology {
    /// All three, in report order.
    pub const ALL: [Topology; 3] = [Topology::Internal, Topology::PerNode, Topology::SharedRail];

    /// Name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Internal => "internal",
            Topology::PerNode => "per-node",
            Topology::SharedRail => "shared-rail",
        }
    }

    /// The board's pull-ups of this topology and value.
    pub fn pullups(self, ohms: f64) -> Pullups {
        match self {
            Topology::Internal => Pullups::Internal {
                min_ohms: ohms * 20.0 / 35.0,
                max_ohms: ohms * 50.0 / 35.0,
            },
            Topology::PerNode => Pullups::PerNode { ohms },
            Topology::SharedRail => Pullups::SharedRail {
                ohms,
                released: RailRelease::DrivenLow,
            },
        }
    }
}

/// Margins of the game-over reading for one kind of position.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Margins {
    /// Readings (positions × boards).
    pub readings: u64,
    /// Readings judged wrongly (margin below 0).
    pub misjudged: u64,
    /// The smallest margin in codes.
    pub min_codes: Option<i64>,
}

impl Margins {
    fn add(&mut self, margin: i64) {
        self.readings += 1;
        if margin < 0 {
            self.misjudged += 1;
        }
        self.min_codes = Some(self.min_codes.map_or(margin, |m| m.min(margin)));
    }
}

/// One topology and value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Case {
    /// Topology.
    pub topology: Topology,
    /// Pull-up / R.
    pub ratio: u32,
    /// Boards drawn.
    pub boards: u64,
    /// Decisions × boards outside the exact tied set.
    pub divergence: Rate,
    /// Decisions the same converter gets wrong on the ideal network (quantisation alone).
    pub quantisation_alone: u64,
    /// Decisions whose move is outside the tied set on the nominal board.
    pub nominal_divergences: u64,
    /// Firmware thresholds: codes at or below = Cut has won.
    pub cut_at_most: u16,
    /// Codes at or above = Short has won.
    pub short_at_least: u16,
    /// Game-over reading: positions Cut has won (margin = threshold − code).
    pub cut_won: Margins,
    /// Positions Short has won (margin = code − threshold).
    pub short_won: Margins,
    /// Positions still in play (margin = distance inside the play-on band).
    pub in_play: Margins,
}

/// The study's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Study, size, board, resolution, seed and position set.
    #[serde(flatten)]
    pub header: Header,
    /// Positions read for the game-over margins.
    pub position_count: usize,
    /// Decisions.
    pub decisions: usize,
    /// One code of the converter as a share of the supply: margins in codes times this are
    /// the `*_min_margin_share_of_supply` columns.
    pub code_share_of_supply: f64,
    /// Whether the run was stopped before the end.
    pub interrupted: bool,
    /// Cases done.
    pub cases: Vec<Case>,
}

/// Runs every topology and ratio; `profile` supplies the firmware's thresholds. Streams one
/// CSV row per case.
pub fn run(
    set: &PositionSet,
    (spec, board, profile): (&str, &Board, &Profile),
    boards: u64,
    seed: u64,
    control: &Control<'_>,
    csv: &mut CsvWriter,
) -> Result<Report, super::report::FileError> {
    let size = set.size();
    let adc = Adc::ideal(board.adc.bits, board.reference_volts());
    let code_share = super::lsb_share(board.adc.bits, board.reference_volts() / board.supply_volts);
    let truths: Vec<(usize, Truth)> = set
        .decisions()
        .par_iter()
        .filter_map(|&i| Some((i as usize, Truth::of(&set.entries()[i as usize].position)?)))
        .collect();
    let quantised_alone = {
        let ratio_adc = Adc::ideal(board.adc.bits, board.reference_volts() / board.supply_volts);
        truths
            .iter()
            .filter(|(i, t)| {
                let p = &set.entries()[*i].position;
                code_choice(p, &ratio_adc, &t.volts).is_some_and(|e| !t.is_tied(size, e))
            })
            .count() as u64
    };
    csv.row(&[
        "topology",
        "ratio",
        "boards",
        "divergence_rate",
        "ci_low",
        "ci_high",
        "nominal_divergences",
        "cut_at_most",
        "short_at_least",
        "cut_won_min_margin",
        "cut_won_misjudged",
        "short_won_min_margin",
        "short_won_misjudged",
        "in_play_min_margin",
        "in_play_misjudged",
        "cut_won_min_margin_share_of_supply",
        "short_won_min_margin_share_of_supply",
        "in_play_min_margin_share_of_supply",
    ])?;
    let total = (Topology::ALL.len() * RATIOS.len()) as u64;
    let mut cases = Vec::new();
    'all: for topology in Topology::ALL {
        for ratio in RATIOS {
            if control.stopped() {
                break 'all;
            }
            let ohms = board.resistor_ohms * f64::from(ratio);
            let mut b = board.clone();
            b.pullups = topology.pullups(ohms);
            let mut p = *profile;
            p.pullups = boards::Pullups::InternalAlwaysOn {
                min_ohms: ohms.round() as u32,
                max_ohms: ohms.round() as u32,
            };
            let thresholds = firmware::GameOverThresholds::derive(&p, size);
            let nominal = Build::parts(&b, size, None);
            let diverges = |parts: &Parts| -> u64 {
                truths
                    .iter()
                    .filter(|(i, t)| {
                        let position = &set.entries()[*i].position;
                        physical::game_volts(&b, parts, position, PullupState::On)
                            .ok()
                            .and_then(|volts| code_choice(position, &adc, &volts))
                            .is_some_and(|e| !t.is_tied(size, e))
                    })
                    .count() as u64
            };
            let per_board: Vec<(u64, Vec<Reading>)> = (0..boards)
                .into_par_iter()
                .map(|k| {
                    let parts = Build::parts(&b, size, Some(board_seed(seed, k)));
                    let margins = set
                        .entries()
                        .iter()
                        .map(|e| {
                            let bottom = physical::solve_on_cage(
                                &b,
                                &parts,
                                &e.position,
                                PullupState::Released,
                            )
                            .ok()
                            .and_then(|v| v.volts(Node::Bottom));
                            let code = i64::from(bottom.map_or(0, |v| adc.transfer(v)));
                            let (cut, short) = (
                                i64::from(thresholds.cut_at_most),
                                i64::from(thresholds.short_at_least),
                            );
                            let winner = e.position.winner();
                            let margin = match winner {
                                Some(Side::Cut) => cut - code,
                                Some(Side::Short) => code - short,
                                None => (code - cut - 1).min(short - 1 - code),
                            };
                            (winner, margin)
                        })
                        .collect();
                    (diverges(&parts), margins)
                })
                .collect();
            let mut case = Case {
                topology,
                ratio,
                boards,
                divergence: Rate::new(
                    per_board.iter().map(|r| r.0).sum(),
                    boards * truths.len() as u64,
                ),
                quantisation_alone: quantised_alone,
                nominal_divergences: diverges(&nominal),
                cut_at_most: thresholds.cut_at_most,
                short_at_least: thresholds.short_at_least,
                cut_won: Margins::default(),
                short_won: Margins::default(),
                in_play: Margins::default(),
            };
            for (_, margins) in &per_board {
                for &(winner, m) in margins {
                    match winner {
                        Some(Side::Cut) => case.cut_won.add(m),
                        Some(Side::Short) => case.short_won.add(m),
                        None => case.in_play.add(m),
                    }
                }
            }
            let opt = |m: Option<i64>| m.map(|m| m.to_string()).unwrap_or_default();
            let share = |m: Option<i64>| {
                m.map(|m| fmt_f64(m as f64 * code_share))
                    .unwrap_or_default()
            };
            csv.row(&[
                topology.name().to_string(),
                ratio.to_string(),
                boards.to_string(),
                fmt_f64(case.divergence.rate),
                fmt_f64(case.divergence.low),
                fmt_f64(case.divergence.high),
                case.nominal_divergences.to_string(),
                case.cut_at_most.to_string(),
                case.short_at_least.to_string(),
                opt(case.cut_won.min_codes),
                case.cut_won.misjudged.to_string(),
                opt(case.short_won.min_codes),
                case.short_won.misjudged.to_string(),
                opt(case.in_play.min_codes),
                case.in_play.misjudged.to_string(),
                share(case.cut_won.min_codes),
                share(case.short_won.min_codes),
                share(case.in_play.min_codes),
            ])?;
            csv.flush()?;
            cases.push(case);
            (control.progress)(cases.len() as u64, total);
        }
    }
    Ok(Report {
        header: Header::new("pullups", set, spec, board.adc.bits, seed),
        position_count: set.len(),
        decisions: truths.len(),
        code_share_of_supply: code_share,
        interrupted: (cases.len() as u64) < total,
        cases,
    })
}

/// Runs the study and writes `pullups.json`, `pullups.csv`, `pullups-divergence.svg`,
/// `pullups-margins.svg` and `summary.md`; returns the summary.
pub fn write(
    set: &PositionSet,
    (spec, board): (String, Board),
    boards: u64,
    seed: u64,
    control: &Control<'_>,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let profile = boards::by_name(&spec).unwrap_or(&boards::NUCLEO_F446RE);
    let mut csv = out.csv("pullups.csv")?;
    let report = run(
        set,
        (&spec, &board, profile),
        boards,
        seed,
        control,
        &mut csv,
    )?;
    let summary = report.markdown(command, profile.name);
    super::report::finish(out, "pullups", &report, summary, || report.plots(out))
}

impl Report {
    /// The Markdown summary; `profile` names where the thresholds came from.
    pub fn markdown(&self, command: &str, profile: &str) -> String {
        let mut md = format!(
            "# Pull-up study, M={}\n\nCommand: `{command}`\n\nBoard {} ({} boards per case, parts drawn from seed {}), \
             ideal {}-bit converter. Positions: {} ({} positions, {} decisions).{}\n\n\
             Decisions: pull-ups on, a move outside the exact tied set of the ideal network diverges \
             (the same converter on the ideal network alone gets {} wrong: quantisation). Game-over reading: \
             pull-ups released, bottom terminal against the firmware's thresholds for the {} profile with that \
             pull-up; margin in codes (one code is {} of the supply), negative = misjudged.\n\n",
            self.header.size,
            self.header.board,
            self.cases.first().map_or(0, |c| c.boards),
            self.header.seed,
            self.header.adc_bits,
            self.header.positions,
            self.position_count,
            self.decisions,
            if self.interrupted {
                " INTERRUPTED: only the cases listed were finished."
            } else {
                ""
            },
            self.cases.first().map_or(0, |c| c.quantisation_alone),
            profile,
            super::report::percent_text(self.code_share_of_supply),
        );
        md.push_str("| topology | pull-up | decisions diverging (95 % CI) | nominal board | thresholds (Cut ≤, Short ≥) | Cut won: min margin / misjudged | Short won | in play |\n");
        md.push_str("| --- | ---: | --- | ---: | --- | --- | --- | --- |\n");
        let m = |m: &Margins| {
            format!(
                "{} / {}",
                m.min_codes.map_or("-".into(), |c| c.to_string()),
                m.misjudged
            )
        };
        for c in &self.cases {
            md.push_str(&format!(
                "| {} | {}R | {} | {} | {}, {} | {} | {} | {} |\n",
                c.topology.name(),
                c.ratio,
                rate_text(&c.divergence),
                c.nominal_divergences,
                c.cut_at_most,
                c.short_at_least,
                m(&c.cut_won),
                m(&c.short_won),
                m(&c.in_play),
            ));
        }
        md.push_str("\nFiles: `pullups.json`, `pullups.csv` (one row per case), `pullups-divergence.svg` (divergence \
            against the pull-up value), `pullups-margins.svg` (smallest game-over margin against the value).\n");
        md
    }

    /// The two plots: `pullups-divergence.svg` (the CSV's `divergence_rate`) and
    /// `pullups-margins.svg` (`in_play_min_margin` and `cut_won_min_margin`, in codes), a
    /// colour and marker per topology.
    pub fn plots(&self, out: &Output) -> super::plot::PlotResult {
        use super::plot::{Axes, Panel, Scale, Series, Title};
        let series = |f: &dyn Fn(&Case) -> Option<f64>, label: &str| -> Vec<Series> {
            Topology::ALL
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    Series::new(
                        format!("{} {label}", t.name()).trim_end(),
                        i,
                        self.cases
                            .iter()
                            .filter(|c| c.topology == *t)
                            .map(|c| (f64::from(c.ratio), f(c)))
                            .collect(),
                    )
                })
                .collect()
        };
        let caption = self.header.caption(&format!(
            "ideal {}-bit ADC · {} boards per case",
            self.header.adc_bits,
            self.cases.first().map_or(0, |c| c.boards)
        ));
        super::plot::lines(
            &out.path("pullups-divergence.svg"),
            Title {
                title: "Decisions outside the exact tied set",
                caption: &caption,
            },
            &[Panel {
                heading: "",
                axes: Axes {
                    x: "pull-up / R (log scale)",
                    y: "divergence (% of decisions × boards)",
                    x_scale: Scale::Log,
                    y_scale: Scale::Percent,
                },
                series: &series(&|c| Some(c.divergence.rate), ""),
            }],
        )?;
        let mut margins = series(&|c| c.in_play.min_codes.map(|m| m as f64), "in play");
        margins.extend(
            series(&|c| c.cut_won.min_codes.map(|m| m as f64), "Cut won")
                .into_iter()
                .map(Series::dashed),
        );
        super::plot::lines(
            &out.path("pullups-margins.svg"),
            Title {
                title: "Smallest game-over margin",
                caption: &caption,
            },
            &[Panel {
                heading: "",
                axes: Axes {
                    x: "pull-up / R (log scale)",
                    y: "margin (codes)",
                    x_scale: Scale::Log,
                    y_scale: Scale::Integer,
                },
                series: &margins,
            }],
        )
    }
}
