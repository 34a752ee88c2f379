//! The operator-guided game, for boards without an edge fixture: the bench tells the operator
//! what to do to the cage (the board's own cut, Short's typed or drawn move), waits for Enter,
//! and checks the codes fit the new position before going on, so a wrong move on the cage is
//! caught at once and named by node rather than showing up later as a divergence.
//!
//! Once Enter is pressed the target's cage is told the position ([`Dut::set_cage`]): a
//! real board's cage is the operator's ([`crate::dut::ByHand`]: nothing to do), the virtual
//! board's is wired by its hands (`monitor wire`), SIL's emulated cage does what the operator
//! was told; tests bring a cage of their own to make mistakes on purpose.

use std::io::{BufRead, Write};

use firmware::Outcome;
use firmware::protocol::Command;
use heuristic::{Edge, Move, Position, Record, Side, Size};

use crate::check::Predictor;
use crate::dut::ask::{measure, turn};
use crate::dut::{Dut, DutError};
use crate::report::{Misfit, Report, ReportError};
use crate::run::scenario::{Scenario, Script, game_rng, random_short};

/// One thing the operator is asked to do to the cage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The position on the cage before.
    pub before: Position,
    /// The move to make; `None` to set up the start position.
    pub mv: Option<Move>,
    /// The position the cage should hold after.
    pub after: Position,
}

/// The operator's console: prompts out, answers in (stdin and stdout at the bench, scripted
/// text in tests).
pub struct Console<'a> {
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

impl std::fmt::Debug for Console<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Console").finish_non_exhaustive()
    }
}

/// What the operator answered.
enum Answer {
    Line(String),
    Quit,
}

impl<'a> Console<'a> {
    /// A console reading `input` and writing `output`.
    pub fn new(input: &'a mut dyn BufRead, output: &'a mut dyn Write) -> Console<'a> {
        Console { input, output }
    }

    fn say(&mut self, text: &str) -> Result<(), GuidedError> {
        writeln!(self.output, "{text}")?;
        self.output.flush()?;
        Ok(())
    }

    /// One line from the operator: `q` quits, end of input is an error naming the game.
    fn answer(&mut self, game: usize, moves: &Record) -> Result<Answer, GuidedError> {
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Err(GuidedError::EndOfInput {
                game: game + 1,
                record: moves.to_string(),
            });
        }
        let line = line.trim();
        Ok(if line.eq_ignore_ascii_case("q") {
            Answer::Quit
        } else {
            Answer::Line(line.to_string())
        })
    }
}

/// Why a guided run stopped.
#[derive(Debug, thiserror::Error)]
pub enum GuidedError {
    /// The target failed.
    #[error(transparent)]
    Dut(#[from] DutError),
    /// The report could not be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The console could not be read or written.
    #[error("operator console: {0}")]
    Console(std::io::Error),
    /// The input ended in the middle of a game.
    #[error(
        "end of input in game {game} after `{record}`; the report keeps the finished games, --resume plays the rest"
    )]
    EndOfInput {
        /// 1-based game number.
        game: usize,
        /// The moves made so far.
        record: String,
    },
    /// The operator typed `q`.
    #[error(
        "stopped by the operator in game {game}; the report keeps the finished games, --resume plays the rest"
    )]
    Quit {
        /// 1-based game number.
        game: usize,
    },
}

// By hand, not `#[from]`: the message says the cause, and a `source` would say it twice.
impl From<std::io::Error> for GuidedError {
    fn from(error: std::io::Error) -> GuidedError {
        GuidedError::Console(error)
    }
}

/// Plays every game of the guided `scenario` not yet in `report`, the operator making the
/// moves on the cage; each board decision is a checked step of the report.
pub fn guided(
    target: &mut dyn Dut,
    profile: &'static boards::Profile,
    scenario: &Scenario,
    report: &mut Report,
    console: &mut Console<'_>,
) -> Result<(), GuidedError> {
    let predictor = Predictor::new(profile, scenario.size);
    let total = scenario.games.len();
    for (index, script) in scenario.games.iter().enumerate() {
        if report.done(index).is_some() {
            continue;
        }
        // Short's drawn moves: the guided game's seed (a script of another kind, given here,
        // draws from its index).
        let seed = match script {
            Script::Guided(seed) | Script::Random(seed) => *seed,
            Script::Record(_) | Script::Branch(_) | Script::Mirror => index as u64,
        };
        target.start_game(index);
        let mut game = Game {
            target: &mut *target,
            predictor: &predictor,
            report: &mut *report,
            console: &mut *console,
            index,
            moves: Record::new(Side::Cut),
        };
        game.say(&format!(
            "Game {} of {total} (M={}).",
            index + 1,
            scenario.size.get()
        ))?;
        game.play(scenario.size, seed)?;
        report.end_game(index, 0)?;
    }
    Ok(())
}

/// One game in progress.
struct Game<'g, 'c> {
    target: &'g mut dyn Dut,
    predictor: &'g Predictor,
    report: &'g mut Report,
    console: &'g mut Console<'c>,
    index: usize,
    moves: Record,
}

impl Game<'_, '_> {
    fn say(&mut self, text: &str) -> Result<(), GuidedError> {
        self.console.say(text)
    }

