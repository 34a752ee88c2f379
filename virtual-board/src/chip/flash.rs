//! The flash interface (RM0390 chapter 3): ACR (latency, caches, prefetch; RCC reads LATENCY
//! when the clock switches), the keys (KEYR, OPTKEYR), SR and CR, by which a program running
//! on the core (the firmware, or a debugger's flash algorithm in SRAM) erases sectors and
//! programs words, and OPTCR as the option bytes load it (read-out and write protection).
//!
//! The flash's bytes are the core's memory ([`crate::cpu`]): this model decides what a store
//! to flash does ([`FlashInterface::program`]) and asks for erases ([`Event::Erase`]); the core
//! writes the bytes. Time is the core's cycle count: an operation keeps SR.BSY set for its
//! typical duration (DS10693, "Flash memory programming"), and a firmware polling BSY is
//! fast-forwarded to its end, as SysTick's COUNTFLAG is (the core would only spin until then).
//!
//! Section numbers are RM0390 Rev 6's: 3.3 table 4 (sectors), 3.5.1 (unlocking), 3.5.2
//! (parallelism), 3.5.3 (erase), 3.5.4 (programming and its errors), 3.6.3 (read protection),
//! 3.6.4 (write protection), 3.8.1-3.8.7 (the registers and their reset values).
//!
//! Not modelled: option byte programming (OPTSTRT is refused as unmodelled), RDP level 2, PCROP
//! (SPRMOD), the one-time-programmable area, and the bus stall of a core *read* of flash while
//! BSY is set (a store stalls: it waits for the operation before it).

use super::FLASH;
use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

/// The interface's registers (RM0390 3.8.7), by offset.
const ACR: u32 = 0x00;
const KEYR: u32 = 0x04;
const OPTKEYR: u32 = 0x08;
const SR: u32 = 0x0C;
const CR: u32 = 0x10;
const OPTCR: u32 = 0x14;

const NAMES: [&str; 6] = ["ACR", "KEYR", "OPTKEYR", "SR", "CR", "OPTCR"];

/// KEYR's unlock sequence (RM0390 3.5.1).
pub const KEY1: u32 = 0x4567_0123;
/// The second key.
pub const KEY2: u32 = 0xCDEF_89AB;
/// OPTKEYR's unlock sequence (RM0390 3.6.2).
pub const OPTKEY1: u32 = 0x0819_2A3B;
/// The second option key.
pub const OPTKEY2: u32 = 0x4C5D_6E7F;

/// SR's bits (RM0390 3.8.4).
pub const EOP: u32 = 1 << 0;
/// Operation error: with ERRIE, alongside any of the error bits below.
pub const OPERR: u32 = 1 << 1;
/// Write protection error.
pub const WRPERR: u32 = 1 << 4;
/// Programming alignment error.
pub const PGAERR: u32 = 1 << 5;
/// Programming parallelism error.
pub const PGPERR: u32 = 1 << 6;
/// Programming sequence error.
pub const PGSERR: u32 = 1 << 7;
/// Busy.
pub const BSY: u32 = 1 << 16;
/// The bits a write of 1 clears.
const CLEARABLE: u32 = EOP | OPERR | WRPERR | PGAERR | PGPERR | PGSERR;

/// CR's bits (RM0390 3.8.5).
pub const PG: u32 = 1 << 0;
/// Sector erase.
pub const SER: u32 = 1 << 1;
/// Mass erase.
pub const MER: u32 = 1 << 2;
const SNB_SHIFT: u32 = 3;
const SNB_MASK: u32 = 0xF << SNB_SHIFT;
const PSIZE_SHIFT: u32 = 8;
const PSIZE_MASK: u32 = 0b11 << PSIZE_SHIFT;
/// Start an erase.
pub const STRT: u32 = 1 << 16;
/// End-of-operation interrupt enable (EOP is set only with it).
pub const EOPIE: u32 = 1 << 24;
/// Error interrupt enable (OPERR is set only with it).
pub const ERRIE: u32 = 1 << 25;
/// CR locked.
pub const LOCK: u32 = 1 << 31;
/// CR's bits that hold a value (STRT starts and reads 0 here).
const CR_BITS: u32 = PG | SER | MER | SNB_MASK | PSIZE_MASK | EOPIE | ERRIE | LOCK;

