//! Calibration: one board's actual part values fitted from the codes it measured over many
//! positions, and each step re-predicted with them.
//!
//! The forward model is the emulator's own ([`emulator::emulated::solve_game`] on the
//! profile's [`Board`]), read as continuous codes (volts / Vref · 2^bits, no rounding) through
//! a linear converter error: `code ≈ c · (1 + gain) + offset`. Levenberg–Marquardt fits, by
//! nonlinear least squares over every measured node of every step:
//!
//! - each cage resistor, as ln(ohms) (relative changes are what the data see, and the value
//!   stays positive);
//! - the series resistor, as ln(ohms): it sets every code of every position;
//! - the ADC's offset (codes) and gain error (fraction): without them a device's gain error
//!   would be absorbed by the resistors.
//!
//! The pull-ups stay at nominal: a pull-up (30 times a cage resistor) moves a code by about a
//! tenth of a code per percent, below the converter's non-linearity, so they cannot be fitted
//! one by one. The codes of a ratiometric network see ratios of resistances only; the one
//! thing that sets the absolute scale, the pull-ups against the cage, is as weak, and left free
//! the scale soaked up the converter's errors (up to 0.5 % on all resistors at once, measured on
//! drawn SIL boards, with the ratios right to 0.2 %). So the scale is anchored: the geometric
//! mean of the fitted resistors (identifiable edges and the series resistor) is held at
//! nominal, a heavily weighted extra residual; each resistor counts in that mean by how strongly
//! the codes see it (its Jacobian column's squared norm), so that one the data barely see does
//! not drag the others along its error. It costs a bias of that batch's (weighted) mean error,
//! for n parts of tolerance t about t/(3·√n) (0.1 % for 13 parts of 1 %).
//!
//! An edge whose resistor never carries current in the data (a cut, the cage edges an M=3
//! game leaves out, a short's bypassed part) has no influence on any code: it is reported
//! as not identifiable and kept at nominal. Standard errors come from (JᵀJ)⁻¹ scaled by the
//! residual variance; an edge whose standard error exceeds a tenth of the parts' tolerance is
//! reported as weakly determined: measured on drawn SIL boards, such an edge (one the board
//! cuts first in most games) can land several standard errors off, as the converter's
//! non-linearity is not in the model.

use emulator::emulated::{CAGE, CageSizeError, solve_game};
use emulator::physical::{Board, Parts, PullupState};
use heuristic::{Node, Position, RecordError, Side, Size};
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use crate::check::StepLine;
use crate::report::{Report, ReportError};

/// Fewest steps a fit accepts: below that a board's 25 resistors are not determined.
pub const MIN_STEPS: usize = 20;
/// Most Levenberg–Marquardt iterations.
const MAX_ITERATIONS: usize = 50;
/// Weight of the scale anchor's residual, codes per unit of mean ln(ohms): a 1e-6 drift of
/// the mean costs as much as a hundredth of a code on one node.
const ANCHOR: f64 = 1e4;
/// Finite-difference step in ln(ohms).
const STEP_LN: f64 = 1e-6;
/// A parameter whose influence on the codes is below this fraction of the largest one's is
/// not identifiable (an open branch leaks through the fixture's switches at 1e-8 of that).
const NO_INFLUENCE: f64 = 1e-4;

/// One position the board measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The game position.
    pub position: Position,
    /// The codes in the game's node order (Q included, as full scale; not fitted).
    pub codes: Vec<u16>,
}

