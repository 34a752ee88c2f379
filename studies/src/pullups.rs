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
use serde::{Deserialize, Serialize};
use shards::ShardId;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

/// One topology and value (in a shard's part: over the boards the shard drew).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// What one shard of the study found: each case finished, in report order, over the boards
/// the shard drew (board k of every case belongs to shard k mod P). Counts and minima, so
/// the shards of a run merge exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PullupShard {
    /// Decisions of the set (the same in every shard).
    pub decisions: u64,
    /// The cases finished.
    pub cases: Vec<Case>,
}

impl PullupShard {
    /// Whether the shard finished every case (a stopped shard is not stored).
    pub fn finished(&self) -> bool {
        self.cases.len() == Topology::ALL.len() * RATIOS.len()
    }
}

impl Margins {
    fn merge(&mut self, other: &Margins) {
        self.readings += other.readings;
        self.misjudged += other.misjudged;
        self.min_codes = match (self.min_codes, other.min_codes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// The study's cases, how many boards each, and the seed of their parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// Boards drawn per case.
    pub boards: u64,
    /// Seed of the boards' parts.
    pub seed: u64,
}

/// The CSV file's columns.
const CSV_HEADER: [&str; 18] = [
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
];

/// One code of `board`'s ideal converter as a share of its supply.
fn code_share(board: &Board) -> f64 {
    super::lsb_share(board.adc.bits, board.reference_volts() / board.supply_volts)
}

impl Case {
    /// The case's CSV row, in [`CSV_HEADER`]'s order.
    fn csv(&self, code_share: f64) -> Vec<String> {
        let opt = |m: Option<i64>| m.map(|m| m.to_string()).unwrap_or_default();
        let share = |m: Option<i64>| {
            m.map(|m| fmt_f64(m as f64 * code_share))
                .unwrap_or_default()
        };
        vec![
            self.topology.name().to_string(),
            self.ratio.to_string(),
            self.boards.to_string(),
            fmt_f64(self.divergence.rate),
            fmt_f64(self.divergence.low),
            fmt_f64(self.divergence.high),
            self.nominal_divergences.to_string(),
            self.cut_at_most.to_string(),
            self.short_at_least.to_string(),
            opt(self.cut_won.min_codes),
            self.cut_won.misjudged.to_string(),
            opt(self.short_won.min_codes),
            self.short_won.misjudged.to_string(),
            opt(self.in_play.min_codes),
            self.in_play.misjudged.to_string(),
            share(self.cut_won.min_codes),
            share(self.short_won.min_codes),
            share(self.in_play.min_codes),
        ]
    }
}

/// Runs every topology and ratio; `profile` supplies the firmware's thresholds. Streams one
/// CSV row per case. The one-process run: [`run_shard`] of shard 1/1, then [`report`].
pub fn run(
    set: &PositionSet,
    (spec, board, profile): (&str, &Board, &Profile),
    boards: u64,
    seed: u64,
    control: &Control<'_>,
    csv: &mut CsvWriter,
) -> Result<Report, super::report::FileError> {
    let plan = Plan { boards, seed };
    let part = run_shard(
        set,
        (board, profile),
        &plan,
        control,
        ShardId::WHOLE,
        Some(csv),
    )?;
    report(set, (spec, board), &plan, vec![part], None)
}

/// Runs shard `shard` of the study: in every case, the boards it owns. `csv` (the
/// one-process run's) gets the header and each case's row as the case finishes, so a
/// killed run keeps them.
pub fn run_shard(
    set: &PositionSet,
    (board, profile): (&Board, &Profile),
    plan: &Plan,
    control: &Control<'_>,
    shard: ShardId,
    mut csv: Option<&mut CsvWriter>,
) -> Result<PullupShard, super::report::FileError> {
    let study = Readings::new(set, board);
    if let Some(csv) = csv.as_deref_mut() {
        csv.row(&CSV_HEADER)?;
    }
    let owned: Vec<u64> = (0..plan.boards).filter(|&k| shard.owns(k)).collect();
    let total = (Topology::ALL.len() * RATIOS.len()) as u64;
    let mut part = PullupShard {
        decisions: study.truths.len() as u64,
        cases: Vec::new(),
    };
    'all: for topology in Topology::ALL {
        for ratio in RATIOS {
            if control.stopped() {
                break 'all;
            }
            let case = study.case(profile, plan.seed, (topology, ratio), &owned);
            if let Some(csv) = csv.as_deref_mut() {
                csv.row(&case.csv(code_share(board)))?;
                csv.flush()?;
            }
            part.cases.push(case);
            (control.progress)(part.cases.len() as u64, total);
        }
    }
    Ok(part)
}

/// The study in one plain loop, every case over all its boards at once and the report made
/// from them directly: no shard, no part, no merge. The independent reference a merged
/// study is checked against (issue 49); it shares with [`run_shard`] only each case's
/// computation ([`Readings::case`]). Writes what [`write_report`] writes.
pub fn write_reference(
    set: &PositionSet,
    (spec, board): (&str, &Board),
    plan: &Plan,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let study = Readings::new(set, board);
    let all: Vec<u64> = (0..plan.boards).collect();
    let mut cases = Vec::new();
    for topology in Topology::ALL {
        for ratio in RATIOS {
            cases.push(study.case(profile(spec), plan.seed, (topology, ratio), &all));
        }
    }
    let mut csv = out.csv("pullups.csv")?;
    write_csv(&mut csv, &cases, board)?;
    let report = Report {
        header: Header::new("pullups", set, spec, board.adc.bits, plan.seed),
        position_count: set.len(),
        decisions: study.truths.len(),
        code_share_of_supply: code_share(board),
        interrupted: false,
        cases,
    };
    let summary = report.markdown(command, profile(spec).name);
    super::report::finish(out, "pullups", &report, summary, || report.plots(out))
}

/// The header and a row per case.
fn write_csv(
    csv: &mut CsvWriter,
    cases: &[Case],
    board: &Board,
) -> Result<(), super::report::FileError> {
    csv.row(&CSV_HEADER)?;
    for case in cases {
        csv.row(&case.csv(code_share(board)))?;
    }
    csv.flush()
}

/// What every case reads: the set's decisions with their exact voltages, and how many the
/// board's converter gets wrong on the ideal network.
struct Readings<'a> {
    set: &'a PositionSet,
    board: &'a Board,
    adc: Adc,
    truths: Vec<(usize, Truth)>,
    quantisation_alone: u64,
}

