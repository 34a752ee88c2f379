//! What the firmware would read on a position: node voltages, then ADC codes, then the move
//! the heuristic makes from those codes.

use heuristic::{Edge, EdgeState, Node, Position, Ranking, Size};
use num_traits::ToPrimitive;

use crate::exact::ExactVoltages;
use crate::physical::{Adc, Board, Build, Parts, PullupState, SolveError, game_volts};

/// Who reads the position.
#[derive(Clone, Debug, PartialEq)]
pub enum Reader {
    /// A physical board: its [`Build`] for the seed (nominal parts and a perfect converter
    /// without one), M=3 and M=4 games on the M=4 cage as the firmware plays them.
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
    /// [`Reader::IdealAdc`]); an error when the board's network cannot be solved.
    pub fn read(&self, position: &Position, exact: &ExactVoltages) -> Result<Reading, SolveError> {
        let prepared = self.prepare(position.size());
        let volts = prepared.volts(position, exact)?;
        Ok(prepared.reading(volts))
    }

    /// The reader with its parts and converter drawn once for boards of `size`, to read many
    /// positions as [`Reader::read`] reads each one.
    pub fn prepare(&self, size: Size) -> Prepared {
        match self {
            Reader::Board { board, seed } => {
                let build = Build::draw(board, size, *seed);
                Prepared {
                    size,
                    adc: build.adc.clone(),
                    normals: build.adc.normals(size.node_count(), &mut build.noise()),
                    board: Some((board.clone(), build)),
                }
            }
            Reader::IdealAdc { bits } => Prepared {
                size,
                board: None,
                normals: Vec::new(),
                adc: Adc::ideal(*bits, 1.0),
            },
        }
    }
}

/// A [`Reader`] with its parts and converter drawn: reads any position of its size.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    size: Size,
    board: Option<(Box<Board>, Build)>,
    adc: Adc,
    /// The noise a reading sees: every reading starts a fresh stream from the build's seed
    /// ([`Build::noise`]), so the deviates are the same for each and are drawn once, enough
    /// for a reading of every node.
    normals: Vec<f64>,
}

impl Prepared {
    /// The node voltages the converter sees: the board's network with its parts (pull-ups
    /// on), or the exact model's voltages as fractions of a 1 V supply.
    pub fn volts(
        &self,
        position: &Position,
        exact: &ExactVoltages,
    ) -> Result<Vec<Option<f64>>, SolveError> {
        match &self.board {
            Some((board, build)) => game_volts(board, &build.parts, position, PullupState::On),
            None => Ok(self
                .size
                .nodes()
                .map(|n| exact.voltage(n).and_then(|v| v.to_f64()))
                .collect()),
        }
    }

    /// The converter.
    pub fn adc(&self) -> &Adc {
        &self.adc
    }

    /// What the converter makes of `volts`: a board's device with its noise (a fresh noise
    /// stream per reading, so a position reads the same whatever was read before), or the
    /// ideal transfer.
    pub fn reading(&self, volts: Vec<Option<f64>>) -> Reading {
        Reading {
            codes: self.codes(&volts),
            volts,
            adc: self.adc.clone(),
            parts: self.board.as_ref().map(|(_, b)| b.parts.clone()),
        }
    }

    /// The codes alone of [`Prepared::reading`].
    pub fn codes(&self, volts: &[Option<f64>]) -> Vec<Option<u16>> {
        match &self.board {
            Some(_) => {
                self.adc.warm(volts);
                let mut normals = self.normals.iter().copied();
                node_codes(self.size, &self.adc, volts, |v| {
                    self.adc.read_normals(v, || {
                        normals.next().expect("drawn for a reading of every node")
                    })
                })
            }
            None => node_codes(self.size, &self.adc, volts, |v| self.adc.transfer(v)),
        }
    }
}

/// The code of every node in [`Size::nodes`] order: Q is not measured and is taken as full
/// scale, as the firmware does; an undefined voltage has no code.
pub fn node_codes(
    size: Size,
    adc: &Adc,
    volts: &[Option<f64>],
    mut convert: impl FnMut(f64) -> u16,
) -> Vec<Option<u16>> {
    size.nodes()
        .zip(volts)
        .map(|(node, v)| match node {
            Node::Top => Some(adc.full_scale()),
            _ => v.map(&mut convert),
        })
        .collect()
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
        code_ranking(position, &self.codes)
    }
}

/// The firmware's move on `position` when `adc` converts `volts` with its static transfer
/// (no noise): the heuristic over the codes.
pub fn code_choice(position: &Position, adc: &Adc, volts: &[Option<f64>]) -> Option<Edge> {
    let codes = node_codes(position.size(), adc, volts, |v| adc.transfer(v));
    code_move(position, &codes)
}

/// The heuristic over node codes as the firmware ranks them: an undefined node reads 0.
pub fn code_ranking(position: &Position, codes: &[Option<u16>]) -> Option<Ranking<u16>> {
    let values: Vec<u16> = codes.iter().map(|c| c.unwrap_or(0)).collect();
    heuristic::rank(position, &values).ok().flatten()
}

/// The move alone of [`code_ranking`], without building the ranking: the first resistor in
/// reading order with the largest code drop. The studies call this for every position,
/// converter and resolution.
pub fn code_move(position: &Position, codes: &[Option<u16>]) -> Option<Edge> {
    let size = position.size();
    debug_assert!(codes.len() >= size.node_count());
    let value = |i: usize| codes[i].unwrap_or(0);
    let mut best: Option<(Edge, u16)> = None;
    for ((i, edge), &state) in size.edges().enumerate().zip(position.states()) {
        if state != EdgeState::Resistor {
            continue;
        }
        let (a, b) = size.edge_ends(i);
        let drop = value(a).abs_diff(value(b));
        if best.is_none_or(|(_, d)| drop > d) {
            best = Some((edge, drop));
        }
    }
    best.map(|(edge, _)| edge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The fast move is the ranking's choice, ties and cut-off (undefined) nodes included.
    #[test]
    fn code_move_is_the_rankings_choice() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for m in 2..=6 {
            let size = Size::new(m).unwrap();
            for _ in 0..500 {
                let p = crate::games::any_position(&mut rng, size);
                // Few distinct codes, so that ties are common.
                let codes: Vec<Option<u16>> = (0..size.node_count())
                    .map(|_| rng.random_bool(0.9).then(|| rng.random_range(0..6u16)))
                    .collect();
                assert_eq!(
                    code_move(&p, &codes),
                    code_ranking(&p, &codes).map(|r| r.choice),
                    "{p:?} {codes:?}"
                );
            }
        }
    }
}
