//! Every game on a small graph: each connected simple graph on N vertices with each pair of
//! terminals, up to isomorphism (an isomorphism may swap the terminals: swapping them is a
//! symmetry of the game).
//!
//! Two independent ways, so that the counts rest on more than one tool:
//!
//! - [`games`] asks nauty: `nauty-geng -c N` lists the connected graphs, each unordered
//!   vertex pair is relabelled to vertices 0 and 1, and `nauty-labelg -faa` labels every
//!   result canonically keeping {0, 1} a colour class of its own; equal outputs are the
//!   same game.
//! - [`brute_force`] is pure Rust: every labelled graph on N vertices with terminals 0 and
//!   1, kept when it is connected and its edge mask is the smallest over all vertex
//!   permutations that map {0, 1} to itself ([`canonical`]). Fine up to 7 vertices.
//!
//! The counts, both ways (`cargo run --release -p switching --example count_games 7`):
//! 1, 3, 16, 98, 879 and 11,260 games on 2, 3, 4, 5, 6 and 7 vertices (997 on 2..=6);
//! nauty alone: 230,505 on 8. nauty lists 7 vertices in 0.15 s, brute force in 0.6 s.
//!
//! Either way a game is a [`SimpleGraph`] whose terminals are vertices 0 and 1;
//! [`SimpleGraph::game`] makes it a board.

use std::collections::BTreeSet;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::graph6::{Graph6Error, SimpleGraph};

/// The most vertices [`games`] enumerates (9 vertices already give millions of lines).
pub const MAX_VERTICES: usize = 10;

/// The most vertices [`brute_force`] and [`canonical`] handle (8 would take minutes).
pub const MAX_BRUTE_FORCE: usize = 7;

/// Why nauty could not list the games.
#[derive(Debug, thiserror::Error)]
pub enum NautyError {
    /// The program is not on the PATH.
    #[error("{0} not found: install Debian's nauty package")]
    NotFound(&'static str),
    /// The program could not be started or talked to.
    #[error("running {program}")]
    Io {
        /// The program.
        program: &'static str,
        /// What failed.
        source: io::Error,
    },
    /// The program exited with an error.
    #[error("{program} failed ({status}): {stderr}")]
    Failed {
        /// The program.
        program: &'static str,
        /// Its exit status.
        status: std::process::ExitStatus,
        /// What it printed on stderr.
        stderr: String,
    },
    /// The program printed something that is not graph6.
    #[error("{program} printed {line:?}, which is not graph6: {error}")]
    Output {
        /// The program.
        program: &'static str,
        /// The line.
        line: String,
        /// What is wrong with it.
        error: Graph6Error,
    },
    /// geng's `-u` run printed no count of the graphs it listed, or a count that is neither
    /// every graph nor the PRUNE hook's.
    #[error(
        "{program} -c -u 7 printed no count of 853 graphs (every one) or 218 (the links' PRUNE \
         hook): {stderr:?}"
    )]
    NoCount {
        /// The program.
        program: &'static str,
        /// What it printed on stderr.
        stderr: String,
    },
    /// An earlier look at geng failed (the answer is kept for the process).
    #[error("asking geng whether it prunes: {0}")]
    Probe(String),
    /// A vertex count out of range.
    #[error("{0} vertices: games need 2 to {max} vertices", max = MAX_VERTICES)]
    Vertices(usize),
    /// geng listed fewer (or more) connected graphs than there are.
    #[error(
        "{program} listed {listed} connected graphs on {vertices} vertices, not the {known} \
         there are (OEIS A001349): a geng with the links' PRUNE hook is first on PATH, or a \
         broken one; put Debian's nauty-geng first"
    )]
    Incomplete {
        /// The program.
        program: &'static str,
        /// How many it listed.
        listed: u64,
        /// The vertex count.
        vertices: usize,
        /// How many there are.
        known: u64,
    },
    /// Every graph is needed, and the geng on PATH prunes.
    #[error(
        "the geng on PATH has the links' PRUNE hook (it lists 218 of the 853 connected graphs \
         on 7 vertices) and this needs every graph: put Debian's nauty-geng first on PATH"
    )]
    Pruned,
}