/// Why a calibration cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// The report cannot be read or the calibration cannot be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The report names a board that is not a profile, or the profile file is not valid.
    #[error(transparent)]
    Board(#[from] boards::file::FileError),
    /// A step's record does not replay.
    #[error("step {index}: record `{record}` does not replay: {why}")]
    Record {
        /// 0-based step.
        index: usize,
        /// The record.
        record: String,
        /// The bad move and what is wrong with it.
        why: RecordError,
    },
    /// A step's codes are not one per node.
    #[error("step {index}: {got} codes for {expected} nodes")]
    Codes {
        /// 0-based step.
        index: usize,
        /// Codes in the step.
        got: usize,
        /// Nodes of the game.
        expected: usize,
    },
    /// Too few steps.
    #[error("only {0} steps with codes; a calibration needs at least {MIN_STEPS}")]
    TooFew(usize),
    /// The emulated board, the forward model, cannot hold games of the report's size.
    #[error(transparent)]
    Size(#[from] CageSizeError),
    /// The profile the report names is no longer the board the run predicted with (a
    /// profile file edited since): its parts would be fitted against the wrong nominal values.
    #[error(
        "{spec}: the board profile's values changed since the run (sha256 {now} now, {then} in the report); pass --board with the profile the run used"
    )]
    ProfileChanged {
        /// The profile named.
        spec: String,
        /// Its digest's first 12 digits now.
        now: String,
        /// The report's.
        then: String,
    },
    /// The report's header names a size that is not a board size.
    #[error("M={size} is not a board size")]
    NotASize {
        /// The size in the header.
        size: u8,
    },
}

/// The positions and codes of a report's steps, for games of `size`.
pub fn observations(size: Size, steps: &[StepLine]) -> Result<Vec<Observation>, CalibrationError> {
    let mut out = Vec::with_capacity(steps.len());
    for (index, step) in steps.iter().enumerate() {
        let bad = |why: RecordError| CalibrationError::Record {
            index,
            record: step.record.clone(),
            why,
        };
        let position = Position::from_record(size, Side::Cut, &step.record).map_err(bad)?;
        if step.codes.len() != size.node_count() {
            return Err(CalibrationError::Codes {
                index,
                got: step.codes.len(),
                expected: size.node_count(),
            });
        }
        out.push(Observation {
            position,
            codes: step.codes.clone(),
        });
    }
    Ok(out)
}

/// One fitted resistor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fitted {
    /// The cage edge (M=4 cage names), or `series`.
    pub part: String,
    /// Nominal value, ohms.
    pub nominal: f64,
    /// Fitted value, ohms (nominal when not identifiable).
    pub fitted: f64,
    /// Standard error, ohms; `None` when not identifiable.
    pub std_error: Option<f64>,
    /// Whether the data determine it at all.
    pub identifiable: bool,
    /// Whether the data pin it down: its standard error is within a tenth of the parts'
    /// tolerance (above that the converter's unmodelled non-linearity, which the standard
    /// error leaves out, can pull it by more than the tolerance).
    pub determined: bool,
}

/// How well a set of parts predicts the measured codes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Residuals {
    /// RMS of continuous prediction minus code over the fitted nodes, codes.
    pub rms: f64,
    /// The largest deviation of a rounded prediction from a measured code (Q left out).
    pub worst: u16,
    /// The mean over steps of each step's worst deviation, codes.
    pub mean_worst: f64,
    /// Steps by their worst deviation: entry k counts the steps whose worst node is k codes
    /// from its prediction.
    pub histogram: Vec<usize>,
}

/// A board's calibration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// The profile.
    pub board: String,
    /// Steps used.
    pub steps: usize,
    /// Residuals fitted (measured nodes off the rails).
    pub residuals: usize,
    /// Levenberg–Marquardt iterations.
    pub iterations: usize,
    /// Nominal parts, ideal converter.
    pub before: Residuals,
    /// Fitted parts and converter.
    pub after: Residuals,
    /// Every cage edge, in M=4 reading order.
    pub edges: Vec<Fitted>,
    /// The series resistor.
    pub series: Fitted,
    /// The converter's offset, codes, and its standard error (`None`: not identifiable).
    pub adc_offset: (f64, Option<f64>),
    /// The converter's gain error, fraction, and its standard error (`None`: not
    /// identifiable).
    pub adc_gain: (f64, Option<f64>),
}

/// The board model being fitted: parts plus a linear converter error.
#[derive(Clone, Debug)]
struct Model {
    parts: Parts,
    offset: f64,
    gain: f64,
}

/// What each fitted parameter is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Param {
    Edge(usize),
    Series,
    Offset,
    Gain,
}

impl Model {
    fn get(&self, p: Param) -> f64 {
        match p {
            Param::Edge(i) => self.parts.edge_ohms[i].ln(),
            Param::Series => self.parts.series_ohms.ln(),
            Param::Offset => self.offset,
            Param::Gain => self.gain,
        }
    }

