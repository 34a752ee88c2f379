//! The virtual NUCLEO-F446RE's stub, a board someone else started (`virtual-board serve`):
//! its quirks, memory map and connection are the board's own ([`super::super::virtual_board`]).

use gdb_probe::Gdb;

use super::StubKind;
use crate::dut::hil::virtual_board;

/// The virtual board: it answers `monitor window`, which no other stub knows.
pub const KIND: StubKind = StubKind {
    name: "the virtual board's stub",
    recognised: |gdb: &mut Gdb| virtual_board::answers(gdb),
    connect: |address, _profile, elf| virtual_board::connect_served(address, elf),
};
