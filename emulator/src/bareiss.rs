//! Fraction-free Gaussian elimination (Bareiss) of a symmetric positive definite integer
//! system, shared by every exact solver of the crate: the cage's nodal system
//! ([`crate::exact`]), any graph's ([`crate::graphs`]) and Bridj-It 2.0's loop currents
//! ([`crate::mesh`]).
//!
//! Every entry stays an integer minor of the matrix, the last pivot is the determinant, and
//! back substitution gives det·x exactly. The elimination runs in `i64` and widens to
//! `i128`, `i256` and finally `BigInt` as Hadamard's bound requires. The matrices are
//! positive definite, so no pivoting is needed.
//!
//! Networks give sparse matrices, so a row whose entry in the pivot column is zero is not
//! touched at that step: Bareiss would only multiply it by pivot/previous pivot, and those
//! factors telescope, so the row is brought up to date once, when it is next needed
//! (multiplied by the current pivot's predecessor and divided by the one it was last
//! scaled to). Zero entries stay zero and cost a comparison. Callers that care order their
//! unknowns to keep fill-in small (see [`crate::graphs`]).

use ethnum::I256;
use num_bigint::BigInt;
use num_traits::Zero;

/// Integer arithmetic for the elimination: `None` means "overflowed, retry wider".
pub(crate) trait Ring: Clone + Sized {
    fn from_i64(v: i64) -> Self;
    fn is_zero(&self) -> bool;
    fn mul(&self, other: &Self) -> Option<Self>;
    fn sub(&self, other: &Self) -> Option<Self>;
    /// A divisor prepared for many exact divisions.
    type Divisor;
    fn divisor(d: &Self) -> Self::Divisor;
    /// self / d, known to be exact.
    fn div_exact(&self, d: &Self::Divisor) -> Self;
    fn into_big(self) -> BigInt;

    /// a·b − c·d.
    fn cross(a: &Self, b: &Self, c: &Self, d: &Self) -> Option<Self> {
        a.mul(b)?.sub(&c.mul(d)?)
    }
}

macro_rules! machine_ring {
    ($($t:ty: $checked_mul:expr, $checked_sub:expr);*) => {$(
        impl Ring for $t {
            fn from_i64(v: i64) -> Self {
                <$t>::from(v)
            }
            fn is_zero(&self) -> bool {
                *self == <$t>::from(0i64)
            }
            fn mul(&self, other: &Self) -> Option<Self> {
                $checked_mul(*self, *other)
            }
            fn sub(&self, other: &Self) -> Option<Self> {
                $checked_sub(*self, *other)
            }
            // Exact division without a hardware (or, for i128, software) divide: strip
            // the divisor's factors of two, then multiply by the inverse of its odd part
            // modulo 2^bits (Newton's iteration doubles the correct bits each step).
            type Divisor = (u32, $t);
            fn divisor(d: &Self) -> (u32, $t) {
                let shift = d.trailing_zeros();
                let odd = d >> shift;
                let mut inverse = odd;
                for _ in 0..7 {
                    let two = <$t>::from(2i64);
                    inverse = inverse.wrapping_mul(two.wrapping_sub(odd.wrapping_mul(inverse)));
                }
                (shift, inverse)
            }
            fn div_exact(&self, &(shift, inverse): &(u32, $t)) -> Self {
                (self >> shift).wrapping_mul(inverse)
            }
            fn into_big(self) -> BigInt {
                BigInt::from_signed_bytes_le(&self.to_le_bytes())
            }
        }
    )*};
}
machine_ring!(
    i64: i64::checked_mul, i64::checked_sub;
    i128: i128::checked_mul, i128::checked_sub;
    // i256 is only entered when the Hadamard bound guarantees no overflow (see
    // `solve`), and its checked multiply costs twice the wrapping one.
    I256: |a: I256, b| Some(a.wrapping_mul(b)), |a: I256, b| Some(a.wrapping_sub(b))
);

