//! No module circles in the workspace: in every folder of every crate's sources, the sibling
//! modules (a file `x.rs` or a folder `x/` each) and the edges between them, made by every
//! `crate::` and `super::` path a source's code names (not its comments or strings: a doc
//! link is a pointer for the reader, not a dependency), must form no cycle.
//! A path to an item a parent imports or re-exports (`pub use x::Item`, `use x::*`) counts
//! as a path to `x`. A glob import (`use super::*`, `use crate::a::*`) counts as a path to
//! every name it brings in that the importing file's code names: the importing module's
//! siblings and what their parent imports from them (a glob hides the edge otherwise, which
//! is how a circle through `use super::*` went unseen). `super::` inside an inline module
//! (`mod tests { ... }`) is resolved from that module, as the compiler does.
//!
//! Data flows one way: a module that needs its sibling's type while the sibling needs its
//! own has a type in the wrong home, or a hook that belongs to a trait.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module by its path from the crate root (`["target", "hil", "probe"]`).
type ModPath = Vec<String>;

/// One crate's source tree: its modules and their files.
#[derive(Debug, Default)]
pub struct Tree {
    /// Every module, with the files that are its own (`x.rs`, or `x/mod.rs`), root = [].
    files: BTreeMap<ModPath, PathBuf>,
    /// Each module's code, comments and literals blanked ([`code_of`]).
    code: BTreeMap<ModPath, String>,
    /// Names each module imports from elsewhere in the crate (`use child::Item`, `use
    /// super::x::Item`, each item of `use child::*`): name -> its path from the crate root,
    /// `crate` first.
    imports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
}

