//! The board ELF: what it loads where (its program headers' physical addresses, as a flash
//! programmer writes them), checked to be a Cortex-M binary for the STM32F446RE's flash, and
//! its function symbols, to name a PC and to count which functions ran.

use std::path::Path;

use gdb_probe::symbols::{Function, Functions};
use object::elf::{EM_ARM, PT_LOAD};
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};
use object::{Endianness, Object, ObjectSymbol};

use crate::chip::{FLASH, SRAM};

/// The largest file read: a board binary with its debug info is a few megabytes.
const MAX_BYTES: u64 = 64 << 20;

/// Why a file is not a board binary the virtual board can run.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    /// The file cannot be read.
    // `error`, not `source`: the message says why, and a chain would say it twice.
    #[error("cannot read {path}: {error}")]
    Read {
        /// The path.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// A directory.
    #[error("{path} is a directory, not the board ELF")]
    Directory {
        /// The path.
        path: String,
    },
    /// Not a regular file, or too big.
    #[error("{path} is not a regular file of at most 64 MiB")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// Not an ELF, or a damaged one.
    #[error("{path} is not a valid ELF file: {why}")]
    Corrupt {
        /// The path.
        path: String,
        /// What the parser said.
        why: String,
    },
    /// An ELF for another machine.
    #[error(
        "{path} is an ELF for {}, not a 32-bit ARM (Cortex-M) one: is it the board binary \
         (`cargo fw`)?",
        gdb_probe::arch::Foreign { machine: *.machine, bits: *.bits }
    )]
    NotArm {
        /// The path.
        path: String,
        /// e_machine.
        machine: u16,
        /// 32 or 64 (EI_CLASS).
        bits: u8,
    },
    /// It loads outside the chip's flash.
    #[error(
        "{path} loads {size} bytes at {address:#010x}, outside the STM32F446RE's flash \
         (0x08000000..0x08080000): is it the board binary (`cargo fw`), not the QEMU one?"
    )]
    Outside {
        /// The path.
        path: String,
        /// The segment's address.
        address: u32,
        /// Its size.
        size: u32,
    },
    /// Its vector table does not start a Cortex-M program in this chip's memory.
    #[error(
        "{path} has no vector table at the start of flash (initial SP {sp:#010x}, reset vector \
         {reset:#010x}): is it the board binary?"
    )]
    NoVectors {
        /// The path.
        path: String,
        /// Word 0.
        sp: u32,
        /// Word 1.
        reset: u32,
    },
}

/// A loaded board binary.
#[derive(Debug)]
pub struct Elf {
    /// (address, bytes) of each loaded segment.
    pub segments: Vec<(u32, Vec<u8>)>,
    /// Function symbols, by address.
    pub functions: Functions,
    /// Every function symbol's address by name, aliases included.
    pub aliases: std::collections::HashMap<String, u32>,
    /// The address of `_SEGGER_RTT`, if the binary has RTT.
    pub rtt: Option<u32>,
    /// The file's bytes (for the defmt table).
    pub bytes: Vec<u8>,
}

impl Elf {
    /// No binary: a blank chip's (nothing to load, no symbols).
    pub fn blank() -> Elf {
        Elf {
            segments: Vec::new(),
            functions: Default::default(),
            aliases: Default::default(),
            rtt: None,
            bytes: Vec::new(),
        }
    }

