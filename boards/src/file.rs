//! Profile files: a board described as changes to a known profile, in TOML, so that a study of
//! "the Nucleo with 5 % resistors and a floating rail" needs no code.
//!
//! A file is read into the same [`Profile`] the built-in boards are, then checked once by
//! [`Profile::validate`]; keys are the profile's own field paths, so a validation error names
//! the key to fix and the line it is on. Pins are not set from files: a file changes what a
//! board's network and converter do, not how it is wired.
//!
//! ```toml
//! base = "nucleo-f446re"          # required: the profile to start from
//! name = "nucleo-5pc"             # optional, for reports; default: the file's path
//! supply_millivolts = 3300
//! series_ohms = 1000
//! wire_milliohms = 50
//! game_over = "pullups-released"  # pullups-released | pullups-on
//! [adc]
//! bits_used = 12                  # 6..=16; datasheet figures are restated at this resolution
//! samples = 4                     # conversions the firmware averages per reading
//! reference_millivolts = 3000     # a fixed reference (or `ratiometric = true`)
//! [adc.accuracy.noise_rms]        # any of total, offset, gain, inl, dnl, noise_rms
//! typ_milli_lsb = 0
//! [resistors]
//! nominal_ohms = 1000
//! [resistors.tolerance]
//! ppm = 50000                     # 5 %; below 500000
//! distribution = "uniform"        # gaussian | uniform | binned
//! [pullups]
//! kind = "shared-rail"            # internal | per-node | shared-rail (the base's pins)
//! ohms = 30000
//! released = "floating"           # driven-low | floating
//! [fixture]
//! fitted = true
//! switch_on_milliohms = 2500
//! ```

use std::boxed::Box;
use std::collections::BTreeMap;
use std::format;
use std::path::Path;
use std::string::{String, ToString};

use serde::Deserialize;
use toml::Spanned;

use crate::read::ReadError;
use crate::{
    AdcReference, Distribution, GameOverReading, LsbFigure, Profile, ProfileError, Pullups,
    RailRelease, UnknownBoard,
};

/// The largest profile file read: a profile is a few dozen keys, so anything near this is
/// not one.
pub const MAX_PROFILE_BYTES: u64 = 1 << 20;

/// Why a `--board` argument could not be turned into a profile.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Neither a known profile nor a file.
    #[error("unknown board {} (expected {names} or a profile file)", heuristic::Echo(.0), names = known_names())]
    Unknown(String),
    /// A path (it has a separator or ends in `.toml`) that is not a file to read: no such
    /// file, a directory, a FIFO or device, more than [`MAX_PROFILE_BYTES`], not UTF-8.
    #[error("profile file {path}: {problem}")]
    NotAFile {
        /// The path.
        path: String,
        /// What is wrong with it.
        problem: ReadError,
    },
    /// The file could not be read.
    #[error("cannot read profile file {path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// Why (part of the message, not a separate source: one line says it all).
        error: std::io::Error,
    },
    /// The text is not a profile file: TOML syntax, an unknown key, a value of the wrong
    /// type (toml's message, folded to one line, names the line and column).
    #[error("profile file {path}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// What is wrong and where.
        message: String,
    },
    /// `base` names no known profile.
    #[error("profile file {path}, line {line}: base: {error}")]
    Base {
        /// The file.
        path: String,
        /// Line of the `base` key.
        line: usize,
        /// The unknown name.
        error: UnknownBoard,
    },
    /// A key whose value the base cannot take (a pull-up kind whose control pins the base
    /// does not have, a fixture where the base has none).
    #[error("profile file {path}, line {line}: {field}: {reason}")]
    Unsupported {
        /// The file.
        path: String,
        /// Line of the key.
        line: usize,
        /// The key.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The profile the file describes breaks an invariant. `line` is where the file sets the
    /// value at fault, `None` when it comes from the base.
    #[error("profile file {path}{}: {error}{}", line.map(|l| format!(", line {l}")).unwrap_or_default(), if line.is_none() { format!(" (from base {base})") } else { String::new() })]
    Invalid {
        /// The file.
        path: String,
        /// Line of the offending key, if the file sets it.
        line: Option<usize>,
        /// The base profile's name.
        base: &'static str,
        /// The invariant broken.
        error: ProfileError,
    },
}

