//! The crate tables of README.md and docs/DESIGN.md read against the workspace: each row's
//! crate and each item it names in backticks, and the dependency arrows (`a` <- `b`) their
//! paragraphs draw. Every complaint names the row, the item and what is wrong.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace as its manifests say: member folders, excluded folders, each member's package
/// name and the workspace packages it depends on (`[dependencies]`, target-specific ones too;
/// not dev- or build-dependencies: those are no arrow of the design).
pub struct Workspace {
    pub root: PathBuf,
    pub members: Vec<String>,
    pub excluded: Vec<String>,
    /// Folder -> package name.
    pub package: BTreeMap<String, String>,
    /// Package -> the workspace packages it depends on.
    pub depends: BTreeMap<String, BTreeSet<String>>,
}

/// The quoted strings of the root manifest's `KEY = [...]` line.
fn list(manifest: &str, key: &str) -> Vec<String> {
    let line = manifest
        .lines()
        .find(|l| l.starts_with(&format!("{key} = [")))
        .unwrap_or_else(|| panic!("no `{key} = [` line in the root Cargo.toml"));
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

impl Workspace {
    pub fn read(root: &Path) -> Workspace {
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let members = list(&manifest, "members");
        let excluded = list(&manifest, "exclude");
        let mut package = BTreeMap::new();
        let mut keys = BTreeMap::new();
        for folder in &members {
            let text = std::fs::read_to_string(root.join(folder).join("Cargo.toml")).unwrap();
            let name = text
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{folder}/Cargo.toml: no package name"));
            package.insert(folder.clone(), name.to_string());
            let mut deps = BTreeSet::new();
            let mut in_deps = false;
            for line in text.lines() {
                if line.starts_with('[') {
                    in_deps = line == "[dependencies]"
                        || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
                } else if in_deps && let Some(key) = line.split(['=', '.', ' ']).next() {
                    deps.insert(key.to_string());
                }
            }
            keys.insert(name.to_string(), deps);
        }
        let names: BTreeSet<String> = package.values().cloned().collect();
        let depends = keys
            .into_iter()
            .map(|(name, deps)| (name, deps.intersection(&names).cloned().collect()))
            .collect();
        Workspace {
            root: root.to_path_buf(),
            members,
            excluded,
            package,
            depends,
        }
    }

    /// The member folder a name stands for (its folder, or its package name).
    fn folder(&self, name: &str) -> Option<&str> {
        self.package
            .iter()
            .find(|(folder, package)| *folder == name || *package == name)
            .map(|(folder, _)| folder.as_str())
    }

    /// Whether `package` depends on `on`, directly or through others.
    fn reaches(&self, package: &str, on: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![package.to_string()];
        while let Some(p) = stack.pop() {
            for d in self.depends.get(&p).into_iter().flatten() {
                if d == on {
                    return true;
                }
                if seen.insert(d.clone()) {
                    stack.push(d.clone());
                }
            }
        }
        false
    }
}

/// One row of a crate table: the crate's name as the row spells it and the rest of the row.
pub struct Row {
    pub name: String,
    pub rest: String,
}

/// The rows of the table under `heading` in `doc` (`| `name` ... | role |` or
/// `| [`name`](folder/) ... | role |`).
pub fn rows(doc: &str, heading: &str) -> Vec<Row> {
    let start = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no {heading}"));
    doc[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let first = l.trim_start_matches(['|', ' ', '[']);
            let name = first.split('`').nth(1).unwrap_or_default().to_string();
            let after = first.split_once('`').unwrap().1.split_once('`').unwrap().1;
            let rest = match after.strip_prefix("](") {
                Some(link) => link.split_once(')').map_or("", |(_, r)| r),
                None => after,
            };
            Row {
                name,
                rest: rest.to_string(),
            }
        })
        .collect()
}

/// The `.rs` files under `dir`.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path, text));
        }
    }
    out
}

/// Whether `text` holds `word` with no identifier character either side.
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .any(|(at, _)| !text[..at].ends_with(ident) && !text[at + word.len()..].starts_with(ident))
}

