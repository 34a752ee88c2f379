//! Steane's reductions (section 4): ways a link splits into smaller problems, each easy to
//! spot.
//!
//! - **S** (Shannon): the link induces a smaller Shannon game of weight 2 or more: a set X of
//!   play vertices, at least two and not all of them, whose neighbourhood outside X is
//!   exactly two vertices (the induced game's terminals). A single vertex of degree 2 is such
//!   a game of weight 1 in any link, so weight 1 does not count: otherwise W5Z, which the
//!   paper calls S-irreducible, would not be.
//! - **T** (short-cut): two adjacent play vertices x and y, x of degree 2 next to one
//!   terminal, y next to the other (so x is at distance 2 from it).
//!
//! The P-reduction (a mutually supporting pair) rests on the support relation of Steane's
//! earlier paper, which the seed does not define, and is not implemented.

use super::{Link, Set};

/// The most play vertices [`s_reducible`] searches (2^k subsets).
pub const MAX_PLAY_S: usize = 20;

/// The vertices of a set, in order.
fn bits(mut set: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let v = set.trailing_zeros() as usize;
            set &= set - 1;
            v
        })
    })
}

/// A set X of play vertices inducing a smaller Shannon game of weight 2 or more, if the link
/// has one (the first in mask order); `None` when it has none or its play area is larger
/// than [`MAX_PLAY_S`].
pub fn shannon_reduction(link: &Link) -> Option<Set> {
    let play: Vec<usize> = bits(link.play_area()).collect();
    let k = play.len();
    if k > MAX_PLAY_S {
        return None;
    }
    (0u32..1 << k)
        .filter(|m| (2..k as u32).contains(&m.count_ones()))
        .map(|m| bits(m).fold(0 as Set, |x, i| x | 1 << play[i]))
        .find(|&x| {
            let boundary = bits(x).fold(0 as Set, |b, v| b | link.neighbours(v)) & !x;
            boundary.count_ones() == 2
        })
}

/// Whether the link is S-reducible; `None` when its play area is too large to search.
pub fn s_reducible(link: &Link) -> Option<bool> {
    if link.play_area().count_ones() as usize > MAX_PLAY_S {
        return None;
    }
    Some(shannon_reduction(link).is_some())
}

/// A short-cut `[x, y]` (x of degree 2), if the link has one.
pub fn short_cut(link: &Link) -> Option<[usize; 2]> {
    let play = link.play_area();
    let [s, t] = link.terminals();
    bits(play).filter(|&x| link.degree(x) == 2).find_map(|x| {
        let around = link.neighbours(x);
        [(s, t), (t, s)].iter().find_map(|&(near, far)| {
            if around >> near & 1 == 0 {
                return None;
            }
            let y = (around & !(1 << near)).trailing_zeros() as usize;
            (play >> y & 1 == 1 && link.neighbours(y) >> far & 1 == 1).then_some([x, y])
        })
    })
}

/// Whether the link is T-reducible.
pub fn t_reducible(link: &Link) -> bool {
    short_cut(link).is_some()
}
