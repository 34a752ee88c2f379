//! ADC1 and the common ADC block (RM0390 section 13.13): resolution, sampling times, the
//! regular sequence, a software-started single conversion whose EOC rises after the
//! conversion time, DR whose read clears EOC, SR's clear-by-writing-0 flags. The conversion's
//! value is the board's (the cage behind the pin, see [`crate::board`]).
//! The trait's `read` and `write` call the inherent ones, which take the time and give the
//! cycles skipped.

use super::peripheral::{Bus, Event, Peripheral};
use super::rcc::{self, Enable};
use super::reg::{self, Regs};
use crate::stop::Refusal;

const SR: u32 = 0x00;
const CR1: u32 = 0x04;
const CR2: u32 = 0x08;
const SMPR1: u32 = 0x0C;
const SMPR2: u32 = 0x10;
const SQR1: u32 = 0x2C;
const SQR2: u32 = 0x30;
const SQR3: u32 = 0x34;
const DR: u32 = 0x4C;
/// ADC_CCR, in the common block.
const CCR: u32 = 0x304;

const REGISTERS: &[(u32, &str, u32)] = &[
    (SR, "SR", 0),
    (CR1, "CR1", 0),
    (CR2, "CR2", 0),
    (SMPR1, "SMPR1", 0),
    (SMPR2, "SMPR2", 0),
    (0x24, "HTR", 0xFFF),
    (0x28, "LTR", 0),
    (SQR1, "SQR1", 0),
    (SQR2, "SQR2", 0),
    (SQR3, "SQR3", 0),
    (DR, "DR", 0),
    (CCR, "CCR", 0),
];

/// SR.EOC.
const EOC: u32 = 1 << 1;
/// SR.STRT.
const STRT: u32 = 1 << 4;
/// CR2.ADON.
const ADON: u32 = 1;
/// CR2.SWSTART.
const SWSTART: u32 = 1 << 30;
/// CR2.ALIGN (left).
const ALIGN: u32 = 1 << 11;

/// The sampling times SMPx selects, in ADC clock cycles (RM0390 13.13.4).
const SAMPLE_CYCLES: [u32; 8] = [3, 15, 28, 56, 84, 112, 144, 480];

/// A conversion under way.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// When EOC rises, in core cycles.
    done_at: u64,
    /// DR's value then.
    data: u32,
}

/// What a write asks the board to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing.
    None,
    /// SWSTART with ADON: convert (the board measures, checks and calls [`Adc1::begin`]).
    Start,
}

/// ADC1 with the common block.
#[derive(Debug)]
pub struct Adc1 {
    regs: Regs,
    pending: Option<Pending>,
    /// The last SR read found the conversion under way: a second such read is a poll.
    polling: bool,
}

impl Default for Adc1 {
    fn default() -> Self {
        Adc1 {
            regs: Regs::new(REGISTERS),
            pending: None,
            polling: false,
        }
    }
}

impl Peripheral for Adc1 {
    /// Offsets from ADC1's base; the common block's from +0x300.
    fn register(&self, offset: u32) -> Option<&'static str> {
        reg::name(REGISTERS, offset)
    }

    fn read(&mut self, offset: u32, bus: &mut Bus<'_>) -> Result<u32, Refusal> {
        let (value, skip) = Adc1::read(self, offset, bus.now)?;
        bus.skip += skip;
        Ok(value)
    }

    fn write(&mut self, offset: u32, value: u32, bus: &mut Bus<'_>) -> Result<Event, Refusal> {
        Ok(match Adc1::write(self, offset, value, bus.now)? {
            Effect::Start => Event::Convert,
            Effect::None => Event::None,
        })
    }

    fn reset(&mut self) {
        *self = Adc1::default();
    }

    fn clock(&self) -> Option<Enable> {
        Some(rcc::ADC1EN)
    }
}

impl Adc1 {
    /// Reads a register at core cycle `now`; returns the value and the cycles to skip. A read
    /// of SR that finds the conversion under way, right after another that did, is the
    /// firmware polling for EOC: time skips to the end of the conversion (the core would only
    /// spin until then), so the poll sees EOC.
    pub fn read(&mut self, offset: u32, now: u64) -> Result<(u32, u64), Refusal> {
        let mut skip = 0;
        if offset == SR
            && let Some(p) = self.pending
        {
            if self.polling && now < p.done_at {
                skip = p.done_at - now;
            }
            self.polling = now + skip < p.done_at;
        } else if offset == SR {
            self.polling = false;
        }
        self.settle(now + skip)?;
        let value = self.regs.get(offset)?;
        if offset == DR {
            // Reading DR clears EOC (RM0390 13.13.1).
            self.regs.set(SR, self.regs.peek(SR) & !EOC)?;
        }
        Ok((value, skip))
    }

    /// Writes a register at core cycle `now`.
    pub fn write(&mut self, offset: u32, value: u32, now: u64) -> Result<Effect, Refusal> {
        self.settle(now)?;
        match offset {
            // rc_w0: writing 0 clears a flag, writing 1 leaves it.
            SR => self.regs.set(SR, self.regs.peek(SR) & (value | !0x3F))?,
            DR => {}
            CR2 => {
                // SWSTART is cleared by hardware as the conversion starts.
                self.regs.set(CR2, value & !SWSTART)?;
                if value & SWSTART != 0 && value & ADON != 0 {
                    return Ok(Effect::Start);
                }
            }
            _ => self.regs.set(offset, value)?,
        }
        Ok(Effect::None)
    }

