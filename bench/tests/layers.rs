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
