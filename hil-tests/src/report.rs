//! The run's report, written as the run goes: `steps.jsonl` (a header line, then one line per
//! checked step and one per finished game, each flushed), so an interrupted run keeps what it
//! had and `--resume` skips the games already finished; `summary.json`, `summary.md` and
//! `plot.svg` at the end.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bench::Tally;
use crate::compare::{Class, Step};

/// What was run, on what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// SIL, PIL or HIL.
    pub stage: String,
    /// The firmware's version, as it identified itself.
    pub firmware: String,
    /// The board profile, as it identified itself.
    pub board: String,
    /// The profile the bench predicted with, when not the board's own name: a profile file
    /// (whose board the bench models while the firmware runs its base). `calibrate` reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The emulated board's parts seed (SIL/PIL), if any.
    pub board_seed: Option<u64>,
    /// The scenario.
    pub scenario: String,
    /// Board size.
    pub size: u8,
    /// Games in the scenario.
    pub games: usize,
}

/// A guided game's cage that did not fit the position the operator was asked to make: kept
/// so the report shows every correction, not only the game played once it was fixed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Misfit {
    /// 0-based game.
    pub game: usize,
    /// The moves up to and including the one the operator was asked to make.
    pub record: String,
    /// The node codes measured.
    pub codes: Vec<u16>,
    /// Which nodes were off their band, and by how much.
    pub why: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Header(Header),
    Step(Box<Step>),
    GameEnd(usize, usize),
    Misfit(Box<Misfit>),
}

/// A report being written.
#[derive(Debug)]
pub struct Report {
    dir: PathBuf,
    file: File,
    header: Header,
    tally: Tally,
    divergences: Vec<Step>,
    done: Vec<Option<usize>>,
    /// Every step's worst deviation and class, for the plot.
    points: Vec<crate::plot::Point>,
    /// The widest band of any step.
    band: Option<u16>,
    /// Why the run stopped before its end, if it did.
    interrupted: Option<String>,
}

/// A report that cannot be written or resumed.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file operation failed.
    /// (Not a `source`: the message already says why, and a chain would say it twice.)
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The plot could not be drawn.
    #[error("{path}: cannot draw the plot: {error}")]
    Plot {
        /// The file.
        path: PathBuf,
        /// Why.
        error: crate::plot::PlotError,
    },
    /// The report to resume was written by another run.
    #[error(
        "{0}: written by another run (stage, board, seed or scenario differ); use another --out"
    )]
    Mismatch(PathBuf),
    /// A report line that is not one (only a cut-short last line is an interruption).
    #[error("{path} line {line}: not a report line")]
    Garbled {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
}

/// The plot's file name in the report folder.
pub const PLOT: &str = "plot.svg";

/// Most divergences kept for the Markdown summary.
const LISTED: usize = 50;

