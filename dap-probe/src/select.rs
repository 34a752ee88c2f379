//! What the host knows of the DP without asking: SELECT as last written, and the AP registers
//! that never change (IDR, CFG, BASE: read-only, fixed by the implementation, ARM IHI 0031
//! C2.6). probe-rs opens the memory AP anew for each `Session::core`, switching SELECT to bank
//! 0xF to read IDR and CFG and back to bank 0 around a read of CSW: seven accesses, one a
//! bench command, where one (CSW) is new. pyOCD's DP keeps SELECT the same way
//! (`coresight/dap.py`, `_set_ap_select`: written only when it changes) and reads IDR once.
//!
//! SELECT is written only when an access needs it ([`Select::due`]); a line reset, an attach,
//! a reset of the target or an error makes it unknown ([`Select::forget`]), so the next access
//! writes it again.

use std::collections::HashMap;

/// SELECT's address on the DP.
pub const SELECT: u8 = 0x8;

/// The AP registers a host may keep once read: IDR (0xFC), BASE (0xF8), CFG (0xF4).
const FIXED: [u8; 3] = [0xFC, 0xF8, 0xF4];

/// SELECT as the DP holds it and as the next access wants it, and the APs' fixed registers.
#[derive(Debug, Default)]
pub struct Select {
    /// What the DP holds (`None`: unknown).
    held: Option<u32>,
    /// What the last SELECT write asked for, not yet written.
    wanted: Option<u32>,
    /// Fixed registers read, by (APSEL, address).
    fixed: HashMap<(u8, u8), u32>,
}

impl Select {
    /// A write of SELECT: kept until an access needs it.
    pub fn want(&mut self, value: u32) {
        self.wanted = Some(value);
    }

    /// The SELECT value to write before the next access, if the DP does not hold it.
    pub fn due(&self) -> Option<u32> {
        self.wanted.filter(|&wanted| self.held != Some(wanted))
    }

    /// SELECT was written with `value`.
    pub fn written(&mut self, value: u32) {
        self.held = Some(value);
    }

    /// The DP's SELECT is no longer known (a line reset, an error, a reset of the target).
    pub fn forget(&mut self) {
        self.held = None;
    }

    /// The AP that SELECT names (APSEL, bits 31:24), as the next access sees it.
    fn apsel(&self) -> u8 {
        (self.wanted.or(self.held).unwrap_or(0) >> 24) as u8
    }

    /// A fixed AP register's value at `address` of the selected AP, if read before.
    pub fn fixed(&self, address: u8) -> Option<u32> {
        self.fixed.get(&(self.apsel(), address)).copied()
    }

    /// `value` was read at `address` of the selected AP: kept if the register is fixed.
    pub fn read(&mut self, address: u8, value: u32) {
        if FIXED.contains(&address) {
            self.fixed.insert((self.apsel(), address), value);
        }
    }

    /// Forgets the fixed registers too: another target may answer (a new attach).
    pub fn forget_all(&mut self) {
        *self = Select::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_is_written_only_when_it_changes_and_again_once_forgotten() {
        let mut select = Select::default();
        select.want(0xF0);
        assert_eq!(select.due(), Some(0xF0));
        select.written(0xF0);
        assert_eq!(select.due(), None);
        // Bank 0xF then back to 0 with no access between: nothing to write for the 0xF.
        select.want(0x00);
        assert_eq!(select.due(), Some(0x00));
        select.written(0x00);
        select.want(0xF0);
        select.want(0x00);
        assert_eq!(select.due(), None);
        select.forget();
        assert_eq!(select.due(), Some(0x00));
    }

    #[test]
    fn only_the_fixed_registers_of_the_selected_ap_are_kept() {
        let mut select = Select::default();
        select.want(0x0000_00F0);
        select.read(0xFC, 0x2477_0011);
        select.read(0x0C, 1234); // DRW: never kept
        assert_eq!(select.fixed(0xFC), Some(0x2477_0011));
        assert_eq!(select.fixed(0x0C), None);
        // AP 1's IDR is another register.
        select.want(0x0100_00F0);
        assert_eq!(select.fixed(0xFC), None);
        select.forget_all();
        select.want(0x0000_00F0);
        assert_eq!(select.fixed(0xFC), None);
    }
}
