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

/// Where coverage is written (`--coverage`), and whether added to what the file holds
/// (`--coverage-merge`).
#[derive(Clone, Debug)]
pub struct Output {
    /// The file.
    pub path: std::path::PathBuf,
    /// Keep the functions it marks as run.
    pub merge: bool,
}

impl Output {
    /// Writes which of `elf`'s functions ran ([`write`]); the error in one line, its cause
    /// included.
    pub fn write(&self, elf: &Elf, executed: &HashSet<u32>) -> Result<(), String> {
        write(&self.path, elf, executed, self.merge).map_err(|e| {
            match std::error::Error::source(&e) {
                Some(cause) => format!("{e}: {cause}"),
                None => e.to_string(),
            }
        })
    }
}

/// The largest coverage file read back to merge: a line per function, some 100 bytes, so
/// far past any ELF's; a larger file is not one this board wrote, and is replaced.
const MAX_READ: u64 = 16 << 20;

/// Writes [`text`] to `path` whole, never through a link and never into a FIFO
/// ([`shards::safe::write_file`]: anything but a regular file there is refused by name).
/// `merge`: a function `path` already marks as run stays marked, when the file lists the
/// same functions (this ELF's): a resumed report's coverage is the union of its runs', not
/// the last one's alone.
pub fn write(
    path: &Path,
    elf: &Elf,
    executed: &HashSet<u32>,
    merge: bool,
) -> Result<(), shards::FileError> {
    let mut text = text(elf, executed);
    if merge && let Some(before) = read(path)? {
        text = merged(&text, &before);
    }
    shards::safe::write_file(path, text.as_bytes())
}

/// What `path` holds, if it is a regular file not too large to be a coverage file; `None`
/// if it is absent. Anything else is refused (a FIFO would block).
fn read(path: &Path) -> Result<Option<String>, shards::FileError> {
    use std::io::Read;
    let file = match shards::safe::open_regular(path) {
        Ok(file) => file,
        Err(shards::FileError::Read { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(MAX_READ + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| shards::FileError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    Ok((bytes.len() as u64 <= MAX_READ)
        .then(|| String::from_utf8(bytes).ok())
        .flatten())
}

/// `now` (this run's [`text`]) with every function `before` marks `+` marked too, when
/// `before` lists the same functions in the same order; else `now` as it is (another ELF's
/// file, or not a coverage file).
fn merged(now: &str, before: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (now.lines().collect(), before.lines().collect());
    let name = |line: &str| line.get(2..).map(str::to_owned);
    let same = a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| (y.starts_with("+ ") || y.starts_with("- ")) && name(x) == name(y));
    if !same {
        return now.to_string();
    }
    let mut out = String::with_capacity(now.len());
    for (x, y) in a.iter().zip(&b) {
        if y.starts_with("+ ") {
            out.push_str(y);
        } else {
            out.push_str(x);
        }
        out.push('\n');
    }
    out
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
        let _ = shards::safe::write_file(Path::new(&path), profile(elf, blocks).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::merged;

    #[test]
    fn a_merge_keeps_every_function_either_run_marked() {
        let now = "+ reset\n- main\n- idle\n";
        let before = "+ reset\n+ main\n- idle\n";
        assert_eq!(merged(now, before), "+ reset\n+ main\n- idle\n");
        assert_eq!(merged(before, now), "+ reset\n+ main\n- idle\n");
    }

    #[test]
    fn another_elfs_file_is_replaced_not_merged() {
        let now = "+ reset\n- main\n";
        assert_eq!(merged(now, "+ reset\n+ other\n"), now);
        assert_eq!(merged(now, "+ reset\n"), now);
        assert_eq!(merged(now, "+ reset\nx main\n"), now);
    }
}
