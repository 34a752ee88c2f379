//! The game's commands: one table of their keys (on a terminal, the cage's game and a
//! graph's alike) and their words (typed, or a line of a scripted game), from which the
//! key line is written too, so that the keys, the words and what the screen says of them
//! cannot disagree.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::Command;

/// A command, its key and its word.
pub(crate) struct Binding {
    pub(crate) key: char,
    pub(crate) word: &'static str,
    pub(crate) command: Command,
}

/// Every command but a move, in the order the key line names them. Column letters never
/// reach `q`, `u`, `v` or `w` (M ≤ 8 has columns A..O); on a graph a key that would continue
/// an edge's name is typed instead (see [`input`]).
pub(crate) const BINDINGS: [Binding; 5] = [
    Binding {
        key: '?',
        word: "hint",
        command: Command::Hint,
    },
    Binding {
        key: 'w',
        word: "why",
        command: Command::Why,
    },
    Binding {
        key: 'v',
        word: "drops",
        command: Command::Drops,
    },
    Binding {
        key: 'u',
        word: "undo",
        command: Command::Undo,
    },
    Binding {
        key: 'q',
        word: "quit",
        command: Command::Quit,
    },
];

/// Another word for quit, as shells take it.
const EXIT: &str = "exit";

/// The command a typed word names: a binding's word or its key (`?`, `q`, in either case),
/// or `exit`. The caller asks first whether the word names an edge (a graph's edge `u`).
pub(crate) fn command(word: &str) -> Option<Command> {
    let word = word.to_ascii_lowercase();
    if word == EXIT {
        return Some(Command::Quit);
    }
    BINDINGS
        .iter()
        .find(|b| b.word == word || word == b.key.to_string())
        .map(|b| b.command.clone())
}

/// What a terminal event asks of a game screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// A command's key (never a move), or Esc for quit.
    Command(Command),
    /// Ctrl-C: the game ends as an interrupted program does, with exit code 130 (in raw
    /// mode the terminal sends no signal, only this key).
    Interrupt,
    /// A character of a move, an edge's name or a command word.
    Type(char),
    Erase,
    Enter,
    /// An arrow or page key: the selection moves.
    Step(KeyCode),
    /// Anything else (a release, a resize): draw again.
    Redraw,
}

/// What `event` asks for. A command's key is typed instead when `continues(c)` says it
/// would start or continue the name being typed (on a graph with an edge `u-v`, say);
/// Esc quits always.
pub(crate) fn input(event: &Event, continues: impl Fn(char) -> bool) -> Input {
    let Event::Key(KeyEvent {
        code,
        modifiers,
        kind: KeyEventKind::Press,
        ..
    }) = *event
    else {
        return Input::Redraw;
    };
    let control = modifiers.contains(KeyModifiers::CONTROL);
    match code {
        KeyCode::Char('c' | 'C') if control => Input::Interrupt,
        KeyCode::Esc => Input::Command(Command::Quit),
        KeyCode::Char(_) if control || modifiers.contains(KeyModifiers::ALT) => Input::Redraw,
        KeyCode::Char(c) => match binding(c) {
            Some(b) if !continues(c) => Input::Command(b.command.clone()),
            _ if c.is_control() => Input::Redraw,
            _ => Input::Type(c),
        },
        KeyCode::Backspace => Input::Erase,
        KeyCode::Enter => Input::Enter,
        KeyCode::Left
        | KeyCode::Right
        | KeyCode::Up
        | KeyCode::Down
        | KeyCode::PageUp
        | KeyCode::PageDown => Input::Step(code),
        _ => Input::Redraw,
    }
}

/// The binding of key `c`, in either case.
fn binding(c: char) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.key.eq_ignore_ascii_case(&c))
}

/// A command's key and word as the screen names them (`w why`).
pub(crate) fn named(command: &Command) -> String {
    BINDINGS
        .iter()
        .find(|b| b.command == *command)
        .map_or(String::new(), |b| format!("{} {}", b.key, b.word))
}

