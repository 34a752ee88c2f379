//! The optional edge fixture: SPI-driven analog switches that play moves on the cage, so that
//! the bench can run games on real hardware without hands.

use core::fmt;

use crate::Pin;

/// Daisy-chained ADG714-class switches (8 SPST switches per package, shifted in over SPI and
/// latched on the rising edge of SYNC).
///
/// Each edge uses `switches_per_edge` switches: with 2, one in series with the resistor
/// (open = cut) and one across resistor and series switch (closed = short).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EdgeFixture {
    /// The SPI peripheral.
    pub bus: SpiBus,
    /// Serial clock.
    pub sck: Pin,
    /// Data to the first switch of the chain.
    pub mosi: Pin,
    /// Data back from the last switch's DOUT, to check the chain; `None` if not wired.
    pub miso: Option<Pin>,
    /// SYNC (active low): frames a write and latches it on the rising edge. Driven as a GPIO
    /// because the whole chain is one frame.
    pub sync: Pin,
    /// Packages in the chain.
    pub devices: u8,
    /// Switches per package.
    pub switches_per_device: u8,
    /// Switches per edge.
    pub switches_per_edge: u8,
    /// Typical on-resistance of one switch, seen in series with a resistor or as a short.
    pub switch_on_milliohms: u32,
    /// Typical leakage through one open switch at the supply voltage; models treat an open
    /// switch as the resistance that passes this current at full supply.
    pub switch_off_leakage_picoamps: u32,
}

/// An SPI peripheral of the MCU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SpiBus {
    /// SPI1.
    Spi1,
    /// SPI2.
    Spi2,
    /// SPI3.
    Spi3,
}

/// One signal of the fixture's bus, for naming pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FixtureSignal {
    /// Serial clock.
    Sck,
    /// Data out of the MCU.
    Mosi,
    /// Data into the MCU.
    Miso,
    /// Frame and latch.
    Sync,
}

impl EdgeFixture {
    /// Switches the chain provides.
    ///
    /// ```
    /// let f = boards::NUCLEO_F446RE.fixture.unwrap();
    /// assert_eq!(f.switch_count(), 56);
    /// ```
    pub fn switch_count(&self) -> u32 {
        u32::from(self.devices) * u32::from(self.switches_per_device)
    }

    /// Whether the chain has enough switches for every edge of a board with `edges` edges.
    ///
    /// ```
    /// let f = boards::NUCLEO_F446RE.fixture.unwrap();
    /// assert!(f.covers(25)); // M=4
    /// assert!(!f.covers(41)); // M=5
    /// ```
    pub fn covers(&self, edges: usize) -> bool {
        let needed = edges as u64 * u64::from(self.switches_per_edge);
        needed <= u64::from(self.switch_count())
    }

    /// The bus pins with the signal each carries; `miso` is absent when not wired.
    pub fn pins(&self) -> [(FixtureSignal, Option<Pin>); 4] {
        [
            (FixtureSignal::Sck, Some(self.sck)),
            (FixtureSignal::Mosi, Some(self.mosi)),
            (FixtureSignal::Miso, self.miso),
            (FixtureSignal::Sync, Some(self.sync)),
        ]
    }
}

impl fmt::Display for FixtureSignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FixtureSignal::Sck => "SCK",
            FixtureSignal::Mosi => "MOSI",
            FixtureSignal::Miso => "MISO",
            FixtureSignal::Sync => "SYNC",
        })
    }
}

impl fmt::Display for SpiBus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpiBus::Spi1 => "SPI1",
            SpiBus::Spi2 => "SPI2",
            SpiBus::Spi3 => "SPI3",
        })
    }
}
