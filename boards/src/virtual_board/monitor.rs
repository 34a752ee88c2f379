//! The virtual board's monitor vocabulary (`qRcmd`, gdb's `monitor ...`): the commands its stub
//! serves and the bench sends, and the answer to `leds`.

use core::fmt;
use core::str::FromStr;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

use heuristic::{Move, NotationError, Size};

/// A monitor command of the virtual board.
///
/// ```
/// use boards::virtual_board::Monitor;
/// let wire: Monitor = "wire A1 b2".parse().unwrap();
/// assert_eq!(wire.to_string(), "wire A1 b2");
/// assert_eq!("game 3".parse(), Ok(Monitor::Game(3)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Monitor {
    /// Reset the core (SYSRESETREQ).
    Reset,
    /// Draw the ADC noise of game N, as SIL's `start_game` does.
    Game(u64),
    /// Write which of the ELF's functions ran to the `--coverage` file.
    Coverage,
    /// Wire a cage without fixture by hand: these edges of the M=4 cage cut or shorted, every
    /// other one a resistor (an empty list: the start position).
    Wire(Vec<Move>),
    /// What a person sees lit (answered with a [`Lit`]).
    Leds,
    /// The SRAM's file, for a debugger on this machine to map (answered as gdb-probe's memory
    /// window reads it).
    Window,
    /// One glitch trial (answered with a [`TrialEnd`](super::TrialEnd)).
    Trial(super::Trial),
    /// The commands and what each does.
    Help,
    /// Press the button as a visitor does (held for a debouncer's worth of virtual time from
    /// the next continue): the code a press runs is reached from a debugger.
    Press,
    /// Run until a word differs from its value, or `ms` milliseconds of the host's pass: a
    /// debugger blocks on the board's progress (an RTT offset that moves) instead of polling
    /// it. Answered with a [`Waited`].
    Wait {
        /// The longest wait, in the host's milliseconds.
        ms: u32,
        /// SRAM words (address, value): the wait ends when any holds another value.
        words: Vec<(u32, u32)>,
    },
}

/// One monitor command: its usage, what it does, and how its words are read. [`COMMANDS`]
/// drives both the parse and the help, so a command cannot be taken and left unlisted.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// The command's word, then its arguments (`game N`).
    pub usage: &'static str,
    /// What it does, one line.
    pub what: &'static str,
    /// Reads the words after the command's word.
    read: fn(&[&str]) -> Result<Monitor, MonitorError>,
}

impl Command {
    /// The command's word (`game`).
    pub fn word(&self) -> &'static str {
        self.usage.split(' ').next().unwrap_or(self.usage)
    }
}

/// `command` when no words follow it.
fn bare(command: Monitor, rest: &[&str]) -> Result<Monitor, MonitorError> {
    if rest.is_empty() {
        Ok(command)
    } else {
        Err(unknown(&command.to_string(), rest))
    }
}

/// `word` followed by `rest`, which no command takes.
fn unknown(word: &str, rest: &[&str]) -> MonitorError {
    let mut words = vec![word];
    words.extend_from_slice(rest);
    MonitorError::Unknown(words.join(" "))
}

