//! The run's report, written as the run goes: `steps.jsonl` (a header line, then one line per
//! checked step and one per finished game, each flushed), so an interrupted run keeps what it
//! had and `--resume` skips the games already finished; `summary.json`, `summary.md` and
//! `plot.svg` at the end.

pub mod chain;
mod header;
pub mod junit;
pub mod played;
pub mod plot;
mod scan;
mod sink;
pub mod tally;

use header::differences;
pub use header::{Depends, Header, Misfit};
pub use scan::Scan;
pub use sink::{Collected, GameSink};
use sink::{Line, body};

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::check::{Step, StepLine};
use crate::report::chain::{Broken, Chain};
use crate::report::played::{GamePlayed, Played};
use crate::report::tally::Tally;

/// A report being written.
#[derive(Debug)]
pub struct Report {
    dir: PathBuf,
    file: File,
    /// The seal of the lines written so far.
    chain: Chain,
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
    retry: Option<crate::dut::retry::RetryStats>,
    /// The games played in this process, their times and resends, for JUnit (not written
    /// to the report, whose bytes stay the same).
    played: Played,
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
    /// A summary file could not be written whole, or something not a regular file (a link,
    /// a FIFO) stands at its name.
    #[error(transparent)]
    File(#[from] shards::FileError),
    /// The folder holds a report that stops reading at a damaged line.
    #[error(
        "{path} already holds a report with {games} games intact before a damaged line ({damage}): \
         --resume refuses it; --force starts over, or move the file away to keep it"
    )]
    Damaged {
        /// The steps file.
        path: PathBuf,
        /// Games finished before the damage.
        games: usize,
        /// The first line refused.
        damage: Box<ReportError>,
    },
    /// Another run writes the folder (the shard model's folder lock).
    #[error(transparent)]
    Busy(#[from] shards::LockError),
    /// `--out` names something that is not a folder.
    #[error("{0} is not a folder (the report is a folder of files): name a folder for --out")]
    NotAFolder(PathBuf),
    /// A report file's name in `--out` is taken by something the bench does not write into:
    /// a FIFO (which would block the run), a device, a folder or a link.
    #[error(
        "{0} is not a regular file (the bench writes its report files as regular files only): \
         remove it or use another --out"
    )]
    NotAFile(PathBuf),
    /// `--out` holds another kind of report (a study's `summary.md` with no `steps.jsonl`).
    #[error(
        "{0} holds another report (a summary.md the bench did not write: no steps.jsonl beside \
         it), which the bench would replace: use another --out"
    )]
    OtherReport(PathBuf),
    /// The report to resume was written by another run.
    #[error("{path}: written by another run ({differs}); use another --out")]
    Mismatch {
        /// The steps file.
        path: PathBuf,
        /// What differs, `field: this run's value, the report's value`.
        differs: String,
    },
    /// A report line that is not one (only a cut-short last line is an interruption).
    #[error("{path} line {line}: {why}")]
    Garbled {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong with it.
        why: String,
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

/// The virtual board's coverage beside a one-process report (`hil-tests run --probe
/// virtual`): which of the ELF's functions the report's runs ran, their union over resumes.
pub const COVERAGE: &str = "coverage.txt";

/// The steps file's name in the report folder.
pub const STEPS: &str = "steps.jsonl";

/// The JSON summary's name in the report folder.
pub const SUMMARY_JSON: &str = "summary.json";

/// The Markdown summary's name in the report folder.
pub const SUMMARY_MD: &str = "summary.md";

/// Most divergences kept for the Markdown summary.
const LISTED: usize = 50;

/// Checks that the report's files can be written in `dir`: a file can be made there, and the
/// summaries already there can be replaced.
fn writable(dir: &Path) -> Result<(), ReportError> {
    let probe = dir.join(format!(".write-check-{}", std::process::id()));
    let made = shards::safe::write_file(&probe, b"");
    let _ = fs::remove_file(&probe);
    made.map_err(|e| file_error(e, dir))?;
    for name in [STEPS, SUMMARY_JSON, SUMMARY_MD, PLOT] {
        let path = dir.join(name);
        match fs::symlink_metadata(&path) {
            // Opened for writing, a FIFO would block until a reader came.
            Ok(meta) if !meta.is_file() => return Err(ReportError::NotAFile(path)),
            Ok(_) => {}
            Err(_) => continue,
        }
        shards::safe::open_append(&path).map_err(|e| file_error(e, &path))?;
    }
    Ok(())
}

/// The one writer's error (`shards::safe`) as the report's: what is not a regular file is
/// [`ReportError::NotAFile`], an I/O error keeps its cause with `path` named.
pub(crate) fn file_error(e: shards::FileError, path: &Path) -> ReportError {
    match e {
        shards::FileError::NotRegular { path, .. } => ReportError::NotAFile(path),
        shards::FileError::NotAFolder { path, .. } => ReportError::NotAFolder(path),
        shards::FileError::Read { source, .. } | shards::FileError::Write { source, .. } => {
            ReportError::Io {
                path: path.to_path_buf(),
                error: source,
            }
        }
        // Another user's link on the way, or a loop: the refusal names its own path.
        e @ (shards::FileError::ForeignLink { .. } | shards::FileError::TooManyLinks { .. }) => {
            ReportError::Io {
                path: path.to_path_buf(),
                error: std::io::Error::other(e),
            }
        }
    }
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
        if dir.exists() && !dir.is_dir() {
            return Err(ReportError::NotAFolder(dir.to_path_buf()));
        }
        // Nothing to refuse in a folder that did not exist: making it touches no report.
        shards::safe::create_dir_all(dir).map_err(|e| file_error(e, dir))?;
        let path = dir.join(STEPS);
        if fs::symlink_metadata(dir.join(SUMMARY_MD)).is_ok_and(|m| m.is_file())
            && fs::symlink_metadata(&path).is_err()
        {
            return Err(ReportError::OtherReport(dir.to_path_buf()));
        }
        let before = match boards::read::bytes(&path, MAX_STEPS_BYTES) {
            Ok(bytes) if !Scan::is_blank(&bytes) => Some(bytes),
            Ok(_) | Err(boards::read::ReadError::Missing) => None,
            Err(error) => return Err(ReportError::Read { path, error }),
        };
        let scan = match (before, existing) {
            (None, _) | (Some(_), Existing::Overwrite) => None,
            (Some(bytes), Existing::Refuse) => {
                let partial = Scan::partial(&bytes, &path);
                let games = partial.games();
                return Err(match partial.error {
                    None => ReportError::Exists { path, games },
                    Some(damage) => ReportError::Damaged {
                        path,
                        games,
                        damage: Box::new(damage),
                    },
                });
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
        // Before a game is played: a run that cannot write its summaries at the end would
        // have played for nothing.
        writable(dir)?;
        let (file, chain) = match &scan {
            Some(scan) => {
                let file = shards::safe::open_append(&path).map_err(|e| file_error(e, &path))?;
                // The unfinished game and a torn last line go; the rest stays as written.
                file.set_len(scan.kept as u64).map_err(io(&path))?;
                (file, scan.chain)
            }
            None => {
                // Starting over: an earlier report's coverage goes, or the board would add
                // this run's to it (it merges, for a resume). A link or FIFO there is left
                // for the board's start to refuse by name.
                let coverage = dir.join(COVERAGE);
                if fs::symlink_metadata(&coverage).is_ok_and(|m| m.is_file()) {
                    fs::remove_file(&coverage).map_err(io(&coverage))?;
                }
                // Made new and renamed onto the old report's: no link there followed.
                let file = shards::safe::create_file(&path).map_err(|e| file_error(e, &path))?;
                (file, Chain::default())
            }
        };
        let mut report = Report {
            dir: dir.to_path_buf(),
            file,
            chain,
            header: header.clone(),
            tally: Tally::default(),
            divergences: Vec::new(),
            done: Vec::new(),
            points: Vec::new(),
            band: None,
            interrupted: None,
            retry: None,
            played: Played::now(),
        };
        match scan {
            Some(scan) => {
                for line in scan.lines {
                    report.count(&line);
                }
            }
            None => report.write(&Line::Header(Box::new(header)))?,
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
        let body = body(line)?;
        self.write_body(&body)
    }

    /// Writes a line's `body` sealed, with its newline, in one write, and flushes.
    fn write_body(&mut self, body: &str) -> Result<(), ReportError> {
        let path = self.dir.join(STEPS);
        let mut text = self.chain.seal(body);
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

    /// Writes a line a shard kept ([`Collected`]) as its next line, its body as it is, and
    /// counts it: the merge's lines are the one-process run's, byte for byte.
    pub fn replay(&mut self, body: &str) -> Result<(), ReportError> {
        let line: Line = match serde_json::from_str(body) {
            Ok(Line::Header(_)) | Err(_) => {
                return Err(ReportError::Garbled {
                    path: self.dir.join(STEPS),
                    line: usize::try_from(self.chain.next_seq()).unwrap_or(usize::MAX) + 1,
                    why: "a shard's line that is not a step or a game's end".to_string(),
                });
            }
            Ok(line) => line,
        };
        self.write_body(body)?;
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

    /// Records how game `index` went in this process.
    pub fn note_played(&mut self, index: usize, game: GamePlayed) {
        self.played.games.insert(index, game);
    }

    /// The run's start and the games played in this process: their times and the commands
    /// sent again after a lost reply, what [`junit::games`] reads. (Named for what it first
    /// held: `hil-tests run` calls it.)
    pub fn resent(&self) -> &Played {
        &self.played
    }

    /// The header the report was opened with.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Records what the target's link went through, for the summaries.
    pub fn set_retry_stats(&mut self, retry: Option<crate::dut::retry::RetryStats>) {
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
                SUMMARY_JSON,
                serde_json::to_string_pretty(&json).unwrap_or_default(),
            ),
            (SUMMARY_MD, md.clone()),
        ] {
            shards::safe::write_file(&self.dir.join(name), text.as_bytes())?;
        }
        let path = self.dir.join(PLOT);
        let h = &self.header;
        let title = format!(
            "{} {} on {}: {} steps, worst node per step",
            h.stage, h.scenario, h.board, self.tally.steps
        );
        let svg =
            crate::report::plot::deviations(&title, &self.points, self.band).map_err(|error| {
                ReportError::Plot {
                    path: path.clone(),
                    error,
                }
            })?;
        shards::safe::write_file(&path, svg.as_bytes())?;
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
        md.push_str(&format!(
            "\nFaults (wiring or firmware): {}.\n",
            t.failures()
        ));
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

impl GameSink for Report {
    fn done(&self, index: usize) -> Option<usize> {
        Report::done(self, index)
    }

    fn step(&mut self, step: &Step) -> Result<(), ReportError> {
        Report::step(self, step)
    }

    fn end_game(&mut self, index: usize, branches: usize) -> Result<(), ReportError> {
        Report::end_game(self, index, branches)
    }

    fn note_played(&mut self, index: usize, game: GamePlayed) {
        Report::note_played(self, index, game);
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
