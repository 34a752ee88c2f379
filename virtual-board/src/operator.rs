//! A simulated visitor at Shannon's machine (`virtual-board visit`), with no bench protocol at
//! all: on a cage without fixture the operator presses the button (through IDR, for long
//! enough that the firmware's debouncer sees a real press), reads the machine's move off the
//! lit row and column LEDs (from ODR), makes that cut and Short's reply on the cage by hand,
//! and presses again, until the machine lights a result. The pieces (the press, the LEDs read,
//! what to check) are also those of the game a person plays ([`crate::person`]).

use firmware::LedPattern;
use heuristic::{Edge, Move, Record, Side, Size};

use crate::clock::PER_MS;
use crate::cpu::{Core, Ran};
use crate::elf::Elf;
use crate::stop::Stop;

/// How long a press is held, and how long the operator waits after letting go: far longer
/// than the firmware's debouncing (a few 1 ms samples).
pub(crate) const PRESS_MS: u64 = 30;
/// The longest wait for the LEDs after power-on or a press: the board binary needs about
/// 170 ms to start (the game-over thresholds are solved on the chip) and less for a move.
const WAIT_MS: u64 = 3_000;
/// The most presses a game can take (an M=4 game has at most 25 moves).
const MAX_PRESSES: usize = 40;
/// Presses a visitor makes again when nothing happened, before giving up.
const UNANSWERED_PRESSES: usize = 2;
/// The firmware's button handler (`App::on_button`, demangled): entered, it took the press.
pub(crate) const BUTTON_HANDLER: &str = "firmware::app::App<S,L,P,D,F>::on_button";

/// One press the visitor made, as the board saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The firmware took it (ran [`BUTTON_HANDLER`]), then the LEDs showed this, changed or
    /// not.
    Taken(LedPattern),
    /// The handler did not run and the LEDs stayed as they were: the visitor presses again.
    Missed,
    /// The handler did not run, yet the LEDs changed to this: the visitor reads them.
    Untaken(LedPattern),
}

/// How a game by hand ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandGame {
    /// The moves made on the cage.
    pub moves: Vec<Move>,
    /// What the LEDs showed at the end: the winner, if they showed one.
    pub winner: Option<Side>,
    /// Without a winner: what the visitor saw, and what to check on a real board.
    pub trouble: Option<String>,
    /// What the LEDs showed after each press acted on, in order (the visitor's view of the
    /// game, which a glitch trial compares press by press with the intact game's).
    pub shown: Vec<LedPattern>,
    /// Every press made, the missed ones too, in order.
    pub presses: Vec<Answer>,
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
            Ran::Slice | Ran::Reset(_) => {}
            ran @ (Ran::Sleeps | Ran::Breakpoint | Ran::Watched(_)) => {
                return Err(Stop::Cpu {
                    what: if ran == Ran::Sleeps {
                        "the core sleeps (WFI) and no interrupt is modelled".into()
                    } else {
                        "the core reached a bkpt, and no debugger is attached".into()
                    },
                    place: crate::stop::Place {
                        pc: core.pc(),
                        symbol: None,
                        exact: true,
                    },
                });
            }
        }
    }
    Ok(())
}

/// Runs until the LEDs light (what a visitor waits for), for at most [`WAIT_MS`].
pub(crate) fn wait_for_leds(core: &mut Core<'_>, elf: &Elf) -> Result<LedPattern, Stop> {
    for _ in 0..WAIT_MS {
        let shown = core.state().board.leds();
        if shown != LedPattern::OFF {
            return Ok(shown);
        }
        run_ms(core, elf, 1)?;
    }
    Ok(core.state().board.leds())
}

pub(crate) fn press(core: &mut Core<'_>, elf: &Elf) -> Result<LedPattern, Stop> {
    core.state_mut().board.press(true);
    run_ms(core, elf, PRESS_MS)?;
    core.state_mut().board.press(false);
    run_ms(core, elf, PRESS_MS)?;
    wait_for_leds(core, elf)
}

/// One press, after LEDs showing `before`: taken when the firmware's button handler ran
/// during it (the block hook counts its entries; an ELF without the handler's symbol: when
/// the LEDs changed), recorded in `game`.
fn press_once(
    core: &mut Core<'_>,
    elf: &Elf,
    before: LedPattern,
    game: &mut HandGame,
) -> Result<Answer, Stop> {
    let entered = core.state().entered;
    let shown = press(core, elf)?;
    let taken = match core.state().entry {
        Some(_) => core.state().entered > entered,
        None => shown != before,
    };
    let answer = match (taken, shown == before) {
        (true, _) => Answer::Taken(shown),
        (false, true) => Answer::Missed,
        (false, false) => Answer::Untaken(shown),
    };
    game.presses.push(answer);
    Ok(answer)
}

/// The edge whose row and column alone are lit, if that is what `pattern` shows.
pub(crate) fn shown_edge(pattern: LedPattern, size: Size) -> Option<Edge> {
    size.edges().find(|&e| LedPattern::edge(e) == pattern)
}

