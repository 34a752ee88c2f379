//! The Cortex-M (ARMv7-M) system registers a debugger and a core model both name, written once:
//! the System Control Block's (ARMv7-M ARM B3.2, PM0214 4.4), the debug registers (C1.6) and
//! the debug components' control registers (FPB C1.11, DWT C1.8). Architecture, not chip: the
//! same on every Cortex-M3/M4/M7.

/// CPUID: the core's part and revision.
pub const CPUID: u32 = 0xE000_ED00;
/// VTOR: the vector table's address.
pub const VTOR: u32 = 0xE000_ED08;
/// AIRCR: a write of [`VECTKEY`] with [`SYSRESETREQ`] resets the system.
pub const AIRCR: u32 = 0xE000_ED0C;
/// AIRCR's key in a write (bits 31:16).
pub const VECTKEY: u32 = 0x05FA;
/// AIRCR.SYSRESETREQ.
pub const SYSRESETREQ: u32 = 1 << 2;
/// SHCSR: the fault handlers' enables and their active and pending bits.
pub const SHCSR: u32 = 0xE000_ED24;
/// DFSR: why the core halted for debug.
pub const DFSR: u32 = 0xE000_ED30;
/// CPACR: the coprocessors' (the FPU's CP10/CP11) access.
pub const CPACR: u32 = 0xE000_ED88;
/// DHCSR: halt, step and the debug state, written with [`DBGKEY`].
pub const DHCSR: u32 = 0xE000_EDF0;
/// DHCSR's key in a write (bits 31:16).
pub const DBGKEY: u32 = 0xA05F;
/// DCRSR: which core register DCRDR transfers, and which way.
pub const DCRSR: u32 = 0xE000_EDF4;
/// DCRDR: a core register's value, in transit.
pub const DCRDR: u32 = 0xE000_EDF8;
/// DEMCR: vector catch, and the DWT's and ITM's enable.
pub const DEMCR: u32 = 0xE000_EDFC;
/// MVFR0: the FPU's features (ARMv7-M B4.1).
pub const MVFR0: u32 = 0xE000_EF40;
/// MVFR1: the FPU's features.
pub const MVFR1: u32 = 0xE000_EF44;
/// FP_CTRL: the Flash Patch and Breakpoint unit's control.
pub const FP_CTRL: u32 = 0xE000_2000;
/// DWT_CTRL: the Data Watchpoint and Trace unit's control.
pub const DWT_CTRL: u32 = 0xE000_1000;
