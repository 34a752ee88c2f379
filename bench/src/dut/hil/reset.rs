//! Why a board reset, read from the chip after the fact: an STM32F4 keeps its reset flags in
//! RCC_CSR over a system reset (RM0390 6.3.21), so a board whose firmware started again under
//! the bench (its RTT control block written anew, the game lost) says whether its watchdog
//! did it. The bench clears the flags once the firmware runs (RMVF), so a flag it finds later
//! was set during the session.

/// RCC_CSR on the STM32F4 (RM0390 6.3.21).
const RCC_CSR: u64 = 0x4002_3874;
/// RCC_CSR.RMVF: writing 1 clears the reset flags.
pub(crate) const RMVF: u32 = 1 << 24;
/// RCC_CSR.IWDGRSTF, WWDGRSTF: the independent and the window watchdog reset the chip.
const IWDGRSTF: u32 = 1 << 29;
const WWDGRSTF: u32 = 1 << 30;

/// Where `chip` keeps its reset flags, if the bench knows: the STM32F4s (a board's probe-rs
/// chip, `STM32F446RETx`, and the virtual NUCLEO-F446RE).
pub(crate) fn flags_of(chip: &str) -> Option<u64> {
    let chip = chip.to_ascii_uppercase();
    (chip.starts_with("STM32F4") || chip.starts_with("VIRTUAL_NUCLEO_F4")).then_some(RCC_CSR)
}

/// The reset `csr` records, if a watchdog made it.
pub(crate) fn watchdog(csr: u32) -> Option<&'static str> {
    if csr & IWDGRSTF != 0 {
        Some("watchdog")
    } else if csr & WWDGRSTF != 0 {
        Some("window watchdog")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stm32f4s_keep_their_flags_in_rcc_csr_and_iwdgrstf_is_the_watchdog() {
        assert_eq!(flags_of("STM32F446RETx"), Some(0x4002_3874));
        assert_eq!(flags_of("VIRTUAL_NUCLEO_F446RE"), Some(0x4002_3874));
        assert_eq!(flags_of("MPS2_AN386"), None);
        // After power-on (PORRSTF, PINRSTF, BORRSTF): no watchdog.
        assert_eq!(watchdog(0x0E00_0000), None);
        assert_eq!(watchdog(0x2000_0000), Some("watchdog"));
        assert_eq!(watchdog(0x4000_0000), Some("window watchdog"));
    }
}
