//! Which of the ELF's functions ran: every instruction block the core entered, mapped to the
//! function symbol holding it. Written as `+ name` (ran) or `- name` (never ran), one per line,
//! in address order.

use std::collections::HashSet;
use std::path::Path;

use crate::elf::Elf;

/// The coverage text of `executed` (block start addresses) over `elf`'s functions.
pub fn text(elf: &Elf, executed: &HashSet<u32>) -> String {
    let functions = elf.functions.as_slice();
    let mut ran = vec![false; functions.len()];
    for &at in executed {
        if let Some(i) = elf.functions.index_at(at) {
            ran[i] = true;
        }
    }
    let mut text = String::new();
    for (f, ran) in functions.iter().zip(ran) {
        text.push_str(if ran { "+ " } else { "- " });
        text.push_str(&f.name);
        text.push('\n');
    }
    text
}

/// Writes [`text`] to `path`.
pub fn write(path: &Path, elf: &Elf, executed: &HashSet<u32>) -> std::io::Result<()> {
    std::fs::write(path, text(elf, executed))
}

/// Instructions by function, most first (`VIRTUAL_BOARD_PROFILE`): where the virtual CPU's
/// time goes.
pub fn profile(elf: &Elf, blocks: &std::collections::HashMap<u32, u64>) -> String {
    let mut by_function: std::collections::HashMap<&str, u64> = std::collections::HashMap::new();
    for (&at, &n) in blocks {
        let name = elf.function_at(at).map_or("?", |f| f.name.as_str());
        *by_function.entry(name).or_default() += n;
    }
    let mut rows: Vec<(&str, u64)> = by_function.into_iter().collect();
    // Ties by name: the same run writes the same file.
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    rows.iter()
        .map(|(name, n)| format!("{n:>12} {name}\n"))
        .collect()
}

/// Writes [`profile`] to the file `VIRTUAL_BOARD_PROFILE` names, if it is set and profiling.
pub fn write_profile(elf: &Elf, blocks: &Option<std::collections::HashMap<u32, u64>>) {
    if let (Some(path), Some(blocks)) = (std::env::var_os("VIRTUAL_BOARD_PROFILE"), blocks) {
        let _ = std::fs::write(path, profile(elf, blocks));
    }
}
