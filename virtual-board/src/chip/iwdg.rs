//! The independent watchdog (RM0390 section 19): a 12-bit down-counter on the 32 kHz LSI
//! (prescaler /4../256, PR), reloaded from RLR by the key 0xAAAA in KR, started by 0xCCCC (and
//! then never stopped but by a reset); PR and RLR take writes only after 0x5555, and SR's PVU
//! and RVU say an update is still crossing to the LSI's domain (up to 5 LSI periods). When the
//! counter reaches 0 the chip resets ([`Peripheral::due`]).
//!
//! Time is the core's: the counter's period in core cycles is taken at SYSCLK as RCC sets it
//! when the watchdog is started or fed. A debugger's halt takes no virtual time (time is the
//! instruction count), so the counter stands still while the core is halted whether or not
//! DBGMCU_APB1_FZ.DBG_IWDG_STOP asks it to; on a real board the bit is what keeps a halt from
//! resetting it.

use super::peripheral::{Bus, Event, Peripheral};
use super::rcc::Rcc;
use super::reg;
use crate::stop::Refusal;

const KR: u32 = 0x0;
const PR: u32 = 0x4;
const RLR: u32 = 0x8;
const SR: u32 = 0xC;

const NAMES: &[(u32, &str, u32)] = &[
    (KR, "KR", 0),
    (PR, "PR", 0),
    (RLR, "RLR", 0xFFF),
    (SR, "SR", 0),
];

/// KR's keys (RM0390 19.4.1).
const UNLOCK: u32 = 0x5555;
const RELOAD: u32 = 0xAAAA;
const START: u32 = 0xCCCC;

/// The LSI (DS10693 table 43, typical): 32 kHz.
pub const LSI_HZ: u64 = 32_000;
/// LSI periods an update of PR or RLR takes to reach the counter's domain (RM0390 19.4.4).
const UPDATE_PERIODS: u64 = 5;

/// SR.PVU, SR.RVU.
const PVU: u32 = 1;
const RVU: u32 = 2;

/// The IWDG.
#[derive(Debug)]
pub struct Iwdg {
    pr: u32,
    rlr: u32,
    unlocked: bool,
    /// The core cycle at which the counter reaches 0, once started.
    expires: Option<u64>,
    /// When the PR and RLR updates reach the counter's domain.
    pr_until: u64,
    rlr_until: u64,
    /// Feeds and the longest span between two (core cycles), since power-on.
    pub feeds: u64,
    /// The longest span between two feeds (or the start and the first feed), in core cycles.
    pub longest: u64,
    last_feed: u64,
}

impl Default for Iwdg {
    fn default() -> Self {
        Iwdg {
            pr: 0,
            rlr: 0xFFF,
            unlocked: false,
            expires: None,
            pr_until: 0,
            rlr_until: 0,
            feeds: 0,
            longest: 0,
            last_feed: 0,
        }
    }
}

impl Iwdg {
    /// The prescaler PR selects: 4 << PR, 256 from 6 on (RM0390 19.4.2).
    fn prescaler(&self) -> u64 {
        4 << self.pr.min(6)
    }

    /// The timeout the registers set, in LSI periods: prescaler x (RLR + 1).
    pub fn timeout_lsi(&self) -> u64 {
        self.prescaler() * (u64::from(self.rlr) + 1)
    }

    /// Core cycles per LSI period at `sysclk`, times the LSI periods, rounded up.
    fn cycles(lsi_periods: u64, sysclk: u64) -> u64 {
        (lsi_periods * sysclk).div_ceil(LSI_HZ)
    }

    /// Whether it was started (a system reset stops it).
    pub fn running(&self) -> bool {
        self.expires.is_some()
    }

    /// Whether it runs and was fed within its period before core cycle `now`: a core that
    /// feeds it is making progress of a kind (a glitch trial's `slow`, not `stopped`).
    pub fn fed_by(&self, now: u64) -> bool {
        self.expires.is_some_and(|expires| expires > now)
    }
}

