//! The terminal game's screen, built as lines of styled text apart from the terminal, so
//! that tests can read what a person would see (colours or none, what fits 80×24).
//!
//! On the board: resistors in the terminal's own colour, Short's wires in blue and Cut's
//! cuts (`×`) in vermillion, Okabe and Ito's colour-blind-safe pair (Gale's view inks the
//! two sides' dots and bridges the same way). The selected edge is in reverse video
//! between `[` `]`, the machine's last move between `<` `>`. With `v` every resistor
//! shows its drop in percent of the supply on a viridis-like heat step, the largest alone
//! on the brightest (and bold). With `NO_COLOR` no colour is used at all: the marks, the
//! reverse video, and bold underlined text for the largest drop remain.

mod cage;
mod graph;
mod ink;
mod layout;
mod paint;
mod screen;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use cage::{Scene, frame, plain_board};
pub(crate) use graph::{GraphScene, graph_frame};
pub(crate) use ink::{CUT_INK, SHORT_INK};
pub(crate) use paint::paint;
pub(crate) use screen::{Frame, Line, Span, Style, text};
