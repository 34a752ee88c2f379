//! The full-screen game on a terminal (crossterm): cursor keys pick an edge, Enter plays
//! it, or type a move such as `c5` and Enter. `?` hint, `v` drops on the board, `u` undo,
//! `q` or Esc quit (column letters never reach `q`, `u` or `v`: M ≤ 8 has columns A..O).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use crossterm::cursor::{MoveTo, Show};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, read};
use crossterm::style::Print;
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{execute, queue};
use heuristic::{Edge, Size};

use super::Session;

/// Raw mode and the alternate screen, undone on drop: on every way out, errors and
/// panics included.
struct Screen;

impl Screen {
    fn enter() -> Result<Screen> {
        enable_raw_mode()?;
        let screen = Screen;
        execute!(std::io::stdout(), EnterAlternateScreen, Show)?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), LeaveAlternateScreen, Show);
        let _ = disable_raw_mode();
    }
}

/// Where the cursor is and what the person is typing.
struct Ui {
    cursor: (u8, u8),
    typed: String,
    message: String,
    show_drops: bool,
}

/// Lines above the board: the header and a blank line.
const BOARD_TOP: u16 = 2;

/// The next edge from (x, y) in a direction, staying on the board; edges sit where x + y
/// is even, so a step up or down also moves one column.
fn step(size: Size, (x, y): (u8, u8), key: KeyCode) -> (u8, u8) {
    let span = size.span() as i16;
    let (x, y) = (i16::from(x), i16::from(y));
    let candidates: &[(i16, i16)] = match key {
        KeyCode::Left => &[(-2, 0)],
        KeyCode::Right => &[(2, 0)],
        KeyCode::Up => &[(1, 1), (-1, 1)],
        KeyCode::Down => &[(-1, -1), (1, -1)],
        _ => &[],
    };
    candidates
        .iter()
        .map(|(dx, dy)| (x + dx, y + dy))
        .find(|&(nx, ny)| (1..=span).contains(&nx) && (1..=span).contains(&ny))
        .map_or((x as u8, y as u8), |(nx, ny)| (nx as u8, ny as u8))
}

fn draw(game: &Session, ui: &Ui) -> Result<()> {
    let mut out = std::io::stdout().lock();
    queue!(
        out,
        Clear(ClearType::All),
        MoveTo(0, 0),
        Print(game.header())
    )?;
    let body = if ui.show_drops {
        game.drops()
    } else {
        emulator::diagram::board(game.position())
    };
    let mut row = BOARD_TOP;
    for line in body.lines() {
        queue!(out, MoveTo(0, row), Print(line))?;
        row += 1;
    }
    let help =
        "arrows + Enter: play  |  type a move (c5) + Enter  |  ? hint  v drops  u undo  q quit";
    for line in ["", ui.message.as_str(), help] {
        queue!(out, MoveTo(0, row), Print(line))?;
        row += 1;
    }
    queue!(out, MoveTo(0, row), Print(format!("> {}", ui.typed)))?;
    if !ui.show_drops && ui.typed.is_empty() {
        // On the plain board the terminal cursor sits on the selected edge.
        let size = game.position().size();
        let margin: u16 = if size.span() >= 10 { 3 } else { 2 };
        let (x, y) = ui.cursor;
        let column = margin + 2 * (u16::from(x) - 1);
        let line = BOARD_TOP + u16::from(2 * size.get() - y);
        queue!(out, MoveTo(column, line))?;
    }
    out.flush()?;
    Ok(())
}

/// Plays the game full screen; prints the final board and the record once the screen is
/// restored.
pub(super) fn run(mut game: Session) -> Result<ExitCode> {
    let size = game.position().size();
    let mut ui = Ui {
        cursor: (1, size.span()),
        typed: String::new(),
        message: String::new(),
        show_drops: false,
    };
    {
        let _screen = Screen::enter()?;
        match game.reply() {
            Ok(Some(mv)) => ui.message = format!("Machine: {mv}"),
            Ok(None) => {}
            Err(e) => ui.message = format!("{e:#}"),
        }
        while game.position().winner().is_none() {
            draw(&game, &ui)?;
            let Event::Key(KeyEvent {
                code,
                modifiers,
                kind: KeyEventKind::Press,
                ..
            }) = read()?
            else {
                continue;
            };
            match code {
                KeyCode::Esc => break,
                KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => break,
                KeyCode::Char('q') => break,
                KeyCode::Char('?') => ui.message = game.hint(),
                KeyCode::Char('v') => ui.show_drops = !ui.show_drops,
                KeyCode::Char('u') => {
                    ui.message = if game.undo() {
                        "Undone.".to_string()
                    } else {
                        "Nothing to undo.".to_string()
                    }
                }
                KeyCode::Char(c) if c.is_ascii_alphanumeric() => ui.typed.push(c),
                KeyCode::Backspace => {
                    ui.typed.pop();
                }
                KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down => {
                    ui.cursor = step(size, ui.cursor, code);
                }
                KeyCode::Enter => {
                    let typed = std::mem::take(&mut ui.typed);
                    let played = if typed.is_empty() {
                        let (x, y) = ui.cursor;
                        match Edge::new(size, x, y) {
                            Some(edge) => game.play_edge(edge),
                            None => continue,
                        }
                    } else {
                        game.play(&typed)
                    };
                    ui.message = match played {
                        Ok(mv) => match game.reply() {
                            Ok(Some(reply)) => format!("You: {mv}   Machine: {reply}"),
                            Ok(None) => format!("You: {mv}"),
                            Err(e) => format!("You: {mv}   {e:#}"),
                        },
                        Err(e) => format!("{e:#}"),
                    };
                }
                _ => {}
            }
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", emulator::diagram::board(game.position()))?;
    if let Some(outcome) = game.outcome() {
        writeln!(out, "{outcome}")?;
    }
    writeln!(out, "Record: {}", game.record())?;
    Ok(ExitCode::SUCCESS)
}
