//! SysTick (PM0214 4.5): a 24-bit down-counter on the core clock (CLKSOURCE = 1) or HCLK / 8,
//! whose COUNTFLAG rises at each wrap and clears when CSR is read. Time is the core's cycle
//! count, so a run is the same every time; a firmware polling COUNTFLAG is fast-forwarded to
//! the next wrap (it would only spin until then).

use super::peripheral::{Bus, Event, Peripheral};
use super::reg;
use crate::stop::Refusal;

const CSR: u32 = 0x0;
const RVR: u32 = 0x4;
const CVR: u32 = 0x8;

const NAMES: &[(u32, &str, u32)] = &[
    (CSR, "CSR", 0),
    (RVR, "RVR", 0),
    (CVR, "CVR", 0),
    (0xC, "CALIB", 0),
];

const ENABLE: u32 = 1;
const CLKSOURCE: u32 = 1 << 2;
const COUNTFLAG: u32 = 1 << 16;

/// SysTick.
#[derive(Debug, Default)]
pub struct SysTick {
    csr: u32,
    rvr: u32,
    /// The core cycle at which the counter was last cleared (CVR written, or enabled).
    epoch: u64,
    /// Wraps counted up to the last CSR read.
    wraps_read: u64,
    /// The last CSR read found no wrap: a second such read is a poll, fast-forwarded.
    polling: bool,
}

impl Peripheral for SysTick {
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(NAMES, offset)
    }

    fn read(&mut self, offset: u32, bus: &mut Bus<'_>) -> Result<u32, Refusal> {
        let (value, skip) = SysTick::read(self, offset, bus.now)?;
        bus.skip += skip;
        Ok(value)
    }

    fn write(&mut self, offset: u32, value: u32, bus: &mut Bus<'_>) -> Result<Event, Refusal> {
        SysTick::write(self, offset, value, bus.now).map(|()| Event::None)
    }

    fn reset(&mut self) {
        *self = SysTick::default();
    }
}

impl SysTick {
    /// Core cycles per counter tick.
    fn divider(&self) -> u64 {
        if self.csr & CLKSOURCE != 0 { 1 } else { 8 }
    }

    fn period(&self) -> u64 {
        (u64::from(self.rvr) + 1) * self.divider()
    }

    /// Wraps (1 -> 0 transitions) since the epoch, at core cycle `now`.
    fn wraps(&self, now: u64) -> u64 {
        if self.csr & ENABLE == 0 || self.rvr == 0 {
            return self.wraps_read;
        }
        // Cleared to 0 at the epoch, the counter reloads on the next tick and reaches 0
        // again a period later.
        now.saturating_sub(self.epoch) / self.period()
    }

    /// Reads a register at core cycle `now`. A CSR read that finds no wrap, right after
    /// another that found none, is a poll: it advances `now` to the next wrap (returned as the
    /// cycles to skip). A single read (the read-modify-write of a disable) skips nothing.
    pub fn read(&mut self, offset: u32, now: u64) -> Result<(u32, u64), Refusal> {
        match offset {
            CSR => {
                let mut skip = 0;
                let mut wraps = self.wraps(now);
                let counting = self.csr & ENABLE != 0 && self.rvr != 0;
                if counting && wraps == self.wraps_read && self.polling {
                    let next = self.epoch + (self.wraps_read + 1) * self.period();
                    skip = next.saturating_sub(now);
                    wraps = self.wraps(now + skip);
                }
                self.polling = counting && wraps == self.wraps_read;
                let flag = if wraps > self.wraps_read {
                    COUNTFLAG
                } else {
                    0
                };
                self.wraps_read = wraps;
                Ok((self.csr | flag, skip))
            }
            RVR => Ok((self.rvr, 0)),
            CVR => {
                if self.csr & ENABLE == 0 || self.rvr == 0 {
                    return Ok((0, 0));
                }
                let into = now.saturating_sub(self.epoch) % self.period() / self.divider();
                let value = if into == 0 && now == self.epoch {
                    0
                } else {
                    u64::from(self.rvr) - into
                };
                Ok((value as u32, 0))
            }
            _ => Err(reg::unmodelled(offset, None)),
        }
    }

    /// Writes a register at core cycle `now`.
    pub fn write(&mut self, offset: u32, value: u32, now: u64) -> Result<(), Refusal> {
        match offset {
            CSR => {
                if value & ENABLE != 0 && self.csr & ENABLE == 0 {
                    self.epoch = now;
                    self.wraps_read = 0;
                }
                self.polling = false;
                self.csr = value & (ENABLE | 0b10 | CLKSOURCE);
            }
            RVR => self.rvr = value & 0x00FF_FFFF,
            // Any write clears the counter and COUNTFLAG.
            CVR => {
                self.epoch = now;
                self.wraps_read = 0;
                self.polling = false;
            }
            _ => return Err(reg::unmodelled(offset, Some(value))),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countflag_rises_once_per_period_clears_on_read_and_a_poll_skips_to_the_wrap() {
        let mut st = SysTick::default();
        st.write(RVR, 83_999, 0).unwrap(); // 1 ms at 84 MHz
        st.write(CVR, 0, 10).unwrap();
        st.write(CSR, ENABLE | CLKSOURCE, 10).unwrap();
        // The first read finds no wrap and skips nothing; the poll right after skips to it.
        assert_eq!(st.read(CSR, 1_000).unwrap(), (ENABLE | CLKSOURCE, 0));
        let (csr, skip) = st.read(CSR, 1_010).unwrap();
        assert_eq!((csr & COUNTFLAG, skip), (COUNTFLAG, 84_000 + 10 - 1_010));
        // A read-modify-write right after (a disable) finds the flag cleared and skips nothing.
        assert_eq!(st.read(CSR, 84_012).unwrap(), (ENABLE | CLKSOURCE, 0));
        let (value, _) = st.read(CVR, 84_010 + 21_000).unwrap();
        assert_eq!(value, 83_999 - 21_000);
        // Past a wrap without polling: the flag is there at once.
        let (csr, skip) = st.read(CSR, 10 + 2 * 84_000).unwrap();
        assert_eq!((csr & COUNTFLAG, skip), (COUNTFLAG, 0));
    }
}
