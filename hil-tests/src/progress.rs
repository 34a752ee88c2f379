//! The progress bars of long runs (games, faults, trials) on stderr, and the tick a run calls
//! after each item, which is also where a stop asked by a signal takes effect.

use std::ops::ControlFlow;

use indicatif::{ProgressBar, ProgressStyle};

use crate::stop;

/// The progress bar of a run of `len` `what` (games, faults), its line starting with `prefix`.
pub fn progress(prefix: &str, what: &str, len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{prefix}{{bar:40}} {{pos}}/{{len}} {what} {{elapsed}} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// What a run calls after each game or fault: moves `bar`, and stops the run after Ctrl-C.
pub fn tick(bar: &ProgressBar, done: usize, known: usize) -> ControlFlow<()> {
    bar.set_length(known as u64);
    bar.set_position(done as u64);
    if stop::stopped() {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}
