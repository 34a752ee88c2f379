//! The run's report, written as the run goes: `steps.jsonl` (a header line, then one line per
//! checked step and one per finished game, each flushed), so an interrupted run keeps what it
//! had and `--resume` skips the games already finished; `summary.json`, `summary.md` and
//! `plot.svg` at the end.

pub mod plot;
pub mod tally;

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::check::{Class, Step, StepLine};
use crate::report::tally::Tally;

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

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Header(Header),
    Step(Box<StepLine>),
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
    divergences: Vec<StepLine>,
    done: Vec<Option<usize>>,
    /// Every step's worst deviation and class, for the plot.
    points: Vec<crate::report::plot::Point>,
    /// The widest band of any step.
    band: Option<u16>,
    /// Why the run stopped before its end, if it did.
    interrupted: Option<String>,
    /// What a transport with recovery went through (PIL over RTT, HIL); `link` in the summary.
    retry: Option<crate::target::retry::RetryStats>,
}

/// What [`Report::open`] does with a folder that already holds a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse it: a report is never overwritten by a run that forgot `--resume`.
    Refuse,
    /// Keep its finished games, byte for byte, and play the rest (`--resume`).
    Resume,
    /// Start over (`--force`).
    Overwrite,
}

/// A report that cannot be written or resumed.
/// The largest `steps.jsonl` read back (`--resume`, `calibrate`): a step is some 300 bytes,
/// so 256 MiB holds nearly a million, far past any campaign; a special file or a runaway
/// file is refused before it is read.
pub const MAX_STEPS_BYTES: u64 = 256 << 20;

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
    /// A report file could not be read: not a regular file (a FIFO would block), larger than
    /// [`MAX_STEPS_BYTES`], or an I/O error.
    #[error("{}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: boards::read::ReadError,
    },
    /// The plot could not be drawn.
    #[error("{path}: cannot draw the plot: {error}")]
    Plot {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: crate::report::plot::PlotError,
    },
    /// The folder already holds a report, and the run asked neither to resume nor to start over.
    #[error(
        "{path} already holds a report ({games} games finished): --resume plays the rest, --force starts over"
    )]
    Exists {
        /// The steps file.
        path: PathBuf,
        /// Games it finished.
        games: usize,
    },
    /// The report to resume was written by another run.
    #[error("{path}: written by another run ({differs}); use another --out")]
    Mismatch {
        /// The steps file.
        path: PathBuf,
        /// What differs, `field: this run's value, the report's value`.
        differs: String,
    },
    /// A report line that is not one (only a cut-short last line is an interruption).
    #[error("{path} line {line}: not a report line")]
    Garbled {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// A report line in the wrong place: a repeated or misplaced line, which no run writes.
    #[error("{path} line {line}: {why}")]
    Misplaced {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// The plot's file name in the report folder.
pub const PLOT: &str = "plot.svg";

/// The steps file's name in the report folder.
pub const STEPS: &str = "steps.jsonl";

/// Most divergences kept for the Markdown summary.
const LISTED: usize = 50;

/// A steps file read and checked, as `--resume` and a calibration read it.
#[derive(Debug)]
pub struct Scan {
    /// The run's header (line 1).
    pub header: Header,
    /// The lines of the finished games, in order (a game's steps, then its end).
    lines: Vec<Line>,
    /// Bytes of the file that hold the header and the finished games: what a resume keeps.
    pub kept: usize,
    /// Steps of the game that was in hand when the run stopped (a calibration can use them;
    /// a resume plays that game again).
    pub unfinished: Vec<StepLine>,
}

impl Scan {
    /// Reads a steps file's bytes (`path` only names it in errors). Every line must parse, but
    /// a last line with no newline (cut short by a kill); the header comes first and once;
    /// games end in order, each once, and a game's steps come before its end and after the
    /// previous game's. Anything else is refused with the line's number: no run writes it.
    pub fn read(bytes: &[u8], path: &Path) -> Result<Scan, ReportError> {
        let garbled = |line| ReportError::Garbled {
            path: path.to_path_buf(),
            line,
        };
        let misplaced = |line, why: String| ReportError::Misplaced {
            path: path.to_path_buf(),
            line,
            why,
        };
        let mut header = None;
        let mut lines = Vec::new();
        let mut pending: Vec<Line> = Vec::new();
        let mut pending_text: Vec<&[u8]> = Vec::new();
        let mut kept = 0;
        let mut offset = 0;
        for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            let number = i + 1;
            offset += raw.len();
            let Some(text) = raw.strip_suffix(b"\n") else {
                // A last line cut short by an interruption: the run stopped in it.
                break;
            };
            let line = std::str::from_utf8(text)
                .ok()
                .and_then(|t| serde_json::from_str::<Line>(t).ok())
                .ok_or_else(|| garbled(number))?;
            let next_game = lines
                .iter()
                .filter(|l| matches!(l, Line::GameEnd(..)))
                .count();
            match (&line, &header) {
                (Line::Header(h), None) if number == 1 => {
                    header = Some(h.clone());
                    kept = offset;
                    continue;
                }
                (Line::Header(_), _) => {
                    return Err(misplaced(number, "a second header".to_string()));
                }
                (_, None) => return Err(garbled(1)),
                _ => {}
            }
            let game = match &line {
                Line::Step(s) => s.game,
                Line::Misfit(m) => m.game,
                Line::GameEnd(g, _) => *g,
                Line::Header(_) => return Err(misplaced(number, "a second header".to_string())),
            };
            if game != next_game {
                return Err(misplaced(
                    number,
                    format!(
                        "a line of game {game} where game {next_game} comes next (a repeated or misplaced line)"
                    ),
                ));
            }
            if let Some(first) = pending_text.iter().position(|&t| t == text) {
                let first = number - (pending_text.len() - first);
                return Err(misplaced(number, format!("repeats line {first}")));
            }
            if matches!(line, Line::GameEnd(..)) {
                lines.append(&mut pending);
                lines.push(line);
                pending_text.clear();
                kept = offset;
            } else {
                pending.push(line);
                pending_text.push(text);
            }
        }
        let header = header.ok_or_else(|| garbled(1))?;
        let unfinished = pending
            .into_iter()
            .filter_map(|l| match l {
                Line::Step(s) => Some(*s),
                _ => None,
            })
            .collect();
        Ok(Scan {
            header,
            lines,
            kept,
            unfinished,
        })
    }

    /// Games finished.
    pub fn games(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| matches!(l, Line::GameEnd(..)))
            .count()
    }

    /// Every step, the finished games' and then the unfinished one's.
    pub fn steps(self) -> Vec<StepLine> {
        let mut steps: Vec<StepLine> = self
            .lines
            .into_iter()
            .filter_map(|l| match l {
                Line::Step(s) => Some(*s),
                _ => None,
            })
            .collect();
        steps.extend(self.unfinished);
        steps
    }
}

