//! The edge fixture: every edge of the M=4 cage gets a series switch (closed = resistor in
//! circuit, open = cut) and a bypass switch across resistor and series switch (closed = short),
//! from daisy-chained 8-channel ADG714 switches on SPI (7 packages for the 50 switches).
//!
//! Bit layout, from the board's [`boards::EdgeFixture`]: edge `i` of the cage in M=4 reading order
//! uses switch `2i` (series) and `2i + 1` (bypass). Switch `s` is in package `s / 8` (package 0
//! takes MOSI first) and is its switch S`(s % 8 + 1)`, data bit `s % 8` (ADG714: DB7..DB0
//! control S8..S1, 1 closes). A daisy chain shifts the first byte out to the far end, so a
//! frame sends the last package's byte first and package 0's byte last, then raises SYNC to
//! latch every package at once.
//!
//! Read-back: when the last package's DOUT is wired to MISO, every frame is shifted twice in
//! one SYNC window. The chain keeps (and latches) the second copy and hands the first back on
//! MISO, so a frame that does not come back means the chain is absent, short or broken. At
//! start-up a test pattern followed by an all-open frame finds out whether a fixture is fitted
//! at all: a bare board then plays by hand instead of trusting switches that are not there.

use boards::{CAGE_EDGES, EdgeFixture};
use embedded_hal::digital::OutputPin;
use embedded_hal::spi::SpiBus;
use heuristic::EdgeState;

/// Packages a frame can address (8 × 8 = 64 switches).
pub const MAX_DEVICES: usize = 8;

/// Sets every edge of the cage.
pub trait EdgeSwitches {
    /// What can go wrong driving the switches.
    type Error: core::fmt::Debug;

    /// Whether a fixture is fitted; without one the bench's `set edges` is refused.
    fn present(&self) -> bool {
        true
    }

    /// Makes the cage's edges (M=4 reading order, see [`boards::cage_states`]) what `cage` says.
    fn set(&mut self, cage: &[EdgeState; CAGE_EDGES]) -> Result<(), Self::Error>;
}

/// No fixture fitted: edges are played by hand.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFixture;

impl EdgeSwitches for NoFixture {
    type Error = core::convert::Infallible;

    fn present(&self) -> bool {
        false
    }

    fn set(&mut self, _cage: &[EdgeState; CAGE_EDGES]) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// The bytes to shift into the chain for `cage`, last package first; `None` if the chain
/// described by `fixture` has too few switches or more than [`MAX_DEVICES`] packages.
pub fn cage_frame(
    fixture: &EdgeFixture,
    cage: &[EdgeState; CAGE_EDGES],
) -> Option<heapless::Vec<u8, MAX_DEVICES>> {
    let devices = usize::from(fixture.devices);
    let per_device = usize::from(fixture.switches_per_device);
    if devices > MAX_DEVICES || per_device != 8 || fixture.switches_per_edge != 2 {
        return None;
    }
    if !fixture.covers(CAGE_EDGES) {
        return None;
    }
    let mut by_device = [0u8; MAX_DEVICES];
    for (i, state) in cage.iter().enumerate() {
        let (series, bypass) = match state {
            EdgeState::Resistor => (true, false),
            EdgeState::Cut => (false, false),
            // The wire alone: the resistor's own switch open, the bypass closed.
            EdgeState::Short => (false, true),
        };
        let (s, b) = edge_switches(i);
        for (switch, closed) in [(s, series), (b, bypass)] {
            if closed {
                by_device[switch / per_device] |= 1 << (switch % per_device);
            }
        }
    }
    Some(by_device[..devices].iter().rev().copied().collect())
}

/// The switches of edge `i` (M=4 reading order): its series switch and its bypass.
pub const fn edge_switches(i: usize) -> (usize, usize) {
    (2 * i, 2 * i + 1)
}

/// What the cage's edges are with the chain's packages latched to `by_device` (package 0, the
/// one MOSI feeds, first): the inverse of [`cage_frame`], for a model of the fixture. A closed
/// bypass shorts the edge whatever its series switch does; `None` where [`cage_frame`] would
/// refuse the fixture or `by_device` is not one byte per package.
pub fn latched_cage(fixture: &EdgeFixture, by_device: &[u8]) -> Option<[EdgeState; CAGE_EDGES]> {
    let per_device = usize::from(fixture.switches_per_device);
    if by_device.len() != usize::from(fixture.devices)
        || by_device.len() > MAX_DEVICES
        || per_device != 8
        || fixture.switches_per_edge != 2
        || !fixture.covers(CAGE_EDGES)
    {
        return None;
    }
    let closed = |switch: usize| by_device[switch / per_device] & (1 << (switch % per_device)) != 0;
    let mut cage = [EdgeState::Cut; CAGE_EDGES];
    for (i, state) in cage.iter_mut().enumerate() {
        let (series, bypass) = edge_switches(i);
        *state = match (closed(series), closed(bypass)) {
            (_, true) => EdgeState::Short,
            (true, false) => EdgeState::Resistor,
            (false, false) => EdgeState::Cut,
        };
    }
    Some(cage)
}

/// Errors of the ADG714 chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainError<S, P> {
    /// The SPI bus failed.
    Spi(S),
    /// The SYNC pin failed.
    Sync(P),
    /// The profile's fixture does not fit the frame format (see [`cage_frame`]).
    Layout,
    /// The frame did not come back through the chain's DOUT: a package is missing or the chain
    /// is broken.
    Readback,
}