/// OPTCR's bits (RM0390 3.8.6).
const OPTLOCK: u32 = 1 << 0;
const OPTSTRT: u32 = 1 << 1;
const RDP_SHIFT: u32 = 8;
const NWRP_SHIFT: u32 = 16;
/// OPTCR at reset with the option bytes as ST ships them (RM0390 3.8.7): OPTLOCK, BOR off,
/// WDG_SW, nRST_STOP, nRST_STDBY, RDP 0xAA (level 0), nWRP all 1 (no sector protected).
pub const OPTCR_RESET: u32 = 0x0FFF_AAED;
/// The RDP byte of level 0 (RM0390 3.6.3); 0xCC is level 2, anything else level 1.
const RDP_LEVEL_0: u8 = 0xAA;
const RDP_LEVEL_2: u8 = 0xCC;
/// The RDP byte this board loads for level 1 (any byte but 0xAA and 0xCC).
const RDP_LEVEL_1: u8 = 0xBB;

/// One sector of the main memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sector {
    /// First address.
    pub start: u32,
    /// Bytes.
    pub size: u32,
}

/// The STM32F446's sectors (RM0390 3.3, table 4): four of 16 KiB, one of 64 KiB, three of
/// 128 KiB, 512 KiB from 0x0800_0000. SNB numbers them in this order.
pub const SECTORS: [Sector; 8] = [
    Sector {
        start: 0x0800_0000,
        size: 16 * 1024,
    },
    Sector {
        start: 0x0800_4000,
        size: 16 * 1024,
    },
    Sector {
        start: 0x0800_8000,
        size: 16 * 1024,
    },
    Sector {
        start: 0x0800_C000,
        size: 16 * 1024,
    },
    Sector {
        start: 0x0801_0000,
        size: 64 * 1024,
    },
    Sector {
        start: 0x0802_0000,
        size: 128 * 1024,
    },
    Sector {
        start: 0x0804_0000,
        size: 128 * 1024,
    },
    Sector {
        start: 0x0806_0000,
        size: 128 * 1024,
    },
];

/// The sector holding `address`, by its number.
pub fn sector_of(address: u32) -> Option<usize> {
    SECTORS
        .iter()
        .position(|s| (s.start..s.start + s.size).contains(&address))
}

/// Typical times (DS10693, "Flash memory programming", at 2.7-3.6 V), in microseconds, by
/// PSIZE x8, x16, x32: a word (byte, half-word) program, and an erase by the sector's size.
const PROGRAM_US: u64 = 16;
const ERASE_16K_US: [u64; 3] = [400_000, 300_000, 250_000];
const ERASE_64K_US: [u64; 3] = [1_200_000, 700_000, 550_000];
const ERASE_128K_US: [u64; 3] = [2_000_000, 1_300_000, 1_000_000];
const MASS_ERASE_US: [u64; 3] = [16_000_000, 11_000_000, 8_000_000];

/// Why a read-out protection level cannot be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "RDP level {0} is not modelled: 0 (no protection) or 1 (flash read-out protection while \
     a debugger is connected); level 2 disables the debug port for ever"
)]
pub struct RdpLevelError(pub u8);

/// Where KEYR's (or OPTKEYR's) unlock sequence stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Keys {
    /// Waiting for the first key.
    #[default]
    First,
    /// The first key came: the second unlocks.
    Second,
    /// A wrong key: locked until the next reset (RM0390 3.5.1).
    Jammed,
}

impl Keys {
    /// The sequence after `value`: whether it unlocks now, or a fault (a wrong key).
    fn take(&mut self, value: u32, first: u32, second: u32) -> Result<bool, ()> {
        match (*self, value) {
            (Keys::First, v) if v == first => *self = Keys::Second,
            (Keys::Second, v) if v == second => {
                *self = Keys::First;
                return Ok(true);
            }
            _ => {
                *self = Keys::Jammed;
                return Err(());
            }
        }
        Ok(false)
    }
}

