//! What a debugger reads to find the core: the CoreSight ROM table at 0xE00F_F000 and every
//! component's identification registers (ARM IHI 0029 CoreSight architecture, B2 "Component
//! and Peripheral Identification"; ARMv7-M ARM C1.2 "the ROM table"), as on the STM32F446.
//!
//! One table, [`COMPONENTS`], drives the ROM table's entries and each component's PIDR/CIDR:
//! the Cortex-M4 r0p1's SCS, DWT, FPB, ITM, TPIU and ETM (ARM's Peripheral IDs, Cortex-M4
//! TRM tables 3-9 ... 11-x as OpenOCD's `dap info` prints them for an STM32F4), and ST's ROM
//! table whose part number is the device's DEV_ID (0x421: RM0390 33.6.1). The components'
//! other registers are their own models' (FPB and DWT: [`super::debug`]); ITM's, TPIU's and
//! ETM's are not modelled (an access there is refused, a FAULT to a debugger).

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// The ROM table's base (the AHB-AP's BASE, ARMv7-M ARM C1.2.1).
pub const ROM: u32 = 0xE00F_F000;

/// A component the ROM table lists.
#[derive(Clone, Copy, Debug)]
pub struct Component {
    /// Its 4 KB block's base.
    pub base: u32,
    /// Its name.
    pub name: &'static str,
    /// Peripheral ID: PIDR4 in bits 39:32, PIDR3..PIDR0 below.
    pub pid: u64,
    /// Component class (CIDR1[7:4]): 0x1 ROM table, 0x9 CoreSight, 0xE generic IP.
    pub class: u8,
    /// DEVTYPE (0xFCC), for a CoreSight component; the ROM table's 0xFCC is MEMTYPE.
    pub devtype: u32,
}

/// The ROM table itself (ST's: designer 0x20 with the JEDEC flag, part = DEV_ID 0x421).
pub const ROM_TABLE: Component = Component {
    base: ROM,
    name: "ROM",
    pid: 0x0000_000A_0421,
    class: 0x1,
    // MEMTYPE.SYSMEM: system memory is on this bus (ADIv5 D3.5.x).
    devtype: 1,
};

/// The components, in the ROM table's order (OpenOCD's `dap info` on an STM32F4: ROMTABLE[0x0]
/// = 0xFFF0F003 the SCS, [0x4] DWT, [0x8] FPB, [0xC] ITM, [0x10] TPIU, [0x14] ETM, [0x18] end).
pub const COMPONENTS: [Component; 6] = [
    Component {
        base: 0xE000_E000,
        name: "SCS",
        pid: 0x04_000B_B00C,
        class: 0xE,
        devtype: 0,
    },
    Component {
        base: 0xE000_1000,
        name: "DWT",
        pid: 0x04_003B_B002,
        class: 0xE,
        devtype: 0,
    },
    Component {
        base: 0xE000_2000,
        name: "FPB",
        pid: 0x04_002B_B003,
        class: 0xE,
        devtype: 0,
    },
    Component {
        base: 0xE000_0000,
        name: "ITM",
        pid: 0x04_003B_B001,
        class: 0xE,
        devtype: 0,
    },
    Component {
        base: 0xE004_0000,
        name: "TPIU",
        pid: 0x04_000B_B9A1,
        class: 0x9,
        devtype: 0x11,
    },
    Component {
        base: 0xE004_1000,
        name: "ETM",
        pid: 0x04_000B_B925,
        class: 0x9,
        devtype: 0x13,
    },
];

/// A ROM table entry for `base`: its offset from the table, present, 32-bit format
/// (ARMv7-M ARM C1.2.2).
fn entry(base: u32) -> u32 {
    base.wrapping_sub(ROM) & !0xFFF | 0b11
}

/// The identification register at `offset` (0xFA0..0xFFC) of `component`, if it is one:
/// PIDR4-7 at 0xFD0, PIDR0-3 at 0xFE0, CIDR0-3 at 0xFF0 (one byte each), DEVTYPE/MEMTYPE at
/// 0xFCC; the management registers below them (claim tags 0xFA0, LAR/LSR 0xFB0, AUTHSTATUS,
/// DEVARCH 0xFBC, DEVID) read 0 and ignore writes (CoreSight B2.1).
pub fn identification(component: &Component, offset: u32) -> Option<u32> {
    let byte = |n: u32| ((component.pid >> (8 * n)) & 0xFF) as u32;
    Some(match offset {
        // The claim tags, the lock (LAR, LSR: no lock on this core's components), the
        // authentication status, DEVARCH (none on ARMv7-M) and DEVIDs read 0.
        0xFA0..=0xFC8 => 0,
        0xFCC => component.devtype,
        0xFD0 => byte(4),
        0xFD4..=0xFDC => 0,
        0xFE0..=0xFEC => byte((offset - 0xFE0) / 4),
        // CIDR: 0xB105_X00D, the class in CIDR1's high nibble.
        0xFF0 => 0x0D,
        0xFF4 => u32::from(component.class) << 4,
        0xFF8 => 0x05,
        0xFFC => 0xB1,
        _ => return None,
    })
}

