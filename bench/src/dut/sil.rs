//! SIL: the firmware application in-process on the emulated board.

use emulator::emulated::{EmulatedApp, EmulatedCage};
use firmware::protocol::{Command, MAX_FRAME, Reply};
use heuristic::Size;

use super::frame::{Sequence, decode_reply, encode_command};
use super::{Cage, CageError, Dut, DutError};

/// SIL: the firmware application in-process on the emulated board; frames go through
/// a [`firmware::Server`] byte by byte, as they would over a wire.
#[derive(Debug)]
pub struct Sil {
    cage: EmulatedCage,
    app: EmulatedApp,
    server: firmware::Server,
    seq: Sequence,
}

impl Sil {
    /// The firmware on `profile`'s emulated board for games of `size`: nominal parts and a
    /// perfect ADC without a seed, parts and ADC drawn from `seed` with one.
    pub fn new(
        profile: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
    ) -> Result<Sil, DutError> {
        let cage = EmulatedCage::new(profile, size, seed).map_err(CageError::from)?;
        let app = cage.app(profile, firmware::Config::default());
        Ok(Sil {
            cage,
            app,
            server: firmware::Server::new(),
            seq: Sequence::default(),
        })
    }

    /// The emulated cage, to inject faults.
    pub fn emulated_cage(&self) -> &EmulatedCage {
        &self.cage
    }
}

impl Dut for Sil {
    fn stage(&self) -> crate::dut::Setup {
        crate::dut::Stage::Sil.into()
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        let mut out = [0u8; MAX_FRAME];
        let mut reply = Vec::new();
        for &b in &frame {
            if let Some(n) = self.server.push(&mut self.app, b, &mut out) {
                reply.extend_from_slice(&out[..n]);
            }
        }
        decode_reply(seq, &reply)
    }

    fn logs(&mut self) -> Vec<String> {
        // The host build of the firmware logs nothing (defmt is off).
        Vec::new()
    }

    fn cage(&mut self) -> &mut dyn Cage {
        &mut self.cage
    }
}
