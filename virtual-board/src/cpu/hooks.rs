//! unicorn's hooks: the MMIO pages through the board's models, unmapped and invalid accesses
//! stopped and named, and the block hook that counts instructions and ends slices, instants
//! and `monitor wait`.

use super::*;

/// Stops the run at a fault found in a hook with the exact PC (an unmapped access).
pub(super) fn stop_with(uc: &mut Unicorn<'_, State>, fault: Refusal) {
    let pc = uc.pc_read().unwrap_or(0) as u32;
    uc.get_data_mut().pending = Some(Pending::Refusal(fault, pc, true));
    let _ = uc.emu_stop();
}

/// Stops the run at a fault found in an MMIO callback: its place is the block's start.
pub(super) fn stop_in_block(uc: &mut Unicorn<'_, State>, fault: Refusal) {
    let block = uc.get_data().block;
    uc.get_data_mut().pending = Some(Pending::Refusal(fault, block, false));
    let _ = uc.emu_stop();
}

/// A load from a modelled register (MMIO): the model's value; a fault stops the run at the
/// block (its PC is the block's start: an MMIO callback has no exact PC).
pub(super) fn mmio_read(uc: &mut Unicorn<'_, State>, address: u64, size: usize) -> u64 {
    match uc.get_data_mut().board.read(address as u32, size) {
        Ok(v) => u64::from(v),
        Err(fault) => {
            stop_in_block(uc, fault);
            0
        }
    }
}

/// A store to a modelled register (MMIO).
pub(super) fn mmio_write(uc: &mut Unicorn<'_, State>, address: u64, size: usize, value: u64) {
    match uc
        .get_data_mut()
        .board
        .write(address as u32, size, value as u32)
    {
        Ok(()) if uc.get_data().board.reset_requested => {
            let _ = uc.emu_stop();
        }
        Ok(()) => {
            if let Err(fault) = erase_started(uc) {
                stop_in_block(uc, fault);
            }
        }
        Err(fault) => stop_in_block(uc, fault),
    }
}

/// Erases in memory the flash an erase just started on (FLASH_CR.STRT), if one did.
pub(super) fn erase_started(uc: &mut Unicorn<'_, State>) -> Result<(), Refusal> {
    let Some((start, len)) = uc.get_data_mut().board.take_erase() else {
        return Ok(());
    };
    uc.mem_write(u64::from(start), &vec![0xFF; len as usize])
        .map_err(|_| Refusal::Unmodelled(uc.get_data().board.access(start, Some(0xFF), 1)))?;
    code_changed(uc, start, len);
    Ok(())
}

/// Flash at `start..start + len` holds new bytes: the code translated from it is dropped
/// (qemu's translation blocks), and the block lengths counted so far, at the next block.
pub(super) fn code_changed(uc: &mut Unicorn<'_, State>, start: u32, len: u32) {
    let _ = uc.ctl_remove_cache(u64::from(start), u64::from(start) + u64::from(len));
    uc.get_data_mut().lengths_stale = true;
}

/// A store of `size` bytes of `value` to flash at `address` through the flash interface (the
/// core's, or a debugger's bus write): programmed as the interface says (old AND data), an
/// error flag set in FLASH_SR, or refused (PG not set: a configuration fault).
pub(super) fn program_flash(
    uc: &mut Unicorn<'_, State>,
    address: u32,
    size: usize,
    value: u32,
) -> Result<(), Refusal> {
    let unreadable = |uc: &Unicorn<'_, State>| {
        Refusal::Unmodelled(uc.get_data().board.access(address, Some(value), size))
    };
    let mut old = [0u8; 4];
    uc.mem_read(u64::from(address), &mut old[..size])
        .map_err(|_| unreadable(uc))?;
    let old = u32::from_le_bytes(old);
    let programmed = uc
        .get_data_mut()
        .board
        .program_flash(address, size, value, old)?;
    // Unchanged bytes are not written again: each write to the read-only region rebuilds
    // unicorn's memory map twice (uc.c, uc_mem_write's `readonly_mem`).
    if let Some(new) = programmed.filter(|&new| new != old) {
        uc.mem_write(u64::from(address), &new.to_le_bytes()[..size])
            .map_err(|_| unreadable(uc))?;
        code_changed(uc, address, size as u32);
    }
    Ok(())
}

