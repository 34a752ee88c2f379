//! One step's checks: the board's codes against the emulator's prediction for its profile,
//! and the board's move against the ideal tied set, with each divergence classified.

pub mod protocol;

use emulator::emulated::EmulatedCage;
use emulator::reading::{Reader, code_ranking};
use emulator::truth::Truth;
use emulator::verdict::{Cause, Counterfactuals, Judgement};
use firmware::{Outcome, Sampler};
use heuristic::{Edge, Model, Node, Position, Record, Side};
use serde::{Deserialize, Serialize};

/// Why the board's move is not the ideal choice, or that it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Class {
    /// The ideal choice, or the right game-over verdict.
    Agree,
    /// Another edge of the ideal tied set: the tie-break met a code difference.
    Tie,
    /// An ideal ADC of the board's resolution on the ideal network already leaves the tied
    /// set ([`emulator::verdict::Cause::Quantisation`]).
    Quantisation,
    /// The profile's nominal network (pull-ups and series resistor) through an ideal converter
    /// already leaves it.
    Pullups,
    /// Only the board's own part values (or its converter) explain the move (the codes are in
    /// band).
    Tolerance,
    /// The codes are outside the band the profile allows: the cage is not what the bench
    /// set (a wire swapped, an open resistor, a stuck channel).
    Wiring,
    /// The firmware refused to move, or its verdict is wrong.
    Fault,
}

impl Class {
    /// Whether a step of this class fails its game: the bench's own classes, about the board
    /// ([`Class::Wiring`], [`Class::Fault`]); a divergence the heuristic explains is a finding.
    /// JUnit's failures, the summary's "Faults" line and `hil-tests`' exit status all ask this.
    pub fn is_failure(self) -> bool {
        matches!(self, Class::Wiring | Class::Fault)
    }

    /// Every class, in the order summaries list them.
    pub const ALL: [Class; 7] = [
        Class::Agree,
        Class::Tie,
        Class::Quantisation,
        Class::Pullups,
        Class::Tolerance,
        Class::Wiring,
        Class::Fault,
    ];

    /// The judgement of the move ([`emulator::verdict::Judgement`]) this class is, if it is
    /// one: the bench's own classes ([`Class::Wiring`], [`Class::Fault`]) are about the board,
    /// not about a move of the heuristic's.
    pub fn judgement(self) -> Option<Judgement> {
        match self {
            Class::Agree => Some(Judgement::Agree),
            Class::Tie => Some(Judgement::Tie),
            Class::Quantisation => Some(Judgement::Diverges(Cause::Quantisation)),
            Class::Pullups => Some(Judgement::Diverges(Cause::Pullups)),
            Class::Tolerance => Some(Judgement::Diverges(Cause::Tolerance)),
            Class::Wiring | Class::Fault => None,
        }
    }

    /// Whether the board's move left the exact tied set ([`Judgement::diverges`]): an exact
    /// tie broken another way ([`Class::Tie`]) is benign and counted on its own, and a fault
    /// is not a move of the heuristic's.
    pub fn diverges(self) -> bool {
        self.judgement().is_some_and(Judgement::diverges)
    }

    /// Whether the step points at the board rather than at the heuristic.
    pub fn is_fault(self) -> bool {
        matches!(self, Class::Wiring | Class::Fault)
    }
}

/// A judgement as the bench reports it: a board's drawn parts are unknown, so a divergence
/// only its own parts or its converter explain is [`Class::Tolerance`] either way.
impl From<Judgement> for Class {
    fn from(judgement: Judgement) -> Class {
        match judgement {
            Judgement::Agree => Class::Agree,
            Judgement::Tie => Class::Tie,
            Judgement::Diverges(Cause::Quantisation) => Class::Quantisation,
            Judgement::Diverges(Cause::Pullups) => Class::Pullups,
            Judgement::Diverges(Cause::Tolerance | Cause::Adc) => Class::Tolerance,
        }
    }
}

