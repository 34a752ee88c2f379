//! The target abstraction: the bench speaks the firmware's bench protocol to every target
//! (encoded frames with sequence numbers, even in-process), so SIL, PIL and HIL differ only in
//! their transport and in how the cage is set to a position.

pub mod ask;
pub mod cage;
pub mod defmt;
pub mod frame;
pub mod hil;
pub mod lockstep;
pub mod pil;
pub mod retry;
pub mod sil;
pub mod stage;

pub use stage::{Setup, Stage, StageError};

pub use cage::{ByHand, Cage, Fixture};
use firmware::protocol::{Command, ProtocolError, Reply};
use heuristic::Position;

/// Why an exchange with a target failed.
#[derive(Debug, thiserror::Error)]
pub enum DutError {
    /// The command could not be encoded, or the reply could not be read.
    #[error("bench link: {0}")]
    Link(ProtocolError),
    /// The target answered nothing to a whole command frame.
    #[error("no reply to command {seq}")]
    NoReply {
        /// The command's sequence number.
        seq: u16,
    },
    /// The target answered nothing, and its core, stopped, was found in this function: where
    /// the firmware hangs.
    #[error(
        "no reply to command {seq}: the firmware hangs at PC {pc:#010x}{}",
        symbol.as_ref().map(|s| format!(" in {s}")).unwrap_or_default()
    )]
    Hangs {
        /// The command's sequence number.
        seq: u16,
        /// Where the core was.
        pc: u32,
        /// The ELF's function there.
        symbol: Option<String>,
    },
    /// A reply carried another command's sequence number: frames were lost.
    #[error("lost frames: expected reply {expected}, got {got}")]
    LostFrame {
        /// The command's sequence number.
        expected: u16,
        /// The reply's.
        got: u16,
    },
    /// The target cannot put the cage in a position (no fixture, or a size it does not wire).
    #[error("cannot set the cage: {0}")]
    Cage(CageError),
    /// The target stopped answering (a probe unplugged, QEMU exited), or answered out of turn.
    #[error("target lost: {0}")]
    Lost(Lost),
    /// A fault of the path to the chip, named from its registers with what to do (a core
    /// held in reset or locked up, flash read-protected, a WAIT or FAULT from the DP).
    #[cfg(feature = "probe")]
    #[error("{0}")]
    Path(hil::PathFault),
    /// The board reset under the bench (its chip's reset flags say why): the firmware started
    /// again, and the game is lost.
    #[error("the board reset ({cause}): the firmware started again and the game is lost ({then})")]
    Reset {
        /// What reset it (`watchdog`).
        cause: &'static str,
        /// What the bench saw (an RTT control block written anew).
        then: String,
    },
    /// No debug probe to connect to (nothing was lost: none was found).
    #[error("{}", no_probe(request, attached))]
    NoProbe {
        /// What was asked for: a chip (`STM32F446RETx`) or a probe (`VID:PID[:SERIAL]`).
        request: String,
        /// The probes attached, as `VID:PID[:SERIAL]`.
        attached: Vec<String>,
    },
    /// The run is over, but the emulated board could not write its coverage file (its words
    /// name the file and why): the report in the folder lacks it.
    #[error("the virtual board could not write its coverage file: {0}")]
    Coverage(String),
    /// Two targets driven in lockstep answered the same command differently.
    #[error(
        "targets disagree: after {commands} agreeing commands, {command:?}: \
         {} answered {:?}, {} answered {:?}",
        stages[0], replies[0], stages[1], replies[1]
    )]
    Disagree {
        /// Commands both answered alike before this one.
        commands: usize,
        /// The command.
        command: Command,
        /// The two targets' stages.
        stages: [Setup; 2],
        /// Their replies, in the same order.
        replies: Box<[Reply; 2]>,
    },
}

// Conversions by hand, not `#[from]`: each message above already says its cause, and a
// `source` would have it said twice by an error chain (anyhow's `{:#}`).
impl From<ProtocolError> for DutError {
    fn from(error: ProtocolError) -> DutError {
        DutError::Link(error)
    }
}

impl From<CageError> for DutError {
    fn from(error: CageError) -> DutError {
        DutError::Cage(error)
    }
}

impl From<Lost> for DutError {
    fn from(error: Lost) -> DutError {
        DutError::Lost(error)
    }
}

