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
use super::shard;
use crate::args::whole;
use shards::{Mode, ShardArgs};

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
    /// Run the study's independent reference instead (one plain loop, no shard, no part, no
    /// merge): what a merged study is checked against.
    #[arg(long, conflicts_with_all = ["shard", "shards", "merge", "slurm", "status"])]
    reference: bool,
    #[command(flatten)]
    shard: ShardArgs,
}

/// Set by Ctrl-C: studies finish the chunk in hand and report what they finished.
static STOP: AtomicBool = AtomicBool::new(false);

impl Cmd {
    pub fn run(&self) -> Result<String> {
        let mode = self.shard.checked_mode()?;
        if self.reference {
            return self.run_reference();
        }
        match self.study {
            Study::Quantisation => self.run_quantisation(&mode),
            Study::Tolerance => self.run_tolerance(&mode),
            Study::Pullups => self.run_pullups(&mode),
            Study::Heuristic => self.run_heuristic(&mode),
        }
    }

    /// `--board` loaded, and checked to solve at `--size` before any folder is made; `None`
    /// when not given, or `ideal` for the quantisation study (its ideal converter alone).
    fn named_board(&self) -> Result<Option<(String, Board)>> {
        let Some(spec) = self.board.as_deref() else {
            return Ok(None);
        };
        if spec == "ideal" && self.study == Study::Quantisation {
            return Ok(None);
        }
        let board = Board::from_profile(boards::file::load(spec)?);
        emulator::physical::check_solves(&board, self.size)
            .with_context(|| format!("board {spec}"))?;
        Ok(Some((spec.to_string(), board)))
    }

    /// `--board`, or the Nucleo the tolerance and pull-up studies default to.
    fn board_or_nucleo(&self) -> Result<(String, Board)> {
        Ok(match self.named_board()? {
            Some(board) => board,
            None => (
                boards::NUCLEO_F446RE.name.to_string(),
                Board::from_profile(&boards::NUCLEO_F446RE),
            ),
        })
    }

    /// The pull-up study in any mode of the shard model: its shards are the boards drawn
    /// (board k of every case belongs to shard k mod P).
    fn run_pullups(&self, mode: &Mode) -> Result<String> {
        let (spec, board) = self.board_or_nucleo()?;
        let set = self.positions()?;
        let plan = pullups::Plan {
            boards: self.boards.unwrap_or(10),
            seed: self.seed,
        };
        let command = self.command_line();
        self.sharded(
            mode,
            "cases",
            |id, control, streamed| {
                let mut csv = streamed.map(|out| out.csv("pullups.csv")).transpose()?;
                let part = pullups::run_part(
                    &set,
                    (&board, pullups::profile(&spec)),
                    &plan,
                    control,
                    id,
                    csv.as_mut(),
                )?;
                Ok((serde_json::to_vec(&part)?, part.finished()))
            },
            |bodies, out, streamed| {
                Ok(pullups::write_report(
                    &set,
                    (&spec, &board),
                    &plan,
                    json_parts(&bodies)?,
                    out,
                    &command,
                    streamed,
                )?)
            },
        )
    }

    /// `--reference`: the study without the shard model, into `--out` (a folder holding a
    /// report refused unless `--force`).
    fn run_reference(&self) -> Result<String> {
        match self.study {
            Study::Quantisation => return self.quantisation_reference(),
            Study::Tolerance => return self.tolerance_reference(),
            Study::Pullups => {}
            Study::Heuristic => return self.heuristic_reference(),
        }
        let (spec, board) = self.board_or_nucleo()?;
        let set = self.positions()?;
        let plan = pullups::Plan {
            boards: self.boards.unwrap_or(10),
            seed: self.seed,
        };
        let out = Output::fresh(&self.out, self.force)?;
        Ok(pullups::write_reference(
            &set,
            (&spec, &board),
            &plan,
            &out,
            &self.command_line(),
        )?)
    }

    /// `--reference` for the heuristic study: [`strength::write_reference`].
    fn heuristic_reference(&self) -> Result<String> {
        let h = |p: &switching::Play<'_>| emulator::graphs::heuristic_move(p, Model::Ideal);
        let out = Output::fresh(&self.out, self.force)?;
        Ok(strength::write_reference(
            &self.heuristic_plan(),
            &h,
            (HEURISTIC, &self.command_line()),
            &out,
        )?)
    }

    /// The heuristic study's plan: the full one, `--max-vertices` and `--samples` applied.
    fn heuristic_plan(&self) -> strength::Plan {
        let mut plan = strength::Plan::full(self.seed);
        if let Some(n) = self.max_vertices {
            plan.max_vertices = n as usize;
        }
        if let Some(n) = self.samples {
            plan.samples = n;
        }
        plan
    }

