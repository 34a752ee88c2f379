//! Canonical forms of links, one per isomorphism class, from nauty's `labelg`.

use std::io::{self, BufRead, BufReader, Write};

use super::Found;
use crate::enumerate::{LABELG, NautyError, finish, spawn, terminals_first};
use crate::graph6::SimpleGraph;
use crate::link::Link;

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
