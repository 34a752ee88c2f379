//! A debug probe over a GDB remote stub, for any project that runs Cortex-M firmware behind one
//! (QEMU's gdbstub today; a virtual board's, or gdbserver, tomorrow):
//!
//! - [`Gdb`]: a client of the GDB remote serial protocol over any [`Stream`] (a unix socket
//!   or TCP, chosen by an [`Address`]): halt, resume, step, memory, registers, monitor; RAM a
//!   stub on the same machine shares through a file is reached with no packet ([`window`]).
//! - [`rtt`]: the host side of SEGGER RTT over a small [`rtt::Memory`] trait (the gdb client
//!   is one), for a host that reads the ring buffers itself.
//! - `probe` (feature `probe-rs`): probe-rs's `DebugProbe` and ARM interfaces over any
//!   [`probe::Stub`], with a `ProbeFactory` and a `ProbeLister` that open a stub from a
//!   selector such as `gdb:unix:PATH` or `gdb:tcp:HOST:PORT`, and a [`probe::Scripted`] stub
//!   for tests.
//!
//! - [`arch`]: which machine an ELF is for (a host program handed over as firmware).
//! - [`cortex_m`]: the Cortex-M system and debug registers' addresses, for a probe and a core
//!   model alike; [`symbols`]: an ELF's function table (a PC's function) and RTT's control
//!   block.
//!
//! A stub's departures from the protocol are data ([`Quirks`]), not special cases.

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

pub mod arch;
mod client;
pub mod cortex_m;
mod quirks;
pub mod rtt;
pub mod symbols;
mod transport;
pub mod window;

#[cfg(feature = "probe-rs")]
pub mod probe;

pub use client::{Gdb, GdbError};
pub use quirks::Quirks;
pub use transport::{Address, AddressError, Stream};

/// probe-rs target descriptions of emulated machines with no vendor pack.
pub mod targets {
    /// QEMU's `mps2-an386`: one Cortex-M4F; its flash and RAM are both RAM to a debugger (a
    /// download writes them directly, with no flash algorithm).
    pub const MPS2_AN386_YAML: &str = include_str!("mps2_an386.yaml");
    /// The chip's name in [`MPS2_AN386_YAML`].
    pub const MPS2_AN386: &str = "MPS2_AN386";
}
