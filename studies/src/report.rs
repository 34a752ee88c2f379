//! Writing a study's data: an output folder, CSV rows written to the file as they finish (one
//! `write` each, no buffer, so even a killed run keeps every finished row whole), JSON, and
//! the small formatting rules that keep the same seed's files byte-identical (no timestamps, floats
//! printed as Rust's shortest round-trip text).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::plot::{PlotError, PlotResult};
use super::stats::Rate;

/// What every board study's report starts with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Header {
    /// The study.
    pub study: &'static str,
    /// Board size.
    pub size: u8,
    /// The board (`--board`).
    pub board: String,
    /// ADC resolution of the ideal converter the study reads with.
    pub adc_bits: u8,
    /// Seed of the parts.
    pub seed: u64,
    /// The position set.
    pub positions: String,
}

impl Header {
    /// The header of `study` over `set` on `board`.
    pub fn new(
        study: &'static str,
        set: &super::positions::PositionSet,
        board: &str,
        adc_bits: u8,
        seed: u64,
    ) -> Header {
        Header {
            study,
            size: set.size().get(),
            board: board.to_string(),
            adc_bits,
            seed,
            positions: set.description().to_string(),
        }
    }
}

impl Header {
    /// The caption of the study's plots: size, board and seed, then `more`.
    pub fn caption(&self, more: &str) -> String {
        super::plot::caption(self.size, &self.board, self.seed, more)
    }
}

/// A file or folder of a study that could not be made or written, named.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {}: {error}", path.display())]
pub struct FileError {
    /// What was being done: `create folder`, `write`.
    pub action: &'static str,
    /// The file or folder.
    pub path: PathBuf,
    /// Why (part of the message, not a separate source: one line says it all).
    pub error: io::Error,
}

impl FileError {
    fn at(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> FileError {
        let path = path.to_path_buf();
        move |error| FileError {
            action,
            path,
            error,
        }
    }
}

/// The folder a study writes into.
#[derive(Clone, Debug)]
pub struct Output {
    dir: PathBuf,
}

/// Why a study may not write into a folder.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The folder holds a report already (a finished study, or another study's files), and
    /// `--force` was not given.
    #[error(
        "{} already holds a report ({file}): --force replaces it, or choose another --out",
        dir.display()
    )]
    Exists {
        /// The folder.
        dir: PathBuf,
        /// One of the report's files (`summary.md` if there).
        file: String,
    },
    /// The folder holds another tool's report (the bench's `steps.jsonl`), which `--force`
    /// does not replace: a study would clear the bench's summaries and leave its steps, and a
    /// later `hil-tests run --resume` would write its summary over the study's unsaid.
    #[error(
        "{} holds a bench report ({file}), which a study does not replace, --force or not: \
         choose another --out",
        dir.display()
    )]
    OtherReport {
        /// The folder.
        dir: PathBuf,
        /// The other tool's file.
        file: String,
    },
    /// The folder could not be made, listed or cleared.
    #[error(transparent)]
    File(#[from] FileError),
}

/// The files of another tool's report in a study's folder: the bench's steps (`hil-tests
/// run`), the file its `--resume` reads.
const OTHER_REPORTS: [&str; 1] = ["steps.jsonl"];

/// Every file a study writes, by name: what `--force` may remove. Any `.json` or `.csv` was
/// once taken for a study's, so `study --force` deleted the bench's `glitches.csv` and a
/// links report beside it (issue 62). `birdcage/tests/study.rs` checks each study's files
/// are here.
pub const STUDY_FILES: [&str; 19] = [
    "summary.md",
    "quantisation.json",
    "quantisation.csv",
    "quantisation-margins.csv",
    "quantisation-positions.csv",
    "divergence-vs-bits.svg",
    "lost-vs-bits.svg",
    "margins.svg",
    "tolerance.json",
    "tolerance.csv",
    "tolerance-positions.csv",
    "divergence-vs-tolerance.svg",
    "pullups.json",
    "pullups.csv",
    "pullups-divergence.svg",
    "pullups-margins.svg",
    "heuristic.json",
    "heuristic.csv",
    "heuristic.svg",
];

