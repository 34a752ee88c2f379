//! What the virtual board's end-to-end tests share: hand-assembled programs in minimal ELF
//! files (no `cargo fw` needed).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The loop's code at 0x08000008:
/// `movs r0,#0; ldr r1,=0x20000000; 1: adds r0,#1; str r0,[r1]; b 1b; nop; .word 0x20000000`.
pub const COUNTER: [u16; 8] = [
    0x2000, 0x4902, 0x3001, 0x6008, 0xe7fc, 0xbf00, 0x0000, 0x2000,
];
/// The loop's first instruction (`adds`), where a breakpoint is hit on every pass.
pub const LOOP: u32 = 0x0800_000c;
/// Where the counter is stored.
pub const COUNTER_AT: u32 = 0x2000_0000;

/// GPIOC's clock on, then its IDR stored to SRAM in a loop (B1 is PC13, pulled up on the board,
/// low when pressed), assembled by arm-none-eabi-as at 0x08000008: `ldr r1,=0x40023830; movs
/// r0,#4; str r0,[r1]; ldr r1,=0x40020810; mov.w r2,#0x20000000; 1: ldr r0,[r1]; str r0,[r2];
/// b 1b; .ltorg`.
pub const BUTTON_READER: [u16; 14] = [
    0x4904, 0x2004, 0x6008, 0x4904, 0xf04f, 0x5200, 0x6808, 0x6010, 0xe7fc, 0x0000, 0x3830, 0x4002,
    0x0810, 0x4002,
];

/// A minimal ELF32 ARM executable: the vector table (SP, reset 0x08000009) and the loop.
pub fn counter_elf(dir: &Path) -> PathBuf {
    program_elf(dir, "counter.elf", &COUNTER)
}

/// A minimal ELF32 ARM executable: the vector table (SP, reset 0x08000009) and `code`.
pub fn program_elf(dir: &Path, name: &str, code: &[u16]) -> PathBuf {
    let mut image = Vec::new();
    image.extend_from_slice(&0x2002_0000u32.to_le_bytes());
    image.extend_from_slice(&0x0800_0009u32.to_le_bytes());
    for &half in code {
        image.extend_from_slice(&half.to_le_bytes());
    }
    let mut elf = vec![0u8; 52 + 32];
    elf[..4].copy_from_slice(b"\x7fELF");
    elf[4] = 1;
    elf[5] = 1;
    elf[6] = 1;
    elf[16..18].copy_from_slice(&2u16.to_le_bytes());
    elf[18..20].copy_from_slice(&40u16.to_le_bytes());
    elf[20..24].copy_from_slice(&1u32.to_le_bytes());
    elf[24..28].copy_from_slice(&0x0800_0009u32.to_le_bytes());
    elf[28..32].copy_from_slice(&52u32.to_le_bytes());
    elf[40..42].copy_from_slice(&52u16.to_le_bytes());
    elf[42..44].copy_from_slice(&32u16.to_le_bytes());
    elf[44..46].copy_from_slice(&1u16.to_le_bytes());
    let word = |elf: &mut Vec<u8>, at: usize, v: u32| {
        elf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    word(&mut elf, 52, 1);
    word(&mut elf, 56, 84);
    word(&mut elf, 60, 0x0800_0000);
    word(&mut elf, 64, 0x0800_0000);
    word(&mut elf, 68, image.len() as u32);
    word(&mut elf, 72, image.len() as u32);
    word(&mut elf, 76, 5);
    elf.extend_from_slice(&image);
    let path = dir.join(name);
    std::fs::write(&path, elf).unwrap();
    path
}
