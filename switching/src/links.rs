//! Every minimal weak link on N vertices, up to isomorphism, as Steane searched for them:
//! nauty's `geng` lists the connected graphs, the [sieve](crate::link::sieve) keeps the
//! terminal pairs that might carry one, the [solver](crate::link::solve) decides, and
//! `labelg` keeps one link per isomorphism class (the terminals a colour class of their own,
//! so swapping them is an isomorphism).
//!
//! The search splits into independent parts with geng's `res/mod`: [`run_part`] runs one,
//! [`Part`]'s text form stores it, and [`merge`] makes the report from all of them, so the
//! parts of a large run can go to a cluster as a job array and come back as files.

use std::collections::BTreeSet;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::enumerate::{GENG, LABELG, NautyError, finish, spawn, terminals_first};
use crate::graph6::SimpleGraph;
use crate::link::reduce::{Irreducible, Reductions};
use crate::link::sieve::{Shape, candidate_pairs};
use crate::link::{Link, MAX_VERTICES as LINK_MAX, Set, Strength};

/// The most vertices a search takes (geng's graphs on 12 vertices number 1.6 × 10^11).
pub const MAX_VERTICES: usize = 12;

/// The number of connected graphs on n vertices, n = 0..=11 (OEIS A001349), for progress
/// bars and to check that every part came back.
pub const CONNECTED_GRAPHS: [u64; 12] = [
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
];

/// One of `count` parts of a search, numbered from 1 as a person (and a job array) counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartId {
    /// 1..=count.
    pub index: u32,
    /// How many parts the search has.
    pub count: u32,
}

impl fmt::Display for PartId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `K/P` that is not a part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("part {0:?} is not K/P with 1 <= K <= P (e.g. 3/16)")]
pub struct PartIdError(String);

impl FromStr for PartId {
    type Err = PartIdError;
    fn from_str(text: &str) -> Result<PartId, PartIdError> {
        let bad = || PartIdError(text.to_string());
        let (k, p) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = p.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(PartId { index, count })
    }
}

/// A weak link as found: a graph in geng's labelling and its terminals.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Found {
    /// The graph.
    pub graph: SimpleGraph,
    /// Its terminals.
    pub terminals: [usize; 2],
}

/// What one part of a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Vertices of every graph.
    pub vertices: usize,
    /// Which part.
    pub id: PartId,
    /// Connected graphs geng listed in this part.
    pub graphs: u64,
    /// Graphs with at least one terminal pair left by the sieve.
    pub sieved: u64,
    /// Terminal pairs solved.
    pub pairs: u64,
    /// Of them, weak links.
    pub weak: u64,
    /// Of them, minimal weak links (isomorphic copies within one graph included).
    pub links: Vec<Found>,
}

