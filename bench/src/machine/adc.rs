//! The emulated ADC behind the firmware's sampler in QEMU, over either link.

use emulator::emulated::{CageSampler, EmulatedCage};
use firmware::Sampler;
use firmware::pil::Up;
use firmware::protocol::{self, Frame, MAX_FRAME, ProtocolError, Reply};
use heuristic::Size;

/// Why a sampler request could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum AdcError {
    /// A reply came on the sampler's channel.
    #[error("expected a sampler request, the board answered {0:?}")]
    Unexpected(Reply),
    /// The firmware asked the bench for more conversions than a burst holds.
    #[error("the firmware asked for a burst of {0} conversions (1..={max})", max = firmware::BURST)]
    Burst(u8),
    /// The firmware asked the bench for a node the cage does not have.
    #[error("the firmware asked for node {index}; the M=4 cage has {nodes}")]
    Node {
        /// The node's M=4 index.
        index: u8,
        /// The cage's node count.
        nodes: usize,
    },
    /// The answer could not be encoded.
    #[error("bench link: {0}")]
    Encode(#[from] ProtocolError),
}

/// The emulated ADC behind the firmware's sampler in QEMU: answers its requests
/// ([`firmware::pil::Up`]) from the emulated cage, in the order they come, over either link.
#[derive(Debug)]
pub struct Adc {
    sampler: CageSampler,
}

impl Adc {
    /// The ADC of `cage`.
    pub fn new(cage: &EmulatedCage) -> Adc {
        Adc {
            sampler: cage.hardware().sampler,
        }
    }

    /// The encoded answer to request `up` numbered `seq`: `None` for one that needs none
    /// (pull-ups). A reply is not a request: it is refused.
    pub fn answer(&mut self, seq: u16, up: Up) -> Result<Option<Vec<u8>>, AdcError> {
        match up {
            Up::Reply(reply) => Err(AdcError::Unexpected(reply)),
            Up::Pullups(on) => match self.sampler.set_pullups(on) {
                Ok(()) => Ok(None),
                Err(never) => match never {},
            },
            Up::Read(index) => {
                let code = self.convert(index, 1)?[0];
                encode_answer(seq, code).map(Some)
            }
            Up::Burst { node, count } => {
                if !(1..=firmware::BURST).contains(&usize::from(count)) {
                    return Err(AdcError::Burst(count));
                }
                let codes = self.convert(node, count)?;
                encode_answer(seq, codes).map(Some)
            }
        }
    }

    /// `count` conversions of the node with M=4 index `index`, from the emulated cage.
    fn convert(&mut self, index: u8, count: u8) -> Result<Vec<u16>, AdcError> {
        let nodes = Size::M4.node_count();
        if usize::from(index) >= nodes {
            return Err(AdcError::Node { index, nodes });
        }
        let node = Size::M4.node(usize::from(index));
        Ok((0..count)
            .map(|_| match self.sampler.read(node) {
                Ok(code) => code,
                Err(never) => match never {},
            })
            .collect())
    }
}

fn encode_answer(seq: u16, body: impl serde::Serialize) -> Result<Vec<u8>, AdcError> {
    let mut out = [0u8; MAX_FRAME];
    let n = protocol::encode(&Frame { seq, body }, &mut out)?;
    Ok(out[..n].to_vec())
}
