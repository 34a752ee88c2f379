//! The brute force: minimal links of the vertex Shannon game by its rules alone, to check
//! the links search (`links`) and its reports against something that shares none of its code.
//!
//! This module imports nothing from the rest of the crate (`tests/brute_force.rs` checks its
//! source for it): its own game from the rules (the players claim any vertex but the
//! terminals in turn; Short has won once his vertices join the terminals, Cut once no path
//! through unclaimed and Short's vertices is left), plain minimax over every order of moves (a
//! position is won by the mover when some move wins, so the search stops at the first winning
//! move found, as `any` does, and skips none on a guess: no sieve, no memo, no move ordering,
//! no must-play rule, no play area), its own graph6 reading and its own canonical form
//! (every relabelling, the smallest edge mask). What it
//! shares with the search is nauty's `geng` for the listing of connected graphs, whose
//! count it checks against the known totals (OEIS A001349), so a pruned geng is refused.
//!
//! Exponential by design: (N − 2)! lines at worst, fine up to 12 vertices for one link.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// The most vertices: vertex sets are 16-bit masks, edge masks 128-bit.
pub const MAX_VERTICES: usize = 12;

/// The connected graphs on n vertices, n = 0..=12 (OEIS A001349), against which a listing
/// is checked complete.
pub const CONNECTED: [u64; MAX_VERTICES + 1] = [
    1,
    1,
    1,
    2,
    6,
    21,
    112,
    853,
    11_117,
    261_080,
    11_716_571,
    1_006_700_565,
    164_059_830_476,
];

/// A simple graph as adjacency masks (bit `u` of `adjacency[v]`: the edge `u`–`v`).
pub type Adjacency = Vec<u16>;

/// Why the brute force cannot read or list something.
#[derive(Debug, thiserror::Error)]
pub enum BruteError {
    /// Not a graph6 string of a graph on 1 to 12 vertices.
    #[error("`{0}` is not graph6 of a graph on 1 to {MAX_VERTICES} vertices")]
    Graph6(String),
    /// A terminal out of range, or both the same.
    #[error("terminals {0} and {1} are not two vertices of a graph on {2}")]
    Terminals(usize, usize, usize),
    /// A listing line that is not `weak|strong GRAPH6 S T`.
    #[error("line {0}: `{1}` is not `weak|strong GRAPH6 S T`")]
    Line(usize, String),
    /// A vertex count out of range.
    #[error("{0} vertices: the brute force lists 1 to {MAX_VERTICES}")]
    Vertices(usize),
    /// nauty's geng could not be run.
    #[error("cannot run nauty's geng (nauty-geng or geng) for {0} vertices: {1}")]
    Geng(usize, String),
    /// geng listed another number of graphs than there are: a pruned or broken geng.
    #[error(
        "geng ({program}) listed {listed} connected graphs on {vertices} vertices, not the \
         {known} there are (A001349): a pruned geng (the links' PRUNE hook) is first on PATH, \
         or a broken one"
    )]
    Incomplete {
        /// The program that ran.
        program: &'static str,
        /// How many it listed.
        listed: u64,
        /// The vertex count.
        vertices: usize,
        /// How many there are.
        known: u64,
    },
}

/// A link: a graph and its two terminals.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Game {
    adjacency: Adjacency,
    terminals: [usize; 2],
}

/// Which minimal link: weak (Short wins moving first, not second) or strong (moving second).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkKind {
    /// Short wins moving first only.
    Weak,
    /// Short wins moving second.
    Strong,
}

/// What the brute force finds wrong with a link given as minimal of its kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// Short does not win as the kind says.
    #[error("Short does not win moving {}", if *.0 == LinkKind::Weak { "first" } else { "second" })]
    NotWinning(LinkKind),
    /// Given as weak, but Short wins moving second too.
    #[error("strong, not weak: Short wins moving second")]
    Strong,
    /// An edge whose removal leaves Short winning.
    #[error("not minimal: Short still wins without edge {0}-{1}")]
    NotMinimal(usize, usize),
}

