//! The self-check: after the opponent's turn, the codes must fit the position the machine
//! expects (its own cuts made, exactly one new short) within the board's tolerance band,
//! predicted with `heuristic`'s float solver from the profile's nominal values.
//!
//! Short's move is not told to the machine: it is found as the short that explains the codes.
//! A short across a resistor that carries (almost) no current changes no code, so several
//! shorts can explain the same codes; the [`Tracker`] keeps up to [`Tracker::CAPACITY`] such
//! hypotheses, best fit first, and later turns tell them apart.

use core::fmt;

use boards::Profile;
use heuristic::{Circuit, Edge, EdgeState, Move, Node, Position, Side, Size, solve_in};
use serde::{Deserialize, Serialize};

use crate::{Codes, Square};

/// Unknowns of the largest system the firmware solves: the cage's nodes but Q, which the supply
/// fixes (the bottom terminal is one: the series resistor keeps it off ground).
const UNKNOWNS: usize = boards::CAGE_SIZE.node_count() - 1;

/// The part of the hardware that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Component {
    /// The node sampler (ADC or pull-up switch).
    Sampler,
    /// The LEDs.
    Leds,
    /// The button.
    Button,
    /// The edge fixture.
    Fixture,
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Component::Sampler => "sampler",
            Component::Leds => "LEDs",
            Component::Button => "button",
            Component::Fixture => "edge fixture",
        })
    }
}

/// A node whose code is outside the band around its prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Deviation {
    /// The node.
    pub node: Square,
    /// Its code.
    pub code: u16,
    /// The code predicted.
    pub expected: u16,
    /// The band allowed either side.
    pub band: u16,
}

impl fmt::Display for Deviation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "node {} reads {}, expected {} ± {}",
            self.node, self.code, self.expected, self.band
        )
    }
}

/// Why the machine will not move: what it measured does not fit what it expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Fault {
    /// Before the first move the cage must hold every resistor.
    #[error("the cage is not at the start position: {0}")]
    NotAtStart(Deviation),
    /// The codes fit the position before the machine's last cut.
    #[error("{0} still conducts: the requested cut was not made")]
    CutNotMade(Square),
    /// The codes fit the position after the machine's cut with no new short.
    #[error("no new short since {0}: make Short's move, then press")]
    NoShort(Square),
    /// No single new short explains the codes.
    #[error("no single short explains the codes: {0}")]
    Unexplained(Deviation),
    /// The position the machine believes is over, but the game-over reading says play on.
    #[error("the bottom terminal reads {code}, but the position says {winner} has won")]
    Disagrees {
        /// The bottom terminal's code with the pull-ups released.
        code: u16,
        /// Who has won in the position.
        #[serde(with = "crate::wire::side")]
        winner: Side,
    },
    /// The game-over reading says `winner` has won, which the game the machine has tracked
    /// cannot be: Cut wins only by the machine's own cuts, Short only by a wire path its last
    /// move completed (a grounded series resistor or a stuck channel reads as a game over).
    #[error("the bottom terminal reads {code}: {winner} has won, which the game cannot be yet")]
    NotWon {
        /// The bottom terminal's code with the pull-ups released.
        code: u16,
        /// Who the reading says has won.
        #[serde(with = "crate::wire::side")]
        winner: Side,
    },
    /// The position has no resistor left although the game-over reading says play on.
    #[error("no resistor is left to cut, but the bottom terminal says the game goes on")]
    NoResistor,
    /// The solver could not predict the codes (a board beyond M=4).
    #[error("the codes cannot be predicted for this board")]
    Prediction,
    /// A hardware driver failed.
    #[error("{0} error")]
    Hardware(Component),
    /// The state the machine keeps between presses is not what it sealed after the last one:
    /// something flipped it while the machine waited (an upset); the game is dropped.
    #[error(
        "the state kept between presses changed while the machine waited: press for a new game"
    )]
    Corrupted,
}

/// Codes either side of a prediction that still fit: resistor tolerance, ADC error, rounding.
///
/// Every node voltage is a ratio of conductances, so it moves by at most about twice the
/// resistors' relative tolerance of full scale when they stray (one divider moves by half that;
/// the factor covers stacking across the cage), plus the ADC's worst total error at the
/// resolution read, plus one code for the converter's truncation. NUCLEO-F446RE: 1 % parts give
/// ⌈2 × 0.01 × 1024⌉ = 21, the ADC ±5 LSB at 12 bits is ⌈1.25⌉ = 2 at 10 bits, so 24 codes.
pub fn band_codes(profile: &Profile) -> u16 {
    let range = u64::from(profile.full_scale_code()) + 1;
    let ppm = u64::from(profile.resistors.tolerance.ppm);
    let tolerance = (2 * ppm * range).div_ceil(1_000_000);
    let adc = profile
        .adc_accuracy()
        .total
        .bound_milli_lsb()
        .unwrap_or(0)
        .div_ceil(1000);
    (tolerance + u64::from(adc) + 1).min(u64::from(u16::MAX)) as u16
}