/// Fields of two headers that differ, as `field: this run's value, the report's value`.
fn differences(ours: &Header, theirs: &Header) -> String {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(ours), serde_json::to_value(theirs))
    else {
        return "its header".to_string();
    };
    let null = serde_json::Value::Null;
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k).unwrap_or(&null) != b.get(*k).unwrap_or(&null))
        .map(|k| {
            format!(
                "{k}: {} here, {} in the report",
                a.get(k).unwrap_or(&null),
                b.get(k).unwrap_or(&null)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl Report {
    /// Starts `dir/steps.jsonl`. A folder that already holds a report is refused, resumed
    /// (its finished games kept byte for byte, the unfinished one dropped to be played again)
    /// or overwritten, as `existing` says. A resume that is refused touches nothing.
    pub fn open(dir: &Path, header: Header, existing: Existing) -> Result<Report, ReportError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ReportError::Io {
                path,
                error: source,
            }
        };
        // Nothing to refuse in a folder that did not exist: making it touches no report.
        fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(STEPS);
        let before = match boards::read::bytes(&path, MAX_STEPS_BYTES) {
            Ok(bytes) if !bytes.is_empty() => Some(bytes),
            Ok(_) | Err(boards::read::ReadError::Missing) => None,
            Err(error) => return Err(ReportError::Read { path, error }),
        };
        let scan = match (before, existing) {
            (None, _) | (Some(_), Existing::Overwrite) => None,
            (Some(bytes), Existing::Refuse) => {
                let games = Scan::read(&bytes, &path).map_or(0, |s| s.games());
                return Err(ReportError::Exists { path, games });
            }
            (Some(bytes), Existing::Resume) => {
                let scan = Scan::read(&bytes, &path)?;
                if scan.header != header {
                    let differs = differences(&header, &scan.header);
                    return Err(ReportError::Mismatch { path, differs });
                }
                Some(scan)
            }
        };
        let file = match &scan {
            Some(scan) => {
                let file = fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .map_err(io(&path))?;
                // The unfinished game and a torn last line go; the rest stays as written.
                file.set_len(scan.kept as u64).map_err(io(&path))?;
                file
            }
            None => File::create(&path).map_err(io(&path))?,
        };
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
            retry: None,
        };
        match scan {
            Some(scan) => {
                for line in scan.lines {
                    report.count(&line);
                }
            }
            None => report.write(&Line::Header(header))?,
        }
        Ok(report)
    }

    /// Reads the header and the steps of the report in `dir`, as a calibration reads any
    /// stage's report: the checks of [`Scan::read`], the unfinished game's steps included.
    pub fn read_steps(dir: &Path) -> Result<(Header, Vec<StepLine>), ReportError> {
        let path = dir.join(STEPS);
        let bytes =
            boards::read::bytes(&path, MAX_STEPS_BYTES).map_err(|error| ReportError::Read {
                path: path.clone(),
                error,
            })?;
        let scan = Scan::read(&bytes, &path)?;
        Ok((scan.header.clone(), scan.steps()))
    }

    /// Whether game `index` is already in the report, and the branches it left (tree).
    pub fn done(&self, index: usize) -> Option<usize> {
        self.done.get(index).copied().flatten()
    }

    /// Writes `line` with its newline in one write, and flushes: a kill leaves whole lines
    /// and at most one torn last line, which a resume drops.
    fn write(&mut self, line: &Line) -> Result<(), ReportError> {
        let path = self.dir.join(STEPS);
        let mut text = serde_json::to_string(line).map_err(|e| ReportError::Io {
            path: path.clone(),
            error: e.into(),
        })?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| ReportError::Io {
                path,
                error: source,
            })
    }

    /// Counts `line` in the summaries (written by this run or kept by a resume).
    fn count(&mut self, line: &Line) {
        match line {
            Line::Header(_) => {}
            Line::Step(step) => {
                self.tally.add(step);
                self.points
                    .push((step.worst.as_ref().map_or(0, |w| w.1), step.class));
                self.band = self.band.max(Some(step.band));
                if (step.class.diverges() || step.class.is_fault())
                    && self.divergences.len() < LISTED
                {
                    self.divergences.push((**step).clone());
                }
            }
            Line::Misfit(_) => self.tally.misfits += 1,
            Line::GameEnd(index, branches) => {
                self.tally.games += 1;
                if self.done.len() <= *index {
                    self.done.resize(index + 1, None);
                }
                self.done[*index] = Some(*branches);
            }
        }
    }

    fn record(&mut self, line: Line) -> Result<(), ReportError> {
        self.write(&line)?;
        self.count(&line);
        Ok(())
    }

    /// Records one step, written in words as it goes.
    pub fn step(&mut self, step: &Step) -> Result<(), ReportError> {
        self.record(Line::Step(Box::new(step.line())))
    }

    /// Records a guided game's cage that did not fit (the operator then fixes it).
    pub fn misfit(&mut self, misfit: Misfit) -> Result<(), ReportError> {
        self.record(Line::Misfit(Box::new(misfit)))
    }

    /// Records the end of game `index`, which left `branches` replies of Short to explore
    /// (tree scenarios; 0 otherwise).
    pub fn end_game(&mut self, index: usize, branches: usize) -> Result<(), ReportError> {
        self.record(Line::GameEnd(index, branches))
    }

    /// Records what the target's link went through, for the summaries.
    pub fn set_retry_stats(&mut self, retry: Option<crate::target::retry::RetryStats>) {
        self.retry = retry;
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
            "link": self.retry,
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
        crate::report::plot::deviations(&path, &title, &self.points, self.band)
            .map_err(|error| ReportError::Plot { path, error })?;
        Ok(md)
    }

    fn markdown(&self) -> String {
        let h = &self.header;
        let t = &self.tally;
        let mut md = format!(
            "# {} bench: {} on {}\n\nFirmware {}, board {}, parts seed {}, M={}.\n\n\
             {}, {} steps.\n\n| class | steps |\n| --- | ---: |\n",
            h.stage,
            h.scenario,
            h.board,
            h.firmware,
            h.board,
            h.board_seed
                .map_or("none (nominal)".to_string(), |s| s.to_string()),
            h.size,
            tally::games_played(&h.scenario, t.games, h.games),
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
        if let Some(link) = &self.retry {
            md.push_str(&format!(
                "\nLink (RTT): {} polls; {} replies dropped by the firmware; {} commands sent \
                 again with their number, {} replies that came after a repeat, {} further copies \
                 ignored.\n",
                link.polls, link.dropped, link.rerequests, link.recovered, link.stale
            ));
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

#[cfg(test)]
mod round_trip {
    /// What `--resume` reads back is what the run wrote: a margin (an f64 the report prints
    /// with the shortest digits that round-trip) parses to the same bits, so a resumed run's
    /// summaries equal the uninterrupted run's. serde_json's default float parser is an ulp
    /// off on about one such value in ten (10,627 of these 100,000 without the workspace's
    /// `float_roundtrip` feature).
    #[test]
    fn margins_read_back_bit_for_bit() {
        let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
        let mut off = 0;
        for _ in 0..100_000 {
            // xorshift: margins spread over [0, 1) with full 53-bit mantissas.
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let x = (rng >> 11) as f64 / (1u64 << 53) as f64;
            let text = serde_json::to_string(&x).unwrap();
            let back: f64 = serde_json::from_str(&text).unwrap();
            off += usize::from(back.to_bits() != x.to_bits());
        }
        assert_eq!(
            off, 0,
            "{off} of 100000 floats did not read back to the same bits"
        );
    }
}