/// A store by the core to flash, which unicorn maps read-only: the WRITE_PROT hook, called
/// before the store with its exact PC. The flash interface programs it ([`program_flash`]);
/// the store itself, let through (`true`), is then discarded by unicorn, which drops writes to
/// a read-only RAM region (cputlb.c: `TLB_DISCARD_WRITE`). An unaligned store is let through
/// untouched: unicorn makes it again as byte stores (store_helper's `do_unaligned_access`),
/// which come here each, as the core's bus splits it (ARMv7-M ARM A3.2.1).
fn flash_store(uc: &mut Unicorn<'_, State>, address: u32, size: usize, value: u32) -> bool {
    if size > 1 && !address.is_multiple_of(size as u32) {
        return true;
    }
    match program_flash(uc, address, size, value) {
        Ok(()) => true,
        Err(fault) => {
            stop_with(uc, fault);
            false
        }
    }
}

/// An access to nothing mapped: named, and the run stops.
pub(super) fn invalid_access(
    uc: &mut Unicorn<'_, State>,
    kind: MemType,
    address: u64,
    size: usize,
    value: i64,
) -> bool {
    if kind == MemType::WRITE_PROT && FLASH.holds(address as u32, size as u32) {
        return flash_store(uc, address as u32, size, value as u32);
    }
    let written =
        matches!(kind, MemType::WRITE_UNMAPPED | MemType::WRITE_PROT).then_some(value as u32);
    let access: Access = uc.get_data().board.access(address as u32, written, size);
    stop_with(uc, Refusal::Unmodelled(access));
    false
}

/// The rights of the page at `address` (identity-mapped): every right, so that the regions'
/// own rights and the unmapped-access hooks decide as with the CPU's TLB, but SRAM's data
/// accesses, which get read and write only. A fetch from SRAM gets every right here and is
/// refused by its region (FETCH_PROT).
pub(super) fn tlb_fill(
    _: &mut Unicorn<'_, State>,
    address: u64,
    kind: MemType,
) -> Option<TlbEntry> {
    let sram = SRAM.holds(address as u32, 1) && address <= u64::from(u32::MAX);
    Some(TlbEntry {
        paddr: address,
        perms: if sram && kind != MemType::FETCH {
            Prot::READ | Prot::WRITE
        } else {
            Prot::ALL
        },
    })
}

/// Counts a block's instructions into the board's time, or stops before it once the slice's
/// time or instructions are spent.
pub(super) fn block(uc: &mut Unicorn<'_, State>, address: u64, size: u32) {
    let at = address as u32;
    if uc.get_data().lengths_stale {
        let state = uc.get_data_mut();
        state.lengths.fill(0);
        state.lengths_stale = false;
    }
    let slot = at.wrapping_sub(FLASH.start) as usize / 2;
    let known = uc.get_data().lengths.get(slot).copied().unwrap_or(0);
    let n = if known != 0 {
        known
    } else {
        let mut code = vec![0u8; size as usize];
        let n = match uc.mem_read(address, &mut code) {
            Ok(()) => count_instructions(&code),
            Err(_) => size / 2,
        }
        .max(1);
        let state = uc.get_data_mut();
        if let Some(entry) = state.lengths.get_mut(slot) {
            *entry = n;
        }
        state.executed.insert(at);
        n
    };
    if uc.get_data().deepest.is_some()
        && let Ok(sp) = uc.reg_read(RegisterARM::SP)
        && let Some(d) = &mut uc.get_data_mut().deepest
    {
        d.observe(sp as u32, at);
    }
    // A word a debugger waits on moved: stop here, as for its bytes.
    let look = {
        let state = uc.get_data();
        !state.until.is_empty() && state.instructions >= state.look_at
    };
    if look && moved(uc) {
        let _ = uc.emu_stop();
        return;
    }
    let state = uc.get_data_mut();
    if let Some(fd) = &state.wire
        && state.instructions >= state.wire_look_at
        && state.board.cycles >= state.wire_quiet_until
    {
        let heard = readable(fd);
        state.wire_look_at = state.instructions + WIRE_EVERY;
        if heard {
            state.heard = true;
            let _ = uc.emu_stop();
            return;
        }
    }
    // unicorn calls this hook before the block's first instruction and stops there, the block
    // not run: it is counted when the next slice runs it (or the watchdog, due, resets).
    // (Counting it here as well made a block longer than a slice stop every slice, never run,
    // while time went on.)
    if state.board.cycles >= state.slice_end
        || state.instructions >= state.slice_instructions
        || state.board.cycles >= state.board.due
        || attended(state)
    {
        let _ = uc.emu_stop();
        return;
    }
    if state.instructions + u64::from(n) > state.instant.at {
        state.instant.due = true;
        let _ = uc.emu_stop();
        return;
    }
    // A branch to itself (a hung firmware: the `hang` fault, a `loop {}`) changes nothing but
    // time, so its iterations up to the next thing that can happen (the slice's end, the
    // watchdog, a glitch's instant) are counted at once: a hung board reaches its watchdog
    // in microseconds, not in seconds of one-instruction blocks.
    let spins = if n == 1 && branches_to_itself(uc, at, size) {
        let state = uc.get_data();
        let cycles = state.slice_end.min(state.board.due) - state.board.cycles;
        let instructions = state.slice_instructions.min(state.instant.at) - state.instructions;
        cycles.min(instructions).max(1)
    } else {
        u64::from(n)
    };
    let state = uc.get_data_mut();
    state.block = at;
    if state.entry == Some(at) {
        state.entered += 1;
    }
    if let Some(profile) = &mut state.profile {
        *profile.entry(at).or_default() += spins;
    }
    state.instructions += spins;
    state.board.cycles += spins;
}