/// What a store to flash did ([`FlashInterface::program`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Programmed {
    /// The location's new value (old AND data), or `None`: an error flag was set instead and
    /// nothing was written.
    pub value: Option<u32>,
    /// Cycles the store waited for an operation still running (the bus stalls).
    pub stall: u64,
}

/// The flash interface.
#[derive(Debug)]
pub struct FlashInterface {
    acr: u32,
    cr: u32,
    /// SR's flags (BSY is computed from `busy_until`).
    sr: u32,
    optcr: u32,
    /// The option bytes OPTCR loads at reset (RDP, nWRP, user options): they outlive a reset.
    option_bytes: u32,
    keys: Keys,
    opt_keys: Keys,
    /// The core cycle at which the operation running ends (0: none ran yet).
    busy_until: u64,
    /// An operation ended, not yet seen ended (EOP is set when it is).
    running: bool,
    /// The last SR read found BSY: the next one is a poll, fast-forwarded to the end.
    polling: bool,
}

impl Default for FlashInterface {
    fn default() -> Self {
        FlashInterface {
            acr: 0,
            cr: LOCK,
            sr: 0,
            optcr: OPTCR_RESET,
            option_bytes: OPTCR_RESET,
            keys: Keys::First,
            opt_keys: Keys::First,
            busy_until: 0,
            running: false,
            polling: false,
        }
    }
}

impl FlashInterface {
    /// ACR.LATENCY: wait states.
    pub fn latency(&self) -> u32 {
        self.acr & 0xF
    }

    /// The read-out protection level the option bytes set (RM0390 3.6.3): 0 (RDP = 0xAA) or 1
    /// (any other byte). Level 2 (0xCC) is not modelled ([`FlashInterface::set_rdp_level`]
    /// refuses it); a loaded 0xCC would read as 1 here, the protection level 1 gives too.
    pub fn rdp_level(&self) -> u8 {
        match (self.option_bytes >> RDP_SHIFT) as u8 {
            RDP_LEVEL_0 => 0,
            _ => 1,
        }
    }

    /// Sets the option bytes' read-out protection to `level` (0 or 1) and loads them into
    /// OPTCR, as if the chip had been programmed so and powered on: a board that starts
    /// protected (`serve --rdp 1`).
    pub fn set_rdp_level(&mut self, level: u8) -> Result<(), RdpLevelError> {
        let byte = match level {
            0 => RDP_LEVEL_0,
            1 => RDP_LEVEL_1,
            _ => return Err(RdpLevelError(level)),
        };
        debug_assert_ne!(byte, RDP_LEVEL_2);
        self.option_bytes =
            (self.option_bytes & !(0xFF << RDP_SHIFT)) | (u32::from(byte) << RDP_SHIFT);
        self.optcr = self.option_bytes;
        Ok(())
    }

    /// Whether sector `n` is write-protected: its nWRP bit is 0 (RM0390 3.6.4, SPRMOD = 0).
    fn protected(&self, n: usize) -> bool {
        self.option_bytes & (1 << (NWRP_SHIFT + n as u32)) == 0
    }

    /// PSIZE's parallelism index (0 x8, 1 x16, 2 x32, 3 x64).
    fn psize(&self) -> usize {
        ((self.cr & PSIZE_MASK) >> PSIZE_SHIFT) as usize
    }

    /// Whether an operation runs at core cycle `now`.
    pub fn busy(&self, now: u64) -> bool {
        now < self.busy_until
    }

    /// An operation that ended by `now` ends: EOP, if EOPIE asks for it (RM0390 3.8.4: "set
    /// only if the end of operation interrupts are enabled").
    fn settle(&mut self, now: u64) {
        if self.running && !self.busy(now) {
            self.running = false;
            if self.cr & EOPIE != 0 {
                self.sr |= EOP;
            }
        }
    }

    /// An error of an operation that cannot run: its bit, and OPERR if ERRIE asks for it
    /// (RM0390 3.8.4: OPERR "is set only if error interrupts are enabled").
    fn flag(&mut self, bit: u32) {
        self.sr |= bit;
        if self.cr & ERRIE != 0 {
            self.sr |= OPERR;
        }
    }

    /// Starts an operation of `us` microseconds at core cycle `now`, the core at `sysclk`.
    fn start(&mut self, now: u64, us: u64, sysclk: u64) {
        self.busy_until = now + (us * sysclk).div_ceil(1_000_000);
        self.running = true;
        self.polling = false;
    }