    fn set(&mut self, p: Param, v: f64) {
        match p {
            Param::Edge(i) => self.parts.edge_ohms[i] = v.exp(),
            Param::Series => self.parts.series_ohms = v.exp(),
            Param::Offset => self.offset = v,
            Param::Gain => self.gain = v,
        }
    }
}

/// The forward model with the board's values.
#[derive(Debug)]
struct Forward<'a> {
    board: &'a Board,
    scale: f64,
    full_scale: u16,
}

impl Forward<'_> {
    fn new(board: &Board) -> Forward<'_> {
        Forward {
            board,
            scale: f64::from(1u32 << board.adc.bits) / board.reference_volts(),
            full_scale: ((1u32 << board.adc.bits) - 1) as u16,
        }
    }

    /// Continuous codes of the game's nodes (the converter's linear error included); Q, and
    /// a node nothing defines, as `None`.
    fn codes(&self, model: &Model, position: &Position) -> Vec<Option<f64>> {
        let Ok(solved) = solve_game(self.board, &model.parts, position, PullupState::On) else {
            return vec![None; position.size().node_count()];
        };
        position
            .size()
            .nodes()
            .map(|n| match n {
                Node::Top => None,
                _ => solved
                    .volts(n)
                    .map(|v| v * self.scale * (1.0 + model.gain) + model.offset),
            })
            .collect()
    }

    /// Whether a measured code carries information (not clamped at a rail).
    fn usable(&self, code: u16) -> bool {
        code > 0 && code < self.full_scale
    }

    /// Residuals over every usable measured node, in a fixed order.
    fn residuals(&self, model: &Model, data: &[Observation]) -> Vec<f64> {
        let mut r = Vec::new();
        for o in data {
            for (c, &code) in self.codes(model, &o.position).iter().zip(&o.codes) {
                if let Some(c) = c
                    && self.usable(code)
                {
                    r.push(c - f64::from(code));
                }
            }
        }
        r
    }

    /// The Jacobian of [`Forward::residuals`] over `params`: resistors by forward
    /// differences, the converter's terms exactly.
    fn jacobian(&self, model: &Model, params: &[Param], data: &[Observation]) -> DMatrix<f64> {
        let mut rows: Vec<Vec<f64>> = Vec::new();
        let mut trial = model.clone();
        for o in data {
            let base = self.codes(model, &o.position);
            let mut columns: Vec<Vec<Option<f64>>> = Vec::with_capacity(params.len());
            for &p in params {
                let column = match p {
                    Param::Offset => base.iter().map(|c| c.map(|_| 1.0)).collect(),
                    Param::Gain => base
                        .iter()
                        .map(|c| c.map(|c| (c - model.offset) / (1.0 + model.gain)))
                        .collect(),
                    Param::Edge(_) | Param::Series => {
                        let v = model.get(p);
                        trial.set(p, v + STEP_LN);
                        let moved = self.codes(&trial, &o.position);
                        trial.set(p, v);
                        base.iter()
                            .zip(&moved)
                            .map(|(b, m)| Some((m.as_ref()? - b.as_ref()?) / STEP_LN))
                            .collect()
                    }
                };
                columns.push(column);
            }
            for (k, &code) in o.codes.iter().enumerate() {
                if base[k].is_some() && self.usable(code) {
                    rows.push(columns.iter().map(|c| c[k].unwrap_or(0.0)).collect());
                }
            }
        }
        DMatrix::from_fn(rows.len(), params.len(), |i, j| rows[i][j])
    }

    /// How the model's rounded predictions meet the codes.
    fn fit(&self, model: &Model, data: &[Observation]) -> Residuals {
        let r = self.residuals(model, data);
        let rms = (r.iter().map(|x| x * x).sum::<f64>() / r.len().max(1) as f64).sqrt();
        let worsts: Vec<u16> = data
            .iter()
            .map(|o| {
                self.codes(model, &o.position)
                    .iter()
                    .zip(&o.codes)
                    .filter_map(|(c, &code)| {
                        let predicted = (*c)?.round().clamp(0.0, f64::from(self.full_scale)) as u16;
                        Some(predicted.abs_diff(code))
                    })
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let worst = worsts.iter().copied().max().unwrap_or(0);
        let mut histogram = vec![0; usize::from(worst) + 1];
        for &w in &worsts {
            histogram[usize::from(w)] += 1;
        }
        Residuals {
            rms,
            worst,
            histogram,
            mean_worst: worsts.iter().map(|&w| f64::from(w)).sum::<f64>()
                / worsts.len().max(1) as f64,
        }
    }
}

fn cost(r: &[f64]) -> f64 {
    r.iter().map(|x| x * x).sum()
}

/// Fits `profile`'s board to `data` (see the module notes for what is fitted and why).
pub fn calibrate(
    profile: &boards::Profile,
    data: &[Observation],
) -> Result<Calibration, CalibrationError> {
    if data.len() < MIN_STEPS {
        return Err(CalibrationError::TooFew(data.len()));
    }
    let board = Board::from_profile(profile);
    let forward = Forward::new(&board);
    let nominal = Model {
        parts: Parts::nominal(&board, CAGE),
        offset: 0.0,
        gain: 0.0,
    };
    if let Some(o) = data.first()
        && let Err(e) = solve_game(&board, &nominal.parts, &o.position, PullupState::On)
    {
        return Err(CalibrationError::Size(e));
    }

    // Which parameters the data see at all.
    let all: Vec<Param> = (0..CAGE.edge_count())
        .map(Param::Edge)
        .chain([Param::Series, Param::Offset, Param::Gain])
        .collect();
    let j0 = forward.jacobian(&nominal, &all, data);
    let norms: Vec<f64> = (0..all.len()).map(|j| j0.column(j).norm()).collect();
    let largest = norms.iter().copied().fold(0.0, f64::max);
    let params: Vec<Param> = all
        .iter()
        .zip(&norms)
        .filter(|(_, n)| **n > NO_INFLUENCE * largest)
        .map(|(p, _)| *p)
        .collect();

    // Levenberg–Marquardt with Marquardt's diagonal scaling.
    let mut model = nominal.clone();
    // The scale anchor: one more residual, the mean ln error of the fitted resistors, each
    // weighted by how strongly the data see it (a resistor the data barely see would drag
    // the others along its own error), so heavily weighted that it holds at zero.
    let resistors: Vec<(usize, f64)> = params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p, Param::Edge(_) | Param::Series))
        .map(|(k, p)| {
            let seen = all.iter().position(|q| q == p).map_or(0.0, |i| norms[i]);
            (k, seen * seen)
        })
        .collect();
    let total: f64 = resistors
        .iter()
        .map(|(_, w)| w)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let resistors: Vec<(usize, f64)> = resistors
        .into_iter()
        .map(|(k, w)| (k, ANCHOR * w / total))
        .collect();
    let residuals = |m: &Model| {
        let mut r = forward.residuals(m, data);
        r.push(
            resistors
                .iter()
                .map(|&(k, w)| w * (m.get(params[k]) - nominal.get(params[k])))
                .sum::<f64>(),
        );
        r
    };
    let jacobian = |m: &Model| {
        let j = forward.jacobian(m, &params, data);
        let rows = j.nrows();
        let mut j = j.insert_row(rows, 0.0);
        for &(k, w) in &resistors {
            j[(rows, k)] = w;
        }
        j
    };
    let mut r = residuals(&model);
    let mut lambda = 1e-3;
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let j = jacobian(&model);
        let jt = j.transpose();
        let a = &jt * &j;
        let g = &jt * DVector::from_column_slice(&r);
        let mut improved = false;
        let mut step_size = 0.0;
        while lambda < 1e12 {
            let mut damped = a.clone();
            for k in 0..params.len() {
                damped[(k, k)] += lambda * a[(k, k)].max(f64::MIN_POSITIVE);
            }
            let Ok(delta) = damped.svd(true, true).solve(&(-&g), 1e-12) else {
                break;
            };
            let mut trial = model.clone();
            for (k, &p) in params.iter().enumerate() {
                trial.set(p, model.get(p) + delta[k]);
            }
            let rt = residuals(&trial);
            if cost(&rt) < cost(&r) {
                step_size = delta.amax();
                model = trial;
                r = rt;
                lambda = (lambda / 10.0).max(1e-12);
                improved = true;
                break;
            }
            lambda *= 10.0;
        }
        if !improved || step_size < 1e-9 {
            break;
        }
    }

    // Standard errors at the solution.
    let j = jacobian(&model);
    let dof = r.len().saturating_sub(params.len()).max(1);
    let variance = cost(&r) / dof as f64;
    let covariance = (j.transpose() * &j)
        .pseudo_inverse(1e-12)
        .unwrap_or_else(|_| DMatrix::zeros(params.len(), params.len()));
    let se = |p: Param| {
        params
            .iter()
            .position(|&q| q == p)
            .map(|k| (covariance[(k, k)] * variance).sqrt())
    };
    let tolerance = board.tolerance.fraction();
    let fitted = |p: Param, part: String, nominal: f64, value: f64| {
        let se_ln = se(p);
        Fitted {
            part,
            nominal,
            fitted: value,
            std_error: se_ln.map(|s| s * value),
            identifiable: se_ln.is_some(),
            determined: se_ln.is_some_and(|s| s <= tolerance / 10.0),
        }
    };
    let edges = CAGE
        .edges()
        .enumerate()
        .map(|(i, e)| {
            fitted(
                Param::Edge(i),
                e.to_string(),
                board.resistor_ohms,
                model.parts.edge_ohms[i],
            )
        })
        .collect();
    Ok(Calibration {
        board: profile.name.to_string(),
        steps: data.len(),
        residuals: r.len() - 1,
        iterations,
        before: forward.fit(&nominal, data),
        after: forward.fit(&model, data),
        edges,
        series: fitted(
            Param::Series,
            "series".to_string(),
            board.series_ohms,
            model.parts.series_ohms,
        ),
        adc_offset: (model.offset, se(Param::Offset)),
        adc_gain: (model.gain, se(Param::Gain)),
    })
}