/// Why a target cannot put the cage in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CageError {
    /// A board's cage holds only M=3 and M=4 games.
    #[error(transparent)]
    Board(#[from] boards::CageSizeError),
    /// An emulated cage built for games of one size was given a position of another.
    #[error("the emulated cage holds M={holds} games, not M={given}")]
    Holds {
        /// The cage's game size.
        holds: u8,
        /// The position's.
        given: u8,
    },
    /// The board has no edge fixture: an operator sets its cage.
    #[error(
        "{}: a board without an edge fixture plays `--scenario guided`",
        ProtocolError::NoFixture
    )]
    NoFixture,
    /// The board refused the edges.
    #[error(transparent)]
    Refused(ProtocolError),
}

/// Why a target stopped answering, or answered what it should not have.
#[derive(Debug, thiserror::Error)]
pub enum Lost {
    /// The board answered a command with a reply of another kind.
    #[error("expected {expected}, the board answered {reply:?}")]
    Unexpected {
        /// What the command asks for.
        expected: &'static str,
        /// What came back.
        reply: Reply,
    },
    /// The firmware's ELF cannot be read.
    #[error(transparent)]
    Elf(crate::machine::ElfError),
    /// The ELF's defmt table cannot be read.
    #[error(transparent)]
    Defmt(#[from] defmt::DefmtError),
    /// The probe (probe-rs: listing, attaching, flashing, RTT) failed.
    #[error("{0}")]
    Probe(Box<dyn std::error::Error + Send + Sync>),
    /// The board names no probe-rs chip.
    #[error("{0} has no probe-rs chip")]
    NoChip(&'static str),
    /// RTT did not come up.
    #[error(
        "RTT did not come up after {attempts} attempts: {}",
        last.as_ref().map_or_else(String::new, ToString::to_string)
    )]
    Rtt {
        /// Attach attempts made.
        attempts: u32,
        /// The last attempt's error.
        last: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// The firmware does not have an RTT channel the bench needs.
    #[error("the firmware has no RTT {direction} channel {number}")]
    NoChannel {
        /// `up` or `down`.
        direction: &'static str,
        /// The channel.
        number: usize,
    },
    /// The firmware stopped taking the host's answers on a service channel (QEMU's ADC): its
    /// down buffer stayed full for a reply timeout.
    #[error("the firmware stopped taking answers on RTT down channel {0}")]
    Service(usize),
    /// The machine under the target stopped and said why (the virtual board's one line: an
    /// unmodelled register access, a configuration fault, a firmware panic).
    #[error("{said} (then the bench saw: {then})")]
    Machine {
        /// What the machine said.
        said: String,
        /// What the bench saw.
        then: String,
    },
    /// The transport under the target failed: the machine it runs on (QEMU: started, exited,
    /// hung), the emulated ADC it asks, or a transport of an implementor's own (a [`Dut`]
    /// outside this crate). [`DutError::transport`] looks inside.
    #[error("{0}")]
    Transport(Box<dyn std::error::Error + Send + Sync>),
}

impl DutError {
    /// The transport's error of type `E` under a lost target, if that is what this is.
    pub fn transport<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            DutError::Lost(Lost::Transport(e)) => e.downcast_ref(),
            _ => None,
        }
    }
}

impl From<crate::machine::MachineError> for DutError {
    fn from(error: crate::machine::MachineError) -> DutError {
        DutError::Lost(Lost::Transport(Box::new(error)))
    }
}

impl From<crate::machine::QemuFailure> for DutError {
    fn from(error: crate::machine::QemuFailure) -> DutError {
        DutError::Lost(Lost::Transport(Box::new(error)))
    }
}

impl From<crate::machine::AdcError> for DutError {
    fn from(error: crate::machine::AdcError) -> DutError {
        DutError::Lost(Lost::Transport(Box::new(error)))
    }
}

impl From<crate::machine::ElfError> for DutError {
    fn from(error: crate::machine::ElfError) -> DutError {
        DutError::Lost(Lost::Elf(error))
    }
}

/// A board the bench drives: one command at a time, plus the cage under the board.
pub trait Dut {
    /// The test stage.
    fn stage(&self) -> Setup;

    /// Sends one command and waits for its reply.
    fn exchange(&mut self, command: Command) -> Result<Reply, DutError>;

    /// Log lines the target wrote since the last call (decoded defmt on PIL and HIL).
    fn logs(&mut self) -> Vec<String>;

