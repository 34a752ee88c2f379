//! A glitch trial, in the words the bench sends (`monitor trial ...`) and the board answers
//! (`trial END ...`): one fault injected at one instant of one visitor's game on the virtual
//! board, and how that game ended. The bench draws the trials and classifies them; the board
//! injects and plays.

use core::fmt;
use core::str::FromStr;
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

/// What a glitch does, at its instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GlitchKind {
    /// The instruction at the instant is not executed (a clock or voltage glitch).
    Skip,
    /// One bit of one core register (r0-r12, SP, LR, PC) flips.
    Register,
    /// One bit of one byte of the SRAM in use (the statics, or the stack above SP) flips.
    Sram,
    /// The first ADC conversion after the instant has one bit of its 12 flipped.
    Adc,
    /// One bit of one byte of the SRAM in use flips while the machine waits for the visitor's
    /// next press after the instant: the state it keeps between presses (the main loop's
    /// frame, which holds the game, the tracker, the thresholds and the settings, and the
    /// statics), where an upset that strikes at any moment of a visitor's seconds-long turn
    /// lands, rather than at an instant of the machine's milliseconds of work.
    Kept,
}

impl GlitchKind {
    /// Every kind, in the tables' order.
    pub const ALL: [GlitchKind; 5] = [
        GlitchKind::Skip,
        GlitchKind::Register,
        GlitchKind::Sram,
        GlitchKind::Adc,
        GlitchKind::Kept,
    ];

    /// The kinds a campaign draws in turn unless told (the four a glitch makes at its
    /// instant; their draws are those of the campaigns before [`GlitchKind::Kept`]).
    pub const AT_THE_INSTANT: [GlitchKind; 4] = [
        GlitchKind::Skip,
        GlitchKind::Register,
        GlitchKind::Sram,
        GlitchKind::Adc,
    ];

    /// Its word.
    pub fn word(self) -> &'static str {
        match self {
            GlitchKind::Skip => "skip",
            GlitchKind::Register => "register",
            GlitchKind::Sram => "sram",
            GlitchKind::Adc => "adc",
            GlitchKind::Kept => "kept",
        }
    }
}

impl fmt::Display for GlitchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for GlitchKind {
    type Err = TrialError;

    fn from_str(s: &str) -> Result<Self, TrialError> {
        GlitchKind::ALL
            .into_iter()
            .find(|k| k.word() == s)
            .ok_or_else(|| TrialError::Kind(s.to_string()))
    }
}

/// One glitch: its kind, its instant (instructions since the trial's reset) and `pick`, a
/// drawn word the board maps to the register and bit, the byte and bit, or the ADC bit
/// (the board says which in [`TrialEnd`]'s target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glitch {
    /// What it does.
    pub kind: GlitchKind,
    /// When: the instructions executed since the trial's reset before it.
    pub at: u64,
    /// Which register or byte, and which bit.
    pub pick: u32,
}

/// One trial: game `game`'s noise (as `monitor game`), a visitor's game from a power-on,
/// stopped as a hang after `limit` instructions, with `glitch` or intact.
///
/// ```
/// use boards::virtual_board::{Glitch, GlitchKind, Monitor, Trial};
/// let t = Trial { game: 0, limit: 9_000_000, glitch: Some(Glitch { kind: GlitchKind::Skip, at: 1234, pick: 7 }) };
/// assert_eq!(Monitor::Trial(t).to_string(), "trial 0 9000000 skip 1234 7");
/// assert_eq!("trial 0 9000000 skip 1234 7".parse(), Ok(Monitor::Trial(t)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trial {
    /// The game's noise stream.
    pub game: u64,
    /// The most instructions the game may take before it counts as a hang.
    pub limit: u64,
    /// The fault, or none (the intact run).
    pub glitch: Option<Glitch>,
}

impl fmt::Display for Trial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trial {} {}", self.game, self.limit)?;
        if let Some(g) = self.glitch {
            write!(f, " {} {} {}", g.kind, g.at, g.pick)?;
        }
        Ok(())
    }
}

/// A `trial` command, or its answer, that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrialError {
    /// Not a glitch kind.
    #[error("{0:?} is not a glitch kind (skip, register, sram, adc or kept)")]
    Kind(String),
    /// A number that is not one.
    #[error("trial: {0:?} is not a whole number")]
    Number(String),
    /// Words in the wrong number.
    #[error("trial: give GAME LIMIT [KIND AT PICK], not {0:?}")]
    Shape(String),
    /// An answer that is not `trial END ...`.
    #[error("the board answered a trial with {0:?}")]
    Answer(String),
}

fn number<T: FromStr>(word: &str) -> Result<T, TrialError> {
    word.parse()
        .map_err(|_| TrialError::Number(word.to_string()))
}

/// Reads the words after `trial`.
pub(super) fn trial(words: &[&str]) -> Result<Trial, TrialError> {
    let (game, limit, glitch) = match words {
        [game, limit] => (game, limit, None),
        [game, limit, kind, at, pick] => (
            game,
            limit,
            Some(Glitch {
                kind: kind.parse()?,
                at: number(at)?,
                pick: number(pick)?,
            }),
        ),
        _ => return Err(TrialError::Shape(words.join(" "))),
    };
    Ok(Trial {
        game: number(game)?,
        limit: number(limit)?,
        glitch,
    })
}

