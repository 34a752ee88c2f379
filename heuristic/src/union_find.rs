//! A fixed-capacity disjoint-set forest over node indices, shared by the rules (who has
//! won), the solvers (which nodes a short merges) and the emulator's physical network (which
//! parts are cut off).

use crate::MAX_NODES;

/// Disjoint sets over `0..N` (N ≤ 256), no allocation. Roots are the smallest index of
/// their set, so results do not depend on the order of unions.
///
/// ```
/// let mut sets = heuristic::UnionFind::<4>::new();
/// sets.union(3, 1);
/// assert!(sets.same(1, 3));
/// assert_eq!(sets.find(3), 1);
/// assert!(!sets.same(0, 2));
/// ```
#[derive(Clone, Debug)]
pub struct UnionFind<const N: usize = MAX_NODES> {
    parent: [u8; N],
}

impl<const N: usize> Default for UnionFind<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> UnionFind<N> {
    /// Every index in a set of its own.
    pub fn new() -> Self {
        const { assert!(N <= 256, "indices are stored as u8") };
        let mut parent = [0u8; N];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        UnionFind { parent }
    }

    /// The root of `i`'s set.
    pub fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            let grand = self.parent[self.parent[i] as usize];
            self.parent[i] = grand;
            i = grand as usize;
        }
        i
    }

    /// Joins the sets of `a` and `b`.
    pub fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        // Keep the smaller index as root so that roots are deterministic.
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[hi] = lo as u8;
    }

    /// Whether `a` and `b` are in one set.
    pub fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }
}