impl Peripheral for Iwdg {
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(NAMES, offset)
    }

    fn read(&mut self, offset: u32, bus: &mut Bus<'_>) -> Result<u32, Refusal> {
        match offset {
            // KR is write-only.
            KR => Ok(0),
            PR => Ok(self.pr),
            RLR => Ok(self.rlr),
            SR => {
                let pvu = if bus.now < self.pr_until { PVU } else { 0 };
                let rvu = if bus.now < self.rlr_until { RVU } else { 0 };
                Ok(pvu | rvu)
            }
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    fn write(&mut self, offset: u32, value: u32, bus: &mut Bus<'_>) -> Result<Event, Refusal> {
        let sysclk = bus
            .peer::<Rcc>()
            .map_or(crate::chip::HSI_HZ, |r| r.clocks().sysclk);
        let update = bus.now + Self::cycles(UPDATE_PERIODS, sysclk);
        match offset {
            KR => {
                let key = value & 0xFFFF;
                // Any key but 0x5555 protects PR and RLR again.
                self.unlocked = key == UNLOCK;
                let feed = match key {
                    START => true,
                    RELOAD => self.running(),
                    _ => false,
                };
                if feed {
                    if self.running() {
                        self.feeds += 1;
                        self.longest = self.longest.max(bus.now - self.last_feed);
                    }
                    self.last_feed = bus.now;
                    self.expires = Some(bus.now + Self::cycles(self.timeout_lsi(), sysclk));
                }
            }
            // Writes while protected are ignored, as on the chip.
            PR if self.unlocked => {
                self.pr = value & 0b111;
                self.pr_until = update;
            }
            RLR if self.unlocked => {
                self.rlr = value & 0xFFF;
                self.rlr_until = update;
            }
            PR | RLR | SR => {}
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(Event::None)
    }

    /// A system reset stops it; the feed statistics are the board's, kept.
    fn reset(&mut self) {
        *self = Iwdg {
            feeds: self.feeds,
            longest: self.longest,
            ..Iwdg::default()
        };
    }

    fn due(&self) -> Option<u64> {
        self.expires
    }

    /// Its registers take half-words and words (RM0390 19.4); the HAL writes KR by half-word.
    fn half_words(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bus(now: u64) -> Bus<'static> {
        Bus::new(now, &[])
    }

    #[test]
    fn the_key_sequence_unlocks_sets_and_starts_and_a_feed_moves_the_expiry() {
        let mut w = Iwdg::default();
        // Protected: PR ignored.
        w.write(PR, 3, &mut bus(0)).unwrap();
        assert_eq!(w.read(PR, &mut bus(0)).unwrap(), 0);
        w.write(KR, UNLOCK, &mut bus(0)).unwrap();
        w.write(PR, 3, &mut bus(0)).unwrap(); // /32
        w.write(RLR, 999, &mut bus(0)).unwrap();
        // PVU and RVU until 5 LSI periods at 16 MHz (the HSI: no RCC on this bus): 2500 cycles.
        assert_eq!(w.read(SR, &mut bus(2_499)).unwrap(), PVU | RVU);
        assert_eq!(w.read(SR, &mut bus(2_500)).unwrap(), 0);
        assert_eq!(w.due(), None);
        w.write(KR, START, &mut bus(10_000)).unwrap();
        // 32 x 1000 / 32 kHz = 1 s = 16,000,000 cycles at 16 MHz (RM0390 table 107's formula).
        assert_eq!(w.due(), Some(10_000 + 16_000_000));
        w.write(KR, RELOAD, &mut bus(20_000)).unwrap();
        assert_eq!(w.due(), Some(20_000 + 16_000_000));
        // Protected again after a reload.
        w.write(PR, 0, &mut bus(20_001)).unwrap();
        assert_eq!(w.read(PR, &mut bus(20_001)).unwrap(), 3);
        w.reset();
        assert_eq!(w.due(), None, "a system reset stops it");
        assert_eq!(w.longest, 10_000);
    }

    #[test]
    fn the_longest_timeout_is_32_seconds_and_the_shortest_an_eighth_of_a_millisecond() {
        // RM0390 19.4, table 107: /4 and RL 0 give 0.125 ms, /256 and RL 0xFFF 32.768 s.
        let mut w = Iwdg::default();
        w.write(KR, UNLOCK, &mut bus(0)).unwrap();
        w.write(RLR, 0, &mut bus(0)).unwrap();
        assert_eq!(w.timeout_lsi() * 1_000_000 / LSI_HZ, 125);
        w.write(PR, 7, &mut bus(0)).unwrap();
        w.write(RLR, 0xFFF, &mut bus(0)).unwrap();
        assert_eq!(w.timeout_lsi() * 1_000 / LSI_HZ, 32_768);
    }
}
