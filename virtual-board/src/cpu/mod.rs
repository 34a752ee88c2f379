//! The core: unicorn's Cortex-M4 with the chip's memory map, every peripheral access through
//! the board's models (MMIO pages), unmapped addresses stopped and named, and time counted in
//! instructions (a block's instructions, found once per block), so that a run is the same
//! every time. Here the engine (set up, reset, run, step, memory); its unicorn hooks in
//! [`hooks`], a campaign's stop at an instruction count in [`instant`], a debugger's
//! breakpoints, watchpoints and waits in [`debugger`], registers by gdb's numbers in
//! [`registers`].

use std::collections::{HashMap, HashSet};

use unicorn_engine::unicorn_const::{
    Arch, HookType, MemType, Mode, Prot, TlbEntry, TlbType, uc_error,
};
use unicorn_engine::{ArmCpuModel, Context, RegisterARM, UcHookId, Unicorn};

use crate::board::{Board, ResetCause};
use crate::chip::{FLASH, SRAM};
use crate::elf::Elf;
use crate::sram::Sram;
use crate::stop::{Access, Place, Refusal, Stop};

mod debugger;
pub mod halt;
mod hooks;
mod instant;
mod registers;

use hooks::*;
pub use instant::Instant;
use registers::reg;

/// The top byte of a `bkpt` instruction (ARMv7-M ARM, A7.7.17): a debugger's software
/// breakpoint, a debug halt.
const BKPT: u16 = 0xBE;

/// The top byte of a `udf` instruction: panic-probe's end (`udf #0`), and the Thumb
/// breakpoint gdb writes into memory (`udf #1`).
const UDF: u16 = 0xDE;
/// qemu's exception number for `BKPT` (target/arm/cpu.h, EXCP_BKPT).
const EXCP_BKPT: u32 = 7;

/// What the core was doing when it fetched its first instruction: thumb state (xPSR.T).
const XPSR_THUMB: u64 = 1 << 24;

/// How a slice of running ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    /// The slice's cycles ran out: run again.
    Slice,
    /// The chip reset (the firmware asked, or the watchdog expired), and the core with it.
    Reset(ResetCause),
    /// The core executed WFI (nothing wakes it: no interrupt is modelled).
    Sleeps,
    /// The core reached a `bkpt` (a debugger's software breakpoint): halted at it.
    Breakpoint,
    /// A watched byte at this address was accessed (a debugger's watchpoint).
    Watched(u32),
}

/// A stop found inside a hook, reported after `emu_start` returns.
#[derive(Debug)]
enum Pending {
    /// A fault, where (exact: the faulting instruction; else the start of its block).
    Refusal(Refusal, u32, bool),
    /// An exception the core raised (qemu's number) at this PC, caught by
    /// [`Core::catch_breakpoints`]: `BKPT` is 7.
    Exception(u32, u32),
}

/// What the hooks share.
pub struct State {
    /// The board behind the pins.
    pub board: Board,
    pending: Option<Pending>,
    /// Instructions per block start in flash, counted once (0: not yet), by halfword.
    lengths: Vec<u32>,
    /// Flash was programmed or erased: `lengths` is cleared at the next block (once, not at
    /// every programmed word).
    lengths_stale: bool,
    /// SRAM is executable ([`Core::allow_sram_code`]).
    sram_code: bool,
    /// The start of the block running (an MMIO fault's place).
    block: u32,
    /// Every block start that ran (the coverage of the ELF's functions).
    pub executed: HashSet<u32>,
    /// Instructions executed since power-on.
    pub instructions: u64,
    /// The deepest stack, when measured (`VIRTUAL_BOARD_STACK`).
    pub deepest: Option<crate::stack::Deepest>,
    /// Instructions by block start, when profiling (`VIRTUAL_BOARD_PROFILE`).
    pub profile: Option<HashMap<u32, u64>>,
    /// Host time in the engine, when measured (`VIRTUAL_BOARD_SPEED`).
    pub speed: Option<crate::speed::Speed>,
    /// Raised by a debugger's bytes ([`crate::attention`]): the slice ends at the next block.
    /// Set only for a debugger's slice, so a game a monitor command plays runs to its end.
    pub attention: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// A debugger's socket the block hook looks at itself, every [`hooks::WIRE_EVERY`]
    /// instructions (the debug port's): its bytes end the slice as `attention`'s do, with no
    /// reader thread to wake. Set only for a debugger's slice.
    wire: Option<std::os::fd::OwnedFd>,
    /// Bytes came on `wire` in this slice.
    heard: bool,
    /// The instruction count at which the block hook next looks at `wire`.
    wire_look_at: u64,
    /// The board's cycle count before which the hook does not look at `wire` at all: the
    /// time on the wire of the access just answered, which the core runs through.
    wire_quiet_until: u64,
    /// SRAM words a debugger waits on (`monitor wait`): the slice ends at the block after
    /// one holds another value ([`Core::until`]).
    until: Vec<(u32, u32)>,
    /// A word of `until` moved in this slice.
    moved: bool,
    /// The instruction count at which the block hook next looks at `until`'s words.
    look_at: u64,
    slice_end: u64,
    /// The instruction count at which the slice ends too.
    slice_instructions: u64,
    /// A watched address accessed in this slice.
    watched: Option<u32>,
    /// The core halted at a debugger's breakpoint in this slice.
    breakpoint_hit: bool,
    /// The breakpoint the core halted at (or is stepped from): its instruction runs when the
    /// core goes on from there, once, as a probe steps off the comparator it halted at.
    step_off: Option<u32>,
    /// A stop at an instruction count and what runs there, which a campaign arms (the
    /// glitch trials, `monitor trial`): the core knows no campaign.
    pub instant: Instant,
    /// A function whose entries the block hook counts into `entered` (the visitor's: the
    /// firmware's button handler, to tell a press taken from one missed).
    pub entry: Option<u32>,
    /// Blocks run at `entry` since power-on.
    pub entered: u64,
}

