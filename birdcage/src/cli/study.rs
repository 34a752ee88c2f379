//! `birdcage study`: the quantisation, tolerance and pull-up studies, written to a folder as
//! JSON, CSV, SVG plots and a Markdown summary (also printed).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use emulator::physical::Board;
use heuristic::{Model, Size};
use studies::positions::PositionSet;
use studies::report::Output;
use studies::strength;
use studies::{Control, pullups, quantisation, tolerance};

use super::parse_size;
use super::progress::Progress;
use crate::args::whole;

/// Which study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Study {
    /// ADC resolution 6..=16 bits: ideal converter, then each board's.
    Quantisation,
    /// Monte Carlo over boards drawn from each tolerance and distribution.
    Tolerance,
    /// Pull-up value and topology: decisions and the game-over reading.
    Pullups,
    /// Shannon's heuristic on any graph: does it keep a perfect-play win? (Every game of
    /// up to --max-vertices vertices, grids, Gale boards, random planar and Erdős–Rényi
    /// graphs; --size, --board and the position sets do not apply.)
    Heuristic,
}

/// Run a study over a set of positions and write its report.
#[derive(Args, Debug)]
pub struct Cmd {
    /// The study.
    #[arg(value_enum)]
    study: Study,
    /// Board size M: the tree of the heuristic against every Short reply for M <= 4, random
    /// games above.
    #[arg(long, short = 's', value_name = "M", default_value = "3", value_parser = parse_size,
          allow_negative_numbers = true)]
    size: Size,
    /// Board profile or profile file (default: every profile for quantisation, nucleo-f446re
    /// for the others); `ideal` for the quantisation study's ideal converter alone.
    #[arg(long, value_name = "PROFILE")]
    board: Option<String>,
    /// Seed of every random draw (parts, ADC devices, noise, random games).
    #[arg(long, value_name = "S", default_value_t = 1, allow_negative_numbers = true,
          value_parser = whole::<u64>(0, u64::MAX))]
    seed: u64,
    /// Boards drawn per tolerance and distribution (tolerance), per pull-up case (pullups).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(1, u64::MAX))]
    boards: Option<u64>,
    /// Study random games instead of the tree: Cut plays the heuristic, Short at random.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(1, u64::MAX), conflicts_with = "records")]
    random_games: Option<u64>,
    /// Study the games of a file: one record per line (Cut first), `#` comments.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Heuristic study: every game (connected graph, terminal pair) of up to N vertices
    /// (nauty).
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(2, 9))]
    max_vertices: Option<u64>,
    /// Heuristic study: random graphs drawn per family and size.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = whole::<u64>(1, u64::MAX))]
    samples: Option<u64>,
    /// Folder for the report (created if missing). A folder that holds a report already
    /// is refused.
    #[arg(long, value_name = "DIR", default_value = "study")]
    out: PathBuf,
    /// Replace the report the folder holds (its summary.md, JSON, CSV and SVG files are
    /// removed first).
    #[arg(long)]
    force: bool,
}

/// Set by Ctrl-C: studies finish the chunk in hand and report what they finished.
static STOP: AtomicBool = AtomicBool::new(false);

