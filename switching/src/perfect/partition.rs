//! Matroid partition into two forests (Edmonds; Knuth's augmenting paths).
//!
//! A set of edges splits into two forests exactly when it is independent in the union of
//! two graphic matroids. [`Packing`] keeps such a split of the *active* elements it was
//! given and grows it one element at a time along shortest augmenting paths of the
//! exchange graph: `u → z` when `z` sits in forest `i`, `u` does not, and swapping them
//! keeps forest `i` acyclic; a path ends at an element that enters some forest freely.
//! Whether an element could be added ([`Packing::augmentable`]) is whether such a path
//! exists; [`Reach`] answers that for many new elements at once.

/// No element: a root's parent edge, an element in neither forest.
const NONE: u32 = u32::MAX;

/// One forest, rooted: parent links for path queries.
#[derive(Clone, Debug, Default)]
struct Forest {
    /// Parent vertex and the element joining it; roots have `NONE`.
    up: Vec<(u32, u32)>,
    depth: Vec<u32>,
    root: Vec<u32>,
    /// The vertices in the order they were entered: every parent before its children.
    order: Vec<u32>,
}

impl Forest {
    /// Roots every tree of the forest whose adjacency lists are `adj`.
    fn rebuild(&mut self, adj: &Adjacency, stack: &mut Vec<(u32, usize)>) {
        let n = adj.start.len() - 1;
        self.up.clear();
        self.up.resize(n, (0, NONE));
        self.depth.clear();
        self.depth.resize(n, u32::MAX);
        self.root.clear();
        self.root.resize(n, 0);
        self.order.clear();
        for r in 0..n {
            if self.depth[r] != u32::MAX {
                continue;
            }
            let r = r as u32;
            self.depth[ix(r)] = 0;
            self.root[ix(r)] = r;
            self.order.push(r);
            stack.push((r, 0));
            while let Some((v, k)) = stack.last_mut() {
                let v = ix(*v);
                if let Some(&(w, el)) = adj.of(v).get(*k) {
                    *k += 1;
                    if el == self.up[v].1 {
                        continue;
                    }
                    let w_ = ix(w);
                    self.up[w_] = (v as u32, el);
                    self.depth[w_] = self.depth[v] + 1;
                    self.root[w_] = r;
                    self.order.push(w);
                    stack.push((w, 0));
                } else {
                    stack.pop();
                }
            }
        }
    }

    fn connected(&self, a: u32, b: u32) -> bool {
        self.root[ix(a)] == self.root[ix(b)]
    }

    /// Calls `visit` on each element of the forest path from `a` to `b` until it returns
    /// true; `None` when `a` and `b` lie in different trees.
    fn any_on_path(
        &self,
        mut a: u32,
        mut b: u32,
        mut visit: impl FnMut(u32) -> bool,
    ) -> Option<bool> {
        if !self.connected(a, b) {
            return None;
        }
        while a != b {
            let (da, db) = (self.depth[ix(a)], self.depth[ix(b)]);
            let v = if da >= db { &mut a } else { &mut b };
            let (parent, el) = self.up[ix(*v)];
            if visit(el) {
                return Some(true);
            }
            *v = parent;
        }
        Some(false)
    }

    /// For every vertex, the elements on its path to the root as a set of `words` words
    /// (vertex `v`'s at `v * words`): the path between two vertices of one tree is the
    /// symmetric difference of theirs.
    fn root_paths(&self, words: usize) -> Vec<u64> {
        let mut paths = vec![0u64; self.up.len() * words];
        for &v in &self.order {
            let (parent, el) = self.up[ix(v)];
            if el != NONE {
                let (p, v) = (ix(parent) * words, ix(v) * words);
                paths.copy_within(p..p + words, v);
                paths[v + ix(el) / 64] |= 1 << (el % 64);
            }
        }
        paths
    }
}

/// One forest's adjacency lists in one buffer, rebuilt in place (no allocation once grown,
/// and a packing clones in a few copies).
#[derive(Clone, Debug, Default)]
struct Adjacency {
    /// Vertex `v`'s neighbours are `slots[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    /// A neighbour and the element joining it.
    slots: Vec<(u32, u32)>,
}