/// The code of every node of `position` (in [`Size::nodes`] order) with the pull-ups on, from
/// the profile's nominal values: unit resistors, pull-ups R/Rpu from every node but Q, the
/// series resistor R/Rs, and a supply of 2^bits codes (the ADC is ratiometric).
pub fn predict(profile: &Profile, position: &Position) -> Option<[f32; heuristic::MAX_NODES]> {
    let size = position.size();
    let r = profile.resistor_ohms().max(1) as f32;
    let circuit = Circuit::uniform(
        size,
        f32::from(profile.full_scale_code()) + 1.0,
        1.0,
        Some(r / profile.pullup_ohms().max(1) as f32),
        Some(r / profile.series_ohms().max(1) as f32),
    );
    let voltages = solve_in::<f32, UNKNOWNS>(position, &circuit).ok()?;
    let mut out = [0.0; heuristic::MAX_NODES];
    out[..size.node_count()].copy_from_slice(voltages.values());
    Some(out)
}

/// The node farthest from its prediction (Q excluded), as a [`Deviation`].
fn worst(profile: &Profile, position: &Position, codes: &Codes) -> Option<Deviation> {
    let predicted = predict(profile, position)?;
    let band = band_codes(profile);
    let full_scale = profile.full_scale_code();
    let size = position.size();
    size.nodes()
        .filter(|&n| n != Node::Top)
        .map(|node| {
            let expected = predicted[node.index(size)].clamp(0.0, f32::from(full_scale));
            let expected = (expected + 0.5) as u16;
            Deviation {
                node: Square::node(node),
                code: codes.get(node),
                expected,
                band,
            }
        })
        .max_by_key(|d| d.code.abs_diff(d.expected))
}

fn fits(d: &Deviation) -> bool {
    d.code.abs_diff(d.expected) <= d.band
}

/// What the machine believes the cage holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tracker {
    /// Positions consistent with every check so far, best fit first, Cut to move; the machine's
    /// pending cut is not in them.
    hypotheses: heapless::Vec<Position, { Tracker::CAPACITY }>,
    /// The machine's last cut, made on the cage since the last check.
    cut: Option<Edge>,
}

impl Tracker {
    /// Hypotheses kept when several shorts explain the codes.
    pub const CAPACITY: usize = 16;

    /// The start position of `size`, Cut (the machine) to move.
    pub fn new(size: Size) -> Tracker {
        let mut hypotheses = heapless::Vec::new();
        // Capacity is at least one.
        let _ = hypotheses.push(Position::new(size, Side::Cut));
        Tracker {
            hypotheses,
            cut: None,
        }
    }

    /// The best hypothesis, with the machine's pending cut played.
    pub fn position(&self) -> Position {
        let mut best = self.hypotheses[0].clone();
        if let Some(cut) = self.cut {
            let _ = best.play(Move {
                side: Side::Cut,
                edge: cut,
            });
        }
        best
    }

    /// How many positions still explain every check.
    pub fn hypotheses(&self) -> usize {
        self.hypotheses.len()
    }

    /// The machine's cut waiting for Short's reply.
    pub fn pending_cut(&self) -> Option<Edge> {
        self.cut
    }

    /// Whether `side` can have won the game so far: Cut by the machine's cuts (every
    /// hypothesis has them all, the pending one included), Short by one more short on some
    /// hypothesis, its last move, which the tracker has not learnt yet.
    pub fn can_have_won(&self, side: Side) -> bool {
        let after = |before: &Position| match self.cut {
            Some(cut) => with_cut(before, cut),
            None => Some(before.clone()),
        };
        match side {
            Side::Cut => self.position().winner() == Some(Side::Cut),
            Side::Short => self.hypotheses.iter().filter_map(after).any(|p| {
                p.resistors().any(|edge| {
                    let mut q = p.clone();
                    q.set_to_move(Side::Short);
                    q.play(Move {
                        side: Side::Short,
                        edge,
                    })
                    .is_ok()
                        && q.winner() == Some(Side::Short)
                })
            }),
        }
    }

    /// Records the machine's move; hypotheses where `edge` is no longer a resistor are dropped
    /// (the move is chosen on the best one, which always keeps it).
    pub fn play_cut(&mut self, edge: Edge) {
        self.hypotheses
            .retain(|p| p.state(edge) == EdgeState::Resistor);
        self.cut = Some(edge);
    }