/// Why a search or a merge failed.
#[derive(Debug, thiserror::Error)]
pub enum LinksError {
    /// nauty failed.
    #[error(transparent)]
    Nauty(#[from] NautyError),
    /// Vertex count out of range.
    #[error("{0} vertices: the search takes 3 to {MAX_VERTICES}")]
    Vertices(usize),
    /// A part file that does not read.
    #[error("line {line}: {message}")]
    PartFile {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Parts of different searches, or missing ones.
    #[error("{0}")]
    Parts(String),
}

/// Decodes a graph6 line of at most 62 vertices into adjacency masks; `None` if it is not
/// one.
fn small_adjacency(line: &[u8], adjacency: &mut [Set; LINK_MAX]) -> Option<usize> {
    let n = usize::from(line.first()?.checked_sub(63)?);
    if n > LINK_MAX || line.len() != 1 + (n * n.saturating_sub(1) / 2).div_ceil(6) {
        return None;
    }
    adjacency[..n].fill(0);
    let mut bit = 0usize;
    for v in 1..n {
        for u in 0..v {
            let byte = line[1 + bit / 6].checked_sub(63)?;
            if byte >> (5 - bit % 6) & 1 == 1 {
                adjacency[u] |= 1 << v;
                adjacency[v] |= 1 << u;
            }
            bit += 1;
        }
    }
    Some(n)
}

/// Runs one part of the search for minimal weak links on `vertices` vertices; `progress`
/// hears how many graphs were read, every few thousand.
pub fn run_part(
    vertices: usize,
    id: PartId,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Part, LinksError> {
    if !(3..=MAX_VERTICES).contains(&vertices) {
        return Err(LinksError::Vertices(vertices));
    }
    let n = vertices.to_string();
    let split = format!("{}/{}", id.index - 1, id.count);
    let (geng, mut child) = spawn(GENG, &["-c", "-q", &n, &split])?;
    drop(child.stdin.take());
    let out = child.stdout.take().expect("piped");
    let mut part = Part {
        vertices,
        id,
        graphs: 0,
        sieved: 0,
        pairs: 0,
        weak: 0,
        links: Vec::new(),
    };
    let mut adjacency = [0 as Set; LINK_MAX];
    let mut reported = 0u64;
    let mut reader = BufReader::with_capacity(1 << 16, out);
    let mut line = Vec::with_capacity(64);
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|source| NautyError::Io {
                program: geng,
                source,
            })?;
        if read == 0 {
            break;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let Some(n) = small_adjacency(text, &mut adjacency) else {
            let text = String::from_utf8_lossy(text).into_owned();
            let error = text
                .parse::<SimpleGraph>()
                .err()
                .unwrap_or(crate::graph6::Graph6Error::TooLarge(0));
            return Err(NautyError::Output {
                program: geng,
                line: text,
                error,
            }
            .into());
        };
        part.graphs += 1;
        if part.graphs - reported >= 1 << 14 {
            progress(part.graphs - reported);
            reported = part.graphs;
        }
        let shape = Shape::new(&adjacency[..n]);
        let pairs = candidate_pairs(&shape);
        if pairs.is_empty() {
            continue;
        }
        part.sieved += 1;
        for terminals in pairs {
            part.pairs += 1;
            let link = Link::from_adjacency(&adjacency[..n], terminals)
                .expect("geng's graphs are small and simple");
            if link.strength() != Strength::Weak {
                continue;
            }
            part.weak += 1;
            if link.is_minimal_at(Strength::Weak) {
                part.links.push(Found {
                    graph: link.graph(),
                    terminals,
                });
            }
        }
    }
    progress(part.graphs - reported);
    finish(geng, child)?;
    Ok(part)
}

impl fmt::Display for Part {
    /// The part file: a header, one `link GRAPH6 S T` line per link, and `end` so that a
    /// part cut short by a crash is never taken for a finished one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# birdcage links: one part of a search for minimal weak links"
        )?;
        writeln!(f, "vertices {}", self.vertices)?;
        writeln!(f, "part {}", self.id)?;
        writeln!(f, "graphs {}", self.graphs)?;
        writeln!(f, "sieved {}", self.sieved)?;
        writeln!(f, "pairs {}", self.pairs)?;
        writeln!(f, "weak {}", self.weak)?;
        for found in &self.links {
            let [s, t] = found.terminals;
            writeln!(f, "link {} {s} {t}", found.graph)?;
        }
        writeln!(f, "end")
    }
}