/// ADG714 packages daisy-chained on an SPI bus, SYNC driven as a GPIO (the whole chain is one
/// frame). SPI mode 1 or 2 (the ADG714 samples DIN on SCLK's falling edge), MSB first.
#[derive(Debug)]
pub struct Adg714Chain<SPI, SYNC> {
    spi: SPI,
    sync: SYNC,
    fixture: EdgeFixture,
    fitted: bool,
}

/// The start-up test pattern for package `i`: never all 0 or all 1 (what an unconnected MISO
/// reads), and different for each package, so a chain a package short or long does not match.
fn pattern(i: usize) -> u8 {
    0xA5 ^ (i as u8)
}

impl<SPI: SpiBus, SYNC: OutputPin> Adg714Chain<SPI, SYNC> {
    /// Takes the bus and SYNC, and raises SYNC (idle). With MISO wired, checks that a chain of
    /// the profile's length answers (and leaves every switch open, as power-on does); without
    /// it, takes the fixture as fitted. The switches are set by [`EdgeSwitches::set`].
    pub fn new(
        spi: SPI,
        mut sync: SYNC,
        fixture: EdgeFixture,
    ) -> Result<Self, ChainError<SPI::Error, SYNC::Error>> {
        sync.set_high().map_err(ChainError::Sync)?;
        let mut chain = Adg714Chain {
            spi,
            sync,
            fixture,
            fitted: true,
        };
        if chain.fixture.miso.is_some() {
            // The pattern, then an all-open frame to latch; the pattern must come back.
            let n = usize::from(chain.fixture.devices).min(MAX_DEVICES);
            let mut out = [0u8; 2 * MAX_DEVICES];
            for (i, byte) in out[..n].iter_mut().enumerate() {
                *byte = pattern(i);
            }
            chain.fitted = chain.shift(&out[..2 * n], &out[..n])?;
        }
        Ok(chain)
    }

    /// The bus and the pin back.
    pub fn release(self) -> (SPI, SYNC) {
        (self.spi, self.sync)
    }

    /// Shifts `out` in one SYNC window and latches it; with MISO wired, whether the last
    /// `expect.len()` bytes read back are `expect`.
    fn shift(
        &mut self,
        out: &[u8],
        expect: &[u8],
    ) -> Result<bool, ChainError<SPI::Error, SYNC::Error>> {
        let mut back = [0u8; 2 * MAX_DEVICES];
        let back = &mut back[..out.len()];
        self.sync.set_low().map_err(ChainError::Sync)?;
        let sent = match self.fixture.miso {
            Some(_) => self.spi.transfer(back, out),
            None => self.spi.write(out),
        }
        .and_then(|()| self.spi.flush())
        .map_err(ChainError::Spi);
        // Raise SYNC even after a bus error, so the chain is not left mid-frame.
        self.sync.set_high().map_err(ChainError::Sync)?;
        sent?;
        Ok(back.ends_with(expect))
    }
}

impl<SPI: SpiBus, SYNC: OutputPin> EdgeSwitches for Adg714Chain<SPI, SYNC> {
    type Error = ChainError<SPI::Error, SYNC::Error>;

    fn present(&self) -> bool {
        self.fitted
    }

    fn set(&mut self, cage: &[EdgeState; CAGE_EDGES]) -> Result<(), Self::Error> {
        let frame = cage_frame(&self.fixture, cage).ok_or(ChainError::Layout)?;
        if self.fixture.miso.is_none() {
            return self.shift(&frame, &[]).map(|_| ());
        }
        let n = frame.len();
        let mut twice = [0u8; 2 * MAX_DEVICES];
        twice[..n].copy_from_slice(&frame);
        twice[n..2 * n].copy_from_slice(&frame);
        match self.shift(&twice[..2 * n], &frame)? {
            true => Ok(()),
            false => Err(ChainError::Readback),
        }
    }
}
