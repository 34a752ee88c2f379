//! What the firmware would read on a position: node voltages, then ADC codes, then the move
//! the heuristic makes from those codes.

use heuristic::{Node, Position, Ranking};
use num_traits::ToPrimitive;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::exact::ExactVoltages;
use crate::physical::{self, Adc, Board, Parts, PullupState};

/// Seeds of one board are split into streams so that drawing the ADC does not shift the
/// resistor values drawn from the same seed.
const ADC_STREAM: u64 = 0x0adc;
const NOISE_STREAM: u64 = 0x7015e;

/// Who reads the position.
#[derive(Clone, Debug, PartialEq)]
pub enum Reader {
    /// A physical board: nominal parts and a perfect converter without a seed; with one,
    /// parts drawn from the tolerance model, one ADC device's static errors and noise.
    Board {
        /// The board.
        board: Box<Board>,
        /// The tolerance seed.
        seed: Option<u64>,
    },
    /// The exact model's voltages read by an ideal converter with Vref = supply.
    IdealAdc {
        /// Resolution.
        bits: u8,
    },
}

/// One reading of every node.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Volts per node in [`heuristic::Size::nodes`] order (the exact models' supply is 1 V);
    /// `None` where nothing defines the voltage.
    pub volts: Vec<Option<f64>>,
    /// ADC code per node; Q is not measured and is taken as full scale, as the firmware does.
    /// `None` where the voltage is undefined.
    pub codes: Vec<Option<u16>>,
    /// The converter that read them.
    pub adc: Adc,
    /// The parts of the board, for a physical reader.
    pub parts: Option<Parts>,
}

impl Reader {
    /// Reads `position`; `exact` is the exact solution of the model (used by
    /// [`Reader::IdealAdc`]).
    pub fn read(&self, position: &Position, exact: &ExactVoltages) -> Reading {
        let size = position.size();
        match self {
            Reader::Board { board, seed } => {
                let (parts, adc) = match seed {
                    Some(s) => (
                        Parts::draw(board, size, *s),
                        Adc::draw(board, s.wrapping_add(ADC_STREAM)),
                    ),
                    None => (Parts::nominal(board, size), Adc::nominal(board)),
                };
                let mut noise = ChaCha8Rng::seed_from_u64(seed.unwrap_or(0) ^ NOISE_STREAM);
                let solution = physical::solve(board, &parts, position, PullupState::On);
                let volts = solution.all_volts().to_vec();
                let codes = size
                    .nodes()
                    .zip(&volts)
                    .map(|(node, v)| match node {
                        Node::Top => Some(adc.full_scale()),
                        _ => v.map(|v| adc.read(v, &mut noise)),
                    })
                    .collect();
                Reading {
                    volts,
                    codes,
                    adc,
                    parts: Some(parts),
                }
            }
            Reader::IdealAdc { bits } => {
                let adc = Adc::ideal(*bits, 1.0);
                let volts: Vec<Option<f64>> = size
                    .nodes()
                    .map(|n| exact.voltage(n).and_then(|v| v.to_f64()))
                    .collect();
                let codes = size
                    .nodes()
                    .zip(&volts)
                    .map(|(node, v)| match node {
                        Node::Top => Some(adc.full_scale()),
                        _ => v.map(|v| adc.transfer(v)),
                    })
                    .collect();
                Reading {
                    volts,
                    codes,
                    adc,
                    parts: None,
                }
            }
        }
    }
}

impl Reading {
    /// The codes as the heuristic sees them: an undefined node reads 0 (every node of a
    /// cut-off part alike, so its resistors show no drop).
    pub fn code_values(&self) -> Vec<u16> {
        self.codes.iter().map(|c| c.unwrap_or(0)).collect()
    }

    /// The heuristic's ranking over the codes, as the firmware makes it (reading-order
    /// tie-break on equal code drops); `None` when no resistor is left.
    pub fn ranking(&self, position: &Position) -> Option<Ranking<u16>> {
        heuristic::rank(position, &self.code_values())
            .ok()
            .flatten()
    }
}