/// Every monitor command of the virtual board, in the order `help` lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        usage: "help",
        what: "list these commands",
        read: |rest| bare(Monitor::Help, rest),
    },
    Command {
        usage: Monitor::RESET,
        what: "reset the core (SYSRESETREQ)",
        read: |rest| bare(Monitor::Reset, rest),
    },
    Command {
        usage: "press",
        what: "press the button (B1) as a visitor does: held 30 ms of virtual time once the \
               core runs (continue)",
        read: |rest| bare(Monitor::Press, rest),
    },
    Command {
        usage: "game N",
        what: "draw the ADC noise of game N, as SIL's start_game",
        read: |rest| match rest {
            [n] => n
                .parse()
                .map(Monitor::Game)
                .map_err(|_| MonitorError::Game(n.to_string())),
            _ => Err(unknown("game", rest)),
        },
    },
    Command {
        usage: "coverage",
        what: "write which of the ELF's functions ran to the --coverage file",
        read: |rest| bare(Monitor::Coverage, rest),
    },
    Command {
        usage: "wire MOVES",
        what: "wire a cage without fixture by hand (M=4 notation: wire A1 b2)",
        read: |rest| {
            rest.iter()
                .map(|text| {
                    Move::parse(Size::M4, text).map_err(|error| MonitorError::Move {
                        text: text.to_string(),
                        error,
                    })
                })
                .collect::<Result<_, _>>()
                .map(Monitor::Wire)
        },
    },
    Command {
        usage: "leds",
        what: "what a person sees lit: leds 0xRR 0xCC (rows, columns)",
        read: |rest| bare(Monitor::Leds, rest),
    },
    Command {
        usage: Monitor::WINDOW,
        what: "the SRAM's file, for a debugger on this machine to map",
        read: |rest| bare(Monitor::Window, rest),
    },
    Command {
        usage: "trial GAME LIMIT PACE_MS [KIND AT PICK]",
        what: "a visitor's game from power-on, glitched (skip, register, sram, adc, fpu, kept) at \
               instruction AT (kept: microsecond AT of the visit)",
        read: |rest| Ok(Monitor::Trial(super::glitch::trial(rest)?)),
    },
    Command {
        usage: "wait MS ADDR=VALUE...",
        what: "run until an SRAM word differs from its value or MS ms pass: moved, timed out \
               or halted",
        read: |rest| match rest {
            [ms, words @ ..] => wait(ms, words).ok_or_else(|| MonitorError::Wait(rest.join(" "))),
            [] => Err(MonitorError::Wait(String::new())),
        },
    },
];

impl Monitor {
    /// [`Monitor::Reset`]'s word, for a stub's quirks (a `&'static str`).
    pub const RESET: &'static str = "reset";
    /// [`Monitor::Window`]'s word, for a stub's quirks.
    pub const WINDOW: &'static str = "window";
}

/// A monitor command the board does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MonitorError {
    /// No word at all.
    #[error("no command")]
    Empty,
    /// A word, or a number of words, no command has.
    #[error("unknown command: {0}")]
    Unknown(String),
    /// `game` with no game number.
    #[error("game: {0} is not a game number")]
    Game(String),
    /// `wait` with words that are not a time and SRAM words.
    #[error("wait: {0:?} is not MS ADDR=VALUE... (hexadecimal words, 0x...)")]
    Wait(String),
    /// `trial` with words that are not a trial.
    #[error(transparent)]
    Trial(#[from] super::TrialError),
    /// `wire` with a word that is not a move on the M=4 cage.
    #[error("wire: {text:?} is not an edge of the M=4 cage: {error}")]
    Move {
        /// The word.
        text: String,
        /// Why.
        error: NotationError,
    },
}

impl fmt::Display for Monitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Monitor::Reset => f.write_str(Monitor::RESET),
            Monitor::Game(n) => write!(f, "game {n}"),
            Monitor::Coverage => f.write_str("coverage"),
            Monitor::Wire(moves) => {
                f.write_str("wire")?;
                moves.iter().try_for_each(|mv| write!(f, " {mv}"))
            }
            Monitor::Leds => f.write_str("leds"),
            Monitor::Window => f.write_str(Monitor::WINDOW),
            Monitor::Trial(trial) => write!(f, "{trial}"),
            Monitor::Help => f.write_str("help"),
            Monitor::Press => f.write_str("press"),
            Monitor::Wait { ms, words } => {
                write!(f, "wait {ms}")?;
                words
                    .iter()
                    .try_for_each(|(addr, value)| write!(f, " {addr:#x}={value:#x}"))
            }
        }
    }
}

impl FromStr for Monitor {
    type Err = MonitorError;

    fn from_str(s: &str) -> Result<Self, MonitorError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let [word, rest @ ..] = words.as_slice() else {
            return Err(MonitorError::Empty);
        };
        match COMMANDS.iter().find(|c| c.word() == *word) {
            Some(command) => (command.read)(rest),
            None => Err(MonitorError::Unknown(words.join(" "))),
        }
    }
}