/// The emulated core and its memory.
pub struct Core<'a> {
    uc: Unicorn<'a, State>,
    /// Code written over the ELF's at every reset ([`Core::patch_every_reset`]): address and
    /// bytes.
    patch: Option<(u32, [u8; 4])>,
    /// The SRAM's memory: declared after `uc`, so it outlives the engine that maps it.
    sram: Sram,
    /// The memory hooks of a debugger's watchpoints, by address and length.
    watches: Vec<((u32, u32), UcHookId)>,
    /// Where a debugger wrote a breakpoint instruction into flash (`bkpt`, or the `udf` gdb
    /// writes for Thumb; a client that does not use `Z0`), and the code it wrote over: the
    /// core halts there instead of faulting, and the code is put back when the session ends.
    breaks: HashMap<u32, Vec<u8>>,
    /// A debugger's breakpoints (`Z0`), kept outside memory as an FPB's comparators are: a
    /// code hook on each address, which halts the core before the instruction. Flash is never
    /// written, so a debugger that dies leaves no `bkpt` behind.
    breakpoints: Vec<(u32, UcHookId)>,
    /// Every core register as the engine made them, before any instruction ran, which a reset
    /// restores (PM0214 2.1.3: CONTROL and the FPU's state reset too). Setting SP, PC and
    /// xPSR alone left CONTROL.FPCA from the run before, and with it set unicorn skipped
    /// instructions after a return (the on-target tests' heapless panic, README.md).
    power_on: Context,
    /// Halting debug (DHCSR, DCRSR, DCRDR, DEMCR, DFSR): in the debug domain, kept across
    /// system resets.
    halting: halt::Halting,
    /// The FPB's and DWT's comparators the core halts at now, and the units' generations
    /// when they were read ([`Core::sync_comparators`]).
    comparators: Comparators,
}

/// See [`Core::comparators`](Core).
type Comparators = ((u64, u64), Vec<u32>, Vec<crate::chip::debug::Watch>);

impl std::fmt::Debug for Core<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core").finish_non_exhaustive()
    }
}

/// Why unicorn could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("unicorn: {0:?}")]
pub struct EngineError(pub uc_error);

impl From<uc_error> for EngineError {
    fn from(e: uc_error) -> Self {
        EngineError(e)
    }
}

/// Instructions in the Thumb-2 code `bytes`: a halfword whose top five bits are 0b11101,
/// 0b11110 or 0b11111 starts a 32-bit instruction (ARMv7-M ARM, A5.1).
fn count_instructions(bytes: &[u8]) -> u32 {
    let mut i = 0;
    let mut n = 0;
    while i + 1 < bytes.len() {
        let half = u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        i += if half >> 11 >= 0b11101 { 4 } else { 2 };
        n += 1;
    }
    n
}

/// `b.w to` at `from` (Thumb-2 encoding T4, ARMv7-M ARM A7.7.12): the offset from `from + 4`,
/// ±16 MiB, in S:I1:I2:imm10:imm11 with J1 = !(I1 ^ S), J2 = !(I2 ^ S).
pub fn branch_w(from: u32, to: u32) -> Option<[u8; 4]> {
    let offset = i64::from(to) - (i64::from(from) + 4);
    if !(-(1 << 24)..(1 << 24)).contains(&offset) || offset & 1 != 0 {
        return None;
    }
    let imm = (offset as u32) & 0x01FF_FFFF;
    let s = (imm >> 24) & 1;
    let (i1, i2) = ((imm >> 23) & 1, (imm >> 22) & 1);
    let (j1, j2) = (!(i1 ^ s) & 1, !(i2 ^ s) & 1);
    let hw1 = 0xF000 | (s << 10) | ((imm >> 12) & 0x3FF);
    let hw2 = 0x9000 | (j1 << 13) | (j2 << 11) | ((imm >> 1) & 0x7FF);
    let [a, b] = (hw1 as u16).to_le_bytes();
    let [c, d] = (hw2 as u16).to_le_bytes();
    Some([a, b, c, d])
}

