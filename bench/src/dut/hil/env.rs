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

/// What `--probe` names: the firmware in QEMU behind its gdbstub, the virtual NUCLEO-F446RE
/// (the board ELF on the `virtual-board` binary behind its GDB stub), or a board's probe or
/// chip (`VID:PID[:SERIAL]`, `STM32F446RETx`, or a GDB stub as `gdb:HOST:PORT`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Probe {
    /// `qemu`.
    Qemu,
    /// `virtual`.
    Virtual,
    /// A probe or chip, as probe-rs (or gdb-probe's `gdb:` selector) reads it.
    Board(String),
}

/// A `--probe` with nothing in it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--probe is empty: name a probe (VID:PID[:SERIAL]), a chip, qemu or virtual")]
pub struct ProbeError;

impl Probe {
    /// The probe of [`PROBE_ENV`], if set.
    pub fn from_env() -> Option<Probe> {
        probe_request().map(Probe::Board)
    }

    /// Whether the board behind it is emulated (QEMU's or the virtual board), so that SIL
    /// can run beside it in lockstep.
    pub fn is_emulated(&self) -> bool {
        matches!(self, Probe::Qemu | Probe::Virtual)
    }
}

impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Probe::Qemu => "qemu",
            Probe::Virtual => "virtual",
            Probe::Board(request) => request,
        })
    }
}

impl std::str::FromStr for Probe {
    type Err = ProbeError;

    /// `qemu` and `virtual` in any case; anything else not blank is a probe or chip.
    fn from_str(text: &str) -> Result<Probe, ProbeError> {
        let text = text.trim();
        Ok(if text.is_empty() {
            return Err(ProbeError);
        } else if text.eq_ignore_ascii_case("qemu") {
            Probe::Qemu
        } else if text.eq_ignore_ascii_case("virtual") {
            Probe::Virtual
        } else {
            Probe::Board(text.to_string())
        })
    }
}

impl serde::Serialize for Probe {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Where `cargo fw` writes the board ELF, relative to the workspace: `--probe virtual`'s ELF
/// when `--elf` is not given.
pub const BOARD_ELF: &str = "target/thumbv7em-none-eabihf/fw/firmware";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_reads_back_from_its_words() {
        for (text, probe) in [
            ("qemu", Probe::Qemu),
            ("virtual", Probe::Virtual),
            ("0483:374b", Probe::Board("0483:374b".into())),
            ("STM32F446RETx", Probe::Board("STM32F446RETx".into())),
            (
                "gdb:127.0.0.1:3333",
                Probe::Board("gdb:127.0.0.1:3333".into()),
            ),
        ] {
            assert_eq!(text.parse::<Probe>(), Ok(probe.clone()));
            assert_eq!(probe.to_string(), text);
        }
        assert_eq!("QEMU".parse::<Probe>(), Ok(Probe::Qemu));
        assert_eq!(" Virtual ".parse::<Probe>(), Ok(Probe::Virtual));
        assert_eq!("  ".parse::<Probe>(), Err(ProbeError));
        assert!(Probe::Qemu.is_emulated() && Probe::Virtual.is_emulated());
        assert!(!Probe::Board("0483:374b".into()).is_emulated());
    }
}
