//! `hil-tests doctor`: bring-up of a board (or of the firmware in QEMU) one step at a time,
//! one line per step, and on a failure what to do. The connection's own steps (probe found,
//! chip, ELF flashed, RTT control block) come from whoever connected; the steps over the bench
//! protocol are here, the same for every target.

use std::fmt;
use std::time::{Duration, Instant};

use firmware::Outcome;
use firmware::protocol::{Command, Reply};
use heuristic::{Position, Side, Size};

use crate::check::{Fit, Predictor};
use crate::dut::Dut;
use crate::dut::ask::measure;

/// How one step went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepVerdict {
    /// It went as it should: what was found.
    Pass(String),
    /// It did not: what was found, and what to do.
    Fail {
        /// What was found.
        found: String,
        /// What to do about it.
        fix: String,
    },
    /// It does not apply here: why.
    Skip(String),
}

/// One step of the bring-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// What the step checks.
    pub step: &'static str,
    /// How it went.
    pub verdict: StepVerdict,
    /// How long it took, for JUnit's `time`: set by [`Steps::push`], from the previous
    /// step's verdict to this one's (steps read from one exchange share it: the first holds
    /// it, the others about none).
    pub took: Option<Duration>,
}

/// Steps as bring-up finds them, each timed when pushed: from the previous step's verdict
/// (or from [`Steps::new`]) to its own, so the steps' times add up to bring-up's.
#[derive(Debug)]
pub struct Steps {
    checks: Vec<Check>,
    since: Instant,
}

impl Steps {
    /// No step yet; the clock starts now.
    pub fn new() -> Steps {
        Steps {
            checks: Vec::new(),
            since: Instant::now(),
        }
    }

    /// Adds `check`, timed.
    pub fn push(&mut self, mut check: Check) {
        let now = Instant::now();
        check.took = Some(now - self.since);
        self.since = now;
        self.checks.push(check);
    }

    /// The steps, in order.
    pub fn into_checks(self) -> Vec<Check> {
        self.checks
    }
}

impl Default for Steps {
    fn default() -> Steps {
        Steps::new()
    }
}

impl Check {
    /// A step that passed with `found`.
    pub fn pass(step: &'static str, found: impl Into<String>) -> Check {
        Check {
            step,
            verdict: StepVerdict::Pass(found.into()),
            took: None,
        }
    }

    /// A step that failed with `found`; `fix` says what to do.
    pub fn fail(step: &'static str, found: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            step,
            verdict: StepVerdict::Fail {
                found: found.into(),
                fix: fix.into(),
            },
            took: None,
        }
    }

    /// A step that does not apply, and why.
    pub fn skip(step: &'static str, why: impl Into<String>) -> Check {
        Check {
            step,
            verdict: StepVerdict::Skip(why.into()),
            took: None,
        }
    }

    /// Whether the step failed.
    pub fn failed(&self) -> bool {
        matches!(self.verdict, StepVerdict::Fail { .. })
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.verdict {
            StepVerdict::Pass(found) => write!(f, "ok    {}: {found}", self.step),
            StepVerdict::Skip(why) => write!(f, "skip  {}: {why}", self.step),
            StepVerdict::Fail { found, fix } => {
                write!(f, "FAIL  {}: {found}\n      what to do: {fix}", self.step)
            }
        }
    }
}

