//! The graph reader's names (`switching/src/graph.rs`, `Builder::default_name`): unnamed
//! parallel edges named `u-v`, `u-v#2`, `u-v#3`, … around explicit names that take some of
//! those names first, on a few vertices so that collisions are the rule.
//!
//! Each input is a list of edges, 3 bytes each: the ends (from 4 vertices), and whether the
//! edge is unnamed, named `u-v` (a default name taken first), written `u-v#k` in either case
//! (`#` starts a comment, so that edge is named `u-v` or `U-V`: a file cannot take a copy's
//! name) or named freely. Beyond "no panic": the reader's names equal a naive model's (the smallest free
//! `k` searched from 2 for every edge, O(n²), written here from the file format's
//! documentation), every name is distinct and finds its own edge, and the graph prints and
//! reads back as itself. An input the model refuses (a repeated explicit name, a loop) is
//! refused by the reader at the same line.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use switching::Graph;

const VERTICES: [&str; 4] = ["s", "t", "a", "b"];

fuzz_target!(|data: &[u8]| {
    let mut text = String::from("terminals s t\ns a\na t\n");
    // The model: names taken, in order.
    let mut taken: HashSet<String> = ["s-a", "a-t"].map(String::from).into_iter().collect();
    let mut names = vec!["s-a".to_string(), "a-t".to_string()];
    let mut refused_at = None;
    for (i, chunk) in data.chunks_exact(3).take(400).enumerate() {
        let line = i + 4;
        let (u, v) = (VERTICES[usize::from(chunk[0] % 4)], VERTICES[usize::from(chunk[1] % 4)]);
        let base = format!("{u}-{v}");
        let explicit = match chunk[2] % 8 {
            0..=3 => None,
            4 => Some(base.clone()),
            5 => Some(format!("{base}#{}", chunk[2] / 8 % 6 + 1)),
            6 => Some(format!("{base}#{}", chunk[2] / 8 % 6 + 1).to_uppercase()),
            _ => Some(format!("e{}", chunk[2] / 8)),
        };
        text.push_str(&match &explicit {
            Some(n) => format!("{u} {v} {n}\n"),
            None => format!("{u} {v}\n"),
        });
        // What the reader sees of an explicit name: up to its comment.
        let explicit = explicit.map(|n| n.split('#').next().unwrap_or_default().to_string());
        let name = explicit.clone().unwrap_or_else(|| {
            if !taken.contains(&base) {
                return base.clone();
            }
            (2..)
                .map(|k| format!("{base}#{k}"))
                .find(|n| !taken.contains(n))
                .unwrap()
        });
        if refused_at.is_none() {
            if u == v || taken.contains(&name) {
                refused_at = Some(line);
            } else {
                taken.insert(name.clone());
                names.push(name);
            }
        }
    }
    match text.parse::<Graph>() {
        Ok(graph) => {
            assert_eq!(refused_at, None, "the model refuses line {refused_at:?}\n{text}");
            let got: Vec<&str> = graph.edges().iter().map(|e| e.name.as_str()).collect();
            assert_eq!(got, names, "\n{text}");
            for (i, name) in got.iter().enumerate() {
                assert_eq!(graph.edge_named(name), Some(i), "{name}");
            }
            let printed = graph.to_string();
            let again: Graph = printed.parse().expect("a printed graph reads");
            assert_eq!(again, graph);
        }
        Err(error) => {
            assert_eq!(error.line(), refused_at, "{error}\n{text}");
        }
    }
});
