//! The in-process board (SIL): the firmware's hardware traits implemented over the physical
//! network, so that the real [`firmware::App`] runs against an emulated cage.
//!
//! The cage is the M=4 board of a profile, with parts nominal or drawn from a seed and one ADC
//! device; an M=3 game sits on it as the firmware expects (its own edges, jumpers from row 6 to
//! Q, the rest cut: [`boards::cage_states`]). Moves are made by whoever holds the
//! [`EmulatedCage`]: the machine's cut (which a person makes by hand on the real board) and the
//! opponent's short. The sampler solves the cage as it stands, with the pull-ups as the
//! firmware set them, and reads each node through the ADC with noise.

use std::cell::RefCell;
use std::convert::Infallible;
use std::rc::Rc;

pub use boards::CageSizeError;
use boards::Profile;
use firmware::{App, Config, Hardware, LedPattern, Leds, NoFixture, Sampler};
pub use firmware::{NoDelay, Unpressed};
use heuristic::{Move, MoveError, Node, Position, Record, Side, Size};
use rand_chacha::ChaCha8Rng;

use crate::physical::{Board, Build, Parts, PullupState, Solution, solve_on_cage};
use crate::truth::Truth;

mod defect;
pub use defect::{Defect, DefectError};

/// The cage every profile wires: M=4.
pub const CAGE: Size = Size::M4;
/// An open resistor: a leak of a gigaohm, which no ADC sees (a true open would leave the
/// network's matrix singular where the part was a node's only connection).
const OPEN_OHMS: f64 = 1e9;

#[derive(Debug)]
struct Inner {
    board: Board,
    build: Build,
    noise: ChaCha8Rng,
    game: Position,
    pullups: PullupState,
    /// The solved cage for the current position and pull-ups, until either changes.
    solved: Option<Solution>,
    leds: LedPattern,
    conversions: u64,
    /// The faults injected, in order.
    faults: Vec<Defect>,
    /// The build's parts with the faults made.
    parts: Parts,
}

impl Inner {
    /// The voltage of `node` in the solved cage; `None` where it is undefined, or where f64
    /// cannot solve the network (values far outside [`boards::bounds`]).
    fn volts(&mut self, node: Node) -> Option<f64> {
        if self.solved.is_none() {
            let cage = Defect::on_cage(&self.faults, &self.game);
            self.solved = solve_on_cage(&self.board, &self.parts, &cage, self.pullups).ok();
        }
        self.solved.as_ref()?.volts(node)
    }
}

/// Solves the emulated board's cage (M=4, built from `parts`, which fit [`CAGE`]) holding
/// `game`, as [`Build::solve`] does: public so that a calibration can try other part values;
/// read the result with the game's nodes.
///
/// ```
/// use emulator::emulated::{CAGE, solve_game};
/// use emulator::physical::{Board, Parts, PullupState};
/// use heuristic::{Node, Position, Side, Size};
/// let board = Board::from_profile(&boards::NUCLEO_F446RE);
/// let parts = Parts::nominal(&board, CAGE);
/// let game = Position::new(Size::M3, Side::Cut);
/// let v = solve_game(&board, &parts, &game, PullupState::On).unwrap();
/// assert!(v.volts(Node::Bottom).unwrap() > 0.5 * board.supply_volts);
/// ```
pub fn solve_game(
    board: &Board,
    parts: &Parts,
    game: &Position,
    pullups: PullupState,
) -> Result<Solution, CageSizeError> {
    if !matches!(game.size().get(), 3 | 4) || parts.size != CAGE {
        return Err(CageSizeError(game.size()));
    }
    solve_on_cage(board, parts, game, pullups).map_err(|_| CageSizeError(game.size()))
}

/// A game on an emulated board, shared by the firmware's hardware handles and the caller who
/// plays the moves.
#[derive(Clone, Debug)]
pub struct EmulatedCage {
    inner: Rc<RefCell<Inner>>,
}

impl EmulatedCage {
    /// A new game of `size` on `profile`'s board, built by [`Build::draw`] from `seed` (the
    /// same build `analyze --board P --tolerance-seed S` and the studies read): nominal parts
    /// and a perfect ADC without a seed.
    pub fn new(profile: &Profile, size: Size, seed: Option<u64>) -> Result<Self, CageSizeError> {
        if !matches!(size.get(), 3 | 4) {
            return Err(CageSizeError(size));
        }
        let board = Board::from_profile(profile);
        let build = Build::draw(&board, size, seed);
        Ok(EmulatedCage {
            inner: Rc::new(RefCell::new(Inner {
                board,
                noise: build.noise(),
                parts: build.parts.clone(),
                build,
                game: Position::new(size, Side::Cut),
                pullups: PullupState::On,
                solved: None,
                leds: LedPattern::OFF,
                conversions: 0,
                faults: Vec::new(),
            })),
        })
    }

