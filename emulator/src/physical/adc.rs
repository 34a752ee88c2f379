//! The ADC: what code a voltage becomes on one device.
//!
//! The ideal transfer has its first transition at half an LSB: code = floor(V/Vref·2^N + 0.5),
//! clamped to 0..=2^N − 1. A real device moves its transitions: an offset, a gain error
//! (reached at full scale), a smooth integral non-linearity bow and a per-code differential
//! jitter, all fixed for the device and drawn from a seed; on top of that each conversion sees
//! Gaussian noise, and the firmware may average several conversions.
//!
//! How the datasheet's figures become one device (assumptions, stated once): each static
//! figure's size is drawn as |N(0, typ/2)| (so the typical value is a 2σ figure), clipped at
//! the datasheet maximum (or twice the typical value when no maximum is given); offset and
//! gain fall back to the total (absolute) accuracy when the datasheet gives only that, as the
//! ATmega2560's does. The DNL figure bounds how far each transition strays on its own.

use boards::LsbFigure;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution as _, StandardNormal};

use super::Board;

/// One converter, with its static errors fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct Adc {
    bits: u8,
    reference_volts: f64,
    /// Transition levels in LSB for codes 1..2^N, sorted; `None` for the ideal transfer.
    transitions: Option<Transitions>,
    /// The static errors drawn, for reports.
    errors: StaticErrors,
    noise_lsb: f64,
    samples: u8,
}

/// The static errors of one device, in LSB.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StaticErrors {
    /// Shift of every transition.
    pub offset: f64,
    /// Extra shift of the last transition, growing linearly from zero.
    pub gain: f64,
    /// Largest deviation of the smooth non-linearity bow.
    pub inl: f64,
    /// Bound of each transition's own jitter.
    pub dnl: f64,
}

impl Adc {
    /// A perfect converter: the ideal transfer, no noise, one sample.
    ///
    /// ```
    /// let adc = emulator::physical::Adc::ideal(10, 5.0);
    /// assert_eq!(adc.transfer(0.0), 0);
    /// assert_eq!(adc.transfer(5.0 * 0.49 / 1024.0), 0); // below the first transition
    /// assert_eq!(adc.transfer(5.0 * 0.5 / 1024.0), 1);
    /// assert_eq!(adc.transfer(5.0), 1023); // clamped
    /// ```
    pub fn ideal(bits: u8, reference_volts: f64) -> Adc {
        Adc {
            bits,
            reference_volts,
            transitions: None,
            errors: StaticErrors::default(),
            noise_lsb: 0.0,
            samples: 1,
        }
    }

    /// The board's converter as designed: ideal transfer at its resolution and reference,
    /// no noise, averaging as the firmware does.
    pub fn nominal(board: &Board) -> Adc {
        Adc {
            samples: board.adc.samples,
            ..Adc::ideal(board.adc.bits, board.reference_volts())
        }
    }

    /// One device of the board's converter, its static errors drawn from `seed`, with the
    /// datasheet's noise.
    pub fn draw(board: &Board, seed: u64) -> Adc {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let acc = board.adc.accuracy;
        let or_total = |f: LsbFigure| {
            if f.typ_milli_lsb.is_some() {
                f
            } else {
                acc.total
            }
        };
        let signed = |rng: &mut ChaCha8Rng, v: f64| if rng.random() { v } else { -v };
        let offset = magnitude(&mut rng, or_total(acc.offset));
        let offset = signed(&mut rng, offset);
        let gain = magnitude(&mut rng, or_total(acc.gain));
        let gain = signed(&mut rng, gain);
        let errors = StaticErrors {
            offset,
            gain,
            inl: magnitude(&mut rng, acc.inl),
            dnl: magnitude(&mut rng, acc.dnl),
        };
        let bits = board.adc.bits;
        let codes = 1usize << bits;
        // A smooth bow: two low harmonics with random weights, scaled to the drawn INL.
        let (h1, h2): (f64, f64) = (
            StandardNormal.sample(&mut rng),
            StandardNormal.sample(&mut rng),
        );
        let bow = |k: f64| {
            let t = core::f64::consts::PI * k / codes as f64;
            h1 * t.sin() + h2 * (2.0 * t).sin()
        };
        let peak = (1..codes)
            .map(|k| bow(k as f64).abs())
            .fold(0.0, f64::max)
            .max(f64::MIN_POSITIVE);
        let mut transitions: Vec<f64> = (1..codes)
            .map(|k| {
                let ideal = k as f64 - 0.5;
                let jitter = errors.dnl * (rng.random::<f64>() - 0.5);
                ideal
                    + errors.offset
                    + errors.gain * ideal / (codes as f64 - 1.5)
                    + errors.inl * bow(k as f64) / peak
                    + jitter
            })
            .collect();
        // A DNL beyond 1 LSB can swap neighbours: that is a missing code, not a reversal.
        transitions.sort_by(f64::total_cmp);
        Adc {
            bits,
            reference_volts: board.reference_volts(),
            transitions: Some(Transitions::new(transitions)),
            errors,
            noise_lsb: acc.noise_rms.typ_lsb().unwrap_or(0.0),
            samples: board.adc.samples,
        }
    }

