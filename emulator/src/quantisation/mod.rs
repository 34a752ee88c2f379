//! The quantisation study's computation: for every decision position, every converter and
//! every resolution, the move the heuristic makes from ADC codes, judged against the exact
//! tied set ([`Judgement`]), with the drop it gave away; and the tally of them over a set of
//! positions ([`Tally`]). No files, plots or words: `studies::quantisation` reports on top.
//!
//! Converters: an ideal ADC on the exact `ideal` network, then boards (their network with
//! parts and converter drawn from a seed, exactly what `birdcage analyze --board P
//! --tolerance-seed S --adc-bits N` reads). A board's divergence is put down to the first
//! counterfactual that already diverges ([`Counterfactuals::cause`]):
//!
//! 1. the ideal network through an ideal converter at the board's LSB: quantisation;
//! 2. the board's network with nominal parts (pull-ups, series resistor, wires) through an
//!    ideal converter: pull-ups;
//! 3. the board's network with its drawn parts through an ideal converter: tolerance;
//! 4. otherwise the drawn device's offset, gain, INL, DNL and noise: the converter.
//!
//! `cargo test -p emulator` runs the study on the M=3 tree and a seeded M=4 sample for both
//! board profiles (`tests/quantisation.rs`) and prints the M=3 table with its conclusion.

mod converter;
mod tally;

pub use converter::Converter;
pub use tally::{Column, Lost, MARGIN_BINS, MARGIN_BITS, Tally, margin_bin, margin_bin_edges};

use heuristic::{Edge, Model, Position};

use crate::exact::{self, ExactVoltages};
use crate::physical::{self, PullupState};
use crate::reading::{code_choice, code_move};
use crate::truth::Truth;
use crate::verdict::{Counterfactuals, Judgement};
use converter::Prepared;

/// One LSB of an ideal `bits` converter whose full scale is `reference` (a fraction of the
/// supply: 1 when the converter is ratiometric), as a share of the supply. The one conversion
/// between codes and shares of the supply the studies use.
///
/// ```
/// assert_eq!(emulator::quantisation::lsb_share(10, 1.0), 1.0 / 1024.0);
/// ```
pub fn lsb_share(bits: u8, reference: f64) -> f64 {
    reference / f64::from(1u32 << bits)
}

/// Converters at resolutions, ready to read any position of one size. A column is one
/// converter at one resolution: converter-major, resolutions in the order given.
#[derive(Debug)]
pub struct Quantiser {
    bits: Vec<u8>,
    converters: Vec<Prepared>,
}

/// One position read by every column.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The position's exact truth.
    pub truth: Truth,
    /// One move per column.
    pub moves: Vec<ColumnMove>,
}

/// One column's move on a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColumnMove {
    /// The move against the exact truth.
    pub judgement: Judgement,
    /// The move from the codes.
    pub chosen: Edge,
    /// The exact drop it gave away (best − its own), as a share of the supply.
    pub lost: f64,
}

impl Quantiser {
    /// Prepares `converters` at each of `bits` for positions of `size`; refused when a board
    /// cannot take a resolution.
    pub fn new(
        converters: &[Converter],
        bits: &[u8],
        size: heuristic::Size,
    ) -> Result<Quantiser, boards::ProfileError> {
        Ok(Quantiser {
            bits: bits.to_vec(),
            converters: converters
                .iter()
                .map(|c| Prepared::new(c, bits, size))
                .collect::<Result<_, _>>()?,
        })
    }

    /// Columns: converters × resolutions.
    pub fn columns(&self) -> usize {
        self.converters.len() * self.bits.len()
    }

    /// The resolutions, in column order within a converter.
    pub fn bits(&self) -> &[u8] {
        &self.bits
    }

    /// One LSB of `column`'s converter at its resolution, as a share of the supply.
    pub fn lsb_share(&self, column: usize) -> f64 {
        let b = self.bits.len();
        self.converters[column / b].stages[column % b].lsb_share
    }

    /// Solves `position` exactly and reads it with every column; `None` when no resistor
    /// is left.
    pub fn read(&self, position: &Position) -> Option<Decision> {
        // The big-integer voltages only when machine integers may not hold the truth, or a
        // board reads them.
        let exact = std::cell::OnceCell::new();
        let exact = || exact.get_or_init(|| exact::solve_model(position, Model::Ideal));
        let truth = match Truth::of_small(position) {
            Some(truth) => truth?,
            None => Truth::from_exact(position, exact())?,
        };
        let moves = self.judge(position, &truth, &exact);
        Some(Decision { truth, moves })
    }

    /// Reads every position in order and tallies them, keeping `worst` divergences per
    /// column: the study in one thread (the studies run chunks in parallel and tally in the
    /// same order, with the same result).
    pub fn tally<'a>(
        &self,
        positions: impl IntoIterator<Item = &'a Position>,
        worst: usize,
    ) -> Tally {
        let mut tally = Tally::new(self.columns(), worst);
        for (i, p) in positions.into_iter().enumerate() {
            if let Some(d) = self.read(p) {
                tally.add(i as u32, &d);
            }
        }
        tally
    }

    fn judge<'e>(
        &self,
        position: &Position,
        truth: &Truth,
        exact: &dyn Fn() -> &'e ExactVoltages,
    ) -> Vec<ColumnMove> {
        let size = position.size();
        let mut out = Vec::with_capacity(self.columns());
        for p in &self.converters {
            // The drawn board's volts are read at every resolution; the nominal board's, and
            // the ideal converter's move on the ideal network, only explain a divergence
            // (about 1 % of decisions), so they are worked out when one needs them.
            let drawn = p.stages[0].board.as_ref().map(|s| {
                // A network f64 cannot solve (a board far outside `boards::bounds`; the CLI
                // refuses those) reads as undefined, as a cut-off node does.
                s.reader
                    .volts(position, exact())
                    .unwrap_or_else(|_| vec![None; size.node_count()])
            });
            let mut nominal_volts: Option<Vec<Option<f64>>> = None;
            for stage in &p.stages {
                let quantised = || match stage.reads_exact(truth) {
                    true => Some(truth.choice),
                    false => code_choice(position, &stage.quantiser, &truth.volts),
                };
                let chosen = match (&stage.board, &drawn) {
                    (Some(s), Some(drawn)) => code_move(position, &s.reader.codes(drawn)),
                    _ => quantised(),
                };
                let Some(chosen) = chosen else { continue };
                let judgement =
                    Judgement::judge(truth, chosen, || match (&stage.board, &drawn, &p.board) {
                        (Some(s), Some(drawn), Some((board, nominal_parts))) => {
                            let nominal = nominal_volts.get_or_insert_with(|| {
                                physical::game_volts(
                                    board,
                                    nominal_parts,
                                    position,
                                    PullupState::On,
                                )
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
                    });
                out.push(ColumnMove {
                    judgement,
                    chosen,
                    lost: truth.shortfall(size, chosen),
                });
            }
        }
        out
    }
}
