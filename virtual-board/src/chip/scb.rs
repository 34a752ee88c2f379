//! The System Control Block's registers the binary and a debugger use (PM0214 4.4): CPUID,
//! VTOR, AIRCR (SYSRESETREQ resets the chip), SHCSR (panic-probe clears USGFAULTENA before its
//! `udf`), CPACR (the FPU's access), and the FPU's MVFR0/MVFR1 (PM0214 4.6), which a debugger
//! reads to know the core has an FPU. The MPU's registers lie inside the SCB's span and are
//! a block of their own ([`super::mpu`]): the SCB is two rows of the map, one each side.

use gdb_probe::cortex_m::{AIRCR, CPACR, CPUID, MVFR0, MVFR1, SHCSR, SYSRESETREQ, VECTKEY, VTOR};

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// SCB's base: CPUID (PM0214 4.4, table 49).
pub const BASE: u32 = CPUID;
/// MVFR2's end: the last register of the FPU's block (ARMv7-M ARM B4.1; MVFR2 reads zero
/// on the Cortex-M4, which a debugger reads to know).
pub const END: u32 = MVFR1 + 8;

/// SHCSR's bits that exist (reset 0): the enables, active and pending bits.
const SHCSR_BITS: u32 = 0x0007_FD8B;
/// CPUID's value: Cortex-M4 r0p1 (PM0214 4.4.1; the STM32F446's core).
const CPUID_VALUE: u32 = 0x410F_C241;
/// MVFR0's value on the Cortex-M4F (single precision, no double; PM0214 4.6.4).
const MVFR0_VALUE: u32 = 0x1011_0021;
/// MVFR1's value on the Cortex-M4F (PM0214 4.6.5).
const MVFR1_VALUE: u32 = 0x1100_0011;

/// The processor feature registers a debugger reads to know the core (PM0214 4.4 lists none;
/// ARMv7-M ARM B4.1.2, values of the Cortex-M4 r0p1: its TRM table 4-1): ID_PFR0 at 0xD40 to
/// ID_ISAR4 at 0xD70, read-only.
const FEATURES: [(u32, u32); 18] = [
    (0xD40, 0x0000_0030),
    (0xD44, 0x0000_0200),
    (0xD48, 0x0010_0000),
    (0xD4C, 0x0000_0000),
    (0xD50, 0x0010_0030),
    (0xD54, 0x0000_0000),
    (0xD58, 0x0100_0000),
    (0xD5C, 0x0000_0000),
    (0xD60, 0x0110_1110),
    (0xD64, 0x0211_1000),
    (0xD68, 0x2111_2231),
    (0xD6C, 0x0111_1110),
    (0xD70, 0x0131_0132),
    // CLIDR, CTR, CCSIDR, CSSELR: the Cortex-M4 has no caches; they read as zero (a debugger
    // reads CLIDR to know).
    (0xD78, 0),
    (0xD7C, 0),
    (0xD80, 0),
    (0xD84, 0),
    // MVFR2: FPv4 has none (it reads as zero on the Cortex-M4).
    (0xF48, 0),
];

/// The block's registers by offset (PM0214 table 49, the debug registers of the ARMv7-M ARM
/// C1.6 and table 4.6's FPU registers), modelled or not.
const NAMES: &[(u32, &str)] = &[
    (0x00, "CPUID"),
    (0x04, "ICSR"),
    (0x08, "VTOR"),
    (0x0C, "AIRCR"),
    (0x10, "SCR"),
    (0x14, "CCR"),
    (0x18, "SHPR1"),
    (0x1C, "SHPR2"),
    (0x20, "SHPR3"),
    (0x24, "SHCSR"),
    (0x28, "CFSR"),
    (0x2C, "HFSR"),
    (0x30, "DFSR"),
    (0x34, "MMFAR"),
    (0x38, "BFAR"),
    (0x3C, "AFSR"),
    (0x40, "ID_PFR0"),
    (0x44, "ID_PFR1"),
    (0x48, "ID_DFR0"),
    (0x4C, "ID_AFR0"),
    (0x50, "ID_MMFR0"),
    (0x54, "ID_MMFR1"),
    (0x58, "ID_MMFR2"),
    (0x5C, "ID_MMFR3"),
    (0x60, "ID_ISAR0"),
    (0x64, "ID_ISAR1"),
    (0x68, "ID_ISAR2"),
    (0x6C, "ID_ISAR3"),
    (0x70, "ID_ISAR4"),
    (0x78, "CLIDR"),
    (0x7C, "CTR"),
    (0x80, "CCSIDR"),
    (0x84, "CSSELR"),
    (0x88, "CPACR"),
    (0xF0, "DHCSR"),
    (0xF4, "DCRSR"),
    (0xF8, "DCRDR"),
    (0xFC, "DEMCR"),
    (0x234, "FPCCR"),
    (0x238, "FPCAR"),
    (0x23C, "FPDSCR"),
    (0x240, "MVFR0"),
    (0x244, "MVFR1"),
    (0x248, "MVFR2"),
];

/// The SCB's registers from `base` on (a row of the map).
#[derive(Debug, Default)]
pub struct Scb {
    /// Where the row starts: offsets are from here.
    base: u32,
    vtor: u32,
    cpacr: u32,
    shcsr: u32,
}

impl Scb {
    /// The SCB's registers from `base` (at most [`END`]) on, at reset.
    pub fn at(base: u32) -> Scb {
        Scb {
            base,
            ..Scb::default()
        }
    }
}

impl Peripheral for Scb {
    fn register(&self, offset: u32) -> Option<&'static str> {
        let offset = offset + self.base - BASE;
        NAMES.iter().find(|n| n.0 == offset).map(|n| n.1)
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        match offset + self.base {
            CPUID => Ok(CPUID_VALUE),
            MVFR0 => Ok(MVFR0_VALUE),
            MVFR1 => Ok(MVFR1_VALUE),
            VTOR => Ok(self.vtor),
            AIRCR => Ok(0xFA05_0000),
            CPACR => Ok(self.cpacr),
            SHCSR => Ok(self.shcsr),
            at => match FEATURES.iter().find(|f| 0xE000_E000 + f.0 == at) {
                Some(&(_, value)) => Ok(value),
                None => Err(reg::unmodelled(offset, None)),
            },
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        match offset + self.base {
            VTOR => self.vtor = value & !0x7F,
            AIRCR => {
                if value >> 16 == VECTKEY && value & SYSRESETREQ != 0 {
                    return Ok(Event::SystemReset);
                }
            }
            CPACR => self.cpacr = value,
            SHCSR => self.shcsr = value & SHCSR_BITS,
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }

    fn reset(&mut self) {
        *self = Scb::at(self.base);
    }
}
