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
    /// One bit of one core register (r0-r12, SP, LR, PC) flips, or one of xPSR's flags (N,
    /// Z, C, V, Q, GE0-GE3).
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
    /// One bit of one floating-point register (s0-s31) or of FPSCR flips: the self-check's
    /// solver and the thresholds work in floats.
    Fpu,
}

impl GlitchKind {
    /// Every kind, in the tables' order.
    pub const ALL: [GlitchKind; 6] = [
        GlitchKind::Skip,
        GlitchKind::Register,
        GlitchKind::Sram,
        GlitchKind::Adc,
        GlitchKind::Fpu,
        GlitchKind::Kept,
    ];

    /// The kinds a campaign draws in turn unless told: the five a glitch makes at its
    /// instant.
    pub const AT_THE_INSTANT: [GlitchKind; 5] = [
        GlitchKind::Skip,
        GlitchKind::Register,
        GlitchKind::Sram,
        GlitchKind::Adc,
        GlitchKind::Fpu,
    ];

    /// Whether its instant is on the visitor's clock (a moment of the whole visit, the
    /// visitor's turns included, in microseconds) rather than the core's (an instruction
    /// count): an upset of the state kept between presses strikes at any moment of the
    /// visit, a glitch of the machine's work at an instant of that work.
    pub fn on_the_visitors_clock(self) -> bool {
        self == GlitchKind::Kept
    }

    /// Its word.
    pub fn word(self) -> &'static str {
        match self {
            GlitchKind::Skip => "skip",
            GlitchKind::Register => "register",
            GlitchKind::Sram => "sram",
            GlitchKind::Adc => "adc",
            GlitchKind::Kept => "kept",
            GlitchKind::Fpu => "fpu",
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

/// One glitch: its kind, its instant (instructions since the trial's reset, or microseconds
/// of the visit for a kind [on the visitor's clock](GlitchKind::on_the_visitors_clock)) and `pick`, a
/// drawn word the board maps to the register and bit, the byte and bit, or the ADC bit
/// (the board says which in [`TrialEnd`]'s target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glitch {
    /// What it does.
    pub kind: GlitchKind,
    /// When: the instructions executed since the trial's reset before it, or the
    /// microseconds of the visit since power-on on the visitor's clock.
    pub at: u64,
    /// Which register or byte, and which bit.
    pub pick: u32,
}

/// One trial: game `game`'s noise (as `monitor game`), a visitor's game from a power-on
/// at `pace_ms` a turn (the visitor's time between the machine's move and the next press),
/// ended after `limit` instructions, with `glitch` or intact.
///
/// ```
/// use boards::virtual_board::{Glitch, GlitchKind, Monitor, Trial};
/// let t = Trial { game: 0, limit: 9_000_000, pace_ms: 5000, glitch: Some(Glitch { kind: GlitchKind::Skip, at: 1234, pick: 7 }) };
/// assert_eq!(Monitor::Trial(t).to_string(), "trial 0 9000000 5000 skip 1234 7");
/// assert_eq!("trial 0 9000000 5000 skip 1234 7".parse(), Ok(Monitor::Trial(t)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trial {
    /// The game's noise stream.
    pub game: u64,
    /// The most instructions the game may take before it is ended as stopped or slow.
    pub limit: u64,
    /// The visitor's turn, in milliseconds: the wait between the LEDs showing the machine's
    /// move (or lighting at power-on) and the next press, on the visitor's clock.
    pub pace_ms: u64,
    /// The fault, or none (the intact run).
    pub glitch: Option<Glitch>,
}

