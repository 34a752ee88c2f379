//! Where a served run's time goes (`VIRTUAL_BOARD_SPEED=FILE`): the instructions the core ran,
//! the host time spent inside the engine running them, and the time the board served in all.
//! The rest is the stub's packets, the socket and the waits between slices; the bench's own
//! time (probe-rs, SIL) is outside the board and is the caller's wall clock minus this one.
//! Measured only when asked, so a run that does not ask pays two clock reads a slice. The
//! watchdog's feeds count the firmware's main-loop ticks: an idle tick costs a measured
//! amount (hil-tests/speed-split.sh), so a script can take the ticks the core spun while it
//! waited for the bench out of the engine's time.

use std::time::{Duration, Instant};

/// The counters of one served run.
#[derive(Clone, Copy, Debug)]
pub struct Speed {
    /// When the board began serving.
    pub started: Instant,
    /// Host time inside the engine (`run_slice`).
    pub executing: Duration,
}

impl Speed {
    /// Counters from now.
    pub fn new() -> Speed {
        Speed {
            started: Instant::now(),
            executing: Duration::ZERO,
        }
    }

    /// `instructions N cycles C executing S s serving T s feeds F conversions A`, one line a
    /// script reads (the ADC's conversions: the work's weight in peripheral accesses).
    pub fn report(&self, instructions: u64, cycles: u64, feeds: u64, conversions: u64) -> String {
        format!(
            "instructions {instructions} cycles {cycles} executing {:.3} s serving {:.3} s \
             feeds {feeds} conversions {conversions}",
            self.executing.as_secs_f64(),
            self.started.elapsed().as_secs_f64()
        )
    }
}

/// Counters when `VIRTUAL_BOARD_SPEED` is set.
pub fn asked() -> Option<Speed> {
    std::env::var_os("VIRTUAL_BOARD_SPEED").map(|_| Speed::new())
}

/// Writes [`Speed::report`] to the file `VIRTUAL_BOARD_SPEED` names, if measuring: at
/// `monitor coverage`, as the bench kills the board rather than let it end.
pub fn write_report(speed: &Option<Speed>, board: &crate::board::Board, instructions: u64) {
    if let (Some(path), Some(speed)) = (std::env::var_os("VIRTUAL_BOARD_SPEED"), speed) {
        let line = speed.report(
            instructions,
            board.cycles,
            board.watchdog_feeds().0,
            board.conversions,
        );
        // Whole or not at all, never through a link (the one writer, `shards::safe`).
        let _ = shards::safe::write_file(std::path::Path::new(&path), (line + "\n").as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_one_line_of_named_figures() {
        let speed = Speed {
            started: Instant::now() - Duration::from_millis(2500),
            executing: Duration::from_millis(1250),
        };
        let line = speed.report(42, 84, 7, 3);
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            words[..6],
            ["instructions", "42", "cycles", "84", "executing", "1.250"],
            "{line}"
        );
        assert_eq!(words[7], "serving", "{line}");
        let serving: f64 = words[8].parse().unwrap();
        assert!((2.5..60.0).contains(&serving), "{line}");
        assert_eq!(words[10..], ["feeds", "7", "conversions", "3"], "{line}");
    }
}
