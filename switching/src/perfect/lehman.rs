//! Lehman's theorem, turned into verdicts for either side to move.
//!
//! Short wins as second player (Cut to move) iff the reduced graph holds two
//! edge-disjoint trees spanning one vertex set that contains both terminals. In the union
//! of two graphic matroids that is one question: is the edge `x = Q0` spanned by the
//! resistors? (A circuit through `x` has 2k−1 edges on its k vertices, so without `x` it
//! is two spanning trees of them; conversely two such trees plus `x` are dependent.)
//!
//! Short to move wins iff some move `f` makes `x` spanned. Shorting `f` contracts it,
//! which for this question is the same as doubling it (adding a parallel copy `f'`), so:
//! if `x` is spanned already, every move wins; otherwise `f` wins iff `f'` is not spanned
//! by the resistors but is by the resistors and `x` (matroid exchange: then `x` is
//! spanned by the resistors and `f'`). Cut to move wins iff `x` is not spanned, and a cut
//! `e` wins iff Short, to move without `e`, has no winning move.

use heuristic::Side;

use super::partition::Packing;
use super::reduced::Reduced;

/// A position's resistors in a maximum two-forest packing, with `x = Q0` as the last
/// element (inactive).
#[derive(Clone, Debug)]
pub(crate) struct Game {
    /// Each element's edge index on the board.
    edges: Vec<usize>,
    ends: Vec<[u32; 2]>,
    /// Whether each element lies on a simple path between the terminals
    /// ([`Reduced::relevant`]); only those enter the packing, the others are passes.
    relevant: Vec<bool>,
    packing: Packing,
}

impl Game {
    pub(crate) fn new(reduced: Reduced) -> Game {
        let relevant = reduced.relevant();
        let (edges, mut ends): (Vec<usize>, Vec<[u32; 2]>) = reduced.resistors.into_iter().unzip();
        ends.push(reduced.terminals);
        // A spare element: a copy of one of Short's moves, for `still_wins`.
        ends.push([0, 0]);
        let mut packing = Packing::new(reduced.vertices, ends.clone());
        packing.fill(
            &(0..edges.len())
                .filter(|&e| relevant[e])
                .collect::<Vec<_>>(),
        );
        Game {
            edges,
            ends,
            relevant,
            packing,
        }
    }

    fn x(&self) -> usize {
        self.edges.len()
    }

    /// Lehman's criterion: Short wins with Cut to move.
    pub(crate) fn short_wins_second(&mut self) -> bool {
        let x = self.x();
        !self.packing.augmentable(x)
    }

    /// Short's winning moves with Short to move (element indices), stopping at the first
    /// one when `first_only`. Unless `keep`, the packing is spent on the answer (it takes
    /// `x`), which spares a copy when the game is not asked anything else.
    fn short_winning(&mut self, first_only: bool, keep: bool) -> Vec<usize> {
        if self.short_wins_second() {
            // Every resistor wins, the irrelevant ones (never in the packing) included.
            return (0..self.edges.len())
                .filter(|&e| !self.relevant[e] || self.packing.is_active(e))
                .collect();
        }
        // A move off every terminal-to-terminal path is a pass, which does not win here.
        let active: Vec<usize> = (0..self.edges.len())
            .filter(|&e| self.relevant[e] && self.packing.is_active(e))
            .collect();
        let free: Vec<bool> = {
            let reach = self.packing.reach();
            (0..self.edges.len())
                .map(|f| reach.admits(self.ends[f]))
                .collect()
        };
        let mut with_x = if keep {
            self.packing.clone()
        } else {
            std::mem::take(&mut self.packing)
        };
        with_x.insert(self.x());
        let reach = with_x.reach();
        let mut wins = Vec::new();
        for f in active {
            if free[f] && !reach.admits(self.ends[f]) {
                wins.push(f);
                if first_only {
                    break;
                }
            }
        }
        wins
    }

    /// Cut's winning moves with Cut to move (element indices), stopping at the first one
    /// when `first_only`. A cut of a resistor outside the forests leaves them a maximum
    /// packing, so Short's replies are those he has now, less that resistor; any other
    /// cut is tried on a copy of the packing.
    fn cut_winning(&mut self, first_only: bool) -> Vec<usize> {
        if self.short_wins_second() {
            return Vec::new();
        }
        let replies_now = self.short_winning(false, true);
        if replies_now.is_empty() {
            // Short loses even moving first, so Cut wins moving second, and an extra cut
            // never hurts Cut: every move wins.
            let all = 0..self.edges.len();
            return if first_only {
                all.take(1).collect()
            } else {
                all.collect()
            };
        }
        let mut wins = Vec::new();
        for e in 0..self.edges.len() {
            let short_can_win = if !self.relevant[e] {
                // Cutting it is a pass, and Short has a winning move now.
                true
            } else if self.packing.holds(e) {
                let mut after = self.clone();
                after.packing.remove(e);
                // Usually one of Short's winning replies still wins without `e`: trying
                // one first is cheaper than the search over all of them.
                let quick = replies_now.iter().find(|&&f| f != e);
                quick.is_some_and(|&f| after.clone().still_wins(f))
                    || !after.short_winning(true, false).is_empty()
            } else {
                replies_now.iter().any(|&f| f != e)
            };
            if !short_can_win {
                wins.push(e);
                if first_only {
                    break;
                }
            }
        }
        wins
    }

    /// Whether shorting `f` makes Short win second (with `x` not yet spanned): `f`
    /// contracted is `f` doubled, so add a copy of it and ask whether `x` is spanned.
    fn still_wins(&mut self, f: usize) -> bool {
        let spare = self.x() + 1;
        self.packing.set_ends(spare, self.ends[f]);
        self.packing.insert(spare);
        !self.packing.augmentable(self.x())
    }

    /// The winning moves of `side`, to move here, as edge indices in board order.
    pub(crate) fn winning_moves(&mut self, side: Side, first_only: bool) -> Vec<usize> {
        let wins = match side {
            Side::Short => self.short_winning(first_only, true),
            Side::Cut => self.cut_winning(first_only),
        };
        wins.into_iter().map(|e| self.edges[e]).collect()
    }

    /// Who wins with perfect play, `side` to move (the game is spent on it).
    pub(crate) fn winner(mut self, side: Side) -> Side {
        let short_wins = match side {
            Side::Cut => self.short_wins_second(),
            Side::Short => !self.short_winning(true, false).is_empty(),
        };
        if short_wins { Side::Short } else { Side::Cut }
    }
}
