//! The resistor network of any graph ([`switching::Graph`]), solved exactly, and the
//! heuristic's move on it: Shannon's machine (Cut cuts the largest drop) and Bridj-It 2.0's
//! (Short shorts it) on any board, not only the cage.
//!
//! The network follows the cage's named models ([`heuristic::Model`]) with the graph's first
//! terminal at the supply and its second at ground: `ideal` is unit resistors and ideal
//! wires; `reference` adds a pull-up from every vertex but the supply terminal to the supply
//! (k vertices joined by wires have k pull-ups in parallel) and a series resistor from the
//! ground terminal to ground. The values are read from the cage's circuit
//! ([`Model::integer_circuit`]), so the two cannot drift apart.
//!
//! Wires are contracted (union-find), the groups classified as in [`heuristic::Reduction`]
//! (supply, ground, unknown, or floating: cut off from every source, so no current and drop
//! 0), the unknowns numbered in minimum-degree order (so that elimination fills in little:
//! graphs are sparse) and the nodal system solved by the same Bareiss elimination as the
//! cage's [`crate::exact`]. On [`Graph::cage`](switching::Graph::cage) the drops are the cage
//! solver's, exactly (`tests/graphs.rs`).

use std::collections::BTreeSet;

use heuristic::{EdgeState, Model, Size};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use petgraph::unionfind::UnionFind;
use switching::{Play, Vertex};

use crate::bareiss;
use crate::margin::FLOAT_MARGIN;

/// A model's parts as integer conductances, read from the cage's circuit of the same model
/// (every edge, every pull-up and the series resistor are uniform there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    supply: i64,
    edge: i64,
    pullup: Option<i64>,
    series: Option<i64>,
}

impl Parts {
    fn of(model: Model) -> Parts {
        let cage = model.integer_circuit(Size::MIN);
        // Node 0 in `Size::nodes` order is an internal node, which every model pulls up
        // if it pulls anything up.
        let pullup = cage.pullups[0];
        Parts {
            supply: cage.supply,
            edge: cage.edges[0],
            pullup: (pullup > 0).then_some(pullup),
            series: cage.series.filter(|&g| g > 0),
        }
    }
}

/// What a group of wire-joined vertices is in the nodal system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// The i-th unknown (numbered in elimination order).
    Unknown(usize),
    /// Joined to the supply terminal by wires.
    Supply,
    /// Joined to the ground terminal by wires, with no series resistor.
    Ground,
    /// No conducting path to a source: no current, no potential.
    Floating,
}

/// The most unknowns (groups of vertices a position leaves to solve for) that the exact
/// solver takes: it eliminates a dense n×n matrix (fraction-free, `i64` up to `BigInt`), so
/// memory grows as n² and time as n² to n³. Above it the float solve decides alone (see
/// [`heuristic_moves`]) and [`solve`] refuses (see [`check`]).
pub const MAX_EXACT_UNKNOWNS: usize = 500;

/// The most entries the elimination of a position may fill (the neighbour sets of the
/// minimum-degree elimination, summed): sparse graphs such as paths, grids and the cage fill
/// a few per unknown, random expanders fill a large part of n². Past it a position is
/// refused before its matrix is built, so that no graph makes the solvers run away in memory
/// (about 100 bytes an entry while ordering).
pub const MAX_FILL: usize = 2_000_000;

/// The most work an elimination of a position may take: the sum over its steps of the
/// pivot's neighbours squared (the updates that step makes). It bounds the time of the
/// ordering and of the sparse f64 solve (seconds at this figure; see the README).
pub const MAX_WORK: u64 = 20_000_000;

