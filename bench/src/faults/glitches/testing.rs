//! The glitch campaign's tests' answers and plans, made by hand.

use boards::virtual_board::{End, Shown, TrialEnd};

use crate::faults::glitch_plan::{Kinds, Plan, Window};

/// An answer that ended `end` after the LEDs showed `shown` (words, by press).
pub(super) fn end(end: End, shown: &str) -> TrialEnd {
    let shown: Vec<Shown> = shown
        .split(',')
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    TrialEnd {
        end,
        instructions: 1,
        visit_us: 1,
        winner: shown.iter().find_map(|s| match s {
            Shown::Won(side) => Some(*side),
            _ => None,
        }),
        record: String::new(),
        shown,
        struck: None,
        target: None,
        pc: None,
        function: None,
    }
}

pub(super) fn plan(trials: u64, seed: u64, window: Window, kinds: Kinds) -> Plan {
    Plan {
        trials,
        seed,
        window,
        kinds,
        pace_ms: 5000,
    }
}