impl fmt::Display for Trial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trial {} {} {}", self.game, self.limit, self.pace_ms)?;
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
    #[error("{0:?} is not a glitch kind ({kinds})", kinds = crate::Listed(GlitchKind::ALL, " or "))]
    Kind(String),
    /// A number that is not one.
    #[error("trial: {0:?} is not a whole number")]
    Number(String),
    /// Words in the wrong number.
    #[error("trial: give GAME LIMIT PACE_MS [KIND AT PICK], not {0:?}")]
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
    let (game, limit, pace, glitch) = match words {
        [game, limit, pace] => (game, limit, pace, None),
        [game, limit, pace, kind, at, pick] => (
            game,
            limit,
            pace,
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
        pace_ms: number(pace)?,
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
    /// No verdict within the limit (or nothing lit after a press), and the watchdog not fed
    /// within its period (or never started): the machine made no progress and nothing reset
    /// it.
    Stopped,
    /// No verdict within the limit (or nothing lit after a press), the core still running
    /// and feeding its watchdog.
    Slow,
}

impl End {
    /// Every end and its word in a trial's answer, in the order READMEs list them.
    pub const WORDS: [(End, &'static str); 8] = [
        (End::Verdict, "verdict"),
        (End::SelfCheck, "self-check"),
        (End::Trouble, "trouble"),
        (End::Panic, "panic"),
        (End::Watchdog, "watchdog"),
        (End::CoreFault, "core-fault"),
        (End::Stopped, "stopped"),
        (End::Slow, "slow"),
    ];

    /// Its word.
    pub fn word(self) -> &'static str {
        End::WORDS
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("?", |(_, w)| w)
    }

    /// Whether the machine (or the visitor, reading its LEDs) noticed something wrong:
    /// its fault pattern, LEDs that are no move, a panic, the watchdog, a core fault.
    pub fn noticed(self) -> bool {
        matches!(
            self,
            End::SelfCheck | End::Trouble | End::Panic | End::Watchdog | End::CoreFault
        )
    }
}

/// What the LEDs showed after one press, as the visitor reads them.
///
/// ```
/// use boards::virtual_board::Shown;
/// for word in ["A1", "cut-won", "short-won", "fault", "lit:1357:ABCDEFG", "lit:-:C", "dark"] {
///     assert_eq!(word.parse::<Shown>().unwrap().to_string(), word);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shown {
    /// One row and one column that are an edge of the cage: the machine's cut.
    Move(heuristic::Edge),
    /// A verdict: the winner.
    Won(heuristic::Side),
    /// The machine's fault pattern.
    Fault,
    /// Any other lit pattern (`lit:ROWS:COLUMNS`, rows as digits from 1, columns as letters
    /// from A, `-` for none): no move, no verdict, not the fault pattern, so the visitor
    /// cannot read it as the machine's (or, one row and one column off the cage, reads a cut
    /// that cannot be made).
    Lit {
        /// The rows lit, row 1 in bit 0.
        rows: u8,
        /// The columns lit, column A in bit 0.
        columns: u8,
    },
    /// Nothing lit.
    Dark,
}

impl Shown {
    /// The patterns written as a fixed word (the others: an edge, or `lit:ROWS:COLUMNS`), the
    /// one table its text and its parser read.
    pub const NAMED: [(Shown, &'static str); 4] = [
        (Shown::Won(heuristic::Side::Cut), "cut-won"),
        (Shown::Won(heuristic::Side::Short), "short-won"),
        (Shown::Fault, "fault"),
        (Shown::Dark, "dark"),
    ];

    /// Whether the visitor reads it as a move or a verdict, right or wrong: a cut, a verdict,
    /// or one row and one column that are no edge of the cage (a cut that cannot be made).
    pub fn reads_as_a_move_or_verdict(self) -> bool {
        match self {
            Shown::Move(_) | Shown::Won(_) => true,
            Shown::Lit { rows, columns } => rows.count_ones() == 1 && columns.count_ones() == 1,
            Shown::Fault | Shown::Dark => false,
        }
    }

    /// Whether it is a lit pattern that is neither a move, a verdict nor the fault pattern,
    /// and not one row and one column: LEDs the visitor sees are wrong, and no machine's
    /// check said so.
    pub fn is_garbled(self) -> bool {
        matches!(self, Shown::Lit { .. }) && !self.reads_as_a_move_or_verdict()
    }
}

/// `bits` as `first`, the next letter or digit, ... for each bit set (bit 0 first); `-` for
/// none.
fn lit_word(bits: u8, first: u8) -> String {
    let word: String = (0..8u8)
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| (first + i) as char)
        .collect();
    if word.is_empty() {
        "-".to_string()
    } else {
        word
    }
}

/// The bits a [`lit_word`] names, if it names some in order.
fn lit_bits(word: &str, first: u8) -> Option<u8> {
    if word == "-" {
        return Some(0);
    }
    let mut bits = 0u8;
    let mut last = None;
    for c in word.bytes() {
        let i = c.checked_sub(first).filter(|&i| i < 8)?;
        if last.is_some_and(|l| l >= i) {
            return None;
        }
        last = Some(i);
        bits |= 1 << i;
    }
    (bits != 0).then_some(bits)
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::Move(edge) => write!(f, "{edge}"),
            Shown::Lit { rows, columns } => {
                write!(
                    f,
                    "lit:{}:{}",
                    lit_word(*rows, b'1'),
                    lit_word(*columns, b'A')
                )
            }
            named => f.write_str(
                Shown::NAMED
                    .iter()
                    .find(|(shown, _)| shown == named)
                    .map_or("?", |(_, word)| word),
            ),
        }
    }
}

impl FromStr for Shown {
    type Err = TrialError;

