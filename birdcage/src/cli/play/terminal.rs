//! The full-screen game on a terminal (crossterm), on the cage or on a graph, with the same
//! keys ([`super::keys`]): the arrows (on a graph Up, Down and the page keys) pick an edge,
//! Enter plays it, or type a move (`c5`, an edge's name) or a command word and Enter; `?`
//! hint (the screen says it is searching meanwhile), `w` why (the hint's reasoning), `v`
//! drops, `u` undo, `q` or Esc quit; Ctrl-C ends the game with exit code 130.
//! What the screen shows is built in `frame`; the game itself ([`session`]) runs on any
//! source of events and any sink of screens, so that tests play it without a terminal.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, anyhow};
use crossterm::cursor::Show;
use crossterm::event::{Event, KeyCode, poll, read};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use heuristic::{Edge, EdgeState, Size};

use super::frame::{self, Frame, GraphScene, Scene};
use super::graph::GraphSession;
use super::keys::{self, Input};
use super::{Command, Front, NO_HINT_YET, Session};
use emulator::hint::Hint;

/// The exit code of a program ended by Ctrl-C (128 + SIGINT), as shells report it.
const INTERRUPTED: u8 = 130;

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
        // In raw mode Ctrl-C is a key (see `keys::input`); a SIGINT sent from elsewhere
        // still gives the terminal back before the program ends as interrupted.
        let _ = ctrlc::set_handler(|| {
            restore();
            std::process::exit(i32::from(INTERRUPTED));
        });
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

/// Where the selection is and what the person is typing and reading.
#[derive(Debug)]
pub(crate) struct Ui<S> {
    pub(crate) selected: S,
    pub(crate) typed: String,
    pub(crate) message: String,
    pub(crate) show_drops: bool,
    /// The last hint's reasoning, for `w`, until the next move or undo.
    pub(crate) why: Option<String>,
}

/// How a game on the terminal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    Over,
    Quit,
    Interrupted,
}

/// A game as the terminal plays it, on the cage or on a graph: what differs between the
/// two is where the selection is and how the screen is drawn.
pub(crate) trait Table: Front {
    /// The selection: a square (x, y) on the cage, an edge's place in the file on a graph.
    type Selection: Copy;
    /// Where the selection starts.
    fn start(&self) -> Self::Selection;
    /// The selection moved by an arrow or page key.
    fn step(&self, from: Self::Selection, key: KeyCode) -> Self::Selection;
    /// The playable edge nearest `at` (`at` itself if it is one).
    fn settle(&self, at: Self::Selection) -> Self::Selection;
    /// Plays the selected edge for the person; the move as the record writes it.
    fn play_selected(&mut self, at: Self::Selection) -> Result<String>;
    /// The hint: its move as a selection, its line and its reasons.
    fn suggest(&self) -> Hint<Self::Selection>;
    /// The screen at a terminal size.
    fn frame(&self, ui: &Ui<Self::Selection>, width: u16, height: u16, colours: bool) -> Frame;
}

/// Plays `game` from `events`, drawing every screen with `draw` at the size `size` gives,
/// until the game is over or the person leaves.
pub(crate) fn session<T: Table>(
    game: &mut T,
    mut events: impl FnMut() -> std::io::Result<Event>,
    mut draw: impl FnMut(&Frame) -> std::io::Result<()>,
    size: impl Fn() -> (u16, u16),
    colours: bool,
) -> Result<Ending> {
    let mut ui = Ui {
        selected: game.start(),
        typed: String::new(),
        message: String::new(),
        show_drops: false,
        why: None,
    };
    match game.answer() {
        Ok(Some(mv)) => ui.message = format!("Machine: {mv}"),
        Ok(None) => {}
        Err(e) => ui.message = format!("{e:#}"),
    }
    ui.selected = game.settle(ui.selected);
    let mut show = |game: &T, ui: &Ui<T::Selection>| {
        let (width, height) = size();
        draw(&game.frame(ui, width, height, colours))
    };
    while !game.is_over() {
        show(game, &ui)?;
        let event = events()?;
        let input = keys::input(&event, |c| game.names_begin(&format!("{}{c}", ui.typed)));
        if let Some(ending) = handle(game, &mut ui, input, &mut show) {
            return Ok(ending);
        }
    }
    Ok(Ending::Over)
}

/// What the screen says while the hint searches (a second or two on the large cages).
pub(crate) const SEARCHING: &str = "Searching for a hint…";