impl Calibration {
    /// The fitted board's codes on `position` (rounded, clamped; Q at full scale), in node
    /// order: the step's prediction re-made with the fitted parts and converter.
    pub fn predict(
        &self,
        profile: &boards::Profile,
        position: &Position,
    ) -> Result<Vec<u16>, CalibrationError> {
        let board = Board::from_profile(profile);
        let mut parts = Parts::nominal(&board, CAGE);
        for (slot, f) in parts.edge_ohms.iter_mut().zip(&self.edges) {
            *slot = f.fitted;
        }
        parts.series_ohms = self.series.fitted;
        let model = Model {
            parts,
            offset: self.adc_offset.0,
            gain: self.adc_gain.0,
        };
        let forward = Forward::new(&board);
        solve_game(&board, &model.parts, position, PullupState::On)?;
        Ok(forward
            .codes(&model, position)
            .iter()
            .map(|c| match c {
                Some(c) => c.round().clamp(0.0, f64::from(forward.full_scale)) as u16,
                None => forward.full_scale,
            })
            .collect())
    }

    /// The summary's section.
    pub fn markdown(&self) -> String {
        let mut md = format!(
            "## Calibration\n\n{} steps ({} measured nodes off the rails) fitted in {} \
             iterations: each cage resistor and the series resistor (ln ohms), the ADC's offset \
             and gain; pull-ups nominal.\n\n\
             | prediction | RMS (codes, unrounded) | worst deviation | mean worst per step |\n\
             | --- | ---: | ---: | ---: |\n\
             | nominal parts | {:.3} | {} | {:.2} |\n| fitted parts | {:.3} | {} | {:.2} |\n\n\
             ADC offset {:+.3} ± {} codes, gain error {:+.4} ± {} %.\n\n\
             | part | nominal Ω | fitted Ω | ± (1σ) Ω | |\n| --- | ---: | ---: | ---: | --- |\n",
            self.steps,
            self.residuals,
            self.iterations,
            self.before.rms,
            self.before.worst,
            self.before.mean_worst,
            self.after.rms,
            self.after.worst,
            self.after.mean_worst,
            self.adc_offset.0,
            error(self.adc_offset.1, 1.0),
            self.adc_gain.0 * 100.0,
            error(self.adc_gain.1, 100.0),
        );
        let mut hidden = Vec::new();
        for f in self.edges.iter().chain(std::iter::once(&self.series)) {
            match f.std_error {
                Some(se) => md.push_str(&format!(
                    "| {} | {:.0} | {:.2} | {:.2} | {} |\n",
                    f.part,
                    f.nominal,
                    f.fitted,
                    se,
                    if f.determined {
                        ""
                    } else {
                        "weak: error above a tenth of the tolerance"
                    }
                )),
                None => hidden.push(f.part.as_str()),
            }
        }
        if !hidden.is_empty() {
            md.push_str(&format!(
                "\nNot identifiable (no current in any measured position; kept nominal): {}.\n",
                hidden.join(" ")
            ));
        }
        md
    }
}

