//! The glitch campaign's tests' answers and plans, made by hand.

use boards::virtual_board::{End, Press, Shown, TrialEnd};

pub(super) use crate::faults::glitch_plan::tests::plan;

/// An answer that ended `end` after the presses `presses` (words: `A1`, `missed`,
/// `untaken:A1`).
pub(super) fn end(end: End, presses: &str) -> TrialEnd {
    let presses: Vec<Press> = presses
        .split(',')
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    TrialEnd {
        end,
        instructions: 1,
        visit_us: 1,
        winner: presses.iter().find_map(|p| match p.seen() {
            Some(Shown::Won(side)) => Some(side),
            _ => None,
        }),
        record: String::new(),
        presses,
        struck: None,
        target: None,
        pc: None,
        function: None,
    }
}