/// Reads graph6 (one line, no header) of a graph on 1 to [`MAX_VERTICES`] vertices.
pub fn graph6(text: &str) -> Result<Adjacency, BruteError> {
    let bad = || BruteError::Graph6(text.to_string());
    let bytes = text.trim_end().as_bytes();
    let (&first, rest) = bytes.split_first().ok_or_else(bad)?;
    let n = usize::from(first.checked_sub(63).ok_or_else(bad)?);
    if !(1..=MAX_VERTICES).contains(&n) || rest.len() != (n * (n - 1) / 2).div_ceil(6) {
        return Err(bad());
    }
    let mut bits = Vec::new();
    for &b in rest {
        let six = b.checked_sub(63).filter(|&v| v < 64).ok_or_else(bad)?;
        bits.extend((0..6).rev().map(|i| six >> i & 1 == 1));
    }
    let mut adjacency = vec![0u16; n];
    let mut k = 0;
    // graph6 lists the upper triangle column by column: (0,1), (0,2), (1,2), (0,3), ...
    for v in 1..n {
        for u in 0..v {
            if bits[k] {
                adjacency[u] |= 1 << v;
                adjacency[v] |= 1 << u;
            }
            k += 1;
        }
    }
    if bits[k..].iter().any(|&b| b) {
        return Err(bad());
    }
    Ok(adjacency)
}

impl Game {
    /// The link on `adjacency` between `terminals`.
    pub fn new(adjacency: Adjacency, terminals: [usize; 2]) -> Result<Game, BruteError> {
        let n = adjacency.len();
        let [s, t] = terminals;
        if s >= n || t >= n || s == t {
            return Err(BruteError::Terminals(s, t, n));
        }
        Ok(Game {
            adjacency,
            terminals,
        })
    }

    /// The graph.
    pub fn adjacency(&self) -> &[u16] {
        &self.adjacency
    }

    /// Short's two vertices.
    pub fn terminals(&self) -> [usize; 2] {
        self.terminals
    }

    /// Whether Short wins with perfect play, moving first or second.
    pub fn short_wins(&self, short_first: bool) -> bool {
        let [s, t] = self.terminals;
        let free = (0..self.adjacency.len())
            .filter(|&v| v != s && v != t)
            .fold(0u16, |set, v| set | 1 << v);
        self.play(1 << s | 1 << t, free, short_first)
    }

    /// Short holds `short`, `free` is unclaimed: whether Short wins, with Short to move when
    /// `short_to_move`. Cut's vertices are the rest. The mover wins when some move wins.
    fn play(&self, short: u16, free: u16, short_to_move: bool) -> bool {
        // The game is over once Short's vertices join the terminals, or once Cut's leave no
        // path through the rest.
        if self.joined(short) {
            return true;
        }
        if free == 0 || !self.joined(short | free) {
            return false;
        }
        let mut rest = free;
        while rest != 0 {
            let v = rest.trailing_zeros();
            rest &= rest - 1;
            let free = free & !(1 << v);
            let short_won = if short_to_move {
                self.play(short | 1 << v, free, false)
            } else {
                self.play(short, free, true)
            };
            if short_won == short_to_move {
                return short_won;
            }
        }
        !short_to_move
    }

    /// Whether Short's vertices `short` hold a path between the terminals: the vertices
    /// reached from the first terminal through `short`, one at a time.
    fn joined(&self, short: u16) -> bool {
        let [s, t] = self.terminals;
        let mut seen: u16 = 1 << s;
        let mut todo = seen;
        while todo != 0 {
            let v = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = self.adjacency[v] & short & !seen;
            seen |= new;
            todo |= new;
        }
        seen >> t & 1 == 1
    }

    /// The edges `[u, v]`, `u < v`.
    pub fn edges(&self) -> Vec<[usize; 2]> {
        let n = self.adjacency.len();
        (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| [u, v]))
            .filter(|&[u, v]| self.adjacency[u] >> v & 1 == 1)
            .collect()
    }

    /// The same link without the edge `u`–`v`.
    pub fn without(&self, [u, v]: [usize; 2]) -> Game {
        let mut game = self.clone();
        game.adjacency[u] &= !(1 << v);
        game.adjacency[v] &= !(1 << u);
        game
    }

    /// What is wrong with this link as a minimal link of `kind`; `None` when it is one: Short
    /// wins (moving first for weak, second for strong), a weak one is not strong, and with
    /// any one edge removed Short no longer wins so.
    pub fn fault(&self, kind: LinkKind) -> Option<Fault> {
        let short_first = kind == LinkKind::Weak;
        if !self.short_wins(short_first) {
            return Some(Fault::NotWinning(kind));
        }
        if kind == LinkKind::Weak && self.short_wins(false) {
            return Some(Fault::Strong);
        }
        self.edges()
            .into_iter()
            .find(|&e| self.without(e).short_wins(short_first))
            .map(|[u, v]| Fault::NotMinimal(u, v))
    }

    /// Whether this is a minimal link of `kind`.
    pub fn is_minimal(&self, kind: LinkKind) -> bool {
        self.fault(kind).is_none()
    }

    /// The canonical form, equal for two links exactly when they are isomorphic (terminals
    /// to terminals, either way round): the vertex count and the smallest edge mask over
    /// every relabelling that puts the terminals at 0 and 1. (N − 2)! × 2 relabellings.
    pub fn canonical(&self) -> (usize, u128) {
        let n = self.adjacency.len();
        let [s, t] = self.terminals;
        let mut rest: Vec<usize> = (0..n).filter(|&v| v != s && v != t).collect();
        let mut best = u128::MAX;
        let mut label = vec![0usize; n];
        permute(&mut rest, 0, &mut |order| {
            for [a, b] in [[s, t], [t, s]] {
                label[a] = 0;
                label[b] = 1;
                for (i, &v) in order.iter().enumerate() {
                    label[v] = i + 2;
                }
                let mut mask = 0u128;
                for [u, v] in self.edges() {
                    let (x, y) = (label[u].min(label[v]), label[u].max(label[v]));
                    mask |= 1 << (y * (y - 1) / 2 + x);
                }
                best = best.min(mask);
            }
        });
        (n, best)
    }
}

