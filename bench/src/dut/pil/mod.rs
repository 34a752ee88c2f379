//! The PIL target over either link: semihosting ([`Pil`]) or RTT through QEMU's gdbstub
//! ([`RttPil`]). One type for the bench to hold, whichever the run asked for.

use emulator::emulated::EmulatedCage;
use firmware::protocol::{Command, Reply};

mod link;
mod rtt;
mod semihosting;

pub use link::{Link, LinkError};
pub use rtt::RttPil;
pub use semihosting::Pil;

use crate::dut::retry::RetryStats;
use crate::dut::{Dut, DutError};

/// The firmware in QEMU over one of the links.
#[derive(Debug)]
pub enum PilTarget {
    /// Over semihosting.
    Semihosting(Box<Pil>),
    /// Over RTT.
    Rtt(Box<RttPil>),
}

impl PilTarget {
    /// The emulated cage, to inject faults.
    pub fn emulated_cage(&self) -> &EmulatedCage {
        match self {
            PilTarget::Semihosting(pil) => pil.emulated_cage(),
            PilTarget::Rtt(pil) => pil.emulated_cage(),
        }
    }

    fn inner(&mut self) -> &mut dyn Dut {
        match self {
            PilTarget::Semihosting(pil) => pil.as_mut(),
            PilTarget::Rtt(pil) => pil.as_mut(),
        }
    }
}

impl Dut for PilTarget {
    fn stage(&self) -> crate::dut::Setup {
        crate::dut::Stage::Pil.into()
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        self.inner().exchange(command)
    }

    fn logs(&mut self) -> Vec<String> {
        self.inner().logs()
    }

    fn cage(&mut self) -> &mut dyn crate::dut::Cage {
        self.inner().cage()
    }

    fn rtt_layout(&mut self) -> Option<String> {
        self.inner().rtt_layout()
    }

    fn retry_stats(&self) -> Option<RetryStats> {
        match self {
            PilTarget::Semihosting(_) => None,
            PilTarget::Rtt(pil) => Some(pil.stats()),
        }
    }
}