/// A position whose network is too large to solve here, with the figure that says so.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphSizeError {
    /// The elimination would fill more than [`MAX_FILL`] entries or take more than
    /// [`MAX_WORK`] updates.
    #[error(
        "{unknowns} unknowns whose elimination fills more than {fill} entries or takes more \
         than {work} updates: past what the solvers take in memory and time",
        fill = MAX_FILL,
        work = MAX_WORK
    )]
    Fill {
        /// Unknowns of the position.
        unknowns: usize,
    },
    /// More unknowns than the exact solver takes.
    #[error(
        "{unknowns} unknowns: exact drops are solved for at most {max} (a dense exact \
         elimination grows as the square of the unknowns)",
        max = MAX_EXACT_UNKNOWNS
    )]
    Exact {
        /// Unknowns of the position.
        unknowns: usize,
    },
}

/// How a position's network is solved: exactly (ties exact), or by the sparse f64 solve
/// alone (more than [`MAX_EXACT_UNKNOWNS`] unknowns; near-ties not exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// The exact solver breaks every near-tie.
    Exact,
    /// The f64 solve alone: resistors within 1e-9 of the supply of the largest drop count
    /// as tied, in file order.
    Float {
        /// Unknowns of the position.
        unknowns: usize,
    },
}

/// Whether a position's network can be solved here and how: `Err` past [`MAX_FILL`] (before
/// any matrix is built), [`Precision::Float`] past [`MAX_EXACT_UNKNOWNS`]. [`solve`] takes
/// positions that check as exact; [`heuristic_moves`] every position that checks `Ok`.
///
/// ```
/// use emulator::graphs::{Precision, check};
/// let g: switching::Graph = "terminals s t\ns m\nm t\ns t".parse().unwrap();
/// let play = switching::Play::new(&g, heuristic::Side::Cut);
/// assert_eq!(check(&play, heuristic::Model::Ideal), Ok(Precision::Exact));
/// ```
pub fn check(play: &Play, model: Model) -> Result<Precision, GraphSizeError> {
    let system = System::new(play, Parts::of(model))?;
    Ok(if system.n <= MAX_EXACT_UNKNOWNS {
        Precision::Exact
    } else {
        Precision::Float { unknowns: system.n }
    })
}

/// A position reduced to groups and its integer nodal system G·v = i, sparse: the diagonal,
/// and the off-diagonal entries of each row (a pair may appear more than once: entries add).
#[derive(Debug)]
struct System {
    parts: Parts,
    /// The group of each vertex (an index into `slots`).
    group: Vec<usize>,
    slots: Vec<Slot>,
    n: usize,
    diagonal: Vec<i64>,
    off: Vec<Vec<(usize, i64)>>,
    rhs: Vec<i64>,
}

