//! Any GDB stub that follows the protocol and models the device registers itself: no quirks
//! ([`gdb_probe::Quirks::PLAIN`]), no memory map of its own (attached as the profile's chip).

use std::path::Path;

use gdb_probe::probe::GdbTarget;
use gdb_probe::{Address, Quirks};
use probe_rs::config::Registry;

use super::StubKind;
use crate::dut::hil::probe::Hil;
use crate::dut::retry::Polling;
use crate::dut::{DutError, Lost};

/// Recognised by elimination: the last row.
pub const KIND: StubKind = StubKind {
    name: "a GDB stub",
    recognised: |_| true,
    connect,
};

/// Attaches as the profile's chip, with `quirks` (QEMU's stub connects this way too).
pub(super) fn attach(
    address: &Address,
    quirks: Quirks,
    profile: &'static boards::Profile,
    elf: &Path,
) -> Result<Hil, DutError> {
    let chip = profile.probe_rs_chip.ok_or(Lost::NoChip(profile.name))?;
    let target = GdbTarget {
        address: address.clone(),
        quirks,
        ram: Vec::new(),
    };
    let registry = Registry::from_builtin_families();
    Hil::connect_stub(target, chip, &registry, elf, None, Polling::BOARD)
}

fn connect(
    address: &Address,
    profile: &'static boards::Profile,
    elf: &Path,
) -> Result<Hil, DutError> {
    attach(address, Quirks::PLAIN, profile, elf)
}