impl<'a> Readings<'a> {
    fn new(set: &'a PositionSet, board: &'a Board) -> Readings<'a> {
        let size = set.size();
        let adc = Adc::ideal(board.adc.bits, board.reference_volts());
        let truths: Vec<(usize, Truth)> = set
            .decisions()
            .par_iter()
            .filter_map(|&i| Some((i as usize, Truth::of(&set.entries()[i as usize].position)?)))
            .collect();
        let quantisation_alone = {
            let ratio_adc =
                Adc::ideal(board.adc.bits, board.reference_volts() / board.supply_volts);
            truths
                .iter()
                .filter(|(i, t)| {
                    let p = &set.entries()[*i].position;
                    code_choice(p, &ratio_adc, &t.volts).is_some_and(|e| !t.is_tied(size, e))
                })
                .count() as u64
        };
        Readings {
            set,
            board,
            adc,
            truths,
            quantisation_alone,
        }
    }

    /// One topology and pull-up ratio over the boards drawn from `seed` numbered `boards`.
    fn case(
        &self,
        profile: &Profile,
        seed: u64,
        (topology, ratio): (Topology, u32),
        boards: &[u64],
    ) -> Case {
        let (set, board, adc, truths) = (self.set, self.board, &self.adc, &self.truths);
        let size = set.size();
        let decisions = truths.len() as u64;
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
                        .and_then(|volts| code_choice(position, adc, &volts))
                        .is_some_and(|e| !t.is_tied(size, e))
                })
                .count() as u64
        };
        let per_board: Vec<(u64, Vec<Reading>)> = boards
            .par_iter()
            .map(|&k| {
                let parts = Build::parts(&b, size, Some(board_seed(seed, k)));
                let margins = set
                    .entries()
                    .iter()
                    .map(|e| {
                        let bottom =
                            physical::solve_on_cage(&b, &parts, &e.position, PullupState::Released)
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
            boards: boards.len() as u64,
            divergence: Rate::new(
                per_board.iter().map(|r| r.0).sum(),
                boards.len() as u64 * decisions,
            ),
            quantisation_alone: self.quantisation_alone,
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
        case
    }
}

/// The report from every shard's part (in shard order): each case's counts summed, its
/// margins' minima taken. A case some shard did not finish is left out (the report says
/// interrupted). `csv`: where to write the rows when [`run_shard`] did not stream them.
pub fn report(
    set: &PositionSet,
    (spec, board): (&str, &Board),
    plan: &Plan,
    parts: Vec<PullupShard>,
    csv: Option<&mut CsvWriter>,
) -> Result<Report, super::report::FileError> {
    let finished = parts.iter().map(|p| p.cases.len()).min().unwrap_or(0);
    let decisions = parts.first().map_or(0, |p| p.decisions);
    let mut cases: Vec<Case> = Vec::new();
    for part in parts {
        for (k, c) in part.cases.into_iter().take(finished).enumerate() {
            match cases.get_mut(k) {
                None => cases.push(c),
                Some(m) => {
                    m.boards += c.boards;
                    m.divergence.count += c.divergence.count;
                    m.cut_won.merge(&c.cut_won);
                    m.short_won.merge(&c.short_won);
                    m.in_play.merge(&c.in_play);
                }
            }
        }
    }
    for case in &mut cases {
        case.divergence = Rate::new(case.divergence.count, case.boards * decisions);
    }
    if let Some(csv) = csv {
        write_csv(csv, &cases, board)?;
    }
    Ok(Report {
        header: Header::new("pullups", set, spec, board.adc.bits, plan.seed),
        position_count: set.len(),
        decisions: decisions as usize,
        code_share_of_supply: code_share(board),
        interrupted: cases.len() < Topology::ALL.len() * RATIOS.len(),
        cases,
    })
}

/// The board profile whose firmware thresholds the study reads with: `spec`'s when it names
/// a built-in profile, else the Nucleo's.
pub fn profile(spec: &str) -> &'static Profile {
    boards::by_name(spec).unwrap_or(&boards::NUCLEO_F446RE)
}

/// Runs the study and writes `pullups.json`, `pullups.csv`, `pullups-divergence.svg`,
/// `pullups-margins.svg` and `summary.md`; returns the summary.
pub fn write(
    set: &PositionSet,
    (spec, board): (String, Board),
    plan: &Plan,
    control: &Control<'_>,
    out: &Output,
    command: &str,
) -> Result<String, super::report::WriteError> {
    let mut csv = out.csv("pullups.csv")?;
    let part = run_shard(
        set,
        (&board, profile(&spec)),
        plan,
        control,
        ShardId::WHOLE,
        Some(&mut csv),
    )?;
    write_report(set, (&spec, &board), plan, vec![part], out, command, true)
}

/// The files [`write`] writes, from every shard's part; `streamed`: `pullups.csv` was
/// written as the one process ran.
pub fn write_report(
    set: &PositionSet,
    (spec, board): (&str, &Board),
    plan: &Plan,
    parts: Vec<PullupShard>,
    out: &Output,
    command: &str,
    streamed: bool,
) -> Result<String, super::report::WriteError> {
    let mut csv = match streamed {
        true => None,
        false => Some(out.csv("pullups.csv")?),
    };
    let report = report(set, (spec, board), plan, parts, csv.as_mut())?;
    let summary = report.markdown(command, profile(spec).name);
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

/// The pull-up study as the shard model runs it: its shards are the boards drawn (board k of
/// every case belongs to shard k mod P).
#[derive(Debug)]
pub struct PullupStudy {
    set: PositionSet,
    spec: String,
    board: Board,
    plan: Plan,
    command: String,
}

impl crate::study::Study for PullupStudy {
    const NAME: &'static str = "pullups";
    const UNIT: &'static str = "cases";
    type Options = crate::study::CageOptions;
    type Shard = PullupShard;

    fn plan(options: &Self::Options, command: &str) -> Result<Self, crate::study::StudyError> {
        let (spec, board) = options.board_or_nucleo()?;
        let set = options.positions()?;
        let plan = Plan {
            boards: options.boards.unwrap_or(10),
            seed: options.seed,
        };
        Ok(PullupStudy {
            set,
            spec,
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
        rows: Option<&Output>,
    ) -> Result<PullupShard, crate::study::StudyError> {
        let mut csv = rows.map(|out| out.csv("pullups.csv")).transpose()?;
        Ok(run_shard(
            &self.set,
            (&self.board, profile(&self.spec)),
            &self.plan,
            control,
            id,
            csv.as_mut(),
        )?)
    }

    fn finished(&self, shard: &PullupShard, _: ShardId) -> bool {
        shard.finished()
    }

    fn shard_bytes(&self, shard: PullupShard) -> Result<Vec<u8>, crate::study::StudyError> {
        Ok(serde_json::to_vec(&shard)?)
    }

    fn read_shard(&self, bytes: &[u8]) -> Result<PullupShard, crate::study::StudyError> {
        crate::study::from_json(bytes)
    }

    fn write_report(
        &self,
        shards: Vec<PullupShard>,
        out: &Output,
        streamed: bool,
    ) -> Result<String, crate::study::StudyError> {
        Ok(write_report(
            &self.set,
            (&self.spec, &self.board),
            &self.plan,
            shards,
            out,
            &self.command,
            streamed,
        )?)
    }

    fn write_reference(&self, out: &Output) -> Result<String, crate::study::StudyError> {
        Ok(write_reference(
            &self.set,
            (&self.spec, &self.board),
            &self.plan,
            out,
            &self.command,
        )?)
    }
}
