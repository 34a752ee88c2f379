//! Puts each binary's memory map where the linker finds it: `memory.x` (the STM32F446RE) for the
//! board binary (and its study build without the self-check), `qemu/memory.x` (QEMU's mps2-an386) for the QEMU one. The library and host
//! builds do not link against either.

#![allow(clippy::disallowed_methods)] // a build script writes only into cargo's own OUT_DIR (clippy.toml)

use std::{env, fs, path::PathBuf};

/// (binary, memory map in this crate)
const MAPS: [(&str, &str); 3] = [
    ("firmware", "memory.x"),
    ("firmware-unchecked", "memory.x"),
    ("firmware-qemu", "qemu/memory.x"),
];

fn main() {
    for (_, map) in MAPS {
        println!("cargo:rerun-if-changed={map}");
    }
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (bin, map) in MAPS {
        // One folder per binary, so that cortex-m-rt's `INCLUDE memory.x` finds only its own.
        let dir = out.join(bin);
        fs::create_dir_all(&dir).expect("create a memory map folder in OUT_DIR");
        fs::copy(map, dir.join("memory.x")).expect("copy a memory map to OUT_DIR");
        // `-L` and the folder as two arguments: flip-link (the linker wrapper) reads only
        // that form when it looks for the memory map.
        println!("cargo:rustc-link-arg-bin={bin}=-L");
        println!("cargo:rustc-link-arg-bin={bin}={}", dir.display());
    }
}
