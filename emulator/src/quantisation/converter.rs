//! What the study reads positions with, and each converter prepared at every resolution.

use heuristic::Size;

use crate::physical::{Adc, Board, Build, Parts};
use crate::reading::{Prepared as PreparedReader, Reader};

/// What the study reads positions with.
#[derive(Clone, Debug, PartialEq)]
pub enum Converter {
    /// The exact `ideal` network through an ideal converter (Vref = supply).
    Ideal,
    /// A board: `spec` as `--board` takes it, parts and converter drawn from `seed`.
    Board {
        /// Profile name or file.
        spec: String,
        /// The board.
        board: Box<Board>,
        /// Tolerance seed (parts, ADC device, noise).
        seed: u64,
    },
}

impl Converter {
    /// The name reports use.
    pub fn name(&self) -> String {
        match self {
            Converter::Ideal => "ideal".to_string(),
            Converter::Board { spec, seed, .. } => format!("{spec}#{seed}"),
        }
    }

    /// The `birdcage analyze` options that read a position the same way at `bits`.
    pub fn analyze_options(&self, bits: u8) -> String {
        match self {
            Converter::Ideal => format!("--adc-bits {bits}"),
            Converter::Board { spec, seed, .. } => {
                format!("--board {spec} --tolerance-seed {seed} --adc-bits {bits}")
            }
        }
    }
}

/// A converter at one resolution, ready to read any position.
#[derive(Debug)]
pub(super) struct Stage {
    /// One LSB as a share of the supply: reference / (supply · 2^bits).
    pub(super) lsb_share: f64,
    /// Ideal converter on the ideal network's fractions of the supply, at this LSB.
    pub(super) quantiser: Adc,
    pub(super) board: Option<BoardStage>,
}

#[derive(Debug)]
pub(super) struct BoardStage {
    /// Ideal converter on the board's volts.
    pub(super) ideal: Adc,
    /// The board as `analyze` reads it (drawn parts and converter).
    pub(super) reader: PreparedReader,
}

/// A converter at every resolution, with the board's nominal parts for the pull-ups'
/// counterfactual.
#[derive(Debug)]
pub(super) struct Prepared {
    pub(super) stages: Vec<Stage>,
    pub(super) board: Option<(Box<Board>, Parts)>,
}

impl Prepared {
    pub(super) fn new(
        converter: &Converter,
        bits: &[u8],
        size: Size,
    ) -> Result<Self, boards::ProfileError> {
        let mut stages = Vec::new();
        for &b in bits {
            stages.push(match converter {
                Converter::Ideal => Stage {
                    lsb_share: super::lsb_share(b, 1.0),
                    quantiser: Adc::ideal(b, 1.0),
                    board: None,
                },
                Converter::Board { board, seed, .. } => {
                    let board = board.as_ref().clone().with_adc_bits(b)?;
                    let ratio = board.reference_volts() / board.supply_volts;
                    Stage {
                        lsb_share: super::lsb_share(b, ratio),
                        quantiser: Adc::ideal(b, ratio),
                        board: Some(BoardStage {
                            ideal: Adc::ideal(b, board.reference_volts()),
                            reader: Reader::Board {
                                board: Box::new(board),
                                seed: Some(*seed),
                            }
                            .prepare(size),
                        }),
                    }
                }
            });
        }
        let board = match converter {
            Converter::Ideal => None,
            Converter::Board { board, .. } => {
                Some((board.clone(), Build::parts(board, size, None)))
            }
        };
        Ok(Prepared { stages, board })
    }
}
