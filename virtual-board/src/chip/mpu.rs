//! The Cortex-M4's memory protection unit (PM0214 4.2): TYPE, CTRL, RNR and the eight
//! regions' RBAR and RASR with their aliases, kept as plain storage. The registers exist on
//! the STM32F446, so a read or write of them (a debugger's, or the firmware's) is answered
//! as the chip answers it; the protection itself is not modelled (the board binary leaves the
//! MPU off and guards its stack with flip-link, README.md).

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// MPU_TYPER's address (PM0214 4.2.1), the block's base.
pub const BASE: u32 = 0xE000_ED90;
/// Bytes: TYPE up to MPU_RASR_A3's end (PM0214 4.2, the MPU's register summary).
pub const SIZE: u32 = 0xE000_EDBC - BASE;

const TYPE: u32 = 0x00;
const CTRL: u32 = 0x04;
const RNR: u32 = 0x08;
const RBAR: u32 = 0x0C;
const RASR: u32 = 0x10;
/// The aliases of RBAR and RASR (A1-A3), which PM0214 4.2 places after RASR: the same two
/// registers of the region RNR selects.
const ALIASES_END: u32 = 0x2C;

/// MPU_TYPER: DREGION 8 data regions, IREGION 0, SEPARATE 0 (PM0214 4.2.1).
const TYPE_VALUE: u32 = 0x0000_0800;
/// Regions (DREGION).
const REGIONS: usize = 8;
/// MPU_CTRL's bits: PRIVDEFENA, HFNMIENA, ENABLE (PM0214 4.2.2).
const CTRL_BITS: u32 = 0b111;
/// MPU_RNR's REGION field (PM0214 4.2.3).
const RNR_BITS: u32 = 0xFF;
/// MPU_RBAR's ADDR field at its widest (32-byte regions; PM0214 4.2.4).
const RBAR_ADDR: u32 = !0x1F;
/// MPU_RBAR's VALID bit: a write with it set selects REGION first (PM0214 4.2.4).
const RBAR_VALID: u32 = 1 << 4;
/// MPU_RBAR's REGION field.
const RBAR_REGION: u32 = 0xF;
/// MPU_RASR's fields: XN, AP, TEX, S, C, B, SRD, SIZE, ENABLE (PM0214 4.2.5).
const RASR_BITS: u32 = 0x173F_FF3F;

const NAMES: &[(u32, &str, u32)] = &[
    (TYPE, "TYPER", TYPE_VALUE),
    (CTRL, "CTRL", 0),
    (RNR, "RNR", 0),
    (RBAR, "RBAR", 0),
    (RASR, "RASR", 0),
    (0x14, "RBAR_A1", 0),
    (0x18, "RASR_A1", 0),
    (0x1C, "RBAR_A2", 0),
    (0x20, "RASR_A2", 0),
    (0x24, "RBAR_A3", 0),
    (0x28, "RASR_A3", 0),
];

/// The MPU, all zero at reset but TYPE (PM0214 4.2: the reset values).
#[derive(Debug, Default)]
pub struct Mpu {
    ctrl: u32,
    rnr: u32,
    /// Each region's base address (RBAR's ADDR field).
    bases: [u32; REGIONS],
    /// Each region's attributes and size (RASR).
    attributes: [u32; REGIONS],
}

/// Whether `offset` is register `first` (RBAR or RASR) or one of its aliases, 8 bytes apart.
fn is(offset: u32, first: u32) -> bool {
    (first..ALIASES_END).contains(&offset) && (offset - first).is_multiple_of(8)
}

impl Mpu {
    /// The region RNR selects (a number past DREGION is UNPREDICTABLE: its low bits here).
    fn region(&self) -> usize {
        self.rnr as usize % REGIONS
    }
}

impl Peripheral for Mpu {
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(NAMES, offset)
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        match offset {
            TYPE => Ok(TYPE_VALUE),
            CTRL => Ok(self.ctrl),
            RNR => Ok(self.rnr),
            // VALID reads 0, REGION the region RNR selects.
            o if is(o, RBAR) => Ok(self.bases[self.region()] | (self.rnr & RBAR_REGION)),
            o if is(o, RASR) => Ok(self.attributes[self.region()]),
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        match offset {
            CTRL => self.ctrl = value & CTRL_BITS,
            RNR => self.rnr = value & RNR_BITS,
            o if is(o, RBAR) => {
                if value & RBAR_VALID != 0 {
                    self.rnr = value & RBAR_REGION;
                }
                let region = self.region();
                self.bases[region] = value & RBAR_ADDR;
            }
            o if is(o, RASR) => {
                let region = self.region();
                self.attributes[region] = value & RASR_BITS;
            }
            // TYPE is read-only: the write is ignored, as the chip ignores it.
            TYPE => {}
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }

    fn reset(&mut self) {
        *self = Mpu::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_says_eight_regions_and_ctrl_keeps_its_three_bits() {
        let mut mpu = Mpu::default();
        let mut bus = Bus::new(0, &[]);
        // PM0214 4.2.1: MPU_TYPER reads 0x0000_0800 (DREGION = 8).
        assert_eq!(mpu.read(TYPE, &mut bus).unwrap(), 0x800);
        mpu.write(TYPE, 0, &mut bus).unwrap();
        assert_eq!(mpu.read(TYPE, &mut bus).unwrap(), 0x800, "read-only");
        assert_eq!(mpu.read(CTRL, &mut bus).unwrap(), 0, "reset 0");
        mpu.write(CTRL, 0xFFFF_FFFF, &mut bus).unwrap();
        assert_eq!(mpu.read(CTRL, &mut bus).unwrap(), 0b111);
        mpu.reset();
        assert_eq!(mpu.read(CTRL, &mut bus).unwrap(), 0);
    }

    #[test]
    fn rbar_with_valid_selects_its_region_and_the_aliases_are_the_same_registers() {
        let mut mpu = Mpu::default();
        let mut bus = Bus::new(0, &[]);
        // Region 3 at 0x2000_0000 through RBAR with VALID, then its RASR through alias A2.
        mpu.write(RBAR, 0x2000_0000 | RBAR_VALID | 3, &mut bus)
            .unwrap();
        assert_eq!(mpu.read(RNR, &mut bus).unwrap(), 3);
        mpu.write(0x20, 0x0306_0013, &mut bus).unwrap();
        assert_eq!(mpu.read(RASR, &mut bus).unwrap(), 0x0306_0013);
        assert_eq!(mpu.read(0x24, &mut bus).unwrap(), 0x2000_0003, "RBAR_A3");
        // Region 0 is untouched; RNR chooses it again.
        mpu.write(RNR, 0, &mut bus).unwrap();
        assert_eq!(mpu.read(RBAR, &mut bus).unwrap(), 0);
        assert_eq!(mpu.read(RASR, &mut bus).unwrap(), 0);
        // Past RASR_A3 is not the MPU's.
        assert!(mpu.read(0x2C, &mut bus).is_err());
    }
}
