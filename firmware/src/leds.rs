//! The move LEDs, one per row and one per column of the cage, and the patterns the machine
//! shows.

use boards::{LED_COLUMNS, LED_ROWS, Level};
use embedded_hal::digital::OutputPin;
use heuristic::Edge;
use serde::{Deserialize, Serialize};

/// LEDs in a row or a column of them: one bit each of a `u8`.
const LINE: u8 = LED_ROWS as u8;
const _: () = assert!(LED_ROWS == LED_COLUMNS && LED_ROWS < 8);
/// Every bit of a line lit.
const ALL: u8 = (1 << LINE) - 1;

/// Which LEDs are lit: bit `y − 1` of `rows` lights row `y`, bit `x − 1` of `columns` lights
/// column `x` (A = 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LedPattern {
    /// Row LEDs, row 1 in bit 0.
    pub rows: u8,
    /// Column LEDs, column A in bit 0.
    pub columns: u8,
}

impl LedPattern {
    /// Everything off (before the game-over reading).
    pub const OFF: LedPattern = LedPattern {
        rows: 0,
        columns: 0,
    };
    /// Everything lit: a new game, waiting for the first press.
    pub const NEW_GAME: LedPattern = LedPattern {
        rows: ALL,
        columns: ALL,
    };
    /// Every row LED: Cut (the machine) has won.
    pub const CUT_WON: LedPattern = LedPattern {
        rows: ALL,
        columns: 0,
    };
    /// Every column LED: Short (the player) has won.
    pub const SHORT_WON: LedPattern = LedPattern {
        rows: 0,
        columns: ALL,
    };
    /// Rows 1, 3, 5, 7 and columns A, C, E, G: the self-check failed (see the log or the bench's
    /// status). No move, result or new game lights this.
    pub const FAULT: LedPattern = LedPattern {
        rows: 0b101_0101,
        columns: 0b101_0101,
    };

    /// The row and the column of `edge`: the machine's move.
    pub fn edge(edge: Edge) -> LedPattern {
        LedPattern {
            rows: bit(edge.y()),
            columns: bit(edge.x()),
        }
    }

    /// Whether row `y` (1..=7) is lit.
    pub fn row(self, y: u8) -> bool {
        self.rows & bit(y) != 0
    }

    /// Whether column `x` (1..=7) is lit.
    pub fn column(self, x: u8) -> bool {
        self.columns & bit(x) != 0
    }
}

fn bit(index: u8) -> u8 {
    match index {
        1..=LINE => 1 << (index - 1),
        _ => 0,
    }
}

/// Shows a pattern.
pub trait Leds {
    /// What can go wrong driving the LEDs.
    type Error: core::fmt::Debug;

    /// Lights exactly the LEDs of `pattern`.
    fn show(&mut self, pattern: LedPattern) -> Result<(), Self::Error>;
}

/// The row and column LEDs on GPIOs, each lit at `active` (from the board's [`boards::LedDrive`]).
#[derive(Debug)]
pub struct PinLeds<P> {
    rows: [P; LED_ROWS],
    columns: [P; LED_COLUMNS],
    active: Level,
}

impl<P: OutputPin> PinLeds<P> {
    /// Rows 1..=7 and columns A..=G, in the order of [`boards::PinMap`].
    pub fn new(rows: [P; LED_ROWS], columns: [P; LED_COLUMNS], active: Level) -> PinLeds<P> {
        PinLeds {
            rows,
            columns,
            active,
        }
    }

    /// The pins back, rows then columns.
    pub fn release(self) -> ([P; LED_ROWS], [P; LED_COLUMNS]) {
        (self.rows, self.columns)
    }
}

impl<P: OutputPin> Leds for PinLeds<P> {
    type Error = P::Error;

    fn show(&mut self, pattern: LedPattern) -> Result<(), P::Error> {
        let active = self.active;
        let banks = [
            (&mut self.rows, pattern.rows),
            (&mut self.columns, pattern.columns),
        ];
        for (pins, bits) in banks {
            for (i, pin) in pins.iter_mut().enumerate() {
                let lit = bits & (1 << i) != 0;
                if lit == (active == Level::High) {
                    pin.set_high()?;
                } else {
                    pin.set_low()?;
                }
            }
        }
        Ok(())
    }
}