/// How a trial's game ended, as the board saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// The LEDs lit a verdict (the record says the moves).
    Verdict,
    /// The firmware lit its fault pattern (its self-check).
    SelfCheck,
    /// The LEDs showed neither a move, nor a verdict, nor nothing (the visitor's check).
    Trouble,
    /// The firmware panicked (panic-probe's `udf`).
    Panic,
    /// The watchdog reset the chip during the game.
    Watchdog,
    /// The core stopped: an access to nothing mapped, an undefined instruction, a chip rule
    /// broken (a real chip takes a HardFault, and the watchdog then resets it).
    CoreFault,
    /// No verdict within the trial's limit, or nothing lit after a press.
    Hang,
}

impl End {
    const WORDS: [(End, &'static str); 7] = [
        (End::Verdict, "verdict"),
        (End::SelfCheck, "self-check"),
        (End::Trouble, "trouble"),
        (End::Panic, "panic"),
        (End::Watchdog, "watchdog"),
        (End::CoreFault, "core-fault"),
        (End::Hang, "hang"),
    ];

    /// Its word.
    pub fn word(self) -> &'static str {
        End::WORDS
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("?", |(_, w)| w)
    }
}

/// The board's answer to a trial: `trial END INSTRUCTIONS WINNER RECORD TARGET PC FUNCTION`,
/// `-` for what is not known (the function last: a Rust path may hold spaces).
///
/// ```
/// use boards::virtual_board::{End, TrialEnd};
/// let end: TrialEnd = "trial verdict 5000 cut A7,c5 r3:bit7 0x08001234 firmware::tracker::observe".parse().unwrap();
/// assert_eq!(end.end, End::Verdict);
/// assert_eq!(end.function.as_deref(), Some("firmware::tracker::observe"));
/// assert_eq!(end.to_string().parse(), Ok(end));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrialEnd {
    /// How the game ended.
    pub end: End,
    /// Instructions the game took (from the trial's reset to its end).
    pub instructions: u64,
    /// Whether the LEDs named Cut (`cut`) or Short (`short`) the winner.
    pub winner: Option<heuristic::Side>,
    /// The moves made on the cage, Cut first (`A7,c5,...`).
    pub record: String,
    /// What the glitch hit (`r3:bit7`, `0x20000104:bit2`, `adc:bit11`, `skip:ldr.w`), if it
    /// fired.
    pub target: Option<String>,
    /// The PC at the instant, if it fired.
    pub pc: Option<u32>,
    /// The function the PC was in (from the ELF's symbols).
    pub function: Option<String>,
}

impl fmt::Display for TrialEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or = |s: Option<&str>| s.filter(|s| !s.is_empty()).unwrap_or("-").to_string();
        let winner = match self.winner {
            Some(heuristic::Side::Cut) => "cut",
            Some(heuristic::Side::Short) => "short",
            None => "-",
        };
        write!(
            f,
            "trial {} {} {winner} {} {} {} {}",
            self.end.word(),
            self.instructions,
            or(Some(&self.record)),
            or(self.target.as_deref()),
            self.pc.map_or("-".to_string(), |pc| format!("{pc:#010x}")),
            or(self.function.as_deref()),
        )
    }
}

impl FromStr for TrialEnd {
    type Err = TrialError;

    fn from_str(s: &str) -> Result<Self, TrialError> {
        let bad = || TrialError::Answer(s.to_string());
        let words: Vec<&str> = s.trim().splitn(8, ' ').collect();
        let [
            "trial",
            end,
            instructions,
            winner,
            record,
            target,
            pc,
            function,
        ] = words.as_slice()
        else {
            return Err(bad());
        };
        let known = |w: &str| (w != "-").then(|| w.to_string());
        Ok(TrialEnd {
            end: End::WORDS
                .iter()
                .find(|(_, w)| w == end)
                .map(|(e, _)| *e)
                .ok_or_else(bad)?,
            instructions: instructions.parse().map_err(|_| bad())?,
            winner: match *winner {
                "cut" => Some(heuristic::Side::Cut),
                "short" => Some(heuristic::Side::Short),
                "-" => None,
                _ => return Err(bad()),
            },
            record: known(record).unwrap_or_default(),
            target: known(target),
            pc: match known(pc) {
                Some(pc) => {
                    Some(u32::from_str_radix(pc.trim_start_matches("0x"), 16).map_err(|_| bad())?)
                }
                None => None,
            },
            function: known(function),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_intact_trial_and_a_bad_one_read_as_meant() {
        assert_eq!(
            trial(&["3", "100"]),
            Ok(Trial {
                game: 3,
                limit: 100,
                glitch: None
            })
        );
        assert_eq!(
            trial(&["3", "100", "zap", "1", "2"])
                .unwrap_err()
                .to_string(),
            "\"zap\" is not a glitch kind (skip, register, sram, adc or kept)"
        );
        assert_eq!(
            trial(&["3"]).unwrap_err().to_string(),
            "trial: give GAME LIMIT [KIND AT PICK], not \"3\""
        );
        assert!("trial what".parse::<TrialEnd>().is_err());
    }

    #[test]
    fn an_answer_without_a_glitch_reads_back() {
        let end = TrialEnd {
            end: End::Hang,
            instructions: 7,
            winner: None,
            record: String::new(),
            target: None,
            pc: None,
            function: None,
        };
        assert_eq!(end.to_string(), "trial hang 7 - - - - -");
        assert_eq!(end.to_string().parse(), Ok(end));
    }
}