impl System {
    fn new(play: &Play, parts: Parts) -> Result<System, GraphSizeError> {
        let graph = play.graph();
        let vertices = graph.vertices().len();
        let states = play.states();
        let mut wires = UnionFind::<usize>::new(vertices);
        for (e, &state) in graph.edges().iter().zip(states) {
            if state == EdgeState::Short {
                wires.union(e.ends[0], e.ends[1]);
            }
        }
        // Dense group numbers in order of each group's first vertex.
        let mut group_of_root = vec![usize::MAX; vertices];
        let mut group = Vec::with_capacity(vertices);
        let mut members: Vec<i64> = Vec::new();
        for v in 0..vertices {
            let root = wires.find_mut(v);
            if group_of_root[root] == usize::MAX {
                group_of_root[root] = members.len();
                members.push(0);
            }
            group.push(group_of_root[root]);
            members[group_of_root[root]] += 1;
        }
        let groups = members.len();
        let [supply_terminal, ground_terminal] = graph.terminals();
        let (top, bottom) = (group[supply_terminal], group[ground_terminal]);

        // Groups that a conducting path joins to a terminal; pull-ups join every group to
        // the supply.
        let mut paths = UnionFind::<usize>::new(groups);
        let mut neighbours: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); groups];
        for (e, &state) in graph.edges().iter().zip(states) {
            let (a, b) = (group[e.ends[0]], group[e.ends[1]]);
            if state == EdgeState::Resistor && a != b {
                paths.union(a, b);
                neighbours[a].insert(b);
                neighbours[b].insert(a);
            }
        }
        if parts.pullup.is_some() {
            for g in 0..groups {
                paths.union(g, top);
            }
        }
        let mut slots: Vec<Slot> = (0..groups)
            .map(|g| {
                if g == top {
                    // Also when Short has joined the terminals: everything is at the supply.
                    Slot::Supply
                } else if g == bottom && parts.series.is_none() {
                    Slot::Ground
                } else if paths.equiv(g, top) || paths.equiv(g, bottom) {
                    Slot::Unknown(usize::MAX)
                } else {
                    Slot::Floating
                }
            })
            .collect();
        let unknown = |slots: &[Slot], g: usize| matches!(slots[g], Slot::Unknown(_));
        for (g, set) in neighbours.iter_mut().enumerate() {
            if unknown(&slots, g) {
                set.retain(|&h| unknown(&slots, h));
            } else {
                set.clear();
            }
        }
        let unknowns = (0..groups).filter(|&g| unknown(&slots, g)).count();
        let order = min_degree_order_within(neighbours, |g| unknown(&slots, g), MAX_FILL, MAX_WORK)
            .ok_or(GraphSizeError::Fill { unknowns })?;
        let n = order.len();
        for (i, &g) in order.iter().enumerate() {
            slots[g] = Slot::Unknown(i);
        }

        let mut system = System {
            parts,
            group,
            slots,
            n,
            diagonal: vec![0; n],
            off: vec![Vec::new(); n],
            rhs: vec![0; n],
        };
        for (e, &state) in graph.edges().iter().zip(states) {
            if state == EdgeState::Resistor {
                let (a, b) = (system.group[e.ends[0]], system.group[e.ends[1]]);
                system.branch(system.slots[a], system.slots[b], parts.edge);
            }
        }
        if let Some(pullup) = parts.pullup {
            for (g, &k) in members.iter().enumerate() {
                // The supply terminal's group is the supply: its pull-ups carry nothing.
                system.branch(system.slots[g], Slot::Supply, k * pullup);
            }
        }
        if let Some(series) = parts.series {
            system.branch(system.slots[bottom], Slot::Ground, series);
        }
        Ok(system)
    }

    /// Stamps a conductance `g` between two slots.
    fn branch(&mut self, a: Slot, b: Slot, g: i64) {
        match (a, b) {
            (Slot::Unknown(i), Slot::Unknown(j)) if i != j => {
                self.diagonal[i] += g;
                self.diagonal[j] += g;
                self.off[i].push((j, -g));
                self.off[j].push((i, -g));
            }
            (Slot::Unknown(i), fixed @ (Slot::Supply | Slot::Ground))
            | (fixed @ (Slot::Supply | Slot::Ground), Slot::Unknown(i)) => {
                self.diagonal[i] += g;
                if fixed == Slot::Supply {
                    self.rhs[i] += g * self.parts.supply;
                }
            }
            _ => {}
        }
    }

    /// Each group's potential in units of the supply, by sparse f64 elimination in the
    /// same order (the unknowns are numbered in it): each step touches only the pivot's
    /// neighbours, so the work is that of the fill, never n².
    fn float_voltages(&self) -> Vec<f64> {
        let n = self.n;
        let mut rows: Vec<std::collections::HashMap<usize, f64>> =
            vec![std::collections::HashMap::new(); n];
        for (i, entries) in self.off.iter().enumerate() {
            for &(j, g) in entries {
                *rows[i].entry(j).or_insert(0.0) += g as f64;
            }
        }
        let mut diagonal: Vec<f64> = self.diagonal.iter().map(|&v| v as f64).collect();
        let mut b: Vec<f64> = self.rhs.iter().map(|&v| v as f64).collect();
        // Row k of the factor: the later unknowns it couples to, kept for back substitution.
        let mut upper: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for k in 0..n {
            let mut row: Vec<(usize, f64)> = std::mem::take(&mut rows[k]).into_iter().collect();
            // In index order: the same sums in the same order on every run.
            row.sort_unstable_by_key(|&(j, _)| j);
            let pivot = diagonal[k];
            for &(i, a_ik) in &row {
                rows[i].remove(&k);
                let m = a_ik / pivot;
                diagonal[i] -= m * a_ik;
                b[i] -= m * b[k];
                for &(j, a_kj) in &row {
                    if j != i {
                        *rows[i].entry(j).or_insert(0.0) -= m * a_kj;
                    }
                }
            }
            upper[k] = row;
        }
        let mut x = vec![0.0; n];
        for k in (0..n).rev() {
            let acc = upper[k].iter().fold(b[k], |acc, &(j, a)| acc - a * x[j]);
            x[k] = acc / diagonal[k];
        }
        let supply = self.parts.supply as f64;
        self.slots
            .iter()
            .map(|slot| match *slot {
                Slot::Unknown(u) => x[u] / supply,
                Slot::Supply => 1.0,
                Slot::Ground | Slot::Floating => 0.0,
            })
            .collect()
    }

    /// The exact solution: (det, det·v per group), by Bareiss on the dense matrix; only
    /// for at most [`MAX_EXACT_UNKNOWNS`] unknowns.
    fn exact(&self) -> Result<(BigInt, Vec<BigInt>), GraphSizeError> {
        let n = self.n;
        if n > MAX_EXACT_UNKNOWNS {
            return Err(GraphSizeError::Exact { unknowns: n });
        }
        let mut g = vec![0i64; n * n];
        for i in 0..n {
            g[i * n + i] = self.diagonal[i];
            for &(j, v) in &self.off[i] {
                g[i * n + j] += v;
            }
        }
        let (det, y) = match bareiss::solve(n, &g, &self.rhs) {
            Some((det, y)) if det.is_positive() => (det, y),
            // Every unknown is tied to a source by positive conductances.
            _ => unreachable!("the nodal system of a graph is positive definite"),
        };
        let supply = &det * BigInt::from(self.parts.supply);
        let scaled = self
            .slots
            .iter()
            .map(|slot| match *slot {
                Slot::Unknown(u) => y[u].clone(),
                Slot::Supply => supply.clone(),
                Slot::Ground | Slot::Floating => BigInt::zero(),
            })
            .collect();
        Ok((det, scaled))
    }
}