/// Whether a file name is one a study writes ([`STUDY_FILES`]).
pub fn is_report_file(name: &str) -> bool {
    STUDY_FILES.contains(&name)
}

impl Output {
    /// The folder for a new report: created if missing; refused if it holds a report
    /// already (its `summary.md`, JSON, CSV or SVG files), unless `force`, which removes
    /// those files first, so that two studies' files never mix. Other files are left alone.
    /// A folder holding another tool's report (the bench's) is refused, `force` or not.
    pub fn fresh(dir: &Path, force: bool) -> Result<Output, OutputError> {
        for file in OTHER_REPORTS {
            // Whatever its type: a link or a FIFO by that name is no study's either.
            if std::fs::symlink_metadata(dir.join(file)).is_ok() {
                return Err(OutputError::OtherReport {
                    dir: dir.to_path_buf(),
                    file: file.to_string(),
                });
            }
        }
        let mut found: Vec<(bool, String, PathBuf)> = Vec::new();
        // A path that is no folder yet (missing, or under a file) holds no report: creating
        // it says what is wrong.
        if dir.is_dir() {
            let entries = std::fs::read_dir(dir).map_err(FileError::at("list folder", dir))?;
            for entry in entries {
                let entry = entry.map_err(FileError::at("list folder", dir))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                // By the entry's own type, a link not followed: `--force` removes a link
                // planted at a study's name (the link, never what it names).
                let folder = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_report_file(&name) && !folder {
                    found.push((name != "summary.md", name, entry.path()));
                }
            }
        }
        found.sort();
        if let Some((_, file, _)) = found.first()
            && !force
        {
            return Err(OutputError::Exists {
                dir: dir.to_path_buf(),
                file: file.clone(),
            });
        }
        for (_, _, path) in &found {
            std::fs::remove_file(path).map_err(FileError::at("remove", path))?;
        }
        Ok(Output::new(dir)?)
    }

    /// Creates `dir` (and its parents) if needed.
    pub fn new(dir: &Path) -> Result<Output, FileError> {
        // A file where the folder should be says so (create_dir_all says only "File exists").
        if dir.exists() && !dir.is_dir() {
            let error = io::Error::new(io::ErrorKind::NotADirectory, "it is a file, not a folder");
            return Err(FileError::at("create folder", dir)(error));
        }
        shards::safe::create_dir_all(dir).map_err(|e| safe_error("create folder", dir, e))?;
        Ok(Output {
            dir: dir.to_path_buf(),
        })
    }

    /// The path of `name` inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A CSV file, created empty (new, never through a link or onto a FIFO: the one writer,
    /// `shards::safe`); its rows are written as they come.
    pub fn csv(&self, name: &str) -> Result<CsvWriter, FileError> {
        let path = self.path(name);
        let file = shards::safe::create_file(&path).map_err(|e| safe_error("create", &path, e))?;
        Ok(CsvWriter { file, path })
    }

    /// Writes `text` to `name`, whole or not at all (the one writer, `shards::safe`).
    pub fn text(&self, name: &str, text: &str) -> Result<(), FileError> {
        let path = self.path(name);
        shards::safe::write_file(&path, text.as_bytes()).map_err(|e| safe_error("write", &path, e))
    }

    /// Writes `value` as pretty JSON (with a final newline) to `name`.
    pub fn json<T: Serialize>(&self, name: &str, value: &T) -> Result<(), FileError> {
        let text = serde_json::to_string_pretty(value)
            .map_err(|e| FileError::at("write", &self.path(name))(io::Error::other(e)))?;
        self.text(name, &(text + "\n"))
    }

    /// Writes whole rows to a CSV file `name`.
    pub fn csv_rows(&self, name: &str, rows: &[Vec<String>]) -> Result<(), FileError> {
        let mut csv = self.csv(name)?;
        for r in rows {
            csv.row(r)?;
        }
        Ok(())
    }
}