/// A block whose only modelled registers are its identification (the ROM table, ITM, TPIU,
/// ETM, the SCS's identification block): the ROM table answers its entries too.
#[derive(Debug)]
pub struct Identified {
    component: &'static Component,
    /// Offsets are from here (the SCS's row starts at its identification block).
    from: u32,
}

impl Identified {
    /// The block of the component named `name`, its row starting `from` past its base.
    pub fn new(name: &str, from: u32) -> Identified {
        let component = std::iter::once(&ROM_TABLE)
            .chain(COMPONENTS.iter())
            .find(|c| c.name == name)
            .expect("a component of the table");
        Identified { component, from }
    }
}

impl Peripheral for Identified {
    fn register(&self, offset: u32) -> Option<&'static str> {
        let offset = offset + self.from;
        match offset {
            0xFA0..=0xFC8 => Some("management"),
            0xFCC => Some("DEVTYPE"),
            0xFD0..=0xFFC => Some("ID"),
            _ if self.component.base == ROM && offset < 0xF00 => Some("ROM entry"),
            _ => None,
        }
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        let at = offset + self.from;
        if let Some(value) = identification(self.component, at) {
            return Ok(value);
        }
        if self.component.base == ROM {
            let i = (at / 4) as usize;
            if at.is_multiple_of(4) && at < 0xF00 {
                // The entries, then 0: the end of the table, and the rest of its entries'
                // space reads 0 too (ARMv7-M ARM C1.2.2).
                return Ok(COMPONENTS.get(i).map_or(0, |c| entry(c.base)));
            }
        }
        Err(reg::unmodelled(offset, None))
    }

    fn write(&mut self, offset: u32, value: u32, _: &mut Bus<'_>) -> Result<Event, Refusal> {
        // The identification is read-only: a write is ignored, as the chip ignores it.
        if identification(self.component, offset + self.from).is_some() {
            return Ok(Event::None);
        }
        Err(reg::unmodelled(offset, Some(value)))
    }

    /// Debug domain: nothing to reset.
    fn reset(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rom_table_lists_the_cortex_m4s_components_as_on_an_stm32f4() {
        // OpenOCD's `dap info` on an STM32F4: 0xFFF0F003, 0xFFF02003, 0xFFF03003, 0xFFF01003,
        // 0xFFF41003, 0xFFF42003, then 0 (the end).
        let entries: Vec<u32> = COMPONENTS.iter().map(|c| entry(c.base)).collect();
        assert_eq!(
            entries,
            [
                0xFFF0_F003,
                0xFFF0_2003,
                0xFFF0_3003,
                0xFFF0_1003,
                0xFFF4_1003,
                0xFFF4_2003
            ]
        );
    }

    #[test]
    fn identification_bytes_spell_the_peripheral_and_component_ids() {
        // CoreSight B2.2: PIDR0 = part[7:0], PIDR1 = JEP106[3:0] part[11:8], PIDR2 =
        // revision, JEDEC, JEP106[6:4], PIDR4 = continuation code; CIDR = 0xB105_C00D.
        let scs = &COMPONENTS[0];
        let read = |c: &Component, o: u32| identification(c, o).unwrap();
        let part = read(scs, 0xFE0) | (read(scs, 0xFE4) & 0xF) << 8;
        assert_eq!(part, 0x00C, "Cortex-M4 SCS");
        let jep106 = read(scs, 0xFE4) >> 4 | (read(scs, 0xFE8) & 7) << 4;
        assert_eq!(
            (jep106, read(scs, 0xFD0) & 0xF),
            (0x3B, 4),
            "ARM: bank 4, 0x3B"
        );
        let cidr: u32 = (0..4).map(|i| read(scs, 0xFF0 + 4 * i) << (8 * i)).sum();
        assert_eq!(cidr, 0xB105_E00D, "generic IP");
        let rom = &ROM_TABLE;
        let rom_cidr: u32 = (0..4).map(|i| read(rom, 0xFF0 + 4 * i) << (8 * i)).sum();
        assert_eq!(rom_cidr, 0xB105_100D, "a ROM table");
        let rom_part = read(rom, 0xFE0) | (read(rom, 0xFE4) & 0xF) << 8;
        assert_eq!(rom_part, 0x421, "the F446's DEV_ID");
        let st = read(rom, 0xFE4) >> 4 | (read(rom, 0xFE8) & 7) << 4;
        assert_eq!(st, 0x20, "STMicroelectronics, JEP106 bank 0");
        assert_eq!(read(&COMPONENTS[5], 0xFCC), 0x13, "ETM: a trace source");
    }
}
