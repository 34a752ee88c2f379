//! Halting debug as a debugger drives it through the bus (ARMv7-M ARM C1.6, "Debug system
//! registers"): DHCSR (the key, C_DEBUGEN, C_HALT, C_STEP, C_MASKINTS; S_REGRDY, S_HALT,
//! S_LOCKUP, S_RETIRE_ST and S_RESET_ST, the last two cleared by a read), DCRSR and DCRDR for
//! every core register a debugger asks for, DEMCR (vector catch, TRCENA) and DFSR (why the
//! core halted, write one to clear). The core keeps the state; the debug port reads and writes
//! these addresses here, before the chip's models ([`Core::debug_register`]), and the GDB
//! stub's halts and runs set the same state, so a gdb client reads the same DHCSR.
//!
//! Of the vector catches only VC_CORERESET acts: the board delivers no exception (there is no
//! NVIC; a fault stops the board with its reason), so the others are kept and read back.

use gdb_probe::cortex_m::{DBGKEY, DCRDR, DCRSR, DEMCR, DFSR, DHCSR};

use super::*;

/// DHCSR's control bits (C1.6.3).
const C_DEBUGEN: u32 = 1 << 0;
const C_HALT: u32 = 1 << 1;
const C_STEP: u32 = 1 << 2;
const C_MASKINTS: u32 = 1 << 3;
/// DHCSR's status bits.
const S_REGRDY: u32 = 1 << 16;
const S_HALT: u32 = 1 << 17;
const S_LOCKUP: u32 = 1 << 19;
const S_RETIRE_ST: u32 = 1 << 24;
const S_RESET_ST: u32 = 1 << 25;

/// DFSR's bits (C1.6.1 / B3.2.15).
pub const DFSR_HALTED: u32 = 1 << 0;
/// A `bkpt`, or an FPB comparator.
pub const DFSR_BKPT: u32 = 1 << 1;
/// A DWT comparator.
pub const DFSR_DWTTRAP: u32 = 1 << 2;
/// A vector catch.
pub const DFSR_VCATCH: u32 = 1 << 3;

/// DEMCR's bits that exist (C1.6.5): VC_CORERESET, the other catches, the monitor's, TRCENA.
const DEMCR_BITS: u32 = 0x010F_07F1;
/// DEMCR.VC_CORERESET: halt at the reset vector after a reset.
const VC_CORERESET: u32 = 1 << 0;

/// DCRSR.REGWnR: a write of DCRDR to the register.
const REGWNR: u32 = 1 << 16;

/// The halting debug state, kept by the core across system resets (it is in the debug
/// domain: only a power-on resets it).
#[derive(Clone, Debug, Default)]
pub struct Halting {
    /// C_DEBUGEN, C_MASKINTS (C_HALT and C_STEP are `halted` and `step`).
    control: u32,
    /// The core is in debug state.
    pub halted: bool,
    /// Resume one instruction, then halt (C_STEP written with C_HALT clear).
    pub step: bool,
    demcr: u32,
    dfsr: u32,
    dcrdr: u32,
    /// S_RESET_ST and S_RETIRE_ST since the last DHCSR read.
    reset_since: bool,
    retired_since: bool,
    /// The core locked up (a fault with no handler): the board has stopped it.
    pub lockup: bool,
    /// nRST is held low: the core is in reset (S_RESET_ST reads set until it is let go, and
    /// a halt request waits for the release).
    pub in_reset: bool,
}

impl Halting {
    /// Whether a debugger enabled halting debug.
    pub fn enabled(&self) -> bool {
        self.control & C_DEBUGEN != 0
    }

    /// A debugger took the core (a GDB stub's client): halting debug enabled, as its server
    /// would set C_DEBUGEN on a chip.
    pub fn take(&mut self) {
        self.control |= C_DEBUGEN;
    }

    /// The core halts for `reason` (DFSR bits).
    pub fn halt(&mut self, reason: u32) {
        // Halting takes a locked-up core out of lockup into debug state (ARMv7-M B1.5.15).
        self.lockup = false;
        self.halted = true;
        self.step = false;
        self.dfsr |= reason;
    }