/// What one input does to the game and the screen; an ending if it ends the game. `show`
/// draws the screen at once, before a search that takes a while.
fn handle<T: Table>(
    game: &mut T,
    ui: &mut Ui<T::Selection>,
    input: Input,
    show: &mut impl FnMut(&T, &Ui<T::Selection>) -> std::io::Result<()>,
) -> Option<Ending> {
    let command = match input {
        Input::Interrupt => return Some(Ending::Interrupted),
        Input::Command(command) => command,
        Input::Type(c) => {
            ui.typed.push(c);
            return None;
        }
        Input::Erase => {
            ui.typed.pop();
            return None;
        }
        Input::Step(key) => {
            ui.selected = game.step(ui.selected, key);
            return None;
        }
        Input::Redraw => return None,
        Input::Enter => {
            let typed = std::mem::take(&mut ui.typed);
            // A key typed because it begins an edge's name (`u` of `u-v`) stays a name.
            match Command::parse(&typed, |w| game.names_edge(w) || game.names_begin(w)) {
                None => Command::Move(String::new()),
                Some(command) => command,
            }
        }
    };
    match command {
        Command::Quit => return Some(Ending::Quit),
        Command::Hint => {
            ui.message = SEARCHING.to_string();
            // A screen that cannot be drawn now fails at the next draw, which reports it.
            let _ = show(game, ui);
            // The suggested move is selected: Enter plays it.
            let hint = game.suggest();
            if let Some(at) = hint.mv {
                ui.selected = at;
            }
            // The reasons are one key away, said beside the line (not in the key line).
            ui.message = if hint.mv.is_some() {
                format!("{}  ({})", hint.line, keys::named(&Command::Why))
            } else {
                hint.line
            };
            ui.why = Some(hint.why);
        }
        Command::Why => {
            ui.message = ui.why.clone().unwrap_or_else(|| NO_HINT_YET.to_string());
        }
        Command::Drops => ui.show_drops = !ui.show_drops,
        Command::Undo => {
            ui.why = None;
            ui.message = if game.undo() {
                ui.selected = game.settle(ui.selected);
                "Undone.".to_string()
            } else {
                "Nothing to undo.".to_string()
            }
        }
        Command::Move(text) => {
            let played = if text.is_empty() {
                game.play_selected(ui.selected)
            } else {
                game.play_text(&text)
            };
            if played.is_ok() {
                ui.why = None;
            }
            ui.message = match played {
                Ok(mv) => match game.answer() {
                    // Sentences: the message is wrapped at spaces, which runs spaces together.
                    Ok(Some(reply)) => format!("You: {mv}. Machine: {reply}."),
                    Ok(None) => format!("You: {mv}."),
                    Err(e) => format!("You: {mv}. {e:#}"),
                },
                Err(e) => format!("{e:#}"),
            };
            ui.selected = game.settle(ui.selected);
        }
    }
    None
}

/// Plays `game` full screen; once the terminal is given back, prints the final board, the
/// result and the record. Exit code 130 after Ctrl-C, else 0.
pub(super) fn run<T: Table>(mut game: T) -> Result<ExitCode> {
    let ending = {
        let _screen = Screen::enter()?;
        let ending = session(
            &mut game,
            read,
            |frame| frame::paint(&mut std::io::stdout().lock(), frame),
            || crossterm::terminal::size().unwrap_or((80, 24)),
            colours(),
        );
        drain(|| poll(SETTLE), read);
        ending?
    };
    let mut out = std::io::stdout().lock();
    write!(out, "{}", end_text(&game))?;
    out.flush()?;
    Ok(ExitCode::from(exit_code(ending)))
}

/// How long input may keep coming after the game, before the terminal is given back.
const SETTLE: Duration = Duration::from_millis(50);

/// The most events drained (a key held down repeats for ever).
const DRAIN_MAX: usize = 256;

/// Reads and drops the events pending (`pending` says whether one is, waiting a little),
/// so that a key pressed as the game ends is not given to the shell once raw mode is left;
/// errors end the draining, which has nothing to report.
fn drain(
    mut pending: impl FnMut() -> std::io::Result<bool>,
    mut read: impl FnMut() -> std::io::Result<Event>,
) -> usize {
    let mut drained = 0;
    while drained < DRAIN_MAX && matches!(pending(), Ok(true)) && read().is_ok() {
        drained += 1;
    }
    drained
}

/// The exit code of a game that ended so: 130 after Ctrl-C, else 0.
fn exit_code(ending: Ending) -> u8 {
    match ending {
        Ending::Interrupted => INTERRUPTED,
        Ending::Over | Ending::Quit => 0,
    }
}

/// What is printed once the terminal is given back: the board, the result, the record.
pub(crate) fn end_text(game: &impl Table) -> String {
    let mut text = game.board();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    if let Some(outcome) = game.outcome() {
        text.push_str(&outcome);
        text.push('\n');
    }
    text.push_str(&format!("Record: {}\n", game.record()));
    text
}

