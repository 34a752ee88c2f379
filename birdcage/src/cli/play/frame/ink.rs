//! The colours: Okabe and Ito's colour-blind-safe pair for the two sides, viridis for the
//! drops.

use crossterm::style::Color;

use crate::cli::play::heat;

/// Okabe and Ito's blue (xterm-256's nearest): Short's wires, dots and bridges.
pub(crate) const SHORT_INK: Color = Color::AnsiValue(25);
/// Okabe and Ito's vermillion (xterm-256's nearest): Cut's cuts, dots and bridges.
pub(crate) const CUT_INK: Color = Color::AnsiValue(166);
/// The heat steps, low to high: viridis at 0, 0.2, …, 1 (xterm-256's nearest), the last
/// for the largest drop alone. Viridis stays ordered in lightness for colour-blind eyes
/// and in grey.
pub(super) const HEAT: [Color; heat::LEVELS] = [
    Color::AnsiValue(53),
    Color::AnsiValue(60),
    Color::AnsiValue(30),
    Color::AnsiValue(36),
    Color::AnsiValue(113),
    Color::AnsiValue(220),
];
/// The text on each heat step: white on the dark ones, black on the light ones.
pub(super) const HEAT_TEXT: [Color; heat::LEVELS] = [
    Color::AnsiValue(231),
    Color::AnsiValue(231),
    Color::AnsiValue(231),
    Color::AnsiValue(16),
    Color::AnsiValue(16),
    Color::AnsiValue(16),
];
