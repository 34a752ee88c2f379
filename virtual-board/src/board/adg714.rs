//! The ADG714 daisy chain behind SPI2 (ADG714 data sheet: an 8-bit shift register per package,
//! DOUT of one into DIN of the next, latched on SYNC's rising edge): the edge fixture, a device
//! of the board on the chip's SPI2 pins and its SYNC pin.

/// ADG714 packages in a daisy chain: MOSI feeds package 0, the last package's DOUT is MISO.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    shifting: Vec<u8>,
    latched: Vec<u8>,
}

impl Chain {
    /// `devices` packages, every switch open (the ADG714's power-on state).
    pub fn new(devices: usize) -> Chain {
        Chain {
            shifting: vec![0; devices],
            latched: vec![0; devices],
        }
    }

    /// Shifts `byte` in at package 0 while SYNC is low; returns what leaves the far end.
    pub fn shift(&mut self, byte: u8) -> u8 {
        let Some(&out) = self.shifting.last() else {
            return byte;
        };
        self.shifting.rotate_right(1);
        self.shifting[0] = byte;
        out
    }

    /// SYNC rises: every package latches what it holds.
    pub fn latch(&mut self) {
        self.latched.clone_from(&self.shifting);
    }

    /// The latched bytes, package 0 first.
    pub fn latched(&self) -> &[u8] {
        &self.latched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_comes_out_of_a_three_package_chain_three_bytes_later() {
        let mut chain = Chain::new(3);
        assert_eq!(chain.shift(0xA5), 0);
        assert_eq!(chain.shift(0xA4), 0);
        assert_eq!(chain.shift(0xA3), 0);
        assert_eq!(chain.shift(0), 0xA5);
        chain.latch();
        assert_eq!(chain.latched(), [0, 0xA3, 0xA4]);
    }
}
