//! Whether a wait that ran out was the firmware's doing or the host's: a QEMU that the host
//! stopped (SIGSTOP, a debugger, a suspended job) or a bench that was itself held up (a
//! suspended laptop, a starved machine) is not a firmware that hangs, and a person chasing a
//! hang in the firmware would look in the wrong place.

use std::time::Duration;

/// What held the run up, when it was not the firmware.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stall {
    /// The QEMU process is stopped (Linux process state `T` or `t`).
    #[error("QEMU's process is stopped (SIGSTOP, job control or a debugger holds it)")]
    Stopped,
    /// The bench's own wait took far longer than it asked for: the bench was not running.
    #[error(
        "the bench's wait of {timeout:?} took {waited:?}: the host held the bench up (suspend, load)"
    )]
    Late {
        /// How long the wait took.
        waited: Duration,
        /// What it asked for.
        timeout: Duration,
    },
}

/// A wait that overran its timeout by more than this (and by half again) was held up.
const SLACK: Duration = Duration::from_millis(500);

/// Why a wait for process `pid` that ran out after `waited` (of `timeout`) was not the
/// firmware's doing, if it was not. `waited` is `None` when the caller does not know it.
pub fn stall(pid: u32, waited: Option<Duration>, timeout: Duration) -> Option<Stall> {
    if is_stopped(pid) {
        return Some(Stall::Stopped);
    }
    let waited = waited?;
    (waited > timeout + SLACK && waited > timeout + timeout / 2)
        .then_some(Stall::Late { waited, timeout })
}

/// Whether `pid` is stopped: the state letter of `/proc/PID/stat` (proc(5)), read after the
/// command name in parentheses, which may itself hold spaces and parentheses.
fn is_stopped(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state == "T" || state == "t")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    /// A real process, stopped and continued by signals: the state is read, not assumed.
    #[test]
    fn a_stopped_process_is_a_stall_and_a_running_one_is_not() {
        let mut child = Command::new("sleep")
            .arg("30")
            .stdout(Stdio::null())
            .spawn()
            .expect("sleep runs");
        let pid = child.id();
        let timeout = Duration::from_secs(1);
        assert_eq!(
            stall(pid, Some(timeout), timeout),
            None,
            "sleeping is not stopped"
        );
        let signal = |sig: &str| {
            Command::new("kill")
                .args([sig, &pid.to_string()])
                .status()
                .expect("kill runs")
        };
        assert!(signal("-STOP").success());
        // The state changes once the signal is delivered.
        let mut stopped = None;
        for _ in 0..100 {
            stopped = stall(pid, Some(timeout), timeout);
            if stopped.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(stopped, Some(Stall::Stopped));
        assert!(signal("-CONT").success());
        let _ = child.kill();
        let _ = child.wait();
    }

    #[test]
    fn a_wait_that_overran_its_timeout_was_held_up() {
        let pid = std::process::id();
        let s = Duration::from_secs;
        assert_eq!(stall(pid, Some(s(1)), s(1)), None);
        assert_eq!(stall(pid, Some(Duration::from_millis(1400)), s(1)), None);
        assert_eq!(
            stall(pid, Some(s(4)), s(1)),
            Some(Stall::Late {
                waited: s(4),
                timeout: s(1)
            })
        );
        assert_eq!(stall(pid, None, s(1)), None, "no figure, no claim");
    }
}
