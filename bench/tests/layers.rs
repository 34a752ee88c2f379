//! The bench's layers as its docs list them (lib.rs, README.md) against the code: a module
//! names, through `crate::`, only modules listed below it, directly or by an item lib.rs
//! re-exports. An import upward (or a module missing from the list) fails here.

use std::collections::BTreeMap;
use std::path::Path;

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The modules in the order lib.rs's docs list them, top first.
fn listed() -> Vec<String> {
    let lib = std::fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .map(|l| l.split('`').next().unwrap().to_string())
        .collect()
}

/// Each item lib.rs re-exports (`pub use MODULE::...::{A, B}`), with the module it comes from.
fn reexports() -> BTreeMap<String, String> {
    let lib = std::fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    let mut items = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let path = &statement[at + "pub use ".len()..];
        let module = path.split("::").next().unwrap().trim().to_string();
        let tail = path.rsplit("::").next().unwrap();
        for name in tail.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() {
                items.insert(name.to_string(), module.clone());
            }
        }
    }
    items
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules a module names through `crate::`.
fn imports(module: &str, reexports: &BTreeMap<String, String>) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let folder = Path::new(SRC).join(module);
    if folder.is_dir() {
        sources(&folder, &mut files);
    }
    let file = Path::new(SRC).join(format!("{module}.rs"));
    if file.is_file() {
        files.push(file);
    }
    assert!(!files.is_empty(), "module {module} has no source");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                group[..group.find('}').unwrap()].split(',').collect()
            } else {
                vec![rest]
            };
            for name in names {
                let name: String = name
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let to = reexports.get(&name).cloned().unwrap_or(name);
                let place = file.strip_prefix(SRC).unwrap().display().to_string();
                found.push((to, place));
            }
        }
    }
    found
}

#[test]
fn every_module_imports_only_the_layers_below_it() {
    let order = listed();
    assert!(order.len() >= 8, "lib.rs lists {order:?}");
    let reexports = reexports();
    let mut upward = Vec::new();
    for (rank, module) in order.iter().enumerate() {
        for (to, place) in imports(module, &reexports) {
            if let Some(to_rank) = order.iter().position(|m| *m == to)
                && to_rank < rank
            {
                upward.push(format!("{place} imports {to}, a layer above {module}"));
            }
        }
    }
    assert!(upward.is_empty(), "{upward:#?}");
}

#[test]
fn lib_rs_and_the_readme_list_every_module_in_one_order() {
    let lib = std::fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    let mut declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    let mut listed = listed();
    let readme = std::fs::read_to_string(Path::new(SRC).join("../README.md")).unwrap();
    let table: Vec<String> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| l.split('`').next().unwrap().to_string())
        .collect();
    assert_eq!(table, listed, "README.md's table and lib.rs's list");
    listed.sort();
    declared.sort();
    assert_eq!(listed, declared, "lib.rs lists every module it declares");
}

/// Every module of the crate, as the path of names from the root (`["dut", "hil", "probe"]`),
/// with its source text up to its tests (a `#[cfg(test)] mod` names its parent as `super`).
fn modules() -> BTreeMap<Vec<String>, String> {
    let mut files = Vec::new();
    sources(Path::new(SRC), &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(SRC).unwrap().with_extension("");
            let mut path: Vec<String> = relative
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
                path.pop();
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let end = (1..lines.len())
                .find(|&i| lines[i - 1].starts_with("#[cfg(test)]") && lines[i].starts_with("mod "))
                .map_or(lines.len(), |i| i - 1);
            let code: Vec<&str> = lines[..end]
                .iter()
                .filter(|l| !l.trim_start().starts_with("//"))
                .copied()
                .collect();
            (path, code.join("\n"))
        })
        .collect()
}

/// The paths a use tree names, from its start (`a::{b, c::D}` names `a::b` and `a::c::D`).
fn use_paths(text: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '*')
            .collect()
    };
    let mut head = Vec::new();
    let mut rest = text.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            let mut out = Vec::new();
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.extend(use_paths(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(use_paths(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return out
                .into_iter()
                .filter(|p| !p.is_empty())
                .map(|p| head.iter().cloned().chain(p).collect())
                .collect();
        }
        let name = ident(rest);
        if name.is_empty() {
            return vec![head];
        }
        rest = &rest[name.len()..];
        head.push(name);
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => return vec![head],
        }
    }
}