/// The board `spec` names: a built-in profile's name, or the path of a profile file, read and
/// checked. A file's profile is leaked to get the `'static` lifetime the firmware's
/// application takes: a process loads a handful of them at most.
///
/// ```
/// let nucleo = boards::file::load("nucleo-f446re").unwrap();
/// assert_eq!(nucleo.name, "nucleo-f446re");
/// assert_eq!(
///     boards::file::load("uno").unwrap_err().to_string(),
///     "unknown board `uno` (expected arduino-mega, nucleo-f446re or a profile file)"
/// );
/// ```
pub fn load(spec: &str) -> Result<&'static Profile, FileError> {
    load_with_base(spec).map(|(profile, _)| profile)
}

/// [`load`], with the built-in profile the board starts from: itself for a built-in name,
/// the file's `base` for a file. Firmware that only knows built-in profiles (the QEMU build,
/// a flashed board) runs the base while the host models the file's board.
///
/// ```
/// let (p, base) = boards::file::load_with_base("arduino-mega").unwrap();
/// assert!(core::ptr::eq(p, base));
/// ```
pub fn load_with_base(spec: &str) -> Result<(&'static Profile, &'static Profile), FileError> {
    if let Ok(profile) = crate::by_name(spec) {
        return Ok((profile, profile));
    }
    let path = Path::new(spec);
    let looks_like_a_path = spec.contains(['/', '\\']) || spec.ends_with(".toml");
    // A plain name (no separator, no `.toml`) is a path only if something is there (a
    // directory or a FIFO is then refused as what it is, with its path); else a board name
    // mistyped.
    if !looks_like_a_path && std::fs::metadata(path).is_err() {
        return Err(FileError::Unknown(spec.to_string()));
    }
    let text = crate::read::text(path, MAX_PROFILE_BYTES).map_err(|problem| match problem {
        ReadError::Io { kind, message } => FileError::Read {
            path: spec.to_string(),
            error: std::io::Error::new(kind, message),
        },
        problem => FileError::NotAFile {
            path: spec.to_string(),
            problem,
        },
    })?;
    let (profile, base) = parse_with_base(&text, spec)?;
    Ok((Box::leak(Box::new(profile)), base))
}

/// The profile the text of a profile file describes, checked; `origin` names the file in
/// errors and is the profile's name when the file gives none.
///
/// ```
/// let p = boards::file::parse("base = \"arduino-mega\"\nseries_ohms = 470\n", "f.toml").unwrap();
/// assert_eq!((p.name, p.series_ohms), ("f.toml", 470));
/// let e = boards::file::parse("base = \"arduino-mega\"\n[adc]\nbits_used = 20\n", "f.toml");
/// assert_eq!(
///     e.unwrap_err().to_string(),
///     "profile file f.toml, line 3: adc.bits_used = 20 is out of range (6..=16)"
/// );
/// ```
pub fn parse(text: &str, origin: &str) -> Result<Profile, FileError> {
    parse_with_base(text, origin).map(|(profile, _)| profile)
}

fn parse_with_base(text: &str, origin: &str) -> Result<(Profile, &'static Profile), FileError> {
    let file: File = toml::from_str(text).map_err(|e| FileError::Syntax {
        path: origin.to_string(),
        message: one_line(&e.to_string()),
    })?;
    let line = |span: core::ops::Range<usize>| line_of(text, span.start);
    let base = crate::by_name(file.base.get_ref()).map_err(|error| FileError::Base {
        path: origin.to_string(),
        line: line(file.base.span()),
        error,
    })?;
    let mut edit = Edit {
        profile: *base,
        lines: BTreeMap::new(),
        text,
    };
    edit.apply(&file)
        .map_err(|(field, line, reason)| FileError::Unsupported {
            path: origin.to_string(),
            line,
            field,
            reason,
        })?;
    let mut profile = edit.profile;
    let name = match &file.name {
        Some(name) if name.get_ref().contains(char::is_control) => {
            return Err(FileError::Unsupported {
                path: origin.to_string(),
                line: line(name.span()),
                field: "name",
                reason: format!(
                    "{:?} holds a control character (a newline, a tab, a NUL): names are \
                     printed in reports, one line each",
                    name.get_ref()
                ),
            });
        }
        Some(name) => name.get_ref().as_str(),
        None => origin,
    };
    profile.name = leak(name);
    profile.description = leak(&format!("profile file {origin}, based on {}", base.name));
    profile.validate().map_err(|error| FileError::Invalid {
        path: origin.to_string(),
        line: edit.lines.get(error.field()).copied(),
        base: base.name,
        error,
    })?;
    Ok((profile, base))
}