/// A standard error for the summary: `?` when the data do not determine it.
fn error(se: Option<f64>, scale: f64) -> String {
    se.map_or_else(|| "?".to_string(), |s| format!("{:.4}", s * scale))
}

/// Calibrates from the report in `dir` (any stage's `steps.jsonl`; `board` overrides the
/// profile the report names), then writes `calibration.json` and the summary's calibration
/// section (replacing an earlier one; the rest of `summary.md` is kept).
pub fn calibrate_report(
    dir: &std::path::Path,
    board: Option<&str>,
) -> Result<Calibration, CalibrationError> {
    let (header, steps) = Report::read_steps(dir)?;
    let spec = board.or(header.profile.as_deref()).unwrap_or(&header.board);
    let profile = boards::file::load(spec)?;
    if let (None, Some(then)) = (board, &header.depends.profile_sha256) {
        let now = crate::report::Depends::profile(profile);
        if &now != then {
            return Err(CalibrationError::ProfileChanged {
                spec: spec.to_string(),
                now: now[..12].to_string(),
                then: then.get(..12).unwrap_or(then).to_string(),
            });
        }
    }
    let size = Size::new(u32::from(header.size))
        .map_err(|_| CalibrationError::NotASize { size: header.size })?;
    let calibration = calibrate(profile, &observations(size, &steps)?)?;
    let json = serde_json::to_string_pretty(&calibration).unwrap_or_default();
    write(&dir.join("calibration.json"), &json)?;
    let summary = dir.join("summary.md");
    // Read only if a regular file (a FIFO would block); absent or unreadable, a new one.
    let old = shards::safe::open_regular(&summary)
        .ok()
        .and_then(|f| std::io::read_to_string(f).ok())
        .unwrap_or_default();
    write(&summary, &with_section(&old, &calibration.markdown()))?;
    Ok(calibration)
}