/// An elimination order of the nodes `keep` admits: repeatedly the node with the fewest
/// neighbours left (ties to the lowest index), its neighbours joined as elimination would
/// join them. Greedy minimum degree: far from optimal on expanders, but it keeps the fill
/// of grid-like boards and sparse random graphs small.
pub(crate) fn min_degree_order(
    neighbours: Vec<BTreeSet<usize>>,
    keep: impl Fn(usize) -> bool,
) -> Vec<usize> {
    min_degree_order_within(neighbours, keep, usize::MAX, u64::MAX).expect("no budget")
}

/// [`min_degree_order`], given up (`None`) as soon as the neighbour sets hold more than
/// `budget` entries in all, or the eliminated nodes' sets (the factor an elimination in this
/// order keeps) do: the fill, which bounds the elimination's memory; or as soon as the
/// steps' squared neighbour counts sum past `work`, which bounds its time.
pub(crate) fn min_degree_order_within(
    mut neighbours: Vec<BTreeSet<usize>>,
    keep: impl Fn(usize) -> bool,
    budget: usize,
    work: u64,
) -> Option<Vec<usize>> {
    let mut done: u64 = 0;
    let mut held: usize = neighbours.iter().map(BTreeSet::len).sum();
    let mut factor = 0;
    if held > budget {
        return None;
    }
    let mut left: BTreeSet<(usize, usize)> = (0..neighbours.len())
        .filter(|&v| keep(v))
        .map(|v| (neighbours[v].len(), v))
        .collect();
    let mut order = Vec::with_capacity(left.len());
    while let Some((degree, v)) = left.pop_first() {
        order.push(v);
        if degree == left.len() {
            // Eliminating v joins everything left into one clique: no order helps. The
            // clique's elimination fills and works as a dense one.
            let l = degree as u64;
            let fill = l * (l + 1) / 2;
            let squares = l * (l + 1) * (2 * l + 1) / 6;
            if factor as u64 + fill > budget as u64 || done.saturating_add(squares) > work {
                return None;
            }
            order.extend(left.iter().map(|&(_, u)| u));
            break;
        }
        let around = std::mem::take(&mut neighbours[v]);
        held -= around.len();
        factor += around.len();
        done = done.saturating_add((around.len() as u64).pow(2));
        if factor > budget || done > work {
            return None;
        }
        for &u in &around {
            left.remove(&(neighbours[u].len(), u));
            let before = neighbours[u].len();
            neighbours[u].remove(&v);
            neighbours[u].extend(around.iter().copied().filter(|&w| w != u));
            held = held + neighbours[u].len() - before;
            if held > budget {
                return None;
            }
            left.insert((neighbours[u].len(), u));
        }
    }
    Some(order)
}

