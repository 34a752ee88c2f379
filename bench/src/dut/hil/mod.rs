//! HIL: the real board over probe-rs and RTT (feature `probe`), opt-in by an environment
//! variable; the same probe-rs path runs against the firmware in QEMU through the GDB-stub
//! probe ([`gdb_probe`]).

#[cfg(feature = "probe")]
mod dap_board;
mod env;
#[cfg(feature = "probe")]
mod image;
#[cfg(feature = "probe")]
mod path;
#[cfg(feature = "probe")]
mod probe;
#[cfg(feature = "probe")]
pub mod qemu;
#[cfg(feature = "probe")]
mod reset;
#[cfg(feature = "probe")]
pub mod stub;
#[cfg(feature = "probe")]
pub mod virtual_board;

pub use env::{BOARD_ELF, PROBE_ENV, Probe, ProbeError, probe_request};
#[cfg(feature = "probe")]
pub use path::PathFault;
#[cfg(feature = "probe")]
pub use probe::{Emulation, Hil, Service};
