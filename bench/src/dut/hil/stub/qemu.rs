//! QEMU's gdbstub, someone else's QEMU (`--probe qemu` starts its own: [`super::super::qemu`]):
//! its quirks are [`gdb_probe::Quirks::QEMU`]; attached as the profile's chip.

use std::path::Path;

use gdb_probe::{Address, Gdb, Quirks};

use super::StubKind;
use crate::dut::DutError;
use crate::dut::hil::probe::Hil;

/// QEMU's gdbstub: its monitor is QEMU's, whose `help` lists `system_reset` (the reset its
/// quirks use).
pub const KIND: StubKind = StubKind {
    name: "QEMU's gdbstub",
    recognised: |gdb: &mut Gdb| {
        gdb.monitor_output("help")
            .is_ok_and(|said| said.contains("system_reset"))
    },
    connect,
};

fn connect(
    address: &Address,
    profile: &'static boards::Profile,
    elf: &Path,
) -> Result<Hil, DutError> {
    super::plain::attach(address, Quirks::QEMU, profile, elf)
}