/// Exact potentials of every vertex of a position on a graph.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphVoltages {
    det: BigInt,
    /// det·v per vertex (0 for floating vertices).
    scaled: Vec<BigInt>,
    floating: Vec<bool>,
    states: Vec<EdgeState>,
    ends: Vec<[Vertex; 2]>,
}

impl GraphVoltages {
    /// The common denominator (positive).
    pub fn denominator(&self) -> &BigInt {
        &self.det
    }

    /// det·v for each vertex, in the graph's vertex order; floating vertices read 0.
    pub fn scaled(&self) -> &[BigInt] {
        &self.scaled
    }

    /// The potential of `vertex` as a fraction of the supply; `None` if it floats (or is
    /// not a vertex of the graph).
    pub fn voltage(&self, vertex: Vertex) -> Option<BigRational> {
        (!*self.floating.get(vertex)?)
            .then(|| BigRational::new(self.scaled[vertex].clone(), self.det.clone()))
    }

    /// Whether `vertex` is cut off from both terminals and from every pull-up.
    pub fn is_floating(&self, vertex: Vertex) -> bool {
        self.floating.get(vertex).copied().unwrap_or(false)
    }

    /// The exact drop across `edge` relative to the supply, in lowest terms: 0 for a wire
    /// and for a floating resistor; `None` for a cut edge (or an index past the last edge).
    pub fn drop(&self, edge: usize) -> Option<BigRational> {
        self.scaled_drop(edge)
            .map(|d| BigRational::new(d, self.det.clone()))
    }

    /// Every edge's drop, in file order.
    pub fn drops(&self) -> Vec<Option<BigRational>> {
        (0..self.states.len()).map(|e| self.drop(e)).collect()
    }

    /// det × drop: drops compare exactly on this common scale.
    fn scaled_drop(&self, edge: usize) -> Option<BigInt> {
        if *self.states.get(edge)? == EdgeState::Cut {
            return None;
        }
        let [a, b] = self.ends[edge];
        Some((&self.scaled[a] - &self.scaled[b]).abs())
    }

    /// The resistors tied at the largest drop, in file order (empty if none is left).
    fn tied(&self) -> Vec<usize> {
        let resistors =
            || (0..self.states.len()).filter(|&e| self.states[e] == EdgeState::Resistor);
        let drops: Vec<(usize, BigInt)> = resistors()
            .filter_map(|e| Some((e, self.scaled_drop(e)?)))
            .collect();
        let Some(best) = drops.iter().map(|(_, d)| d).max() else {
            return Vec::new();
        };
        drops
            .iter()
            .filter(|(_, d)| d == best)
            .map(|&(e, _)| e)
            .collect()
    }
}

