//! What `birdcage analyze` reports about a position: every edge's exact drop, the
//! heuristic's choice and the edges tied with it; with a [`Reader`], also what a board's ADC
//! reads, the move the firmware makes from the codes, and whether it diverges.

use std::fmt::Display;

use heuristic::{Edge, EdgeState, Model, Position, Record, RecordError, Side, Size};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use crate::exact::{self, ExactVoltages};
use crate::reading::{Reader, Reading};
use crate::share;

/// One edge of the report. Serialised as `{edge, state, drop, drop_f64}` (plus `code_drop`
/// and `ohms` when known): the A1 name, `resistor`/`cut`/`short`, the exact drop in lowest
/// terms as text (`"0"` for none) and the same drop as a float.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeReport {
    /// The edge.
    pub edge: Edge,
    /// Resistor, cut or short.
    pub state: EdgeState,
    /// Exact drop relative to the supply; `None` when cut.
    pub drop: Option<BigRational>,
    /// Drop in ADC codes, with a reader; `None` when cut.
    pub code_drop: Option<u16>,
    /// The resistor's drawn value in ohms, on a physical board.
    pub ohms: Option<f64>,
}

impl Serialize for EdgeReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let known = usize::from(self.code_drop.is_some()) + usize::from(self.ohms.is_some());
        let mut e = s.serialize_struct("EdgeReport", 4 + known)?;
        e.serialize_field("edge", &Text(&self.edge))?;
        e.serialize_field("state", self.state.name())?;
        e.serialize_field("drop", &self.drop.as_ref().map(ratio_text))?;
        e.serialize_field(
            "drop_f64",
            &self.drop.as_ref().and_then(ToPrimitive::to_f64),
        )?;
        if let Some(code_drop) = self.code_drop {
            e.serialize_field("code_drop", &code_drop)?;
        }
        if let Some(ohms) = self.ohms {
            e.serialize_field("ohms", &ohms)?;
        }
        e.end()
    }
}

/// A value serialised as its text (`Display`): an edge as its A1 name.
struct Text<'a, T>(&'a T);

impl<T: Display> Serialize for Text<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

fn edge_text<S: Serializer>(edge: &Option<Edge>, s: S) -> Result<S::Ok, S::Error> {
    edge.as_ref().map(Text).serialize(s)
}

fn edges_text<S: Serializer>(edges: &[Edge], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(edges.iter().map(Text))
}

/// One node as the ADC reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeReport {
    /// A1-style name (`Q`, `0` for the terminals).
    pub node: String,
    /// Volts; `null` where nothing defines the voltage.
    pub volts: Option<f64>,
    /// ADC code; Q is not measured and reads as full scale.
    pub code: Option<u16>,
    /// The node's drawn pull-up in ohms, on a physical board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pullup_ohms: Option<f64>,
}

/// The board that read the position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardReport {
    /// Profile name or file; `null` for an ideal converter on the exact model.
    pub name: Option<String>,
    /// Seed of the parts and the ADC device; `null` for nominal values.
    pub tolerance_seed: Option<u64>,
    /// ADC resolution.
    pub adc_bits: u8,
    /// Drawn series resistor, ohms.
    pub series_ohms: Option<f64>,
}

/// The JSON document of `birdcage analyze --format json`; the field order is the key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// M.
    pub size: u8,
    /// `ideal` or `reference`.
    pub network: &'static str,
    /// The moves as given, case normalised (Cut upper, Short lower); a list of names in JSON.
    #[serde(serialize_with = "move_names")]
    pub moves: Record,
    /// `cut`, `short`, or `None` once the game is over.
    pub to_move: Option<&'static str>,
    /// `cut`, `short` or `None`.
    pub winner: Option<&'static str>,
    /// Every edge in reading order.
    pub edges: Vec<EdgeReport>,
    /// The heuristic's move for the side to move (the edge Cut cuts or Short shorts).
    #[serde(serialize_with = "edge_text")]
    pub choice: Option<Edge>,
    /// Every resistor whose drop equals the largest, in reading order.
    #[serde(serialize_with = "edges_text")]
    pub tied: Vec<Edge>,
    /// With a reader: every node's volts and code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<NodeReport>>,
    /// With a reader: the move the heuristic makes over the codes (Cut to move only).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "edge_text")]
    pub firmware_choice: Option<Edge>,
    /// With a reader: whether `firmware_choice` is outside `tied`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diverges: Option<bool>,
    /// With a reader: who read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardReport>,
    /// The solved voltages, for the text rendering.
    #[serde(skip)]
    pub voltages: ExactVoltages,
}