    /// A conversion started now gives `code` at `done_at`.
    pub fn begin(&mut self, code: u16, done_at: u64) -> Result<(), Refusal> {
        let data = if self.regs.peek(CR2) & ALIGN != 0 {
            u32::from(code) << (16 - self.resolution_bits())
        } else {
            u32::from(code)
        };
        self.pending = Some(Pending { done_at, data });
        self.regs.set(SR, self.regs.peek(SR) | STRT)
    }

    fn settle(&mut self, now: u64) -> Result<(), Refusal> {
        if let Some(p) = self.pending.filter(|p| now >= p.done_at) {
            self.pending = None;
            self.regs.set(DR, p.data)?;
            self.regs.set(SR, self.regs.peek(SR) | EOC)?;
        }
        Ok(())
    }

    /// CR1.RES as bits (RM0390 13.13.2).
    pub fn resolution_bits(&self) -> u32 {
        [12, 10, 8, 6][((self.regs.peek(CR1) >> 24) & 0b11) as usize]
    }

    /// The first channel of the regular sequence (SQR3.SQ1).
    pub fn channel(&self) -> u8 {
        (self.regs.peek(SQR3) & 0x1F) as u8
    }

    /// Conversions in the regular sequence (SQR1.L + 1).
    pub fn sequence_length(&self) -> u32 {
        ((self.regs.peek(SQR1) >> 20) & 0xF) + 1
    }

    /// The sampling time of `channel` in ADC cycles (SMPR1/SMPR2).
    pub fn sample_cycles(&self, channel: u8) -> u32 {
        let (reg, field) = if channel < 10 {
            (SMPR2, u32::from(channel))
        } else {
            (SMPR1, u32::from(channel) - 10)
        };
        SAMPLE_CYCLES[((self.regs.peek(reg) >> (3 * field)) & 0b111) as usize]
    }

    /// ADCPRE's divider of PCLK2 (CCR bits 17:16: 2, 4, 6 or 8; RM0390 13.13.16).
    pub fn prescaler(&self) -> u64 {
        2 * (u64::from((self.regs.peek(CCR) >> 16) & 0b11) + 1)
    }

    /// The registers a conversion's fault quotes.
    pub fn quote(&self) -> String {
        format!(
            "ADC1_CR1 = {:#010x}, ADC1_CR2 = {:#010x}, ADC1_SQR3 = {:#010x}, ADC1_SMPR1 = {:#010x}, \
             ADC1_SMPR2 = {:#010x}, ADC_CCR = {:#010x}",
            self.regs.peek(CR1),
            self.regs.peek(CR2),
            self.regs.peek(SQR3),
            self.regs.peek(SMPR1),
            self.regs.peek(SMPR2),
            self.regs.peek(CCR)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eoc_rises_at_the_conversion_time_and_reading_dr_clears_it() {
        let mut adc = Adc1::default();
        adc.write(CR1, 1 << 24, 0).unwrap(); // 10 bits
        assert_eq!(adc.resolution_bits(), 10);
        assert_eq!(adc.write(CR2, ADON, 0).unwrap(), Effect::None);
        assert_eq!(adc.write(CR2, ADON | SWSTART, 0).unwrap(), Effect::Start);
        assert_eq!(adc.read(CR2, 0).unwrap().0 & SWSTART, 0);
        adc.begin(612, 100).unwrap();
        assert_eq!(adc.read(SR, 99).unwrap(), (STRT, 0));
        assert_ne!(adc.read(SR, 100).unwrap().0 & EOC, 0);
        assert_eq!(adc.read(DR, 101).unwrap().0, 612);
        assert_eq!(adc.read(SR, 102).unwrap().0 & EOC, 0);
    }

    #[test]
    fn polling_for_eoc_skips_to_the_end_of_the_conversion() {
        let mut adc = Adc1::default();
        adc.write(CR2, ADON, 0).unwrap();
        adc.begin(77, 1_960).unwrap();
        // The first read sees the conversion under way; the poll right after jumps to its end.
        assert_eq!(adc.read(SR, 10).unwrap(), (STRT, 0));
        assert_eq!(adc.read(SR, 14).unwrap(), (STRT | EOC, 1_946));
        assert_eq!(adc.read(DR, 1_961).unwrap(), (77, 0));
    }

    #[test]
    fn sr_flags_clear_when_written_0_and_stay_when_written_1() {
        let mut adc = Adc1::default();
        adc.begin(1, 0).unwrap();
        adc.read(SR, 0).unwrap();
        adc.write(SR, !STRT, 1).unwrap();
        let sr = adc.read(SR, 1).unwrap().0;
        assert_eq!(sr & STRT, 0);
        assert_ne!(sr & EOC, 0);
    }

    #[test]
    fn sampling_times_come_from_smpr2_for_0_to_9_and_smpr1_from_10() {
        let mut adc = Adc1::default();
        adc.write(SMPR2, 0b111 << 21, 0).unwrap(); // channel 7: 480
        adc.write(SMPR1, 0b001 << 3, 0).unwrap(); // channel 11: 15
        assert_eq!(adc.sample_cycles(7), 480);
        assert_eq!(adc.sample_cycles(11), 15);
        assert_eq!(adc.sample_cycles(0), 3);
        adc.write(CCR, 0b01 << 16, 0).unwrap();
        assert_eq!(adc.prescaler(), 4);
    }
}