/// Where `path` leads from module `from` (after `crate::` or `super::`s have been taken off:
/// `from` is where it starts): the deepest module it names, through what modules re-export
/// (`pub use child::Item`).
fn resolve(
    modules: &BTreeMap<Vec<String>, String>,
    mut at: Vec<String>,
    path: &[String],
    depth: usize,
) -> Vec<String> {
    for (i, name) in path.iter().enumerate() {
        let mut next = at.clone();
        next.push(name.clone());
        if modules.contains_key(&next) {
            at = next;
            continue;
        }
        if depth < 8
            && let Some(to) = reexport(modules, &at, name, depth)
        {
            return resolve(modules, to, &path[i + 1..], depth + 1);
        }
        break;
    }
    at
}

/// The module that module `at` re-exports `name` from, if it does (`pub use x::{name}`).
fn reexport(
    modules: &BTreeMap<Vec<String>, String>,
    at: &[String],
    name: &str,
    depth: usize,
) -> Option<Vec<String>> {
    let text = modules.get(at)?;
    for statement in text.split(';') {
        let Some(start) = statement.find("pub use ") else {
            continue;
        };
        for path in use_paths(&statement[start + "pub use ".len()..]) {
            if path.last().map(String::as_str) == Some(name) {
                let (from, path) = start_of(at, &path);
                return Some(resolve(modules, from, &path[..path.len() - 1], depth + 1));
            }
        }
    }
    None
}

/// Where a path written in module `at` starts (`crate::`, `super::`, `self::` or a child),
/// and the rest of it.
fn start_of(at: &[String], path: &[String]) -> (Vec<String>, Vec<String>) {
    let mut from = at.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            from.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {
            while rest.first().map(String::as_str) == Some("super") {
                from.pop();
                rest = &rest[1..];
            }
        }
    }
    (from, rest.to_vec())
}

/// The edges between sibling modules: (their folder, from, to). A module naming another
/// through `crate::` or `super::` (a `super::super::` names its parent's sibling) is an edge
/// between the two children of the folder both are in.
fn sibling_edges() -> Vec<(Vec<String>, String, String)> {
    let modules = modules();
    let mut edges = Vec::new();
    for (module, text) in &modules {
        for root in ["crate::", "super::"] {
            for (at, _) in text.match_indices(root) {
                let before = text[..at].chars().next_back();
                if before.is_some_and(|c| c == ':' || c.is_alphanumeric() || c == '_') {
                    continue;
                }
                for path in use_paths(&text[at..]) {
                    let (from, rest) = start_of(module, &path);
                    let to = resolve(&modules, from, &rest, 0);
                    let common = module.iter().zip(&to).take_while(|(a, b)| a == b).count();
                    if common < module.len() && common < to.len() {
                        edges.push((
                            module[..common].to_vec(),
                            module[common].clone(),
                            to[common].clone(),
                        ));
                    }
                }
            }
        }
    }
    edges.sort();
    edges.dedup();
    edges
}

/// A circle among `edges` (`a -> b -> a`), if there is one.
fn circle(edges: &[(String, String)]) -> Option<Vec<String>> {
    fn walk(
        at: &str,
        edges: &[(String, String)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut found = path[i..].to_vec();
            found.push(at.to_string());
            return Some(found);
        }
        if done.iter().any(|d| d == at) {
            return None;
        }
        path.push(at.to_string());
        for (_, to) in edges.iter().filter(|(from, _)| from == at) {
            if let Some(found) = walk(to, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.push(at.to_string());
        None
    }
    let mut done = Vec::new();
    edges
        .iter()
        .find_map(|(from, _)| walk(from, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_two_sibling_modules_import_each_other_in_any_folder() {
    let edges = sibling_edges();
    // The walk sees `super::` edges: the HIL targets over emulators use the probe-rs target.
    let hil = vec!["dut".to_string(), "hil".to_string()];
    assert!(
        edges.contains(&(hil.clone(), "qemu".into(), "probe".into())),
        "{edges:#?}"
    );
    let mut folders: Vec<&Vec<String>> = edges.iter().map(|(folder, _, _)| folder).collect();
    folders.dedup();
    let circles: Vec<String> = folders
        .into_iter()
        .filter_map(|folder| {
            let inside: Vec<(String, String)> = edges
                .iter()
                .filter(|(f, _, _)| f == folder)
                .map(|(_, from, to)| (from.clone(), to.clone()))
                .collect();
            circle(&inside).map(|c| format!("in src/{}: {}", folder.join("/"), c.join(" -> ")))
        })
        .collect();
    assert!(circles.is_empty(), "{circles:#?}");
}