impl Tree {
    /// The modules under `src` (`lib.rs` or `main.rs` its root).
    pub fn read(src: &Path) -> Tree {
        let mut tree = Tree::default();
        for root in ["lib.rs", "main.rs"] {
            let file = src.join(root);
            if file.is_file() {
                tree.files.insert(Vec::new(), file);
                break;
            }
        }
        tree.walk(src, &mut Vec::new());
        for (module, file) in &tree.files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            tree.code.insert(module.clone(), code_of(&text));
        }
        let modules: Vec<ModPath> = tree.files.keys().cloned().collect();
        for module in modules {
            let imports = tree.imports_of(&module);
            tree.imports.insert(module, imports);
        }
        tree
    }

    fn walk(&mut self, dir: &Path, at: &mut ModPath) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for path in entries {
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .map(str::to_string)
            else {
                continue;
            };
            if path.is_dir() {
                at.push(name);
                let own = path.join("mod.rs");
                if own.is_file() {
                    self.files.insert(at.clone(), own);
                }
                self.walk(&path, at);
                at.pop();
            } else if let Some(stem) = name.strip_suffix(".rs") {
                if matches!(stem, "mod" | "lib" | "main") && at.is_empty() || stem == "mod" {
                    continue;
                }
                let mut module = at.clone();
                module.push(stem.to_string());
                self.files.insert(module, path);
            }
        }
    }

    /// Whether `module` is one.
    fn is_module(&self, module: &[String]) -> bool {
        self.files.contains_key(module)
    }

    /// What `module`'s own `use` declarations (not those of its inline modules) bring in from
    /// this crate: each name with its path from the root; a glob of a child (`use child::*`)
    /// brings in each item the child declares `pub`.
    fn imports_of(&self, module: &ModPath) -> BTreeMap<String, Vec<String>> {
        let code = &self.code[module];
        let spans = inline_modules(code);
        let mut names = BTreeMap::new();
        for (at, path) in use_paths(code) {
            if spans
                .iter()
                .any(|(start, end, _)| (*start..*end).contains(&at))
            {
                continue;
            }
            let Some(mut full) = absolute(module, &path, |m| self.is_module(m)) else {
                continue;
            };
            if full.last().map(String::as_str) == Some("*") {
                full.pop();
                let child = full[1..].to_vec();
                if self.is_module(&child) && child.len() > module.len() {
                    for item in public_items(&self.code[&child]) {
                        let mut to = full.clone();
                        to.push(item.clone());
                        names.insert(item, to);
                    }
                }
                continue;
            }
            if full.last().map(String::as_str) == Some("self") {
                full.pop();
            }
            if let Some(name) = full.last().filter(|_| full.len() > 1) {
                names.insert(name.clone(), full.clone());
            }
        }
        names
    }

    /// The module a path names, from `from` (`crate::a::B` or `super::b::C`): the longest
    /// prefix that is a module, or the module a name imported into one comes from.
    fn resolve(&self, from: &[String], path: &[String]) -> Option<ModPath> {
        self.resolve_within(from, path, 0)
    }

    fn resolve_within(&self, from: &[String], path: &[String], depth: usize) -> Option<ModPath> {
        let (mut at, rest): (ModPath, &[String]) = match path.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &path[1..]),
            Some("super") => {
                let mut at = from.to_vec();
                let mut rest = path;
                while rest.first().map(String::as_str) == Some("super") {
                    at.pop()?;
                    rest = &rest[1..];
                }
                (at, rest)
            }
            _ => return None,
        };
        for segment in rest {
            let mut next = at.clone();
            next.push(segment.clone());
            if self.is_module(&next) {
                at = next;
                continue;
            }
            if let Some(to) = self.imports.get(&at).and_then(|i| i.get(segment))
                && depth < 8
                && let Some(module) = self.resolve_within(&[], to, depth + 1)
                && module != at
            {
                at = module;
            }
            break;
        }
        Some(at)
    }

    /// The names a glob of `module` brings in: its child modules (as `child::` paths) and
    /// what it imports. Each: (name, whether it is a module, its path from the root).
    fn visible(&self, module: &[String]) -> Vec<(String, bool, Vec<String>)> {
        let mut names = Vec::new();
        for child in self.files.keys() {
            if child.len() == module.len() + 1 && child.starts_with(module) {
                let mut to = vec!["crate".to_string()];
                to.extend(child.iter().cloned());
                names.push((child[module.len()].clone(), true, to));
            }
        }
        for (name, to) in self.imports.get(module).into_iter().flatten() {
            names.push((name.clone(), false, to.clone()));
        }
        names
    }

    /// Every edge between two sibling modules: (their folder, from, to, the file it is in).
    pub fn sibling_edges(&self) -> BTreeSet<(ModPath, String, String, String)> {
        let mut edges = BTreeSet::new();
        for (module, file) in &self.files {
            let code = &self.code[module];
            let place = file.display().to_string();
            let spans = inline_modules(code);
            let mut add = |from: &ModPath, to: ModPath| {
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if common < from.len() && common < to.len() {
                    edges.insert((
                        from[..common].to_vec(),
                        from[common].clone(),
                        to[common].clone(),
                        place.clone(),
                    ));
                }
            };
            for (at, path) in paths(code) {
                // The module the path is written in: the file's, then its inline modules.
                let mut from = module.clone();
                let mut region = &code[..];
                for (start, end, inline) in &spans {
                    if (*start..*end).contains(&at) {
                        from.truncate(module.len());
                        from.extend(inline.iter().cloned());
                        region = &code[*start..*end];
                    }
                }
                let glob = path.last().map(String::as_str) == Some("*");
                let named = if glob {
                    &path[..path.len() - 1]
                } else {
                    &path[..]
                };
                let Some(to) = self.resolve(&from, named) else {
                    continue;
                };
                add(&from, to.clone());
                if !glob || !self.is_module(&to) {
                    continue;
                }
                for (name, is_module, target) in self.visible(&to) {
                    if names(region, &name, is_module)
                        && let Some(t) = self.resolve(&[], &target)
                    {
                        add(&from, t);
                    }
                }
            }
        }
        edges
    }

    /// The circles: in each folder, each cycle's modules in order (the first of each found).
    pub fn circles(&self) -> Vec<String> {
        let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (folder, from, to, _) in self.sibling_edges() {
            graphs
                .entry(folder)
                .or_default()
                .entry(from)
                .or_default()
                .insert(to);
        }
        let mut found = Vec::new();
        for (folder, graph) in &graphs {
            let mut seen = BTreeSet::new();
            for start in graph.keys() {
                if let Some(cycle) = cycle_from(graph, start, &mut Vec::new(), &mut seen) {
                    let place = if folder.is_empty() {
                        "crate root".to_string()
                    } else {
                        folder.join("::")
                    };
                    found.push(format!("{place}: {}", cycle.join(" -> ")));
                    break;
                }
            }
        }
        found
    }
}