    /// The cage under the board: how it gets its position.
    fn cage(&mut self) -> &mut dyn Cage;

    /// Puts the cage in `position`: the cage sets itself, or the firmware is told the edges
    /// for its fixture.
    fn set_cage(&mut self, position: &Position) -> Result<(), DutError> {
        match self.cage().set(position)? {
            Some(command) => cage::fixture_set(self.exchange(command)?),
            None => Ok(()),
        }
    }

    /// Game `game` of the run starts ([`Cage::start_game`]).
    fn start_game(&mut self, game: usize) {
        self.cage().start_game(game);
    }

    /// What a link with recovery went through (polls, commands sent again, replies
    /// recovered): `None` for a link that needs none.
    fn retry_stats(&self) -> Option<retry::RetryStats> {
        None
    }
    /// Where the RTT control block is and the channels it declares (names, sizes), in
    /// bring-up's words: `None` for a link that is not RTT.
    fn rtt_layout(&mut self) -> Option<String> {
        None
    }

    /// What the bench found in flash before it flashed, when it says something went wrong (a
    /// download cut mid-way), in one line: `None` otherwise, or for a target never flashed.
    fn flashed(&self) -> Option<String> {
        None
    }

    /// What the probe reached when it is an emulated board that says so (a virtual board,
    /// and where its stub is), in bring-up's words: `None` for a board, or a target of no probe.
    fn behind(&self) -> Option<String> {
        None
    }

    /// The run is over: an emulated board writes what it measured (the virtual board's
    /// coverage). An error says what it could not write, so a run does not end well with its
    /// report short of a file. Called once; dropping the target does it otherwise.
    fn finish(&mut self) -> Result<(), DutError> {
        Ok(())
    }
}

/// A boxed target is a target: what lets [`lockstep::Lockstep`] hold one chosen at run time.
impl<T: Dut + ?Sized> Dut for Box<T> {
    fn stage(&self) -> Setup {
        (**self).stage()
    }

    fn rtt_layout(&mut self) -> Option<String> {
        (**self).rtt_layout()
    }

    fn flashed(&self) -> Option<String> {
        (**self).flashed()
    }

    fn behind(&self) -> Option<String> {
        (**self).behind()
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        (**self).exchange(command)
    }

    fn logs(&mut self) -> Vec<String> {
        (**self).logs()
    }

    fn cage(&mut self) -> &mut dyn Cage {
        (**self).cage()
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), DutError> {
        (**self).set_cage(position)
    }

    fn start_game(&mut self, game: usize) {
        (**self).start_game(game);
    }

    fn retry_stats(&self) -> Option<retry::RetryStats> {
        (**self).retry_stats()
    }

    fn finish(&mut self) -> Result<(), DutError> {
        (**self).finish()
    }
}

/// What to tell a person whose probe was not found.
fn no_probe(request: &str, attached: &[String]) -> String {
    let how = format!(
        "plug the board's debug probe (the NUCLEO's ST-LINK) in by USB, or name one with {}=VID:PID[:SERIAL]",
        hil::PROBE_ENV
    );
    match (request.contains(':'), attached) {
        (false, []) => format!("no debug probe attached to reach the {request}: {how}"),
        (true, []) => format!("no debug probe attached (looked for {request}): {how}"),
        (_, attached) => format!(
            "no attached debug probe is {request} (attached: {}): {how}",
            attached.join(", ")
        ),
    }
}

/// A target lost to a probe-rs error.
#[cfg(feature = "probe")]
pub(crate) fn lost(e: impl std::error::Error + Send + Sync + 'static) -> DutError {
    DutError::Lost(Lost::Probe(Box::new(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_probe_says_what_to_do_and_calls_nothing_lost() {
        let chip = DutError::NoProbe {
            request: "STM32F446RETx".to_string(),
            attached: Vec::new(),
        };
        assert_eq!(
            chip.to_string(),
            "no debug probe attached to reach the STM32F446RETx: plug the board's debug probe \
             (the NUCLEO's ST-LINK) in by USB, or name one with BIRDCAGE_HIL_PROBE=VID:PID[:SERIAL]"
        );
        let named = DutError::NoProbe {
            request: "0483:374b".to_string(),
            attached: vec!["1366:0105:000123".to_string()],
        };
        assert!(
            named
                .to_string()
                .starts_with("no attached debug probe is 0483:374b (attached: 1366:0105:000123): "),
            "{named}"
        );
    }
}
