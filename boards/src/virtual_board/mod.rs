//! What the bench and the virtual board (the `virtual-board` binary: GPL-2.0, reached only over
//! its command line and its GDB stub's socket) say to each other, written once so that a change
//! to either is one edit: the board faults it makes at register level ([`BoardFault`], its
//! `--fault` words), and its monitor vocabulary ([`Monitor`], what `monitor ...` asks, and
//! [`Lit`], its answer to `leds`). The bench writes them with `Display`, the board reads them
//! with `FromStr`; both sides name the same type (feature `std`).

mod fault;
mod glitch;
mod monitor;

pub use fault::{BoardFault, BoardFaultError};
pub use glitch::{End, Glitch, GlitchKind, Press, Shown, Trial, TrialEnd, TrialError};
pub use monitor::{COMMANDS, Command, Lit, LitError, Monitor, MonitorError, Waited};