    /// Starts game `game`'s stream of ADC noise (the build's noise, stream `game`): each game
    /// of a seeded run reads its own, so that a run resumed at a game reads what the
    /// uninterrupted run read there.
    pub fn start_game(&self, game: u64) {
        let mut inner = self.inner.borrow_mut();
        let mut noise = inner.build.noise();
        noise.set_stream(game);
        inner.noise = noise;
    }

    /// Makes `mv` on the cage (cuts a resistor out or wires it over).
    pub fn play(&self, mv: Move) -> Result<(), MoveError> {
        let mut inner = self.inner.borrow_mut();
        inner.game.play(mv)?;
        inner.solved = None;
        Ok(())
    }

    /// Rewires the cage to `position` (same size), whatever the rules say: what a person
    /// who forgot a cut, or wired the wrong edge, leaves on the board.
    pub fn wire(&self, position: Position) {
        let mut inner = self.inner.borrow_mut();
        debug_assert_eq!(position.size(), inner.game.size());
        inner.game = position;
        inner.solved = None;
    }

    /// Injects `fault`, on top of any injected before; refused when its place is not on the
    /// game's board.
    pub fn inject(&self, fault: Defect) -> Result<(), DefectError> {
        let mut inner = self.inner.borrow_mut();
        fault.check(inner.game.size())?;
        let inner = &mut *inner;
        fault.apply(&inner.board, &mut inner.parts);
        inner.faults.push(fault);
        inner.solved = None;
        Ok(())
    }

    /// Takes every fault out and restarts the converter's noise: the board reads as a fresh
    /// one of the same build, so that runs one after another on it do not depend on order.
    pub fn repair(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.faults.clear();
        inner.parts = inner.build.parts.clone();
        inner.noise = inner.build.noise();
        inner.solved = None;
    }

    /// The faults injected.
    pub fn faults(&self) -> Vec<Defect> {
        self.inner.borrow().faults.clone()
    }

    /// The board's electrical values.
    pub fn board(&self) -> Board {
        self.inner.borrow().board.clone()
    }

    /// The parts this board was built from (the drawn values, faults included): what a
    /// calibration should find.
    pub fn parts(&self) -> Parts {
        self.inner.borrow().parts.clone()
    }

    /// The game as the cage holds it.
    pub fn position(&self) -> Position {
        self.inner.borrow().game.clone()
    }

    /// What the LEDs show.
    pub fn leds(&self) -> LedPattern {
        self.inner.borrow().leds
    }

    /// ADC conversions made so far.
    pub fn conversions(&self) -> u64 {
        self.inner.borrow().conversions
    }

    /// The firmware's hardware over this cage: sampler, LEDs, a button nobody presses (call
    /// [`App::on_button`]), delays that take no time, no fixture.
    pub fn hardware(&self) -> Hardware<CageSampler, CageLeds, Unpressed, NoDelay, NoFixture> {
        Hardware {
            sampler: CageSampler(self.clone()),
            leds: CageLeds(self.clone()),
            button: firmware::Button::new(
                Unpressed,
                boards::Level::Low,
                firmware::Debouncer::new(1),
            ),
            delay: NoDelay,
            fixture: NoFixture,
        }
    }

    /// The firmware application on this cage, with `config`.
    pub fn app(&self, profile: &'static Profile, config: Config) -> EmulatedApp {
        App::new(profile, self.hardware(), config)
    }
}

/// The firmware application running on an [`EmulatedCage`].
pub type EmulatedApp = App<CageSampler, CageLeds, Unpressed, NoDelay, NoFixture>;

/// The ADC and pull-up switch of an emulated cage.
#[derive(Debug)]
pub struct CageSampler(EmulatedCage);

impl Sampler for CageSampler {
    type Error = Infallible;

    fn set_pullups(&mut self, on: bool) -> Result<(), Infallible> {
        let mut inner = self.0.inner.borrow_mut();
        let state = if on {
            PullupState::On
        } else {
            PullupState::Released
        };
        if inner.pullups != state {
            inner.pullups = state;
            inner.solved = None;
        }
        Ok(())
    }

