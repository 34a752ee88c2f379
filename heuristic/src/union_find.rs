//! A fixed-capacity disjoint-set forest over node indices, shared by the rules (who has
//! won) and the solvers (which nodes a short merges).

use crate::MAX_NODES;

#[derive(Clone, Debug)]
pub(crate) struct UnionFind {
    parent: [u8; MAX_NODES],
}

impl UnionFind {
    pub(crate) fn new() -> Self {
        let mut parent = [0u8; MAX_NODES];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        UnionFind { parent }
    }

    pub(crate) fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            let grand = self.parent[self.parent[i] as usize];
            self.parent[i] = grand;
            i = grand as usize;
        }
        i
    }

    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        // Keep the smaller index as root so that roots are deterministic.
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[hi] = lo as u8;
    }

    pub(crate) fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }
}
