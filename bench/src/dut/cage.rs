//! The cage under a board, as a type: each way a cage gets its position is a [`Cage`] —
//! emulated in-process, the edge fixture the firmware drives over the bench protocol, the
//! virtual board's hands (`monitor wire`), or the operator of the guided game. A target is a
//! link plus its cage ([`super::Dut::cage`]); setting the cage is written once,
//! [`super::Dut::set_cage`].

use emulator::emulated::EmulatedCage;
use firmware::protocol::{Command, ProtocolError, Reply};
use heuristic::Position;

use super::{CageError, DutError, Lost};

/// How a cage gets its position.
pub trait Cage {
    /// Puts the cage in `position`, or says what to send the firmware for it to do so
    /// (`Some`: a fixture the firmware drives; the target sends it and checks the reply).
    fn set(&mut self, position: &Position) -> Result<Option<Command>, DutError>;

    /// Game `game` of the run starts: an emulated cage starts that game's own noise stream,
    /// so that a run resumed at game `game` reads what the uninterrupted run read there.
    fn start_game(&mut self, game: usize) {
        let _ = game;
    }
}

/// The emulated cage in-process (SIL, PIL, and QEMU's HIL, whose ADC the host answers from
/// it): the bench wires it.
impl Cage for EmulatedCage {
    fn set(&mut self, position: &Position) -> Result<Option<Command>, DutError> {
        let holds = self.position().size();
        if position.size() != holds {
            return Err(CageError::Holds {
                holds: holds.get(),
                given: position.size().get(),
            }
            .into());
        }
        self.wire(position.clone());
        Ok(None)
    }

    fn start_game(&mut self, game: usize) {
        EmulatedCage::start_game(self, game as u64);
    }
}

/// The edge fixture on a board: the firmware sets the switches when told the edges.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fixture;

impl Cage for Fixture {
    fn set(&mut self, position: &Position) -> Result<Option<Command>, DutError> {
        let states = boards::cage_states(position).map_err(CageError::from)?;
        Ok(Some(Command::SetEdges(states)))
    }
}

/// A cage the operator of the guided game sets by hand: when the bench asks, it is set.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByHand;

impl Cage for ByHand {
    fn set(&mut self, _position: &Position) -> Result<Option<Command>, DutError> {
        Ok(None)
    }
}

/// What the firmware answered to a fixture's edges: done, or why not.
pub(crate) fn fixture_set(reply: Reply) -> Result<(), DutError> {
    match reply {
        Reply::Done => Ok(()),
        Reply::Error(ProtocolError::NoFixture) => Err(CageError::NoFixture.into()),
        Reply::Error(e) => Err(CageError::Refused(e).into()),
        reply => Err(Lost::Unexpected {
            expected: "Done",
            reply,
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heuristic::{Move, Side, Size};

    #[test]
    fn an_emulated_cage_holds_its_size_and_takes_the_position() {
        let profile = boards::by_name("nucleo-f446re").unwrap();
        let size = Size::new(3).unwrap();
        let mut cage = EmulatedCage::new(profile, size, None).unwrap();
        let mut position = Position::new(size, Side::Cut);
        position.play(Move::parse(size, "A1").unwrap()).unwrap();
        assert_eq!(Cage::set(&mut cage, &position).unwrap(), None);
        assert_eq!(cage.position(), position);
        let other = Position::new(Size::new(4).unwrap(), Side::Cut);
        let e = Cage::set(&mut cage, &other).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot set the cage: the emulated cage holds M=3 games, not M=4"
        );
    }

    #[test]
    fn a_fixture_asks_the_firmware_and_reads_its_answer() {
        let position = Position::new(Size::new(4).unwrap(), Side::Cut);
        let Some(Command::SetEdges(states)) = Fixture.set(&position).unwrap() else {
            panic!("a fixture is set by the firmware");
        };
        assert_eq!(states, boards::cage_states(&position).unwrap());
        assert!(fixture_set(Reply::Done).is_ok());
        assert!(matches!(
            fixture_set(Reply::Error(ProtocolError::NoFixture)),
            Err(DutError::Cage(CageError::NoFixture))
        ));
        assert!(matches!(
            fixture_set(Reply::Error(ProtocolError::Cobs)),
            Err(DutError::Cage(CageError::Refused(ProtocolError::Cobs)))
        ));
        assert!(matches!(
            fixture_set(Reply::Turn(firmware::Outcome::NewGame { size: 4 })),
            Err(DutError::Lost(Lost::Unexpected { .. }))
        ));
        assert_eq!(ByHand.set(&position).unwrap(), None);
    }
}