/// The end of every study: `NAME.json`, then `summary.md`, then the plots (data first, so a
/// plotting failure loses nothing); returns the summary.
pub fn finish<T: Serialize>(
    out: &Output,
    name: &str,
    report: &T,
    summary: String,
    plots: impl FnOnce() -> PlotResult,
) -> Result<String, WriteError> {
    out.json(&format!("{name}.json"), report)?;
    out.text("summary.md", &summary)?;
    plots().map_err(|error| WriteError::Plot {
        dir: out.dir.clone(),
        error,
    })?;
    Ok(summary)
}

/// Why a study's files could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A data file (CSV, JSON, the summary) could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A plot could not be drawn (the data files are already written).
    #[error("cannot draw the plots in {}: {error}", dir.display())]
    Plot {
        /// The study's folder.
        dir: PathBuf,
        /// plotters' error.
        error: PlotError,
    },
}

/// CSV rows written as they come, each with one `write` straight to the file (no buffer), so
/// a row is in the file, whole, as soon as it is written; fields with a comma, quote or
/// newline are quoted.
#[derive(Debug)]
pub struct CsvWriter {
    file: File,
    path: PathBuf,
}

impl CsvWriter {
    /// Writes one row, with its newline, in one `write`.
    pub fn row<S: AsRef<str>>(&mut self, fields: &[S]) -> Result<(), FileError> {
        let line: Vec<String> = fields.iter().map(|f| quote(f.as_ref())).collect();
        let line = line.join(",") + "\n";
        self.file
            .write_all(line.as_bytes())
            .map_err(FileError::at("write", &self.path))
    }

    /// Nothing to push (every row is written through); kept so callers mark where a batch of
    /// rows ends.
    pub fn flush(&mut self) -> Result<(), FileError> {
        self.file
            .flush()
            .map_err(FileError::at("write", &self.path))
    }
}

/// The one writer's error as this module's: its cause kept, the path named once.
fn safe_error(action: &'static str, path: &Path, e: shards::FileError) -> FileError {
    let source = match e {
        shards::FileError::Read { source, .. } | shards::FileError::Write { source, .. } => source,
        shards::FileError::NotRegular { kind, .. } => io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {kind}, not a regular file: refused (remove it)"),
        ),
        // A walk stops at the first part of the path that is not a folder: named if it is
        // not the folder asked for (`OUT` a file, where `OUT/study` was asked).
        shards::FileError::NotAFolder { kind, path: at } => io::Error::new(
            io::ErrorKind::NotADirectory,
            match at == path {
                true => format!("it is {kind}, not a folder"),
                false => format!("{} is {kind}, not a folder", at.display()),
            },
        ),
        // Another user's link on the way, or a loop: the refusal names its own path.
        e @ (shards::FileError::ForeignLink { .. } | shards::FileError::TooManyLinks { .. }) => {
            io::Error::other(e)
        }
    };
    FileError::at(action, path)(source)
}

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// A float as data files print it: Rust's shortest text that reads back the same value.
pub fn fmt_f64(v: f64) -> String {
    format!("{v}")
}

/// A share (0.0244) for people, in percent with 4 significant digits: `2.440 %`,
/// `0.001526 %`.
///
/// ```
/// assert_eq!(studies::report::percent_text(0.0244), "2.440 %");
/// assert_eq!(studies::report::percent_text(1.0 / 65536.0), "0.001526 %");
/// assert_eq!(studies::report::percent_text(0.0), "0 %");
/// ```
pub fn percent_text(share: f64) -> String {
    format!("{} %", significant_text(100.0 * share))
}

/// A number for people with 4 significant digits (all of its integer digits when it has more):
/// `1.860`, `0.004790`, `1598`.
///
/// ```
/// assert_eq!(studies::report::significant_text(1.86), "1.860");
/// assert_eq!(studies::report::significant_text(0.0047903), "0.004790");
/// assert_eq!(studies::report::significant_text(1598.439), "1598");
/// ```
pub fn significant_text(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (3 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.decimals$}")
}

/// A rate for people: `12.34 % (11.90 – 12.80 %)`, or `n/a` when nothing was counted.
pub fn rate_text(r: &Rate) -> String {
    if r.total == 0 {
        return "n/a".to_string();
    }
    format!(
        "{:.3} % ({:.3} – {:.3} %)",
        100.0 * r.rate,
        100.0 * r.low,
        100.0 * r.high
    )
}