    /// A store of `size` bytes of `data` at `address` in flash, whose bytes hold `old`, at core
    /// cycle `now`, the core at `sysclk` (RM0390 3.5.4, "Standard programming" and
    /// "Programming errors"; 3.8.4 for the flags):
    ///
    /// - CR locked or PG clear: the chip sets PGSERR and writes nothing; the board refuses it
    ///   (a configuration fault: the firmware or the algorithm writes flash as if it were RAM).
    /// - PG with SER or MER: CR "not correctly configured", PGSERR, nothing written.
    /// - An access of another size than PSIZE: PGPERR (x64 takes two words at once, with VPP
    ///   applied, which a 32-bit access never is: it always raises PGPERR here).
    /// - A write-protected sector (nWRP): WRPERR.
    /// - Otherwise it programs: flash bits only go from 1 to 0, so the new value is old AND
    ///   data. The F4 has no "not erased" error: programming over programmed bits is allowed
    ///   and clears bits only (a 1 needs an erase).
    ///
    /// PGAERR is for data not inside one 128-bit row: a single aligned access of at most 32
    /// bits never crosses one (an unaligned store reaches the bus as smaller aligned accesses,
    /// ARMv7-M ARM A3.2.1, each taken here on its own), so it is never set.
    pub fn program(
        &mut self,
        address: u32,
        size: usize,
        data: u32,
        old: u32,
        now: u64,
        sysclk: u64,
    ) -> Result<Programmed, Refusal> {
        // An operation still running: the bus stalls until its end.
        let stall = self.busy_until.saturating_sub(now);
        let now = now + stall;
        self.settle(now);
        let refused = |me: &mut Self, bit| {
            me.flag(bit);
            Ok(Programmed { value: None, stall })
        };
        if self.cr & LOCK != 0 || self.cr & PG == 0 {
            self.flag(PGSERR);
            return Err(Refusal::config(
                format!(
                    "a {size}-byte store of {data:#x} to flash at {address:#010x} with \
                     FLASH_CR = {:#010x} ({}): flash is programmed only with CR unlocked and \
                     PG set; the chip sets PGSERR and writes nothing",
                    self.cr,
                    if self.cr & LOCK != 0 {
                        "locked"
                    } else {
                        "PG = 0"
                    }
                ),
                "RM0390 3.5.4, standard programming; 3.8.4, PGSERR",
            ));
        }
        if self.cr & (SER | MER) != 0 {
            return refused(self, PGSERR);
        }
        if 8 << self.psize() != 8 * size {
            return refused(self, PGPERR);
        }
        match sector_of(address) {
            Some(n) if !self.protected(n) => {}
            _ => return refused(self, WRPERR),
        }
        let mask = if size >= 4 {
            u32::MAX
        } else {
            (1 << (8 * size)) - 1
        };
        self.start(now, PROGRAM_US, sysclk);
        Ok(Programmed {
            value: Some(old & data & mask),
            stall,
        })
    }

