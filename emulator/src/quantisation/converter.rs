//! What the study reads positions with, and each converter prepared at every resolution.

use heuristic::Size;

use crate::physical::{Adc, Board, Build, Parts};
use crate::reading::{Prepared as PreparedReader, Reader};
use crate::truth::Truth;

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
    /// An exact margin above which `quantiser` reads the exact choice, so its codes need not
    /// be worked out ([`Stage::reads_exact`]); `None` for a board's, whose reference may
    /// differ from the supply.
    pub(super) clear_margin: Option<f64>,
    pub(super) board: Option<BoardStage>,
}

impl Stage {
    /// The ideal converter (reference at the supply) at `bits`.
    fn ideal(bits: u8) -> Stage {
        let lsb_share = super::lsb_share(bits, 1.0);
        Stage {
            lsb_share,
            quantiser: Adc::ideal(bits, 1.0),
            // Four LSB, and half of one more for the floats' rounding.
            clear_margin: Some(4.5 * lsb_share),
            board: None,
        }
    }

    /// Whether `quantiser` must choose the exact choice of `truth`'s decision. With the
    /// reference at the supply, every node's code is within one LSB of its exact value in LSB
    /// (rounding: half an LSB; the clamp at full scale and the top node read as full scale:
    /// one), so every resistor's code drop is within two LSB of its exact drop, and a best
    /// drop that no other edge ties and that is more than four LSB clear of the runner-up is
    /// read as the only largest. (Tied edges are not: rounding breaks their tie either way.)
    /// Most decisions are that clear at most resolutions: their conversions were a quarter
    /// of the M=4 study's time.
    pub(super) fn reads_exact(&self, truth: &Truth) -> bool {
        truth.tied.count_ones() == 1
            && matches!((self.clear_margin, truth.margin), (Some(clear), Some(m)) if m > clear)
    }
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
                Converter::Ideal => Stage::ideal(b),
                Converter::Board { board, seed, .. } => {
                    let board = board.as_ref().clone().with_adc_bits(b)?;
                    let ratio = board.reference_volts() / board.supply_volts;
                    Stage {
                        lsb_share: super::lsb_share(b, ratio),
                        quantiser: Adc::ideal(b, ratio),
                        clear_margin: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::code_choice;
    use rand::SeedableRng;

    /// Where [`Stage::reads_exact`] says so, the ideal converter's codes do choose the exact
    /// choice, at every resolution, on random positions of M=3 to 6 (cut-off parts, shorts
    /// and near ties included): checked against the codes worked out in full. It says so
    /// often (else the check would be empty), and with no clearance the same claim is false
    /// on these positions (so the check can fail).
    #[test]
    fn a_clear_decision_reads_as_the_exact_choice() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(53);
        let bits: Vec<u8> = (6..=16).collect();
        let (mut clear, mut read, mut wrong_without) = (0, 0, 0);
        for m in 3..=6 {
            let size = Size::new(m).unwrap();
            let stages = Prepared::new(&Converter::Ideal, &bits, size)
                .unwrap()
                .stages;
            for _ in 0..400 {
                let p = crate::games::any_position(&mut rng, size);
                let Some(truth) = Truth::of(&p) else { continue };
                for (stage, &b) in stages.iter().zip(&bits) {
                    let codes = code_choice(&p, &stage.quantiser, &truth.volts);
                    read += 1;
                    if stage.reads_exact(&truth) {
                        clear += 1;
                        assert_eq!(codes, Some(truth.choice), "M={m} {p:?}");
                    }
                    let loose = Stage {
                        clear_margin: Some(0.0),
                        ..Stage::ideal(b)
                    };
                    if loose.reads_exact(&truth) && codes != Some(truth.choice) {
                        wrong_without += 1;
                    }
                }
            }
        }
        assert!(clear * 2 > read, "{clear} of {read} clear");
        assert!(wrong_without > 0, "no clearance: never wrong");
    }
}