/// The key line's forms, longest first, for a screen that gives way to the shorter ones:
/// how to play (`how`) and every key, every key, the hint and quit, quit alone. `live(c)`
/// says whether key `c` works at an empty prompt; quit is said as Esc where `q` does not.
/// `why` is said beside each hint instead ([`named`]), where it applies, so that the whole
/// line still fits 80 columns.
pub(crate) fn key_line(how: &str, live: impl Fn(char) -> bool) -> Vec<String> {
    let say = |b: &Binding| {
        if live(b.key) {
            Some(format!("{} {}", b.key, b.word))
        } else if b.command == Command::Quit {
            Some(format!("Esc {}", b.word))
        } else {
            None
        }
    };
    let keys = |only: &[Command]| {
        BINDINGS
            .iter()
            .filter(|b| b.command != Command::Why)
            .filter(|b| only.is_empty() || only.contains(&b.command))
            .filter_map(say)
            .collect::<Vec<_>>()
            .join("  ")
    };
    let all = keys(&[]);
    vec![
        format!("{how}   {all}"),
        all,
        keys(&[Command::Hint, Command::Quit]),
        keys(&[Command::Quit]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

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

    #[test]
    fn the_keys_and_ctrl_c() {
        let never = |_| false;
        for (c, command) in [
            ('?', Command::Hint),
            ('w', Command::Why),
            ('W', Command::Why),
            ('v', Command::Drops),
            ('u', Command::Undo),
            ('q', Command::Quit),
            ('Q', Command::Quit),
        ] {
            assert_eq!(input(&key(c), never), Input::Command(command), "{c}");
        }
        assert_eq!(
            input(&press(KeyCode::Esc, KeyModifiers::NONE), never),
            Input::Command(Command::Quit)
        );
        assert_eq!(
            input(&press(KeyCode::Char('c'), KeyModifiers::CONTROL), never),
            Input::Interrupt
        );
        assert_eq!(input(&key('c'), never), Input::Type('c'));
        // A key that continues a name is typed: `u-v` on a graph.
        assert_eq!(input(&key('u'), |c| c == 'u'), Input::Type('u'));
        assert_eq!(input(&Event::FocusGained, never), Input::Redraw);
    }

    #[test]
    fn the_words_are_the_tables() {
        for b in &BINDINGS {
            assert_eq!(command(b.word), Some(b.command.clone()));
            assert_eq!(command(&b.word.to_uppercase()), Some(b.command.clone()));
        }
        assert_eq!(command("?"), Some(Command::Hint));
        assert_eq!(command("exit"), Some(Command::Quit));
        // A line of one key is its command, as `?` is: `q` quits (issue 41); a graph's
        // edge of that name is asked about first (`Command::parse`).
        assert_eq!(command("q"), Some(Command::Quit));
        assert_eq!(command("Q"), Some(Command::Quit));
        assert_eq!(command("u"), Some(Command::Undo));
        assert_eq!(command("c5"), None);
        assert_eq!(Command::parse(" q ", |_| false), Some(Command::Quit));
        assert_eq!(
            Command::parse("u", |w| w == "u"),
            Some(Command::Move("u".to_string()))
        );
    }

    #[test]
    fn the_key_line_gives_way_to_shorter_forms_and_keeps_quit() {
        let forms = key_line("arrows + Enter: play", |_| true);
        assert_eq!(
            forms,
            [
                "arrows + Enter: play   ? hint  v drops  u undo  q quit",
                "? hint  v drops  u undo  q quit",
                "? hint  q quit",
                "q quit",
            ]
        );
        let forms = key_line("play", |c| c != 'q' && c != 'u');
        assert_eq!(forms[1], "? hint  v drops  Esc quit");
        assert_eq!(forms[3], "Esc quit");
    }
}
