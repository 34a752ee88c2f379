//! The virtual board's layers as main.rs's docs list them against the code: a module names,
//! through `crate::` or `super::` (from its top file, or `super::super::` one folder down),
//! only modules listed below it. An import upward, or a module missing from the list, fails
//! here. (The workspace's `xtask` test finds module circles across every crate.)

use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The modules in the order main.rs's docs list them, top first.
fn listed() -> Vec<String> {
    let main = std::fs::read_to_string(Path::new(SRC).join("main.rs")).unwrap();
    main.lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .map(|l| l.split('`').next().unwrap().to_string())
        .collect()
}

/// The `mod` declarations of main.rs.
fn declared() -> Vec<String> {
    let main = std::fs::read_to_string(Path::new(SRC).join("main.rs")).unwrap();
    main.lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// A module's files, each with its depth below the crate root (its top file 0).
fn files(module: &str) -> Vec<(PathBuf, usize)> {
    let mut out = Vec::new();
    let top = Path::new(SRC).join(format!("{module}.rs"));
    if top.is_file() {
        out.push((top, 0));
    }
    fn walk(dir: &Path, depth: usize, out: &mut Vec<(PathBuf, usize)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, depth + 1, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path, depth));
            }
        }
    }
    walk(&Path::new(SRC).join(module), 1, &mut out);
    out
}

/// The code of `text` without comments, and without an inline `mod tests` (its `super::`
/// is the module itself).
fn code(text: &str) -> String {
    let body = match text.find("\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a path after `crate::` or the root's `super::` names.
fn names(rest: &str) -> Vec<String> {
    let names: Vec<&str> = match rest.strip_prefix('{') {
        Some(group) => group[..group.find('}').unwrap_or(group.len())]
            .split(',')
            .collect(),
        None => vec![rest],
    };
    names
        .into_iter()
        .map(|n| {
            n.trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// The modules `module` names, each with the file that names it.
fn imports(module: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let files = files(module);
    assert!(!files.is_empty(), "module {module} has no source");
    for (file, depth) in files {
        let text = code(&std::fs::read_to_string(&file).unwrap());
        let place = file.strip_prefix(SRC).unwrap().display().to_string();
        let root = "super::".repeat(depth + 1);
        for prefix in ["crate::", root.as_str()] {
            for (at, _) in text.match_indices(prefix) {
                // `super::super::x` is not `super::x` one level up.
                if prefix.starts_with("super") && text[..at].ends_with("super::") {
                    continue;
                }
                for name in names(&text[at + prefix.len()..]) {
                    found.push((name, place.clone()));
                }
            }
        }
    }
    found
}

#[test]
fn every_module_imports_only_the_layers_below_it() {
    let order = listed();
    assert!(order.len() >= 15, "main.rs lists {order:?}");
    let mut upward = Vec::new();
    for (rank, module) in order.iter().enumerate() {
        for (to, place) in imports(module) {
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
fn main_rs_lists_every_module_once() {
    let mut listed = listed();
    let mut declared = declared();
    listed.sort();
    declared.sort();
    assert_eq!(listed, declared);
}

/// The check sees an upward import: `operator` (low) naming `glitch` (above it) through
/// `crate::` or the root's `super::`.
#[test]
fn an_upward_import_is_seen() {
    let order = listed();
    let rank = |m: &str| order.iter().position(|x| x == m).unwrap();
    assert!(rank("glitch") < rank("operator"));
    for text in ["use crate::glitch::trial;", "use super::{glitch, cpu};"] {
        let at = text.find("::").unwrap() + 2;
        assert!(names(&text[at..]).contains(&"glitch".to_string()), "{text}");
    }
    assert_eq!(code("let a = 1; // crate::glitch\n"), "let a = 1; ");
}