impl Ring for BigInt {
    fn from_i64(v: i64) -> Self {
        v.into()
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn mul(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn sub(&self, other: &Self) -> Option<Self> {
        Some(self - other)
    }
    type Divisor = BigInt;
    fn divisor(d: &Self) -> BigInt {
        d.clone()
    }
    fn div_exact(&self, d: &BigInt) -> Self {
        self / d
    }
    fn into_big(self) -> BigInt {
        self
    }
}

/// Solves A·x = b exactly for a row-major n×n `a`: returns (det A, det A · x). `None` on
/// overflow of `R`, or if a pivot vanishes (A not positive definite).
pub(crate) fn bareiss<R: Ring>(n: usize, g: &[i64], rhs: &[i64]) -> Option<(R, Vec<R>)> {
    let mut a: Vec<R> = g.iter().map(|&v| R::from_i64(v)).collect();
    let mut b: Vec<R> = rhs.iter().map(|&v| R::from_i64(v)).collect();
    // pivots[s] is the pivot that step s − 1 left behind (pivots[0] = 1): the divisor of
    // step s, and the scale of a row last brought up to date at step s.
    let mut pivots: Vec<R::Divisor> = Vec::with_capacity(n + 1);
    let mut scale: Vec<R> = Vec::with_capacity(n + 1);
    pivots.push(R::divisor(&R::from_i64(1)));
    scale.push(R::from_i64(1));
    // level[i]: the step row i is up to date with (its entries are those Bareiss has
    // after step level[i] − 1).
    let mut level = vec![0usize; n];
    for k in 0..n {
        catch_up(&mut a, &mut b, n, k, k, &mut level, &scale, &pivots)?;
        let pivot = a[k * n + k].clone();
        if pivot.is_zero() {
            return None;
        }
        for i in k + 1..n {
            if a[i * n + k].is_zero() {
                continue;
            }
            catch_up(&mut a, &mut b, n, i, k, &mut level, &scale, &pivots)?;
            let factor = a[i * n + k].clone();
            let divisor = &pivots[k];
            for j in k + 1..n {
                let (row, col) = (&a[i * n + j], &a[k * n + j]);
                a[i * n + j] = match (row.is_zero(), col.is_zero()) {
                    (true, true) => continue,
                    (false, true) => row.mul(&pivot)?.div_exact(divisor),
                    _ => R::cross(&pivot, row, &factor, col)?.div_exact(divisor),
                };
            }
            b[i] = R::cross(&pivot, &b[i], &factor, &b[k])?.div_exact(divisor);
            a[i * n + k] = R::from_i64(0);
            level[i] = k + 1;
        }
        level[k] = k + 1;
        pivots.push(R::divisor(&pivot));
        scale.push(pivot);
    }
    // After the last step the last pivot is det A.
    let det = scale.pop().unwrap_or_else(|| R::from_i64(1));
    let mut y: Vec<R> = vec![R::from_i64(0); n];
    for i in (0..n).rev() {
        let mut acc = det.mul(&b[i])?;
        for j in i + 1..n {
            let entry = &a[i * n + j];
            if !entry.is_zero() {
                acc = acc.sub(&entry.mul(&y[j])?)?;
            }
        }
        y[i] = acc.div_exact(&R::divisor(&a[i * n + i]));
    }
    Some((det, y))
}

/// Brings row `i` (from column `k` on) up to date with step `k`: the steps it skipped
/// each multiplied it by their pivot and divided by the one before, which telescopes to
/// one multiplication and one exact division.
#[allow(clippy::too_many_arguments)]
fn catch_up<R: Ring>(
    a: &mut [R],
    b: &mut [R],
    n: usize,
    i: usize,
    k: usize,
    level: &mut [usize],
    scale: &[R],
    pivots: &[R::Divisor],
) -> Option<()> {
    let from = level[i];
    if from == k {
        return Some(());
    }
    let (by, divisor) = (&scale[k], &pivots[from]);
    for entry in a[i * n + k..(i + 1) * n].iter_mut().chain([&mut b[i]]) {
        if !entry.is_zero() {
            *entry = entry.mul(by)?.div_exact(divisor);
        }
    }
    level[i] = k;
    Some(())
}

/// Bits that the largest intermediate of Bareiss on [A | b] can need: every entry is a
/// minor, bounded by Hadamard's product of row norms, and the elimination multiplies
/// two of them and sums up to n such products.
pub(crate) fn bits_needed(n: usize, g: &[i64], rhs: &[i64]) -> f64 {
    let minor_bits: f64 = (0..n)
        .map(|i| {
            let row = g[i * n..(i + 1) * n].iter().chain([&rhs[i]]);
            row.map(|&v| (v as f64).powi(2))
                .sum::<f64>()
                .sqrt()
                .max(1.0)
                .log2()
        })
        .sum();
    2.0 * minor_bits + (n.max(1) as f64).log2() + 2.0
}

/// Solves the symmetric positive definite system A·x = b (A row-major n×n) exactly:
/// (det A, det A · x), in the narrowest integer type that holds Bareiss on it (i64, i128,
/// i256, then BigInt). The tier Hadamard's bound guarantees is tried first; a narrower one
/// might have held, but a failed attempt costs more than the wider arithmetic. `None` if a
/// pivot vanishes (A is not positive definite).
pub(crate) fn solve(n: usize, g: &[i64], rhs: &[i64]) -> Option<(BigInt, Vec<BigInt>)> {
    fn big<R: Ring>((d, y): (R, Vec<R>)) -> (BigInt, Vec<BigInt>) {
        (d.into_big(), y.into_iter().map(Ring::into_big).collect())
    }
    let bits = bits_needed(n, g, rhs);
    let tier = |width: f64| bits < width - 1.0;
    None.or_else(|| {
        if tier(64.0) {
            bareiss::<i64>(n, g, rhs).map(big)
        } else {
            None
        }
    })
    .or_else(|| {
        if tier(128.0) {
            bareiss::<i128>(n, g, rhs).map(big)
        } else {
            None
        }
    })
    .or_else(|| {
        if tier(256.0) {
            bareiss::<I256>(n, g, rhs).map(big)
        } else {
            None
        }
    })
    .or_else(|| bareiss::<BigInt>(n, g, rhs))
}
