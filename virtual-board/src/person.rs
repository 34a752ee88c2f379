//! `virtual-board play`: the game a visitor played at Shannon's machine, with the person at
//! the terminal as the visitor, in front of the real board binary. The LEDs show the
//! machine's move (one row and one column lit); the machine's cut is made on the cage as they
//! show it, the person names their own Short move (made on the cage by hand), presses the
//! button, and the game ends when the firmware lights its verdict. Line by line on stdin, so
//! a script can play it as a person does.

use std::io::{BufRead, Write};

use firmware::LedPattern;
use heuristic::{Edge, Move, Record, Side, Size};

use crate::cpu::Core;
use crate::elf::Elf;
use crate::operator::{diagnose, press, shown_edge, wait_for_leds};
use crate::stop::Stop;

/// How a person's game ended.
pub enum Ended {
    /// The firmware lit its verdict.
    Verdict(Side),
    /// The person quit (`quit`, or the end of stdin).
    Quit,
    /// The LEDs showed neither a move nor a verdict: what the person saw and what to check.
    Trouble(String),
}

/// What the person may type.
const HELP: &str = "Type a Short move such as c5 (it is made on the cage), then press the \
                    button: an empty line or `press`. `quit` ends the game.";

/// The row and column LEDs, lit `*` and dark `.`, `lines` of each.
fn draw(out: &mut impl Write, shown: LedPattern, lines: u8) -> std::io::Result<()> {
    let lit = |on: bool| if on { '*' } else { '.' };
    let columns: String = (1..=lines)
        .map(|x| format!(" {}", lit(shown.column(x))))
        .collect();
    let names: String = (1..=lines)
        .map(|x| format!(" {}", heuristic::column_letter(x)))
        .collect();
    let rows: String = (1..=lines)
        .map(|y| format!(" {}", lit(shown.row(y))))
        .collect();
    let numbers: String = (1..=lines).map(|y| format!(" {y}")).collect();
    writeln!(out, "LEDs  columns{names}")?;
    writeln!(out, "             {columns}")?;
    writeln!(out, "      rows   {numbers}")?;
    writeln!(out, "             {rows}")
}

/// Plays one game from power-on with the person on `input` and `out` (`prompt`: a `> `
/// before each line read, for a terminal).
pub fn play(
    core: &mut Core<'_>,
    elf: &Elf,
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: bool,
) -> Result<(Ended, Vec<Move>), Stop> {
    let mut moves: Vec<Move> = Vec::new();
    let shown = wait_for_leds(core, elf)?;
    if shown != LedPattern::NEW_GAME {
        let why = format!(
            "at power-on the machine should light every LED; {}",
            diagnose(shown, LedPattern::NEW_GAME, core)
        );
        return Ok((Ended::Trouble(why), moves));
    }
    let size = core.state().board.cage().position().size();
    // A row LED for each of the cage's rows, a column LED for each column.
    let lines = size.span();
    let _ = draw(out, shown, lines);
    let _ = writeln!(
        out,
        "Every LED is lit: a new game on the M={} cage. The machine cuts; you short. Press the \
         button to start (an empty line).",
        size.get()
    );
    // Whether the person has made their move since the machine's.
    let mut moved = true;
    let mut line = String::new();
    loop {
        if prompt {
            let _ = write!(out, "> ");
            let _ = out.flush();
        }
        line.clear();
        if input.read_line(&mut line).unwrap_or(0) == 0 {
            return Ok((Ended::Quit, moves));
        }
        let said = line.trim();
        match said {
            "quit" | "q" => return Ok((Ended::Quit, moves)),
            "help" | "?" => {
                let _ = writeln!(out, "{HELP}");
            }
            "" | "press" | "p" if !moved => {
                let _ = writeln!(
                    out,
                    "Make your move on the cage first (a Short move such as c5), then press."
                );
            }
            "" | "press" | "p" => {
                let shown = press(core, elf)?;
                let _ = draw(out, shown, lines);
                if let Some(winner) = verdict(shown) {
                    return Ok((Ended::Verdict(winner), moves));
                }
                let Some(edge) = shown_edge(shown, size) else {
                    let why = format!(
                        "after {} the machine should light one row and one column; {}",
                        record(&moves).unwrap_or_else(|| "the first press".into()),
                        diagnose(shown, LedPattern::OFF, core)
                    );
                    return Ok((Ended::Trouble(why), moves));
                };
                let cut = Move {
                    side: Side::Cut,
                    edge,
                };
                if let Err(e) = core.state().board.cage().play(cut) {
                    let why = format!("the machine lit {edge}, which cannot be cut: {e}");
                    return Ok((Ended::Trouble(why), moves));
                }
                moves.push(cut);
                // A cut that ends the game leaves no move to make: the next press shows
                // the verdict.
                let over = core.state().board.cage().position().winner().is_some();
                moved = over;
                let _ = writeln!(
                    out,
                    "The machine cuts {edge} (row {} and column {} lit); it is cut on the \
                     cage. {}",
                    edge.y(),
                    heuristic::column_letter(edge.x()),
                    if over {
                        "The game is over: press the button for the machine's verdict."
                    } else {
                        "Your move."
                    }
                );
            }
            _ if moved => {
                let _ = writeln!(
                    out,
                    "You have made your move: press the button (an empty line) for the \
                     machine's."
                );
            }
            text => match short(size, text, core) {
                Ok(mv) => {
                    moves.push(mv);
                    moved = true;
                    let _ = writeln!(
                        out,
                        "You short {}. Record: {}. Press the button.",
                        mv.edge,
                        record(&moves).unwrap_or_default()
                    );
                }
                Err(why) => {
                    let _ = writeln!(out, "{why} {HELP}");
                }
            },
        }
    }
}

/// The person's Short move `text`, made on the cage, or why it cannot be.
fn short(size: Size, text: &str, core: &Core<'_>) -> Result<Move, String> {
    let edge = Edge::parse(size, text).map_err(|e| format!("{e}."))?;
    let mv = Move {
        side: Side::Short,
        edge,
    };
    core.state()
        .board
        .cage()
        .play(mv)
        .map_err(|e| format!("{e}."))?;
    Ok(mv)
}

/// The winner the LEDs show, if they show one.
fn verdict(shown: LedPattern) -> Option<Side> {
    match shown {
        LedPattern::CUT_WON => Some(Side::Cut),
        LedPattern::SHORT_WON => Some(Side::Short),
        _ => None,
    }
}

/// The record of `moves`, Cut first.
pub fn record(moves: &[Move]) -> Option<String> {
    Record::from_moves(Side::Cut, moves)
        .ok()
        .map(|r| r.to_string())
        .filter(|r| !r.is_empty())
}