/// One decision of the board, checked, with typed values until the report writes it
/// ([`Step::line`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Index of the game in the scenario.
    pub game: usize,
    /// The game record up to this position.
    pub record: Record,
    /// Codes the board measured (pull-ups on), in node order.
    pub codes: Vec<u16>,
    /// Codes the emulator predicts for the profile (nominal parts, ideal converter).
    pub predicted: Vec<u16>,
    /// The half-width of the band allowed around each prediction, in codes.
    pub band: u16,
    /// The node farthest from its prediction and by how many codes.
    pub worst: Option<(Node, u16)>,
    /// What the board answered to the decision.
    pub outcome: Outcome,
    /// The edge it cut, if it moved.
    pub chosen: Option<Edge>,
    /// The ideal network's choice (the tie-break's first edge).
    pub ideal: Option<Edge>,
    /// The ideal tied set.
    pub tied: Vec<Edge>,
    /// Ideal margin between best and runner-up drops, as a fraction of the supply.
    pub margin: f64,
    /// The verdict.
    pub class: Class,
    /// Why, in words, when the step diverges.
    pub detail: String,
}

impl Step {
    /// The step as the report writes it.
    pub fn line(&self) -> StepLine {
        StepLine {
            game: self.game,
            record: self.record.to_string(),
            codes: self.codes.clone(),
            predicted: self.predicted.clone(),
            band: self.band,
            worst: self.worst.map(|(n, d)| (n.to_string(), d)),
            outcome: self.outcome.to_string(),
            chosen: self.chosen.map(|e| e.to_string()),
            ideal: self.ideal.map(|e| e.to_string()),
            tied: self.tied.iter().map(|e| e.to_string()).collect(),
            margin: self.margin,
            class: self.class,
            detail: self.detail.clone(),
        }
    }
}

/// A checked step as the report writes it and reads it back (`steps.jsonl`): the typed
/// [`Step`] in words. What a file holds is outside input: it is read into this, and checked
/// where it is used (calibration replays its record).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepLine {
    /// Index of the game in the scenario.
    pub game: usize,
    /// The game record up to this position.
    pub record: String,
    /// Codes the board measured (pull-ups on), in node order.
    pub codes: Vec<u16>,
    /// Codes the emulator predicts for the profile (nominal parts, ideal converter).
    pub predicted: Vec<u16>,
    /// The half-width of the band allowed around each prediction, in codes.
    pub band: u16,
    /// The node farthest from its prediction and by how many codes.
    pub worst: Option<(String, u16)>,
    /// What the board answered to the decision.
    pub outcome: String,
    /// The edge it cut, if it moved.
    pub chosen: Option<String>,
    /// The ideal network's choice (the tie-break's first edge).
    pub ideal: Option<String>,
    /// The ideal tied set.
    pub tied: Vec<String>,
    /// Ideal margin between best and runner-up drops, as a fraction of the supply.
    pub margin: f64,
    /// The verdict.
    pub class: Class,
    /// Why, in words, when the step diverges.
    pub detail: String,
}

/// A node whose code is outside the band around its prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Off {
    /// The node.
    pub node: Node,
    /// What the board read.
    pub code: u16,
    /// What the profile predicts.
    pub expected: u16,
}

impl std::fmt::Display for Off {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "node {} reads {}, expected {} (off by {})",
            self.node,
            self.code,
            self.expected,
            self.code.abs_diff(self.expected)
        )
    }
}

/// Measured codes against a position's prediction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    /// How many codes the board measured.
    pub measured: usize,
    /// The prediction, in node order.
    pub predicted: Vec<u16>,
    /// The half-width of the band allowed around each prediction, in codes.
    pub band: u16,
    /// The node farthest from its prediction and by how many codes (the top terminal is the
    /// supply and not compared).
    pub worst: Option<(Node, u16)>,
    /// The nodes outside the band, farthest first.
    pub off: Vec<Off>,
}

impl Fit {
    /// Whether every node is within the band (and the board measured every node).
    pub fn in_band(&self) -> bool {
        self.measured == self.predicted.len() && self.off.is_empty()
    }
}

/// The emulator's view of a profile, kept for a whole run.
#[derive(Debug)]
pub struct Predictor {
    profile: &'static boards::Profile,
    nominal: EmulatedCage,
    band: u16,
}