/// How the text gives drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Units {
    /// A share of the supply, in percent, with the digits that rank them.
    Share,
    /// Integers over the least common denominator.
    Exact,
}

/// Why a record could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The record does not read or replay.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The board's network cannot be solved.
    #[error(transparent)]
    Solve(#[from] crate::physical::SolveError),
}

/// Replays `record` from the start position with `first` to move and solves it; with a
/// `reader`, also reads it as that board would.
pub fn analyze(
    size: Size,
    first: Side,
    record: &str,
    model: Model,
    reader: Option<&Reader>,
) -> Result<Analysis, AnalyzeError> {
    let record = Record::read(size, first, record)?;
    let position = record.replay(size)?;
    let mut analysis = report(&position, &record, model);
    if let Some(reader) = reader {
        let reading = reader.read(&position, &analysis.voltages)?;
        analysis.add_reading(reader, &reading);
    }
    Ok(analysis)
}

fn ratio_text(r: &BigRational) -> String {
    if r.is_zero() {
        "0".to_string()
    } else {
        r.to_string()
    }
}

fn move_names<S: serde::Serializer>(record: &Record, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(record.moves().iter().map(ToString::to_string))
}

/// The report of a position reached by `moves`.
pub fn report(position: &Position, moves: &Record, model: Model) -> Analysis {
    let voltages = exact::solve_model(position, model);
    let edges = exact::drops(&voltages)
        .map(|(edge, state, drop)| EdgeReport {
            edge,
            state,
            drop,
            code_drop: None,
            ohms: None,
        })
        .collect();
    let ranking = voltages.rank();
    // The machine's move for whichever side is to move: Shannon's cuts the resistor, Bridj-It
    // 2.0's shorts it.
    let choice = ranking
        .as_ref()
        .and(position.to_move())
        .and(ranking.as_ref().map(|r| r.choice));
    let tied = ranking
        .iter()
        .flat_map(|r| r.tied.iter().copied())
        .collect();
    Analysis {
        size: position.size().get(),
        network: model.name(),
        moves: moves.clone(),
        to_move: position.to_move().map(Side::name),
        winner: position.winner().map(Side::name),
        edges,
        choice,
        tied,
        nodes: None,
        firmware_choice: None,
        diverges: None,
        board: None,
        voltages,
    }
}

impl Analysis {
    fn add_reading(&mut self, reader: &Reader, reading: &Reading) {
        let position = self.voltages.position().clone();
        let size = position.size();
        let codes = reading.code_values();
        for (report, edge) in self.edges.iter_mut().zip(size.edges()) {
            report.code_drop = heuristic::edge_drop(&position, &codes, edge);
            report.ohms = reading.parts.as_ref().map(|p| p.edge(edge));
        }
        self.nodes = Some(
            size.nodes()
                .enumerate()
                .map(|(i, node)| NodeReport {
                    node: node.to_string(),
                    volts: reading.volts[i],
                    code: reading.codes[i],
                    pullup_ohms: match (&reading.parts, node) {
                        (Some(p), n) if n != heuristic::Node::Top => Some(p.pullup(n)),
                        _ => None,
                    },
                })
                .collect(),
        );
        if position.to_move() == Some(Side::Cut)
            && let Some(ranking) = reading.ranking(&position)
        {
            let choice = ranking.choice;
            self.diverges = Some(!self.tied.contains(&choice));
            self.firmware_choice = Some(choice);
        }
        self.board = Some(match reader {
            Reader::Board { board, seed } => BoardReport {
                name: Some(board.name.clone()),
                tolerance_seed: *seed,
                adc_bits: reading.adc.bits(),
                series_ohms: reading.parts.as_ref().map(|p| p.series_ohms),
            },
            Reader::IdealAdc { bits } => BoardReport {
                name: None,
                tolerance_seed: None,
                adc_bits: *bits,
                series_ohms: None,
            },
        });
    }

    /// The board, the drops scaled to integers by their least common denominator laid out
    /// on the board, and the heuristic's choice.
    pub fn to_text(&self) -> String {
        self.text(Units::Share)
    }

    /// [`Analysis::to_text`] with every drop as an exact integer over the drops' least
    /// common denominator (`analyze --exact`).
    pub fn to_text_exact(&self) -> String {
        self.text(Units::Exact)
    }

