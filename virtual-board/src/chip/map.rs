//! The chip in one table: every modelled register block as (base, size, name, model). The
//! table drives the bus decode, the clock check, the names of the modelled registers and the
//! 4 KiB pages the core maps to the models (MMIO); an address in no row is named by
//! [`super::unmodelled::name`] and refused. Adding a peripheral is a model file and a row.

use std::any::Any;

use boards::Port;

use super::adc::Adc1;
use super::coresight::Identified;
use super::dbgmcu::Dbgmcu;
use super::debug::{Dwt, Fpb, Itm};
use super::flash::FlashInterface;
use super::gpio::Gpio;
use super::iwdg::Iwdg;
use super::mpu::Mpu;
use super::peripheral::{Bus, Event, Peripheral, Vacant};
use super::rcc::Rcc;
use super::scb::Scb;
use super::spi::Spi;
use super::systick::SysTick;
use crate::stop::{Access, Refusal};

/// A register block of the chip and the model that answers it.
#[derive(Debug)]
pub struct Block {
    /// First address (RM0390 table 1; PM0214 for the core's blocks).
    pub base: u32,
    /// Bytes.
    pub size: u32,
    /// The peripheral's name as the reference manual writes it.
    pub name: &'static str,
    /// The model at reset.
    pub model: fn() -> Box<dyn Peripheral>,
}

/// Every block the virtual board models.
pub const MAP: &[Block] = &[
    Block {
        base: 0x4000_3000,
        size: 0x400,
        name: "IWDG",
        model: || Box::new(Iwdg::default()),
    },
    Block {
        base: 0x4000_3800,
        size: 0x400,
        name: "SPI2",
        model: || Box::new(Spi::default()),
    },
    Block {
        base: 0x4001_2000,
        size: 0x400,
        name: "ADC1",
        model: || Box::new(Adc1::default()),
    },
    Block {
        base: 0x4002_0000,
        size: 0x400,
        name: "GPIOA",
        model: || Box::new(Gpio::new(Port::A)),
    },
    Block {
        base: 0x4002_0400,
        size: 0x400,
        name: "GPIOB",
        model: || Box::new(Gpio::new(Port::B)),
    },
    Block {
        base: 0x4002_0800,
        size: 0x400,
        name: "GPIOC",
        model: || Box::new(Gpio::new(Port::C)),
    },
    Block {
        base: 0x4002_0C00,
        size: 0x400,
        name: "GPIOD",
        model: || Box::new(Gpio::new(Port::D)),
    },
    Block {
        base: 0x4002_1C00,
        size: 0x400,
        name: "GPIOH",
        model: || Box::new(Gpio::new(Port::H)),
    },
    Block {
        base: 0x4002_3800,
        size: 0x400,
        name: "RCC",
        model: || Box::new(Rcc::default()),
    },
    Block {
        base: 0x4002_3C00,
        size: 0x400,
        name: "FLASH",
        model: || Box::new(FlashInterface::default()),
    },
    Block {
        base: gdb_probe::cortex_m::DWT_CTRL,
        size: 0x1000,
        name: "DWT",
        model: || Box::new(Dwt::default()),
    },
    Block {
        base: gdb_probe::cortex_m::FP_CTRL,
        size: 0x1000,
        name: "FPB",
        model: || Box::new(Fpb::default()),
    },
    Block {
        base: 0xE000_E010,
        size: 0x10,
        name: "SYST",
        model: || Box::new(SysTick::default()),
    },
    Block {
        base: super::scb::BASE,
        size: super::mpu::BASE - super::scb::BASE,
        name: "SCB",
        model: || Box::new(Scb::at(super::scb::BASE)),
    },
    Block {
        base: super::mpu::BASE,
        size: super::mpu::SIZE,
        name: "MPU",
        model: || Box::new(Mpu::default()),
    },
    // The SCB again past the MPU: the debug registers and the FPU's (PM0214 4.6).
    Block {
        base: super::mpu::BASE + super::mpu::SIZE,
        size: super::scb::END - (super::mpu::BASE + super::mpu::SIZE),
        name: "SCB",
        model: || Box::new(Scb::at(super::mpu::BASE + super::mpu::SIZE)),
    },
    Block {
        base: 0xE004_2000,
        size: 0x400,
        name: "DBGMCU",
        model: || Box::new(Dbgmcu::default()),
    },
    // What a debugger reads to find the core (`coresight`): the SCS's identification past
    // the SCB's registers, the trace units' (only their identification is modelled), and the
    // ROM table.
    Block {
        base: 0xE000_EFA0,
        size: 0x60,
        name: "SCS",
        model: || Box::new(Identified::new("SCS", 0xFA0)),
    },
    Block {
        base: 0xE000_0000,
        size: 0x1000,
        name: "ITM",
        model: || Box::new(Itm::default()),
    },
    Block {
        base: 0xE004_0000,
        size: 0x1000,
        name: "TPIU",
        model: || Box::new(Identified::new("TPIU", 0)),
    },
    Block {
        base: 0xE004_1000,
        size: 0x1000,
        name: "ETM",
        model: || Box::new(Identified::new("ETM", 0)),
    },
    Block {
        base: super::coresight::ROM,
        size: 0x1000,
        name: "ROM",
        model: || Box::new(Identified::new("ROM", 0)),
    },
];