    /// `--reference` for the tolerance study: [`tolerance::write_reference`].
    fn tolerance_reference(&self) -> Result<String> {
        let board = self.board_or_nucleo()?;
        let set = self.positions()?;
        let winner = |p: &heuristic::Position| Some(switching::perfect::winner(p));
        let out = Output::fresh(&self.out, self.force)?;
        Ok(tolerance::write_reference(
            &set,
            board,
            &self.tolerance_plan(),
            Some((PERFECT, &winner)),
            &out,
            &self.command_line(),
        )?)
    }

    /// The tolerance study's bands, boards per band and seed.
    fn tolerance_plan(&self) -> tolerance::Plan {
        tolerance::Plan {
            tolerances_ppm: tolerance::TOLERANCES_PPM.to_vec(),
            boards: self.boards.unwrap_or(200),
            seed: self.seed,
        }
    }

    /// `--reference` for the quantisation study: [`quantisation::reference`], written as
    /// its merge writes it.
    fn quantisation_reference(&self) -> Result<String> {
        let boards: Vec<(String, Board)> = self.named_board()?.into_iter().collect();
        let set = self.positions()?;
        let command = self.command_line();
        let converters = converters(boards, self.seed, &command);
        let bits: Vec<u8> = studies::BITS.collect();
        let out = Output::fresh(&self.out, self.force)?;
        let report = quantisation::reference(
            &set,
            (&converters, self.seed),
            &bits,
            WORST,
            &mut out.csv(POSITIONS_CSV)?,
        )?;
        quantisation_files(&report, &out, &command)
    }

    /// The heuristic study in any mode of the shard model: its shards are the boards (board
    /// i of the plan, families in order, belongs to shard i mod P).
    fn run_heuristic(&self, mode: &Mode) -> Result<String> {
        let plan = self.heuristic_plan();
        let command = self.command_line();
        let h = |p: &switching::Play<'_>| emulator::graphs::heuristic_move(p, Model::Ideal);
        self.sharded(
            mode,
            "boards",
            |id, control, streamed| {
                let mut csv = streamed.map(|out| out.csv("heuristic.csv")).transpose()?;
                let part = strength::write_part(&plan, &h, control, id, csv.as_mut())?;
                Ok((serde_json::to_vec(&part)?, part.finished(&plan)))
            },
            |bodies, out, streamed| {
                Ok(strength::write_report(
                    &plan,
                    (HEURISTIC, &command),
                    json_parts(&bodies)?,
                    out,
                    streamed,
                )?)
            },
        )
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
        format!("birdcage {}", self.argv().join(" "))
    }

    /// The study's arguments, `study` first: what the report depends on (not --out, not
    /// --force), so the spec of its shards and the command of its job script. The heuristic
    /// study takes its own (no board, size or position set).
    fn argv(&self) -> Vec<String> {
        let name = format!("{:?}", self.study).to_lowercase();
        let mut c = vec!["study".to_string(), name];
        let mut add = |flag: &str, value: Option<String>| {
            if let Some(value) = value {
                c.push(flag.into());
                c.push(value);
            }
        };
        if self.study == Study::Heuristic {
            add("--seed", Some(self.seed.to_string()));
            add("--max-vertices", self.max_vertices.map(|n| n.to_string()));
            add("--samples", self.samples.map(|n| n.to_string()));
            return c;
        }
        add("--size", Some(self.size.get().to_string()));
        add("--seed", Some(self.seed.to_string()));
        add("--board", self.board.clone());
        add("--boards", self.boards.map(|n| n.to_string()));
        add("--random-games", self.random_games.map(|n| n.to_string()));
        add(
            "--records",
            self.records.as_ref().map(|p| p.display().to_string()),
        );
        c
    }