    fn text(&self, units: Units) -> String {
        let position = self.voltages.position();
        let drops: Vec<(heuristic::Edge, BigRational)> = position
            .resistors()
            .filter_map(|e| self.voltages.drop(e).map(|d| (e, d)))
            .collect();
        let mut out = String::new();
        let record = if self.moves.is_empty() {
            "(start)".to_string()
        } else {
            self.moves.to_string()
        };
        out.push_str(&format!(
            "M={} {} network, moves: {}\n\n",
            self.size, self.network, record
        ));
        out.push_str(&crate::diagram::board(position));
        match units {
            Units::Exact => {
                let lcd = exact::common_denominator(drops.iter().map(|(_, d)| d));
                let scaled = |edge| -> Option<String> {
                    let (_, d) = drops.iter().find(|(e, _)| *e == edge)?;
                    let n: BigInt = (d * BigRational::from_integer(lcd.clone())).to_integer();
                    Some(n.to_string())
                };
                out.push_str(&format!("\nDrops in units of 1/{lcd} of the supply:\n\n"));
                out.push_str(&crate::diagram::labelled(position, scaled));
            }
            Units::Share => {
                let digits = share::digits_to_rank(drops.iter().map(|(_, d)| d));
                let label = |edge| -> Option<String> {
                    let (_, d) = drops.iter().find(|(e, _)| *e == edge)?;
                    Some(share::percent(d, digits))
                };
                out.push_str("\nDrops in % of the supply:\n\n");
                out.push_str(&crate::diagram::labelled(position, label));
                out.push('\n');
                out.push_str(&share::ranking(&drops, digits));
            }
        }
        out.push('\n');
        match (position.winner(), position.to_move(), self.choice) {
            (Some(w), _, _) => out.push_str(&format!("{w} has won.\n")),
            (None, Some(side), Some(edge)) => {
                let label = match side {
                    Side::Cut => "Cut's move (largest drop)",
                    Side::Short => "Short's move (short the largest drop)",
                };
                out.push_str(&format!("{label}: {}", heuristic::Move { side, edge }));
                if self.tied.len() > 1 {
                    out.push_str(&format!(" (tied: {})", self.tied_text()));
                }
                out.push('\n');
            }
            _ => out.push_str("No resistor carries current.\n"),
        }
        if let (Some(nodes), Some(board)) = (&self.nodes, &self.board) {
            out.push('\n');
            out.push_str(&self.reading_text(nodes, board));
        }
        out
    }

    /// The tied edges' names, space-separated.
    fn tied_text(&self) -> String {
        let names: Vec<String> = self.tied.iter().map(Edge::to_string).collect();
        names.join(" ")
    }

    fn reading_text(&self, nodes: &[NodeReport], board: &BoardReport) -> String {
        let position = self.voltages.position();
        let mut out = String::new();
        let parts = match board.tolerance_seed {
            Some(seed) => format!("parts drawn from tolerance seed {seed}"),
            None => "nominal parts".to_string(),
        };
        match &board.name {
            Some(name) => out.push_str(&format!(
                "Read by {name} ({}-bit ADC, {parts}):\n\n",
                board.adc_bits
            )),
            None => out.push_str(&format!(
                "Read by an ideal {}-bit ADC (supply = 1 V = full scale):\n\n",
                board.adc_bits
            )),
        }
        out.push_str("  node         mV  code\n");
        for n in nodes {
            let volts = n
                .volts
                .map_or_else(|| "undefined".to_string(), |v| format!("{:.2}", v * 1e3));
            let code = n.code.map_or_else(|| "-".to_string(), |c| c.to_string());
            out.push_str(&format!("  {:<4} {volts:>10} {code:>5}\n", n.node));
        }
        let code_drop = |edge: heuristic::Edge| {
            self.edges
                .iter()
                .find(|e| e.edge == edge)
                .and_then(|e| e.code_drop)
                .map(|d| d.to_string())
        };
        out.push_str("\nDrops in ADC codes:\n\n");
        out.push_str(&crate::diagram::labelled(position, code_drop));
        out.push('\n');
        if let (Some(choice), Some(diverges)) = (&self.firmware_choice, self.diverges) {
            let verdict = if diverges {
                format!(
                    "DIVERGES from the exact choice (tied: {})",
                    self.tied_text()
                )
            } else {
                "among the exact choices".to_string()
            };
            out.push_str(&format!(
                "Firmware's move (largest code drop): {choice}, {verdict}\n"
            ));
        }
        out
    }
}
