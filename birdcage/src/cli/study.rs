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
use super::shard::{self, ShardArgs};
use crate::args::whole;
use shards::Mode;

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
    #[command(flatten)]
    shard: ShardArgs,
}

/// Set by Ctrl-C: studies finish the chunk in hand and report what they finished.
static STOP: AtomicBool = AtomicBool::new(false);

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let mode = self.shard.mode();
        if mode != Mode::Whole && !matches!(self.study, Study::Quantisation | Study::Tolerance) {
            bail!(
                "study {}: --shard, --merge, --slurm and --status split the quantisation and tolerance studies only so far",
                format!("{:?}", self.study).to_lowercase()
            );
        }
        if self.study == Study::Heuristic {
            return self.run_heuristic();
        }
        if self.study == Study::Quantisation {
            return self.run_quantisation(&mode);
        }
        if self.study == Study::Tolerance {
            return self.run_tolerance(&mode);
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
        let _lock = self.lock()?;
        let out = Output::fresh(&self.out, self.force)?;
        // A second handler (tests run the CLI once per process) is not an error worth stopping for.
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let unit = match self.study {
            Study::Pullups => "boards",
            Study::Quantisation | Study::Heuristic | Study::Tolerance => {
                unreachable!("handled above")
            }
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
            Study::Quantisation | Study::Heuristic | Study::Tolerance => {
                unreachable!("handled above")
            }
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
        let _lock = self.lock()?;
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
    /// Locks the report folder (made if missing) for a study run outside the shard driver
    /// (whose runs lock it themselves): a second run into it is refused, naming this one's
    /// process id, host and command (issue 41). The shard model's lock, the one lock.
    fn lock(&self) -> Result<shards::Lock> {
        // Made as a report folder is (a file where it should be says so), then locked.
        studies::report::Output::new(&self.out)?;
        Ok(shards::lock_folder(&self.out, &self.command_line())?)
    }

    fn command_line(&self) -> String {
        format!("birdcage {}", self.argv().join(" "))
    }

    /// The study's arguments, `study` first: what the report depends on (not --out, not
    /// --force), so the spec of its shards and the command of its job script.
    fn argv(&self) -> Vec<String> {
        let mut c = vec![
            "study".to_string(),
            format!("{:?}", self.study).to_lowercase(),
            "--size".into(),
            self.size.get().to_string(),
            "--seed".into(),
            self.seed.to_string(),
        ];
        let mut add = |flag: &str, value: String| {
            c.push(flag.into());
            c.push(value);
        };
        if let Some(b) = &self.board {
            add("--board", b.clone());
        }
        if let Some(n) = self.boards {
            add("--boards", n.to_string());
        }
        if let Some(n) = self.random_games {
            add("--random-games", n.to_string());
        }
        if let Some(p) = &self.records {
            add("--records", p.display().to_string());
        }
        c
    }

    /// The quantisation study in any mode of the shard model: its shards are the decision
    /// positions (the k-th decision of the set belongs to shard k mod P).
    fn run_quantisation(&self, mode: &Mode) -> Result<String> {
        let boards = match self.board.as_deref() {
            Some("ideal") => Vec::new(),
            Some(spec) => vec![(
                spec.to_string(),
                Board::from_profile(boards::file::load(spec)?),
            )],
            None => Vec::new(),
        };
        let set = self.positions()?;
        for (spec, board) in &boards {
            emulator::physical::check_solves(board, self.size)
                .with_context(|| format!("board {spec}"))?;
        }
        let command = self.command_line();
        let converters = converters(boards, self.seed, &command);
        let bits: Vec<u8> = studies::BITS.collect();
        let (size, seed) = (self.size, self.seed);
        // The one-process run streams its rows to the CSV as it goes (a kill keeps them);
        // shards keep theirs in their files and the merge writes them.
        let streamed = std::cell::Cell::new(false);
        self.sharded(
            mode,
            "decisions",
            |id, control, out| {
                let mut csv = match id == shards::ShardId::WHOLE {
                    true => Some(out.csv(POSITIONS_CSV)?),
                    false => None,
                };
                streamed.set(csv.is_some());
                let part = quantisation::run_part(
                    &set,
                    &converters,
                    &bits,
                    WORST,
                    control,
                    id,
                    csv.as_mut(),
                )?;
                Ok((part.to_bytes(), part.done == part.owned))
            },
            |bodies, out| {
                let parts = bodies
                    .iter()
                    .map(|b| quantisation::Part::from_bytes(b, size, WORST))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut csv = match streamed.get() {
                    true => None,
                    false => Some(out.csv(POSITIONS_CSV)?),
                };
                let report = quantisation::report(
                    &set,
                    (&converters, seed),
                    &bits,
                    WORST,
                    parts,
                    csv.as_mut(),
                )?;
                quantisation::write_tables(&report, out)?;
                let summary = report.markdown(&command);
                Ok(studies::report::finish(
                    out,
                    "quantisation",
                    &report,
                    summary,
                    || quantisation::plots(&report, out),
                )?)
            },
        )
    }

    /// The tolerance study in any mode of the shard model: its shards are the boards drawn
    /// (board b of every band belongs to shard b mod P).
    fn run_tolerance(&self, mode: &Mode) -> Result<String> {
        let board = match self.board.as_deref() {
            Some(spec) => (
                spec.to_string(),
                Board::from_profile(boards::file::load(spec)?),
            ),
            None => (
                "nucleo-f446re".to_string(),
                Board::from_profile(&boards::NUCLEO_F446RE),
            ),
        };
        let set = self.positions()?;
        emulator::physical::check_solves(&board.1, self.size)
            .with_context(|| format!("board {}", board.0))?;
        let plan = tolerance::Plan {
            tolerances_ppm: tolerance::TOLERANCES_PPM.to_vec(),
            boards: self.boards.unwrap_or(200),
            seed: self.seed,
        };
        const PERFECT: &str = "Lehman's theorem (switching::perfect)";
        let winner = |p: &heuristic::Position| Some(switching::perfect::winner(p));
        let command = self.command_line();
        self.sharded(
            mode,
            "boards",
            |id, control, _| {
                let part = tolerance::write_part(&set, &board.1, &plan, Some(&winner), control, id);
                let complete = part.cells.len() == plan.tolerances_ppm.len() * 3
                    && part.cells.iter().all(|c| {
                        c.boards == (0..plan.boards).filter(|&b| id.owns(b)).count() as u64
                    });
                Ok((serde_json::to_vec(&part)?, complete))
            },
            |bodies, out| {
                let parts = bodies
                    .iter()
                    .map(|b| serde_json::from_slice::<tolerance::Part>(b))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(tolerance::write_report(
                    &set,
                    board.clone(),
                    &plan,
                    Some(PERFECT),
                    parts,
                    out,
                    &command,
                )?)
            },
        )
    }

    /// Runs a study in `mode`: `run` makes shard K's bytes (and says whether it finished:
    /// Ctrl-C may stop it), `merge` writes the report from every shard's bytes into the
    /// folder. The one-process run is shard 1/1 merged; a stopped shard is not stored.
    fn sharded(
        &self,
        mode: &Mode,
        unit: &'static str,
        run: impl FnOnce(shards::ShardId, &Control<'_>, &Output) -> Result<(Vec<u8>, bool)>,
        merge: impl FnOnce(Vec<Vec<u8>>, &Output) -> Result<String>,
    ) -> Result<String> {
        // A folder holding a report is refused before any work (a shard's folder is not
        // cleared: shards and the report live side by side).
        match mode {
            Mode::Whole | Mode::Merge(_) => drop(Output::fresh(&self.out, self.force)?),
            _ => drop(Output::new(&self.out)?),
        }
        let dir = shard::absolute(&self.out)?;
        let out = Output::new(&dir)?;
        let records = match &self.records {
            Some(p) => Some(shards::sha256_hex(
                &std::fs::read(p).with_context(|| format!("reading {}", p.display()))?,
            )),
            None => None,
        };
        let name = format!("{:?}", self.study).to_lowercase();
        let spec = serde_json::json!({ "argv": self.argv(), "records_sha256": records });
        let job = shards::Job::new(
            &name,
            &spec,
            shard::VERSION,
            shard::command(&dir, &self.argv())?,
        );
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
        let bar = Progress::counted(format!("study {name}"), unit, None);
        let progress = |done: u64, total: u64| {
            bar.set_total(total);
            bar.set(done);
        };
        let control = Control {
            stop: &STOP,
            progress: &progress,
        };
        let outcome = shards::drive(
            &dir,
            &job,
            mode,
            |id| -> Result<Vec<u8>> {
                let (bytes, complete) = run(id, &control, &out)?;
                if id != shards::ShardId::WHOLE && !complete {
                    bail!("interrupted: shard {id} not stored");
                }
                Ok(bytes)
            },
            |bodies| merge(bodies, &out),
        )?;
        let summary = match shard::describe(outcome, &job, &dir) {
            Ok(text) => {
                bar.finish("done");
                return Ok(text);
            }
            Err(summary) => summary,
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
}

/// The quantisation study's per-position file.
const POSITIONS_CSV: &str = "quantisation-positions.csv";

/// Divergences kept per row of the quantisation study.
const WORST: usize = 5;

/// The quantisation study's converters: the ideal one, then each board's (every profile
/// unless one was named; none for `--board ideal`).
fn converters(
    boards: Vec<(String, Board)>,
    seed: u64,
    command: &str,
) -> Vec<quantisation::Converter> {
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
    converters
}
