//! A glitch campaign's results: the intact game, each trial judged, and how long they took.

use boards::virtual_board::TrialEnd;

use super::judge::Judged;
use crate::faults::glitch_plan::Plan;

/// A campaign's results.
#[derive(Clone, Debug)]
pub struct GlitchResults {
    /// The intact game.
    pub intact: TrialEnd,
    /// Each trial, in order.
    pub trials: Vec<Judged>,
    /// What was drawn.
    pub plan: Plan,
    /// Wall-clock seconds the trials took.
    pub seconds: f64,
}

impl GlitchResults {
    /// The median trial's wall-clock milliseconds.
    pub fn median_ms(&self) -> f64 {
        let mut ms: Vec<f64> = self.trials.iter().map(|j| j.ms).collect();
        ms.sort_by(f64::total_cmp);
        ms.get(ms.len() / 2).copied().unwrap_or(0.0)
    }

    /// How long the trials took (for the terminal: never in a report file).
    pub fn timing(&self) -> String {
        let n = self.trials.len();
        format!(
            "Trials: {:.1} s, {:.1} ms each on average, median {:.1} ms, slowest {:.0} ms.",
            self.seconds,
            1000.0 * self.seconds / n.max(1) as f64,
            self.median_ms(),
            self.trials.iter().map(|j| j.ms).fold(0.0, f64::max),
        )
    }
}
