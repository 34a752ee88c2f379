//! Progress of long work on stderr, shared by every command that can run for more than about
//! a second: a bar when the total is known, an honest spinner when it is not, and one summary
//! line at the end. All of it only on a terminal: when stderr is not one, nothing is drawn
//! and nothing printed, so what a script reads does not change.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{HumanCount, HumanDuration, ProgressBar, ProgressState, ProgressStyle};

/// Work shorter than this ends without a summary when nothing was counted (a quick `solve`
/// says nothing more than its answer).
const QUIET_BELOW: Duration = Duration::from_secs(1);

/// One piece of long work on stderr.
pub(crate) struct Progress {
    bar: ProgressBar,
    what: String,
    /// The plural noun counted (`graphs`), empty when nothing is counted.
    unit: &'static str,
    start: Instant,
    /// Whether a style is set: the first [`Progress::set_total`] always sets one.
    styled: AtomicBool,
}

impl Progress {
    /// Work that counts `unit`s (`positions`, `graphs`) towards `total` when it is known: a
    /// bar then, a spinner with the count and its rate otherwise. A total of 0 counts as
    /// unknown, so that a bar never reads `n/0`.
    pub(crate) fn counted(what: impl Into<String>, unit: &'static str, total: Option<u64>) -> Self {
        let progress = Progress::start(what.into(), unit);
        progress.set_total(total.unwrap_or(0));
        progress.tick();
        progress
    }

    /// Work with nothing to count: a spinner and the time it has taken.
    pub(crate) fn spinner(what: impl Into<String>) -> Self {
        let progress = Progress::start(what.into(), "");
        progress.set_total(0);
        progress.tick();
        progress
    }

    /// Shows the bar on a terminal, once its style is set (so that no frame of indicatif's
    /// default style, `0/0`, is ever drawn), and turns the spinner on its own, so that a long
    /// step with no count still moves.
    fn tick(&self) {
        if std::io::stderr().is_terminal() {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.enable_steady_tick(Duration::from_millis(120));
    }

    /// How much is done.
    pub(crate) fn done(&self) -> u64 {
        self.bar.position()
    }

    fn start(what: String, unit: &'static str) -> Self {
        let bar = ProgressBar::hidden();
        bar.set_prefix(what.clone());
        Progress {
            bar,
            what,
            unit,
            start: Instant::now(),
            styled: AtomicBool::new(false),
        }
    }

    /// Sets the total (0: unknown, a spinner).
    pub(crate) fn set_total(&self, total: u64) {
        let styled = self.styled.swap(true, Ordering::Relaxed);
        if styled && self.bar.length().unwrap_or(0) == total {
            return;
        }
        let unit = self.unit;
        let template = match (total, unit) {
            (0, "") => "{spinner} {prefix} [{elapsed_precise}] {msg}".to_string(),
            (0, _) => format!(
                "{{spinner}} {{prefix}} [{{elapsed_precise}}] {{human_pos}} {unit} ({{rate}}) {{msg}}"
            ),
            _ => format!(
                "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} \
                 ({{rate}}, {{eta}} left) {{msg}}"
            ),
        };
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_spinner())
            // A whole number a second: `25,040/s`, not indicatif's `25,040.1348/s`.
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}/s", HumanCount(state.per_sec() as u64));
                },
            );
        self.bar.set_style(style);
        if total == 0 {
            self.bar.unset_length();
        } else {
            self.bar.set_length(total);
        }
    }

    /// Sets how much is done.
    pub(crate) fn set(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Adds to what is done.
    pub(crate) fn inc(&self, more: u64) {
        self.bar.inc(more);
    }

    /// A note after the counts: the bound the work runs against, or the step it is on.
    pub(crate) fn note(&self, text: impl Into<std::borrow::Cow<'static, str>>) {
        self.bar.set_message(text);
    }

    /// A line above the bar (on a terminal only).
    pub(crate) fn println(&self, line: impl AsRef<str>) {
        self.bar.println(line);
    }

    /// Clears the bar and, on a terminal, prints `what: summary (time)` on one line. Work
    /// that counted nothing and took under a second ends without it.
    pub(crate) fn finish(self, summary: &str) {
        self.bar.finish_and_clear();
        let elapsed = self.start.elapsed();
        if self.bar.is_hidden() || (self.unit.is_empty() && elapsed < QUIET_BELOW) {
            return;
        }
        eprintln!("{}: {summary} ({:#})", self.what, HumanDuration(elapsed));
    }
}