impl FromStr for Part {
    type Err = LinksError;
    fn from_str(text: &str) -> Result<Part, LinksError> {
        let mut fields: [Option<u64>; 5] = [None; 5];
        const NAMES: [&str; 5] = ["vertices", "graphs", "sieved", "pairs", "weak"];
        let mut id = None;
        let mut links = Vec::new();
        let mut ended = false;
        let err = |line: usize, message: String| LinksError::PartFile { line, message };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            if ended {
                return Err(err(line, "text after `end`".into()));
            }
            let words: Vec<&str> = content.split_whitespace().collect();
            match words.as_slice() {
                ["end"] => ended = true,
                ["part", k] => {
                    id = Some(k.parse::<PartId>().map_err(|e| err(line, e.to_string()))?)
                }
                ["link", g6, s, t] => {
                    let graph: SimpleGraph = g6
                        .parse()
                        .map_err(|e| err(line, format!("graph {g6}: {e}")))?;
                    let vertex = |w: &str| -> Result<usize, LinksError> {
                        w.parse::<usize>()
                            .ok()
                            .filter(|&v| v < graph.vertices())
                            .ok_or_else(|| {
                                err(line, format!("terminal {w} is not a vertex of {g6}"))
                            })
                    };
                    let terminals = [vertex(s)?, vertex(t)?];
                    links.push(Found { graph, terminals });
                }
                [name, value] if NAMES.contains(name) => {
                    let k = NAMES.iter().position(|n| n == name).expect("listed");
                    let number = value
                        .parse()
                        .map_err(|_| err(line, format!("{name} {value:?} is not a count")))?;
                    fields[k] = Some(number);
                }
                _ => return Err(err(line, format!("not a part line: {content:?}"))),
            }
        }
        let last = text.lines().count().max(1);
        if !ended {
            return Err(err(last, "no `end` line: the part did not finish".into()));
        }
        let get = |k: usize| fields[k].ok_or_else(|| err(last, format!("no `{}` line", NAMES[k])));
        let vertices = get(0)? as usize;
        let id = id.ok_or_else(|| err(last, "no `part` line".into()))?;
        if let Some(bad) = links.iter().find(|f| f.graph.vertices() != vertices) {
            return Err(err(
                last,
                format!("link {} does not have {vertices} vertices", bad.graph),
            ));
        }
        Ok(Part {
            vertices,
            id,
            graphs: get(1)?,
            sieved: get(2)?,
            pairs: get(3)?,
            weak: get(4)?,
            links,
        })
    }
}

/// A link in canonical form: terminals 0 and 1, labelled by `labelg`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Canonical(pub SimpleGraph);

impl Canonical {
    /// The link (terminals 0 and 1).
    pub fn link(&self) -> Link {
        Link::new(&self.0, [0, 1]).expect("canonical links are small")
    }
}

/// Canonical forms of links given as graphs with terminals, in order, from one `labelg` run.
pub fn canonical_forms(links: &[Found]) -> Result<Vec<Canonical>, NautyError> {
    if links.is_empty() {
        return Ok(Vec::new());
    }
    let (labelg, mut child) = spawn(LABELG, &["-q", "-faa"])?;
    let input = child.stdin.take().expect("piped");
    let output = child.stdout.take().expect("piped");
    let lines: Vec<String> = links
        .iter()
        .map(|f| {
            let [s, t] = f.terminals;
            f.graph
                .relabel(&terminals_first(f.graph.vertices(), s, t))
                .to_string()
        })
        .collect();
    let feeder = std::thread::spawn(move || -> io::Result<()> {
        let mut sink = io::BufWriter::new(input);
        for line in lines {
            writeln!(sink, "{line}")?;
        }
        sink.flush()
    });
    let mut out = Vec::with_capacity(links.len());
    for line in BufReader::new(output).lines() {
        let line = line.map_err(|source| NautyError::Io {
            program: labelg,
            source,
        })?;
        let graph = line.parse().map_err(|error| NautyError::Output {
            program: labelg,
            line: line.clone(),
            error,
        })?;
        out.push(Canonical(graph));
    }
    feeder
        .join()
        .expect("the feeding thread does not panic")
        .map_err(|source| NautyError::Io {
            program: labelg,
            source,
        })?;
    finish(labelg, child)?;
    Ok(out)
}

/// One minimal weak link of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeakLink {
    /// Canonical form, terminals 0 and 1.
    pub link: Canonical,
    /// Its pivots.
    pub pivots: Vec<usize>,
    /// Whether a terminal is a pendant (it then yields a minimal strong link).
    pub pendant: bool,
    /// Its reductions.
    pub reductions: Reductions,
}

