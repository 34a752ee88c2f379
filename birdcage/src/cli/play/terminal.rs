//! The full-screen game on a terminal (crossterm): cursor keys pick an edge, Enter plays
//! it, or type a move such as `c5` and Enter. `?` hint, `v` drops on the board, `u` undo,
//! `q` or Esc quit (column letters never reach `q`, `u` or `v`: M ≤ 8 has columns A..O).
//! What the screen shows (colours, marks, the heat map of the drops) is built in `frame`.
//! On a graph (`run_graph`) the board is its list of edges: Up and Down pick one, Enter
//! plays it, or type a name or a command word (`hint`, `drops` to show or hide the drops,
//! `undo`, `quit`) and Enter; Esc quits.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use crossterm::cursor::Show;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, read};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use heuristic::{Edge, Size};

use super::frame::{self, GraphScene, Scene};
use super::graph::GraphSession;
use super::{Command, Game, Session};

/// The hook a panic ran before the game took the screen.
type Hook = Arc<dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync>;

/// Raw mode and the alternate screen, undone on drop (errors, early returns) and by a
/// panic hook before the panic is printed: unwinding drops the guard only after the
/// message has gone to the alternate screen, which the terminal then throws away.
struct Screen {
    previous: Hook,
}

/// Gives the terminal back: the main screen, cooked mode, a visible cursor.
fn restore() {
    let _ = execute!(std::io::stdout(), LeaveAlternateScreen, Show);
    let _ = disable_raw_mode();
}

impl Screen {
    fn enter() -> Result<Screen> {
        let previous: Hook = Arc::from(std::panic::take_hook());
        let chained = Arc::clone(&previous);
        std::panic::set_hook(Box::new(move |info| {
            restore();
            chained(info);
        }));
        let screen = Screen { previous };
        enable_raw_mode()?;
        execute!(std::io::stdout(), EnterAlternateScreen, Show)?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
        // A panicking thread may not touch the hook (and needs ours no more).
        if !std::thread::panicking() {
            let previous = Arc::clone(&self.previous);
            std::panic::set_hook(Box::new(move |info| previous(info)));
        }
    }
}

