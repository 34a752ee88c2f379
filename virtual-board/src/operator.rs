//! A visitor at Shannon's machine, with no bench protocol at all: on a cage without fixture the
//! operator presses the button (through IDR, for long enough that the firmware's debouncer
//! sees a real press), reads the machine's move off the lit row and column LEDs (from ODR),
//! makes that cut and Short's reply on the cage by hand, and presses again, until the machine
//! lights a result.

use firmware::LedPattern;
use heuristic::{Edge, Move, Record, Side, Size};

use crate::cpu::{Core, Ran};
use crate::elf::Elf;
use crate::stop::Stop;

/// Core cycles per millisecond at the board binary's 84 MHz.
const PER_MS: u64 = 84_000;
/// How long a press is held, and how long the operator waits after letting go: far longer
/// than the firmware's debouncing (a few 1 ms samples).
const PRESS_MS: u64 = 30;
/// The longest wait for the LEDs after power-on or a press: the board binary needs about
/// 170 ms to start (the game-over thresholds are solved on the chip) and less for a move.
const WAIT_MS: u64 = 3_000;
/// The most presses a game can take (an M=4 game has at most 25 moves).
const MAX_PRESSES: usize = 40;

/// How a game by hand ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandGame {
    /// The moves made on the cage.
    pub moves: Vec<Move>,
    /// What the LEDs showed at the end: the winner, if they showed one.
    pub winner: Option<Side>,
}

impl HandGame {
    /// The record (`A7,c5,...`).
    pub fn record(&self) -> String {
        Record::from_moves(Side::Cut, &self.moves)
            .map(|r| r.to_string())
            .unwrap_or_default()
    }
}

fn run_ms(core: &mut Core<'_>, elf: &Elf, ms: u64) -> Result<(), Stop> {
    let end = core.state().board.cycles + ms * PER_MS;
    while core.state().board.cycles < end {
        match core.run(end - core.state().board.cycles, elf)? {
            Ran::Slice | Ran::Reset => {}
            Ran::Sleeps => {
                return Err(Stop::Cpu {
                    what: "the core sleeps (WFI) and no interrupt is modelled".into(),
                    place: crate::stop::Place {
                        pc: core.pc(),
                        symbol: None,
                    },
                });
            }
        }
    }
    Ok(())
}

/// Runs until the LEDs light (what a visitor waits for), for at most [`WAIT_MS`].
fn wait_for_leds(core: &mut Core<'_>, elf: &Elf) -> Result<LedPattern, Stop> {
    for _ in 0..WAIT_MS {
        let shown = core.state().board.leds();
        if shown != LedPattern::OFF {
            return Ok(shown);
        }
        run_ms(core, elf, 1)?;
    }
    Ok(core.state().board.leds())
}

fn press(core: &mut Core<'_>, elf: &Elf) -> Result<LedPattern, Stop> {
    core.state_mut().board.press(true);
    run_ms(core, elf, PRESS_MS)?;
    core.state_mut().board.press(false);
    run_ms(core, elf, PRESS_MS)?;
    wait_for_leds(core, elf)
}

/// The edge whose row and column alone are lit, if that is what `pattern` shows.
fn shown_edge(pattern: LedPattern, size: Size) -> Option<Edge> {
    size.edges().find(|&e| LedPattern::edge(e) == pattern)
}

/// Plays one game from power-on: the machine's moves as its LEDs show them, Short's from
/// `short`.
pub fn play(
    core: &mut Core<'_>,
    elf: &Elf,
    mut short: impl FnMut(&heuristic::Position) -> Option<Edge>,
) -> Result<HandGame, Stop> {
    // Power-on: the firmware reads the cage's size, lights every LED and waits for a press.
    if wait_for_leds(core, elf)? != LedPattern::NEW_GAME {
        return Ok(HandGame {
            moves: Vec::new(),
            winner: None,
        });
    }
    let size = core.state().board.cage().position().size();
    let mut game = HandGame {
        moves: Vec::new(),
        winner: None,
    };
    for _ in 0..MAX_PRESSES {
        let shown = press(core, elf)?;
        if shown == LedPattern::CUT_WON || shown == LedPattern::SHORT_WON {
            game.winner = Some(if shown == LedPattern::CUT_WON {
                Side::Cut
            } else {
                Side::Short
            });
            return Ok(game);
        }
        let Some(edge) = shown_edge(shown, size) else {
            // A fault pattern, or nothing lit: the game ends without a verdict.
            return Ok(game);
        };
        let cage = core.state().board.cage().clone();
        let cut = Move {
            side: Side::Cut,
            edge,
        };
        if cage.play(cut).is_err() {
            return Ok(game);
        }
        game.moves.push(cut);
        let now = cage.position();
        if now.winner().is_none()
            && let Some(edge) = short(&now)
        {
            let mv = Move {
                side: Side::Short,
                edge,
            };
            if cage.play(mv).is_ok() {
                game.moves.push(mv);
            }
        }
    }
    Ok(game)
}