/// What a crate's folder holds, read once for its row.
struct Crate<'a> {
    name: &'a str,
    folder: PathBuf,
    files: Vec<(PathBuf, String)>,
}

impl Crate<'_> {
    fn src(&self) -> PathBuf {
        self.folder.join("src")
    }

    /// The files that declare `pub struct|enum|trait|type NAME`.
    fn declaring(&self, name: &str) -> Vec<&Path> {
        self.files
            .iter()
            .filter(|(_, text)| {
                ["struct", "enum", "trait", "type"]
                    .iter()
                    .any(|kind| has_word(text, &format!("pub {kind} {name}")))
            })
            .map(|(path, _)| path.as_path())
            .collect()
    }

    /// Whether a file holds `pattern` (a word).
    fn mentions(&self, pattern: &str) -> bool {
        self.files.iter().any(|(_, text)| has_word(text, pattern))
    }

    /// The module `name`'s file: `src/NAME.rs` or `src/NAME/mod.rs`, or one folder down for a
    /// binary's subcommands (`src/cli/NAME.rs`).
    fn module(&self, name: &str, depth: usize) -> Option<PathBuf> {
        let mut dirs = vec![self.src()];
        if depth > 0 {
            dirs.extend(
                std::fs::read_dir(self.src())
                    .into_iter()
                    .flatten()
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.is_dir()),
            );
        }
        dirs.iter()
            .flat_map(|d| [d.join(format!("{name}.rs")), d.join(name).join("mod.rs")])
            .find(|p| p.is_file())
    }

    /// Whether the module `module` declares `name` or re-exports it (`pub use`).
    fn in_module(&self, module: &str, name: &str, declared: &[&Path]) -> bool {
        let home = self.src().join(module);
        let file = self.src().join(format!("{module}.rs"));
        declared.iter().any(|p| p.starts_with(&home) || *p == file)
            || [file, home.join("mod.rs")].iter().any(|f| {
                std::fs::read_to_string(f).is_ok_and(|text| {
                    text.split(';')
                        .filter(|s| s.trim_start().starts_with("pub use "))
                        .any(|s| has_word(s, name))
                })
            })
    }

    fn binary(&self) -> bool {
        self.src().join("main.rs").is_file()
    }

    fn relative(&self, path: &Path, root: &Path) -> String {
        path.strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// The backticked items of `text`, each with the module whose parentheses it stands in (the
/// row's `module` (...) spans) and the text just before and after it.
fn items(text: &str, is_module: &dyn Fn(&str) -> bool) -> Vec<(String, Option<String>, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<Option<String>> = vec![None];
    let mut last: Option<String> = None;
    let mut rest = text;
    let mut before = String::new();
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '`' => {
                let (item, after) = rest.split_once('`').unwrap_or((rest, ""));
                let inside = stack.iter().rev().find_map(Clone::clone);
                out.push((item.to_string(), inside, before.clone() + "\u{0}" + after));
                last = Some(item.to_string());
                rest = after;
                before.clear();
                continue;
            }
            '(' => {
                let module = last
                    .take()
                    .filter(|m| before.trim().is_empty() && is_module(m));
                stack.push(module);
            }
            ')' if stack.len() > 1 => {
                stack.pop();
            }
            _ => {}
        }
        if !c.is_whitespace() && c != '(' {
            last = None;
        }
        before.push(c);
    }
    out
}

/// What is wrong with the rows of `doc` (its name `label`) under `heading`.
pub fn check_rows(ws: &Workspace, label: &str, doc: &str, heading: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let rows = rows(doc, heading);
    for folder in &ws.members {
        if !rows.iter().any(|r| ws.folder(&r.name) == Some(folder)) {
            wrong.push(format!(
                "{label} has no row for the workspace member `{folder}` (Cargo.toml's members)"
            ));
        }
    }
    for row in &rows {
        let Some(folder) = ws.folder(&row.name) else {
            if !ws.excluded.contains(&row.name) {
                wrong.push(format!(
                    "{label} row `{}` names no workspace member nor an excluded folder",
                    row.name
                ));
            }
            continue;
        };
        let krate = Crate {
            name: &row.name,
            folder: ws.root.join(folder),
            files: sources(&ws.root.join(folder).join("src")),
        };
        wrong.extend(check_row(ws, label, &krate, &row.rest));
    }
    wrong
}

