//! HIL: the real board over probe-rs and RTT, opt-in by an environment variable.
//!
//! The probe-rs target itself (`Hil`) sits behind the `probe` feature, which CI does not
//! build; what is here is the opt-in every HIL test goes through.

/// The environment variable that opts in to HIL: the probe (`VID:PID[:SERIAL]`) or the chip
/// (`STM32F446RETx`) to use.
pub const PROBE_ENV: &str = "BIRDCAGE_HIL_PROBE";

/// The probe or chip named in [`PROBE_ENV`], if any (blank counts as unset).
pub fn probe_request() -> Option<String> {
    std::env::var(PROBE_ENV)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Whether a `--probe` names QEMU (the firmware in QEMU behind its gdbstub) rather than a
/// board's probe or chip.
pub fn is_qemu(probe: &str) -> bool {
    probe.eq_ignore_ascii_case("qemu")
}

/// Whether a `--probe` names the virtual NUCLEO-F446RE (the board ELF on the `virtual-board`
/// binary behind its GDB stub).
pub fn is_virtual(probe: &str) -> bool {
    probe.eq_ignore_ascii_case("virtual")
}

/// Where `cargo fw` writes the board ELF, relative to the workspace: `--probe virtual`'s ELF
/// when `--elf` is not given.
pub const BOARD_ELF: &str = "target/thumbv7em-none-eabihf/fw/firmware";