    fn read(&mut self, node: Node) -> Result<u16, Infallible> {
        let mut inner = self.0.inner.borrow_mut();
        // The last fault injected on a channel is the one it shows.
        let stuck = inner.faults.iter().rev().find_map(|f| match *f {
            Defect::Stuck(n, code) if n == node => Some(code),
            _ => None,
        });
        if let Some(code) = stuck {
            inner.conversions += 1;
            return Ok(code);
        }
        // An undefined node (cut off, pull-ups released) reads whatever charge its input holds;
        // take 0, a discharged sampling capacitor.
        let volts = inner.volts(node).unwrap_or(0.0);
        let inner = &mut *inner;
        inner.conversions += 1;
        // One conversion: the firmware averages as many as the profile says.
        Ok(inner.build.adc.convert(volts, &mut inner.noise))
    }
}

/// The LEDs of an emulated cage.
#[derive(Debug)]
pub struct CageLeds(EmulatedCage);

impl Leds for CageLeds {
    type Error = Infallible;

    fn show(&mut self, pattern: LedPattern) -> Result<(), Infallible> {
        self.0.inner.borrow_mut().leds = pattern;
        Ok(())
    }
}

/// One of the machine's moves, judged against the exact ideal network.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The position the machine measured.
    pub position: Position,
    /// The edge it chose.
    pub chosen: heuristic::Edge,
    /// The ideal network's tied best edges there.
    pub tied: Vec<heuristic::Edge>,
    /// The ideal margin between the best drop and the runner-up, as a fraction of the
    /// supply ([`Truth::margin`]; `None` without a runner-up): how much the board could blur.
    pub margin: Option<f64>,
}

impl Turn {
    /// Whether the machine's choice is outside the ideal tied set.
    pub fn diverges(&self) -> bool {
        crate::verdict::diverges(&self.tied, self.chosen)
    }
}

/// Why an emulated game stopped early.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SilError {
    /// The firmware refused to move (its error pattern).
    #[error("the firmware faulted after {record}: {fault}")]
    Fault {
        /// The game so far.
        record: String,
        /// What it reported.
        fault: firmware::Fault,
    },
    /// The firmware chose an edge that is not a resistor, or moved out of turn.
    #[error("the firmware played {square} after {record}, which is not a legal cut")]
    Illegal {
        /// The game so far.
        record: String,
        /// What it chose.
        square: firmware::Square,
    },
    /// A game the firmware cannot be replayed through.
    #[error("cannot replay the firmware through {record}: {reason}")]
    Replay {
        /// The game so far.
        record: String,
        /// Why.
        reason: ReplayError,
    },
    /// The firmware's game-over verdict is not the position's.
    #[error("after {record} the firmware says {said}, the position says {truth:?}")]
    Verdict {
        /// The game so far.
        record: String,
        /// The firmware's outcome.
        said: firmware::Outcome,
        /// The real winner, if any.
        truth: Option<Side>,
    },
}

/// Why a game cannot be replayed through the firmware.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The emulated board does not wire the game's size.
    #[error(transparent)]
    Cage(#[from] CageSizeError),
    /// The firmware answered a press with something other than a move or a verdict.
    #[error("the firmware answered `{0}`")]
    Answered(firmware::Outcome),
    /// The record gives Cut a move the firmware would not make.
    #[error("the firmware plays Cut, and would not have played {0}")]
    NotItsMove(Move),
    /// The record's move is refused by the rules.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A whole game of the firmware against an opponent on an emulated cage.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLog {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Each of the machine's moves with the ideal verdict.
    pub turns: Vec<Turn>,
    /// The winner, or why the game stopped.
    pub result: Result<Side, SilError>,
}

impl GameLog {
    /// The game record (`A7,c5,...`).
    pub fn record(&self) -> String {
        Record::from_moves(Side::Cut, &self.moves)
            .expect("a legal game never fills a record")
            .to_string()
    }
}

