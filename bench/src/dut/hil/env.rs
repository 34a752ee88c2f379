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
/// chip (`VID:PID[:SERIAL]`, `STM32F446RETx`), a GDB stub (`gdb:unix:PATH`,
/// `gdb:tcp:HOST:PORT`) of any kind the HIL path's stub table knows, or a DAP server of pyOCD's
/// remote-probe protocol (`dap:unix:PATH`, `dap:tcp:HOST:PORT`), attached as the profile's chip.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Probe {
    /// `qemu`.
    Qemu,
    /// `virtual`.
    Virtual,
    /// A GDB stub: `gdb:` and its address.
    Gdb(gdb_probe::Address),
    /// A server of pyOCD's remote-probe protocol (a DAP: the virtual board's `serve --dap`,
    /// pyOCD's probe server): `dap:` and its address.
    Dap(gdb_probe::Address),
    /// A probe or chip, as probe-rs reads it.
    Board(String),
}

/// A `--probe` that names nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// Nothing in it.
    #[error("--probe is empty: name a probe (VID:PID[:SERIAL]), a chip, qemu or virtual")]
    Empty,
    /// `gdb:` and no stub's address.
    #[error(transparent)]
    Gdb(#[from] gdb_probe::AddressError),
    /// `dap:` and no server's address.
    #[error("`{0}` is not a DAP server's address: write dap:unix:PATH or dap:tcp:HOST:PORT")]
    Dap(String),
}

impl Probe {
    /// The probe of [`PROBE_ENV`], if set (a `gdb:` with no address in it stays a request,
    /// refused when it is looked for).
    pub fn from_env() -> Option<Probe> {
        probe_request().map(|text| text.parse().unwrap_or(Probe::Board(text)))
    }

    /// Whether the board behind it is emulated (QEMU's or the virtual board), so that SIL
    /// can run beside it in lockstep.
    pub fn is_emulated(&self) -> bool {
        matches!(self, Probe::Qemu | Probe::Virtual)
    }
}

impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Probe::Qemu => f.write_str("qemu"),
            Probe::Virtual => f.write_str("virtual"),
            Probe::Gdb(address) => write!(f, "gdb:{address}"),
            Probe::Dap(address) => write!(f, "dap:{address}"),
            Probe::Board(request) => f.write_str(request),
        }
    }
}

impl std::str::FromStr for Probe {
    type Err = ProbeError;

    /// `qemu` and `virtual` in any case, `gdb:` and a stub's address, `dap:` and a DAP
    /// server's; anything else not blank is a probe or chip.
    fn from_str(text: &str) -> Result<Probe, ProbeError> {
        let text = text.trim();
        Ok(if text.is_empty() {
            return Err(ProbeError::Empty);
        } else if text.eq_ignore_ascii_case("qemu") {
            Probe::Qemu
        } else if text.eq_ignore_ascii_case("virtual") {
            Probe::Virtual
        } else if let Some(address) = text.strip_prefix("gdb:") {
            Probe::Gdb(address.parse()?)
        } else if let Some(address) = text.strip_prefix("dap:") {
            Probe::Dap(
                address
                    .parse()
                    .map_err(|_| ProbeError::Dap(address.chars().take(80).collect()))?,
            )
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
                "gdb:tcp:127.0.0.1:3333",
                Probe::Gdb(gdb_probe::Address::Tcp("127.0.0.1:3333".into())),
            ),
            (
                "gdb:unix:/tmp/board.sock",
                Probe::Gdb(gdb_probe::Address::Unix("/tmp/board.sock".into())),
            ),
            (
                "dap:unix:/tmp/board-dap.sock",
                Probe::Dap(gdb_probe::Address::Unix("/tmp/board-dap.sock".into())),
            ),
            (
                "dap:tcp:127.0.0.1:5555",
                Probe::Dap(gdb_probe::Address::Tcp("127.0.0.1:5555".into())),
            ),
        ] {
            assert_eq!(text.parse::<Probe>(), Ok(probe.clone()));
            assert_eq!(probe.to_string(), text);
        }
        assert_eq!("QEMU".parse::<Probe>(), Ok(Probe::Qemu));
        assert_eq!(" Virtual ".parse::<Probe>(), Ok(Probe::Virtual));
        assert_eq!("  ".parse::<Probe>(), Err(ProbeError::Empty));
        assert_eq!(
            "gdb:127.0.0.1:3333"
                .parse::<Probe>()
                .map_err(|e| e.to_string()),
            Err(
                "`127.0.0.1:3333` is not a gdb stub address: write unix:PATH or tcp:HOST:PORT"
                    .into()
            )
        );
        assert_eq!(
            "dap:5555".parse::<Probe>().map_err(|e| e.to_string()),
            Err(
                "`5555` is not a DAP server's address: write dap:unix:PATH or dap:tcp:HOST:PORT"
                    .into()
            )
        );
        assert!(Probe::Qemu.is_emulated() && Probe::Virtual.is_emulated());
        assert!(!Probe::Board("0483:374b".into()).is_emulated());
    }
}
