//! What a debugger sets on the core: breakpoints (kept outside memory, as an FPB's
//! comparators), the ones a client wrote into flash itself, watchpoints, and the SRAM words
//! `monitor wait` waits on.

use super::*;

impl Core<'_> {
    /// From now on a `BKPT` (a semihosting call is `BKPT 0xAB`) stops the run as a debugger
    /// sees it, [`Stop::Breakpoint`] at the instruction, instead of unicorn's error; the
    /// caller answers it and goes on with [`Core::resume_after_breakpoint`]. Only the test
    /// runner asks: the other commands keep a `BKPT` a CPU stop.
    pub fn catch_breakpoints(&mut self) -> Result<(), EngineError> {
        self.uc
            .add_intr_hook(|uc: &mut Unicorn<'_, State>, number: u32| {
                let pc = uc.pc_read().unwrap_or(0) as u32;
                uc.get_data_mut().pending = Some(Pending::Exception(number, pc));
                let _ = uc.emu_stop();
            })?;
        Ok(())
    }

    /// Steps over the 16-bit `BKPT` the core stopped at, as a debugger resumes after a
    /// semihosting call.
    pub fn resume_after_breakpoint(&mut self) -> Result<(), EngineError> {
        let pc = self.pc();
        self.uc.reg_write(RegisterARM::PC, u64::from(pc + 2))?;
        Ok(())
    }

    /// Ends the slices from now on at a block after an SRAM word of `words` (address, value)
    /// holds another value, within [`UNTIL_EVERY`] instructions (`monitor wait`; empty:
    /// never); whether one does already. Words
    /// outside the SRAM are refused (`None`): a device register's read has effects.
    pub fn until(&mut self, words: &[(u32, u32)]) -> Option<bool> {
        if !words.iter().all(|&(addr, _)| SRAM.holds(addr, 4)) {
            return None;
        }
        let state = self.uc.get_data_mut();
        state.until = words.to_vec();
        state.moved = false;
        Some(!words.is_empty() && moved(&mut self.uc))
    }

    /// Gives the block hook a debugger's socket to look at ([`State::wire`]; `None`: none),
    /// from `quiet` cycles on, and returns the one it had. What was heard on it is forgotten
    /// with it: a stale word would end the next slice or step before its first instruction.
    pub fn watch_wire(
        &mut self,
        wire: Option<std::os::fd::OwnedFd>,
        quiet: u64,
    ) -> Option<std::os::fd::OwnedFd> {
        let state = self.uc.get_data_mut();
        state.heard = false;
        state.wire_quiet_until = state.board.cycles.saturating_add(quiet);
        std::mem::replace(&mut state.wire, wire)
    }

    /// Whether a word of [`Core::until`]'s has moved (seen in a slice, or now).
    pub fn moved(&mut self) -> bool {
        let state = self.uc.get_data();
        state.moved || (!state.until.is_empty() && moved(&mut self.uc))
    }

    /// Notes a breakpoint instruction a debugger writes into flash (a write of just that
    /// instruction, as gdb inserts one; a download writes whole segments, the firmware's own
    /// `udf` among them), and forgets those it writes over: a `udf` there is the debugger's,
    /// not the firmware's panic.
    pub(super) fn note_breakpoints(&mut self, address: u32, bytes: &[u8]) {
        let end = address + bytes.len() as u32;
        let half = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let breakpoint = match bytes.len() {
            // `bkpt #n`, or `udf #n` (gdb's Thumb breakpoint is `udf #1`).
            2 => matches!(half(0) >> 8, BKPT | UDF),
            // `udf.w #n` (gdb's Thumb-2 breakpoint, over a 32-bit instruction).
            4 => half(0) & 0xFFF0 == 0xF7F0 && half(2) & 0xF000 == 0xA000,
            _ => false,
        };
        if breakpoint && address.is_multiple_of(2) {
            if !self.breaks.contains_key(&address) {
                let mut code = vec![0; bytes.len()];
                if self.uc.mem_read(u64::from(address), &mut code).is_ok() {
                    self.breaks.insert(address, code);
                }
            }
            return;
        }
        // Written over (the code put back, or a download): no longer the debugger's.
        self.breaks
            .retain(|&at, code| at + code.len() as u32 <= address || at >= end);
    }

    /// Puts back the code under the breakpoint instructions a debugger wrote into flash and
    /// left there (it died while the core ran): the next session finds the ELF's code.
    pub fn restore_written_breakpoints(&mut self) {
        for (at, code) in std::mem::take(&mut self.breaks) {
            let _ = self.uc.mem_write(u64::from(at), &code);
            let _ = self
                .uc
                .ctl_remove_cache(u64::from(at), u64::from(at) + code.len() as u64);
        }
        self.uc.get_data_mut().lengths.fill(0);
    }

    /// Whether the core stopped at a debugger's breakpoint: a `bkpt`, or an instruction a
    /// debugger wrote as one.
    pub(super) fn at_breakpoint(&self, pc: u32) -> bool {
        self.halfword(pc) >> 8 == BKPT || self.breaks.contains_key(&pc)
    }

    /// The breakpoint to step off is forgotten once the core is elsewhere (a debugger moved
    /// PC, or reset the core): reached again, it halts.
    pub(super) fn forget_step_off_unless_at(&mut self, pc: u32) {
        let state = self.uc.get_data_mut();
        if state.step_off != Some(pc) {
            state.step_off = None;
        }
    }

    /// Halts the core before it runs the instruction at `addr` (a debugger's breakpoint, as
    /// an FPB comparator: memory is not written): whether it could.
    pub fn add_breakpoint(&mut self, addr: u32) -> bool {
        if self.breakpoints.iter().any(|(at, _)| *at == addr) {
            return true;
        }
        let hook = self
            .uc
            .add_code_hook(u64::from(addr), u64::from(addr), breakpoint);
        match hook {
            Ok(id) => {
                // Code translated before the hook would not call it.
                let _ = self.uc.ctl_flush_tb();
                self.breakpoints.push((addr, id));
                true
            }
            Err(_) => false,
        }
    }

    /// Removes the breakpoint at `addr`: whether there was one.
    pub fn remove_breakpoint(&mut self, addr: u32) -> bool {
        let Some(i) = self.breakpoints.iter().position(|(at, _)| *at == addr) else {
            return false;
        };
        let (_, id) = self.breakpoints.remove(i);
        let _ = self.uc.remove_hook(id);
        let _ = self.uc.ctl_flush_tb();
        true
    }

    /// The addresses of the debugger's breakpoints.
    pub fn breakpoints(&self) -> Vec<u32> {
        self.breakpoints.iter().map(|(at, _)| *at).collect()
    }

    /// Watches `len` bytes at `addr` for reads and/or writes (a debugger's watchpoint):
    /// whether it could.
    pub fn watch(&mut self, addr: u32, len: u32, read: bool, write: bool) -> bool {
        let kind = match (read, write) {
            (true, true) => HookType::MEM_READ | HookType::MEM_WRITE,
            (true, false) => HookType::MEM_READ,
            _ => HookType::MEM_WRITE,
        };
        let end = u64::from(addr) + u64::from(len) - 1;
        let hook = self.uc.add_mem_hook(
            kind,
            u64::from(addr),
            end,
            |uc: &mut Unicorn<'_, State>, _: MemType, address: u64, _: usize, _: i64| {
                uc.get_data_mut().watched = Some(address as u32);
                let _ = uc.emu_stop();
                true
            },
        );
        match hook {
            Ok(id) => {
                // Code translated before the hook would not call it.
                let _ = self.uc.ctl_flush_tb();
                let _ = self.uc.ctl_flush_tlb();
                self.watches.push(((addr, len), id));
                true
            }
            Err(_) => false,
        }
    }

    /// Removes the watchpoint on `len` bytes at `addr`: whether there was one.
    pub fn unwatch(&mut self, addr: u32, len: u32) -> bool {
        let Some(i) = self.watches.iter().position(|(at, _)| *at == (addr, len)) else {
            return false;
        };
        let (_, id) = self.watches.remove(i);
        let _ = self.uc.remove_hook(id);
        let _ = self.uc.ctl_flush_tb();
        let _ = self.uc.ctl_flush_tlb();
        true
    }

    /// Makes the FPB's and DWT's enabled comparators the core's halts, when a write changed
    /// them since the last look (a generation count each): code comparators as breakpoints
    /// (beside a GDB client's `Z0`s, which the FPB does not show), DWT comparators as
    /// watchpoints. The debug port calls it after a debugger's writes.
    pub fn sync_comparators(&mut self) {
        use crate::chip::debug::{Dwt, Fpb};
        let chip = self.uc.get_data().board.chip();
        let generation = (chip.get::<Fpb>().generation, chip.get::<Dwt>().generation);
        if generation == self.comparators.0 {
            return;
        }
        self.comparators.0 = generation;
        let (breaks, watches) = (chip.get::<Fpb>().breakpoints(), chip.get::<Dwt>().watches());
        for at in std::mem::take(&mut self.comparators.1) {
            self.remove_breakpoint(at);
        }
        for (addr, len, _, _) in std::mem::take(&mut self.comparators.2) {
            self.unwatch(addr, len);
        }
        for at in breaks {
            if !self.breakpoints().contains(&at) && self.add_breakpoint(at) {
                self.comparators.1.push(at);
            }
        }
        for watch @ (addr, len, read, write) in watches {
            if self.watch(addr, len, read, write) {
                self.comparators.2.push(watch);
            }
        }
    }
}
