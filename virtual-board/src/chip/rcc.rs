//! RCC (RM0390 section 6.3): the clock tree from the registers, ready bits that follow their
//! enables, the switch status that follows the switch, and the peripheral clock enables the
//! other models check.

use super::flash::FlashInterface;
use super::peripheral::{Bus, Event, Peripheral};
use super::reg::{self, Regs};
use crate::chip::HSI_HZ;
use crate::stop::Refusal;

const CR: u32 = 0x00;
const PLLCFGR: u32 = 0x04;
const CFGR: u32 = 0x08;
const CIR: u32 = 0x0C;
const AHB1RSTR: u32 = 0x10;
const APB1RSTR: u32 = 0x20;
const APB2RSTR: u32 = 0x24;
const AHB1ENR: u32 = 0x30;
const APB1ENR: u32 = 0x40;
const APB2ENR: u32 = 0x44;
/// RCC_CSR: LSI and the reset flags (RM0390 6.3.21).
const CSR: u32 = 0x74;
const DCKCFGR: u32 = 0x8C;
const DCKCFGR2: u32 = 0x94;

/// The registers modelled, with their reset values (RM0390 6.3.1..6.3.28).
const REGISTERS: &[(u32, &str, u32)] = &[
    (CR, "CR", 0x0000_0083),
    (PLLCFGR, "PLLCFGR", 0x2400_3010),
    (CFGR, "CFGR", 0),
    (CIR, "CIR", 0),
    (AHB1RSTR, "AHB1RSTR", 0),
    (APB1RSTR, "APB1RSTR", 0),
    (APB2RSTR, "APB2RSTR", 0),
    (AHB1ENR, "AHB1ENR", 0x0010_0000),
    (APB1ENR, "APB1ENR", 0),
    (APB2ENR, "APB2ENR", 0),
    // After power-on: PORRSTF, PINRSTF and BORRSTF set.
    (CSR, "CSR", 0x0E00_0000),
    (DCKCFGR, "DCKCFGR", 0),
    (DCKCFGR2, "DCKCFGR2", 0),
];

/// Bits of RCC_CR whose ready flag sits one bit above: HSION, HSEON, PLLON, PLLI2SON, PLLSAION.
const ON_BITS: [u32; 5] = [0, 16, 24, 26, 28];
/// RCC_CSR's reset flags (bits 25..31), cleared only by RMVF (bit 24) or a power-on reset.
const RESET_FLAGS: u32 = 0xFE00_0000;
const RMVF: u32 = 1 << 24;
/// RCC_CSR.IWDGRSTF and SFTRSTF.
pub const IWDGRSTF: u32 = 1 << 29;
/// RCC_CSR.SFTRSTF.
pub const SFTRSTF: u32 = 1 << 28;

pub use super::peripheral::Enable;

/// RCC_APB2ENR.ADC1EN.
pub const ADC1EN: Enable = Enable {
    register: "APB2ENR",
    offset: APB2ENR,
    bit: 8,
    name: "ADC1EN",
};
/// RCC_APB1ENR.SPI2EN.
pub const SPI2EN: Enable = Enable {
    register: "APB1ENR",
    offset: APB1ENR,
    bit: 14,
    name: "SPI2EN",
};
/// RCC_AHB1ENR.GPIOxEN for port index `i` (A = 0 .. H = 7).
pub const fn gpio_en(i: u32) -> Enable {
    const NAMES: [&str; 8] = [
        "GPIOAEN", "GPIOBEN", "GPIOCEN", "GPIODEN", "GPIOEEN", "GPIOFEN", "GPIOGEN", "GPIOHEN",
    ];
    Enable {
        register: "AHB1ENR",
        offset: AHB1ENR,
        bit: i,
        name: NAMES[i as usize],
    }
}

/// The bus clocks, in hertz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// SYSCLK: the core's clock.
    pub sysclk: u64,
    /// HCLK: AHB (and SysTick's processor clock).
    pub hclk: u64,
    /// APB1.
    pub pclk1: u64,
    /// APB2 (the ADC's clock before ADCPRE).
    pub pclk2: u64,
}

/// The RCC.
#[derive(Debug)]
pub struct Rcc {
    regs: Regs,
    /// The main PLL never locks (a board fault made on purpose; a reset keeps it).
    pub pll_stuck: bool,
}

