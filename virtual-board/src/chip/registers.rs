//! Every register of the STM32F446 by address, so a stop on a register no model keeps names it
//! (`USART2_SR`, not "USART2 register at offset 0x000").
//!
//! The names come from stm32-metapac's metadata (embassy's stm32-data: ST's SVDs and CubeMX
//! database, cleaned and published under MIT OR Apache-2.0), not from a table typed here: the
//! models' behaviour is hand-written from RM0390, their names and addresses are checked against
//! this second source by the tests below. Metapac holds ST's peripherals and DBGMCU; the
//! Cortex-M4's own blocks (SCB, NVIC, SysTick, DWT, FPB, ITM) are not in it.

use std::sync::OnceLock;

use stm32_metapac::metadata::{METADATA, Peripheral, ir};

/// One register of the chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    /// The peripheral instance (`USART2`, `ADC123_COMMON`).
    pub peripheral: &'static str,
    /// The register as metapac names it, upper case; an array element carries its index
    /// (`AFR[1]`), a register of a repeated sub-block the block's (`ST[3]_CR`).
    pub name: String,
    /// Its address.
    pub address: u32,
    /// Its offset in the peripheral.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

impl std::fmt::Display for Register {
    /// `USART2_SR`, as RM0390 writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}_{}", self.peripheral, self.name)
    }
}

/// The register `address` falls in, if the chip has one there.
pub fn register_at(address: u32) -> Option<&'static Register> {
    let all = all();
    let i = all
        .partition_point(|r| r.address <= address)
        .checked_sub(1)?;
    let r = &all[i];
    (address < r.address + r.size).then_some(r)
}

/// The peripheral whose block of `block` bytes holds `address`, if the chip has one there.
pub fn peripheral_at(address: u32, block: u32) -> Option<&'static str> {
    METADATA
        .peripherals
        .iter()
        .find(|p| (p.address as u32..p.address as u32 + block).contains(&address))
        .map(|p| p.name)
}

/// Every register of the chip, sorted by address (built once, from the metadata).
pub fn all() -> &'static [Register] {
    static ALL: OnceLock<Vec<Register>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for p in METADATA.peripherals {
            if let Some(regs) = &p.registers {
                walk(p, regs.ir, regs.block, 0, "", &mut all);
            }
        }
        // Two views of one register (a timer's CCMR as input or output) keep the first.
        all.sort_by_key(|r| r.address);
        all.dedup_by_key(|r| r.address);
        all
    })
}