impl Cmd {
    pub fn run(&self) -> Result<String> {
        if self.study == Study::Heuristic {
            return self.run_heuristic();
        }
        let boards = match self.board.as_deref() {
            Some("ideal") if self.study == Study::Quantisation => Vec::new(),
            Some(spec) => vec![(
                spec.to_string(),
                Board::from_profile(boards::file::load(spec)?),
            )],
            None => Vec::new(),
        };
        let set = self.positions()?;
        // A board f64 cannot solve is refused before the folder is made.
        for (spec, board) in &boards {
            emulator::physical::check_solves(board, self.size)
                .with_context(|| format!("board {spec}"))?;
        }
        let out = Output::fresh(&self.out, self.force)?;
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let unit = match self.study {
            Study::Quantisation => "decisions",
            Study::Tolerance | Study::Pullups => "boards",
            Study::Heuristic => unreachable!("handled above"),
        };
        let name = format!("study {:?}", self.study).to_lowercase();
        let bar = Progress::counted(name, unit, None);
        let progress = |done: u64, total: u64| {
            bar.set_total(total);
            bar.set(done);
        };
        let control = Control {
            stop: &STOP,
            progress: &progress,
        };
        let command = self.command_line();
        let summary = match self.study {
            Study::Quantisation => {
                run_quantisation(&set, boards, self.seed, &control, &out, &command)?
            }
            Study::Tolerance => {
                let plan = tolerance::Plan {
                    tolerances_ppm: tolerance::TOLERANCES_PPM.to_vec(),
                    boards: self.boards.unwrap_or(200),
                    seed: self.seed,
                };
                let winner = |p: &heuristic::Position| Some(switching::perfect::winner(p));
                let perfect: Option<(&str, studies::outcome::Winner<'_>)> =
                    Some(("Lehman's theorem (switching::perfect)", &winner));
                tolerance::write(
                    &set,
                    self.board_or_default(boards)?,
                    &plan,
                    perfect,
                    &control,
                    &out,
                    &command,
                )?
            }
            Study::Heuristic => unreachable!("handled above"),
            Study::Pullups => pullups::write(
                &set,
                self.board_or_default(boards)?,
                self.boards.unwrap_or(10),
                self.seed,
                &control,
                &out,
                &command,
            )?,
        };
        bar.finish(&format!("report in {}", out.path("summary.md").display()));
        if STOP.load(Ordering::SeqCst) {
            bail!(
                "interrupted; what was finished is in {}",
                out.path("summary.md").display()
            );
        }
        Ok(summary)
    }

    fn run_heuristic(&self) -> Result<String> {
        let mut plan = strength::Plan::full(self.seed);
        if let Some(n) = self.max_vertices {
            plan.max_vertices = n as usize;
        }
        if let Some(n) = self.samples {
            plan.samples = n;
        }
        let out = Output::fresh(&self.out, self.force)?;
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let bar = Progress::counted("study heuristic", "boards", None);
        let progress = |done: u64, total: u64| {
            bar.set_total(total);
            bar.set(done);
        };
        let control = Control {
            stop: &STOP,
            progress: &progress,
        };
        let mut command = format!("birdcage study heuristic --seed {}", self.seed);
        if let Some(n) = self.max_vertices {
            command.push_str(&format!(" --max-vertices {n}"));
        }
        if let Some(n) = self.samples {
            command.push_str(&format!(" --samples {n}"));
        }
        let h = |p: &switching::Play<'_>| emulator::graphs::heuristic_move(p, Model::Ideal);
        let summary = strength::write(
            &plan,
            &h,
            "largest exact drop on the ideal network, ties to the first edge in file order \
             (emulator::graphs::heuristic_move, Model::Ideal)",
            &command,
            &control,
            &out,
        )?;
        bar.finish(&format!("report in {}", out.path("summary.md").display()));
        if STOP.load(Ordering::SeqCst) {
            bail!(
                "interrupted; what was finished is in {}",
                out.path("summary.md").display()
            );
        }
        Ok(summary)
    }

    fn board_or_default(&self, mut boards: Vec<(String, Board)>) -> Result<(String, Board)> {
        Ok(match boards.pop() {
            Some(b) => b,
            None => (
                "nucleo-f446re".to_string(),
                Board::from_profile(&boards::NUCLEO_F446RE),
            ),
        })
    }

    fn positions(&self) -> Result<PositionSet> {
        let size = self.size;
        if let Some(path) = &self.records {
            return Ok(PositionSet::read_records(size, path)?);
        }
        let games = match self.random_games {
            Some(n) => Some(n),
            None if size.get() > 4 => Some(1000),
            None => None,
        };
        Ok(match games {
            Some(n) => PositionSet::random_games(size, n as usize, self.seed),
            None => PositionSet::tree(size),
        })
    }

    /// The command as a person would type it again (for the summary).
    fn command_line(&self) -> String {
        let mut c = format!(
            "birdcage study {} --size {} --seed {}",
            format!("{:?}", self.study).to_lowercase(),
            self.size.get(),
            self.seed
        );
        if let Some(b) = &self.board {
            c.push_str(&format!(" --board {b}"));
        }
        if let Some(n) = self.boards {
            c.push_str(&format!(" --boards {n}"));
        }
        if let Some(n) = self.random_games {
            c.push_str(&format!(" --random-games {n}"));
        }
        if let Some(p) = &self.records {
            c.push_str(&format!(" --records {}", p.display()));
        }
        c
    }
}

fn run_quantisation(
    set: &PositionSet,
    boards: Vec<(String, Board)>,
    seed: u64,
    control: &Control<'_>,
    out: &Output,
    command: &str,
) -> Result<String> {
    let boards = if boards.is_empty() && !command.contains("--board ideal") {
        boards::PROFILES
            .iter()
            .map(|p| (p.name.to_string(), Board::from_profile(p)))
            .collect()
    } else {
        boards
    };
    let mut converters = vec![quantisation::Converter::Ideal];
    converters.extend(
        boards
            .into_iter()
            .map(|(spec, board)| quantisation::Converter::Board {
                spec,
                board: Box::new(board),
                seed,
            }),
    );
    let bits: Vec<u8> = studies::BITS.collect();
    let mut positions_csv = out.csv("quantisation-positions.csv")?;
    let report = quantisation::run(
        set,
        (&converters, seed),
        &bits,
        5,
        control,
        &mut positions_csv,
    )?;
    quantisation::write_tables(&report, out)?;
    let summary = report.markdown(command);
    Ok(studies::report::finish(
        out,
        "quantisation",
        &report,
        summary,
        || quantisation::plots(&report, out),
    )?)
}
