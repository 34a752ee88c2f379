//! Planted board faults ([`BoardFault::Panic`](crate::board::BoardFault::Panic),
//! [`BoardFault::Hang`](crate::board::BoardFault::Hang)): a branch written over the entry of
//! [`PANIC_AT`] at every reset, through the core's hook ([`Core::patch_every_reset`]), so that
//! the engine knows no fault kind.

use crate::board::{PANIC_AT, PANIC_HANDLER};
use crate::cpu::{Core, branch_w};
use crate::elf::Elf;

/// Plants [`BoardFault::Panic`](crate::board::BoardFault::Panic): from the next reset on
/// (a debugger downloads the ELF, then resets), the entry of `PANIC_AT` branches to the
/// firmware's panic handler.
pub fn panic(core: &mut Core<'_>, elf: &Elf) -> Result<(), String> {
    let find = |name: &str| {
        elf.function(name)
            .ok_or_else(|| format!("the ELF has no function {name}, which the panic fault needs"))
    };
    let (from, to) = (find(PANIC_AT)?, find(PANIC_HANDLER)?);
    let code = branch_w(from, to).ok_or("the panic handler is out of a branch's reach")?;
    core.patch_every_reset(from, code)
        .map_err(|e| e.to_string())
}

/// Plants [`BoardFault::Hang`](crate::board::BoardFault::Hang): from the next reset on, the
/// entry of `PANIC_AT` branches to itself (`b.w .`), and the firmware stops feeding its
/// watchdog.
pub fn hang(core: &mut Core<'_>, elf: &Elf) -> Result<(), String> {
    let from = elf
        .function(PANIC_AT)
        .ok_or_else(|| format!("the ELF has no function {PANIC_AT}, which the hang fault needs"))?;
    let code = branch_w(from, from).ok_or("a branch to itself is always in reach")?;
    core.patch_every_reset(from, code)
        .map_err(|e| e.to_string())
}