/// What a person should check when the LEDs show `shown` where `expected` (or, with `OFF`,
/// a move) was due: the LEDs that stay dark, or the machine's fault pattern.
pub(crate) fn diagnose(shown: LedPattern, expected: LedPattern, core: &Core<'_>) -> String {
    let (rows, columns) = core.state().board.led_pins();
    let name = |pin: boards::Pin| crate::chip::pin_name(pin);
    if shown == LedPattern::FAULT {
        return "it shows its fault pattern (rows 1, 3, 5, 7 and columns A, C, E, G): its \
                self-check failed; read its log (below) for the node that read wrong, and check \
                that node's wire to its ADC pin"
            .to_string();
    }
    let mut dark = Vec::new();
    for (i, &pin) in rows.iter().enumerate() {
        if expected.row(i as u8 + 1) && !shown.row(i as u8 + 1) {
            dark.push(format!("row {} ({})", i + 1, name(pin)));
        }
    }
    for (i, &pin) in columns.iter().enumerate() {
        if expected.column(i as u8 + 1) && !shown.column(i as u8 + 1) {
            dark.push(format!(
                "column {} ({})",
                (b'A' + i as u8) as char,
                name(pin)
            ));
        }
    }
    if !dark.is_empty() {
        return format!(
            "these stay dark: {}; check each LED, its series resistor and its wire",
            dark.join(", ")
        );
    }
    match (shown.rows.count_ones(), shown.columns.count_ones()) {
        (0, 0) => "nothing is lit: check the LEDs' common return and the board's power".into(),
        (0, _) => format!(
            "only a column is lit: check the row LEDs ({}) and their resistors",
            rows.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", ")
        ),
        (_, 0) => format!(
            "only a row is lit: check the column LEDs ({}) and their resistors",
            columns
                .iter()
                .map(|&p| name(p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!(
            "it shows rows {:#09b} and columns {:#09b}",
            shown.rows, shown.columns
        ),
    }
}

/// Plays one game from power-on: the machine's moves as its LEDs show them, Short's from
/// `short`; `before_press(core, elf, k)` runs as the visitor reaches for the button for press
/// `k` (from 1; a glitch trial's upset of the state the machine keeps between presses).
pub fn visit(
    core: &mut Core<'_>,
    elf: &Elf,
    short: impl FnMut(&heuristic::Position) -> Option<Edge>,
    before_press: impl FnMut(&mut Core<'_>, &Elf, usize),
) -> Result<HandGame, Stop> {
    let mut game = HandGame::default();
    visit_into(core, elf, short, before_press, &mut game)?;
    Ok(game)
}

/// [`visit`], into `game`: what the visitor saw so far is kept when the core stops.
pub fn visit_into(
    core: &mut Core<'_>,
    elf: &Elf,
    mut short: impl FnMut(&heuristic::Position) -> Option<Edge>,
    mut before_press: impl FnMut(&mut Core<'_>, &Elf, usize),
    game: &mut HandGame,
) -> Result<(), Stop> {
    // Power-on: the firmware reads the cage's size, lights every LED and waits for a press.
    let shown = wait_for_leds(core, elf)?;
    if shown != LedPattern::NEW_GAME {
        game.trouble = Some(format!(
            "at power-on the machine should light every LED; {}",
            diagnose(shown, LedPattern::NEW_GAME, core)
        ));
        return Ok(());
    }
    let size = core.state().board.cage().position().size();
    core.state_mut().entry = elf.function(BUTTON_HANDLER);
    let mut before = shown;
    for k in 1..=MAX_PRESSES {
        before_press(core, elf, k);
        let mut answer = press_once(core, elf, before, game)?;
        // Nothing happened (the handler did not run, the LEDs as they were): a visitor presses
        // again. A press the machine took is never made again, whatever it lit: a cut shown
        // again is its move.
        for _ in 0..UNANSWERED_PRESSES {
            if answer != Answer::Missed {
                break;
            }
            answer = press_once(core, elf, before, game)?;
        }
        let (Answer::Taken(shown) | Answer::Untaken(shown)) = answer else {
            game.trouble = Some(format!(
                "the machine did not answer {} presses: its LEDs stayed as they were",
                UNANSWERED_PRESSES + 1
            ));
            return Ok(());
        };
        before = shown;
        game.shown.push(shown);
        if shown == LedPattern::CUT_WON || shown == LedPattern::SHORT_WON {
            game.winner = Some(if shown == LedPattern::CUT_WON {
                Side::Cut
            } else {
                Side::Short
            });
            return Ok(());
        }
        let Some(edge) = shown_edge(shown, size) else {
            game.trouble = Some(format!(
                "after {} the machine should light one row and one column; {}",
                if game.moves.is_empty() {
                    "the first press".to_string()
                } else {
                    game.record()
                },
                diagnose(shown, LedPattern::OFF, core)
            ));
            return Ok(());
        };
        let cage = core.state().board.cage().clone();
        let cut = Move {
            side: Side::Cut,
            edge,
        };
        if let Err(e) = cage.play(cut) {
            game.trouble = Some(format!("the machine lit {edge}, which cannot be cut: {e}"));
            return Ok(());
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
    Ok(())
}