impl Adjacency {
    fn of(&self, v: usize) -> &[(u32, u32)] {
        &self.slots[ix(self.start[v])..ix(self.start[v + 1])]
    }

    /// Both forests' lists over `vertices` vertices: forest `i` holds the elements among
    /// `ends` whose `owner` is `i`. One pass counts, one places.
    fn fill_both(adj: &mut [Adjacency; 2], vertices: usize, ends: &[[u32; 2]], owner: &[u8]) {
        for a in adj.iter_mut() {
            a.start.clear();
            a.start.resize(vertices + 1, 0);
        }
        let mut count = [0u32; 2];
        for (&[a, b], &o) in ends.iter().zip(owner) {
            if let Some(f) = adj.get_mut(usize::from(o)) {
                f.start[ix(a) + 1] += 1;
                f.start[ix(b) + 1] += 1;
                count[usize::from(o)] += 2;
            }
        }
        for (f, &count) in adj.iter_mut().zip(&count) {
            for v in 0..vertices {
                f.start[v + 1] += f.start[v];
            }
            f.slots.clear();
            f.slots.resize(ix(count), (0, 0));
        }
        // Fill from each list's end down, so `start` ends where it began.
        for (el, (&[a, b], &o)) in ends.iter().zip(owner).enumerate().rev() {
            if let Some(f) = adj.get_mut(usize::from(o)) {
                for (v, w) in [(b, a), (a, b)] {
                    let at = &mut f.start[ix(v) + 1];
                    *at -= 1;
                    f.slots[ix(*at)] = (w, el as u32);
                }
            }
        }
        // Each `start[v + 1]` now points at vertex v's first slot: shift back.
        for (f, &count) in adj.iter_mut().zip(&count) {
            f.start.copy_within(1.., 0);
            f.start[vertices] = count;
        }
    }
}

/// Two edge-disjoint forests over the active elements of a multigraph.
///
/// ```
/// use switching::perfect::partition::Packing;
/// // Two vertices joined three times: two edges fit (one per forest), the third is spanned.
/// let mut p = Packing::new(2, vec![[0, 1], [0, 1], [0, 1]]);
/// assert!(p.insert(0) && p.insert(1));
/// assert!(!p.augmentable(2));
/// // Without one of the first two, the third fits again.
/// p.remove(1);
/// assert!(p.augmentable(2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Packing {
    ends: Vec<[u32; 2]>,
    active: Vec<bool>,
    /// The forest (0 or 1) holding each element, or `NO_FOREST`.
    owner: Vec<u8>,
    forests: [Forest; 2],
    vertices: usize,
    adj: [Adjacency; 2],
    stack: Vec<(u32, usize)>,
}

const NO_FOREST: u8 = u8::MAX;

/// An index stored in 32 bits, as a `usize`.
fn ix(i: u32) -> usize {
    i as usize
}

impl Packing {
    /// An empty packing over `vertices` vertices and elements with these ends, all inactive.
    pub fn new(vertices: usize, ends: Vec<[u32; 2]>) -> Packing {
        let n = ends.len();
        let mut p = Packing {
            ends,
            active: vec![false; n],
            owner: vec![NO_FOREST; n],
            forests: Default::default(),
            vertices,
            adj: Default::default(),
            stack: Vec::new(),
        };
        p.rebuild();
        p
    }

    /// Gives element `el`, outside the ground set, new ends.
    pub fn set_ends(&mut self, el: usize, ends: [u32; 2]) {
        assert!(
            !self.active[el] && self.owner[el] == NO_FOREST,
            "element {el} is in use"
        );
        self.ends[el] = ends;
    }

    /// Whether element `el` lies in one of the forests.
    pub fn holds(&self, el: usize) -> bool {
        self.owner[el] != NO_FOREST
    }

    /// Whether element `el` is in the ground set.
    pub fn is_active(&self, el: usize) -> bool {
        self.active[el]
    }

