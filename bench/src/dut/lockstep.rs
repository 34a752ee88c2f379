//! Agreement between two targets: every command goes to both, and every reply must be the
//! same, byte for byte once decoded. SIL against PIL on the same emulated board and seed shows
//! that the no_std crates behave the same compiled for Cortex-M4F as on the host.

use firmware::protocol::{Command, Reply};
use heuristic::Position;

use crate::dut::{Dut, DutError, Setup, Stage};

/// What a lockstep run compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    /// Commands sent to both targets.
    pub commands: usize,
    /// Measurements (codes of every node) compared.
    pub measurements: usize,
    /// Decisions (moves and verdicts) compared.
    pub decisions: usize,
}

/// Whether two replies agree. An identity agrees in what the firmware is (version, board, ADC
/// resolution); whether a fixture is fitted and the size found at power-on are the hardware's
/// (the board binary boots and reads its cage, SIL's application has neither).
fn agree(a: &Reply, b: &Reply) -> bool {
    match (a, b) {
        (Reply::Identity(a), Reply::Identity(b)) => {
            (&a.version, &a.board, a.adc_bits) == (&b.version, &b.board, b.adc_bits)
        }
        _ => a == b,
    }
}

/// Two targets driven as one: the first one's replies are returned, and any difference in a
/// reply stops the run with [`DutError::Disagree`].
#[derive(Debug)]
pub struct Lockstep<A, B> {
    /// The reference (SIL).
    pub a: A,
    /// The target checked against it (PIL).
    pub b: B,
    compared: Compared,
}

impl<A: Dut, B: Dut> Lockstep<A, B> {
    /// `a` and `b` in lockstep.
    pub fn new(a: A, b: B) -> Lockstep<A, B> {
        Lockstep {
            a,
            b,
            compared: Compared::default(),
        }
    }

    /// What has been compared so far.
    pub fn compared(&self) -> Compared {
        self.compared
    }
}

impl<A: Dut, B: Dut> Dut for Lockstep<A, B> {
    fn stage(&self) -> Setup {
        // SIL against the firmware in QEMU, by stdin/stderr (PIL) or by a probe (HIL).
        Setup::BesideSil(match self.b.stage().stage() {
            Stage::Hil => Stage::Hil,
            Stage::Sil | Stage::Pil => Stage::Pil,
        })
    }

    fn rtt_layout(&mut self) -> Option<String> {
        self.b.rtt_layout()
    }

    fn flashed(&self) -> Option<String> {
        self.b.flashed()
    }

    fn behind(&self) -> Option<String> {
        self.b.behind()
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        let ra = self.a.exchange(command.clone())?;
        let rb = self.b.exchange(command.clone())?;
        if !agree(&ra, &rb) {
            return Err(DutError::Disagree {
                commands: self.compared.commands,
                command,
                stages: [self.a.stage(), self.b.stage()],
                replies: Box::new([ra, rb]),
            });
        }
        self.compared.commands += 1;
        match ra {
            Reply::Codes(_) => self.compared.measurements += 1,
            Reply::Turn(_) => self.compared.decisions += 1,
            // The hardware's own facts are the checked target's.
            Reply::Identity(_) => return Ok(rb),
            _ => {}
        }
        Ok(ra)
    }

    fn logs(&mut self) -> Vec<String> {
        let mut logs = self.a.logs();
        logs.extend(self.b.logs());
        logs
    }

    /// SIL's: the other's is set beside it ([`Dut::set_cage`] sets both).
    fn cage(&mut self) -> &mut dyn crate::dut::Cage {
        self.a.cage()
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), DutError> {
        self.a.set_cage(position)?;
        self.b.set_cage(position)
    }

    fn start_game(&mut self, game: usize) {
        self.a.start_game(game);
        self.b.start_game(game);
    }

    /// The checked target's link.
    fn retry_stats(&self) -> Option<crate::dut::retry::RetryStats> {
        self.b.retry_stats()
    }

    fn finish(&mut self) -> Result<(), DutError> {
        self.a.finish()?;
        self.b.finish()
    }
}