/// The registers of `block` (placed at `offset` in peripheral `p`, named under `prefix`).
fn walk(
    p: &'static Peripheral,
    ir: &'static ir::IR,
    block: &str,
    offset: u32,
    prefix: &str,
    out: &mut Vec<Register>,
) {
    // Blocks are `TimGp32` in the IR and `TIM_GP32` in a peripheral's entry.
    let key = |n: &str| n.replace('_', "").to_ascii_lowercase();
    let Some(block) = ir.blocks.iter().find(|b| key(b.name) == key(block)) else {
        return;
    };
    for item in block.items {
        let copies: Vec<(Option<u32>, u32)> = match &item.array {
            None => vec![(None, 0)],
            Some(ir::Array::Regular(a)) => (0..a.len).map(|i| (Some(i), i * a.stride)).collect(),
            Some(ir::Array::Cursed(a)) => a
                .offsets
                .iter()
                .enumerate()
                .map(|(i, &o)| (Some(i as u32), o))
                .collect(),
        };
        for (index, step) in copies {
            let mut name = format!("{prefix}{}", item.name.to_uppercase());
            if let Some(i) = index {
                name += &format!("[{i}]");
            }
            let at = offset + item.byte_offset + step;
            match &item.inner {
                ir::BlockItemInner::Register(r) => out.push(Register {
                    peripheral: p.name,
                    name,
                    address: p.address as u32 + at,
                    offset: at,
                    size: r.bit_size.div_ceil(8).max(1),
                }),
                ir::BlockItemInner::Block(b) => walk(p, ir, b.block, at, &(name + "_"), out),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Two independent sources, one check: the facts the models type by hand from RM0390 and
    //! DS10693 against stm32-metapac's metadata. Each test fails on one wrong value.

    use super::*;
    use crate::chip::rcc;
    use crate::chip::{self, SpiSignal};
    use boards::{Pin, Port};
    use stm32_metapac::metadata::MemoryRegionKind;

    fn peripheral(name: &str) -> &'static Peripheral {
        METADATA
            .peripherals
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("metapac has no {name}"))
    }

    fn base(name: &str) -> u32 {
        peripheral(name).address as u32
    }

    #[test]
    fn an_unmodelled_register_has_its_reference_manual_name() {
        // RM0390 table 1 and 25.6 / 7.4 / 15.13 / 11.13, read by hand.
        let name = |a| register_at(a).map(ToString::to_string);
        assert_eq!(name(0x4000_4400).as_deref(), Some("USART2_SR"));
        assert_eq!(name(0x4000_4404).as_deref(), Some("USART2_DR"));
        assert_eq!(name(0x4000_4406).as_deref(), Some("USART2_DR"));
        assert_eq!(name(0x4000_0034).as_deref(), Some("TIM2_CCR[0]"));
        assert_eq!(name(0x4000_3000).as_deref(), Some("IWDG_KR"));
        assert_eq!(name(0x4001_2304).as_deref(), Some("ADC123_COMMON_CCR"));
        assert_eq!(name(0xE004_2000).as_deref(), Some("DBGMCU_IDCODE"));
        // DMA2 stream 3's CR: 0x10 + 0x18 x 3 (RM0390 9.5.5).
        assert_eq!(name(0x4002_6458).as_deref(), Some("DMA2_ST[3]_CR"));
        // A hole in USART2's block, and no peripheral at all.
        assert_eq!(name(0x4000_4420), None);
        assert_eq!(name(0x4000_7800), None);
        assert!(all().len() > 900, "{}", all().len());
    }

    #[test]
    fn the_memory_map_agrees() {
        let flash: u32 = METADATA.memory[0]
            .iter()
            .filter(|m| m.kind == MemoryRegionKind::Flash && m.name.starts_with("BANK_1"))
            .map(|m| m.size)
            .sum();
        let sram = METADATA.memory[0]
            .iter()
            .find(|m| m.kind == MemoryRegionKind::Ram)
            .unwrap();
        assert_eq!(chip::FLASH.start, 0x0800_0000);
        assert_eq!(chip::FLASH.size, flash);
        assert_eq!(
            (chip::SRAM.start, chip::SRAM.size),
            (sram.address, sram.size)
        );
    }

    /// The `start`/`end` of memory region `name` in the bench's probe-rs target file.
    fn yaml_range(yaml: &str, name: &str) -> (u32, u32) {
        let after = yaml
            .split_once(&format!("name: {name}\n"))
            .unwrap_or_else(|| panic!("no {name} region"))
            .1;
        let field = |key: &str| {
            let line = after.lines().find(|l| l.trim().starts_with(key)).unwrap();
            let hex = line.trim()[key.len()..].trim().trim_start_matches("0x");
            u32::from_str_radix(hex, 16).unwrap()
        };
        (field("start:"), field("end:"))
    }

    #[test]
    fn the_bench_probe_rs_target_has_metapacs_memory_map() {
        let yaml = include_str!("../../../bench/src/dut/hil/virtual_nucleo_f446re.yaml");
        let flash = METADATA.memory[0]
            .iter()
            .filter(|m| m.kind == MemoryRegionKind::Flash && m.name.starts_with("BANK_1"));
        let (start, size) = (0x0800_0000, flash.map(|m| m.size).sum::<u32>());
        assert_eq!(yaml_range(yaml, "FLASH"), (start, start + size));
        let sram = METADATA.memory[0]
            .iter()
            .find(|m| m.kind == MemoryRegionKind::Ram)
            .unwrap();
        assert_eq!(
            yaml_range(yaml, "SRAM"),
            (sram.address, sram.address + sram.size)
        );
    }

    /// The core's own blocks in the map: ARM's (PM0214), which metapac does not hold.
    const CORE: [&str; 10] = [
        "DWT", "FPB", "SYST", "SCB", "MPU", "SCS", "ITM", "TPIU", "ETM", "ROM",
    ];

    #[test]
    fn every_row_of_the_chip_map_sits_at_metapacs_address() {
        for block in chip::map::MAP {
            if CORE.contains(&block.name) {
                continue;
            }
            assert_eq!(block.base, base(block.name), "{}", block.name);
        }
        for port in [Port::A, Port::B, Port::C, Port::D, Port::H] {
            // The port's place in the map is its place in RCC_AHB1ENR.
            let en = rcc::gpio_en(chip::port_index(port));
            assert_eq!(en.name, format!("GPIO{port:?}EN"));
        }
    }

    /// Every offset a model names has the same register at that address in metapac (ADC1's
    /// model keeps the common block's CCR, ADC123_COMMON's in metapac).
    fn model_agrees(peripheral: &str, model: impl Fn(u32) -> Option<&'static str>) -> usize {
        let base = base(peripheral);
        let mut checked = 0;
        for offset in (0..0x400).step_by(4) {
            let Some(ours) = model(offset) else {
                continue;
            };
            let theirs = register_at(base + offset)
                .unwrap_or_else(|| panic!("{peripheral}+{offset:#x} ({ours}): no register"));
            assert_eq!(
                (theirs.address, metapac_name(&theirs.name)),
                (base + offset, ours.to_string()),
                "{peripheral}+{offset:#x}: the model says {ours}, metapac {theirs}"
            );
            checked += 1;
        }
        checked
    }

    /// Metapac's names as RM0390 writes them where the two differ: array elements are numbered
    /// in the manual (GPIO AFR[0] is AFRL).
    fn metapac_name(name: &str) -> String {
        match name {
            "AFR[0]" => "AFRL".into(),
            "AFR[1]" => "AFRH".into(),
            // DBGMCU_APB1_FZ (RM0390 33.16.4).
            "APB1FZR" => "APB1_FZ".into(),
            "APB2FZR" => "APB2_FZ".into(),
            n => n.to_string(),
        }
    }

    /// Every register every row's model names, against metapac's register at that address.
    #[test]
    fn the_models_register_offsets_agree() {
        let mut checked = Vec::new();
        for block in chip::map::MAP {
            if CORE.contains(&block.name) {
                continue;
            }
            let model = (block.model)();
            checked.push((block.name, model_agrees(block.name, |o| model.register(o))));
        }
        let at_least = |name: &str, n: usize| {
            let (_, got) = checked.iter().find(|c| c.0 == name).unwrap();
            assert!(*got >= n, "{name}: {got} registers checked");
        };
        at_least("ADC1", 8);
        at_least("SPI2", 3);
        at_least("RCC", 8);
        at_least("GPIOA", 9);
        at_least("IWDG", 4);
    }

    /// The bit of `field` in RCC's `register`, from metapac's RCC field sets.
    fn rcc_bit(register: &str, field: &str) -> u32 {
        let regs = peripheral("RCC").registers.as_ref().unwrap();
        let set = regs
            .ir
            .fieldsets
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(register))
            .unwrap_or_else(|| panic!("no RCC {register}"));
        let f = set
            .fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(field))
            .unwrap_or_else(|| panic!("no RCC {register}.{field}"));
        match &f.bit_offset {
            ir::BitOffset::Regular(o) => o.offset,
            ir::BitOffset::Cursed(_) => panic!("{field} is split"),
        }
    }

    #[test]
    fn the_clock_enable_bits_agree() {
        let check = |en: rcc::Enable, peripheral_name: &str| {
            let theirs = peripheral(peripheral_name)
                .rcc
                .as_ref()
                .and_then(|r| r.enable.as_ref())
                .unwrap();
            assert_eq!((en.register, en.name), (theirs.register, theirs.field));
            assert_eq!(en.bit, rcc_bit(en.register, en.name), "{}", en.name);
        };
        check(rcc::ADC1EN, "ADC1");
        check(rcc::SPI2EN, "SPI2");
        for (i, port) in "ABCDEFGH".chars().enumerate() {
            check(rcc::gpio_en(i as u32), &format!("GPIO{port}"));
        }
    }

    /// `PB13` as a pin (None for a port the chip's `Port` cannot name: not bonded on LQFP64).
    fn pin(name: &str) -> Option<Pin> {
        let port = match name.as_bytes().get(1)? {
            b'A' => Port::A,
            b'B' => Port::B,
            b'C' => Port::C,
            b'D' => Port::D,
            b'H' => Port::H,
            _ => return None,
        };
        Some(Pin::stm32(port, name[2..].parse().ok()?))
    }

    #[test]
    fn the_adc1_channel_pins_agree() {
        // Metapac's pin list is the LQFP64 package's (`metadata_0228`): every analog input it
        // gives ADC1 is the pin chip.rs gives the channel, and the other way round.
        let theirs: Vec<(u8, Pin)> = peripheral("ADC1")
            .pins
            .iter()
            .filter_map(|p| Some((p.signal.strip_prefix("IN")?.parse().ok()?, pin(p.pin)?)))
            .collect();
        assert_eq!(theirs.len(), 16, "{theirs:?}");
        for channel in 0..19 {
            let named = theirs.iter().find(|t| t.0 == channel).map(|t| t.1);
            assert_eq!(chip::adc1_pin(channel), named, "ADC1_IN{channel}");
        }
    }

    #[test]
    fn spi2s_alternate_functions_agree() {
        let signals = [
            ("SCK", SpiSignal::Sck),
            ("MISO", SpiSignal::Miso),
            ("MOSI", SpiSignal::Mosi),
        ];
        let theirs = peripheral("SPI2").pins;
        for (label, signal) in signals {
            for port in [Port::A, Port::B, Port::C, Port::D, Port::H] {
                for number in 0..16 {
                    let p = Pin::stm32(port, number);
                    let named = chip::pin_name(p);
                    let af = theirs
                        .iter()
                        .find(|t| t.signal == label && t.pin == named)
                        .and_then(|t| t.af);
                    assert_eq!(chip::spi2_af(signal, p), af, "SPI2_{label} on {named}");
                }
            }
        }
    }
}
