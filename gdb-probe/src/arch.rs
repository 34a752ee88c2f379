//! Which machine an ELF is for, read from its identification and header alone (before any
//! 32-bit parser calls a 64-bit file invalid): the one rule for every tool that is handed
//! firmware and may be handed a host program instead.

use core::fmt;

use object::elf::{EM_386, EM_AARCH64, EM_ARM, EM_MIPS, EM_PPC, EM_PPC64, EM_RISCV, EM_X86_64};

/// An ELF that is not a 32-bit ARM one: its `e_machine` and class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Foreign {
    /// `e_machine`.
    pub machine: u16,
    /// 32 or 64 (`EI_CLASS`).
    pub bits: u8,
}

impl Foreign {
    /// The machine's name as `readelf` gives the common ones (`x86-64`), else its number.
    pub fn name(&self) -> String {
        match self.machine {
            EM_386 => "Intel 80386".into(),
            EM_X86_64 => "x86-64".into(),
            EM_ARM => "ARM".into(),
            EM_AARCH64 => "AArch64".into(),
            EM_RISCV => "RISC-V".into(),
            EM_MIPS => "MIPS".into(),
            EM_PPC => "PowerPC".into(),
            EM_PPC64 => "PowerPC64".into(),
            other => format!("machine {other}"),
        }
    }
}

/// `x86-64 (64-bit)`.
impl fmt::Display for Foreign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}-bit)", self.name(), self.bits)
    }
}

/// The machine of `bytes` when they are an ELF for anything but 32-bit ARM (`EM_ARM`, 40);
/// `None` for a 32-bit ARM ELF or bytes that are no ELF header at all (another check's).
///
/// ```
/// let mut host = [0u8; 20];
/// host[..6].copy_from_slice(b"\x7fELF\x02\x01");
/// host[18] = 62;
/// let foreign = gdb_probe::arch::foreign(&host).unwrap();
/// assert_eq!(foreign.to_string(), "x86-64 (64-bit)");
/// host[4] = 1;
/// host[18] = 40;
/// assert_eq!(gdb_probe::arch::foreign(&host), None);
/// ```
pub fn foreign(bytes: &[u8]) -> Option<Foreign> {
    if bytes.len() < 20 || &bytes[..4] != b"\x7fELF" {
        return None;
    }
    let bits = match bytes[4] {
        1 => 32,
        2 => 64,
        _ => return None,
    };
    let pair = [bytes[18], bytes[19]];
    let machine = match bytes[5] {
        1 => u16::from_le_bytes(pair),
        2 => u16::from_be_bytes(pair),
        _ => return None,
    };
    (machine != EM_ARM || bits != 32).then_some(Foreign { machine, bits })
}