impl Predictor {
    /// Predictions for games of `size` on `profile`.
    pub fn new(profile: &'static boards::Profile, size: heuristic::Size) -> Predictor {
        let nominal = EmulatedCage::new(profile, size, None).unwrap_or_else(|_| {
            EmulatedCage::new(profile, heuristic::Size::M4, None)
                .unwrap_or_else(|_| unreachable!("M=4 is always wired"))
        });
        Predictor {
            profile,
            nominal,
            band: firmware::band_codes(profile),
        }
    }

    /// The profile predicted.
    pub fn profile(&self) -> &'static boards::Profile {
        self.profile
    }

    /// The nominal board's codes on `position`, pull-ups on, in node order.
    pub fn codes(&self, position: &Position) -> Vec<u16> {
        self.nominal.wire(position.clone());
        let mut hw = self.nominal.hardware();
        let _ = hw.sampler.set_pullups(true);
        position
            .size()
            .nodes()
            .map(|n| match hw.sampler.read(n) {
                Ok(code) => code,
                Err(never) => match never {},
            })
            .collect()
    }

    /// How `codes` measured on `position` fit the prediction: the one test of the cage
    /// (a decision's step, and the guided game's check of each thing the operator did).
    pub fn fit(&self, position: &Position, codes: &[u16]) -> Fit {
        let predicted = self.codes(position);
        let deviations: Vec<(Node, u16, u16)> = position
            .size()
            .nodes()
            .zip(codes.iter().zip(&predicted))
            .filter(|(n, _)| *n != Node::Top)
            .map(|(n, (&c, &p))| (n, c, p))
            .collect();
        let worst = deviations
            .iter()
            .map(|&(n, c, p)| (n, c.abs_diff(p)))
            .max_by_key(|&(_, d)| d);
        let mut off: Vec<Off> = deviations
            .into_iter()
            .filter(|&(_, c, p)| c.abs_diff(p) > self.band)
            .map(|(node, code, expected)| Off {
                node,
                code,
                expected,
            })
            .collect();
        off.sort_by_key(|o| std::cmp::Reverse(o.code.abs_diff(o.expected)));
        Fit {
            measured: codes.len(),
            predicted,
            band: self.band,
            worst,
            off,
        }
    }

    /// Checks one decision: `codes` measured on `position`, then `outcome`.
    pub fn check(
        &self,
        game: usize,
        record: &Record,
        position: &Position,
        codes: &[u16],
        outcome: Outcome,
    ) -> Step {
        let size = position.size();
        let fit = self.fit(position, codes);
        let in_band = fit.in_band();
        let worst = fit.worst;
        let predicted = fit.predicted;
        // One exact solve a step: the tied set, the margin and the judgement all read it.
        let truth = Truth::of(position);
        let tied = truth.as_ref().map_or_else(Vec::new, |t| t.tied_edges(size));
        // As the reports print it: 1 where nothing else carries current, 0 with no resistor.
        let margin = truth.as_ref().map_or(0.0, |t| t.margin().unwrap_or(1.0));
        let ideal = tied.first().copied();
        let mut chosen = None;
        let (class, detail) = match outcome {
            Outcome::Move(square) => match square.edge(size) {
                Some(edge)
                    if position.winner().is_none()
                        && position.to_move() == Some(Side::Cut)
                        && position.state(edge) == heuristic::EdgeState::Resistor =>
                {
                    chosen = Some(edge);
                    if Some(edge) == ideal {
                        (Class::Agree, String::new())
                    } else if !in_band {
                        (Class::Wiring, self.band_detail(&worst))
                    } else {
                        self.judged(position, truth.as_ref(), edge)
                    }
                }
                _ => (Class::Fault, format!("{square} is not a legal cut here")),
            },
            Outcome::GameOver(player) => {
                let said = player;
                if position.winner() == Some(said) {
                    (Class::Agree, String::new())
                } else if !in_band {
                    (Class::Wiring, self.band_detail(&worst))
                } else {
                    (
                        Class::Fault,
                        format!(
                            "the board says {player} has won; the position says {:?}",
                            position.winner()
                        ),
                    )
                }
            }
            Outcome::Fault(fault) if !in_band => (
                Class::Wiring,
                format!("{fault}; {}", self.band_detail(&worst)),
            ),
            other => (Class::Fault, other.to_string()),
        };
        Step {
            game,
            record: record.clone(),
            codes: codes.to_vec(),
            predicted,
            band: self.band,
            worst,
            outcome,
            chosen,
            ideal,
            tied,
            margin,
            class,
            detail,
        }
    }

    /// A move other than the exact choice with the codes in band, judged once for the whole
    /// workspace ([`Judgement::judge`]): a tie, or a divergence with its cause.
    fn judged(&self, position: &Position, truth: Option<&Truth>, edge: Edge) -> (Class, String) {
        let Some(truth) = truth else {
            return (Class::Fault, format!("{edge}: no resistor is left to cut"));
        };
        let mut why = Counterfactuals::default();
        let judgement = Judgement::judge(truth, edge, || {
            why = self.counterfactuals(position);
            why
        });
        let detail = match judgement {
            Judgement::Agree => String::new(),
            Judgement::Tie => format!("{edge} is tied with the ideal choice"),
            Judgement::Diverges(cause) => self.divergence_detail(cause, &why, edge),
        };
        (Class::from(judgement), detail)
    }

    fn band_detail(&self, worst: &Option<(Node, u16)>) -> String {
        match worst {
            Some((node, d)) => format!(
                "node {node} is {d} codes off its prediction (band {})",
                self.band
            ),
            None => "the board measured another number of nodes".to_string(),
        }
    }

    /// The counterfactual readings of `position` a move outside the tied set is judged by
    /// ([`Judgement::judge`]): an ideal converter of the board's resolution on the ideal
    /// network, and the profile's nominal network. A real board's parts are unknown, so there
    /// is no drawn reading: its own parts and its converter are one class.
    fn counterfactuals(&self, position: &Position) -> Counterfactuals {
        let exact = emulator::exact::solve_model(position, Model::Ideal);
        let bits = self.profile.adc.bits_used;
        // An ideal converter reads the exact model: no network to solve, never an error.
        let quantised = Reader::IdealAdc { bits }
            .read(position, &exact)
            .ok()
            .and_then(|reading| reading.ranking(position))
            .map(|r| r.choice);
        let nominal_codes: Vec<Option<u16>> = self.codes(position).into_iter().map(Some).collect();
        let nominal = code_ranking(position, &nominal_codes).map(|r| r.choice);
        Counterfactuals {
            quantised,
            nominal,
            drawn: None,
        }
    }

    /// Why a move left the tied set, in words, from the counterfactuals that judged it.
    fn divergence_detail(&self, cause: Cause, why: &Counterfactuals, edge: Edge) -> String {
        let bits = self.profile.adc.bits_used;
        let name = |e: Option<Edge>| e.map_or_else(|| "nothing".to_string(), |e| e.to_string());
        match cause {
            Cause::Quantisation => format!(
                "an ideal {bits}-bit ADC on the ideal network also leaves the tied set (cuts {})",
                name(why.quantised)
            ),
            Cause::Pullups => format!(
                "the profile's nominal network (pull-ups, series resistor) also leaves the \
                 tied set (cuts {})",
                name(why.nominal)
            ),
            Cause::Tolerance | Cause::Adc => {
                format!("only this board's part values lead to {edge}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_out_of_band_says_how_many_codes_off_its_prediction_the_node_is() {
        let size = heuristic::Size::M3;
        let predictor = Predictor::new(&boards::NUCLEO_F446RE, size);
        let position = Position::new(size, Side::Cut);
        let mut codes = predictor.codes(&position);
        // The first internal node, 300 codes away from what the profile predicts.
        codes[0] = if codes[0] >= 300 {
            codes[0] - 300
        } else {
            codes[0] + 300
        };
        let node = size.nodes().next().unwrap();
        // The board claims a winner on the start position with a node far out of band.
        let step = predictor.check(
            0,
            &Record::from_moves(Side::Cut, &[]).unwrap(),
            &position,
            &codes,
            Outcome::GameOver(Side::Short),
        );
        assert_eq!(step.class, Class::Wiring);
        assert_eq!(
            step.detail,
            format!(
                "node {node} is 300 codes off its prediction (band {})",
                firmware::band_codes(&boards::NUCLEO_F446RE)
            )
        );
    }
}