    fn from_str(s: &str) -> Result<Self, TrialError> {
        let bad = || TrialError::Answer(s.to_string());
        if let Some((shown, _)) = Shown::NAMED.iter().find(|(_, word)| *word == s) {
            return Ok(*shown);
        }
        if let Some(lit) = s.strip_prefix("lit:") {
            let (rows, columns) = lit.split_once(':').ok_or_else(bad)?;
            let rows = lit_bits(rows, b'1').ok_or_else(bad)?;
            let columns = lit_bits(columns, b'A').ok_or_else(bad)?;
            if rows | columns == 0 {
                return Err(bad());
            }
            return Ok(Shown::Lit { rows, columns });
        }
        match heuristic::Move::parse(heuristic::Size::MAX, s) {
            Ok(mv) if mv.side == heuristic::Side::Cut => Ok(Shown::Move(mv.edge)),
            _ => Err(bad()),
        }
    }
}

/// One press the visitor made, and whether the firmware took it (ran its button handler).
///
/// ```
/// use boards::virtual_board::{Press, Shown};
/// for word in ["A1", "missed", "untaken:fault", "lit:-:C"] {
///     assert_eq!(word.parse::<Press>().unwrap().to_string(), word);
/// }
/// assert_eq!("missed".parse::<Press>().unwrap().seen(), None);
/// assert_eq!("untaken:dark".parse::<Press>().unwrap().seen(), Some(Shown::Dark));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Press {
    /// The firmware took it, and then the LEDs showed this (the word alone: `A1`), the same
    /// as before the press or not: a cut shown again is a move shown.
    Taken(Shown),
    /// The handler did not run and the LEDs stayed as they were (`missed`): nothing happened,
    /// and the visitor presses again.
    Missed,
    /// The handler did not run, yet the LEDs changed to this (`untaken:A1`): the visitor
    /// reads it as after any press.
    Untaken(Shown),
}

impl Press {
    /// What the visitor read off this press and acted on; none for a missed press.
    pub fn seen(self) -> Option<Shown> {
        match self {
            Press::Taken(shown) | Press::Untaken(shown) => Some(shown),
            Press::Missed => None,
        }
    }
}

impl fmt::Display for Press {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Press::Taken(shown) => write!(f, "{shown}"),
            Press::Missed => f.write_str("missed"),
            Press::Untaken(shown) => write!(f, "untaken:{shown}"),
        }
    }
}

impl FromStr for Press {
    type Err = TrialError;

    fn from_str(s: &str) -> Result<Self, TrialError> {
        Ok(match s {
            "missed" => Press::Missed,
            _ => match s.strip_prefix("untaken:") {
                Some(shown) => Press::Untaken(shown.parse()?),
                None => Press::Taken(s.parse()?),
            },
        })
    }
}

/// The board's answer to a trial: `trial END INSTRUCTIONS VISIT_US WINNER RECORD SHOWN STRUCK
/// TARGET PC FUNCTION`, `-` for what is not known (the function last: a Rust path may hold
/// spaces). SHOWN is each press the visitor made ([`Press`]), joined by commas.
///
/// ```
/// use boards::virtual_board::{End, Press, Shown, TrialEnd};
/// let end: TrialEnd = "trial verdict 5000 15000000 cut A7,c5 A7,missed,cut-won 2 r3:bit7 0x08001234 firmware::tracker::observe".parse().unwrap();
/// assert_eq!(end.end, End::Verdict);
/// assert_eq!(end.presses[1], Press::Missed);
/// assert_eq!(end.seen(), ["A7".parse::<Shown>().unwrap(), Shown::Won(heuristic::Side::Cut)]);
/// assert_eq!(end.struck, Some(2));
/// assert_eq!(end.function.as_deref(), Some("firmware::tracker::observe"));
/// assert_eq!(end.to_string().parse(), Ok(end));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrialEnd {
    /// How the game ended.
    pub end: End,
    /// Instructions the game took (from the trial's reset to its end).
    pub instructions: u64,
    /// The visit's length on the visitor's clock, in microseconds: the machine's time from
    /// power-on to its end and the visitor's turns (one per press made).
    pub visit_us: u64,
    /// Whether the LEDs named Cut (`cut`) or Short (`short`) the winner.
    pub winner: Option<heuristic::Side>,
    /// The moves made on the cage, Cut first (`A7,c5,...`).
    pub record: String,
    /// Each press the visitor made, in order: taken or not, and what the LEDs showed.
    pub presses: Vec<Press>,
    /// The press the glitch struck before (1: before the first press, during power-on or
    /// the visitor's first turn), if it fired.
    pub struck: Option<u32>,
    /// What the glitch hit (`r3:bit7`, `0x20000104:bit2`, `adc:bit11`, `skip:ldr.w`), if it
    /// fired.
    pub target: Option<String>,
    /// The PC at the instant, if it fired.
    pub pc: Option<u32>,
    /// The function the PC was in (from the ELF's symbols).
    pub function: Option<String>,
}