/// Every minimal weak link on N vertices and what follows from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// N.
    pub vertices: usize,
    /// Connected graphs read.
    pub graphs: u64,
    /// Graphs the sieve kept.
    pub sieved: u64,
    /// Terminal pairs solved.
    pub pairs: u64,
    /// Minimal weak links on N vertices, one per isomorphism class, sorted.
    pub weak: Vec<WeakLink>,
    /// Minimal strong links on N − 1 vertices from the weak links with a pendant terminal,
    /// one per isomorphism class, sorted.
    pub strong: Vec<Canonical>,
}

impl Report {
    /// The minimal weak links without each reduction (table 2's columns).
    pub fn weak_irreducible(&self) -> Irreducible {
        Irreducible::count(self.weak.iter().map(|w| w.reductions))
    }

    /// How many minimal weak links are S-irreducible (table 1's last column).
    pub fn s_irreducible(&self) -> usize {
        self.weak_irreducible().s as usize
    }

    /// The spread of the minimal weak links (table 2's middle columns).
    pub fn weak_spread(&self) -> Option<Spread> {
        let links: Vec<Link> = self.weak.iter().map(|w| w.link.link()).collect();
        Spread::of(&links)
    }

    /// The spread of the minimal strong links (table 3's middle columns).
    pub fn strong_spread(&self) -> Option<Spread> {
        let links: Vec<Link> = self.strong.iter().map(Canonical::link).collect();
        Spread::of(&links)
    }

    /// The minimal strong links without each reduction (table 3's columns).
    pub fn strong_irreducible(&self) -> Irreducible {
        Irreducible::count(self.strong.iter().map(|c| Reductions::of(&c.link())))
    }
}

/// The shape of a set of links as tables 2 and 3 give it: the smallest centre (play vertices
/// next to neither terminal), and the least and most edges and largest degree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spread {
    /// The smallest centre.
    pub centre: u32,
    /// Fewest and most edges.
    pub edges: [u32; 2],
    /// Least and most of the largest vertex degree.
    pub max_degree: [u32; 2],
}

impl Spread {
    /// The spread of `links`; `None` for none.
    pub fn of<'a>(links: impl IntoIterator<Item = &'a Link>) -> Option<Spread> {
        links
            .into_iter()
            .map(|l| {
                let [s, t] = l.terminals();
                let centre = l.play_area() & !l.neighbours(s) & !l.neighbours(t);
                let edges = l.edges().len() as u32;
                let degree = (0..l.vertices()).map(|v| l.degree(v)).max().unwrap_or(0);
                Spread {
                    centre: centre.count_ones(),
                    edges: [edges; 2],
                    max_degree: [degree; 2],
                }
            })
            .reduce(|a, b| Spread {
                centre: a.centre.min(b.centre),
                edges: [a.edges[0].min(b.edges[0]), a.edges[1].max(b.edges[1])],
                max_degree: [
                    a.max_degree[0].min(b.max_degree[0]),
                    a.max_degree[1].max(b.max_degree[1]),
                ],
            })
    }
}