    /// Accepts the codes without checking: the machine's cut is taken as made and no short is
    /// identified (self-check off).
    pub fn assume(&mut self) {
        if let Some(cut) = self.cut.take() {
            for p in self.hypotheses.iter_mut() {
                let _ = p.play(Move {
                    side: Side::Cut,
                    edge: cut,
                });
                // Short has moved, but nothing is known of the move.
                p.set_to_move(Side::Cut);
            }
        }
    }

    /// Checks `codes` against the expected position and learns Short's move. On success returns
    /// the short found in the best hypothesis (`None` before the first move); on failure the
    /// tracker is unchanged, so the check can run again once the cage is put right.
    pub fn check(&mut self, profile: &Profile, codes: &Codes) -> Result<Option<Edge>, Fault> {
        let Some(cut) = self.cut else {
            let start = &self.hypotheses[0];
            let d = worst(profile, start, codes).ok_or(Fault::Prediction)?;
            return if fits(&d) {
                Ok(None)
            } else {
                Err(Fault::NotAtStart(d))
            };
        };
        let mut found: heapless::Vec<(u16, Position, Edge), { Tracker::CAPACITY }> =
            heapless::Vec::new();
        let mut best_miss: Option<Deviation> = None;
        for before in &self.hypotheses {
            let Some(after) = with_cut(before, cut) else {
                continue;
            };
            for short in after.resistors() {
                let mut p = after.clone();
                if p.play(Move {
                    side: Side::Short,
                    edge: short,
                })
                .is_err()
                {
                    continue;
                }
                let d = worst(profile, &p, codes).ok_or(Fault::Prediction)?;
                let error = d.code.abs_diff(d.expected);
                if !fits(&d) {
                    if best_miss.is_none_or(|b| error < b.code.abs_diff(b.expected)) {
                        best_miss = Some(d);
                    }
                    continue;
                }
                if found.iter().any(|(_, q, _)| *q == p) {
                    continue;
                }
                insert_best(&mut found, (error, p, short));
            }
        }
        if found.is_empty() {
            return Err(self.diagnose(profile, codes, cut, best_miss));
        }
        // A short across a resistor that carries little current changes the codes little. Only
        // when the position with no short at all fits better than every short by more than half
        // the band (more than reading noise can explain) did nobody move; otherwise the quiet
        // short is taken as the move.
        let best = found[0].0;
        let margin = band_codes(profile) / 2;
        for before in &self.hypotheses {
            let Some(after) = with_cut(before, cut) else {
                continue;
            };
            if let Some(d) = worst(profile, &after, codes)
                && fits(&d)
                && d.code.abs_diff(d.expected) + margin < best
            {
                return Err(Fault::NoShort(cut.into()));
            }
        }
        let short = found[0].2;
        self.hypotheses.clear();
        for (_, p, _) in found {
            let _ = self.hypotheses.push(p);
        }
        self.cut = None;
        Ok(Some(short))
    }

    /// Why no hypothesis fits: the cut not made, no short made, or the node that differs most.
    fn diagnose(
        &self,
        profile: &Profile,
        codes: &Codes,
        cut: Edge,
        best_miss: Option<Deviation>,
    ) -> Fault {
        let fits_one = |p: &Position| worst(profile, p, codes).is_some_and(|d| fits(&d));
        for before in &self.hypotheses {
            // Cut not made: the codes fit the position before it, with or without a short.
            let shorted = before.resistors().filter_map(|e| {
                let mut p = before.clone();
                p.set_to_move(Side::Short);
                p.play(Move {
                    side: Side::Short,
                    edge: e,
                })
                .ok()
                .map(|_| p)
            });
            if fits_one(before) || shorted.into_iter().any(|p| fits_one(&p)) {
                return Fault::CutNotMade(cut.into());
            }
        }
        for before in &self.hypotheses {
            let mut after = before.clone();
            if after
                .play(Move {
                    side: Side::Cut,
                    edge: cut,
                })
                .is_ok()
                && fits_one(&after)
            {
                return Fault::NoShort(cut.into());
            }
        }
        match best_miss {
            Some(d) => Fault::Unexplained(d),
            None => Fault::NoResistor,
        }
    }
}

/// Keeps `found` sorted by error, best first, dropping the worst when full.
fn insert_best<T>(
    found: &mut heapless::Vec<(u16, T, Edge), { Tracker::CAPACITY }>,
    item: (u16, T, Edge),
) {
    let at = found
        .iter()
        .position(|(e, _, _)| *e > item.0)
        .unwrap_or(found.len());
    if at >= Tracker::CAPACITY {
        return;
    }
    if found.is_full() {
        found.pop();
    }
    let _ = found.insert(at, item);
}

/// `before` with the machine's `cut` made, if it can be.
fn with_cut(before: &Position, cut: Edge) -> Option<Position> {
    let mut after = before.clone();
    after
        .play(Move {
            side: Side::Cut,
            edge: cut,
        })
        .ok()?;
    Some(after)
}