/// What is wrong with one row's items.
fn check_row(ws: &Workspace, label: &str, krate: &Crate, text: &str) -> Vec<String> {
    let row = krate.name;
    let lib_name = ws.package[ws.folder(row).unwrap()].replace('-', "_");
    let is_module = |m: &str| krate.module(m, 0).is_some();
    let mut wrong = Vec::new();
    let mut say = |what: String| wrong.push(format!("{label} row `{row}` {what}"));
    // In a list after "used by", the items name the crate's users: a subcommand's module of
    // a binary that depends on this crate (`links`, `study`: the CLI's).
    let mut users = false;
    for (item, inside, around) in items(text, &is_module) {
        let (before, after) = around.split_once('\u{0}').unwrap();
        users = before.to_lowercase().ends_with("used by ")
            || (users && [", ", " and ", ", and "].contains(&before));
        if users && ws.folder(&item).is_none() {
            let user = ws.members.iter().any(|m| {
                let user = Crate {
                    name: m,
                    folder: ws.root.join(m),
                    files: Vec::new(),
                };
                user.binary()
                    && user.module(&item, 1).is_some()
                    && ws.reaches(&ws.package[m], &ws.package[ws.folder(row).unwrap()])
            });
            if !user {
                say(format!(
                    "says it is used by `{item}`, but no binary that depends on it has a \
                     module `{item}`"
                ));
            }
            continue;
        }
        let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
        let camel = item.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && item.chars().nth(1).is_some_and(|c| c.is_ascii_lowercase())
            && ident(&item);
        if ws.folder(&item).is_some() || ws.excluded.contains(&item) {
            continue; // a crate of the workspace
        } else if item == "no_std" {
            let lib = std::fs::read_to_string(krate.src().join("lib.rs")).unwrap_or_default();
            if !lib.contains("no_std") {
                say("says `no_std`, but its src/lib.rs has no `no_std` attribute".into());
            }
        } else if before.ends_with("feature ") || after.starts_with(" feature") {
            let manifest = std::fs::read_to_string(krate.folder.join("Cargo.toml")).unwrap();
            let features = manifest.split("[features]").nth(1).unwrap_or("");
            let features = features.split("\n[").next().unwrap_or("");
            if !features
                .lines()
                .any(|l| l.starts_with(&format!("{item} =")))
            {
                say(format!(
                    "names the feature `{item}`, which its Cargo.toml lacks"
                ));
            }
        } else if let Some((head, tail)) = item.split_once("::")
            && ident(head)
            && ident(tail)
        {
            if head == lib_name {
                if !krate.mentions(&format!("pub fn {tail}")) {
                    say(format!(
                        "names `{item}` but `pub fn {tail}` is in no file of it"
                    ));
                }
            } else {
                let declared = krate.declaring(head);
                let with_fn = declared.iter().any(|p| {
                    std::fs::read_to_string(p).is_ok_and(|t| has_word(&t, &format!("fn {tail}")))
                });
                if declared.is_empty() {
                    say(format!(
                        "names `{item}` but `{head}` is declared in no file of it"
                    ));
                } else if !with_fn {
                    say(format!(
                        "names `{item}` but no `fn {tail}` is beside `{head}`'s declaration"
                    ));
                }
            }
        } else if camel {
            let declared = krate.declaring(&item);
            let implemented = krate.mentions(&format!("{item} for"));
            let imported = krate.files.iter().any(|(_, t)| {
                t.split(';')
                    .filter(|s| s.trim_start().starts_with("use "))
                    .any(|s| has_word(s, &item))
            });
            if declared.is_empty() && !implemented && !imported {
                say(format!(
                    "names `{item}` but it is declared in no file of {row}/src \
                     (`pub struct|enum|trait|type {item}`), nor implemented or imported there"
                ));
            } else if let Some(module) = &inside
                && !declared.is_empty()
                && !krate.in_module(module, &item, &declared)
            {
                let at: Vec<String> = declared
                    .iter()
                    .map(|p| krate.relative(p, &ws.root))
                    .collect();
                say(format!(
                    "names `{item}` in `{module}` but it is declared in {}",
                    at.join(", ")
                ));
            }
        } else if item.contains('_')
            && item.split('=').next().is_some_and(|v| {
                v.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
        {
            let var = item.split('=').next().unwrap();
            let tests = sources(&krate.folder.join("tests"));
            if !krate.mentions(var) && !tests.iter().any(|(_, t)| has_word(t, var)) {
                say(format!("names `{var}`, which no source of it reads"));
            }
        } else if ident(&item) && item.chars().all(|c| !c.is_ascii_uppercase()) {
            let found = krate.module(&item, 0).is_some()
                || krate.mentions(&format!("pub fn {item}"))
                || (krate.binary()
                    && (krate.module(&item, 1).is_some()
                        || krate.mentions(&format!("\"{item}\""))
                        || subcommand(krate, &item)));
            if !found {
                say(format!(
                    "names `{item}` but {row}/src has no module `{item}` (src/{item}.rs or \
                     src/{item}/mod.rs) nor a `pub fn {item}`{}",
                    if krate.binary() {
                        " nor a subcommand of that name"
                    } else {
                        ""
                    }
                ));
            }
        } else if item.contains('/')
            && !item.contains([' ', ':'])
            && item.rsplit('/').next().is_some_and(|f| f.contains('.'))
            && !ws.root.join(&item).exists()
        {
            say(format!("names the file `{item}`, which does not exist"));
        }
    }
    wrong
}

/// Whether a binary's sources hold an enum variant `Name` (a clap subcommand) for `word`.
fn subcommand(krate: &Crate, word: &str) -> bool {
    let mut chars = word.chars();
    let camel: String = chars
        .next()
        .map(|c| c.to_ascii_uppercase())
        .into_iter()
        .chain(chars)
        .collect();
    krate.files.iter().any(|(_, text)| {
        text.lines().any(|l| {
            l.trim_start()
                .strip_prefix(&camel)
                .is_some_and(|r| r.starts_with([' ', '{', '(', ',']) || r.is_empty())
        })
    })
}

/// What is wrong with the arrows (`a` <- `b`: `b` depends on `a`, maybe through others) and the
/// crate names of `doc`'s paragraph that starts with `opening`.
pub fn check_arrows(ws: &Workspace, label: &str, doc: &str, opening: &str) -> Vec<String> {
    let start = doc
        .find(opening)
        .unwrap_or_else(|| panic!("{label}: no paragraph opening {opening:?}"));
    let paragraph = doc[start..]
        .split("\n\n")
        .next()
        .unwrap()
        .replace('\n', " ");
    let mut wrong = Vec::new();
    let parts: Vec<&str> = paragraph.split('`').collect();
    let names: Vec<(usize, &str)> = parts
        .iter()
        .copied()
        .enumerate()
        .skip(1)
        .step_by(2)
        .collect();
    for &(_, name) in &names {
        let krate = name.split("::").next().unwrap();
        if ws.folder(krate).is_none() {
            wrong.push(format!(
                "{label}, {opening:?}: names `{name}`, but `{krate}` is no workspace member"
            ));
        }
    }
    for pair in names.windows(2) {
        let ((i, low), (_, high)) = (pair[0], pair[1]);
        if parts[i + 1].trim() != "<-" {
            continue;
        }
        let (Some(l), Some(h)) = (ws.folder(low), ws.folder(high)) else {
            continue;
        };
        if !ws.reaches(&ws.package[h], &ws.package[l]) {
            wrong.push(format!(
                "{label}, {opening:?}: `{low}` <- `{high}`, but `{high}` does not depend on \
                 `{low}` (its Cargo.toml's [dependencies], through any crate)"
            ));
        }
    }
    wrong
}
