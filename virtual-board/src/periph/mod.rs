//! Register-level models of what the board binary touches, one module per peripheral (RM0390
//! for the STM32F446, PM0214 for the Cortex-M4 core's SysTick and SCB). Each keeps its
//! registers and answers reads and writes; what crosses peripherals (a conversion needs the
//! clocks, the pin's mode and the cage; a SPI frame the pins' alternate functions and the
//! fixture) is the board's ([`crate::board`]).

pub mod adc;
pub mod gpio;
pub mod rcc;
pub mod reg;
pub mod spi;
pub mod systick;

pub use reg::Regs;

/// FLASH_ACR's address (RM0390 3.8.1): only the access control register is modelled.
pub const FLASH_ACR: u32 = 0x4002_3C00;

/// The flash interface: its access control register (latency, caches, prefetch).
#[derive(Debug, Default)]
pub struct FlashInterface {
    acr: u32,
}

impl FlashInterface {
    /// Reads ACR.
    pub fn read(&self) -> u32 {
        self.acr
    }

    /// Writes ACR.
    pub fn write(&mut self, value: u32) {
        self.acr = value & 0x1F0F;
    }

    /// ACR.LATENCY: wait states.
    pub fn latency(&self) -> u32 {
        self.acr & 0xF
    }
}

/// The System Control Block's registers the binary and a debugger use (PM0214 4.4).
pub mod scb {
    pub use gdb_probe::cortex_m::{
        AIRCR, CPACR, CPUID, MVFR0, MVFR1, SHCSR, SYSRESETREQ, VECTKEY, VTOR,
    };
    /// SHCSR's bits that exist (reset 0): the enables, active and pending bits; panic-probe
    /// clears USGFAULTENA before its `udf`.
    pub const SHCSR_BITS: u32 = 0x0007_FD8B;
    /// CPUID's value: Cortex-M4 r0p1 (PM0214 4.4.1; the STM32F446's core).
    pub const CPUID_VALUE: u32 = 0x410F_C241;
    /// MVFR0's value on the Cortex-M4F (single precision, no double; PM0214 4.6.4); a
    /// debugger reads it to know the core has an FPU.
    pub const MVFR0_VALUE: u32 = 0x1011_0021;
    /// MVFR1's value on the Cortex-M4F (PM0214 4.6.5).
    pub const MVFR1_VALUE: u32 = 0x1100_0011;
}

/// The debug components a debugger probes at attach (ARMv7-M ARM C1.8, C1.11): FPB and DWT,
/// modelled with no comparators (the virtual board has no hardware breakpoints or
/// watchpoints), their control registers stored.
pub mod debug {
    pub use gdb_probe::cortex_m::{DWT_CTRL, FP_CTRL};
}

/// The STM32's debug MCU block (RM0390 33.16): IDCODE and CR, read and written by a debugger.
pub mod dbgmcu {
    /// DBGMCU_IDCODE.
    pub const IDCODE: u32 = 0xE004_2000;
    /// DBGMCU_CR.
    pub const CR: u32 = 0xE004_2004;
    /// IDCODE's value: DEV_ID 0x421 (STM32F446), REV_ID 0x1000 (RM0390 33.6.1).
    pub const IDCODE_VALUE: u32 = 0x1000_6421;
}
