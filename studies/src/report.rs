//! Writing a study's data: an output folder, CSV rows flushed as they finish, JSON, and the
//! small formatting rules that keep the same seed's files byte-identical (no timestamps, floats
//! printed as Rust's shortest round-trip text).

use std::fs::File;
use std::io::{self, BufWriter, Write};
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

/// The folder a study writes into.
#[derive(Clone, Debug)]
pub struct Output {
    dir: PathBuf,
}

impl Output {
    /// Creates `dir` (and its parents) if needed.
    pub fn new(dir: &Path) -> io::Result<Output> {
        std::fs::create_dir_all(dir)?;
        Ok(Output {
            dir: dir.to_path_buf(),
        })
    }

    /// The path of `name` inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A CSV file, created empty.
    pub fn csv(&self, name: &str) -> io::Result<CsvWriter> {
        Ok(CsvWriter {
            out: BufWriter::new(File::create(self.path(name))?),
        })
    }

    /// Writes `text` to `name`.
    pub fn text(&self, name: &str, text: &str) -> io::Result<()> {
        std::fs::write(self.path(name), text)
    }

    /// Writes `value` as pretty JSON (with a final newline) to `name`.
    pub fn json<T: Serialize>(&self, name: &str, value: &T) -> io::Result<()> {
        let text = serde_json::to_string_pretty(value).map_err(io::Error::other)? + "\n";
        self.text(name, &text)
    }

    /// Writes whole rows to a CSV file `name`.
    pub fn csv_rows(&self, name: &str, rows: &[Vec<String>]) -> io::Result<()> {
        let mut csv = self.csv(name)?;
        for r in rows {
            csv.row(r)?;
        }
        csv.flush()
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
    plots().map_err(WriteError::Plot)?;
    Ok(summary)
}

/// Why a study's files could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A data file (CSV, JSON, the summary) could not be written.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A plot could not be drawn (the data files are already written).
    #[error("plotting: {0}")]
    Plot(PlotError),
}

/// CSV rows written as they come; fields with a comma, quote or newline are quoted.
#[derive(Debug)]
pub struct CsvWriter {
    out: BufWriter<File>,
}

impl CsvWriter {
    /// Writes one row.
    pub fn row<S: AsRef<str>>(&mut self, fields: &[S]) -> io::Result<()> {
        let line: Vec<String> = fields.iter().map(|f| quote(f.as_ref())).collect();
        writeln!(self.out, "{}", line.join(","))
    }

    /// Pushes what was written to the file, so an interrupted run keeps it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
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