    fn line(&mut self) -> Result<String, GuidedError> {
        match self.console.answer(self.index, &self.moves)? {
            Answer::Line(line) => Ok(line),
            Answer::Quit => Err(GuidedError::Quit {
                game: self.index + 1,
            }),
        }
    }

    fn play(&mut self, size: Size, seed: u64) -> Result<(), GuidedError> {
        let mut rng = game_rng(seed);
        let mut position = Position::new(size, Side::Cut);
        let setup = if size == Size::M3 {
            "Set up the cage: every M=3 edge a resistor, the M=4 cage's top row jumpered to Q \
             (boards/README.md, M=3 on the M=4 cage); then press Enter."
        } else {
            "Set up the cage: every edge a resistor; then press Enter."
        };
        self.say(setup)?;
        self.make(&Task {
            before: position.clone(),
            mv: None,
            after: position.clone(),
        })?;
        loop {
            let mv = if position.winner().is_some() || position.to_move() == Some(Side::Cut) {
                let codes = measure(self.target, self.predictor.profile().adc.samples)?;
                let outcome = turn(self.target, Command::Decide)?;
                let step =
                    self.predictor
                        .check(self.index, &self.moves, &position, &codes, outcome);
                let class = step.class;
                let detail = step.detail.clone();
                self.report.step(&step)?;
                match outcome {
                    Outcome::Move(square) if !class.is_fault() => {
                        let Some(edge) = square.edge(size) else {
                            return Ok(());
                        };
                        self.say(&format!(
                            "The board cuts {edge}: take the resistor at {edge} out, then press Enter."
                        ))?;
                        Move {
                            side: Side::Cut,
                            edge,
                        }
                    }
                    Outcome::GameOver(player) if !class.is_fault() => {
                        self.say(&format!("The board says {player} has won."))?;
                        return Ok(());
                    }
                    other => {
                        self.say(&format!(
                            "The board answers: {other} ({class:?}: {detail}). The game stops here."
                        ))?;
                        return Ok(());
                    }
                }
            } else {
                let edge = self.short(&position, &mut rng)?;
                let mv = Move {
                    side: Side::Short,
                    edge,
                };
                self.say(&format!(
                    "Short plays {mv}: put a wire across the resistor at {edge}, then press Enter."
                ))?;
                mv
            };
            let before = position.clone();
            if position.play(mv).is_err() {
                return Ok(());
            }
            self.make(&Task {
                before,
                mv: Some(mv),
                after: position.clone(),
            })?;
            self.moves
                .push(mv)
                .expect("a legal game never fills a record");
        }
    }

    /// Short's move: typed, or drawn when the operator just presses Enter.
    fn short(
        &mut self,
        position: &Position,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Result<Edge, GuidedError> {
        loop {
            self.say(
                "Short's move: type the edge to short (e.g. c5), or press Enter for a random one (q quits).",
            )?;
            let line = self.line()?;
            if line.is_empty() {
                match random_short(rng, position) {
                    Some(edge) => return Ok(edge),
                    None => {
                        self.say("No resistor is left to short.")?;
                        continue;
                    }
                }
            }
            let checked = Edge::parse(position.size(), &line)
                .map_err(|e| e.to_string())
                .and_then(|edge| {
                    position
                        .check(Move {
                            side: Side::Short,
                            edge,
                        })
                        .map(|()| edge)
                        .map_err(|e| e.to_string())
                });
            match checked {
                Ok(edge) => return Ok(edge),
                Err(e) => self.say(&format!("{e}."))?,
            }
        }
    }

    /// Waits for the operator to do `task`, then checks the codes fit the position, as long
    /// as it takes.
    fn make(&mut self, task: &Task) -> Result<(), GuidedError> {
        loop {
            self.line()?;
            self.target.set_cage(&task.after)?;
            if task.mv.is_none() {
                // A new game: the board reads its size off the cage (M=3 jumpered on M=4).
                let size = task.after.size().get();
                match turn(self.target, Command::NewGame)? {
                    Outcome::NewGame { size: m } if m == size => {}
                    other => {
                        self.say(&format!(
                            "The board answers `{other}` instead of a new game on M={size}. \
                             Fix the cage and press Enter (q quits)."
                        ))?;
                        continue;
                    }
                }
            }
            let codes = measure(self.target, self.predictor.profile().adc.samples)?;
            let fit = self.predictor.fit(&task.after, &codes);
            if fit.in_band() {
                return Ok(());
            }
            let what = match task.mv {
                Some(mv) => format!("the position after {mv}"),
                None => "the start position".to_string(),
            };
            let why = if fit.measured != fit.predicted.len() {
                format!(
                    "the board measured {} nodes, the position has {}",
                    fit.measured,
                    fit.predicted.len()
                )
            } else {
                let off: Vec<String> = fit.off.iter().map(ToString::to_string).collect();
                format!("{} (band ±{})", off.join("; "), fit.band)
            };
            let mut moves = self.moves.clone();
            if let Some(mv) = task.mv {
                moves.push(mv).expect("a legal game never fills a record");
            }
            self.report.misfit(Misfit {
                game: self.index,
                record: moves.to_string(),
                codes,
                why: why.clone(),
            })?;
            self.say(&format!(
                "The codes do not fit {what}: {why}. Fix the cage and press Enter (q quits)."
            ))?;
        }
    }
}