    fn rebuild(&mut self) {
        Adjacency::fill_both(&mut self.adj, self.vertices, &self.ends, &self.owner);
        for (forest, adj) in self.forests.iter_mut().zip(&self.adj) {
            forest.rebuild(adj, &mut self.stack);
        }
    }

    /// Adds element `el` to the ground set and to the forests if it fits (after
    /// exchanges); returns whether it went in. A loop never does.
    pub fn insert(&mut self, el: usize) -> bool {
        self.active[el] = true;
        self.augment(&[el], true)
    }

    /// Adds `elements` to the ground set and packs them: first greedily (each into the
    /// first forest it leaves acyclic, one rebuild for all), then the ones left over by
    /// augmenting paths. The same maximum packing size as inserting them one by one, at a
    /// fraction of the rebuilds.
    pub fn fill(&mut self, elements: &[usize]) {
        let vertices = self.vertices;
        let mut sets = [
            petgraph::unionfind::UnionFind::<usize>::new(vertices),
            petgraph::unionfind::UnionFind::<usize>::new(vertices),
        ];
        for (el, &[a, b]) in self.ends.iter().enumerate() {
            if self.owner[el] != NO_FOREST {
                sets[usize::from(self.owner[el])].union(ix(a), ix(b));
            }
        }
        let mut rest = Vec::new();
        for &el in elements {
            self.active[el] = true;
            let [a, b] = self.ends[el].map(ix);
            if a == b || self.owner[el] != NO_FOREST {
                continue;
            }
            if sets[0].union(a, b) {
                self.owner[el] = 0;
            } else if sets[1].union(a, b) {
                self.owner[el] = 1;
            } else {
                rest.push(el);
            }
        }
        self.rebuild();
        for el in rest {
            self.augment(&[el], true);
        }
    }

    /// Takes element `el` out of the ground set; if it was in a forest, refills the
    /// packing from the active elements left out, so that it stays maximum.
    pub fn remove(&mut self, el: usize) {
        self.active[el] = false;
        if self.owner[el] != NO_FOREST {
            self.owner[el] = NO_FOREST;
            self.rebuild();
            let outside: Vec<usize> = (0..self.ends.len())
                .filter(|&e| self.active[e] && self.owner[e] == NO_FOREST)
                .collect();
            self.augment(&outside, true);
        }
    }

    /// Whether an (inactive or left-out) element `el` could join the forests: false means
    /// the active elements span it in the union matroid.
    pub fn augmentable(&mut self, el: usize) -> bool {
        self.augment(&[el], false)
    }