    /// Reads and checks `path`.
    pub fn read(path: &Path) -> Result<Elf, ElfError> {
        let name = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|error| ElfError::Read {
            path: name.clone(),
            error,
        })?;
        if meta.is_dir() {
            return Err(ElfError::Directory { path: name });
        }
        if !meta.is_file() || meta.len() > MAX_BYTES {
            return Err(ElfError::NotAFile { path: name });
        }
        let bytes = std::fs::read(path).map_err(|error| ElfError::Read {
            path: name.clone(),
            error,
        })?;
        Elf::parse(&name, bytes)
    }

    /// Checks `bytes`, named `name` in errors.
    pub fn parse(name: &str, bytes: Vec<u8>) -> Result<Elf, ElfError> {
        let corrupt = |e: object::Error| ElfError::Corrupt {
            path: name.to_string(),
            why: e.to_string(),
        };
        if let Some(gdb_probe::arch::Foreign { machine, bits }) = gdb_probe::arch::foreign(&bytes) {
            return Err(ElfError::NotArm {
                path: name.to_string(),
                machine,
                bits,
            });
        }
        let file = ElfFile32::<Endianness>::parse(&*bytes).map_err(corrupt)?;
        let header = file.elf_header();
        let endian = file.endian();
        let machine = header.e_machine(endian);
        if machine != EM_ARM {
            return Err(ElfError::NotArm {
                path: name.to_string(),
                machine,
                bits: 32,
            });
        }
        let mut segments = Vec::new();
        for ph in header.program_headers(endian, &*bytes).map_err(corrupt)? {
            if ph.p_type(endian) != PT_LOAD || ph.p_filesz(endian) == 0 {
                continue;
            }
            let address = ph.p_paddr(endian);
            let data = ph
                .data(endian, &*bytes)
                .map_err(|()| ElfError::Corrupt {
                    path: name.to_string(),
                    why: "a segment lies outside the file".into(),
                })?
                .to_vec();
            let size = data.len() as u32;
            if !FLASH.holds(address, size) {
                return Err(ElfError::Outside {
                    path: name.to_string(),
                    address,
                    size,
                });
            }
            segments.push((address, data));
        }
        let word = |at: u32| -> u32 {
            segments
                .iter()
                .find_map(|(base, data)| {
                    let i = at.checked_sub(*base)? as usize;
                    let b = data.get(i..i + 4)?;
                    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                })
                .unwrap_or(0)
        };
        let (sp, reset) = (word(FLASH.start), word(FLASH.start + 4));
        if !SRAM.holds(sp.wrapping_sub(4), 4) || reset & 1 == 0 || !FLASH.holds(reset & !1, 2) {
            return Err(ElfError::NoVectors {
                path: name.to_string(),
                sp,
                reset,
            });
        }
        let functions = Functions::of(&file);
        // Every code symbol by name, aliases too (the linker script's `_defmt_panic` is
        // `__defmt_default_panic` unless the firmware defines its own).
        let aliases = file
            .symbols()
            .filter(|s| FLASH.holds(s.address() as u32 & !1, 2))
            .filter_map(|s| {
                let name = format!("{:#}", rustc_demangle::demangle(s.name().ok()?));
                Some((name, s.address() as u32 & !1))
            })
            .collect();
        let rtt = gdb_probe::symbols::rtt_control_block(&file);
        Ok(Elf {
            segments,
            functions,
            aliases,
            rtt,
            bytes,
        })
    }

    /// The address of the function named `name` (demangled, without its hash).
    pub fn function(&self, name: &str) -> Option<u32> {
        self.aliases.get(name).copied()
    }

    /// The function holding `pc`.
    pub fn function_at(&self, pc: u32) -> Option<&Function> {
        self.functions.at(pc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_a_corrupt_elf_and_an_x86_header_is_not_arm() {
        let e = Elf::parse("x", b"hello".to_vec()).unwrap_err();
        assert!(matches!(e, ElfError::Corrupt { .. }), "{e}");
        // A 32-bit little-endian ELF header for EM_386 (3), no program headers.
        let mut h = vec![0u8; 52];
        h[..4].copy_from_slice(b"\x7fELF");
        h[4] = 1; // 32-bit
        h[5] = 1; // little-endian
        h[6] = 1; // version
        h[16] = 2; // ET_EXEC
        h[18] = 3; // EM_386
        h[20] = 1;
        h[40] = 52; // e_ehsize
        let e = Elf::parse("x86", h.clone()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x86 is an ELF for Intel 80386 (32-bit), not a 32-bit ARM (Cortex-M) one: is it the \
             board binary (`cargo fw`)?"
        );
    }

    #[test]
    fn a_64_bit_elf_is_named_for_its_machine_not_called_invalid() {
        // A 64-bit little-endian ELF header for EM_X86_64 (62), as a host binary starts.
        let mut h = vec![0u8; 64];
        h[..4].copy_from_slice(b"\x7fELF");
        h[4] = 2; // 64-bit
        h[5] = 1; // little-endian
        h[6] = 1;
        h[16] = 2;
        h[18] = 62;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("host-program");
        std::fs::write(&path, h).unwrap();
        let e = Elf::read(&path).unwrap_err().to_string();
        assert!(
            e.contains("is an ELF for x86-64 (64-bit), not a 32-bit ARM"),
            "{e}"
        );
    }

    #[test]
    fn a_directory_says_it_is_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let e = Elf::read(dir.path()).unwrap_err().to_string();
        assert!(e.ends_with("is a directory, not the board ELF"), "{e}");
    }
}
