//! The drops a person sees during a game: each resistor's drop as a percentage of the
//! supply (not in units of a common denominator, which means nothing at a glance), and a
//! step of a heat scale, so that the resistor the machine measures as the largest stands
//! out.
//!
//! The drops are the exact ones of `birdcage analyze` ([`emulator::analysis::report`]):
//! the largest, tied or not, is decided exactly, then shown in floating point.

use heuristic::{Edge, Model, Position, Record};
use num_traits::ToPrimitive;

/// The width of a drop's cell on the board: [`percent`]'s widest, so that the cells keep
/// their width from move to move.
pub(crate) const CELL: usize = 4;

/// Steps of the heat scale: five even slices of the range below the largest drop, and one
/// for the largest alone.
pub(crate) const LEVELS: usize = 6;

/// Every resistor's drop in a position, as shares of the supply.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Heat {
    model: Model,
    /// Each resistor's drop as a share of the supply, in reading order.
    shares: Vec<(Edge, f64)>,
    /// The resistors whose drop is exactly the largest, in reading order (none when no
    /// resistor carries current).
    largest: Vec<Edge>,
}

impl Heat {
    /// The drops of `position` (reached by `moves`) on the `model` network.
    pub(crate) fn new(position: &Position, moves: &Record, model: Model) -> Heat {
        let report = emulator::analysis::report(position, moves, model);
        let shares = report
            .edges
            .iter()
            .filter(|e| e.state == heuristic::EdgeState::Resistor)
            .filter_map(|e| Some((e.edge, e.drop.as_ref()?.to_f64()?)))
            .collect();
        Heat {
            model,
            shares,
            largest: report.tied,
        }
    }

    /// The drop across `edge` as a share of the supply, if it is a resistor.
    pub(crate) fn share(&self, edge: Edge) -> Option<f64> {
        self.shares
            .iter()
            .find(|(e, _)| *e == edge)
            .map(|&(_, s)| s)
    }

    /// The largest drop as a share of the supply (0 when no resistor carries current).
    pub(crate) fn max(&self) -> f64 {
        self.largest
            .first()
            .and_then(|&e| self.share(e))
            .unwrap_or(0.0)
    }

    /// The resistors with the largest drop.
    pub(crate) fn largest(&self) -> &[Edge] {
        &self.largest
    }

    /// The heat step of a resistor: `LEVELS - 1` for the largest drop, else the slice of
    /// the range below it (0 for no current at all).
    pub(crate) fn level(&self, edge: Edge) -> Option<usize> {
        let share = self.share(edge)?;
        if self.largest.contains(&edge) {
            return Some(LEVELS - 1);
        }
        let max = self.max();
        if max <= 0.0 {
            return Some(0);
        }
        let slices = (LEVELS - 1) as f64;
        Some(((share / max * slices) as usize).min(LEVELS - 2))
    }

    /// The lowest drop of step `level`, as a share of the supply.
    pub(crate) fn floor(&self, level: usize) -> f64 {
        if level == LEVELS - 1 {
            return self.max();
        }
        self.max() * level as f64 / (LEVELS - 1) as f64
    }

    /// A resistor's drop as the board shows it: percent of the supply, no sign.
    pub(crate) fn label(&self, edge: Edge) -> Option<String> {
        self.share(edge).map(percent)
    }

    /// A resistor's drop in its cell on the board, [`CELL`] characters, centred.
    pub(crate) fn cell(&self, edge: Edge) -> Option<String> {
        self.label(edge).map(|l| format!("{l:^CELL$}"))
    }

    /// The largest drop's line: where it is and how large.
    pub(crate) fn largest_text(&self) -> String {
        let names: Vec<String> = self.largest.iter().map(Edge::to_string).collect();
        match names.len() {
            0 => "No resistor carries current.".to_string(),
            1 => format!(
                "Largest drop: {}, {}% of the supply.",
                names[0],
                percent(self.max())
            ),
            _ => format!(
                "Largest drop: {} (tied), {}% of the supply.",
                names.join(" "),
                percent(self.max())
            ),
        }
    }

    /// The board with every resistor's drop in percent, then the largest, as the scripted
    /// game prints it.
    pub(crate) fn to_text(&self, position: &Position) -> String {
        format!(
            "Drops in % of the supply ({} network):\n\n{}\n{}\n",
            self.model,
            emulator::diagram::labelled(position, |e| self.cell(e)),
            self.largest_text()
        )
    }
}

/// A share of the supply in percent with two or three significant digits, at most [`CELL`]
/// characters, so that the M=8 board with a drop on every resistor fits 80 columns.
pub(crate) fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p <= 0.0 {
        "0".to_string()
    } else if p < 0.005 {
        "<.01".to_string()
    } else if p < 0.995 {
        format!("{p:.2}")
    } else if p < 9.95 {
        format!("{p:.1}")
    } else {
        format!("{p:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heuristic::{Side, Size};

    #[test]
    fn percent_keeps_two_or_three_digits_in_four_characters() {
        for (share, text) in [
            (0.0, "0"),
            (0.00001, "<.01"),
            (0.00123, "0.12"),
            (0.00996, "1.0"),
            (0.0876, "8.8"),
            (0.0996, "10"),
            (0.126, "13"),
            (1.0 / 3.0, "33"),
            (1.0, "100"),
        ] {
            assert_eq!(percent(share), text, "{share}");
        }
    }

    #[test]
    fn the_largest_drop_has_the_top_step_and_the_rest_are_below() {
        // M=2 after A3,c3, the README's example: B2 and A1 in series drop half the supply
        // each, C1 all of it.
        let size = Size::new(2).unwrap();
        let moves = Record::read(size, Side::Cut, "A3,c3").unwrap();
        let position = moves.replay(size).unwrap();
        let heat = Heat::new(&position, &moves, Model::Ideal);
        let c1 = Edge::parse(size, "C1").unwrap();
        let b2 = Edge::parse(size, "B2").unwrap();
        assert_eq!(heat.largest(), [c1]);
        assert_eq!(heat.max(), 1.0);
        assert_eq!(heat.level(c1), Some(LEVELS - 1));
        // Half the largest: the middle slice of five.
        assert_eq!(heat.level(b2), Some(2));
        assert_eq!(heat.label(b2).as_deref(), Some("50"));
        assert_eq!(heat.level(Edge::parse(size, "A3").unwrap()), None);
        assert_eq!(heat.floor(2), 0.4);
        let text = heat.to_text(&position);
        assert!(
            text.starts_with(
                "Drops in % of the supply (ideal network):\n\n   ●    =    ●\n3  ×         ‖\n\
                 2  ●    50   ●\n1  50       100\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("Largest drop: C1, 100% of the supply.\n"),
            "{text}"
        );
    }
}
