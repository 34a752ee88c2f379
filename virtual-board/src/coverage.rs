//! Which of the ELF's functions ran: every instruction block the core entered, mapped to the
//! function symbol holding it. Written as `+ name` (ran) or `- name` (never ran), one per line,
//! in address order.

use std::collections::HashSet;
use std::path::Path;

use crate::elf::Elf;

/// The coverage text of `executed` (block start addresses) over `elf`'s functions.
pub fn text(elf: &Elf, executed: &HashSet<u32>) -> String {
    let mut ran = vec![false; elf.functions.len()];
    for &at in executed {
        let i = elf.functions.partition_point(|f| f.address <= at);
        if let Some(i) = i.checked_sub(1)
            && at < elf.functions[i].address + elf.functions[i].size
        {
            ran[i] = true;
        }
    }
    let mut text = String::new();
    for (f, ran) in elf.functions.iter().zip(ran) {
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