/// Exact voltages of a position on a graph under a named model; the supply is 1, so
/// values are fractions of it. Every valid graph and position solves: floating parts read
/// 0, and a supply shorted to ground by Short's wires puts everything at the supply.
///
/// ```
/// use emulator::graphs::solve;
/// use heuristic::{Model, Side};
/// // Two resistors in series, and a third in parallel with both.
/// let g: switching::Graph = "terminals s t\ns m\nm t\ns t".parse().unwrap();
/// let v = solve(&switching::Play::new(&g, Side::Cut), Model::Ideal);
/// let drops: Vec<String> = v.drops().iter().map(|d| d.as_ref().unwrap().to_string()).collect();
/// assert_eq!(drops, ["1/2", "1/2", "1"]);
/// ```
///
/// # Panics
///
/// On a position that [`check`] does not find [`Precision::Exact`]: [`try_solve`] returns
/// the error instead.
pub fn solve(play: &Play, model: Model) -> GraphVoltages {
    try_solve(play, model).unwrap_or_else(|e| panic!("{e}"))
}

/// [`solve`], or why the position is too large to solve exactly ([`check`]).
pub fn try_solve(play: &Play, model: Model) -> Result<GraphVoltages, GraphSizeError> {
    let system = System::new(play, Parts::of(model))?;
    voltages(play, &system)
}

fn voltages(play: &Play, system: &System) -> Result<GraphVoltages, GraphSizeError> {
    let (det, by_group) = system.exact()?;
    let scaled = system.group.iter().map(|&g| by_group[g].clone()).collect();
    let floating = system
        .group
        .iter()
        .map(|&g| system.slots[g] == Slot::Floating)
        .collect();
    Ok(GraphVoltages {
        det,
        scaled,
        floating,
        states: play.states().to_vec(),
        ends: play.graph().edges().iter().map(|e| e.ends).collect(),
    })
}

/// The heuristic's move for the side to move: the resistor with the largest exact drop,
/// ties to the first in file order. Cut cuts it (Shannon's machine), Short shorts it
/// (Bridj-It 2.0's). `None` once the game is over.
pub fn heuristic_move(play: &Play, model: Model) -> Option<usize> {
    heuristic_moves(play, model).first().copied()
}

/// Every move the heuristic might make when exact ties are broken either way: the
/// resistors tied at the largest exact drop, in file order; empty once the game is over.
///
/// The f64 solve decides when it leaves no doubt (as [`crate::players`] does on the cage):
/// every resistor within 1e-9 of the supply of the largest drop is known to carry exactly
/// the same current, because it joins the same two groups or (ideal model) continues the
/// same unbranched chain. Otherwise the exact solve ranks them; past
/// [`MAX_EXACT_UNKNOWNS`] ([`Precision::Float`]) it cannot, and the resistors within 1e-9
/// count as tied: exact ties are then not guaranteed.
///
/// # Panics
///
/// On a position [`check`] refuses (past [`MAX_FILL`]): [`try_heuristic_moves`] returns the
/// error instead.
pub fn heuristic_moves(play: &Play, model: Model) -> Vec<usize> {
    try_heuristic_moves(play, model).unwrap_or_else(|e| panic!("{e}"))
}

/// [`heuristic_moves`], or why the position is too large to solve ([`check`]).
pub fn try_heuristic_moves(play: &Play, model: Model) -> Result<Vec<usize>, GraphSizeError> {
    if play.to_move().is_none() {
        return Ok(Vec::new());
    }
    let system = System::new(play, Parts::of(model))?;
    let volts = system.float_voltages();
    if let Some(tied) = clear_choice(play, &system, &volts) {
        return Ok(tied);
    }
    if system.n > MAX_EXACT_UNKNOWNS {
        return Ok(near_largest(play, &system, &volts).unwrap_or_default());
    }
    Ok(voltages(play, &system)?.tied())
}

