//! The test binaries' link: the STM32F446RE's memory map (the board binary's `memory.x`, one
//! source) and embedded-test's linker script, which keeps its `.embedded_test` section. The
//! host build links nothing of it.

#![allow(clippy::disallowed_methods)] // a build script writes only into cargo's own OUT_DIR (clippy.toml)

use std::{env, fs, path::PathBuf};

const MEMORY: &str = "../firmware/memory.x";

fn main() {
    println!("cargo:rerun-if-changed={MEMORY}");
    println!("cargo::rustc-check-cfg=cfg(rust_analyzer)");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy(MEMORY, out.join("memory.x")).expect("copy the memory map to OUT_DIR");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-tests=-Tembedded-test.x");
}