    /// CR.STRT: a sector or mass erase at core cycle `now` (RM0390 3.5.3): the bytes to erase
    /// (first address, length), which the core erases in its memory; `None` if an error flag
    /// stopped it.
    fn strt(&mut self, now: u64, sysclk: u64) -> Result<Option<(u32, u32)>, Refusal> {
        let psize = self.psize();
        if psize == 3 {
            return Err(Refusal::config(
                format!(
                    "an erase with FLASH_CR = {:#010x}: PSIZE x64 needs an external VPP of 8-9 V, \
                     which the board does not supply",
                    self.cr
                ),
                "RM0390 3.5.2, table 6",
            ));
        }
        match (self.cr & SER != 0, self.cr & MER != 0) {
            (true, false) => {
                let snb = (self.cr & SNB_MASK) >> SNB_SHIFT;
                let Some(sector) = SECTORS.get(snb as usize) else {
                    return Err(Refusal::config(
                        format!(
                            "a sector erase of SNB = {snb} (FLASH_CR = {:#010x}): the STM32F446 \
                             has sectors 0 to 7, other values are not allowed",
                            self.cr
                        ),
                        "RM0390 3.8.5, SNB; 3.3, table 4",
                    ));
                };
                if self.protected(snb as usize) {
                    self.flag(WRPERR);
                    return Ok(None);
                }
                let us = match sector.size {
                    0x4000 => ERASE_16K_US,
                    0x10000 => ERASE_64K_US,
                    _ => ERASE_128K_US,
                }[psize];
                self.start(now, us, sysclk);
                Ok(Some((sector.start, sector.size)))
            }
            (false, true) => {
                if (0..SECTORS.len()).any(|n| self.protected(n)) {
                    self.flag(WRPERR);
                    return Ok(None);
                }
                self.start(now, MASS_ERASE_US[psize], sysclk);
                Ok(Some((FLASH.start, FLASH.size)))
            }
            (ser, mer) => Err(Refusal::config(
                format!(
                    "STRT with FLASH_CR = {:#010x} (SER = {}, MER = {}): an erase is a \
                         sector erase (SER) or a mass erase (MER), one of them",
                    self.cr, ser as u8, mer as u8
                ),
                "RM0390 3.5.3",
            )),
        }
    }

    /// Reads SR at core cycle `now`: BSY while an operation runs. A read that finds BSY right
    /// after another that found it is a poll: it moves time to the operation's end (returned
    /// as the cycles to skip) and finds it done.
    fn read_sr(&mut self, now: u64) -> (u32, u64) {
        let mut skip = 0;
        if self.busy(now) && self.polling {
            skip = self.busy_until - now;
        }
        let now = now + skip;
        self.settle(now);
        let busy = self.busy(now);
        self.polling = busy;
        (self.sr | if busy { BSY } else { 0 }, skip)
    }
}

