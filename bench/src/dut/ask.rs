//! Commands that ask the board for one thing, with the kind of reply checked.

use firmware::Outcome;
use firmware::protocol::{Command, Reply};

use super::{Dut, DutError};

/// Asks the board for its codes with the pull-ups on, averaging `samples` conversions per
/// node (the profile's `adc.samples`: what the firmware averages for its own decisions).
pub fn measure(target: &mut dyn Dut, samples: u8) -> Result<Vec<u16>, DutError> {
    match target.exchange(Command::Measure {
        pullups: true,
        samples,
    })? {
        Reply::Codes(m) => Ok(m.codes.to_vec()),
        other => Err(unexpected("measure", &other)),
    }
}

pub(crate) fn turn(target: &mut dyn Dut, command: Command) -> Result<Outcome, DutError> {
    match target.exchange(command)? {
        Reply::Turn(outcome) => Ok(outcome),
        other => Err(unexpected("a turn", &other)),
    }
}

fn unexpected(expected: &'static str, reply: &Reply) -> DutError {
    super::Lost::Unexpected {
        expected,
        reply: reply.clone(),
    }
    .into()
}