/// Plays a whole game: the firmware (Cut) moves on each press, the cut is made on the cage,
/// then `opponent` picks Short's edge for the position. Stops at the firmware's game-over
/// verdict (checked against the position) or at the first fault.
pub fn run_game(
    cage: &EmulatedCage,
    app: &mut EmulatedApp,
    mut opponent: impl FnMut(&Position) -> heuristic::Edge,
) -> GameLog {
    let mut log = GameLog {
        moves: Vec::new(),
        turns: Vec::new(),
        result: Ok(Side::Cut),
    };
    let size = cage.position().size();
    let stop = |log: &mut GameLog, e: SilError| log.result = Err(e);
    match app.start() {
        firmware::Outcome::NewGame { size: m } if m == size.get() => {}
        said => {
            let truth = cage.position().winner();
            stop(
                &mut log,
                SilError::Verdict {
                    record: String::new(),
                    said,
                    truth,
                },
            );
            return log;
        }
    }
    loop {
        let before = cage.position();
        let record = log.record();
        match app.on_button() {
            firmware::Outcome::Move(square) => {
                let Some(edge) = square.edge(size).filter(|e| {
                    before.winner().is_none() && before.state(*e) == heuristic::EdgeState::Resistor
                }) else {
                    stop(&mut log, SilError::Illegal { record, square });
                    return log;
                };
                log.turns.push(judge(&before, edge));
                let cut = Move {
                    side: Side::Cut,
                    edge,
                };
                // A legal cut (checked above) on the cage's own position.
                let _ = cage.play(cut);
                log.moves.push(cut);
                let now = cage.position();
                if now.winner().is_none() {
                    let short = Move {
                        side: Side::Short,
                        edge: opponent(&now),
                    };
                    if cage.play(short).is_ok() {
                        log.moves.push(short);
                    }
                }
            }
            firmware::Outcome::GameOver(said) => {
                if before.winner() == Some(said) {
                    log.result = Ok(said);
                } else {
                    let outcome = firmware::Outcome::GameOver(said);
                    let truth = before.winner();
                    stop(
                        &mut log,
                        SilError::Verdict {
                            record,
                            said: outcome,
                            truth,
                        },
                    );
                }
                return log;
            }
            firmware::Outcome::Fault(fault) => {
                stop(&mut log, SilError::Fault { record, fault });
                return log;
            }
            said => {
                let truth = before.winner();
                stop(
                    &mut log,
                    SilError::Verdict {
                        record,
                        said,
                        truth,
                    },
                );
                return log;
            }
        }
    }
}

fn judge(position: &Position, chosen: heuristic::Edge) -> Turn {
    let truth = Truth::of(position);
    Turn {
        position: position.clone(),
        chosen,
        tied: truth
            .as_ref()
            .map(|t| t.tied_edges(position.size()))
            .unwrap_or_default(),
        margin: truth.as_ref().and_then(Truth::margin),
    }
}

/// The firmware's next move in a game given by its moves so far (Cut first, the firmware
/// playing Cut): a fresh cage and application replay the game press by press, then one more
/// press gives the move. A function of the moves alone, so callers can undo freely; the same
/// `seed` gives the same board and the same replies. `Ok(None)` once the game is over.
pub fn firmware_reply(
    profile: &'static Profile,
    seed: Option<u64>,
    size: Size,
    moves: &[Move],
) -> Result<Option<heuristic::Edge>, SilError> {
    let cage = EmulatedCage::new(profile, size, seed).map_err(|e| SilError::Replay {
        record: String::new(),
        reason: e.into(),
    })?;
    let mut app = cage.app(profile, Config::default());
    app.start();
    let mut record = Record::new(Side::Cut);
    let press =
        |app: &mut EmulatedApp, record: &Record| -> Result<Option<heuristic::Edge>, SilError> {
            let record = record.to_string();
            match app.on_button() {
                firmware::Outcome::Move(square) => square
                    .edge(size)
                    .map(Some)
                    .ok_or(SilError::Illegal { record, square }),
                firmware::Outcome::GameOver(_) => Ok(None),
                firmware::Outcome::Fault(fault) => Err(SilError::Fault { record, fault }),
                other => Err(SilError::Replay {
                    record,
                    reason: ReplayError::Answered(other),
                }),
            }
        };
    for mv in moves {
        if mv.side == Side::Cut {
            let chosen = press(&mut app, &record)?;
            if chosen != Some(mv.edge) {
                return Err(SilError::Replay {
                    record: record.to_string(),
                    reason: ReplayError::NotItsMove(*mv),
                });
            }
        }
        cage.play(*mv).map_err(|e| SilError::Replay {
            record: record.to_string(),
            reason: e.into(),
        })?;
        // The cage took the move, so the game is legal and fits.
        let _ = record.push(*mv);
    }
    if cage.position().winner().is_some() || cage.position().to_move() != Some(Side::Cut) {
        return Ok(None);
    }
    press(&mut app, &record)
}
