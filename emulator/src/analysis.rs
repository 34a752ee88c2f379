//! What `birdcage analyze` reports about a position: every edge's exact drop, the
//! heuristic's choice and the edges tied with it.

use heuristic::{Model, Move, Position, RecordError, Side, Size, record_moves};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::Serialize;

use crate::exact::{self, ExactVoltages};

/// One edge of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeReport {
    /// A1 name.
    pub edge: String,
    /// `resistor`, `cut` or `short`.
    pub state: &'static str,
    /// Exact drop relative to the supply in lowest terms (`"0"` for none); `None` when cut.
    pub drop: Option<String>,
    /// The same drop as a float.
    pub drop_f64: Option<f64>,
}

/// The JSON document of `birdcage analyze --format json`; the field order is the key order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// M.
    pub size: u8,
    /// `ideal` or `reference`.
    pub network: &'static str,
    /// The moves as given, case normalised (Cut upper, Short lower).
    pub moves: Vec<String>,
    /// `cut`, `short`, or `None` once the game is over.
    pub to_move: Option<&'static str>,
    /// `cut`, `short` or `None`.
    pub winner: Option<&'static str>,
    /// Every edge in reading order.
    pub edges: Vec<EdgeReport>,
    /// The heuristic's move, only when it is Cut's turn.
    pub choice: Option<String>,
    /// Every resistor whose drop equals the largest, in reading order.
    pub tied: Vec<String>,
    /// The solved voltages, for the text rendering.
    #[serde(skip)]
    pub voltages: ExactVoltages,
}

/// Replays `record` from the start position with `first` to move and solves it.
pub fn analyze(
    size: Size,
    first: Side,
    record: &str,
    model: Model,
) -> Result<Analysis, RecordError> {
    // One pass: parse and play each move, keeping its number for the error.
    let mut position = Position::new(size, first);
    let mut moves = Vec::new();
    for (number, mv) in record_moves(size, record) {
        let mv = mv?;
        position.play(mv).map_err(|e| RecordError {
            number,
            error: e.into(),
        })?;
        moves.push(mv);
    }
    Ok(report(&position, &moves, model))
}

fn ratio_text(r: &BigRational) -> String {
    if r.is_zero() {
        "0".to_string()
    } else {
        r.to_string()
    }
}

/// The report of a position reached by `moves`.
pub fn report(position: &Position, moves: &[Move], model: Model) -> Analysis {
    let voltages = exact::solve_model(position, model);
    let edges = exact::drops(&voltages)
        .map(|(edge, state, drop)| EdgeReport {
            edge: edge.to_string(),
            state: state.name(),
            drop_f64: drop.as_ref().and_then(ToPrimitive::to_f64),
            drop: drop.as_ref().map(ratio_text),
        })
        .collect();
    let ranking = voltages.rank();
    let choice = match (&ranking, position.to_move()) {
        (Some(r), Some(Side::Cut)) => Some(r.choice.to_string()),
        _ => None,
    };
    let tied = ranking
        .iter()
        .flat_map(|r| r.tied.iter().map(|e| e.to_string()))
        .collect();
    Analysis {
        size: position.size().get(),
        network: model.name(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        to_move: position.to_move().map(Side::name),
        winner: position.winner().map(Side::name),
        edges,
        choice,
        tied,
        voltages,
    }
}

impl Analysis {
    /// The board, the drops scaled to integers by their least common denominator laid out
    /// on the board, and the heuristic's choice.
    pub fn to_text(&self) -> String {
        let position = self.voltages.position();
        let drops: Vec<(heuristic::Edge, BigRational)> = position
            .resistors()
            .filter_map(|e| self.voltages.drop(e).map(|d| (e, d)))
            .collect();
        let lcd = exact::common_denominator(drops.iter().map(|(_, d)| d));
        let scaled = |edge| -> Option<String> {
            let (_, d) = drops.iter().find(|(e, _)| *e == edge)?;
            let n: BigInt = (d * BigRational::from_integer(lcd.clone())).to_integer();
            Some(n.to_string())
        };
        let mut out = String::new();
        let record = if self.moves.is_empty() {
            "(start)".to_string()
        } else {
            self.moves.join(",")
        };
        out.push_str(&format!(
            "M={} {} network, moves: {}\n\n",
            self.size, self.network, record
        ));
        out.push_str(&crate::diagram::board(position));
        out.push_str(&format!("\nDrops in units of 1/{lcd} of the supply:\n\n"));
        out.push_str(&crate::diagram::labelled(position, scaled));
        out.push('\n');
        match (position.winner(), position.to_move(), &self.choice) {
            (Some(w), _, _) => out.push_str(&format!("{w} has won.\n")),
            (None, Some(Side::Cut), Some(choice)) => {
                out.push_str(&format!("Cut's move (largest drop): {choice}"));
                if self.tied.len() > 1 {
                    out.push_str(&format!(" (tied: {})", self.tied.join(" ")));
                }
                out.push('\n');
            }
            _ => out.push_str(&format!(
                "Short to move; the largest drop is at {}.\n",
                self.tied.join(" ")
            )),
        }
        out
    }
}
