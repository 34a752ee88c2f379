//! Profile files: a board described as changes to a known profile, in TOML, so that a study
//! of "the Nucleo with 5 % resistors and a floating rail" needs no code.
//!
//! ```toml
//! base = "nucleo-f446re"        # required: the profile to start from
//! name = "nucleo-5pc"           # optional, for reports
//! tolerance_percent = 5.0
//! distribution = "uniform"      # gaussian | uniform | binned
//! adc_bits = 12
//! [pullups]
//! kind = "shared-rail"          # internal | per-node | shared-rail
//! ohms = 30000
//! released = "floating"         # driven-low | floating
//! ```

use std::path::Path;

use boards::{Distribution, RailRelease, Tolerance};
use serde::Deserialize;

use super::{Board, BoardError, Pullups, Reference, Switches};

/// Why `--board` could not be turned into a board.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Neither a profile name nor a file.
    #[error("unknown board `{0}` (expected arduino-mega, nucleo-f446re, or a profile file)")]
    Unknown(String),
    /// The file could not be read.
    #[error("cannot read profile file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid profile; toml's message names the line.
    #[error("profile file {path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What is wrong and where.
        message: String,
    },
    /// The values describe no real board.
    #[error("{name}: {source}")]
    Invalid {
        /// The profile.
        name: String,
        /// The value at fault.
        source: BoardError,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    base: String,
    name: Option<String>,
    supply_volts: Option<f64>,
    reference_volts: Option<f64>,
    resistor_ohms: Option<f64>,
    tolerance_percent: Option<f64>,
    distribution: Option<DistributionName>,
    sigmas: Option<u8>,
    hole_percent: Option<f64>,
    series_ohms: Option<f64>,
    wire_ohms: Option<f64>,
    adc_bits: Option<i64>,
    adc_samples: Option<u8>,
    pullups: Option<PullupTable>,
    switches: Option<SwitchTable>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum DistributionName {
    Gaussian,
    Uniform,
    Binned,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PullupTable {
    kind: PullupKind,
    ohms: Option<f64>,
    min_ohms: Option<f64>,
    max_ohms: Option<f64>,
    released: Option<Release>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum PullupKind {
    Internal,
    PerNode,
    SharedRail,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Release {
    DrivenLow,
    Floating,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SwitchTable {
    on_ohms: f64,
    off_ohms: f64,
}

impl Board {
    /// The board `spec` names: a profile name (`nucleo-f446re`) or a profile file, checked.
    pub fn load(spec: &str) -> Result<Board, LoadError> {
        if let Ok(profile) = boards::by_name(spec) {
            return Ok(Board::from_profile(profile));
        }
        let path = Path::new(spec);
        if !path.is_file() {
            return Err(LoadError::Unknown(spec.to_string()));
        }
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
            path: spec.to_string(),
            source,
        })?;
        Board::parse(&text, spec)
    }

    /// A board from the text of a profile file; `origin` names it in errors.
    ///
    /// ```
    /// use emulator::physical::Board;
    /// let b = Board::parse("base = \"arduino-mega\"\nseries_ohms = 470\n", "f.toml").unwrap();
    /// assert_eq!(b.series_ohms, 470.0);
    /// let e = Board::parse("base = \"arduino-mega\"\nseries_ohms = -1\n", "f.toml").unwrap_err();
    /// assert_eq!(e.to_string(), "f.toml: series_ohms = -1 is not positive");
    /// ```
    pub fn parse(text: &str, origin: &str) -> Result<Board, LoadError> {
        let file: File = toml::from_str(text).map_err(|e| LoadError::Parse {
            path: origin.to_string(),
            message: one_line(&e.to_string()),
        })?;
        let base = boards::by_name(&file.base).map_err(|e| LoadError::Parse {
            path: origin.to_string(),
            message: format!("base: {e}"),
        })?;
        let invalid = |source| LoadError::Invalid {
            name: origin.to_string(),
            source,
        };
        let mut board = Board::from_profile(base);
        board.name = file.name.clone().unwrap_or_else(|| origin.to_string());
        set(&mut board.supply_volts, file.supply_volts);
        if let Some(v) = file.reference_volts {
            board.reference = Reference::Fixed(v);
        }
        set(&mut board.resistor_ohms, file.resistor_ohms);
        set(&mut board.series_ohms, file.series_ohms);
        set(&mut board.wire_ohms, file.wire_ohms);
        if let Some(percent) = file.tolerance_percent {
            board.tolerance.ppm = ppm(percent).ok_or(invalid(BoardError::Tolerance { percent }))?;
        }
        board.tolerance = with_distribution(board.tolerance, &file).map_err(invalid)?;
        if let Some(bits) = file.adc_bits {
            board = board.with_adc_bits(bits).map_err(invalid)?;
        }
        if let Some(n) = file.adc_samples {
            board.adc.samples = n;
        }
        if let Some(p) = file.pullups {
            board.pullups = pullups(&p, board.pullups).map_err(|message| LoadError::Parse {
                path: origin.to_string(),
                message,
            })?;
        }
        if let Some(s) = file.switches {
            board.switches = Some(Switches {
                on_ohms: s.on_ohms,
                off_ohms: s.off_ohms,
            });
        }
        board.validate().map_err(invalid)?;
        Ok(board)
    }
}

fn set(field: &mut f64, value: Option<f64>) {
    if let Some(v) = value {
        *field = v;
    }
}

/// A percentage as ppm, if it lies in 0..50 %.
fn ppm(percent: f64) -> Option<u32> {
    (0.0..50.0)
        .contains(&percent)
        .then(|| (percent * 1e4).round() as u32)
}

fn with_distribution(mut tolerance: Tolerance, file: &File) -> Result<Tolerance, BoardError> {
    let sigmas = file.sigmas.unwrap_or(3);
    tolerance.distribution = match file.distribution {
        None => tolerance.distribution,
        Some(DistributionName::Gaussian) => Distribution::TruncatedGaussian { sigmas },
        Some(DistributionName::Uniform) => Distribution::Uniform,
        Some(DistributionName::Binned) => {
            let hole_percent = file.hole_percent.unwrap_or(0.0);
            let hole_ppm = ppm(hole_percent).ok_or(BoardError::BinHole {
                hole_percent,
                percent: tolerance.fraction() * 100.0,
            })?;
            Distribution::Binned { hole_ppm }
        }
    };
    Ok(tolerance)
}

fn pullups(p: &PullupTable, base: Pullups) -> Result<Pullups, String> {
    let base_ohms = match base {
        Pullups::Internal { min_ohms, max_ohms } => (min_ohms + max_ohms) / 2.0,
        Pullups::PerNode { ohms } | Pullups::SharedRail { ohms, .. } => ohms,
    };
    Ok(match p.kind {
        PullupKind::Internal => Pullups::Internal {
            min_ohms: p
                .min_ohms
                .ok_or("pullups: kind = \"internal\" needs min_ohms")?,
            max_ohms: p
                .max_ohms
                .ok_or("pullups: kind = \"internal\" needs max_ohms")?,
        },
        PullupKind::PerNode => Pullups::PerNode {
            ohms: p.ohms.unwrap_or(base_ohms),
        },
        PullupKind::SharedRail => Pullups::SharedRail {
            ohms: p.ohms.unwrap_or(base_ohms),
            released: match p.released {
                None | Some(Release::DrivenLow) => RailRelease::DrivenLow,
                Some(Release::Floating) => RailRelease::Floating,
            },
        },
    })
}

/// toml's multi-line report (with a source excerpt) folded to its first line and the
/// message, so errors stay one line.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message.lines().map(str::trim).collect();
    let head = lines.first().copied().unwrap_or_default();
    match lines.last() {
        Some(last) if lines.len() > 1 => format!("{head}: {last}"),
        _ => head.to_string(),
    }
}