/// The steps over the bench protocol, on a connected `target` that runs `firmware`'s profile
/// on a board `profile` describes, with a cage of `size`; stops at the first step the next
/// ones need.
pub fn protocol_checks(
    target: &mut dyn Dut,
    profile: &'static boards::Profile,
    firmware: &'static boards::Profile,
    size: Size,
) -> Vec<Check> {
    let mut checks = Steps::new();
    const VERSION: &str = "firmware version read back";
    let identity = match target.exchange(Command::Identify) {
        Ok(Reply::Identity(id)) => id,
        Ok(other) => {
            checks.push(Check::fail(
                VERSION,
                format!("Identify was answered with {other:?}"),
                "flash the firmware built from this checkout (`cargo fw`)",
            ));
            return checks.into_checks();
        }
        Err(e) => {
            // A machine that stopped (a firmware panic) said why: that is the thing to fix.
            let stopped = matches!(e, crate::DutError::Lost(crate::dut::Lost::Machine { .. }));
            checks.push(Check::fail(
                VERSION,
                format!("no answer to Identify on the bench channel: {e}"),
                if stopped {
                    "the firmware stopped after it started: the board's line says how (a panic \
                     with its message and place); fix the firmware there"
                } else {
                    "check that the ELF given is the one running and that RTT attached (see the \
                     runbook in hil-tests/README.md)"
                },
            ));
            return checks.into_checks();
        }
    };
    if identity.version.as_str() == firmware::VERSION && identity.board.as_str() == firmware.name {
        checks.push(Check::pass(
            VERSION,
            format!("{} on {}", identity.version, identity.board),
        ));
    } else {
        checks.push(Check::fail(
            VERSION,
            format!(
                "the board runs {} for {}; this bench is {} for {}",
                identity.version,
                identity.board,
                firmware::VERSION,
                firmware.name
            ),
            "flash the firmware of this checkout for this board (`cargo fw`, then `--elf`)",
        ));
    }
    checks.push(Check::pass(
        "bench channel answering",
        "Identify answered on up 1 / down 0",
    ));
    const SELF_CHECK: &str = "self-check (new game, size detected)";
    let new_game = target.exchange(Command::NewGame);
    // The start codes, read once: the self-check's and the band step's. Size detection only
    // asks whether the top row reads near the supply, so a node that reads 0 (an open input)
    // passes it as M=4; on an intact board at the start every node is within the band.
    let fit = new_game.is_ok().then(|| {
        measure(target, profile.adc.samples)
            .map(|codes| Predictor::new(profile, size).fit(&Position::new(size, Side::Cut), &codes))
    });
    match new_game {
        Ok(Reply::Turn(Outcome::NewGame { size: m })) if m == size.get() => {
            let off_band = fit.as_ref().and_then(|f| f.as_ref().ok());
            match off_band.filter(|f| f.measured == f.predicted.len() && !f.off.is_empty()) {
                Some(fit) => {
                    let off: Vec<String> = fit.off.iter().map(ToString::to_string).collect();
                    checks.push(Check::fail(
                        SELF_CHECK,
                        format!(
                            "M={m} detected, but the start position reads outside ±{} codes: {}",
                            fit.band,
                            off.join(", ")
                        ),
                        "check those nodes' wires to their ADC pins and their parts against the \
                         profile (a node that reads 0 reaches no input; wiring check in the \
                         runbook)",
                    ));
                }
                None => checks.push(Check::pass(SELF_CHECK, format!("M={m} detected"))),
            }
        }
        Ok(Reply::Turn(Outcome::NewGame { size: m })) => checks.push(Check::fail(
            SELF_CHECK,
            format!("M={m} detected, the cage is M={}", size.get()),
            "check the cage's plug and the size-detection nodes (wiring check in the runbook)",
        )),
        Ok(other) => checks.push(Check::fail(
            SELF_CHECK,
            format!("a new game was answered with {other:?}"),
            "read the firmware's log lines above: a fault names the node or part",
        )),
        Err(e) => {
            checks.push(Check::fail(
                SELF_CHECK,
                e.to_string(),
                "see the runbook: RTT attach",
            ));
            return checks.into_checks();
        }
    }
    const FIXTURE: &str = "edge fixture probe";
    if identity.fixture {
        checks.push(Check::pass(
            FIXTURE,
            "the ADG714 chain answers: the bench sets the cage itself",
        ));
    } else {
        checks.push(Check::skip(
            FIXTURE,
            "no edge fixture answers: moves are made by hand (`--scenario guided`)",
        ));
    }
    // Measured whenever the new game was answered (the steps ended otherwise).
    if let Some(fit) = fit {
        checks.push(start_codes(fit, size));
    }
    let logs = target.logs();
    checks.push(match logs.last() {
        Some(last) => Check::pass(
            "defmt channel answering",
            format!("{} log lines on up 0, the last: {last}", logs.len()),
        ),
        None => Check::fail(
            "defmt channel answering",
            "no log line on up channel 0",
            "pass the ELF that is flashed (its defmt table decodes the logs), and check that \
             DEFMT_LOG was not set to `off` when it was built",
        ),
    });
    checks.into_checks()
}

/// The start position's codes for every node against the profile's prediction band (their
/// fit, or why there are none).
fn start_codes(fit: Result<Fit, crate::DutError>, size: Size) -> Check {
    const STEP: &str = "start position's codes in the profile's band";
    let fit = match fit {
        Ok(fit) => fit,
        Err(e) => return Check::fail(STEP, e.to_string(), "see the runbook: RTT attach"),
    };
    let worst = fit.worst.map_or(String::new(), |(node, d)| {
        format!("; the worst, node {node}, {d} off")
    });
    if fit.in_band() {
        Check::pass(
            STEP,
            format!("{} nodes within ±{} codes{worst}", fit.measured, fit.band),
        )
    } else if fit.measured != fit.predicted.len() {
        Check::fail(
            STEP,
            format!(
                "{} codes read, {} nodes on M={}",
                fit.measured,
                fit.predicted.len(),
                size.get()
            ),
            "the firmware reads another cage size than the bench's --size: check the plug",
        )
    } else {
        let off: Vec<String> = fit.off.iter().map(ToString::to_string).collect();
        Check::fail(
            STEP,
            format!("outside ±{} codes: {}", fit.band, off.join(", ")),
            "check those nodes' wiring and parts against the profile (wiring check in the \
             runbook), or calibrate (`hil-tests calibrate`)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dut::sil::Sil;
    use emulator::emulated::Defect;
    use heuristic::Node;

    /// A node that reads 0 (an open ADC input) on an intact M=4 board at the start: size
    /// detection still says M=4, but the self-check fails, naming the node. Before issue 52
    /// the self-check step passed ("M=4 detected") and only the band step failed.
    #[test]
    fn a_node_that_reads_0_fails_the_self_check() {
        let profile = &boards::NUCLEO_F446RE;
        let mut sil = Sil::new(profile, Size::M4, None).unwrap();
        let node = Size::M4.nodes().nth(1).unwrap();
        assert!(matches!(node, Node::Internal { .. }), "{node:?}");
        sil.emulated_cage().inject(Defect::Stuck(node, 0)).unwrap();
        let checks = protocol_checks(&mut sil, profile, profile, Size::M4);
        let step = checks
            .iter()
            .find(|c| c.step.starts_with("self-check"))
            .unwrap_or_else(|| panic!("{checks:?}"));
        let StepVerdict::Fail { found, .. } = &step.verdict else {
            panic!("the self-check passed with node {node} reading 0: {checks:?}");
        };
        assert!(
            found.starts_with("M=4 detected, but the start position reads outside ±"),
            "{found}"
        );
        assert!(
            found.contains(&format!("node {node} reads 0, expected ")),
            "{found}"
        );
        // An intact board passes it.
        let mut intact = Sil::new(profile, Size::M4, None).unwrap();
        let checks = protocol_checks(&mut intact, profile, profile, Size::M4);
        assert!(
            checks
                .iter()
                .any(|c| c.step.starts_with("self-check") && !c.failed()),
            "{checks:?}"
        );
    }
}