/// `wait MS ADDR=VALUE...`'s words, if they are that.
fn wait(ms: &str, words: &[&str]) -> Option<Monitor> {
    let hex = |w: &str| u32::from_str_radix(w.strip_prefix("0x")?, 16).ok();
    let words = words
        .iter()
        .map(|w| {
            let (addr, value) = w.split_once('=')?;
            Some((hex(addr)?, hex(value)?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Monitor::Wait {
        ms: ms.parse().ok()?,
        words,
    })
}

/// How a [`Monitor::Wait`] ended: a word moved, the time passed, or the core halted on the
/// way (a breakpoint, WFI; the debugger is told as of a running core). A core not running
/// does not move: the wait ends at once, `halted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waited {
    /// A word holds another value.
    Moved,
    /// The time passed first.
    TimedOut,
    /// The core is halted.
    Halted,
}

impl Waited {
    /// The answer's words, each variant's.
    const WORDS: [(Waited, &'static str); 3] = [
        (Waited::Moved, "moved"),
        (Waited::TimedOut, "timed out"),
        (Waited::Halted, "halted"),
    ];
}

impl fmt::Display for Waited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = Waited::WORDS
            .iter()
            .find(|(w, _)| w == self)
            .map_or("", |(_, word)| word);
        f.write_str(word)
    }
}

impl FromStr for Waited {
    type Err = MonitorError;

    fn from_str(s: &str) -> Result<Self, MonitorError> {
        Waited::WORDS
            .iter()
            .find(|(_, word)| *word == s.trim())
            .map(|(w, _)| *w)
            .ok_or_else(|| MonitorError::Unknown(s.trim().to_string()))
    }
}

/// What a person at the board sees lit, the answer to [`Monitor::Leds`]: `leds 0xRR 0xCC`,
/// one bit a row LED (bit 0 row 1) and one a column LED (bit 0 column A).
///
/// ```
/// use boards::virtual_board::Lit;
/// let lit = Lit { rows: 0x41, columns: 0x02 };
/// assert_eq!(lit.to_string(), "leds 0x41 0x02");
/// assert_eq!("leds 0x41 0x02\n".parse(), Ok(lit));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    /// The row LEDs lit.
    pub rows: u8,
    /// The column LEDs lit.
    pub columns: u8,
}

/// An answer to `leds` that is not `leds 0xRR 0xCC`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the board answered `leds` with {0:?}")]
pub struct LitError(pub String);

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "leds {:#04x} {:#04x}", self.rows, self.columns)
    }
}

impl FromStr for Lit {
    type Err = LitError;

