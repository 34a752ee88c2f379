//! The core's registers by gdb's ARM numbers and unicorn's names.

use super::*;

impl Core<'_> {
    /// Reads core register r`n` (0..=12).
    pub fn r(&self, n: usize) -> u32 {
        self.uc.reg_read(reg(n)).unwrap_or(0) as u32
    }

    /// Writes core register r`n` (0..=12).
    pub fn set_r(&mut self, n: usize, value: u32) -> Result<(), EngineError> {
        self.uc.reg_write(reg(n), u64::from(value))?;
        Ok(())
    }

    /// Reads a register by gdb's ARM number (r0-r15 0-15, xPSR 25, d0-d15 26-41, FPSCR 42).
    pub fn register(&self, number: usize) -> Option<u64> {
        let value = self.uc.reg_read(gdb_register(number)?).ok()?;
        // An M-profile core is always in Thumb state; unicorn keeps T apart from xPSR.
        Some(if number == 25 {
            value | XPSR_THUMB
        } else {
            value
        })
    }

    /// Writes a register by gdb's ARM number.
    pub fn set_register(&mut self, number: usize, value: u64) -> Option<()> {
        let r = gdb_register(number)?;
        self.uc.reg_write(r, value).ok()
    }
}

/// r0..r12 as unicorn's registers.
pub(super) fn reg(n: usize) -> RegisterARM {
    const R: [RegisterARM; 13] = [
        RegisterARM::R0,
        RegisterARM::R1,
        RegisterARM::R2,
        RegisterARM::R3,
        RegisterARM::R4,
        RegisterARM::R5,
        RegisterARM::R6,
        RegisterARM::R7,
        RegisterARM::R8,
        RegisterARM::R9,
        RegisterARM::R10,
        RegisterARM::R11,
        RegisterARM::R12,
    ];
    R[n]
}

/// gdb's ARM register numbers (its `arm-m-profile` and `arm-vfpv2` features).
pub(super) fn gdb_register(number: usize) -> Option<RegisterARM> {
    const D: [RegisterARM; 16] = [
        RegisterARM::D0,
        RegisterARM::D1,
        RegisterARM::D2,
        RegisterARM::D3,
        RegisterARM::D4,
        RegisterARM::D5,
        RegisterARM::D6,
        RegisterARM::D7,
        RegisterARM::D8,
        RegisterARM::D9,
        RegisterARM::D10,
        RegisterARM::D11,
        RegisterARM::D12,
        RegisterARM::D13,
        RegisterARM::D14,
        RegisterARM::D15,
    ];
    Some(match number {
        0..=12 => reg(number),
        13 => RegisterARM::SP,
        14 => RegisterARM::LR,
        15 => RegisterARM::PC,
        25 => RegisterARM::XPSR,
        26..=41 => D[number - 26],
        42 => RegisterARM::FPSCR,
        _ => return None,
    })
}