/// The resistors within [`FLOAT_MARGIN`] of the largest f64 drop, in file order; `None`
/// when the solve failed (NaN).
fn near_largest(play: &Play, system: &System, volts: &[f64]) -> Option<Vec<usize>> {
    let graph = play.graph();
    let drops: Vec<(usize, f64)> = play
        .resistors()
        .map(|e| {
            let [a, b] = graph.edges()[e].ends.map(|v| volts[system.group[v]]);
            (e, (a - b).abs())
        })
        .collect();
    let best = drops
        .iter()
        .map(|&(_, d)| d)
        .fold(f64::NEG_INFINITY, f64::max);
    if best.is_nan() {
        return None;
    }
    Some(
        drops
            .iter()
            .filter(|&&(_, d)| d >= best - FLOAT_MARGIN)
            .map(|&(e, _)| e)
            .collect(),
    )
}

/// The tied set from the f64 solve, when the resistors near the largest drop are all known
/// to be exactly equal and every other is below by [`FLOAT_MARGIN`]; `None` otherwise.
fn clear_choice(play: &Play, system: &System, volts: &[f64]) -> Option<Vec<usize>> {
    let graph = play.graph();
    let ends = |e: usize| graph.edges()[e].ends.map(|v| system.group[v]);
    let drops: Vec<(usize, f64)> = play
        .resistors()
        .map(|e| {
            let [a, b] = ends(e);
            (e, (volts[a] - volts[b]).abs())
        })
        .collect();
    let best = drops
        .iter()
        .map(|&(_, d)| d)
        .fold(f64::NEG_INFINITY, f64::max);
    if best.is_nan() || best <= FLOAT_MARGIN {
        // No resistor clearly carries current (or the solve failed): let exact decide.
        return None;
    }
    let near: Vec<usize> = drops
        .iter()
        .filter(|&&(_, d)| d >= best - FLOAT_MARGIN)
        .map(|&(e, _)| e)
        .collect();
    if near.len() == 1 {
        return Some(near);
    }
    // Resistors with exactly equal currents: the same two groups, or (no pull-ups, no
    // series resistor, all resistors equal) the two resistors of an unknown group with no
    // other connection, which Kirchhoff's current law makes carry one current.
    let mut same = UnionFind::<usize>::new(graph.edges().len());
    let mut by_pair = std::collections::HashMap::new();
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); system.slots.len()];
    for e in play.resistors() {
        let [a, b] = ends(e);
        if a == b {
            continue;
        }
        if let Some(&first) = by_pair.get(&(a.min(b), a.max(b))) {
            same.union(first, e);
        } else {
            by_pair.insert((a.min(b), a.max(b)), e);
        }
        incident[a].push(e);
        incident[b].push(e);
    }
    if system.parts.pullup.is_none() && system.parts.series.is_none() {
        for (g, edges) in incident.iter().enumerate() {
            if matches!(system.slots[g], Slot::Unknown(_)) && edges.len() == 2 {
                same.union(edges[0], edges[1]);
            }
        }
    }
    near.iter().all(|&e| same.equiv(e, near[0])).then_some(near)
}

/// The float drops of every edge (0 for wires, `None` for cut edges): what the heuristic's
/// pre-solve sees, for tests of its accuracy.
#[doc(hidden)]
pub fn float_drops(play: &Play, model: Model) -> Vec<Option<f64>> {
    let system = System::new(play, Parts::of(model)).unwrap_or_else(|e| panic!("{e}"));
    let volts = system.float_voltages();
    play.graph()
        .edges()
        .iter()
        .zip(play.states())
        .map(|(e, &state)| {
            (state != EdgeState::Cut).then(|| {
                let [a, b] = e.ends.map(|v| volts[system.group[v]]);
                (a - b).abs()
            })
        })
        .collect()
}