    fn from_str(s: &str) -> Result<Self, LitError> {
        let byte = |w: &str| u8::from_str_radix(w.strip_prefix("0x")?, 16).ok();
        let words: Vec<&str> = s.split_whitespace().collect();
        let lit = match words.as_slice() {
            ["leds", rows, columns] => byte(rows).zip(byte(columns)),
            _ => None,
        };
        lit.map(|(rows, columns)| Lit { rows, columns })
            .ok_or_else(|| LitError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heuristic::Side;
    use proptest::prelude::*;
    use std::{format, vec};

    fn moves() -> impl Strategy<Value = Vec<Move>> {
        let edges: Vec<_> = Size::M4.edges().collect();
        proptest::collection::vec(
            (proptest::sample::select(edges), any::<bool>()).prop_map(|(edge, cut)| Move {
                side: if cut { Side::Cut } else { Side::Short },
                edge,
            }),
            0..25,
        )
    }

    fn command() -> impl Strategy<Value = Monitor> {
        prop_oneof![
            Just(Monitor::Reset),
            any::<u64>().prop_map(Monitor::Game),
            Just(Monitor::Coverage),
            moves().prop_map(Monitor::Wire),
            Just(Monitor::Leds),
            Just(Monitor::Window),
            Just(Monitor::Help),
            Just(Monitor::Press),
            (
                any::<u32>(),
                proptest::collection::vec(any::<(u32, u32)>(), 0..4)
            )
                .prop_map(|(ms, words)| Monitor::Wait { ms, words }),
            (
                any::<u64>(),
                any::<u64>(),
                any::<u64>(),
                proptest::option::of((
                    0..super::super::GlitchKind::ALL.len(),
                    any::<u64>(),
                    any::<u32>()
                ))
            )
                .prop_map(|(game, limit, pace_ms, glitch)| Monitor::Trial(
                    super::super::Trial {
                        game,
                        limit,
                        pace_ms,
                        glitch: glitch.map(|(k, at, pick)| super::super::Glitch {
                            kind: super::super::GlitchKind::ALL[k],
                            at,
                            pick,
                        }),
                    }
                )),
        ]
    }

    proptest! {
        #[test]
        fn every_command_reads_back_as_written(command in command()) {
            prop_assert_eq!(command.to_string().parse::<Monitor>(), Ok(command));
        }

        #[test]
        fn every_lit_reads_back_as_written(rows: u8, columns: u8) {
            let lit = Lit { rows, columns };
            prop_assert_eq!(lit.to_string().parse::<Lit>(), Ok(lit));
        }
    }

    #[test]
    fn every_wait_answer_reads_back_and_a_stray_one_is_refused() {
        for (waited, word) in Waited::WORDS {
            assert_eq!(waited.to_string(), word);
            assert_eq!(format!("{word}\n").parse::<Waited>(), Ok(waited));
        }
        assert!("moving".parse::<Waited>().is_err());
        assert_eq!(
            "wait 20 0x20000010=0x3".parse(),
            Ok(Monitor::Wait {
                ms: 20,
                words: vec![(0x2000_0010, 3)]
            })
        );
    }

    #[test]
    fn every_command_is_listed_once_and_help_and_press_are_commands() {
        let words: Vec<&str> = COMMANDS.iter().map(Command::word).collect();
        assert_eq!(
            words,
            [
                "help", "reset", "press", "game", "coverage", "wire", "leds", "window", "trial",
                "wait"
            ]
        );
        // Before issue 52 `help` was an unknown word and no command pressed the button.
        assert_eq!("help".parse(), Ok(Monitor::Help));
        assert_eq!("press".parse(), Ok(Monitor::Press));
        assert_eq!(
            "press twice".parse::<Monitor>(),
            Err(MonitorError::Unknown("press twice".into()))
        );
    }

    /// `help`'s line for `trial` is literal text (a `&'static str`): it names the glitch
    /// kinds of [`GlitchKind::ALL`](super::super::GlitchKind::ALL), all and in order.
    #[test]
    fn the_trial_help_names_every_glitch_kind() {
        let trial = COMMANDS.iter().find(|c| c.word() == "trial").unwrap();
        let listed = format!("({})", crate::Listed(super::super::GlitchKind::ALL, ", "));
        assert!(
            trial.what.contains(&listed),
            "monitor help's trial line does not list GlitchKind::ALL {listed}: {}",
            trial.what
        );
    }

    #[test]
    fn an_error_names_what_is_wrong() {
        let said = |s: &str| s.parse::<Monitor>().unwrap_err().to_string();
        assert_eq!(said(""), "no command");
        assert_eq!(said("reset now"), "unknown command: reset now");
        assert_eq!(said("game x"), "game: x is not a game number");
        assert_eq!(
            said("wire A1 Z9"),
            "wire: \"Z9\" is not an edge of the M=4 cage: Z9 is off the M=4 board (columns \
             A..G, rows 1..7)"
        );
        assert_eq!(
            said("wait 5 0x20000010=3"),
            "wait: \"5 0x20000010=3\" is not MS ADDR=VALUE... (hexadecimal words, 0x...)"
        );
        assert_eq!(
            said("wait soon"),
            "wait: \"soon\" is not MS ADDR=VALUE... (hexadecimal words, 0x...)"
        );
        assert_eq!(
            "leds 1 2".parse::<Lit>().unwrap_err().to_string(),
            "the board answered `leds` with \"leds 1 2\""
        );
    }
}