/// The built-in profiles' names, comma-separated.
fn known_names() -> String {
    let names: std::vec::Vec<&str> = crate::PROFILES.iter().map(|p| p.name).collect();
    names.join(", ")
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_string().into_boxed_str())
}

/// 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// toml's multi-line report (with a source excerpt) folded to its first line and the
/// message, so that errors stay one line.
fn one_line(message: &str) -> String {
    let lines: std::vec::Vec<&str> = message.lines().map(str::trim).collect();
    let head = lines.first().copied().unwrap_or_default();
    match lines.last() {
        Some(last) if lines.len() > 1 => format!("{head}: {last}"),
        _ => head.to_string(),
    }
}

type Value<T> = Option<Spanned<T>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    base: Spanned<String>,
    name: Value<String>,
    supply_millivolts: Value<u32>,
    series_ohms: Value<u32>,
    wire_milliohms: Value<u32>,
    game_over: Value<GameOverName>,
    adc: Option<AdcTable>,
    resistors: Option<ResistorTable>,
    pullups: Option<PullupTable>,
    fixture: Option<FixtureTable>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum GameOverName {
    PullupsReleased,
    PullupsOn,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AdcTable {
    bits_used: Value<u8>,
    samples: Value<u8>,
    reference_millivolts: Value<u32>,
    ratiometric: Value<bool>,
    max_source_ohms: Value<u32>,
    accuracy: Option<AccuracyTable>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AccuracyTable {
    resolution_bits: Value<u8>,
    total: Option<FigureTable>,
    offset: Option<FigureTable>,
    gain: Option<FigureTable>,
    inl: Option<FigureTable>,
    dnl: Option<FigureTable>,
    noise_rms: Option<FigureTable>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FigureTable {
    typ_milli_lsb: Value<u32>,
    max_milli_lsb: Value<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResistorTable {
    nominal_ohms: Value<u32>,
    tolerance: Option<ToleranceTable>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToleranceTable {
    ppm: Value<u32>,
    distribution: Value<DistributionName>,
    sigmas: Value<u8>,
    hole_ppm: Value<u32>,
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
    kind: Value<PullupKind>,
    ohms: Value<u32>,
    min_ohms: Value<u32>,
    max_ohms: Value<u32>,
    released: Value<ReleaseName>,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum PullupKind {
    Internal,
    PerNode,
    SharedRail,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum ReleaseName {
    DrivenLow,
    Floating,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FixtureTable {
    fitted: Value<bool>,
    switch_on_milliohms: Value<u32>,
    switch_off_leakage_picoamps: Value<u32>,
}

/// A key the base cannot take: its field, line and why.
type Refusal = (&'static str, usize, String);

/// The base profile being changed key by key, with the line of each key the file sets, so
/// that a validation error can point at it.
struct Edit<'t> {
    profile: Profile,
    lines: BTreeMap<&'static str, usize>,
    text: &'t str,
}

impl Edit<'_> {
    /// Sets `field` to the file's value, if the file has one; true if it did.
    fn set<T: Copy>(&mut self, field: &'static str, slot: &mut T, value: &Value<T>) -> bool {
        let Some(value) = value else { return false };
        *slot = *value.get_ref();
        self.lines
            .insert(field, line_of(self.text, value.span().start));
        true
    }

    fn line<T>(&self, value: &Spanned<T>) -> usize {
        line_of(self.text, value.span().start)
    }

    fn apply(&mut self, file: &File) -> Result<(), Refusal> {
        let mut p = self.profile;
        self.set(
            "supply_millivolts",
            &mut p.supply_millivolts,
            &file.supply_millivolts,
        );
        self.set("series_ohms", &mut p.series_ohms, &file.series_ohms);
        self.set(
            "wire_milliohms",
            &mut p.wire_milliohms,
            &file.wire_milliohms,
        );
        if let Some(g) = &file.game_over {
            p.game_over = match g.get_ref() {
                GameOverName::PullupsReleased => GameOverReading::PullupsReleased,
                GameOverName::PullupsOn => GameOverReading::PullupsOn,
            };
            self.lines.insert("game_over", self.line(g));
        }
        if let Some(adc) = &file.adc {
            self.adc(&mut p, adc)?;
        }
        if let Some(r) = &file.resistors {
            self.set(
                "resistors.nominal_ohms",
                &mut p.resistors.nominal_ohms,
                &r.nominal_ohms,
            );
            if let Some(t) = &r.tolerance {
                self.tolerance(&mut p, t);
            }
        }
        if let Some(table) = &file.pullups {
            self.pullups(&mut p, table)?;
        }
        if let Some(table) = &file.fixture {
            self.fixture(&mut p, table)?;
        }
        self.profile = p;
        Ok(())
    }

    fn adc(&mut self, p: &mut Profile, adc: &AdcTable) -> Result<(), Refusal> {
        self.set("adc.bits_used", &mut p.adc.bits_used, &adc.bits_used);
        self.set("adc.samples", &mut p.adc.samples, &adc.samples);
        if let (Some(mv), Some(r)) = (&adc.reference_millivolts, &adc.ratiometric)
            && *r.get_ref()
        {
            return Err((
                "adc.ratiometric",
                self.line(r),
                format!(
                    "`ratiometric = true` and `reference_millivolts` (line {}) both set the \
                     ADC reference: keep one",
                    self.line(mv)
                ),
            ));
        }
        if let Some(mv) = &adc.reference_millivolts {
            p.adc.reference = AdcReference::Fixed {
                millivolts: *mv.get_ref(),
            };
            self.lines.insert("adc.reference", self.line(mv));
        }
        if let Some(r) = &adc.ratiometric
            && *r.get_ref()
        {
            p.adc.reference = AdcReference::Supply;
            self.lines.insert("adc.reference", self.line(r));
        }
        if let Some(ohms) = &adc.max_source_ohms {
            p.adc.max_source_ohms = Some(*ohms.get_ref());
            self.lines.insert("adc.max_source_ohms", self.line(ohms));
        }
        let Some(acc) = &adc.accuracy else {
            return Ok(());
        };
        let a = &mut p.adc.accuracy;
        self.set(
            "adc.accuracy.resolution_bits",
            &mut a.resolution_bits,
            &acc.resolution_bits,
        );
        let figures: [(&'static str, &mut LsbFigure, &Option<FigureTable>); 6] = [
            ("adc.accuracy.total", &mut a.total, &acc.total),
            ("adc.accuracy.offset", &mut a.offset, &acc.offset),
            ("adc.accuracy.gain", &mut a.gain, &acc.gain),
            ("adc.accuracy.inl", &mut a.inl, &acc.inl),
            ("adc.accuracy.dnl", &mut a.dnl, &acc.dnl),
            ("adc.accuracy.noise_rms", &mut a.noise_rms, &acc.noise_rms),
        ];
        for (field, figure, table) in figures {
            let Some(t) = table else { continue };
            for (slot, value) in [
                (&mut figure.typ_milli_lsb, &t.typ_milli_lsb),
                (&mut figure.max_milli_lsb, &t.max_milli_lsb),
            ] {
                if let Some(v) = value {
                    *slot = Some(*v.get_ref());
                    self.lines.insert(field, self.line(v));
                }
            }
        }
        Ok(())
    }

    fn tolerance(&mut self, p: &mut Profile, t: &ToleranceTable) {
        let tol = &mut p.resistors.tolerance;
        self.set("resistors.tolerance.ppm", &mut tol.ppm, &t.ppm);
        if let Some(d) = &t.distribution {
            tol.distribution = match d.get_ref() {
                DistributionName::Gaussian => Distribution::TruncatedGaussian { sigmas: 3 },
                DistributionName::Uniform => Distribution::Uniform,
                DistributionName::Binned => Distribution::Binned { hole_ppm: 0 },
            };
            self.lines
                .insert("resistors.tolerance.distribution", self.line(d));
        }
        match &mut tol.distribution {
            Distribution::TruncatedGaussian { sigmas } => {
                self.set("resistors.tolerance.distribution.sigmas", sigmas, &t.sigmas);
            }
            Distribution::Binned { hole_ppm } => {
                self.set("resistors.tolerance.distribution", hole_ppm, &t.hole_ppm);
            }
            Distribution::Uniform => {}
        }
    }

    fn pullups(&mut self, p: &mut Profile, t: &PullupTable) -> Result<(), Refusal> {
        let base_ohms = p.pullups.nominal_ohms();
        let current = match p.pullups {
            Pullups::InternalAlwaysOn { .. } => PullupKind::Internal,
            Pullups::SwitchedPerNode { .. } => PullupKind::PerNode,
            Pullups::SharedRail { .. } => PullupKind::SharedRail,
        };
        let kind = t.kind.as_ref().map_or(current, |k| *k.get_ref());
        if let Some(k) = &t.kind {
            self.lines.insert("pullups.kind", self.line(k));
        }
        p.pullups = match (kind, p.pullups) {
            (PullupKind::Internal, base) => {
                let (mut min_ohms, mut max_ohms) = match base {
                    Pullups::InternalAlwaysOn { min_ohms, max_ohms } => (min_ohms, max_ohms),
                    _ => (base_ohms, base_ohms),
                };
                self.set("pullups.min_ohms", &mut min_ohms, &t.min_ohms);
                self.set("pullups.max_ohms", &mut max_ohms, &t.max_ohms);
                Pullups::InternalAlwaysOn { min_ohms, max_ohms }
            }
            (PullupKind::PerNode, Pullups::SwitchedPerNode { mut ohms, controls }) => {
                self.set("pullups.ohms", &mut ohms, &t.ohms);
                Pullups::SwitchedPerNode { ohms, controls }
            }
            (
                PullupKind::SharedRail,
                Pullups::SharedRail {
                    mut ohms,
                    control,
                    mut released,
                },
            ) => {
                self.set("pullups.ohms", &mut ohms, &t.ohms);
                if let Some(r) = &t.released {
                    released = match r.get_ref() {
                        ReleaseName::DrivenLow => RailRelease::DrivenLow,
                        ReleaseName::Floating => RailRelease::Floating,
                    };
                    self.lines.insert("pullups.released", self.line(r));
                }
                Pullups::SharedRail {
                    ohms,
                    control,
                    released,
                }
            }
            (_, _) => {
                let line = t.kind.as_ref().map_or(1, |k| self.line(k));
                return Err((
                    "pullups.kind",
                    line,
                    format!(
                        "the base ({}) has no control pins for this kind, and profile files \
                         do not assign pins",
                        self.profile.name
                    ),
                ));
            }
        };
        Ok(())
    }

    fn fixture(&mut self, p: &mut Profile, t: &FixtureTable) -> Result<(), Refusal> {
        if let Some(fitted) = &t.fitted
            && !*fitted.get_ref()
        {
            p.fixture = None;
            return Ok(());
        }
        let Some(mut fixture) = p.fixture else {
            let spans = [
                t.fitted.as_ref().map(Spanned::span),
                t.switch_on_milliohms.as_ref().map(Spanned::span),
                t.switch_off_leakage_picoamps.as_ref().map(Spanned::span),
            ];
            let line = spans
                .into_iter()
                .flatten()
                .map(|s| line_of(self.text, s.start))
                .min()
                .unwrap_or(1);
            return Err((
                "fixture",
                line,
                format!(
                    "the base ({}) has no edge fixture to change",
                    self.profile.name
                ),
            ));
        };
        self.set(
            "fixture.switch_on_milliohms",
            &mut fixture.switch_on_milliohms,
            &t.switch_on_milliohms,
        );
        self.set(
            "fixture.switch_off_leakage_picoamps",
            &mut fixture.switch_off_leakage_picoamps,
            &t.switch_off_leakage_picoamps,
        );
        p.fixture = Some(fixture);
        Ok(())
    }
}