impl Default for Rcc {
    fn default() -> Self {
        Rcc {
            regs: Regs::new(REGISTERS),
            pll_stuck: false,
        }
    }
}

impl Peripheral for Rcc {
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(REGISTERS, offset)
    }

    fn read(&mut self, offset: u32, _: &mut Bus<'_>) -> Result<u32, Refusal> {
        Rcc::read(self, offset)
    }

    /// A clock switch checks the flash interface's wait states (its peer on the bus).
    fn write(&mut self, offset: u32, value: u32, bus: &mut Bus<'_>) -> Result<Event, Refusal> {
        let latency = bus.peer::<FlashInterface>().map_or(0, |f| f.latency());
        let stuck = self.pll_stuck;
        Rcc::write(self, offset, value, latency, stuck).map(|()| Event::None)
    }

    /// The reset flags in CSR stay (a system reset is what they record).
    fn reset(&mut self) {
        let flags = self.regs.peek(CSR) & RESET_FLAGS;
        self.regs = Regs::new(REGISTERS);
        let _ = self.regs.set(CSR, flags);
    }
}

impl Rcc {
    /// Reads the register at `offset`.
    pub fn read(&mut self, offset: u32) -> Result<u32, Refusal> {
        self.regs.get(offset)
    }

    /// Writes `value` to the register at `offset`.
    /// `pll_stuck`: the main PLL never locks (a fault made on purpose).
    pub fn write(
        &mut self,
        offset: u32,
        value: u32,
        flash_latency: u32,
        pll_stuck: bool,
    ) -> Result<(), Refusal> {
        let value = match offset {
            CR => {
                // Each oscillator and PLL is ready as soon as it is on (no start-up time is
                // modelled); RM0390 6.3.1.
                let mut v = value;
                for on in ON_BITS {
                    v &= !(1 << (on + 1));
                    if !(pll_stuck && on == 24) {
                        v |= ((value >> on) & 1) << (on + 1);
                    }
                }
                v
            }
            CFGR => {
                // SWS follows SW when the chosen source is ready (RM0390 6.3.3).
                let sw = value & 0b11;
                let ready = match sw {
                    0 => self.bit(CR, 1),
                    1 => self.bit(CR, 17),
                    _ => self.bit(CR, 25),
                };
                let sws = if ready {
                    sw
                } else {
                    (self.regs.get(CFGR)? >> 2) & 0b11
                };
                let v = (value & !0b1100) | (sws << 2);
                self.check_latency(v, flash_latency)?;
                v
            }
            CSR => {
                // RMVF clears the reset flags; the flags themselves are read-only; LSIRDY
                // follows LSION (no start-up time is modelled).
                let flags = if value & RMVF != 0 {
                    0
                } else {
                    self.regs.peek(CSR) & RESET_FLAGS
                };
                flags | ((value & 1) * 0b11)
            }
            _ => value,
        };
        self.regs.set(offset, value)
    }

    fn bit(&self, offset: u32, bit: u32) -> bool {
        self.regs.peek(offset) & (1 << bit) != 0
    }

    /// Records what reset the chip in CSR's flags (IWDGRSTF, SFTRSTF), as the chip does.
    pub fn record_reset(&mut self, flag: u32) {
        let csr = self.regs.peek(CSR);
        let _ = self.regs.set(CSR, csr | (flag & RESET_FLAGS));
    }

    /// Whether `enable` is set.
    pub fn enabled(&self, enable: Enable) -> bool {
        self.bit(enable.offset, enable.bit)
    }

    /// The register holding `enable`, for a fault's message.
    pub fn value_of(&self, enable: Enable) -> u32 {
        self.regs.peek(enable.offset)
    }

    /// The clocks as the registers set them (RM0390 6.2, figure 13).
    pub fn clocks(&self) -> Clocks {
        self.clocks_with(self.regs.peek(CFGR))
    }