/// Whether the terminal game may use colours: not when `NO_COLOR` is set (no-color.org).
fn colours() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
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

impl Table for Session {
    type Selection = (u8, u8);

    fn start(&self) -> (u8, u8) {
        (1, self.position().size().span())
    }

    fn step(&self, from: (u8, u8), key: KeyCode) -> (u8, u8) {
        step(self.position().size(), from, key)
    }

    fn settle(&self, (x, y): (u8, u8)) -> (u8, u8) {
        let position = self.position();
        let here = Edge::new(position.size(), x, y);
        if here.is_some_and(|e| position.state(e) == EdgeState::Resistor) {
            return (x, y);
        }
        // The nearest resistor; ties go to the first in reading order.
        let distance = |e: &Edge| {
            let dx = i32::from(e.x()) - i32::from(x);
            let dy = i32::from(e.y()) - i32::from(y);
            dx * dx + dy * dy
        };
        position
            .resistors()
            .min_by_key(distance)
            .map_or((x, y), |e| (e.x(), e.y()))
    }

    fn play_selected(&mut self, (x, y): (u8, u8)) -> Result<String> {
        let edge = Edge::new(self.position().size(), x, y)
            .ok_or_else(|| anyhow!("no edge is selected"))?;
        Ok(self.play_edge(edge)?.to_string())
    }

    fn suggest(&self) -> Hint<(u8, u8)> {
        let hint = self.hint();
        Hint {
            mv: hint.mv.map(|e| (e.x(), e.y())),
            line: hint.line,
            why: hint.why,
        }
    }

    fn frame(&self, ui: &Ui<(u8, u8)>, width: u16, height: u16, colours: bool) -> Frame {
        let (x, y) = ui.selected;
        let scene = Scene {
            game: self,
            selected: Edge::new(self.position().size(), x, y),
            drops: ui.show_drops,
            typed: &ui.typed,
            message: &ui.message,
            colours,
        };
        frame::frame(&scene, width, height)
    }
}

impl Table for GraphSession {
    type Selection = usize;

    fn start(&self) -> usize {
        0
    }

    fn step(&self, from: usize, key: KeyCode) -> usize {
        let last = self.play().graph().edges().len().saturating_sub(1);
        match key {
            KeyCode::Up => from.saturating_sub(1),
            KeyCode::Down => (from + 1).min(last),
            KeyCode::PageUp => from.saturating_sub(10),
            KeyCode::PageDown => (from + 10).min(last),
            _ => from,
        }
    }

    fn settle(&self, at: usize) -> usize {
        // The nearest unclaimed edge in the list; ties go to the earlier.
        let play = self.play();
        let states = play.states();
        (0..states.len())
            .filter(|&i| states[i] == EdgeState::Resistor)
            .min_by_key(|&i| i.abs_diff(at))
            .unwrap_or(at)
    }

    fn play_selected(&mut self, at: usize) -> Result<String> {
        let edge = self.play_edge(at)?;
        Ok(self.play().graph().edges()[edge].name.clone())
    }

    fn suggest(&self) -> Hint<usize> {
        GraphSession::suggest(self)
    }

