//! What every register model is to the bus: one trait, kept as small as embedded-hal's. A model
//! answers reads and writes at offsets into its block, goes back to its reset values, names its
//! registers and says which RCC bit clocks it; [`super::map`] places it in the address space.
//! What crosses peripherals (a conversion needs the clocks, the pin's mode and the cage) is not
//! a model's: a write returns an [`Event`] and the board applies the chip's rules
//! ([`crate::board`]).

use std::any::Any;

use boards::Port;

use crate::stop::Refusal;

/// A clock enable bit, to name in a fault.
#[derive(Clone, Copy, Debug)]
pub struct Enable {
    /// The enable register's name.
    pub register: &'static str,
    /// Its offset.
    pub offset: u32,
    /// The bit.
    pub bit: u32,
    /// The bit's name.
    pub name: &'static str,
}

/// A register model on the chip's bus.
pub trait Peripheral: Any + std::fmt::Debug {
    /// The register at `offset` from the block's base, by the reference manual's name,
    /// modelled or not (a fault names it).
    fn register(&self, offset: u32) -> Option<&'static str>;

    /// Reads the register at `offset` (a register the model does not keep is refused).
    fn read(&mut self, offset: u32, bus: &mut Bus<'_>) -> Result<u32, Refusal>;

    /// Writes the register at `offset`; what the write asks of the world outside the model.
    fn write(&mut self, offset: u32, value: u32, bus: &mut Bus<'_>) -> Result<Event, Refusal>;

    /// A system reset: the registers at their reset values. What lies outside the chip (a
    /// pin's external level, a fault made on purpose) and the debug domain stay.
    fn reset(&mut self);

    /// The RCC enable bit without which the block ignores writes and reads 0; `None`: always
    /// clocked.
    fn clock(&self) -> Option<Enable> {
        None
    }

    /// The core cycle at which the block resets the chip by itself (a watchdog's expiry), if
    /// it will.
    fn due(&self) -> Option<u64> {
        None
    }

    /// Whether the block's registers are 16 bits wide and taken by half-words too (SPI).
    fn half_words(&self) -> bool {
        false
    }
}

/// What an access sees of the chip around the model: the time, and the other models.
#[derive(Debug)]
pub struct Bus<'a> {
    /// The core cycle of the access.
    pub now: u64,
    /// Cycles the access moves time on by: a poll fast-forwarded to what it waits for (the
    /// core would only spin until then).
    pub skip: u64,
    /// SYSCLK in Hz at the access (RCC's clock tree; the flash interface times its
    /// operations by it): given by the chip, so no model reads RCC's.
    pub sysclk: u64,
    peers: &'a [Box<dyn Peripheral>],
}

impl<'a> Bus<'a> {
    /// An access at core cycle `now` with `peers` beside the model.
    pub fn new(now: u64, peers: &'a [Box<dyn Peripheral>]) -> Bus<'a> {
        Bus {
            now,
            skip: 0,
            sysclk: super::HSI_HZ,
            peers,
        }
    }

    /// The first other model of type `T` (the flash interface, for RCC's clock switch).
    pub fn peer<T: Peripheral>(&self) -> Option<&T> {
        self.peers
            .iter()
            .find_map(|m| (&**m as &dyn Any).downcast_ref::<T>())
    }
}

/// What a write asks of the world outside the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Nothing.
    None,
    /// ADC1: SWSTART with ADON; convert (the board checks the chip's rules and reads the
    /// cage).
    Convert,
    /// SPI2: shift this frame out on MOSI and one in from MISO.
    Transfer(u16),
    /// A GPIO port's output latch was written: its ODR before (the board finds what changed).
    Outputs(Port, u32),
    /// AIRCR.SYSRESETREQ: a system reset.
    SystemReset,
    /// FLASH_CR.STRT: erase these bytes of flash (first address, length) to 0xFF, which the
    /// core holds (RM0390 3.5.3).
    Erase(u32, u32),
}

/// The placeholder a model leaves in the chip's list while it is being accessed.
#[derive(Debug)]
pub(super) struct Vacant;

impl Peripheral for Vacant {
    fn register(&self, _: u32) -> Option<&'static str> {
        None
    }
    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        Err(super::reg::unmodelled(offset, None))
    }
    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        Err(super::reg::unmodelled(offset, Some(value)))
    }
    fn reset(&mut self) {}
}