impl Peripheral for FlashInterface {
    fn register(&self, offset: u32) -> Option<&'static str> {
        offset
            .is_multiple_of(4)
            .then(|| NAMES.get((offset / 4) as usize).copied())
            .flatten()
    }

    fn read(&mut self, offset: u32, bus: &mut Bus<'_>) -> Result<u32, Refusal> {
        match offset {
            ACR => Ok(self.acr),
            // KEYR and OPTKEYR are write-only.
            KEYR | OPTKEYR => Ok(0),
            SR => {
                let (value, skip) = self.read_sr(bus.now);
                bus.skip += skip;
                Ok(value)
            }
            CR => Ok(self.cr),
            OPTCR => Ok(self.optcr),
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, bus: &mut Bus<'_>) -> Result<Event, Refusal> {
        let sysclk = bus.sysclk;
        match offset {
            ACR => self.acr = value & 0x1F0F,
            KEYR => match self.keys.take(value, KEY1, KEY2) {
                Ok(true) => self.cr &= !LOCK,
                Ok(false) => {}
                Err(()) => {
                    self.cr |= LOCK;
                    return Err(Refusal::config(
                        format!(
                            "{value:#010x} written to FLASH_KEYR out of the unlock sequence \
                             ({KEY1:#010x} then {KEY2:#010x}): a bus error, and FLASH_CR stays \
                             locked until the next reset"
                        ),
                        "RM0390 3.5.1",
                    ));
                }
            },
            OPTKEYR => match self.opt_keys.take(value, OPTKEY1, OPTKEY2) {
                Ok(true) => self.optcr &= !OPTLOCK,
                Ok(false) => {}
                Err(()) => {
                    self.optcr |= OPTLOCK;
                    return Err(Refusal::config(
                        format!(
                            "{value:#010x} written to FLASH_OPTKEYR out of the unlock sequence \
                             ({OPTKEY1:#010x} then {OPTKEY2:#010x}): a bus error, and \
                             FLASH_OPTCR stays locked until the next reset"
                        ),
                        "RM0390 3.6.2",
                    ));
                }
            },
            SR => self.sr &= !(value & CLEARABLE),
            // Locked, CR takes no write (RM0390 3.5.1): the write is ignored.
            CR if self.cr & LOCK != 0 => {}
            CR => {
                // A write while an operation runs waits for it (the bus stalls).
                let stall = self.busy_until.saturating_sub(bus.now);
                bus.skip += stall;
                let now = bus.now + stall;
                self.settle(now);
                self.cr = value & CR_BITS;
                if value & STRT != 0
                    && value & LOCK == 0
                    && let Some((start, len)) = self.strt(now, sysclk)?
                {
                    return Ok(Event::Erase(start, len));
                }
            }
            OPTCR if self.optcr & OPTLOCK != 0 => {}
            OPTCR if value & OPTSTRT != 0 => return Err(reg::unmodelled(offset, Some(value))),
            OPTCR => self.optcr = value & !OPTSTRT,
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }

    fn reset(&mut self) {
        *self = FlashInterface {
            option_bytes: self.option_bytes,
            optcr: self.option_bytes,
            ..FlashInterface::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write at core cycle `now` (no RCC beside it: the HSI's 16 MHz).
    fn write(f: &mut FlashInterface, offset: u32, value: u32, now: u64) -> Result<Event, Refusal> {
        f.write(offset, value, &mut Bus::new(now, &[]))
    }

    /// A read at core cycle `now`: the value and the cycles it skipped.
    fn read(f: &mut FlashInterface, offset: u32, now: u64) -> (u32, u64) {
        let mut bus = Bus::new(now, &[]);
        let value = f.read(offset, &mut bus).unwrap();
        (value, bus.skip)
    }

    fn unlocked() -> FlashInterface {
        let mut f = FlashInterface::default();
        write(&mut f, KEYR, KEY1, 0).unwrap();
        write(&mut f, KEYR, KEY2, 0).unwrap();
        f
    }

    const X32: u32 = 2 << PSIZE_SHIFT;
    const X8: u32 = 0;

    #[test]
    fn registers_reset_as_rm0390_3_8_7_lists_them() {
        let mut f = FlashInterface::default();
        assert_eq!(read(&mut f, CR, 0).0, 0x8000_0000, "CR: LOCK");
        assert_eq!(read(&mut f, SR, 0).0, 0);
        assert_eq!(read(&mut f, OPTCR, 0).0, 0x0FFF_AAED);
        assert_eq!(f.rdp_level(), 0, "RDP 0xAA: level 0 (RM0390 3.6.3)");
    }

    #[test]
    fn keyr_unlocks_cr_with_its_two_keys_and_a_wrong_key_locks_it_until_reset() {
        // RM0390 3.5.1: locked, CR takes no write.
        let mut f = FlashInterface::default();
        write(&mut f, CR, PG, 0).unwrap();
        assert_eq!(read(&mut f, CR, 0).0, LOCK);
        let mut f = unlocked();
        write(&mut f, CR, PG | X32, 0).unwrap();
        assert_eq!(read(&mut f, CR, 0).0, PG | X32);
        // LOCK written 1 locks it again.
        write(&mut f, CR, LOCK, 0).unwrap();
        write(&mut f, CR, PG, 0).unwrap();
        assert_eq!(read(&mut f, CR, 0).0, LOCK);
        // A wrong key is a bus error, and the right ones no longer unlock until a reset.
        let mut f = FlashInterface::default();
        write(&mut f, KEYR, KEY1, 0).unwrap();
        let Err(Refusal::Config(fault)) = write(&mut f, KEYR, KEY1, 0) else {
            panic!("a wrong second key is refused");
        };
        assert_eq!(fault.rule, "RM0390 3.5.1");
        assert!(write(&mut f, KEYR, KEY1, 0).is_err());
        assert_eq!(read(&mut f, CR, 0).0, LOCK);
        f.reset();
        write(&mut f, KEYR, KEY1, 0).unwrap();
        write(&mut f, KEYR, KEY2, 0).unwrap();
        assert_eq!(read(&mut f, CR, 0).0, 0, "unlocked after the reset");
    }

    #[test]
    fn optkeyr_unlocks_optcr_and_optstrt_is_not_modelled() {
        // RM0390 3.6.2: OPTKEY1 then OPTKEY2 clear OPTLOCK.
        let mut f = FlashInterface::default();
        write(&mut f, OPTCR, 0x0FFF_55EC, 0).unwrap();
        assert_eq!(read(&mut f, OPTCR, 0).0, OPTCR_RESET, "locked: ignored");
        write(&mut f, OPTKEYR, OPTKEY1, 0).unwrap();
        write(&mut f, OPTKEYR, OPTKEY2, 0).unwrap();
        assert_eq!(read(&mut f, OPTCR, 0).0, OPTCR_RESET & !OPTLOCK);
        assert!(matches!(
            write(&mut f, OPTCR, OPTCR_RESET | OPTSTRT, 0),
            Err(Refusal::Unmodelled(_))
        ));
    }

    #[test]
    fn a_sector_erase_keeps_bsy_for_its_typical_time_and_a_poll_skips_to_its_end() {
        // RM0390 3.5.3: SER, SNB, STRT; DS10693: 250 ms typical for 16 KiB at x32, 4 million
        // cycles at 16 MHz.
        let mut f = unlocked();
        write(&mut f, CR, SER | (1 << SNB_SHIFT) | X32 | EOPIE, 100).unwrap();
        let event = write(&mut f, CR, SER | (1 << SNB_SHIFT) | X32 | EOPIE | STRT, 100);
        assert_eq!(event.unwrap(), Event::Erase(0x0800_4000, 0x4000));
        // The first read sees BSY and skips nothing; the poll right after skips to the end.
        assert_eq!(read(&mut f, SR, 110), (BSY, 0));
        assert_eq!(read(&mut f, SR, 120), (EOP, 100 + 4_000_000 - 120));
        // EOP clears by writing 1 (RM0390 3.8.4).
        write(&mut f, SR, EOP, 4_000_200).unwrap();
        assert_eq!(read(&mut f, SR, 4_000_200).0, 0);
    }

    #[test]
    fn eop_is_set_only_with_eopie() {
        // RM0390 3.8.4: "set only if the end of operation interrupts are enabled".
        let mut f = unlocked();
        write(&mut f, CR, SER | X32 | STRT, 0).unwrap();
        assert_eq!(read(&mut f, SR, 10_000_000), (0, 0));
    }

    #[test]
    fn a_mass_erase_takes_the_whole_flash_and_sector_numbers_stop_at_7() {
        // RM0390 3.5.3 (mass erase, 8 s typical at x32: DS10693); 3.8.5 (SNB) and 3.3 table 4.
        let mut f = unlocked();
        let event = write(&mut f, CR, MER | X32 | STRT, 0).unwrap();
        assert_eq!(event, Event::Erase(0x0800_0000, 512 * 1024));
        assert_eq!(f.busy_until, 8 * 16_000_000);
        let mut f = unlocked();
        let Err(Refusal::Config(fault)) = write(&mut f, CR, SER | (8 << SNB_SHIFT) | STRT, 0)
        else {
            panic!("SNB 8 is refused");
        };
        assert_eq!(fault.rule, "RM0390 3.8.5, SNB; 3.3, table 4");
        // SER and MER together, and x64 (VPP), are refused too.
        assert!(write(&mut f, CR, SER | MER | X32 | STRT, 0).is_err());
        assert!(write(&mut f, CR, SER | (3 << PSIZE_SHIFT) | STRT, 0).is_err());
    }

    #[test]
    fn the_sector_table_is_table_4_of_rm0390() {
        // RM0390 3.3, table 4: 512 KiB, contiguous, from 0x0800_0000.
        let mut next = FLASH.start;
        for s in SECTORS {
            assert_eq!(s.start, next);
            next += s.size;
        }
        assert_eq!(next, FLASH.start + FLASH.size);
        assert_eq!(sector_of(0x0801_FFFF), Some(4));
        assert_eq!(sector_of(0x0802_0000), Some(5));
        assert_eq!(sector_of(0x0808_0000), None);
    }

    #[test]
    fn programming_clears_bits_only_and_flags_what_rm0390_3_5_4_lists() {
        let mut f = unlocked();
        // PG with x32: old AND data, busy 16 us (256 cycles at 16 MHz).
        write(&mut f, CR, PG | X32, 0).unwrap();
        let p = f.program(0x0800_4000, 4, 0xFFFF_00FF, 0x1234_5678, 0, 16_000_000);
        assert_eq!(
            p.unwrap(),
            Programmed {
                value: Some(0x1234_0078),
                stall: 0
            }
        );
        assert!(f.busy(255) && !f.busy(256));
        // A store during the program waits for it (the bus stalls).
        let p = f
            .program(0x0800_4004, 4, 0, u32::MAX, 100, 16_000_000)
            .unwrap();
        assert_eq!(p.stall, 156);
        // A byte store at x32: PGPERR, and OPERR with ERRIE (RM0390 3.8.4).
        write(&mut f, CR, PG | X32 | ERRIE, 1_000).unwrap();
        let p = f
            .program(0x0800_4008, 1, 0, u32::MAX, 1_000, 16_000_000)
            .unwrap();
        assert_eq!(p.value, None);
        assert_eq!(read(&mut f, SR, 1_000).0, PGPERR | OPERR);
        write(&mut f, SR, PGPERR | OPERR, 1_000).unwrap();
        // At x8 a byte programs.
        write(&mut f, CR, PG | X8, 1_000).unwrap();
        let p = f
            .program(0x0800_4008, 1, 0x0F, 0xFF, 1_000, 16_000_000)
            .unwrap();
        assert_eq!(p.value, Some(0x0F));
        // PG with SER: CR not correctly configured, PGSERR.
        write(&mut f, CR, PG | SER | X8, 2_000).unwrap();
        let p = f
            .program(0x0800_4009, 1, 0, 0xFF, 2_000, 16_000_000)
            .unwrap();
        assert_eq!((p.value, read(&mut f, SR, 2_000).0), (None, PGSERR));
        // Without PG: PGSERR, and the board refuses the store.
        write(&mut f, SR, PGSERR, 2_000).unwrap();
        write(&mut f, CR, X32, 2_000).unwrap();
        let Err(Refusal::Config(fault)) = f.program(0x0800_4000, 4, 0, 0, 2_000, 16_000_000) else {
            panic!("a store without PG is refused");
        };
        assert_eq!(
            fault.rule,
            "RM0390 3.5.4, standard programming; 3.8.4, PGSERR"
        );
        assert_eq!(read(&mut f, SR, 2_000).0, PGSERR);
    }

    #[test]
    fn a_write_protected_sector_is_neither_programmed_nor_erased() {
        // RM0390 3.6.4: nWRP bit i = 0 protects sector i; WRPERR (3.8.4).
        let mut f = unlocked();
        f.option_bytes &= !(1 << (NWRP_SHIFT + 1));
        write(&mut f, CR, PG | X32, 0).unwrap();
        let p = f
            .program(0x0800_4000, 4, 0, u32::MAX, 0, 16_000_000)
            .unwrap();
        assert_eq!(p.value, None);
        assert_eq!(read(&mut f, SR, 0).0, WRPERR);
        write(&mut f, SR, WRPERR, 0).unwrap();
        assert_eq!(
            f.program(0x0800_0000, 4, 0, u32::MAX, 0, 16_000_000)
                .unwrap()
                .value,
            Some(0)
        );
        assert_eq!(
            write(&mut f, CR, SER | (1 << SNB_SHIFT) | STRT, 10_000).unwrap(),
            Event::None
        );
        assert_eq!(write(&mut f, CR, MER | STRT, 10_000).unwrap(), Event::None);
        assert_eq!(read(&mut f, SR, 10_000).0, WRPERR);
    }

    #[test]
    fn the_read_out_protection_level_is_the_option_bytes_rdp() {
        // RM0390 3.6.3: 0xAA level 0, 0xCC level 2, anything else level 1.
        let mut f = FlashInterface::default();
        f.set_rdp_level(1).unwrap();
        assert_eq!(f.rdp_level(), 1);
        assert_eq!(read(&mut f, OPTCR, 0).0, 0x0FFF_BBED);
        f.reset();
        assert_eq!(f.rdp_level(), 1, "the option bytes outlive a reset");
        assert_eq!(
            f.set_rdp_level(2).unwrap_err().to_string(),
            "RDP level 2 is not modelled: 0 (no protection) or 1 (flash read-out protection \
             while a debugger is connected); level 2 disables the debug port for ever"
        );
        f.set_rdp_level(0).unwrap();
        assert_eq!(read(&mut f, OPTCR, 0).0, OPTCR_RESET);
    }
}