    /// Breadth-first search for a shortest augmenting path from any of `sources`; when
    /// `apply`, performs the exchanges along it.
    fn augment(&mut self, sources: &[usize], apply: bool) -> bool {
        let n = self.ends.len();
        let mut pred = vec![NONE; n];
        let mut seen = vec![false; n];
        let mut queue = std::collections::VecDeque::with_capacity(n);
        for &s in sources {
            seen[s] = true;
            queue.push_back(s);
        }
        while let Some(u) = queue.pop_front() {
            let [a, b] = self.ends[u];
            if a == b {
                continue;
            }
            for i in 0..2u8 {
                if self.owner[u] == i {
                    continue;
                }
                let forest = &self.forests[usize::from(i)];
                let found = forest.any_on_path(a, b, |z| {
                    let z = ix(z);
                    if !seen[z] {
                        seen[z] = true;
                        pred[z] = u as u32;
                        queue.push_back(z);
                    }
                    false
                });
                if found.is_none() {
                    // `u` enters forest `i` freely: shift every element of the path.
                    if apply {
                        let (mut w, mut into) = (u, i);
                        loop {
                            let left = self.owner[w];
                            self.owner[w] = into;
                            match pred[w] {
                                NONE => break,
                                p => (w, into) = (ix(p), left),
                            }
                        }
                        self.rebuild();
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Which forest elements can reach a free slot by exchanges, for [`Reach::admits`].
    pub fn reach(&self) -> Reach<'_> {
        let words = self.ends.len().div_ceil(64);
        let paths = [0, 1].map(|i| self.forests[i].root_paths(words));
        let mut reaches = vec![0u64; words];
        let set = |bits: &mut [u64], el: usize| bits[el / 64] |= 1 << (el % 64);
        // Each held element not reaching yet, with the elements of the other forest's
        // path between its ends.
        let mut waiting: Vec<(usize, Vec<u64>)> = Vec::new();
        for (z, &o) in self.owner.iter().enumerate() {
            if o == NO_FOREST {
                continue;
            }
            let j = usize::from(1 - o);
            let [a, b] = self.ends[z];
            if self.forests[j].connected(a, b) {
                let (a, b) = (ix(a) * words, ix(b) * words);
                let path = (0..words)
                    .map(|k| paths[j][a + k] ^ paths[j][b + k])
                    .collect();
                waiting.push((z, path));
            } else {
                set(&mut reaches, z);
            }
        }
        // `z` reaches when it could displace a reaching `w` of the other forest, that is
        // when `w` lies on the other forest's path between the ends of `z`: to a fixed point.
        loop {
            let before = waiting.len();
            waiting.retain(|(z, path)| {
                let hit = path.iter().zip(&reaches).any(|(p, r)| p & r != 0);
                if hit {
                    set(&mut reaches, *z);
                }
                !hit
            });
            if waiting.len() == before {
                break;
            }
        }
        Reach {
            packing: self,
            words,
            paths,
            reaches,
        }
    }
}

/// The elements of a packing from which an augmenting path starts.
#[derive(Debug)]
pub struct Reach<'a> {
    packing: &'a Packing,
    /// Words per element set.
    words: usize,
    /// Each forest's [`Forest::root_paths`].
    paths: [Vec<u64>; 2],
    /// The reaching elements, as a set.
    reaches: Vec<u64>,
}

impl Reach<'_> {
    /// Whether a new element joining `a` and `b` (one not in the forests) could be added:
    /// some forest leaves them apart, or its path between them holds a reaching element.
    pub fn admits(&self, [a, b]: [u32; 2]) -> bool {
        if a == b {
            return false;
        }
        let w = self.words;
        (0..2).any(|i| {
            if !self.packing.forests[i].connected(a, b) {
                return true;
            }
            let paths = &self.paths[i];
            let (a, b) = (ix(a) * w, ix(b) * w);
            (0..w).any(|k| (paths[a + k] ^ paths[b + k]) & self.reaches[k] != 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Reach::admits`] answers as the augmenting-path search does, element by element,
    /// on multigraphs of more than 64 elements (element sets of several words), both
    /// forests full and not.
    #[test]
    fn reach_admits_what_an_augmenting_path_adds() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as u32
        };
        let mut checked = 0;
        for (vertices, held) in [(20, 40), (20, 44), (30, 60), (12, 30)] {
            // 64 loops first (never in a forest), so that every reaching element lies past
            // the first word; `held` edges in the ground set, then 40 probes: a spare each.
            let mut ends: Vec<[u32; 2]> = (0..64)
                .map(|_| [0, 0])
                .chain((0..held + 1).map(|_| [next(vertices), next(vertices)]))
                .collect();
            let held = held + 64;
            let spare = held;
            let mut packing = Packing::new(vertices, ends.clone());
            packing.fill(&(0..held).collect::<Vec<_>>());
            let probes: Vec<[u32; 2]> = (0..40).map(|_| [next(vertices), next(vertices)]).collect();
            let admitted: Vec<bool> = {
                let reach = packing.reach();
                probes.iter().map(|&p| reach.admits(p)).collect()
            };
            for (&probe, admits) in probes.iter().zip(admitted) {
                ends[spare] = probe;
                packing.set_ends(spare, probe);
                assert_eq!(
                    admits,
                    packing.augmentable(spare),
                    "{vertices} vertices, {probe:?}"
                );
                checked += usize::from(admits);
            }
        }
        // Both answers occur.
        assert!(checked > 0 && checked < 160, "{checked} admitted of 160");
    }
}