/// The bit-band alias of the peripherals (PM0214 2.2.5).
const BITBAND: u32 = 0x4200_0000;
const BITBAND_END: u32 = 0x4400_0000;
const PERIPHERALS: u32 = 0x4000_0000;

/// The core maps the models' 4 KiB pages (MMIO), and the bit-band alias, every one once.
/// Everything else is unmapped, so an access there stops the run with its exact PC; a register
/// the models do not know inside these pages stops it at the start of its instruction block.
pub fn pages() -> Vec<(u32, u32)> {
    let mut pages: Vec<(u32, u32)> = MAP
        .iter()
        .flat_map(|b| (b.base & !0xFFF..b.base + b.size).step_by(0x1000))
        .map(|page| (page, 0x1000))
        .collect();
    pages.push((BITBAND, BITBAND_END - BITBAND));
    pages.sort_unstable();
    pages.dedup();
    pages
}

/// The word and bit a bit-band alias address stands for (PM0214 2.2.5).
fn bitband(alias: u32) -> (u32, u32) {
    let offset = alias - BITBAND;
    let byte = PERIPHERALS + offset / 32;
    let bit = (offset % 32) / 4 + 8 * (byte & 3);
    (byte & !3, bit)
}

/// The block at `address`, by its row in [`MAP`].
fn row(address: u32) -> Option<usize> {
    MAP.iter()
        .position(|b| (b.base..b.base + b.size).contains(&address))
}

/// A write that landed: the word and value the model took (the bit-band alias's word), what
/// it asks of the board, and the cycles it moved time on by.
#[derive(Clone, Copy, Debug)]
pub struct Written {
    /// The register's address.
    pub address: u32,
    /// The value written to it.
    pub value: u32,
    /// What the model asks.
    pub event: Event,
    /// Cycles skipped.
    pub skip: u64,
}

/// The chip's register models on one bus.
#[derive(Debug)]
pub struct Chip {
    /// One model per row of [`MAP`], in its order.
    models: Vec<Box<dyn Peripheral>>,
}

impl Default for Chip {
    fn default() -> Self {
        Chip {
            models: MAP.iter().map(|b| (b.model)()).collect(),
        }
    }
}

impl Chip {
    /// A system reset: every model at its reset values.
    pub fn reset(&mut self) {
        for m in &mut self.models {
            m.reset();
        }
    }