impl Report {
    /// Starts `dir/steps.jsonl`; with `resume`, keeps the finished games of a report of the
    /// same run and drops the unfinished one.
    pub fn open(dir: &Path, header: Header, resume: bool) -> Result<Report, ReportError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ReportError::Io {
                path,
                error: source,
            }
        };
        fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join("steps.jsonl");
        let mut kept: Vec<Line> = Vec::new();
        if resume && path.exists() {
            let file = File::open(&path).map_err(io(&path))?;
            let mut pending: Vec<Line> = Vec::new();
            for (i, line) in BufReader::new(file).lines().enumerate() {
                let line = line.map_err(io(&path))?;
                // A line cut short by an interruption ends the usable part.
                let Ok(parsed) = serde_json::from_str::<Line>(&line) else {
                    break;
                };
                match parsed {
                    Line::Header(h) if i == 0 && h == header => {}
                    Line::Header(_) => return Err(ReportError::Mismatch(path)),
                    Line::Step(_) | Line::Misfit(_) => pending.push(parsed),
                    Line::GameEnd(g, branches) => {
                        kept.append(&mut pending);
                        kept.push(Line::GameEnd(g, branches));
                    }
                }
            }
        }
        let file = File::create(&path).map_err(io(&path))?;
        let mut report = Report {
            dir: dir.to_path_buf(),
            file,
            header: header.clone(),
            tally: Tally::default(),
            divergences: Vec::new(),
            done: Vec::new(),
            points: Vec::new(),
            band: None,
            interrupted: None,
        };
        report.write(&Line::Header(header))?;
        for line in kept {
            match line {
                Line::Step(s) => report.step(*s)?,
                Line::Misfit(m) => report.misfit(*m)?,
                Line::GameEnd(g, branches) => report.end_game(g, branches)?,
                Line::Header(_) => {}
            }
        }
        Ok(report)
    }

    /// Reads the header and the steps of the report in `dir`, as a calibration reads any
    /// stage's report: a last line cut short (an interrupted run) is dropped, any other line
    /// that does not parse is an error.
    pub fn read_steps(dir: &Path) -> Result<(Header, Vec<Step>), ReportError> {
        let path = dir.join("steps.jsonl");
        let text = fs::read_to_string(&path).map_err(|source| ReportError::Io {
            path: path.clone(),
            error: source,
        })?;
        let lines: Vec<&str> = text.lines().collect();
        let mut header = None;
        let mut steps = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let garbled = || ReportError::Garbled {
                path: path.clone(),
                line: i + 1,
            };
            match serde_json::from_str::<Line>(line) {
                Ok(Line::Header(h)) if i == 0 => header = Some(h),
                Ok(Line::Header(_)) => return Err(garbled()),
                Ok(Line::Step(_) | Line::GameEnd(..) | Line::Misfit(_)) if header.is_none() => {
                    return Err(garbled());
                }
                Ok(Line::Step(s)) => steps.push(*s),
                // A misfit's codes are of no known position: not a calibration's to use.
                Ok(Line::GameEnd(..) | Line::Misfit(_)) => {}
                Err(_) if i + 1 == lines.len() && i > 0 && !text.ends_with('\n') => {}
                Err(_) => return Err(garbled()),
            }
        }
        let header = header.ok_or(ReportError::Garbled { path, line: 1 })?;
        Ok((header, steps))
    }

    /// Whether game `index` is already in the report, and the branches it left (tree).
    pub fn done(&self, index: usize) -> Option<usize> {
        self.done.get(index).copied().flatten()
    }

    fn write(&mut self, line: &Line) -> Result<(), ReportError> {
        let path = self.dir.join("steps.jsonl");
        let text = serde_json::to_string(line).map_err(|e| ReportError::Io {
            path: path.clone(),
            error: e.into(),
        })?;
        writeln!(self.file, "{text}")
            .and_then(|()| self.file.flush())
            .map_err(|source| ReportError::Io {
                path,
                error: source,
            })
    }

    /// Records one step.
    pub fn step(&mut self, step: Step) -> Result<(), ReportError> {
        self.tally.add(&step);
        self.points
            .push((step.worst.as_ref().map_or(0, |w| w.1), step.class));
        self.band = self.band.max(Some(step.band));
        self.write(&Line::Step(Box::new(step.clone())))?;
        if (step.class.diverges() || step.class.is_fault()) && self.divergences.len() < LISTED {
            self.divergences.push(step);
        }
        Ok(())
    }

    /// Records a guided game's cage that did not fit (the operator then fixes it).
    pub fn misfit(&mut self, misfit: Misfit) -> Result<(), ReportError> {
        self.tally.misfits += 1;
        self.write(&Line::Misfit(Box::new(misfit)))
    }

    /// Records the end of game `index`, which left `branches` replies of Short to explore
    /// (tree scenarios; 0 otherwise).
    pub fn end_game(&mut self, index: usize, branches: usize) -> Result<(), ReportError> {
        self.tally.games += 1;
        if self.done.len() <= index {
            self.done.resize(index + 1, None);
        }
        self.done[index] = Some(branches);
        self.write(&Line::GameEnd(index, branches))
    }

    /// The counts so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Writes the summaries of a run that stopped before its end, marked INTERRUPTED with
    /// `why`: what was finished is summed up, and `--resume` plays the rest.
    pub fn interrupted(&mut self, why: &str) -> Result<String, ReportError> {
        self.interrupted = Some(why.to_string());
        self.finish()
    }

    /// Writes `summary.json`, `summary.md` and `plot.svg`; returns the Markdown.
    pub fn finish(&mut self) -> Result<String, ReportError> {
        let json = serde_json::json!({
            "header": self.header,
            "interrupted": self.interrupted,
            "tally": self.tally,
            "divergences": self.divergences,
        });
        let md = self.markdown();
        for (name, text) in [
            (
                "summary.json",
                serde_json::to_string_pretty(&json).unwrap_or_default(),
            ),
            ("summary.md", md.clone()),
        ] {
            let path = self.dir.join(name);
            fs::write(&path, text).map_err(|source| ReportError::Io {
                path,
                error: source,
            })?;
        }
        let path = self.dir.join(PLOT);
        let h = &self.header;
        let title = format!(
            "{} {} on {}: {} steps, worst node per step",
            h.stage, h.scenario, h.board, self.tally.steps
        );
        crate::plot::deviations(&path, &title, &self.points, self.band)
            .map_err(|error| ReportError::Plot { path, error })?;
        Ok(md)
    }

    fn markdown(&self) -> String {
        let h = &self.header;
        let t = &self.tally;
        let mut md = format!(
            "# {} bench: {} on {}\n\nFirmware {}, board {}, parts seed {}, M={}.\n\n\
             {} games played ({} planned; a tree grows as it goes), {} steps.\n\n| class | steps |\n| --- | ---: |\n",
            h.stage,
            h.scenario,
            h.board,
            h.firmware,
            h.board,
            h.board_seed
                .map_or("none (nominal)".to_string(), |s| s.to_string()),
            h.size,
            t.games,
            h.games,
            t.steps,
        );
        if let Some(why) = &self.interrupted {
            md.push_str(&format!(
                "**INTERRUPTED**: {why}. The figures cover the games finished; \
                 `--resume` with the same options plays the rest.\n\n"
            ));
        }
        for (class, n) in &t.classes {
            md.push_str(&format!("| {class:?} | {n} |\n"));
        }
        if !self.divergences.is_empty() {
            md.push_str(&format!(
                "\n## Divergences (first {LISTED})\n\n| game | record | board | ideal | class | why |\n\
                 | ---: | --- | --- | --- | --- | --- |\n"
            ));
            for s in &self.divergences {
                md.push_str(&format!(
                    "| {} | `{}` | {} | {} | {:?} | {} |\n",
                    s.game,
                    s.record,
                    s.chosen.as_deref().unwrap_or(&s.outcome),
                    s.tied.join(" "),
                    s.class,
                    s.detail
                ));
            }
        }
        let faults = t.count(Class::Wiring) + t.count(Class::Fault);
        md.push_str(&format!("\nFaults (wiring or firmware): {faults}.\n"));
        if t.misfits > 0 {
            md.push_str(&format!(
                "\nCage corrections (a guided move that did not fit, fixed by the operator): {} \
                 (`misfit` lines in steps.jsonl).\n",
                t.misfits
            ));
        }
        md.push_str(&format!(
            "\nPlot: `{PLOT}` (per step, the worst |code - prediction| against the band, by class).\n"
        ));
        md
    }
}