    /// After a system reset: S_RESET_ST, out of debug state, and halted at the reset vector
    /// when the debugger asked for it (C1.6.5, VC_CORERESET).
    pub fn after_reset(&mut self) {
        self.reset_since = true;
        self.lockup = false;
        // A local reset leaves debug state (C_HALT is not kept: a debugger's reset-and-run
        // from a halt runs, as probe-rs's `reset` expects of every Cortex-M).
        self.halted = false;
        self.step = false;
        if self.enabled() && self.demcr & VC_CORERESET != 0 && !self.in_reset {
            self.halt(DFSR_VCATCH);
        }
    }

    /// Instructions retired since the last look (S_RETIRE_ST).
    pub fn retired(&mut self) {
        self.retired_since = true;
    }

    fn dhcsr(&mut self) -> u32 {
        let mut value = self.control | S_REGRDY;
        if self.halted {
            value |= S_HALT | C_HALT;
        }
        if self.step {
            value |= C_STEP;
        }
        if self.lockup {
            value |= S_LOCKUP;
        }
        // Read while nRST is held, S_RESET_ST is set again at once: it stays set (C1.6.3; a
        // debugger tells a core held in reset by two reads).
        if std::mem::take(&mut self.reset_since) || self.in_reset {
            value |= S_RESET_ST;
        }
        if std::mem::take(&mut self.retired_since) {
            value |= S_RETIRE_ST;
        }
        value
    }

    /// A DHCSR write: ignored without the key (C1.6.3); C_HALT halts (with C_DEBUGEN), its
    /// clearing resumes, C_STEP with C_HALT clear steps one instruction.
    fn write_dhcsr(&mut self, value: u32) {
        if value >> 16 != DBGKEY {
            return;
        }
        self.control = value & (C_DEBUGEN | C_MASKINTS);
        if !self.enabled() {
            // Clearing C_DEBUGEN lets the core go (C_HALT is ignored without it).
            self.halted = false;
            self.step = false;
            return;
        }
        if value & C_HALT != 0 {
            // A core in reset enters debug state only once let go (then VC_CORERESET acts).
            if !self.halted && !self.in_reset {
                self.halt(DFSR_HALTED);
            }
        } else if self.halted {
            self.halted = false;
            self.step = value & C_STEP != 0;
        }
    }
}

impl Core<'_> {
    /// The halting debug state.
    pub fn halting(&mut self) -> &mut Halting {
        &mut self.halting
    }

    /// A debugger's word access to a debug register ([`holds`]): `Some(value)` read, or the
    /// write done (`value` given); `None` for any other address.
    pub fn debug_register(&mut self, address: u32, write: Option<u32>) -> Option<u32> {
        let address = address & !3;
        match (address, write) {
            (DHCSR, None) => Some(self.halting.dhcsr()),
            (DHCSR, Some(value)) => {
                self.halting.write_dhcsr(value);
                Some(0)
            }
            // DCRSR is write-only (reads as 0 here: UNKNOWN on the chip).
            (DCRSR, None) => Some(0),
            (DCRSR, Some(value)) => {
                self.transfer(value);
                Some(0)
            }
            (DCRDR, None) => Some(self.halting.dcrdr),
            (DCRDR, Some(value)) => {
                self.halting.dcrdr = value;
                Some(0)
            }
            (DEMCR, None) => Some(self.halting.demcr),
            (DEMCR, Some(value)) => {
                self.halting.demcr = value & DEMCR_BITS;
                Some(0)
            }
            (DFSR, None) => Some(self.halting.dfsr),
            (DFSR, Some(value)) => {
                self.halting.dfsr &= !value;
                Some(0)
            }
            _ => None,
        }
    }

    /// A DCRSR write: DCRDR to or from the register REGSEL names (C1.6.4, table C1-13),
    /// only in debug state (UNPREDICTABLE otherwise: ignored here).
    fn transfer(&mut self, dcrsr: u32) {
        if !self.halting.halted {
            return;
        }
        let select = dcrsr & 0x7F;
        if dcrsr & REGWNR != 0 {
            let value = self.halting.dcrdr;
            self.write_debug_register(select, value);
        } else if let Some(value) = self.read_debug_register(select) {
            self.halting.dcrdr = value;
        }
    }

    /// The register REGSEL `select` names: r0-r12, SP (the active one), LR, the debug
    /// return address (PC), xPSR, MSP, PSP, CONTROL/FAULTMASK/BASEPRI/PRIMASK in one word,
    /// FPSCR, s0-s31.
    fn read_debug_register(&self, select: u32) -> Option<u32> {
        let read = |r: RegisterARM| self.uc.reg_read(r).ok().map(|v| v as u32);
        match select {
            0..=12 => Some(self.r(select as usize)),
            13 => read(RegisterARM::SP),
            14 => read(RegisterARM::LR),
            15 => read(RegisterARM::PC),
            16 => read(RegisterARM::XPSR).map(|v| v | XPSR_THUMB as u32),
            17 => read(RegisterARM::MSP),
            18 => read(RegisterARM::PSP),
            // CONTROL in [31:24], FAULTMASK [23:16], BASEPRI [15:8], PRIMASK [7:0].
            20 => Some(
                (read(RegisterARM::CONTROL)? & 0xFF) << 24
                    | (read(RegisterARM::FAULTMASK)? & 0xFF) << 16
                    | (read(RegisterARM::BASEPRI)? & 0xFF) << 8
                    | (read(RegisterARM::PRIMASK)? & 0xFF),
            ),
            0x21 => read(RegisterARM::FPSCR),
            0x40..=0x5F => read(single(select - 0x40)),
            _ => None,
        }
    }

    fn write_debug_register(&mut self, select: u32, value: u32) {
        let v = u64::from(value);
        let mut write = |r: RegisterARM, v: u64| {
            let _ = self.uc.reg_write(r, v);
        };
        match select {
            0..=12 => write(reg(select as usize), v),
            13 => write(RegisterARM::SP, v),
            14 => write(RegisterARM::LR, v),
            // The debug return address: bit 0 is the Thumb bit, not part of the address.
            15 => write(RegisterARM::PC, v & !1),
            16 => write(RegisterARM::XPSR, v),
            17 => write(RegisterARM::MSP, v),
            18 => write(RegisterARM::PSP, v),
            20 => {
                write(RegisterARM::CONTROL, v >> 24 & 0x7);
                write(RegisterARM::FAULTMASK, v >> 16 & 1);
                write(RegisterARM::BASEPRI, v >> 8 & 0xFF);
                write(RegisterARM::PRIMASK, v & 1);
            }
            0x21 => write(RegisterARM::FPSCR, v),
            0x40..=0x5F => write(single(select - 0x40), v),
            _ => {}
        }
    }
}

