//! `birdcage link`: one link of the vertex Shannon game, strong, weak or none, and whether it
//! is minimal, with its pivots and reductions (Steane's paper, the seed `004_…`).

use anyhow::{Context, Result, anyhow};
use clap::Args;
use heuristic::Echo;
use serde::Serialize;
use switching::graph6::SimpleGraph;
use switching::link::{Link, Strength, reduce};

use super::progress::Progress;
use super::{Format, load_graph};

/// Solve a link of the vertex Shannon game: strong, weak or none; minimal or not; pivots.
///
/// Players claim vertices; Short owns the two terminals and wins by joining them. A graph
/// file (`--graph`, the format of `birdcage graph`: its vertices are the game's vertices,
/// its edges must be simple) or a graph6 line from nauty (`--graph6`, terminals 0 and 1
/// unless `--terminals`), as `birdcage links` prints them.
#[derive(Args, Debug)]
pub struct Cmd {
    /// A graph file with its two terminals.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "graph6",
        required_unless_present = "graph6"
    )]
    graph: Option<std::path::PathBuf>,
    /// A graph in graph6 (e.g. `Fs\zw`); its vertices are 0, 1, ….
    #[arg(long, value_name = "G6", allow_hyphen_values = true)]
    graph6: Option<String>,
    /// The terminals of a `--graph6` link.
    #[arg(long, value_name = "S,T", requires = "graph6", default_value = "0,1")]
    terminals: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The JSON document; the field order is the key order.
#[derive(Serialize)]
struct Report {
    vertices: usize,
    edges: usize,
    terminals: [String; 2],
    /// `strong`, `weak` or `none`.
    strength: &'static str,
    /// Deleting any one edge weakens the link (false for none).
    minimal: bool,
    /// Vertices whose shorting makes a weak link strong (empty unless weak).
    pivots: Vec<String>,
    /// Edges whose deletion leaves the strength as it is (empty when minimal or none).
    spectators: Vec<String>,
    /// Induces a smaller Shannon game of weight 2 or more (null when too large to search).
    s_reducible: Option<bool>,
    /// Has a mutually supporting pair.
    p_reducible: bool,
    /// Has a short-cut.
    t_reducible: bool,
}

impl Cmd {
    /// The link and its vertex names.
    fn load(&self) -> Result<(Link, Vec<String>)> {
        if let Some(path) = &self.graph {
            let graph = load_graph(path)?;
            let link = Link::from_graph(&graph).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            return Ok((link, graph.vertices().to_vec()));
        }
        let text = self.graph6.as_deref().unwrap_or_default();
        let graph: SimpleGraph = text
            .trim()
            .parse()
            .with_context(|| format!("--graph6 {}", Echo(text)))?;
        let terminals = parse_terminals(&self.terminals, graph.vertices())?;
        let link =
            Link::new(&graph, terminals).with_context(|| format!("--graph6 {}", Echo(text)))?;
        Ok((link, (0..graph.vertices()).map(|v| v.to_string()).collect()))
    }

    pub fn run(&self) -> Result<String> {
        let (link, names) = self.load()?;
        // Each solve is exponential in the vertices: a minute at 26.
        let what = format!(
            "link ({} vertices, {} edges)",
            link.vertices(),
            link.edges().len()
        );
        let progress = Progress::counted(what, "edges", None);
        progress.note("strength");
        let strength = link.strength();
        let spectators: Vec<[usize; 2]> = match strength {
            Strength::None => Vec::new(),
            s => {
                progress.set_total(link.edges().len() as u64);
                progress.note("minimal? each edge deleted");
                let edges = link.edges().into_iter();
                let spectators = edges
                    .filter(|&e| {
                        progress.inc(1);
                        link.without_edge(e).strength() == s
                    })
                    .collect();
                progress.note("pivots and reductions");
                spectators
            }
        };
        let name = |v: usize| names[v].clone();
        let report = Report {
            vertices: link.vertices(),
            edges: link.edges().len(),
            terminals: link.terminals().map(name),
            strength: strength.as_str(),
            minimal: strength != Strength::None && spectators.is_empty(),
            pivots: link.pivots().into_iter().map(name).collect(),
            spectators: spectators
                .iter()
                .map(|&[u, v]| format!("{}-{}", names[u], names[v]))
                .collect(),
            s_reducible: reduce::s_reducible(&link),
            p_reducible: reduce::p_reducible(&link),
            t_reducible: reduce::t_reducible(&link),
        };
        progress.finish(&format!(
            "{}{}",
            report.strength,
            if report.minimal { ", minimal" } else { "" }
        ));
        Ok(match self.format {
            Format::Json => serde_json::to_string_pretty(&report)? + "\n",
            Format::Text => text(&report),
        })
    }
}

/// `S,T` as two vertices of a graph on `n` vertices.
fn parse_terminals(text: &str, n: usize) -> Result<[usize; 2]> {
    let bad = || {
        anyhow!(
            "--terminals {} is not two vertex numbers S,T below {n}",
            Echo(text)
        )
    };
    let (s, t) = text.split_once(',').ok_or_else(bad)?;
    let vertex = |w: &str| {
        w.trim()
            .parse::<usize>()
            .ok()
            .filter(|&v| v < n)
            .ok_or_else(bad)
    };
    Ok([vertex(s)?, vertex(t)?])
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn text(r: &Report) -> String {
    let [s, t] = &r.terminals;
    let weight = r.vertices - 2;
    let mut out = format!(
        "Link between {s} and {t}: {} vertices (weight {weight}), {} edges.\n",
        r.vertices, r.edges
    );
    out += &match r.strength {
        "strong" => "Strength: strong (Short wins even moving second).\n".to_string(),
        "weak" => "Strength: weak (Short wins moving first, loses moving second).\n".to_string(),
        _ => "Strength: none (Short loses even moving first).\n".to_string(),
    };
    if r.strength == "weak" {
        out += &format!(
            "Pivots (shorting one makes the link strong): {}\n",
            r.pivots.join(" ")
        );
    }
    if r.strength != "none" {
        if r.minimal {
            out += "Minimal: yes (deleting any one edge weakens it).\n";
        } else {
            out += &format!(
                "Minimal: no (deleting one of these edges leaves it {}: {}).\n",
                r.strength,
                r.spectators.join(" ")
            );
        }
    }
    let s_text = r
        .s_reducible
        .map_or("not searched (play area too large)", yes);
    out += &format!(
        "S-reducible: {s_text}; P-reducible: {}; T-reducible: {}.\n",
        yes(r.p_reducible),
        yes(r.t_reducible)
    );
    out
}