    /// Resolution.
    pub fn bits(&self) -> u8 {
        self.bits
    }

    /// Highest code, 2^N − 1.
    pub fn full_scale(&self) -> u16 {
        ((1u32 << self.bits) - 1) as u16
    }

    /// The static errors of this device.
    pub fn errors(&self) -> StaticErrors {
        self.errors
    }

    /// Noise of one conversion, LSB rms.
    pub fn noise_lsb(&self) -> f64 {
        self.noise_lsb
    }

    /// Conversions averaged per reading.
    pub fn samples(&self) -> u8 {
        self.samples
    }

    /// The code of `volts` without noise (the device's static transfer). Inputs beyond the
    /// rails clamp to 0 or full scale, as the input protection and the converter do.
    pub fn transfer(&self, volts: f64) -> u16 {
        self.code_at(volts / self.reference_volts * f64::from(1u32 << self.bits))
    }

    fn code_at(&self, lsb: f64) -> u16 {
        let top = self.full_scale();
        if lsb.is_nan() || lsb <= 0.0 {
            return 0;
        }
        // lsb > 0 here, so the cast's truncation is the floor (and a call to libm's floor
        // saved on every conversion).
        let code = match &self.transitions {
            None => (lsb + 0.5).min(f64::from(top)) as u16,
            Some(t) => t.at_or_below(lsb) as u16,
        };
        code.min(top)
    }

    /// Loads the table entries that converting each of `volts` will look at, all at once:
    /// the loads are independent, so their cache misses overlap, where [`Adc::read`] meets
    /// them one after the other between its noise draws. Changes nothing else.
    pub fn warm(&self, volts: &[Option<f64>]) {
        let Some(t) = &self.transitions else { return };
        let scale = f64::from(1u32 << self.bits) / self.reference_volts;
        let mut sum = 0u32;
        for v in volts.iter().flatten() {
            let lsb = v * scale;
            if lsb > 0.0 {
                let j = lsb as usize;
                if let Some(&lo) = t.below.get(j) {
                    sum = sum.wrapping_add(lo);
                    if let Some(level) = t.levels.get(lo as usize) {
                        sum = sum.wrapping_add(level.to_bits() as u32);
                    }
                }
            }
        }
        std::hint::black_box(sum);
    }

    /// One conversion of `volts` with the device's noise: what the firmware's `Sampler::read`
    /// returns.
    pub fn convert<R: Rng>(&self, volts: f64, rng: &mut R) -> u16 {
        let lsb = volts / self.reference_volts * f64::from(1u32 << self.bits);
        let z: f64 = if self.noise_lsb > 0.0 {
            StandardNormal.sample(rng)
        } else {
            0.0
        };
        self.code_at(lsb + self.noise_lsb * z)
    }

    /// One reading of `volts` as the firmware takes it: `samples` noisy conversions,
    /// averaged as the firmware averages them ([`firmware::rounded_mean`]).
    pub fn read<R: Rng>(&self, volts: f64, rng: &mut R) -> u16 {
        self.read_normals(volts, || StandardNormal.sample(rng))
    }

    /// [`Adc::read`] with the standard normal deviates taken from `normal` (one per
    /// conversion, none without noise), for a caller that draws the same stream for every
    /// reading and keeps it.
    pub fn read_normals(&self, volts: f64, mut normal: impl FnMut() -> f64) -> u16 {
        let lsb = volts / self.reference_volts * f64::from(1u32 << self.bits);
        let n = u32::from(self.samples.max(1));
        let sum: u32 = (0..n)
            .map(|_| {
                let z: f64 = if self.noise_lsb > 0.0 { normal() } else { 0.0 };
                u32::from(self.code_at(lsb + self.noise_lsb * z))
            })
            .sum();
        firmware::rounded_mean(sum, n)
    }