/// A cycle through `at` by depth-first search (`stack`: the path so far).
fn cycle_from(
    graph: &BTreeMap<String, BTreeSet<String>>,
    at: &str,
    stack: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(i) = stack.iter().position(|m| m == at) {
        let mut cycle = stack[i..].to_vec();
        cycle.push(at.to_string());
        return Some(cycle);
    }
    if done.contains(at) {
        return None;
    }
    stack.push(at.to_string());
    for next in graph.get(at).into_iter().flatten() {
        if let Some(cycle) = cycle_from(graph, next, stack, done) {
            return Some(cycle);
        }
    }
    stack.pop();
    done.insert(at.to_string());
    None
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with its comments, string literals and character literals made spaces (newlines
/// kept, so positions and lines stay): a brace or a path inside them is no code.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = chars.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(chars.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        if rest.starts_with(&['/', '/']) {
            let end = (i..chars.len())
                .find(|&j| chars[j] == '\n')
                .unwrap_or(chars.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(&['/', '*']) {
            let (mut depth, mut j) = (0usize, i);
            while j < chars.len() {
                if chars[j..].starts_with(&['/', '*']) {
                    depth += 1;
                    j += 2;
                } else if chars[j..].starts_with(&['*', '/']) {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if rest[0] == 'r'
            && (i == 0 || !is_ident(chars[i - 1]))
            && rest.get(1).is_some_and(|&c| c == '"' || c == '#')
        {
            // A raw string: r"..." or r#"..."#.
            let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
            if rest.get(1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let mut j = i + 2 + hashes;
            while j < chars.len()
                && !(chars[j] == '"'
                    && chars[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&c| c == '#')
                        .count()
                        == hashes)
            {
                j += 1;
            }
            let end = j + 1 + hashes;
            blank(&mut out, i, end);
            i = end;
        } else if rest[0] == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if rest[0] == '\'' {
            // A character literal ('x', '\n', '\u{7f}'), not a lifetime ('a).
            let end = if rest.get(1) == Some(&'\\') {
                (i + 2..chars.len())
                    .find(|&j| chars[j] == '\'')
                    .map(|j| j + 1)
            } else if rest.get(2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The inline modules of `code` (`mod tests { ... }`): each one's byte span, braces
/// included, and its path below the file's module, outer first; nested ones after their
/// parent.
fn inline_modules(code: &str) -> Vec<(usize, usize, Vec<String>)> {
    let mut spans: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(found) = code[i..].find("mod ") {
        let at = i + found;
        i = at + 4;
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        let after = code[i..].trim_start();
        let name: String = after.chars().take_while(|&c| is_ident(c)).collect();
        let brace = after[name.len()..].trim_start();
        if name.is_empty() || !brace.starts_with('{') {
            continue;
        }
        let open = code.len() - brace.len();
        let mut depth = 0usize;
        let mut end = code.len();
        for (j, b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let mut path: Vec<String> = spans
            .iter()
            .rfind(|(s, e, _)| (*s..*e).contains(&at))
            .map(|(_, _, p)| p.clone())
            .unwrap_or_default();
        path.push(name);
        spans.push((at, end, path));
    }
    spans
}

/// The paths of every `use` declaration in `code`, braces expanded (`*` a last segment of
/// its own), each with where its declaration starts.
fn use_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i..].starts_with(&['u', 's', 'e', ' ']) && (i == 0 || !is_ident(chars[i - 1])) {
            let mut j = i + 4;
            while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            if chars.get(j) == Some(&':') {
                j += 2; // `use ::std::...`
            }
            let (paths, end) = parse_path(&chars, j);
            let at = chars[..i].iter().collect::<String>().len();
            found.extend(paths.into_iter().map(|p| (at, p)));
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

/// `path`, as written in `module`, from the crate root (`crate` first); `None` for another
/// crate's. A first segment that is neither `crate`, `super` nor `self` is a child module
/// (Rust 2018 paths), if `module` has one of that name.
fn absolute(
    module: &[String],
    path: &[String],
    is_module: impl Fn(&[String]) -> bool,
) -> Option<Vec<String>> {
    let mut full = vec!["crate".to_string()];
    match path.first().map(String::as_str)? {
        "crate" => return Some(path.to_vec()),
        "super" => {
            let mut at = module.to_vec();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                at.pop()?;
                rest = &rest[1..];
            }
            full.extend(at);
            full.extend(rest.iter().cloned());
        }
        "self" => {
            full.extend(module.iter().cloned());
            full.extend(path[1..].iter().cloned());
        }
        first => {
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !is_module(&child) {
                return None;
            }
            full.extend(module.iter().cloned());
            full.extend(path.iter().cloned());
        }
    }
    Some(full)
}

/// The names a module's code declares `pub` (`pub fn`, `pub(crate) struct`, `pub mod`, ...)
/// or re-exports (`pub use x::Name`): what a glob of it brings in.
fn public_items(code: &str) -> BTreeSet<String> {
    let words: Vec<&str> = code
        .split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .collect();
    let kinds = [
        "fn", "struct", "enum", "trait", "type", "const", "static", "mod", "union", "use",
    ];
    let modifiers = ["crate", "super", "self", "in", "unsafe", "async", "extern"];
    let mut items = BTreeSet::new();
    for (i, word) in words.iter().enumerate() {
        if *word != "pub" {
            continue;
        }
        let mut j = i + 1;
        while words.get(j).is_some_and(|w| modifiers.contains(w)) {
            j += 1;
        }
        match (words.get(j), words.get(j + 1)) {
            (Some(&"use"), _) => {}
            (Some(kind), Some(name)) if kinds.contains(kind) => {
                items.insert(name.to_string());
            }
            _ => {}
        }
    }
    for (_, path) in use_paths(code) {
        if let Some(name) = path.last().filter(|n| *n != "*" && *n != "self") {
            items.insert(name.clone());
        }
    }
    items
}

/// Whether `code` names `name` as a word (a module: as the start of a path, `name::`).
fn names(code: &str, name: &str, module: bool) -> bool {
    let mut from = 0;
    while let Some(found) = code[from..].find(name) {
        let at = from + found;
        let end = at + name.len();
        from = end;
        let before = code[..at].chars().next_back();
        let after = &code[end..];
        if before.is_some_and(is_ident) || after.chars().next().is_some_and(is_ident) {
            continue;
        }
        // `x::name` is another module's `name`, unless it is `self::name`.
        if code[..at].ends_with("::") && !code[..at].ends_with("self::") {
            continue;
        }
        if !module || after.trim_start().starts_with("::") {
            return true;
        }
    }
    false
}

/// Every `crate::` and `super::` path a source's code names, braces expanded, each with
/// where it starts; a glob's last segment is `*`.
fn paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let bytes: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    let mut byte = 0;
    while i < bytes.len() {
        let starts = |word: &str| {
            let w: Vec<char> = word.chars().collect();
            bytes[i..].starts_with(&w) && (i == 0 || !is_ident(bytes[i - 1]))
        };
        if starts("crate::") || starts("super::") {
            let (paths, end) = parse_path(&bytes, i);
            found.extend(paths.into_iter().map(|p| (byte, p)));
            let end = end.max(i + 1);
            byte += bytes[i..end].iter().map(|c| c.len_utf8()).sum::<usize>();
            i = end;
        } else {
            byte += bytes[i].len_utf8();
            i += 1;
        }
    }
    found
}

/// The paths of one path expression at `i` (`a::b::{c, d::e}`, `a::*`), and where it ends.
fn parse_path(text: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    loop {
        let start = i;
        while i < text.len() && is_ident(text[i]) {
            i += 1;
        }
        if i == start {
            if text.get(i) == Some(&'*') && !prefix.is_empty() {
                prefix.push("*".to_string());
                i += 1;
            }
            break;
        }
        prefix.push(text[start..i].iter().collect::<String>());
        if text.get(i) == Some(&':') && text.get(i + 1) == Some(&':') {
            i += 2;
            if text.get(i) == Some(&'{') {
                i += 1;
                let mut all = Vec::new();
                loop {
                    while text.get(i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                        i += 1;
                    }
                    match text.get(i) {
                        None => return (all, i),
                        Some('}') => return (all, i + 1),
                        _ => {}
                    }
                    let (inner, end) = parse_path(text, i);
                    if end == i {
                        // Not a path (a stray character): skip it.
                        i += 1;
                        continue;
                    }
                    for tail in inner {
                        let mut p = prefix.clone();
                        p.extend(tail);
                        all.push(p);
                    }
                    i = end;
                }
            }
            continue;
        }
        break;
    }
    (vec![prefix], i)
}

/// Every workspace member's source folder, from the workspace's Cargo.toml.
pub fn member_sources(root: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .unwrap_or_default();
    members
        .split(',')
        .map(|m| m.trim().trim_matches(|c| c == '"' || c == ']'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m).join("src"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree written to a temporary folder: (file, text) pairs.
    fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, Tree) {
        let dir = tempfile::tempdir().unwrap();
        for (file, text) in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let tree = Tree::read(dir.path());
        (dir, tree)
    }

    /// The check can fail: a circle through a `super::` path inside a folder and one through
    /// a re-exported item at the root are both found; one-way edges are not circles.
    #[test]
    fn circles_through_super_paths_and_reexports_are_found() {
        let (_dir, found) = tree(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;\npub use b::Bee;\n"),
            ("a.rs", "use crate::Bee;\n"),
            (
                "b.rs",
                "/// Not an edge: [`crate::c`].\npub struct Bee(crate::a::Ay);\n",
            ),
            ("c.rs", "use crate::{a::Ay, b::{Bee}};\n"),
            ("c/x.rs", "use super::y::Why;\n"),
            ("c/y.rs", "use super::super::c::x::Ex;\n"),
        ]);
        let circles = found.circles();
        assert_eq!(
            circles,
            ["crate root: a -> b -> a", "c: x -> y -> x"],
            "{:#?}",
            found.sibling_edges()
        );
        let (_dir, one_way) = tree(&[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::Bee;\n"),
            ("b.rs", "use super::*;\npub struct Bee;\n"),
        ]);
        assert!(one_way.circles().is_empty(), "{:?}", one_way.circles());
    }

    /// Issue 62: a circle made through a glob import is found. `a` reaches `b` only through
    /// `use super::*` and the root's private `use b::Bee`; in the folder `c`, `y` reaches `x`
    /// only through `use super::*` and its parent's `use x::*`. Before, neither was seen.
    #[test]
    fn circles_through_glob_imports_are_found() {
        let (_dir, found) = tree(&[
            ("lib.rs", "mod a;\nmod b;\nmod c;\nuse b::Bee;\n"),
            ("a.rs", "use super::*;\npub struct Ay(Bee);\n"),
            ("b.rs", "pub struct Bee(crate::a::Ay);\n"),
            ("c/mod.rs", "mod x;\nmod y;\nuse x::*;\n"),
            ("c/x.rs", "pub fn ex() {}\nfn f() { super::y::why(); }\n"),
            ("c/y.rs", "use super::*;\npub fn why() { ex(); }\n"),
        ]);
        assert_eq!(
            found.circles(),
            ["crate root: a -> b -> a", "c: x -> y -> x"],
            "{:#?}",
            found.sibling_edges()
        );
    }

    /// What a glob does not make: a test module's `use super::*` is its file's module (not
    /// the file's parent), a name the importing file never uses is no edge, and a path in a
    /// string or a comment is no path.
    #[test]
    fn globs_add_only_the_names_used() {
        let (_dir, found) = tree(&[
            ("lib.rs", "mod a;\nmod b;\npub use b::Bee;\n"),
            (
                "a.rs",
                "use super::*;\npub struct Ay;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    \
                 fn t() { let _ = Ay; let _ = \"{ crate::b::Bee }\"; }\n}\n",
            ),
            (
                "b.rs",
                "use crate::a::Ay;\npub struct Bee(Ay);\n/* crate::a::{ */\n",
            ),
        ]);
        assert!(found.circles().is_empty(), "{:#?}", found.sibling_edges());
        let edges: Vec<_> = found
            .sibling_edges()
            .into_iter()
            .map(|(_, from, to, _)| format!("{from} -> {to}"))
            .collect();
        assert_eq!(edges, ["b -> a"]);
    }

    /// Issue 50: no module circles anywhere in the workspace.
    #[test]
    #[ignore = "prints the edges of the crate in BIRDCAGE_CIRCLES_SRC"]
    fn print_edges() {
        let src = std::env::var("BIRDCAGE_CIRCLES_SRC").unwrap();
        for edge in Tree::read(Path::new(&src)).sibling_edges() {
            println!("{edge:?}");
        }
    }

    #[test]
    fn the_workspace_has_no_module_circles() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let mut circles = Vec::new();
        let sources = member_sources(root);
        assert!(sources.len() >= 10, "{sources:?}");
        for src in sources {
            for circle in Tree::read(&src).circles() {
                circles.push(format!("{}: {circle}", src.display()));
            }
        }
        assert!(
            circles.is_empty(),
            "module circles:\n{}",
            circles.join("\n")
        );
    }
}
