//! Steane's reductions (section 4): ways a link splits into smaller problems, each easy to
//! spot.
//!
//! - **S** (Shannon): the link induces a smaller Shannon game of weight 2 or more: a set X of
//!   play vertices, at least two and not all of them, whose neighbourhood outside X is
//!   exactly two vertices (the induced game's terminals). A single vertex of degree 2 is such
//!   a game of weight 1 in any link, so weight 1 does not count: otherwise W5Z, which the
//!   paper calls S-irreducible, would not be.
//! - **P** (pair): two play vertices whose induced multi-Shannon game Short wins moving
//!   second: u and v have the same neighbours besides each other, two or more of them (a
//!   mutually supporting pair; in a minimal link no dead transverse edge hides one). The
//!   pair may be the whole play area (the bridge S2 is P-reducible, table 3).
//! - **T** (short-cut): two adjacent play vertices x and y, x of degree 2 next to one
//!   terminal, y next to the other (so x is at distance 2 from it).
//!
//! With these readings the project's irreducible counts equal every S, P, T and SPT entry of
//! the paper's tables 2 and 3 that the project reaches, but for W1 and S2 (see the README).

use super::{Link, Set, bits};

/// The most play vertices [`s_reducible`] searches (2^k subsets).
pub const MAX_PLAY_S: usize = 20;

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

/// A pair `[u, v]` of play vertices whose induced multi-Shannon game Short wins moving
/// second, if the link has one (the first in vertex order): whichever of the two Cut takes,
/// the other alone touches every vertex around the pair. That is, u and v have the same
/// neighbours besides each other, two or more of them: a mutually supporting pair.
pub fn supporting_pair(link: &Link) -> Option<[usize; 2]> {
    let play: Vec<usize> = bits(link.play_area()).collect();
    play.iter().enumerate().find_map(|(i, &u)| {
        play[i + 1..].iter().find_map(|&v| {
            let around_u = link.neighbours(u) & !(1 << v);
            let around_v = link.neighbours(v) & !(1 << u);
            (around_u == around_v && around_u.count_ones() >= 2).then_some([u, v])
        })
    })
}

/// Whether the link is P-reducible.
pub fn p_reducible(link: &Link) -> bool {
    supporting_pair(link).is_some()
}

/// Which of the three reductions a link has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reductions {
    /// S: a smaller induced Shannon game of weight 2 or more.
    pub s: bool,
    /// P: a mutually supporting pair.
    pub p: bool,
    /// T: a short-cut.
    pub t: bool,
}

impl Reductions {
    /// The reductions of `link` (S counted absent when its play area is too large to
    /// search).
    pub fn of(link: &Link) -> Reductions {
        Reductions {
            s: s_reducible(link).unwrap_or(false),
            p: p_reducible(link),
            t: t_reducible(link),
        }
    }

    /// None of the three.
    pub fn irreducible(self) -> bool {
        !(self.s || self.p || self.t)
    }
}

/// How many links of a set lack each reduction, as the paper's tables 2 and 3 count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Irreducible {
    /// Links in the set.
    pub links: u64,
    /// S-irreducible.
    pub s: u64,
    /// P-irreducible.
    pub p: u64,
    /// T-irreducible.
    pub t: u64,
    /// Irreducible by all three.
    pub spt: u64,
}

impl Irreducible {
    /// The counts over a set of links' reductions.
    pub fn count(set: impl IntoIterator<Item = Reductions>) -> Irreducible {
        set.into_iter()
            .fold(Irreducible::default(), |c, r| Irreducible {
                links: c.links + 1,
                s: c.s + u64::from(!r.s),
                p: c.p + u64::from(!r.p),
                t: c.t + u64::from(!r.t),
                spt: c.spt + u64::from(r.irreducible()),
            })
    }
}