/// A debugger's breakpoint: the core halts before the instruction at `address`, unless it is
/// the one the core halted at last and goes on from now.
pub(super) fn breakpoint(uc: &mut Unicorn<'_, State>, address: u64, _size: u32) {
    let at = address as u32;
    let state = uc.get_data_mut();
    if state.step_off.take() == Some(at) {
        return;
    }
    state.step_off = Some(at);
    state.breakpoint_hit = true;
    let _ = uc.emu_stop();
}

/// Instructions between two looks at the words a debugger waits on: a look is two of
/// unicorn's memory reads, too dear for every block (most of the tree's blocks run while the
/// bench waits), and a thousand instructions are a few microseconds of the host's.
pub(super) const UNTIL_EVERY: u64 = 1_000;

/// Whether a word of [`State::until`] holds another value (then marked `moved`).
pub(super) fn moved(uc: &mut Unicorn<'_, State>) -> bool {
    let state = uc.get_data_mut();
    state.look_at = state.instructions + UNTIL_EVERY;
    for i in 0..uc.get_data().until.len() {
        let (addr, value) = uc.get_data().until[i];
        let mut word = [0u8; 4];
        if uc.mem_read(u64::from(addr), &mut word).is_ok() && u32::from_le_bytes(word) != value {
            uc.get_data_mut().moved = true;
            return true;
        }
    }
    false
}

/// Whether a debugger's bytes have come during its slice.
pub(super) fn attended(state: &State) -> bool {
    state.heard
        || state
            .attention
            .as_ref()
            .is_some_and(|a| a.load(std::sync::atomic::Ordering::Relaxed))
}

/// Instructions between two looks at a debugger's socket ([`State::wire`]): a look is one
/// `poll`, well under a microsecond; two hundred instructions are a few microseconds of the
/// host's. A reader thread blocked on the socket instead had to be woken for every request,
/// taking a core from the bench or the core (hil-tests/README.md).
pub(super) const WIRE_EVERY: u64 = 200;

/// Whether `fd` has bytes to read (or has ended, or failed), without waiting.
fn readable(fd: &std::os::fd::OwnedFd) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec};
    let mut fds = [PollFd::new(fd, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // A poll that fails says so at the session's next read.
    rustix::event::poll(&mut fds, Some(&now)).is_ok_and(|n| n > 0)
}

/// Whether the block at `at` of `size` bytes is one branch to itself (`b .` or `b.w .`).
pub(super) fn branches_to_itself(uc: &Unicorn<'_, State>, at: u32, size: u32) -> bool {
    let mut code = [0u8; 4];
    let code = &mut code[..size.min(4) as usize];
    if uc.mem_read(u64::from(at), code).is_err() {
        return false;
    }
    match size {
        2 => code == [0xFE, 0xE7],
        4 => branch_w(at, at).is_some_and(|b| code == b),
        _ => false,
    }
}