impl TrialEnd {
    /// What the visitor read off the LEDs, press by press, the missed presses (pressed
    /// again) left out: the n-th is the n-th press of the intact game's.
    pub fn seen(&self) -> Vec<Shown> {
        self.presses.iter().filter_map(|p| p.seen()).collect()
    }
}

impl fmt::Display for TrialEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or = |s: Option<&str>| s.filter(|s| !s.is_empty()).unwrap_or("-").to_string();
        let winner = match self.winner {
            Some(heuristic::Side::Cut) => "cut",
            Some(heuristic::Side::Short) => "short",
            None => "-",
        };
        let shown: Vec<String> = self.presses.iter().map(ToString::to_string).collect();
        write!(
            f,
            "trial {} {} {} {winner} {} {} {} {} {} {}",
            self.end.word(),
            self.instructions,
            self.visit_us,
            or(Some(&self.record)),
            or(Some(&shown.join(","))),
            self.struck.map_or("-".to_string(), |p| p.to_string()),
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
        let words: Vec<&str> = s.trim().splitn(11, ' ').collect();
        let [
            "trial",
            end,
            instructions,
            visit_us,
            winner,
            record,
            shown,
            struck,
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
            visit_us: visit_us.parse().map_err(|_| bad())?,
            winner: match *winner {
                "cut" => Some(heuristic::Side::Cut),
                "short" => Some(heuristic::Side::Short),
                "-" => None,
                _ => return Err(bad()),
            },
            record: known(record).unwrap_or_default(),
            presses: match known(shown) {
                Some(list) => list
                    .split(',')
                    .map(|w| w.parse().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
            struck: match known(struck) {
                Some(p) => Some(p.parse().map_err(|_| bad())?),
                None => None,
            },
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
            trial(&["3", "100", "5000"]),
            Ok(Trial {
                game: 3,
                limit: 100,
                pace_ms: 5000,
                glitch: None
            })
        );
        assert_eq!(
            trial(&["3", "100", "5000", "zap", "1", "2"])
                .unwrap_err()
                .to_string(),
            "\"zap\" is not a glitch kind (skip, register, sram, adc, fpu or kept)"
        );
        assert_eq!(
            trial(&["3"]).unwrap_err().to_string(),
            "trial: give GAME LIMIT PACE_MS [KIND AT PICK], not \"3\""
        );
        assert!("trial what".parse::<TrialEnd>().is_err());
    }

    #[test]
    fn every_pattern_and_press_reads_back_and_bad_words_are_refused() {
        for rows in 0..=0x7fu8 {
            for columns in [0u8, 1, 0b101_0101, 0x7f] {
                if rows | columns == 0 {
                    continue;
                }
                let lit = Shown::Lit { rows, columns };
                assert_eq!(lit.to_string().parse(), Ok(lit));
                for press in [Press::Taken(lit), Press::Untaken(lit), Press::Missed] {
                    assert_eq!(press.to_string().parse(), Ok(press));
                }
            }
        }
        // Written by hand: what a visitor reads off each.
        let lit = |rows, columns| Shown::Lit { rows, columns };
        assert_eq!(lit(0b101, 0b10).to_string(), "lit:13:B");
        assert!(lit(1, 2).reads_as_a_move_or_verdict() && !lit(1, 2).is_garbled());
        assert!(lit(0x7f, 0x7f).is_garbled() && lit(0, 4).is_garbled());
        assert!(!Shown::Fault.is_garbled() && !Shown::Dark.is_garbled());
        for bad in [
            "lit:-:-",
            "lit:31:A",
            "lit:1:AA",
            "lit:9:A",
            "lit:1",
            "lit:1:a",
            "other",
            "untaken:",
            "untaken:missed",
            "a1",
            "",
        ] {
            assert!(bad.parse::<Press>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_answer_without_a_glitch_reads_back() {
        let end = TrialEnd {
            end: End::Slow,
            instructions: 7,
            visit_us: 9,
            winner: None,
            record: String::new(),
            presses: Vec::new(),
            struck: None,
            target: None,
            pc: None,
            function: None,
        };
        assert_eq!(end.to_string(), "trial slow 7 9 - - - - - - -");
        assert_eq!(end.to_string().parse(), Ok(end));
    }
}