    fn frame(&self, ui: &Ui<usize>, width: u16, height: u16, colours: bool) -> Frame {
        let scene = GraphScene {
            game: self,
            selected: ui.selected,
            drops: ui.show_drops,
            typed: &ui.typed,
            message: &ui.message,
            colours,
        };
        frame::graph_frame(&scene, width, height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
    use emulator::players::Opponent;
    use heuristic::{Model, Side};

    use crate::cli::play::frame::tests::{game, lines, scene};
    use crate::cli::play::frame::text;
    use crate::cli::play::{Machine, View, YouArg};

    #[test]
    fn keys_pressed_as_the_game_ends_are_read_before_the_terminal_is_given_back() {
        // Issue 52 item 4: three keys still queued when the game ends.
        let queue = std::cell::RefCell::new(vec![
            press(KeyCode::Enter, KeyModifiers::NONE),
            press(KeyCode::Char('q'), KeyModifiers::NONE),
            press(KeyCode::Char('x'), KeyModifiers::NONE),
        ]);
        let drained = drain(
            || Ok(!queue.borrow().is_empty()),
            || Ok(queue.borrow_mut().pop().unwrap()),
        );
        assert_eq!(drained, 3);
        assert!(queue.borrow().is_empty());
        // A key held down ends the draining all the same; an error ends it quietly.
        let held = drain(
            || Ok(true),
            || Ok(press(KeyCode::Enter, KeyModifiers::NONE)),
        );
        assert_eq!(held, DRAIN_MAX);
        let failed = drain(|| Err(std::io::Error::other("gone")), || unreachable!());
        assert_eq!(failed, 0);
    }

    fn press(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    }

    fn key(c: char) -> Event {
        press(KeyCode::Char(c), KeyModifiers::NONE)
    }

    fn ctrl_c() -> Event {
        press(KeyCode::Char('c'), KeyModifiers::CONTROL)
    }

    /// Plays `game` on `events` at 80×24; how it ended and every screen drawn.
    fn played<T: Table>(game: &mut T, events: Vec<Event>) -> (Ending, Vec<Frame>) {
        let mut events = events.into_iter();
        let mut frames = Vec::new();
        let ending = session(
            game,
            || Ok(events.next().expect("the game waits for another key")),
            |frame| {
                frames.push(frame.clone());
                Ok(())
            },
            || (80, 24),
            false,
        )
        .unwrap();
        (ending, frames)
    }

    fn cage(m: u32, you: Side) -> Session {
        let model = Model::Ideal;
        let machine = Machine::Player(Opponent::Heuristic(model));
        Session::new(
            Size::new(m).unwrap(),
            you,
            machine,
            model,
            crate::cli::play::View::Circuit,
        )
    }

    fn screen(frame: &Frame) -> String {
        frame.lines.iter().map(text).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn the_first_screen_selects_a_playable_edge_and_marks_the_machines_move() {
        for m in 2..=8 {
            let mut game = cage(m, Side::Short);
            let (ending, frames) = played(&mut game, vec![ctrl_c()]);
            assert_eq!(ending, Ending::Interrupted);
            assert_eq!(exit_code(ending), 130);
            let first = &frames[0];
            let spans = || first.lines.iter().flatten();
            let selected = spans().find(|s| s.style.reverse).unwrap().edge.unwrap();
            assert_eq!(
                game.position().state(selected),
                EdgeState::Resistor,
                "M={m}"
            );
            let machine = game.last_machine_move().unwrap();
            let marked = first
                .lines
                .iter()
                .find(|l| l.iter().any(|s| s.edge == Some(machine)))
                .map(text)
                .unwrap();
            assert!(marked.contains("<×>"), "M={m}: {marked}\n{}", screen(first));
            // Enter plays the selected edge.
            let mut game = cage(m, Side::Short);
            let enter = press(KeyCode::Enter, KeyModifiers::NONE);
            played(&mut game, vec![enter, ctrl_c()]);
            let mine = heuristic::Move {
                side: Side::Short,
                edge: selected,
            };
            assert_eq!(
                game.record().split(',').nth(1),
                Some(mine.to_string().as_str())
            );
        }
    }

    #[test]
    fn q_and_esc_quit_ctrl_c_interrupts() {
        for (event, ending) in [
            (key('q'), Ending::Quit),
            (press(KeyCode::Esc, KeyModifiers::NONE), Ending::Quit),
            (ctrl_c(), Ending::Interrupted),
        ] {
            let mut game = cage(3, Side::Short);
            assert_eq!(played(&mut game, vec![event.clone()]).0, ending);
            let graph = switching::Graph::cage(Size::new(3).unwrap());
            let mut game =
                GraphSession::new("g", &graph, Side::Short, Opponent::Perfect, Model::Ideal);
            assert_eq!(played(&mut game, vec![event]).0, ending);
        }
        assert_eq!(exit_code(Ending::Quit), 0);
    }

    #[test]
    fn a_graph_takes_the_cages_keys() {
        let graph = switching::Graph::cage(Size::new(3).unwrap());
        let mut on_graph = GraphSession::new(
            "cage3.txt",
            &graph,
            Side::Short,
            Opponent::Heuristic(Model::Ideal),
            Model::Ideal,
        );
        let mut on_cage = cage(3, Side::Short);
        let events = || {
            vec![
                key('w'),
                key('u'),
                key('v'),
                key('?'),
                key('w'),
                key('v'),
                key('q'),
            ]
        };
        let (ending, graph_frames) = played(&mut on_graph, events());
        assert_eq!(ending, Ending::Quit);
        let (_, cage_frames) = played(&mut on_cage, events());
        for frames in [&graph_frames, &cage_frames] {
            let shown: Vec<String> = frames.iter().map(screen).collect();
            // `w` before any hint says to ask for one.
            assert!(shown[1].contains("No hint to explain"), "{}", shown[1]);
            assert!(shown[2].contains("Nothing to undo."), "{}", shown[2]);
            // The drops, in percent, show between the two `v`s.
            assert!(!shown[2].contains('%'), "{}", shown[2]);
            assert!(shown[3].contains('%'), "{}", shown[3]);
            // `?` draws a screen that says it searches before the search, then the hint,
            // which says its reasons are a key away; `w` shows them.
            assert!(shown[4].contains(SEARCHING), "{}", shown[4]);
            assert!(!shown[4].contains("Hint: "), "{}", shown[4]);
            assert!(shown[5].contains("Hint: "), "{}", shown[5]);
            assert!(shown[5].contains("(w why)"), "{}", shown[5]);
            assert!(shown[6].contains("Why: "), "{}", shown[6]);
            assert!(!shown[7].contains('%'), "{}", shown[7]);
        }
        // On a graph whose edges are named by their ends, `u` starts `u-v`: it is typed,
        // and the key line says Esc for quit where `q` starts a name.
        let graph = switching::Graph::new(
            ("s", "t"),
            [
                ("s", "u", None),
                ("u", "v", None),
                ("v", "t", Some("end")),
                ("q", "s", None),
                ("q", "t", None),
                ("s", "w", None),
                ("w", "t", None),
            ],
        )
        .unwrap();
        // The heuristic cuts q-s first (half the supply), leaving u-v.
        let heuristic = Opponent::Heuristic(Model::Ideal);
        let mut game = GraphSession::new("uv.txt", &graph, Side::Short, heuristic, Model::Ideal);
        let enter = press(KeyCode::Enter, KeyModifiers::NONE);
        let erase = press(KeyCode::Backspace, KeyModifiers::NONE);
        let esc = press(KeyCode::Esc, KeyModifiers::NONE);
        let events = vec![key('q'), erase, key('u'), key('-'), key('v'), enter, esc];
        let (ending, frames) = played(&mut game, events);
        assert_eq!(ending, Ending::Quit);
        let shown: Vec<String> = frames.iter().map(screen).collect();
        assert!(
            shown[0].contains("? hint  v drops  Esc quit"),
            "{}",
            shown[0]
        );
        assert!(shown[1].contains("\n> q"), "{}", shown[1]);
        assert!(shown[5].contains("\n> u-v"), "{}", shown[5]);
        assert!(shown[6].contains("You: u-v"), "{}", shown[6]);
    }

    #[test]
    fn the_move_line_keeps_the_two_moves_apart() {
        // The message is wrapped at spaces (runs of them become one): sentences, so that
        // "You: c7 Machine: C5" does not read as one.
        let mut game = cage(4, Side::Short);
        let enter = press(KeyCode::Enter, KeyModifiers::NONE);
        let (_, frames) = played(&mut game, vec![key('c'), key('7'), enter, ctrl_c()]);
        let after = screen(frames.last().unwrap());
        let line = after
            .lines()
            .find(|l| l.contains("You: "))
            .unwrap_or_else(|| panic!("{after}"));
        assert!(line.contains("You: c7. Machine: "), "{line}");
        assert!(line.trim_end().ends_with('.'), "{line}");
    }

    #[test]
    fn undo_and_moves_leave_the_selection_on_a_playable_edge() {
        let mut game = cage(4, Side::Short);
        let enter = press(KeyCode::Enter, KeyModifiers::NONE);
        let (_, frames) = played(
            &mut game,
            vec![enter.clone(), enter.clone(), key('u'), enter, ctrl_c()],
        );
        for frame in &frames {
            assert!(!screen(frame).contains("already"), "{}", screen(frame));
        }
    }

    /// The end of the game (this module's) against the frame's board (its test helpers).
    #[test]
    fn the_end_of_the_game_draws_cuts_as_the_board_does() {
        let game = game(4, View::Circuit, YouArg::Short, &["c7"]);
        let end = end_text(&game);
        let cuts = game
            .position()
            .size()
            .edges()
            .filter(|&e| game.position().state(e) == heuristic::EdgeState::Cut)
            .count();
        assert_eq!(cuts, 2);
        assert_eq!(end.matches('×').count(), cuts, "{end}");
        // The board on the screen, less its marks, is the same drawing.
        let screen = lines(&crate::cli::play::frame::frame(
            &scene(&game, "A1", false, false),
            80,
            24,
        ));
        let row7 = screen.iter().find(|l| l.starts_with("7 ")).unwrap();
        let end7 = end.lines().find(|l| l.starts_with("7 ")).unwrap();
        let unmarked: String = row7
            .chars()
            .map(|c| if "[]<>".contains(c) { ' ' } else { c })
            .collect();
        assert!(unmarked.starts_with(end7), "{unmarked}\n{end7}");
    }
}