/// The report from every part of one search: checks that the parts belong together and
/// that none is missing, then keeps one link per isomorphism class and derives the strong
/// links.
pub fn merge(parts: &[Part]) -> Result<Report, LinksError> {
    let first = parts
        .first()
        .ok_or_else(|| LinksError::Parts("no parts to merge".into()))?;
    let (vertices, count) = (first.vertices, first.id.count);
    let mut seen = BTreeSet::new();
    for part in parts {
        if part.vertices != vertices || part.id.count != count {
            return Err(LinksError::Parts(format!(
                "part {} on {} vertices does not belong with part {} on {vertices}",
                part.id, part.vertices, first.id
            )));
        }
        if !seen.insert(part.id.index) {
            return Err(LinksError::Parts(format!(
                "part {} is given twice",
                part.id
            )));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| !seen.contains(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(LinksError::Parts(format!(
            "parts {} of {count} are missing",
            missing.join(", ")
        )));
    }
    let found: Vec<Found> = parts.iter().flat_map(|p| p.links.iter().cloned()).collect();
    let canonical: BTreeSet<Canonical> = canonical_forms(&found)?.into_iter().collect();
    let mut weak = Vec::new();
    let mut pendant_strong = Vec::new();
    for link in canonical {
        let l = link.link();
        let pendant_terminal = [0, 1].into_iter().find(|&t| l.degree(t) == 1);
        if let Some(p) = pendant_terminal {
            let other = 1 - p;
            let neighbour = l.neighbours(p).trailing_zeros() as usize;
            // Strip the pendant: the strong link runs from its neighbour to the other end.
            let keep: Vec<usize> = (0..l.vertices()).filter(|&v| v != p).collect();
            let index = |v: usize| keep.iter().position(|&k| k == v).expect("kept");
            let edges: Vec<[usize; 2]> = l
                .edges()
                .into_iter()
                .filter(|e| !e.contains(&p))
                .map(|[u, v]| [index(u), index(v)])
                .collect();
            let graph = SimpleGraph::new(keep.len(), edges).expect("a subgraph is simple");
            pendant_strong.push(Found {
                graph,
                terminals: [index(neighbour), index(other)],
            });
        }
        weak.push(WeakLink {
            pivots: l.pivots(),
            pendant: pendant_terminal.is_some(),
            reductions: Reductions::of(&l),
            link,
        });
    }
    let strong: BTreeSet<Canonical> = canonical_forms(&pendant_strong)?.into_iter().collect();
    Ok(Report {
        vertices,
        graphs: parts.iter().map(|p| p.graphs).sum(),
        sieved: parts.iter().map(|p| p.sieved).sum(),
        pairs: parts.iter().map(|p| p.pairs).sum(),
        weak,
        strong: strong.into_iter().collect(),
    })
}

/// The file of part `id` of a search on `vertices` vertices, in `dir`.
pub fn part_path(dir: &Path, vertices: usize, id: PartId) -> PathBuf {
    dir.join(format!(
        "links-{vertices}-part-{}-of-{}.txt",
        id.index, id.count
    ))
}

/// Writes a part's file whole or not at all (a temporary file renamed into place), so that a
/// run killed at any moment leaves only finished parts behind.
pub fn save_part(dir: &Path, part: &Part) -> io::Result<PathBuf> {
    let path = part_path(dir, part.vertices, part.id);
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, part.to_string())?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Why a stored part could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoredPartError {
    /// The file could not be read (not a regular file, more than [`MAX_PART_BYTES`], an
    /// I/O error).
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why (the error's source, so that a chain prints it once).
        source: boards::read::ReadError,
    },
    /// The file does not read as a part, or is another search's.
    #[error("{path}: {error}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: LinksError,
    },
}

/// The largest part file read: a part lists the weak links it found (kilobytes on 10
/// vertices), so 64 MiB is far past any real one.
pub const MAX_PART_BYTES: u64 = 64 << 20;

/// The stored part `id`, if its file exists; an error if it exists but is not that part.
pub fn load_part(dir: &Path, vertices: usize, id: PartId) -> Result<Option<Part>, StoredPartError> {
    let path = part_path(dir, vertices, id);
    let text = match boards::read::text(&path, MAX_PART_BYTES) {
        Ok(text) => text,
        Err(boards::read::ReadError::Missing) => return Ok(None),
        Err(source) => return Err(StoredPartError::Read { path, source }),
    };
    let part: Part = text.parse().map_err(|error| StoredPartError::Bad {
        path: path.clone(),
        error,
    })?;
    if part.vertices != vertices || part.id != id {
        return Err(StoredPartError::Bad {
            path,
            error: LinksError::Parts(format!(
                "holds part {} on {} vertices, not part {id} on {vertices}",
                part.id, part.vertices
            )),
        });
    }
    Ok(Some(part))
}

/// Steane's published counts (the seed `004_…`), for comparison only: nothing is tuned to
/// them, and the tests check the project's counts against searches with no sieve.
pub mod paper {
    use crate::link::reduce::Irreducible;

    /// Table 1, by N: graphs kept by the paper's sieve (None where the seed's table has no
    /// entry).
    pub fn sieved(vertices: usize) -> Option<u64> {
        Some(match vertices {
            3 | 5 => 1,
            4 | 6 => 0,
            7 => 9,
            8 => 35,
            9 => 737,
            10 => 21_523,
            _ => return None,
        })
    }

    /// Table 1, by N: minimal weak links and the S-irreducible ones.
    pub fn table_1(vertices: usize) -> Option<(u64, u64)> {
        Some(match vertices {
            3 => (1, 1),
            4 | 6 | 8 => (0, 0),
            5 => (1, 0),
            7 => (5, 1),
            9 => (36, 8),
            10 => (24, 7),
            11 => (953, 312),
            _ => return None,
        })
    }

    const fn row(links: u64, s: u64, p: u64, t: u64, spt: u64) -> Irreducible {
        Irreducible {
            links,
            s,
            p,
            t,
            spt,
        }
    }

    /// Table 2, by weight: minimal weak links and the S-, P-, T- and SPT-irreducible ones
    /// (weights 2, 4 and 6 have none; the table skips them). Its row for weight 1 says W1 is
    /// S-reducible, where table 1 counts it S-irreducible.
    pub fn weak(weight: usize) -> Option<Irreducible> {
        Some(match weight {
            1 => row(1, 0, 1, 1, 0),
            2 | 4 | 6 => row(0, 0, 0, 0, 0),
            3 => row(1, 0, 0, 0, 0),
            5 => row(5, 1, 1, 2, 0),
            7 => row(36, 8, 8, 20, 2),
            8 => row(24, 7, 24, 24, 7),
            9 => row(953, 312, 544, 766, 208),
            _ => return None,
        })
    }

    /// Tables 2 (weak) and 3 (strong), by weight: the smallest centre (None where the table
    /// leaves it blank: W1, S0 and S2, whose borders overlap), the range of edges and of the
    /// largest degree.
    pub fn spread(strong: bool, weight: usize) -> Option<(Option<u32>, [u32; 2], [u32; 2])> {
        Some(match (strong, weight) {
            (false, 1) => (None, [2, 2], [2, 2]),
            (false, 3) => (Some(0), [5, 5], [3, 3]),
            (false, 5) => (Some(1), [8, 9], [3, 4]),
            (false, 7) => (Some(2), [11, 13], [3, 5]),
            (false, 8) => (Some(3), [14, 16], [4, 5]),
            (false, 9) => (Some(3), [14, 21], [3, 6]),
            (true, 0) => (None, [1, 1], [1, 1]),
            (true, 2) => (None, [4, 4], [2, 2]),
            (true, 4) => (Some(0), [7, 8], [3, 3]),
            (true, 6) => (Some(0), [10, 12], [3, 4]),
            (true, 7) => (Some(1), [13, 15], [4, 5]),
            (true, 8) => (Some(1), [13, 20], [3, 6]),
            _ => return None,
        })
    }

    /// Table 3, by weight: minimal strong links and the S-, P-, T- and SPT-irreducible ones
    /// (odd weights up to 5 have none; the table skips them).
    pub fn strong(weight: usize) -> Option<Irreducible> {
        Some(match weight {
            0 => row(1, 1, 1, 1, 1),
            1 | 3 | 5 => row(0, 0, 0, 0, 0),
            2 => row(1, 0, 0, 1, 0),
            4 => row(2, 1, 0, 1, 0),
            6 => row(14, 4, 2, 6, 0),
            7 => row(10, 10, 10, 5, 5),
            8 => row(304, 196, 163, 204, 120),
            _ => return None,
        })
    }
}