/// `md` with its `## Calibration` section replaced by `section` (or added at the end).
fn with_section(md: &str, section: &str) -> String {
    const HEADING: &str = "## Calibration\n";
    let Some(start) = md.find(HEADING) else {
        let sep = if md.is_empty() || md.ends_with("\n\n") {
            ""
        } else if md.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        return format!("{md}{sep}{section}");
    };
    let rest = &md[start + HEADING.len()..];
    let end = rest
        .find("\n## ")
        .map_or(md.len(), |k| start + HEADING.len() + k + 1);
    format!(
        "{}{section}{}",
        &md[..start],
        if end < md.len() {
            format!("\n{}", &md[end..])
        } else {
            String::new()
        }
    )
}

/// Writes a file whole or not at all, never through a link ([`shards::safe::write_file`]).
fn write(path: &std::path::Path, text: &str) -> Result<(), CalibrationError> {
    shards::safe::write_file(path, text.as_bytes())
        .map_err(|e| CalibrationError::Report(ReportError::File(e)))
}

#[cfg(test)]
mod tests {
    use super::with_section;

    #[test]
    fn the_calibration_section_replaces_its_old_self_and_keeps_the_rest() {
        let section = "## Calibration\n\nnew\n";
        assert_eq!(
            with_section("# S\n", section),
            "# S\n\n## Calibration\n\nnew\n"
        );
        assert_eq!(
            with_section("# S\n\n## Calibration\n\nold\n\n## Plot\n\nx\n", section),
            "# S\n\n## Calibration\n\nnew\n\n## Plot\n\nx\n"
        );
        assert_eq!(
            with_section("# S\n\n## Calibration\n\nold\n", section),
            "# S\n\n## Calibration\n\nnew\n"
        );
    }
}