/// Calls `visit` with every order of `items[k..]`.
fn permute(items: &mut [usize], k: usize, visit: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items, k + 1, visit);
        items.swap(k, i);
    }
}

/// Every connected graph on `n` vertices up to isomorphism, from nauty's `geng -c`, checked
/// to be as many as there are ([`CONNECTED`]).
pub fn connected_graphs(n: usize) -> Result<Vec<Adjacency>, BruteError> {
    if !(1..=MAX_VERTICES).contains(&n) {
        return Err(BruteError::Vertices(n));
    }
    let geng_error = |e: &dyn std::fmt::Display| BruteError::Geng(n, e.to_string());
    let mut last = None;
    for program in ["nauty-geng", "geng"] {
        let spawned = Command::new(program)
            .args(["-c", "-q", &n.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                last = Some(e);
                continue;
            }
            Err(e) => return Err(geng_error(&e)),
        };
        let mut graphs = Vec::new();
        let stdout = child.stdout.take().expect("piped");
        for line in BufReader::new(stdout).lines() {
            graphs.push(graph6(&line.map_err(|e| geng_error(&e))?)?);
        }
        let out = child.wait_with_output().map_err(|e| geng_error(&e))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            return Err(geng_error(&format!("{}: {}", out.status, stderr.trim())));
        }
        if graphs.len() as u64 != CONNECTED[n] {
            return Err(BruteError::Incomplete {
                program,
                listed: graphs.len() as u64,
                vertices: n,
                known: CONNECTED[n],
            });
        }
        return Ok(graphs);
    }
    Err(geng_error(&last.expect("a program was tried")))
}

/// Every minimal link of `kind` among `graphs` with every terminal pair, one per isomorphism
/// class ([`Game::canonical`]).
pub fn minimal_links(graphs: &[Adjacency], kind: LinkKind) -> BTreeSet<(usize, u128)> {
    let mut found = BTreeSet::new();
    for adjacency in graphs {
        let n = adjacency.len();
        for s in 0..n {
            for t in s + 1..n {
                let game = Game {
                    adjacency: adjacency.clone(),
                    terminals: [s, t],
                };
                if game.is_minimal(kind) {
                    found.insert(game.canonical());
                }
            }
        }
    }
    found
}

/// One line of a links listing (`links-N.txt`: `weak GRAPH6 S T` or `strong GRAPH6 S T`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its line, 1-based.
    pub line: usize,
    /// Weak or strong.
    pub kind: LinkKind,
    /// The graph6 text.
    pub graph6: String,
    /// The link.
    pub game: Game,
}

/// The links of a listing as `birdcage links --out DIR` writes it (`links-N.txt`); `#` lines
/// and blank ones are skipped.
pub fn listing(text: &str) -> Result<Vec<Listed>, BruteError> {
    let mut links = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || BruteError::Line(i + 1, line.to_string());
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [kind, graph, s, t] = fields[..] else {
            return Err(bad());
        };
        let kind = match kind {
            "weak" => LinkKind::Weak,
            "strong" => LinkKind::Strong,
            _ => return Err(bad()),
        };
        let s = s.parse().map_err(|_| bad())?;
        let t = t.parse().map_err(|_| bad())?;
        links.push(Listed {
            line: i + 1,
            kind,
            graph6: graph.to_string(),
            game: Game::new(graph6(graph)?, [s, t])?,
        });
    }
    Ok(links)
}