/// Where the cursor is and what the person is typing.
struct Ui {
    cursor: (u8, u8),
    typed: String,
    message: String,
    show_drops: bool,
}

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
    let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
    let (x, y) = ui.cursor;
    let scene = Scene {
        game,
        selected: Edge::new(game.position().size(), x, y),
        drops: ui.show_drops,
        typed: &ui.typed,
        message: &ui.message,
        colours: colours(),
    };
    frame::paint(
        &mut std::io::stdout().lock(),
        &frame::frame(&scene, width, height),
    )?;
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
            let code = match next_key()? {
                Key::Quit => break,
                Key::Other => continue,
                Key::Press(code) => code,
            };
            match code {
                KeyCode::Char('q') => break,
                KeyCode::Char('?') => {
                    // The suggested move is selected: Enter plays it.
                    let (suggested, line) = game.hint();
                    if let Some(edge) = suggested {
                        ui.cursor = (edge.x(), edge.y());
                    }
                    ui.message = line;
                }
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
    writeln!(out, "{}", game.board())?;
    if let Some(outcome) = game.outcome() {
        writeln!(out, "{outcome}")?;
    }
    writeln!(out, "Record: {}", game.record())?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the terminal game may use colours: not when `NO_COLOR` is set (no-color.org).
fn colours() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Where the person is on a graph's list of edges and what they are typing.
struct GraphUi {
    selected: usize,
    typed: String,
    message: String,
    show_drops: bool,
}

fn draw_graph(game: &GraphSession, ui: &GraphUi) -> Result<()> {
    let (width, height) = crossterm::terminal::size().unwrap_or((80, 24));
    let scene = GraphScene {
        game,
        selected: ui.selected,
        drops: ui.show_drops,
        typed: &ui.typed,
        message: &ui.message,
        colours: colours(),
    };
    frame::paint(
        &mut std::io::stdout().lock(),
        &frame::graph_frame(&scene, width, height),
    )?;
    Ok(())
}

/// What a typed line or the selection does on a graph; `false` to quit.
fn graph_enter(game: &mut GraphSession, ui: &mut GraphUi) -> bool {
    let typed = std::mem::take(&mut ui.typed);
    let played = if typed.trim().is_empty() {
        game.play_edge(ui.selected)
    } else {
        match Command::parse(&typed) {
            Some(Command::Quit) => return false,
            Some(Command::Hint) => {
                // The suggested edge is selected: Enter plays it.
                let (suggested, line) = game.suggest();
                if let Some(edge) = suggested {
                    ui.selected = edge;
                }
                ui.message = line;
                return true;
            }
            Some(Command::Drops) => {
                ui.show_drops = !ui.show_drops;
                return true;
            }
            Some(Command::Undo) => {
                ui.message = if game.undo() {
                    "Undone.".to_string()
                } else {
                    "Nothing to undo.".to_string()
                };
                return true;
            }
            Some(Command::Move(name)) => game.play_name(&name),
            None => return true,
        }
    };
    let name = |game: &GraphSession, e: usize| game.play().graph().edges()[e].name.clone();
    ui.message = match played {
        Ok(mv) => {
            let mine = name(game, mv);
            match game.reply() {
                Ok(Some(reply)) => format!("You: {mine}   Machine: {}", name(game, reply)),
                Ok(None) => format!("You: {mine}"),
                Err(e) => format!("You: {mine}   {e:#}"),
            }
        }
        Err(e) => format!("{e:#}"),
    };
    true
}

/// Plays a game on a graph full screen; prints the final list and the record once the
/// screen is restored.
pub(super) fn run_graph(mut game: GraphSession) -> Result<ExitCode> {
    let count = game.play().graph().edges().len();
    let mut ui = GraphUi {
        selected: 0,
        typed: String::new(),
        message: String::new(),
        show_drops: false,
    };
    {
        let _screen = Screen::enter()?;
        match game.reply() {
            Ok(Some(mv)) => {
                ui.message = format!("Machine: {}", game.play().graph().edges()[mv].name);
            }
            Ok(None) => {}
            Err(e) => ui.message = format!("{e:#}"),
        }
        while !game.is_over() {
            draw_graph(&game, &ui)?;
            let code = match next_key()? {
                Key::Quit => break,
                Key::Other => continue,
                Key::Press(code) => code,
            };
            match code {
                KeyCode::Char(c) if !c.is_control() => ui.typed.push(c),
                KeyCode::Backspace => {
                    ui.typed.pop();
                }
                KeyCode::Up => ui.selected = ui.selected.saturating_sub(1),
                KeyCode::Down => ui.selected = (ui.selected + 1).min(count - 1),
                KeyCode::PageUp => ui.selected = ui.selected.saturating_sub(10),
                KeyCode::PageDown => ui.selected = (ui.selected + 10).min(count - 1),
                KeyCode::Enter => {
                    let go_on = graph_enter(&mut game, &mut ui);
                    if !go_on {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", game.board())?;
    if let Some(outcome) = game.outcome() {
        writeln!(out, "{outcome}")?;
    }
    writeln!(out, "Record: {}", game.record())?;
    Ok(ExitCode::SUCCESS)
}

/// One terminal event as the game screens read it.
enum Key {
    /// Esc or Ctrl-C: leave the game, on every screen.
    Quit,
    /// Anything but a key press (a release, a resize): redraw and wait again.
    Other,
    /// Any other key pressed.
    Press(KeyCode),
}

/// Waits for the next terminal event.
fn next_key() -> std::io::Result<Key> {
    Ok(match read()? {
        Event::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) => match code {
            KeyCode::Esc => Key::Quit,
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => Key::Quit,
            code => Key::Press(code),
        },
        _ => Key::Other,
    })
}
