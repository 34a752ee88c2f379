//! Names for the addresses no model answers, so that a refused access says what it touched.
//! One function, which the map calls for every address outside its rows: the chip's own
//! registers from stm32-metapac ([`super::registers`]), the Cortex-M4's system blocks (which
//! metapac does not hold) from the core's memory map.

use super::registers;

/// The Cortex-M4's private peripheral blocks no model keeps (ARMv7-M ARM B3.1, C1.1): the
/// System Control Space (NVIC, SCB, SysTick), ITM, DWT and FPB.
const CORE: &[(u32, u32, &str)] = &[
    (0xE000_0000, 0x1000, "ITM"),
    (0xE000_1000, 0x1000, "DWT"),
    (0xE000_2000, 0x1000, "FPB"),
    (0xE000_E000, 0x1000, "SCS"),
];

/// An STM32F4 peripheral's block in the memory map (RM0390 2.2, table 1): 1 KiB.
const BLOCK: u32 = 0x400;

/// The peripheral and register at `address`, where they are known: both for a register of
/// the chip, the peripheral alone for a reserved offset in its block or a core block.
pub fn name(address: u32) -> (Option<&'static str>, Option<&'static str>) {
    if let Some(r) = registers::register_at(address) {
        return (Some(r.peripheral), Some(r.name.as_str()));
    }
    if let Some(p) = registers::peripheral_at(address, BLOCK) {
        return (Some(p), None);
    }
    let core = CORE
        .iter()
        .find(|(base, size, _)| (*base..base + size).contains(&address));
    (core.map(|&(_, _, name)| name), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RM0390 table 1 and the registers' sections: USART2_SR at 0x4000_4400 (27.6.1),
    /// PWR_CR at 0x4000_7000 (5.4.1; metapac calls it CR1), USB OTG FS's first register at
    /// 0x5000_0000 (table 1, 30.15.1).
    #[test]
    fn unmodelled_registers_are_named_from_the_chip_s_register_table() {
        assert_eq!(name(0x4000_4400), (Some("USART2"), Some("SR")));
        assert_eq!(name(0x4000_7000), (Some("PWR"), Some("CR1")));
        assert_eq!(name(0x4000_4460), (Some("USART2"), None));
        assert_eq!(name(0xE000_E100), (Some("SCS"), None));
        assert_eq!(name(0x5000_0000), (Some("USB_OTG_FS"), Some("GOTGCTL")));
        assert_eq!(name(0x3000_0000), (None, None));
    }
}
