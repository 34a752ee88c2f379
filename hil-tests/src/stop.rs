//! How a long run is stopped: Ctrl-C, SIGTERM or SIGHUP set one flag, which the run reads
//! after each game, fault or trial, so it stops between two and reports what it finished.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C, SIGTERM or SIGHUP (ctrlc's `termination` feature): the campaign stops
/// after the game in hand and reports what it finished.
static STOP: AtomicBool = AtomicBool::new(false);

/// The signals that set [`STOP`], as a stopped run names them.
pub const STOP_SIGNALS: &str = "Ctrl-C, SIGTERM or SIGHUP";

/// Whether a signal asked the run to stop.
pub fn stopped() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Makes the signals set [`STOP`]. A second handler (tests run the CLI once per process) is
/// not an error worth stopping for.
pub fn on_signals() {
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
}