/// The number of connected graphs on n vertices, n = 0..=12 (OEIS A001349): every listing of
/// them is checked against it, so a pruned or broken geng is never taken for a whole one.
pub const CONNECTED: [u64; 13] = [
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

/// What the links' PRUNE hook (`nauty/prune.c`) lists of the 853 connected graphs on 7
/// vertices.
pub const PRUNED_ON_7: u64 = 218;

/// The Debian names of nauty's programs, then upstream's.
pub(crate) const GENG: [&str; 2] = ["nauty-geng", "geng"];
pub(crate) const LABELG: [&str; 2] = ["nauty-labelg", "labelg"];

/// Starts the first of `names` that exists.
pub(crate) fn spawn(
    names: [&'static str; 2],
    args: &[&str],
) -> Result<(&'static str, std::process::Child), NautyError> {
    for name in names {
        match Command::new(name)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(child) => return Ok((name, child)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(source) => {
                return Err(NautyError::Io {
                    program: name,
                    source,
                });
            }
        }
    }
    Err(NautyError::NotFound(names[0]))
}

/// Whether nauty's `geng` is installed: `Ok(false)` when no program of its names is on PATH
/// (a test may skip), an error when one is there but does not start or run `geng 1` cleanly
/// (a broken install is a failure, never a reason to skip).
pub fn nauty_available() -> Result<bool, NautyError> {
    runs(GENG)
}

/// The connected graphs on 7 vertices (OEIS A001349): what a plain `geng -c 7` lists.
const CONNECTED_ON_7: u64 = 853;

/// Whether the geng on the PATH carries the links search's PRUNE hook (`nauty/prune.c`, built
/// by `nauty/build-geng.sh`): it lists fewer than the 853 connected graphs on 7 vertices. The
/// search then lists only graphs that can carry a minimal weak link, and its parts say so.
/// Asked once per process (the PATH does not change under a running search).
pub fn geng_prunes() -> Result<bool, NautyError> {
    static PRUNES: std::sync::OnceLock<Result<bool, String>> = std::sync::OnceLock::new();
    let answer = PRUNES.get_or_init(|| {
        let ask = || -> Result<bool, NautyError> {
            let (program, child) = spawn(GENG, &["-c", "-u", "7"])?;
            let out = child
                .wait_with_output()
                .map_err(|source| NautyError::Io { program, source })?;
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            if !out.status.success() {
                return Err(NautyError::Failed {
                    program,
                    status: out.status,
                    stderr,
                });
            }
            prunes_by_count(&stderr).ok_or(NautyError::NoCount { program, stderr })
        };
        ask().map_err(|e| e.to_string())
    });
    answer.clone().map_err(NautyError::Probe)
}

/// Whether geng's count line for `-c -u 7` (`>Z 853 graphs generated in 0.00 sec`) shows the
/// PRUNE hook at work (exactly its 218); `None` for no count, or any other count (a geng that
/// lists some other subset is neither, and is never taken for the hook).
pub fn prunes_by_count(stderr: &str) -> Option<bool> {
    let count: u64 = stderr
        .lines()
        .find_map(|line| line.strip_prefix(">Z "))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    match count {
        CONNECTED_ON_7 => Some(false),
        PRUNED_ON_7 => Some(true),
        _ => None,
    }
}

/// geng's version, after checking it lists every graph (no PRUNE hook): what a study that
/// enumerates graphs names in its spec.
pub fn plain_geng() -> Result<String, NautyError> {
    if geng_prunes()? {
        return Err(NautyError::Pruned);
    }
    geng_version()
}

/// `listed` graphs on `vertices` vertices, checked to be every connected graph.
fn complete(program: &'static str, listed: u64, vertices: usize) -> Result<(), NautyError> {
    let known = CONNECTED[vertices];
    if listed == known {
        Ok(())
    } else {
        Err(NautyError::Incomplete {
            program,
            listed,
            vertices,
            known,
        })
    }
}

/// geng's version as it says it (`Nauty&Traces version 2.8001 (32 bits)`): part of what a
/// search computes, so the parts of another geng are another spec.
pub fn geng_version() -> Result<String, NautyError> {
    let (program, mut child) = spawn(GENG, &["--version"])?;
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        use std::io::Read as _;
        out.read_to_string(&mut text)
            .map_err(|source| NautyError::Io { program, source })?;
    }
    finish(program, child)?;
    let line = text.lines().next().unwrap_or("").trim().to_string();
    if line.is_empty() {
        return Err(NautyError::Output {
            program,
            line: String::new(),
            error: crate::graph6::Graph6Error::Empty,
        });
    }
    Ok(line)
}

/// Whether the first of `names` found runs `-c -q 1` cleanly ([`nauty_available`]).
fn runs(names: [&'static str; 2]) -> Result<bool, NautyError> {
    match spawn(names, &["-c", "-q", "1"]) {
        Ok((program, child)) => finish(program, child).map(|()| true),
        Err(NautyError::NotFound(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Waits for `child` and turns a failure into an error.
pub(crate) fn finish(program: &'static str, child: std::process::Child) -> Result<(), NautyError> {
    let out = child
        .wait_with_output()
        .map_err(|source| NautyError::Io { program, source })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(NautyError::Failed {
            program,
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }
}

/// The permutation that takes `s` to 0, `t` to 1 and the other vertices, in order, to 2….
pub(crate) fn terminals_first(n: usize, s: usize, t: usize) -> Vec<usize> {
    let mut map = vec![0; n];
    map[s] = 0;
    map[t] = 1;
    let mut next = 2;
    for (v, m) in map.iter_mut().enumerate() {
        if v != s && v != t {
            *m = next;
            next += 1;
        }
    }
    map
}

/// Every connected simple graph on `vertices` vertices up to isomorphism, in geng's
/// labelling and order.
pub fn connected_graphs(vertices: usize) -> Result<Vec<SimpleGraph>, NautyError> {
    if !(1..=MAX_VERTICES).contains(&vertices) {
        return Err(NautyError::Vertices(vertices));
    }
    let n = vertices.to_string();
    let (geng, mut child) = spawn(GENG, &["-c", "-q", &n])?;
    child.stdin = None; // closed: the child reads its end of input
    let out = child.stdout.take().expect("piped");
    let mut graphs = Vec::new();
    for line in BufReader::new(out).lines() {
        let line = line.map_err(|source| NautyError::Io {
            program: geng,
            source,
        })?;
        graphs.push(line.parse().map_err(|error| NautyError::Output {
            program: geng,
            line: line.clone(),
            error,
        })?);
    }
    finish(geng, child)?;
    complete(geng, graphs.len() as u64, vertices)?;
    Ok(graphs)
}

/// Every game on `vertices` vertices from nauty, each canonically labelled by `labelg`
/// with its terminals as vertices 0 and 1, sorted by their graph6 text.
///
/// ```no_run
/// let games = switching::enumerate::games(3).unwrap();
/// assert_eq!(games.len(), 3); // the path from an end, the path from its middle, the triangle
/// ```
pub fn games(vertices: usize) -> Result<Vec<SimpleGraph>, NautyError> {
    if !(2..=MAX_VERTICES).contains(&vertices) {
        return Err(NautyError::Vertices(vertices));
    }
    let n = vertices.to_string();
    let (geng, mut gen_child) = spawn(GENG, &["-c", "-q", &n])?;
    gen_child.stdin = None; // closed: the child reads its end of input
    let gen_out = gen_child.stdout.take().expect("piped");
    let (labelg, mut label_child) = spawn(LABELG, &["-q", "-faa"])?;
    let label_in = label_child.stdin.take().expect("piped");
    let label_out = label_child.stdout.take().expect("piped");
    // geng's graphs go through a thread into labelg while this thread reads labelg's
    // answers, so that neither pipe fills up.
    let feeder = std::thread::spawn(move || -> Result<u64, NautyError> {
        let mut sink = io::BufWriter::new(label_in);
        let mut listed = 0;
        for line in BufReader::new(gen_out).lines() {
            listed += 1;
            let line = line.map_err(|source| NautyError::Io {
                program: geng,
                source,
            })?;
            let graph: SimpleGraph = line.parse().map_err(|error| NautyError::Output {
                program: geng,
                line: line.clone(),
                error,
            })?;
            let n = graph.vertices();
            for s in 0..n {
                for t in s + 1..n {
                    let relabelled = graph.relabel(&terminals_first(n, s, t));
                    writeln!(sink, "{relabelled}").map_err(|source| NautyError::Io {
                        program: labelg,
                        source,
                    })?;
                }
            }
        }
        sink.flush().map_err(|source| NautyError::Io {
            program: labelg,
            source,
        })?;
        Ok(listed)
    });
    let mut seen = BTreeSet::new();
    for line in BufReader::new(label_out).lines() {
        let line = line.map_err(|source| NautyError::Io {
            program: labelg,
            source,
        })?;
        seen.insert(line);
    }
    let listed = feeder.join().expect("the feeding thread does not panic")?;
    finish(geng, gen_child)?;
    finish(labelg, label_child)?;
    complete(geng, listed, vertices)?;
    seen.into_iter()
        .map(|line| {
            line.parse().map_err(|error| NautyError::Output {
                program: labelg,
                line,
                error,
            })
        })
        .collect()
}

/// The vertex pairs of `n` vertices in graph6's order: `(0,1), (0,2), (1,2), (0,3), …`.
fn pairs(n: usize) -> Vec<[usize; 2]> {
    (1..n).flat_map(|v| (0..v).map(move |u| [u, v])).collect()
}

/// Every permutation of `0..n` that maps {0, 1} onto itself, as tables from old pair
/// index to new pair index (graph6 order).
fn pair_permutations(n: usize) -> Vec<Vec<u8>> {
    let pairs = pairs(n);
    let index = |a: usize, b: usize| {
        let (u, v) = (a.min(b), a.max(b));
        v * (v - 1) / 2 + u
    };
    let mut rest: Vec<usize> = (2..n).collect();
    let mut tables = Vec::new();
    permutations(&mut rest, 0, &mut |rest: &[usize]| {
        for swap in [false, true] {
            let mut map = vec![0usize; n];
            map[0] = usize::from(swap);
            map[1] = usize::from(!swap);
            map[2..].copy_from_slice(rest);
            tables.push(
                pairs
                    .iter()
                    .map(|&[u, v]| index(map[u], map[v]) as u8)
                    .collect(),
            );
        }
    });
    tables
}

/// Calls `visit` with every permutation of `items[k..]` (Heap-free, by swaps).
fn permutations(items: &mut [usize], k: usize, visit: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, visit);
        items.swap(k, i);
    }
}

/// The edge mask of `edges` over `pairs` order bits.
fn mask_of(graph: &SimpleGraph) -> u32 {
    graph
        .edges()
        .iter()
        .map(|&[u, v]| 1u32 << (v * (v - 1) / 2 + u))
        .fold(0, |m, b| m | b)
}

fn permuted(mask: u32, table: &[u8]) -> u32 {
    let mut out = 0;
    let mut rest = mask;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << table[i];
    }
    out
}

fn from_mask(n: usize, mask: u32) -> SimpleGraph {
    let pairs = pairs(n);
    SimpleGraph::new(
        n,
        (0..pairs.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| pairs[i]),
    )
    .expect("pairs are distinct and in range")
}

/// The brute-force canonical form of the game `graph` with terminals 0 and 1: the
/// relabelling, among all that map {0, 1} onto itself, whose edge mask (bit i for the i-th
/// pair in graph6 order) is smallest.
///
/// # Panics
/// With more than [`MAX_BRUTE_FORCE`] vertices.
pub fn canonical(graph: &SimpleGraph) -> SimpleGraph {
    let n = graph.vertices();
    assert!(
        n <= MAX_BRUTE_FORCE,
        "{n} vertices: brute force stops at {MAX_BRUTE_FORCE}"
    );
    let mask = mask_of(graph);
    let best = pair_permutations(n)
        .iter()
        .map(|t| permuted(mask, t))
        .min()
        .unwrap_or(mask);
    from_mask(n, best)
}

/// Every game on `vertices` vertices by brute force, as [`canonical`] forms in increasing
/// mask order.
///
/// # Panics
/// With fewer than 2 or more than [`MAX_BRUTE_FORCE`] vertices.
pub fn brute_force(vertices: usize) -> Vec<SimpleGraph> {
    let n = vertices;
    assert!(
        (2..=MAX_BRUTE_FORCE).contains(&n),
        "{n} vertices: brute force takes 2 to {MAX_BRUTE_FORCE}"
    );
    let pairs = pairs(n);
    let tables = pair_permutations(n);
    let connected = |mask: u32| {
        let mut sets = petgraph::unionfind::UnionFind::new(n);
        for (i, &[u, v]) in pairs.iter().enumerate() {
            if mask >> i & 1 == 1 {
                sets.union(u, v);
            }
        }
        (1..n).all(|v| sets.equiv(0, v))
    };
    (0..1u32 << pairs.len())
        .filter(|&mask| tables.iter().all(|t| permuted(mask, t) >= mask) && connected(mask))
        .map(|mask| from_mask(n, mask))
        .collect()
}

#[cfg(test)]
mod available {
    use super::{NautyError, complete, prunes_by_count, runs};

    /// geng's own count line decides: 853 connected graphs on 7 vertices is a plain geng,
    /// the PRUNE hook's 218 a pruning one (`nauty/build-geng.sh`'s), any other count or none
    /// is no answer (issue 62: any count below 853 was taken for the hook).
    #[test]
    fn a_pruning_geng_is_known_by_its_count_on_seven_vertices() {
        assert_eq!(
            prunes_by_count(">Z 853 graphs generated in 0.00 sec\n"),
            Some(false)
        );
        assert_eq!(
            prunes_by_count(">A geng -cd1D6 n=7 e=6-21\n>Z 218 graphs generated in 0.00 sec\n"),
            Some(true)
        );
        assert_eq!(
            prunes_by_count(">Z 854 graphs generated in 0.00 sec\n"),
            None
        );
        assert_eq!(
            prunes_by_count(">Z 500 graphs generated in 0.00 sec\n"),
            None
        );
        assert_eq!(prunes_by_count("geng: bad option\n"), None);
        assert_eq!(prunes_by_count(">Z many graphs\n"), None);
    }

    /// Issue 62: a listing of connected graphs is checked whole, so a pruned geng's is
    /// refused by `connected_graphs` and `games` (the heuristic study's), naming geng.
    #[test]
    fn a_short_listing_is_refused_naming_geng() {
        assert!(complete("nauty-geng", 853, 7).is_ok());
        let short = complete("geng", 218, 7).unwrap_err().to_string();
        assert_eq!(
            short,
            "geng listed 218 connected graphs on 7 vertices, not the 853 there are (OEIS \
             A001349): a geng with the links' PRUNE hook is first on PATH, or a broken one; put \
             Debian's nauty-geng first"
        );
        assert!(complete("geng", 854, 7).is_err());
    }

    /// A geng that is there but fails is an error (a failure), not "not installed" (a skip).
    #[test]
    fn a_geng_that_fails_is_an_error_and_none_at_all_is_no() {
        let dir = std::env::temp_dir().join(format!("geng-broken-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("geng");
        std::fs::write(&fake, "#!/bin/sh\necho 'geng: bad install' >&2\nexit 3\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let fake: &'static str = Box::leak(fake.display().to_string().into_boxed_str());
        let broken = runs([fake, fake]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            matches!(&broken, Err(NautyError::Failed { stderr, .. }) if stderr.contains("bad install")),
            "{broken:?}"
        );
        assert!(matches!(
            runs(["surely-no-geng-here", "nor-here"]),
            Ok(false)
        ));
    }
}