    /// The standard normal deviates the first `readings` readings of a fresh `rng` use
    /// (none without noise): [`Adc::read_normals`] over them reads as [`Adc::read`] with it.
    pub fn normals<R: Rng>(&self, readings: usize, rng: &mut R) -> Vec<f64> {
        if self.noise_lsb > 0.0 {
            let n = readings * usize::from(self.samples.max(1));
            (0..n).map(|_| StandardNormal.sample(rng)).collect()
        } else {
            Vec::new()
        }
    }
}

/// A device's sorted transition levels, indexed by whole LSB.
#[derive(Clone, Debug, PartialEq)]
struct Transitions {
    /// Level of code k + 1 at index k (ideally k + 0.5 LSB).
    levels: Vec<f64>,
    /// Per whole LSB j: how many levels are at or below j. It ends where every level is.
    below: Vec<u32>,
}

impl Transitions {
    fn new(levels: Vec<f64>) -> Transitions {
        let n = levels.len();
        let top = levels.last().map_or(0.0, |&l| l.max(0.0).ceil());
        let len = n.max(top as usize) + 2;
        let mut below = Vec::with_capacity(len);
        let mut k = 0;
        for j in 0..len {
            while k < n && levels[k] <= j as f64 {
                k += 1;
            }
            below.push(k as u32);
        }
        Transitions { levels, below }
    }

    /// How many levels are at or below `lsb` > 0: `levels.partition_point(|l| l <= lsb)`.
    ///
    /// With j = floor(lsb), the levels at or below j all count and those above j + 1 do
    /// not: only the few between (about one) are compared. This is the hot loop of the
    /// quantisation study (hundreds of millions of conversions), where a binary search over
    /// a 16-bit table took sixteen dependent loads per conversion; a device's levels stray
    /// up to hundreds of LSB from the ideal ones at 16 bits, so the ideal code is no guess.
    fn at_or_below(&self, lsb: f64) -> usize {
        // lsb > 0: the cast truncates (saturating for huge inputs), which is the floor.
        let j = lsb as usize;
        let (lo, hi) = match (self.below.get(j), self.below.get(j + 1)) {
            (Some(&lo), Some(&hi)) => (lo as usize, hi as usize),
            _ => return self.levels.len(),
        };
        lo + self.levels[lo..hi]
            .iter()
            .filter(|&&level| level <= lsb)
            .count()
    }
}

/// A static error's size for one device: |N(0, typ/2)| clipped at the bound.
fn magnitude<R: Rng>(rng: &mut R, figure: LsbFigure) -> f64 {
    let Some(typ) = figure.typ_lsb() else {
        return 0.0;
    };
    let bound = figure.max_lsb().unwrap_or(2.0 * typ);
    let z: f64 = StandardNormal.sample(rng);
    (z.abs() * typ / 2.0).min(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count per whole LSB gives what a binary search over the whole table gives, for
    /// levels far from the ideal ones too, on a level and off either end.
    #[test]
    fn count_per_lsb_is_partition_point() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for spread in [0.0, 0.7, 3.0, 40.0, 500.0] {
            for len in [0usize, 1, 2, 3, 63, 1023] {
                let shift = spread * (rng.random::<f64>() - 0.5);
                let mut levels: Vec<f64> = (1..=len)
                    .map(|k| k as f64 - 0.5 + shift + spread * (rng.random::<f64>() - 0.5))
                    .collect();
                levels.sort_by(f64::total_cmp);
                let transitions = Transitions::new(levels.clone());
                for _ in 0..2000 {
                    let lsb =
                        (len as f64 + 2.0 * spread + 4.0) * rng.random::<f64>() - spread - 2.0;
                    let lsb = if rng.random_bool(0.1) && len > 0 {
                        levels[rng.random_range(0..len)]
                    } else if rng.random_bool(0.1) {
                        lsb.floor()
                    } else {
                        lsb
                    };
                    if lsb.is_nan() || lsb <= 0.0 {
                        continue;
                    }
                    let want = levels.partition_point(|&l| l <= lsb);
                    assert_eq!(transitions.at_or_below(lsb), want, "{spread} {len} {lsb}");
                }
            }
        }
    }
}