    /// The first core cycle at which a block resets the chip by itself (`u64::MAX`: none will).
    pub fn due(&self) -> u64 {
        self.models
            .iter()
            .filter_map(|m| m.due())
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The first model of type `T`.
    pub fn get<T: Peripheral>(&self) -> &T {
        self.models
            .iter()
            .find_map(|m| (&**m as &dyn Any).downcast_ref::<T>())
            .expect("the map has the model")
    }

    /// The first model of type `T`, to change it.
    pub fn get_mut<T: Peripheral>(&mut self) -> &mut T {
        self.models
            .iter_mut()
            .find_map(|m| (&mut **m as &mut dyn Any).downcast_mut::<T>())
            .expect("the map has the model")
    }

    /// GPIO port `port` (a bonded port: the profile's pins are checked at start).
    pub fn gpio(&self, port: Port) -> &Gpio {
        self.models
            .iter()
            .filter_map(|m| (&**m as &dyn Any).downcast_ref::<Gpio>())
            .find(|g| g.port == port)
            .expect("a bonded port")
    }

    /// GPIO port `port`, to drive its pins from outside.
    pub fn gpio_mut(&mut self, port: Port) -> &mut Gpio {
        self.models
            .iter_mut()
            .filter_map(|m| (&mut **m as &mut dyn Any).downcast_mut::<Gpio>())
            .find(|g| g.port == port)
            .expect("a bonded port")
    }

    /// The peripheral and register at `address`, and the register's offset in its block.
    fn names(&self, address: u32) -> (Option<&'static str>, Option<&'static str>, u32) {
        match row(address) {
            Some(i) => {
                let offset = address - MAP[i].base;
                (Some(MAP[i].name), self.models[i].register(offset), offset)
            }
            None => {
                let (peripheral, register) = super::unmodelled::name(address);
                (peripheral, register, address & 0x3FF)
            }
        }
    }

    /// The access at `address`, named, for a fault.
    pub fn access(&self, address: u32, written: Option<u32>, size: usize) -> Access {
        let (peripheral, register, offset) = self.names(address);
        Access {
            address,
            offset,
            peripheral,
            register,
            written,
            size,
        }
    }

    /// A refusal from a model, named at `address` (a model knows only its offsets).
    pub fn complete(&self, fault: Refusal, address: u32, written: Option<u32>) -> Refusal {
        match fault {
            Refusal::Unmodelled(_) => Refusal::Unmodelled(self.access(address, written, 4)),
            config => config,
        }
    }

    /// Whether block `i` is clocked (RCC's enables): a model whose clock is off is a fault.
    fn clocked(&self, i: usize) -> Result<(), Refusal> {
        let Some(enable) = self.models[i].clock() else {
            return Ok(());
        };
        let rcc = self.get::<Rcc>();
        if rcc.enabled(enable) {
            return Ok(());
        }
        Err(Refusal::config(
            format!(
                "{} accessed with its clock off (RCC_{} = {:#010x}: {} = 0); the chip \
                 ignores the write or reads 0",
                MAP[i].name,
                enable.register,
                rcc.value_of(enable),
                enable.name
            ),
            "RM0390, RCC peripheral clock enable registers",
        ))
    }

    /// Model `i` out of the list for an access with the others as its peers.
    fn with<R>(
        &mut self,
        i: usize,
        now: u64,
        f: impl FnOnce(&mut dyn Peripheral, &mut Bus<'_>) -> R,
    ) -> (R, u64) {
        let sysclk = self.get::<Rcc>().clocks().sysclk;
        let mut model = std::mem::replace(&mut self.models[i], Box::new(Vacant));
        let mut bus = Bus::new(now, &self.models);
        bus.sysclk = sysclk;
        let result = f(&mut *model, &mut bus);
        let skip = bus.skip;
        self.models[i] = model;
        (result, skip)
    }

    /// Reads the word at `address` at core cycle `now`: its value and the cycles skipped.
    fn read_word(&mut self, address: u32, now: u64) -> Result<(u32, u64), Refusal> {
        let Some(i) = row(address) else {
            return Err(self.complete(super::reg::unmodelled(address, None), address, None));
        };
        self.clocked(i)?;
        let offset = address - MAP[i].base;
        match self.with(i, now, |m, bus| m.read(offset, bus)) {
            (Ok(value), skip) => Ok((value, skip)),
            (Err(f), _) => Err(self.complete(f, address, None)),
        }
    }

    /// Writes the word at `address` at core cycle `now`.
    fn write_word(&mut self, address: u32, value: u32, now: u64) -> Result<Written, Refusal> {
        let Some(i) = row(address) else {
            return Err(self.complete(
                super::reg::unmodelled(address, Some(value)),
                address,
                Some(value),
            ));
        };
        self.clocked(i)?;
        let offset = address - MAP[i].base;
        match self.with(i, now, |m, bus| m.write(offset, value, bus)) {
            (Ok(event), skip) => Ok(Written {
                address,
                value,
                event,
                skip,
            }),
            (Err(f), _) => Err(self.complete(f, address, Some(value))),
        }
    }

    /// Reads `size` bytes at `address` (a peripheral) at core cycle `now`; a sub-word read
    /// takes its bytes of the word. The value and the cycles the read skipped.
    pub fn read(&mut self, address: u32, size: usize, now: u64) -> Result<(u32, u64), Refusal> {
        let aligned = address & !3;
        let (word, skip) = if (BITBAND..BITBAND_END).contains(&address) {
            let (word, bit) = bitband(aligned);
            let (value, skip) = self.read_word(word, now)?;
            ((value >> bit) & 1, skip)
        } else {
            self.read_word(aligned, now)?
        };
        let shift = 8 * (address & 3);
        let mask = if size >= 4 {
            u32::MAX
        } else {
            (1u32 << (8 * size)) - 1
        };
        Ok(((word >> shift) & mask, skip))
    }

    /// Writes `size` bytes of `value` at `address` (a peripheral) at core cycle `now`. A
    /// sub-word write to a register is refused (the models take words), except through the
    /// bit-band alias and to a block of 16-bit registers.
    pub fn write(
        &mut self,
        address: u32,
        size: usize,
        value: u32,
        now: u64,
    ) -> Result<Written, Refusal> {
        if (BITBAND..BITBAND_END).contains(&address) {
            let (word, bit) = bitband(address & !3);
            // The alias is a read-modify-write of the word, as the bus matrix does it.
            let (old, skip) = self.read_word(word, now)?;
            let new = (old & !(1 << bit)) | ((value & 1) << bit);
            let mut written = self.write_word(word, new, now + skip)?;
            written.skip += skip;
            return Ok(written);
        }
        // SPI's registers are 16 bits wide and taken by half-words (RM0390, SPI registers);
        // their upper half is reserved.
        if size == 2
            && address & 3 == 0
            && row(address).is_some_and(|i| self.models[i].half_words())
        {
            return self.write_word(address, value & 0xFFFF, now);
        }
        if size != 4 || address & 3 != 0 {
            return Err(Refusal::Unmodelled(self.access(address, Some(value), size)));
        }
        self.write_word(address, value, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bit_band_alias_is_its_peripheral_word_and_bit() {
        // RCC_APB2ENR (0x40023844) bit 8, ADC1EN: 0x42000000 + 0x23844 * 32 + 8 * 4.
        assert_eq!(bitband(0x4247_08A0), (0x4002_3844, 8));
    }

    #[test]
    fn the_blocks_do_not_overlap_and_the_gpio_rows_are_the_bonded_ports() {
        for (i, a) in MAP.iter().enumerate() {
            for b in &MAP[i + 1..] {
                assert!(
                    a.base + a.size <= b.base || b.base + b.size <= a.base,
                    "{} and {} overlap",
                    a.name,
                    b.name
                );
            }
        }
        // RM0390 table 1: GPIOx at 0x4002_0000 + 0x400 per letter (A = 0 .. H = 7).
        let chip = Chip::default();
        for port in super::super::PORTS {
            let name = format!("GPIO{port:?}");
            let block = MAP.iter().find(|b| b.name == name).expect("a row");
            assert_eq!(
                block.base,
                0x4002_0000 + 0x400 * super::super::port_index(port),
                "{name}"
            );
            assert_eq!(chip.gpio(port).port, port);
        }
    }

    #[test]
    fn the_mmio_pages_are_the_models_pages_and_the_bit_band_alias() {
        // The pages the core mapped by hand before the map drove them, and the debug
        // components' (the ROM table's walk).
        assert_eq!(
            pages(),
            [
                (0x4000_3000, 0x1000),
                (0x4001_2000, 0x1000),
                (0x4002_0000, 0x1000),
                (0x4002_1000, 0x1000),
                (0x4002_3000, 0x1000),
                (0x4200_0000, 0x0200_0000),
                // ITM, DWT, FPB, the SCS; TPIU, ETM, DBGMCU; the ROM table.
                (0xE000_0000, 0x1000),
                (0xE000_1000, 0x1000),
                (0xE000_2000, 0x1000),
                (0xE000_E000, 0x1000),
                (0xE004_0000, 0x1000),
                (0xE004_1000, 0x1000),
                (0xE004_2000, 0x1000),
                (0xE00F_F000, 0x1000),
            ]
        );
    }

    #[test]
    fn registers_are_named_by_their_model_or_from_the_memory_map() {
        let chip = Chip::default();
        let named = |a| {
            let (p, r, _) = chip.names(a);
            (p, r)
        };
        assert_eq!(named(0x4002_3C04), (Some("FLASH"), Some("KEYR")));
        assert_eq!(named(0x4001_2304), (Some("ADC1"), Some("CCR")));
        assert_eq!(named(0xE000_ED0C), (Some("SCB"), Some("AIRCR")));
        // PM0214 4.2: the MPU inside the SCB's span, and the SCB past it.
        assert_eq!(named(0xE000_ED94), (Some("MPU"), Some("CTRL")));
        assert_eq!(named(0xE000_EDF0), (Some("SCB"), Some("DHCSR")));
        assert_eq!(named(0xE000_EF44), (Some("SCB"), Some("MVFR1")));
        assert_eq!(named(0x4000_7000), (Some("PWR"), Some("CR1")));
        assert_eq!(named(0x4002_0C1C), (Some("GPIOD"), None));
        assert_eq!(named(0x3000_0000), (None, None));
        // A block whose base is not 1 KiB aligned counts its offsets from its own base.
        assert_eq!(chip.names(0xE000_E01C).2, 0xC);
    }
}