    /// The quantisation study in any mode of the shard model: its shards are the decision
    /// positions (the k-th decision of the set belongs to shard k mod P).
    fn run_quantisation(&self, mode: &Mode) -> Result<String> {
        let boards: Vec<(String, Board)> = self.named_board()?.into_iter().collect();
        let set = self.positions()?;
        let command = self.command_line();
        let converters = converters(boards, self.seed, &command);
        let bits: Vec<u8> = studies::BITS.collect();
        let (size, seed) = (self.size, self.seed);
        // The one-process run streams its rows to the CSV as it goes (a kill keeps them);
        // shards keep theirs in their files and the merge writes them.
        self.sharded(
            mode,
            "decisions",
            |id, control, streamed| {
                let mut csv = streamed.map(|out| out.csv(POSITIONS_CSV)).transpose()?;
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
            |bodies, out, streamed| {
                let parts = bodies
                    .iter()
                    .map(|b| quantisation::Part::from_bytes(b, size, WORST))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut csv = match streamed {
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
                quantisation_files(&report, out, &command)
            },
        )
    }

    /// The tolerance study in any mode of the shard model: its shards are the boards drawn
    /// (board b of every band belongs to shard b mod P).
    fn run_tolerance(&self, mode: &Mode) -> Result<String> {
        let board = self.board_or_nucleo()?;
        let set = self.positions()?;
        let plan = self.tolerance_plan();
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
            |bodies, out, _| {
                Ok(tolerance::write_report(
                    &set,
                    board.clone(),
                    &plan,
                    Some(PERFECT),
                    json_parts(&bodies)?,
                    out,
                    &command,
                )?)
            },
        )
    }

    /// Runs a study in `mode`: `run` makes shard K's bytes (and says whether it finished:
    /// Ctrl-C may stop it), given the report folder in the one-process run to stream its
    /// rows into; `merge` writes the report from every shard's bytes into the folder (told
    /// whether the rows were streamed). The one-process run is shard 1/1 merged; a stopped
    /// shard is not stored.
    fn sharded(
        &self,
        mode: &Mode,
        unit: &'static str,
        run: impl FnOnce(shards::ShardId, &Control<'_>, Option<&Output>) -> Result<(Vec<u8>, bool)>,
        merge: impl FnOnce(Vec<Vec<u8>>, &Output, bool) -> Result<String>,
    ) -> Result<String> {
        Output::new(&self.out)?;
        let dir = shard::absolute(&self.out)?;
        let records = match &self.records {
            Some(p) => Some(shards::sha256_hex(
                &std::fs::read(p).with_context(|| format!("reading {}", p.display()))?,
            )),
            None => None,
        };
        // A profile file enters by what it holds, not by its path: shards made before and
        // after an edit of the file are of two specs, and never merge.
        let board = match self.board.as_deref() {
            Some(spec) if spec != "ideal" => Some(shards::sha256_hex(
                format!("{:?}", boards::file::load(spec)?).as_bytes(),
            )),
            _ => None,
        };
        let name = format!("{:?}", self.study).to_lowercase();
        let spec = serde_json::json!({
            "argv": self.argv(),
            "records_sha256": records,
            "board_profile_sha256": board,
        });
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
        // A folder holding a report is refused (or with --force cleared) under the folder's
        // lock, before any work; a shard's folder is not cleared: shards and the report live
        // side by side.
        let whole = *mode == Mode::Whole;
        let outcome = shards::drive(
            &dir,
            &job,
            mode,
            |id| -> Result<Vec<u8>> {
                let streamed = match whole {
                    true => Some(Output::fresh(&dir, self.force)?),
                    false => None,
                };
                let (bytes, complete) = run(id, &control, streamed.as_ref())?;
                if !whole && !complete {
                    bail!("interrupted: shard {id} not stored");
                }
                Ok(bytes)
            },
            |bodies| {
                let out = match whole {
                    true => Output::new(&dir)?,
                    false => Output::fresh(&dir, self.force)?,
                };
                merge(bodies, &out, whole)
            },
        )?;
        let summary = match outcome {
            shards::Outcome::Merged(summary) => summary,
            other => {
                bar.finish("done");
                return Ok(other.text(&job, &dir).unwrap_or_default());
            }
        };
        let written = dir.join("summary.md");
        bar.finish(&format!("report in {}", written.display()));
        if STOP.load(Ordering::SeqCst) {
            bail!("interrupted; what was finished is in {}", written.display());
        }
        Ok(summary)
    }
}

/// The quantisation study's tables, JSON, plots and summary; returns the summary.
fn quantisation_files(
    report: &quantisation::Report,
    out: &Output,
    command: &str,
) -> Result<String> {
    quantisation::write_tables(report, out)?;
    let summary = report.markdown(command);
    Ok(studies::report::finish(
        out,
        "quantisation",
        report,
        summary,
        || quantisation::plots(report, out),
    )?)
}

/// The shards' parts of a study that writes them as JSON, in shard order.
fn json_parts<T: serde::de::DeserializeOwned>(bodies: &[Vec<u8>]) -> Result<Vec<T>> {
    bodies
        .iter()
        .zip(1..)
        .map(|(body, k)| {
            serde_json::from_slice(body)
                .with_context(|| format!("shard {k}/{}: not this study's part", bodies.len()))
        })
        .collect()
}

/// The heuristic the heuristic study plays.
const HEURISTIC: &str = "largest exact drop on the ideal network, ties to the first edge in \
     file order (emulator::graphs::heuristic_move, Model::Ideal)";

/// The solver behind the tolerance study's outcome impact.
const PERFECT: &str = "Lehman's theorem (switching::perfect)";

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