    fn clocks_with(&self, cfgr: u32) -> Clocks {
        let pll = self.regs.peek(PLLCFGR);
        // PLLSRC = 1 would be HSE: the Nucleo's HSE is ST-LINK's MCO, not modelled (8 MHz).
        let input = if pll & (1 << 22) != 0 {
            8_000_000
        } else {
            HSI_HZ
        };
        let m = u64::from(pll & 0x3F).max(1);
        let n = u64::from((pll >> 6) & 0x1FF);
        let vco = input / m * n;
        let p = 2 * (u64::from((pll >> 16) & 0b11) + 1);
        let r = u64::from((pll >> 28) & 0b111).max(1);
        let sysclk = match (cfgr >> 2) & 0b11 {
            0 => HSI_HZ,
            1 => 8_000_000,
            2 => vco / p,
            _ => vco / r,
        };
        let hpre = (cfgr >> 4) & 0xF;
        let hclk = if hpre < 8 {
            sysclk
        } else {
            sysclk >> [1, 2, 3, 4, 6, 7, 8, 9][(hpre - 8) as usize]
        };
        let apb = |bits: u32| {
            if bits < 4 { hclk } else { hclk >> (bits - 3) }
        };
        Clocks {
            sysclk,
            hclk,
            pclk1: apb((cfgr >> 10) & 0b111),
            pclk2: apb((cfgr >> 13) & 0b111),
        }
    }

    /// The flash must have its wait states before HCLK rises (RM0390 3.4.1, table 5: at
    /// 2.7..3.6 V one wait state per 30 MHz).
    fn check_latency(&self, cfgr: u32, latency: u32) -> Result<(), Refusal> {
        let hclk = self.clocks_with(cfgr).hclk;
        let needed = (hclk.saturating_sub(1) / 30_000_000) as u32;
        if latency < needed {
            return Err(Refusal::config(
                format!(
                    "HCLK becomes {} MHz (RCC_CFGR = {cfgr:#010x}) with FLASH_ACR.LATENCY = {latency}: \
                     {needed} wait states are needed",
                    hclk / 1_000_000
                ),
                "RM0390 3.4.1, table 5",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pll_ready_follows_pll_on_and_the_switch_status_follows_the_switch() {
        let mut rcc = Rcc::default();
        assert_eq!(rcc.read(CR).unwrap() & (1 << 25), 0);
        rcc.write(CR, 0x83 | 1 << 24, 0, false).unwrap();
        assert_ne!(rcc.read(CR).unwrap() & (1 << 25), 0);
        // 16 MHz / 16 x 336 / 4 = 84 MHz on the PLL (the board binary's set-up), APB1 / 2.
        rcc.write(PLLCFGR, 16 | 336 << 6 | 1 << 16, 0, false)
            .unwrap();
        rcc.write(CFGR, 0b10 | 0b100 << 10, 2, false).unwrap();
        assert_eq!((rcc.read(CFGR).unwrap() >> 2) & 0b11, 0b10);
        assert_eq!(
            rcc.clocks(),
            Clocks {
                sysclk: 84_000_000,
                hclk: 84_000_000,
                pclk1: 42_000_000,
                pclk2: 84_000_000
            }
        );
    }

    #[test]
    fn the_reset_flags_survive_a_system_reset_and_rmvf_clears_them() {
        let mut rcc = Rcc::default();
        assert_eq!(
            rcc.read(CSR).unwrap(),
            0x0E00_0000,
            "power-on: POR, PIN, BOR"
        );
        rcc.write(CSR, RMVF, 0, false).unwrap();
        assert_eq!(rcc.read(CSR).unwrap(), 0);
        rcc.record_reset(IWDGRSTF);
        Peripheral::reset(&mut rcc);
        assert_eq!(rcc.read(CSR).unwrap(), 1 << 29);
        // LSION turns LSIRDY on; the flags cannot be written.
        rcc.write(CSR, 1 | 1 << 28, 0, false).unwrap();
        assert_eq!(rcc.read(CSR).unwrap(), 1 << 29 | 0b11);
    }

    #[test]
    fn switching_to_84_mhz_with_no_flash_wait_states_is_a_configuration_fault() {
        let mut rcc = Rcc::default();
        rcc.write(CR, 0x83 | 1 << 24, 0, false).unwrap();
        rcc.write(PLLCFGR, 16 | 336 << 6 | 1 << 16, 0, false)
            .unwrap();
        let Err(Refusal::Config(fault)) = rcc.write(CFGR, 0b10, 0, false) else {
            panic!("accepted")
        };
        assert!(fault.what.contains("84 MHz"), "{fault}");
        assert!(fault.what.contains("2 wait states"), "{fault}");
        assert_eq!(fault.rule, "RM0390 3.4.1, table 5");
    }
}