impl<'a> Core<'a> {
    /// A core with `board` behind its bus, `elf` in flash and `sram` as its SRAM, at its
    /// reset vector.
    pub fn new(board: Board, elf: &Elf, sram: Sram) -> Result<Core<'a>, EngineError> {
        if sram.len() != SRAM.size as usize {
            return Err(EngineError(uc_error::ARG));
        }
        let state = State {
            board,
            pending: None,
            lengths: vec![0; (FLASH.size / 2) as usize],
            lengths_stale: false,
            sram_code: false,
            block: 0,
            executed: HashSet::new(),
            instructions: 0,
            profile: std::env::var_os("VIRTUAL_BOARD_PROFILE").map(|_| HashMap::new()),
            speed: crate::speed::asked(),
            attention: None,
            wire: None,
            heard: false,
            wire_look_at: 0,
            wire_quiet_until: 0,
            until: Vec::new(),
            moved: false,
            look_at: 0,
            deepest: std::env::var_os("VIRTUAL_BOARD_STACK").map(|_| Default::default()),
            slice_end: 0,
            slice_instructions: u64::MAX,
            watched: None,
            breakpoint_hit: false,
            step_off: None,
            instant: Instant::default(),
            entry: None,
            entered: 0,
        };
        let mut uc = Unicorn::new_with_data(Arch::ARM, Mode::THUMB, state)?;
        // Before any mapping: after, the model cannot change (TOOLCHAIN.md: the default
        // M-class model is a Cortex-M33).
        uc.ctl_set_cpu_model(ArmCpuModel::CORTEX_M4 as i32)?;
        uc.mem_map(
            u64::from(FLASH.start),
            u64::from(FLASH.size),
            Prot::READ | Prot::EXEC,
        )?;
        // SAFETY: the pointer is valid for SRAM.size bytes (checked above) for as long as the
        // engine: the core owns `sram` and drops it after `uc`. Only the engine and, through
        // the shared file, a debugger's volatile accesses touch it; no reference is made.
        #[allow(unsafe_code)]
        unsafe {
            uc.mem_map_ptr(
                u64::from(SRAM.start),
                u64::from(SRAM.size),
                // Not executable: unicorn keeps every store to a page it may fetch from on its
                // slow path (qemu's cputlb.c, `notdirty_write`), and the firmware runs from
                // flash. Code run from SRAM stops the run (FETCH_PROT) with its PC.
                Prot::READ | Prot::WRITE,
                sram.as_mut_ptr().cast(),
            )?;
        }
        // The models' 4 KiB pages (MMIO, from the chip's map): the models answer, and refuse
        // what they do not know, at the start of the instruction block (MMIO callbacks have no
        // exact PC, and the hooks that would give one put every load and store on unicorn's
        // slow path, measured at less than half the speed). Everything else is unmapped: an
        // access there stops the run with its exact PC (an unmapped-access hook).
        for (start, size) in crate::chip::map::pages() {
            // MMIO: the models answer, and refuse what they do not know.
            uc.mmio_map(
                u64::from(start),
                u64::from(size),
                // The callbacks get offsets into the region.
                Some(
                    move |uc: &mut Unicorn<'_, State>, offset: u64, size: usize| {
                        mmio_read(uc, u64::from(start) + offset, size)
                    },
                ),
                Some(
                    move |uc: &mut Unicorn<'_, State>, offset: u64, size: usize, value: u64| {
                        mmio_write(uc, u64::from(start) + offset, size, value)
                    },
                ),
            )?;
        }
        // Everywhere but the SRAM, which is all mapped: a memory hook that covers a page keeps
        // every store to it on unicorn's slow path too (`uc_mem_hook_installed`).
        let sram_end = u64::from(SRAM.start) + u64::from(SRAM.size);
        uc.add_mem_hook(
            HookType::MEM_INVALID,
            0,
            u64::from(SRAM.start) - 1,
            invalid_access,
        )?;
        uc.add_mem_hook(HookType::MEM_INVALID, sram_end, 0xFFFF_FFFF, invalid_access)?;
        // unicorn keeps every store to a page the CPU may execute on its slow path (the TLB's
        // NOTDIRTY bit is never cleared for it: `notdirty_write`, `tlbe->addr_code`), and the
        // Cortex-M default memory map makes all SRAM executable. unicorn's own TLB, filled
        // below, gives SRAM's pages no execute right for data accesses: their stores stay on
        // the fast path after the first.
        uc.ctl_set_tlb_type(TlbType::VIRTUAL)?;
        uc.add_tlb_hook(1, 0, tlb_fill)?;
        uc.add_block_hook(1, 0, block)?;
        let power_on = uc.context_init()?;
        let mut core = Core {
            power_on,
            uc,
            patch: None,
            sram,
            watches: Vec::new(),
            breaks: HashMap::new(),
            breakpoints: Vec::new(),
            halting: halt::Halting::default(),
            comparators: Default::default(),
        };
        // Erased flash reads 0xFF (RM0390 3.6.3); the ELF's segments are written over it.
        core.uc
            .mem_write(u64::from(FLASH.start), &vec![0xFF; FLASH.size as usize])?;
        core.load(elf)?;
        core.reset()?;
        Ok(core)
    }

    /// Writes the ELF's segments into flash.
    pub fn load(&mut self, elf: &Elf) -> Result<(), EngineError> {
        for (address, bytes) in &elf.segments {
            self.uc.mem_write(u64::from(*address), bytes)?;
        }
        self.uc.get_data_mut().lengths.fill(0);
        Ok(())
    }

    /// From the next reset on (a debugger downloads the ELF, then resets), `code` is written
    /// at `at` over the ELF's at every reset; resets now. The hook of a planted fault
    /// ([`crate::plant`]): the engine knows no fault.
    pub fn patch_every_reset(&mut self, at: u32, code: [u8; 4]) -> Result<(), EngineError> {
        self.patch = Some((at, code));
        self.reset()
    }

    /// A system reset: the board's peripherals at reset, SP and PC from the vector table at
    /// the start of flash (BOOT0 low), thumb state.
    pub fn reset(&mut self) -> Result<(), EngineError> {
        self.allow_sram_code(false)?;
        if let Some((at, code)) = self.patch {
            self.uc.mem_write(u64::from(at), &code)?;
            self.uc.get_data_mut().lengths.fill(0);
            self.uc
                .ctl_remove_cache(u64::from(at), u64::from(at) + code.len() as u64)?;
        }
        self.uc.get_data_mut().board.reset();
        self.uc.context_restore(&self.power_on)?;
        let mut words = [0u8; 8];
        self.uc.mem_read(u64::from(FLASH.start), &mut words)?;
        let sp = u32::from_le_bytes([words[0], words[1], words[2], words[3]]);
        let pc = u32::from_le_bytes([words[4], words[5], words[6], words[7]]);
        for r in 0..13 {
            self.uc.reg_write(reg(r), 0)?;
        }
        self.uc.reg_write(RegisterARM::LR, 0xFFFF_FFFF)?;
        self.uc.reg_write(RegisterARM::SP, u64::from(sp))?;
        self.uc.reg_write(RegisterARM::MSP, u64::from(sp))?;
        self.uc.reg_write(RegisterARM::XPSR, XPSR_THUMB)?;
        self.uc.reg_write(RegisterARM::PC, u64::from(pc & !1))?;
        self.halting.after_reset();
        Ok(())
    }

    /// The shared SRAM's file, if a debugger can map it.
    pub fn sram_file(&self) -> Option<&std::path::Path> {
        self.sram.file()
    }

    /// The state the hooks share.
    pub fn state(&self) -> &State {
        self.uc.get_data()
    }

    /// The state, to change it (press the button, start a game's noise).
    pub fn state_mut(&mut self) -> &mut State {
        self.uc.get_data_mut()
    }

    /// The program counter.
    pub fn pc(&self) -> u32 {
        self.uc.pc_read().unwrap_or(0) as u32
    }

    /// The stack pointer.
    pub fn sp(&self) -> u32 {
        self.uc.reg_read(RegisterARM::SP).unwrap_or(0) as u32
    }

    /// The stop an access the chip refused at `place` comes to, whether the core ran or
    /// stepped: nothing modelled there (named by what the stack says of it), or a rule broken.
    fn refused(&self, refusal: Refusal, place: Place) -> Stop {
        match refusal {
            Refusal::Unmodelled(access) => crate::stack::stop_for(access, place, self.sp()),
            Refusal::Config(fault) => Stop::Config { fault, place },
        }
    }

    /// Runs until `cycles` more core cycles have passed (or something stops it).
    pub fn run(&mut self, cycles: u64, elf: &Elf) -> Result<Ran, Stop> {
        self.run_slice(cycles, u64::MAX, elf)
    }

    /// Runs until `cycles` more core cycles have passed or `instructions` more instructions
    /// have run, whichever comes first (a debugger's slice: a firmware waiting on SysTick
    /// passes much time in few instructions).
    pub fn run_slice(&mut self, cycles: u64, instructions: u64, elf: &Elf) -> Result<Ran, Stop> {
        let state = self.uc.get_data_mut();
        state.heard = false;
        state.slice_end = state.board.cycles.saturating_add(cycles);
        state.slice_instructions = state.instructions.saturating_add(instructions);
        let begin = u64::from(self.pc()) | 1;
        self.forget_step_off_unless_at(self.pc());
        let timed = self
            .uc
            .get_data()
            .speed
            .is_some()
            .then(std::time::Instant::now);
        let result = self.uc.emu_start(begin, 0, 0, 0);
        if let (Some(t), Some(speed)) = (timed, &mut self.uc.get_data_mut().speed) {
            speed.executing += t.elapsed();
        }
        let place = |pc: u32| Place {
            pc,
            symbol: elf.function_at(pc).map(|f| f.name.clone()),
            exact: true,
        };
        match self.uc.get_data_mut().pending.take() {
            Some(Pending::Refusal(fault, pc, exact)) => {
                let place = Place { exact, ..place(pc) };
                return Err(self.refused(fault, place));
            }
            Some(Pending::Exception(number, pc)) => {
                return Err(match self.halfword(pc) {
                    bkpt if number == EXCP_BKPT && bkpt >> 8 == BKPT => Stop::Breakpoint {
                        imm: bkpt as u8,
                        place: place(pc),
                    },
                    _ => Stop::Cpu {
                        what: format!("exception {number}"),
                        place: place(pc),
                    },
                });
            }
            None => {}
        }
        if std::mem::take(&mut self.uc.get_data_mut().instant.due) {
            if let Some(hook) = self.uc.get_data().instant.hook {
                hook(self, elf)?;
            }
            return Ok(Ran::Slice);
        }
        let board = &mut self.uc.get_data_mut().board;
        if board.cycles >= board.due {
            board.expire();
        }
        if self.uc.get_data().board.reset_requested {
            let cause = self.uc.get_data().board.reset_cause();
            self.reset().map_err(|e| Stop::Cpu {
                what: e.to_string(),
                place: place(self.pc()),
            })?;
            self.uc
                .get_data_mut()
                .instant
                .first_reset
                .get_or_insert(cause);
            return Ok(Ran::Reset(cause));
        }
        let pc = self.pc();
        if let Some(addr) = self.uc.get_data_mut().watched.take() {
            return Ok(Ran::Watched(addr));
        }
        if std::mem::take(&mut self.uc.get_data_mut().breakpoint_hit) {
            return Ok(Ran::Breakpoint);
        }
        match result {
            Ok(())
                if self.uc.get_data().board.cycles >= self.uc.get_data().slice_end
                    || self.uc.get_data().instructions >= self.uc.get_data().slice_instructions
                    || attended(self.uc.get_data())
                    || self.uc.get_data().moved =>
            {
                Ok(Ran::Slice)
            }
            Ok(()) => Ok(Ran::Sleeps),
            Err(uc_error::INSN_INVALID | uc_error::EXCEPTION) if self.at_breakpoint(pc) => {
                Ok(Ran::Breakpoint)
            }
            Err(uc_error::INSN_INVALID) if self.halfword(pc) >> 8 == UDF => Err(Stop::Panic {
                place: place(pc),
                message: Vec::new(),
            }),
            Err(e) => Err(Stop::Cpu {
                what: format!("{e:?}"),
                place: place(pc),
            }),
        }
    }

    /// Executes exactly `count` instructions (a glitch's instant inside a block), with
    /// unicorn's instruction count, which only blocks translated after it see.
    pub fn execute(&mut self, count: u64) -> Result<(), EngineError> {
        if count == 0 {
            return Ok(());
        }
        self.uc.ctl_flush_tb()?;
        let begin = u64::from(self.pc()) | 1;
        self.uc.emu_start(begin, 0, 0, count as usize)?;
        Ok(())
    }

    /// Executes one instruction (`Ran::Breakpoint` if it is a `bkpt`, which halts there).
    pub fn step(&mut self, elf: &Elf) -> Result<Ran, Stop> {
        self.uc.get_data_mut().slice_end = u64::MAX;
        self.uc.get_data_mut().slice_instructions = u64::MAX;
        // unicorn counts instructions with a code hook that only blocks translated after it
        // was added call: a loop translated while running would run on for ever.
        self.uc.ctl_flush_tb().map_err(|e| Stop::Cpu {
            what: format!("{e:?}"),
            place: Place {
                pc: self.pc(),
                symbol: None,
                exact: true,
            },
        })?;
        let begin = u64::from(self.pc()) | 1;
        // A step runs the instruction at PC, a breakpoint there or not.
        self.uc.get_data_mut().step_off = Some(self.pc());
        let result = self.uc.emu_start(begin, 0, 0, 1);
        let pc = self.pc();
        let place = Place {
            pc,
            symbol: elf.function_at(pc).map(|f| f.name.clone()),
            exact: true,
        };
        if let Some(Pending::Refusal(fault, _, _)) = self.uc.get_data_mut().pending.take() {
            return Err(self.refused(fault, place));
        }
        self.uc.get_data_mut().watched = None;
        if std::mem::take(&mut self.uc.get_data_mut().breakpoint_hit) {
            return Ok(Ran::Breakpoint);
        }
        match result {
            Ok(()) => Ok(Ran::Slice),
            Err(uc_error::INSN_INVALID | uc_error::EXCEPTION) if self.at_breakpoint(pc) => {
                Ok(Ran::Breakpoint)
            }
            Err(e) => Err(Stop::Cpu {
                what: format!("{e:?}"),
                place,
            }),
        }
    }

    pub(super) fn halfword(&self, at: u32) -> u16 {
        let mut b = [0u8; 2];
        match self.uc.mem_read(u64::from(at), &mut b) {
            Ok(()) => u16::from_le_bytes(b),
            Err(_) => 0,
        }
    }

    /// A debugger's read: memory directly, the halting-debug registers ([`halt`]) and the
    /// peripherals through their models.
    pub fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), Refusal> {
        if FLASH.holds(address, buf.len() as u32) || SRAM.holds(address, buf.len() as u32) {
            return self
                .uc
                .mem_read(u64::from(address), buf)
                .map_err(|_| Refusal::Unmodelled(self.state().board.access(address, None, 1)));
        }
        // A word read once for all its bytes (a read may have effects: S_RESET_ST clears).
        let mut word = None;
        for (i, byte) in buf.iter_mut().enumerate() {
            let at = address + i as u32;
            let value = match word {
                Some((w, value)) if w == at & !3 => value,
                _ => {
                    let value = match self.debug_register(at & !3, None) {
                        Some(value) => value,
                        None => self.uc.get_data_mut().board.read(at & !3, 4)?,
                    };
                    word = Some((at & !3, value));
                    value
                }
            };
            *byte = (value >> (8 * (at & 3))) as u8;
        }
        Ok(())
    }

    /// A debugger's write: memory directly (flash too, as a flash loader writes it),
    /// peripherals through their models (whole words).
    pub fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), Refusal> {
        if FLASH.holds(address, bytes.len() as u32) || SRAM.holds(address, bytes.len() as u32) {
            if FLASH.holds(address, bytes.len() as u32) {
                self.note_breakpoints(address, bytes);
                // New code: the block lengths counted so far may be stale.
                self.uc.get_data_mut().lengths.fill(0);
                let _ = self
                    .uc
                    .ctl_remove_cache(u64::from(address), u64::from(address) + bytes.len() as u64);
            } else if self.sram_code() {
                // Code may run from SRAM: what was translated from these bytes goes.
                let _ = self
                    .uc
                    .ctl_remove_cache(u64::from(address), u64::from(address) + bytes.len() as u64);
            }
            return self
                .uc
                .mem_write(u64::from(address), bytes)
                .map_err(|_| Refusal::Unmodelled(self.state().board.access(address, None, 1)));
        }
        if address & 3 != 0 || !bytes.len().is_multiple_of(4) {
            return Err(Refusal::Unmodelled(self.state().board.access(
                address,
                None,
                bytes.len(),
            )));
        }
        for (i, word) in bytes.chunks(4).enumerate() {
            let value = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            let at = address + 4 * i as u32;
            if self.debug_register(at, Some(value)).is_none() {
                self.uc.get_data_mut().board.write(at, 4, value)?;
            }
        }
        erase_started(&mut self.uc)?;
        if self.uc.get_data().board.reset_requested {
            let _ = self.reset();
        }
        Ok(())
    }

    /// Makes SRAM executable (`true`) or not, for a debugger's code run from SRAM (a flash
    /// algorithm: probe-rs copies it to 0x2000_0000 and runs it with LR at a `bkpt`); a system
    /// reset switches it off. Off, SRAM is read/write only, so that the firmware's stores to it
    /// stay on unicorn's fast path (`Core::new`); on, unicorn watches the stores to every
    /// SRAM page code was translated from (self-modifying code), which is slower.
    pub fn allow_sram_code(&mut self, on: bool) -> Result<(), EngineError> {
        if self.uc.get_data().sram_code == on {
            return Ok(());
        }
        let rights = if on {
            Prot::READ | Prot::WRITE | Prot::EXEC
        } else {
            Prot::READ | Prot::WRITE
        };
        self.uc
            .mem_protect(u64::from(SRAM.start), u64::from(SRAM.size), rights)?;
        self.uc.get_data_mut().sram_code = on;
        self.uc.ctl_flush_tlb()?;
        if !on {
            // The code translated from SRAM goes (it may be overwritten without notice).
            self.uc.ctl_flush_tb()?;
        }
        Ok(())
    }

    /// Whether SRAM is executable ([`Core::allow_sram_code`]).
    pub fn sram_code(&self) -> bool {
        self.uc.get_data().sram_code
    }

    /// A debugger's read through the chip's bus, as an AHB-AP transaction makes it: memory,
    /// peripherals through their models. A read of flash while the read-out protection is at
    /// level 1 is refused (RM0390 3.6.3: with a debugger connected, no access to flash; a
    /// bus error).
    pub fn read_bus(&mut self, address: u32, buf: &mut [u8]) -> Result<(), Refusal> {
        self.check_rdp(address, buf.len(), None)?;
        let len = buf.len() as u32;
        if FLASH.holds(address, len) || SRAM.holds(address, len) {
            return self.read_memory(address, buf);
        }
        // Peripherals: each word once, as one transaction reads it (a read has effects: a
        // second read of FLASH_SR is a poll).
        let mut word = (address & !3, 0);
        for (i, byte) in buf.iter_mut().enumerate() {
            let at = address + i as u32;
            if i == 0 || at & 3 == 0 {
                let value = match self.debug_register(at & !3, None) {
                    Some(value) => value,
                    None => self.uc.get_data_mut().board.read(at & !3, 4)?,
                };
                word = (at & !3, value);
            }
            *byte = (word.1 >> (8 * (at - word.0))) as u8;
        }
        Ok(())
    }

    /// A debugger's write through the chip's bus, in accesses of `size` bytes (1, 2 or 4) at
    /// addresses aligned to it, as an AHB-AP transaction makes it: flash only through the
    /// flash interface, as the core's stores ([`State`]'s board programs old AND data with
    /// FLASH_CR.PG set; without it the write is refused, never made as to memory), SRAM
    /// directly, peripherals through their models. At read-out protection level 1 a write to
    /// flash is refused (RM0390 3.6.3).
    pub fn write_bus(&mut self, address: u32, bytes: &[u8], size: u8) -> Result<(), Refusal> {
        let width = usize::from(size);
        let refuse = |core: &Self| {
            Refusal::Unmodelled(core.state().board.access(address, None, bytes.len()))
        };
        if !matches!(size, 1 | 2 | 4)
            || !address.is_multiple_of(u32::from(size))
            || !bytes.len().is_multiple_of(width)
        {
            return Err(refuse(self));
        }
        let len = bytes.len() as u32;
        if SRAM.holds(address, len) {
            self.uc
                .mem_write(u64::from(address), bytes)
                .map_err(|_| refuse(self))?;
            if self.sram_code() {
                let _ = self
                    .uc
                    .ctl_remove_cache(u64::from(address), u64::from(address) + u64::from(len));
            }
            return Ok(());
        }
        let flash = FLASH.holds(address, len);
        if flash {
            self.check_rdp(address, bytes.len(), Some(bytes))?;
        }
        for (i, chunk) in bytes.chunks(width).enumerate() {
            let at = address + (i * width) as u32;
            let mut word = [0u8; 4];
            word[..width].copy_from_slice(chunk);
            let value = u32::from_le_bytes(word);
            if flash {
                program_flash(&mut self.uc, at, width, value)?;
            } else if width != 4 || self.debug_register(at, Some(value)).is_none() {
                // Not a halting-debug register ([`halt`], answered by the core): a model's.
                self.uc.get_data_mut().board.write(at, width, value)?;
                erase_started(&mut self.uc)?;
            }
        }
        if self.uc.get_data().board.reset_requested {
            let _ = self.reset();
        }
        Ok(())
    }

    /// A debugger's access to flash at read-out protection level 1: refused (RM0390 3.6.3).
    fn check_rdp(&self, address: u32, len: usize, written: Option<&[u8]>) -> Result<(), Refusal> {
        let end = u64::from(address) + len as u64;
        let touches = u64::from(address) < u64::from(FLASH.start) + u64::from(FLASH.size)
            && end > u64::from(FLASH.start);
        if !touches || self.state().board.flash().rdp_level() == 0 {
            return Ok(());
        }
        Err(Refusal::config(
            format!(
                "a debugger's {} of {len} bytes of flash at {address:#010x} at read-out \
                 protection level 1: no access to flash while a debugger is connected (a bus \
                 error)",
                if written.is_some() { "write" } else { "read" }
            ),
            "RM0390 3.6.3, read protection level 1",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ELF of `code` (Thumb halfwords) at the reset vector, 0x0800_0008, the stack at the
    /// top of SRAM; and a core at its reset.
    pub(super) fn program(code: &[u16]) -> (Elf, Core<'static>) {
        let mut flash = Vec::new();
        flash.extend((SRAM.start + SRAM.size).to_le_bytes());
        flash.extend((FLASH.start + 8 + 1).to_le_bytes());
        for half in code {
            flash.extend(half.to_le_bytes());
        }
        let elf = Elf {
            segments: vec![(FLASH.start, flash)],
            functions: Default::default(),
            aliases: Default::default(),
            rtt: None,
            bytes: Vec::new(),
        };
        let board = Board::new(&boards::NUCLEO_F446RE, None).unwrap();
        let core = Core::new(board, &elf, Sram::private(SRAM.size).unwrap()).unwrap();
        (elf, core)
    }

    #[test]
    fn a_reset_clears_control_as_the_core_resets_it() {
        // movs r0, #4; msr CONTROL, r0 (FPCA: an FP context is active); b . (GNU as)
        let (elf, mut core) = program(&[0x2004, 0xF380, 0x8814, 0xE7FE]);
        assert!(matches!(core.run(1_000, &elf), Ok(Ran::Slice)));
        assert_eq!(
            core.uc.reg_read(RegisterARM::CONTROL).unwrap(),
            4,
            "FPCA set"
        );
        core.reset().unwrap();
        // PM0214 2.1.3, "CONTROL register": reset value 0x0000_0000.
        assert_eq!(core.uc.reg_read(RegisterARM::CONTROL).unwrap(), 0);
        assert_eq!(core.pc(), FLASH.start + 8);
    }

    #[test]
    fn a_block_longer_than_the_slice_runs_and_time_is_counted_once() {
        // Forty `adds r0, #1` and `b .`, one block of 41 instructions: a slice of 10 cycles
        // still runs it whole (a block is counted when it runs), and stops before the next
        // (the `b .` again).
        let mut code = vec![0x3001_u16; 40];
        code.push(0xE7FE);
        let (elf, mut core) = program(&code);
        assert!(matches!(core.run(10, &elf), Ok(Ran::Slice)));
        assert_eq!(core.r(0), 40, "the block ran");
        assert_eq!(core.state().board.cycles, 41, "counted once, when it ran");
        assert_eq!(core.pc(), FLASH.start + 8 + 80);
    }

    #[test]
    fn a_debuggers_bytes_end_the_slice_at_the_next_block_and_only_its_slice() {
        // `adds r0, #1; b .-2`: a loop of two-instruction blocks.
        let (elf, mut core) = program(&[0x3001, 0xE7FD]);
        let attention = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        core.state_mut().attention = Some(std::sync::Arc::clone(&attention));
        // Raised: the slice ends before its first block, as a slice that ran out does.
        assert!(matches!(core.run(1_000, &elf), Ok(Ran::Slice)));
        assert_eq!((core.r(0), core.state().instructions), (0, 0));
        // Lowered: the slice runs its 1,000 cycles.
        attention.store(false, std::sync::atomic::Ordering::SeqCst);
        assert!(matches!(core.run(1_000, &elf), Ok(Ran::Slice)));
        assert_eq!(core.r(0), 500);
        // Raised but not this slice's (a game a monitor command plays): it runs on.
        attention.store(true, std::sync::atomic::Ordering::SeqCst);
        core.state_mut().attention = None;
        assert!(matches!(core.run(1_000, &elf), Ok(Ran::Slice)));
        assert_eq!(core.r(0), 1_000);
    }

    #[test]
    fn a_waited_word_that_moves_ends_the_slice_within_its_look() {
        // r1 = 0x2000_0000; loop: `adds r0, #1; str r0, [r1]; b loop`.
        let (elf, mut core) = program(&[0x2120, 0x0609, 0x3001, 0x6008, 0xE7FC]);
        let word = SRAM.start;
        assert_eq!(core.until(&[(word, 0)]), Some(false), "it holds 0 yet");
        // The first store moves it: the slice of a million cycles ends at the next look.
        assert!(matches!(core.run(1_000_000, &elf), Ok(Ran::Slice)));
        assert!(core.moved());
        let ran = core.state().instructions;
        assert!((1..=UNTIL_EVERY + 5).contains(&ran), "{ran} instructions");
        assert!(core.r(0) >= 1);
        // Waited on as it is now: it moves again within a look.
        let now = core.r(0);
        assert_eq!(core.until(&[(word, now)]), Some(false));
        assert!(!core.moved());
        assert!(matches!(core.run(1_000_000, &elf), Ok(Ran::Slice)));
        assert!(core.r(0) > now);
        assert!(core.state().instructions - ran <= UNTIL_EVERY + 5);
        // Already another value: said at once.
        assert_eq!(core.until(&[(word, 7)]), Some(true));
        // Nothing waited on: the slice runs its cycles.
        assert_eq!(core.until(&[]), Some(false));
        let before = core.state().instructions;
        assert!(matches!(core.run(30_000, &elf), Ok(Ran::Slice)));
        assert!(!core.moved());
        assert!(core.state().instructions - before > 20_000);
        // A device register is never read for a wait.
        assert_eq!(core.until(&[(0x4000_0000, 0)]), None);
    }

    #[test]
    fn a_branch_to_itself_spins_to_the_slice_end_at_once() {
        // `b .` (GNU as: e7fe), and `b.w .` (f7ff bffe): a slice of a million cycles is one
        // block, counted as a million iterations, and the core is still at the branch.
        for code in [&[0xE7FE_u16][..], &[0xF7FF, 0xBFFE]] {
            let (elf, mut core) = program(code);
            assert!(matches!(core.run(1_000_000, &elf), Ok(Ran::Slice)));
            assert_eq!(core.state().board.cycles, 1_000_000, "{code:04x?}");
            assert_eq!(core.state().instructions, 1_000_000, "{code:04x?}");
            assert_eq!(core.pc(), FLASH.start + 8);
        }
        // A loop of two instructions is not one: it runs as it is.
        let (elf, mut core) = program(&[0x3001, 0xE7FD]);
        assert!(matches!(core.run(1_000, &elf), Ok(Ran::Slice)));
        assert_eq!(
            core.r(0),
            500,
            "adds r0, #1; b .-2: 500 turns in 1,000 cycles"
        );
    }

    #[test]
    fn the_firmware_reads_and_writes_mpu_ctrl_as_the_chip_has_it() {
        // ldr r1, =0xE000ED94 (MPU_CTRL, PM0214 4.2.2); movs r2, #5; str r2, [r1];
        // ldr r0, [r1]; b .; nop; .word 0xE000ED94 (GNU as).
        let (elf, mut core) = program(&[
            0x4902, 0x2205, 0x600A, 0x6808, 0xE7FE, 0xBF00, 0xED94, 0xE000,
        ]);
        assert!(matches!(core.run(1_000, &elf), Ok(Ran::Slice)));
        assert_eq!(core.r(0), 5, "PRIVDEFENA | ENABLE read back");
    }

    #[test]
    fn a_breakpoint_halts_before_its_instruction_and_flash_is_untouched() {
        // `adds r0, #1; b .-2`: the breakpoint on the `b` halts each pass once.
        let (elf, mut core) = program(&[0x3001, 0xE7FD]);
        assert!(core.add_breakpoint(FLASH.start + 10));
        for pass in 1..=3 {
            assert_eq!(core.run(1_000, &elf).unwrap(), Ran::Breakpoint);
            assert_eq!((core.pc(), core.r(0)), (FLASH.start + 10, pass));
        }
        assert_eq!(
            core.halfword(FLASH.start + 10),
            0xE7FD,
            "flash holds the code"
        );
        // A step from the breakpoint runs its instruction.
        assert_eq!(core.step(&elf).unwrap(), Ran::Slice);
        assert_eq!(core.pc(), FLASH.start + 8);
        assert!(core.remove_breakpoint(FLASH.start + 10));
        assert!(!core.remove_breakpoint(FLASH.start + 10), "gone");
        assert_eq!(core.run(1_000, &elf).unwrap(), Ran::Slice);
        assert!(core.r(0) > 400, "runs on: {}", core.r(0));
    }

    #[test]
    fn a_planted_branch_is_encoded_as_an_assembler_encodes_it() {
        // GNU as: `b.w .+4` is f000 b800, `b.w .` is f7ff bffe (halfwords, little-endian).
        assert_eq!(
            branch_w(0x0800_0100, 0x0800_0104),
            Some([0x00, 0xF0, 0x00, 0xB8])
        );
        assert_eq!(
            branch_w(0x0800_0100, 0x0800_0100),
            Some([0xFF, 0xF7, 0xFE, 0xBF])
        );
        assert_eq!(branch_w(0x0800_0000, 0x0A00_0000), None, "beyond 16 MiB");
    }

    /// A flash algorithm as probe-rs runs one (GNU as, Cortex-M4): FLASH_KEYR's keys, a sector
    /// erase of sector 1 at x32 (FLASH_CR = 0x20A, then with STRT), SR polled until BSY
    /// clears, PG at x32, 0x12345678 stored at 0x0800_4000, polled, 0xFFFF00FF stored over
    /// it, polled, `bx lr`; its literal pool after.
    const ALGORITHM: [u16; 42] = [
        0x480E, 0x490F, 0x6041, 0x490F, 0x6041, 0xF240, 0x210A, 0x6101, 0x490D, 0x6101, 0x68C1,
        0x03C9, 0xD4FC, 0xF240, 0x2101, 0x6101, 0x4A0A, 0x4B0B, 0x6013, 0x68C1, 0x03C9, 0xD4FC,
        0xF46F, 0x437F, 0x6013, 0x68C1, 0x03C9, 0xD4FC, 0x4770, 0x0000, 0x3C00, 0x4002, 0x0123,
        0x4567, 0x89AB, 0xCDEF, 0x020A, 0x0001, 0x4000, 0x0800, 0x5678, 0x1234,
    ];

    /// The algorithm in SRAM, LR at a `bkpt` after it, PC at its start.
    fn load_algorithm(core: &mut Core<'_>) {
        let bytes: Vec<u8> = ALGORITHM.iter().flat_map(|h| h.to_le_bytes()).collect();
        core.write_memory(SRAM.start, &bytes).unwrap();
        core.write_memory(SRAM.start + 0x100, &0xBE00_u16.to_le_bytes())
            .unwrap();
        core.uc
            .reg_write(RegisterARM::LR, u64::from(SRAM.start + 0x101))
            .unwrap();
        core.uc
            .reg_write(RegisterARM::PC, u64::from(SRAM.start))
            .unwrap();
    }

    #[test]
    fn a_flash_algorithm_in_sram_erases_a_sector_and_programs_it_through_the_interface() {
        // RM0390 3.5.1 (unlock), 3.5.3 (sector erase), 3.5.4 (programming: old AND data).
        let (elf, mut core) = program(&[0xE7FE]);
        core.catch_breakpoints().unwrap();
        // SRAM is not executable for the firmware.
        load_algorithm(&mut core);
        let stop = core.run(1_000, &elf).unwrap_err();
        assert!(matches!(stop, Stop::Cpu { .. }), "{stop}");
        // Made executable, the algorithm runs to its `bkpt`.
        core.allow_sram_code(true).unwrap();
        load_algorithm(&mut core);
        let stop = core.run(100_000_000, &elf).unwrap_err();
        assert!(matches!(stop, Stop::Breakpoint { imm: 0, .. }), "{stop}");
        assert_eq!(core.pc(), SRAM.start + 0x100);
        let mut sector = vec![0; 0x4000];
        core.read_memory(0x0800_4000, &mut sector).unwrap();
        assert_eq!(sector[..4], 0x1234_0078_u32.to_le_bytes());
        assert!(sector[4..].iter().all(|&b| b == 0xFF), "erased");
        let mut before = [0; 4];
        core.read_memory(0x0800_3FFC, &mut before).unwrap();
        // Past the program, sector 0 is erased flash (0xFF) as the board started it.
        assert_eq!(before, [0xFF; 4], "sector 0 untouched");
        // 250 ms at 16 MHz for the erase (DS10693), the polls fast-forwarded.
        let cycles = core.state().board.cycles;
        assert!((4_000_000..4_010_000).contains(&cycles), "{cycles}");
        // A reset makes SRAM data only again.
        core.reset().unwrap();
        assert!(!core.sram_code());
    }

    #[test]
    fn a_store_to_flash_without_pg_stops_at_its_pc_with_the_rule() {
        // ldr r1, =0x08004000; movs r0, #0; str r0, [r1]; b . (GNU as); RM0390 3.5.4.
        let (elf, mut core) = program(&[0x4901, 0x2000, 0x6008, 0xE7FE, 0x4000, 0x0800]);
        let stop = core.run(1_000, &elf).unwrap_err();
        assert_eq!(stop.exit_code(), 3);
        let Stop::Config { fault, place } = stop else {
            panic!("a configuration fault");
        };
        assert_eq!(
            fault.rule,
            "RM0390 3.5.4, standard programming; 3.8.4, PGSERR"
        );
        assert_eq!((place.pc, place.exact), (FLASH.start + 12, true));
    }

    #[test]
    fn a_debuggers_bus_writes_program_flash_only_through_the_interface() {
        let (_, mut core) = program(&[0xE7FE]);
        let at = 0x0800_4000;
        let w = |core: &mut Core<'_>, a: u32, v: u32| core.write_bus(a, &v.to_le_bytes(), 4);
        let sr = |core: &mut Core<'_>| {
            let mut b = [0; 4];
            core.read_bus(0x4002_3C0C, &mut b).unwrap();
            u32::from_le_bytes(b)
        };
        // Without PG: refused, never written as memory (RM0390 3.5.4).
        assert!(matches!(w(&mut core, at, 0), Err(Refusal::Config(_))));
        assert_eq!(sr(&mut core), 1 << 7, "PGSERR (RM0390 3.8.4)");
        w(&mut core, 0x4002_3C0C, 1 << 7).unwrap();
        // Unlock, erase sector 1 at x32, poll BSY (RM0390 3.5.1, 3.5.3).
        w(&mut core, 0x4002_3C04, 0x4567_0123).unwrap();
        w(&mut core, 0x4002_3C04, 0xCDEF_89AB).unwrap();
        w(&mut core, 0x4002_3C10, 0x0001_020A).unwrap();
        assert_eq!(sr(&mut core), 1 << 16, "BSY");
        assert_eq!(sr(&mut core), 0, "the poll waits for the end");
        // PG at x32: two words, the second clearing bits of 0xFF..FF.
        w(&mut core, 0x4002_3C10, 0x201).unwrap();
        let bytes = [0x78, 0x56, 0x34, 0x12, 0xFF, 0xFF, 0x0F, 0xFF];
        core.write_bus(at, &bytes, 4).unwrap();
        let mut back = [0; 12];
        core.read_bus(at, &mut back).unwrap();
        assert_eq!(back[..8], bytes);
        // A half-word at x32: PGPERR, nothing written (RM0390 3.8.4).
        core.write_bus(at + 8, &[0, 0], 2).unwrap();
        assert_eq!(sr(&mut core) & (1 << 6), 1 << 6);
        core.read_bus(at, &mut back).unwrap();
        assert_eq!(back[8..], [0xFF; 4]);
        // Read-out protection level 1: a debugger's reads and writes of flash are refused
        // (RM0390 3.6.3); gdb's memory read (the stub's own) still reads.
        core.state_mut().board.set_rdp_level(1).unwrap();
        let Err(Refusal::Config(fault)) = core.read_bus(at, &mut back) else {
            panic!("refused at level 1");
        };
        assert_eq!(fault.rule, "RM0390 3.6.3, read protection level 1");
        assert!(w(&mut core, at + 12, 0).is_err());
        core.read_memory(at, &mut back).unwrap();
        assert_eq!(sr(&mut core) & 0xFF, 1 << 6, "a peripheral still reads");
    }

    #[test]
    fn thumb2_lengths_are_read_from_the_first_halfword() {
        // movs r0, #1 (2 bytes); ldr.w r1, [r2] (f8d2 1000, 4 bytes); bx lr (2 bytes).
        let code = [0x01, 0x20, 0xD2, 0xF8, 0x00, 0x10, 0x70, 0x47];
        assert_eq!(count_instructions(&code), 3);
    }
}