/// s`n` as unicorn's register.
fn single(n: u32) -> RegisterARM {
    const S: [RegisterARM; 32] = [
        RegisterARM::S0,
        RegisterARM::S1,
        RegisterARM::S2,
        RegisterARM::S3,
        RegisterARM::S4,
        RegisterARM::S5,
        RegisterARM::S6,
        RegisterARM::S7,
        RegisterARM::S8,
        RegisterARM::S9,
        RegisterARM::S10,
        RegisterARM::S11,
        RegisterARM::S12,
        RegisterARM::S13,
        RegisterARM::S14,
        RegisterARM::S15,
        RegisterARM::S16,
        RegisterARM::S17,
        RegisterARM::S18,
        RegisterARM::S19,
        RegisterARM::S20,
        RegisterARM::S21,
        RegisterARM::S22,
        RegisterARM::S23,
        RegisterARM::S24,
        RegisterARM::S25,
        RegisterARM::S26,
        RegisterARM::S27,
        RegisterARM::S28,
        RegisterARM::S29,
        RegisterARM::S30,
        RegisterARM::S31,
    ];
    S[n as usize & 31]
}

#[cfg(test)]
mod tests {
    use super::super::tests::program;
    use super::*;

    const KEY: u32 = DBGKEY << 16;

    #[test]
    fn dhcsr_halts_with_the_key_only_and_says_why_in_dfsr() {
        // ARMv7-M ARM C1.6.3: a write without DBGKEY is ignored; C_HALT needs C_DEBUGEN.
        let (_, mut core) = program(&[0xE7FE]);
        core.debug_register(DHCSR, Some(C_DEBUGEN | C_HALT));
        assert!(!core.halting.halted, "no key");
        core.debug_register(DHCSR, Some(KEY | C_HALT));
        assert!(!core.halting.halted, "no C_DEBUGEN");
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN | C_HALT));
        let dhcsr = core.debug_register(DHCSR, None).unwrap();
        assert_eq!(
            dhcsr & (S_HALT | S_REGRDY | C_DEBUGEN | C_HALT),
            S_HALT | S_REGRDY | 3
        );
        // B3.2.15: DFSR.HALTED, cleared by writing one.
        assert_eq!(core.debug_register(DFSR, None), Some(DFSR_HALTED));
        core.debug_register(DFSR, Some(DFSR_HALTED));
        assert_eq!(core.debug_register(DFSR, None), Some(0));
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN));
        assert!(!core.halting.halted, "C_HALT cleared: running");
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN | C_HALT));
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN | C_STEP));
        assert!(core.halting.step && !core.halting.halted, "one step asked");
    }

    #[test]
    fn s_reset_st_is_cleared_by_reading_it_and_vc_corereset_halts_at_the_vector() {
        // C1.6.3 (S_RESET_ST: "cleared on read"), C1.6.5 (VC_CORERESET).
        let (_, mut core) = program(&[0xE7FE]);
        core.halting.after_reset();
        assert_ne!(core.debug_register(DHCSR, None).unwrap() & S_RESET_ST, 0);
        assert_eq!(core.debug_register(DHCSR, None).unwrap() & S_RESET_ST, 0);
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN));
        core.debug_register(DEMCR, Some(0xFFFF_FFFF));
        assert_eq!(core.debug_register(DEMCR, None), Some(DEMCR_BITS));
        core.halting.after_reset();
        assert!(core.halting.halted);
        assert_eq!(
            core.debug_register(DFSR, None).unwrap() & DFSR_VCATCH,
            DFSR_VCATCH
        );
    }

    #[test]
    fn held_in_reset_s_reset_st_stays_set_and_a_halt_waits() {
        // C1.6.3: S_RESET_ST is set while the core is in reset, whatever reads came before.
        let (_, mut core) = program(&[0xE7FE]);
        core.halting.in_reset = true;
        for _ in 0..3 {
            assert_ne!(core.debug_register(DHCSR, None).unwrap() & S_RESET_ST, 0);
        }
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN | C_HALT));
        assert_eq!(
            core.debug_register(DHCSR, None).unwrap() & S_HALT,
            0,
            "no halt"
        );
        core.halting.in_reset = false;
        core.debug_register(DHCSR, None);
        assert_eq!(core.debug_register(DHCSR, None).unwrap() & S_RESET_ST, 0);
    }

    #[test]
    fn dcrsr_moves_every_register_a_debugger_asks_for_through_dcrdr() {
        // C1.6.4, table C1-13: REGSEL numbers.
        let (_, mut core) = program(&[0xE7FE]);
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN | C_HALT));
        let write = |core: &mut Core<'_>, select: u32, value: u32| {
            core.debug_register(DCRDR, Some(value));
            core.debug_register(DCRSR, Some(REGWNR | select));
        };
        let read = |core: &mut Core<'_>, select: u32| {
            core.debug_register(DCRDR, Some(0xDEAD_BEEF));
            core.debug_register(DCRSR, Some(select));
            core.debug_register(DCRDR, None).unwrap()
        };
        for (select, value) in [
            (0, 0x11),
            (7, 0x77),
            (12, 0xCC),
            (14, 0x0800_0123),
            (15, 0x0800_0040),
            (17, 0x2001_0000),
            (18, 0x2000_8000),
            (0x21, 0x0300_0000),
            (0x40, 0x3F80_0000),
            (0x5F, 0x4000_0000),
        ] {
            write(&mut core, select, value);
            assert_eq!(read(&mut core, select), value, "REGSEL {select:#x}");
        }
        // PC written with the Thumb bit: the address without it.
        write(&mut core, 15, 0x0800_0041);
        assert_eq!(read(&mut core, 15), 0x0800_0040);
        assert_eq!(core.pc(), 0x0800_0040);
        // xPSR always reads Thumb state.
        assert_ne!(read(&mut core, 16) & (1 << 24), 0);
        // CONTROL, FAULTMASK, BASEPRI, PRIMASK in one word.
        write(&mut core, 20, 0x0001_2001);
        assert_eq!(read(&mut core, 20), 0x0001_2001);
        // Not halted: no transfer (UNPREDICTABLE on the chip; ignored here).
        core.debug_register(DHCSR, Some(KEY | C_DEBUGEN));
        core.debug_register(DCRDR, Some(5));
        core.debug_register(DCRSR, Some(REGWNR));
        assert_eq!(core.r(0), 0x11);
    }
}
