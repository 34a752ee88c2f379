//! How a test that lacks a system tool says so (issue 49: nextest drops a passing test's
//! output, so a test that printed `skipped: ...` and returned was a green pass nobody saw).
//!
//! Every such test calls [`skip`] with the tool's name, as `xtask/src/system.rs`' table
//! names it (`nauty`, `qemu`, ...), and returns. Then:
//! - with `BIRDCAGE_REQUIRE_TOOLS=1` ([`REQUIRE_ENV`]) the test fails instead, naming the
//!   tool: CI sets it, so a tool CI lost is a red run, never a quiet skip;
//! - otherwise it prints `skipped: WHY` and appends one line to the ledger file named by
//!   `BIRDCAGE_SKIP_LEDGER` ([`LEDGER_ENV`]), which `cargo xtask test` sets, empties first and
//!   prints at its end with the count.
//!
//! A tool that is installed but fails to start is no reason to skip: callers tell the two
//! apart (see `switching::enumerate::nauty_available`).

use std::fmt::Display;
use std::io::Write as _;

/// Set to `1`, every [`skip`] fails its test instead.
pub const REQUIRE_ENV: &str = "BIRDCAGE_REQUIRE_TOOLS";

/// The ledger file every [`skip`] appends its line to.
pub const LEDGER_ENV: &str = "BIRDCAGE_SKIP_LEDGER";

/// The ledger's fields, tab-separated, one skip a line.
pub const LEDGER_COLUMNS: [&str; 4] = ["test binary", "test", "tool", "why"];

/// Whether [`REQUIRE_ENV`] asks every skip to fail.
pub fn required() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| v == "1")
}

/// The test in hand cannot run without `tool`, for the reason `why`: fails it under
/// [`REQUIRE_ENV`], otherwise says `skipped: WHY` and records it in the ledger. The caller
/// returns after it.
#[track_caller]
pub fn skip(tool: &str, why: impl Display) {
    let why = why.to_string();
    if required() {
        panic!("{REQUIRE_ENV}=1 and this test needs {tool}: {why}");
    }
    println!("skipped: {why}");
    eprintln!("skipped: {why}");
    if let Some(path) = std::env::var_os(LEDGER_ENV) {
        let line = ledger_line(&binary(), &test_name(), tool, &why);
        // O_APPEND: test processes side by side each add one whole line.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            panic!(
                "cannot record the skip in the ledger {}: {e}",
                std::path::Path::new(&path).display()
            );
        }
    }
}

/// One ledger line: the fields, tabs and newlines inside them made spaces.
pub fn ledger_line(binary: &str, test: &str, tool: &str, why: &str) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    format!(
        "{}\t{}\t{}\t{}\n",
        clean(binary),
        clean(test),
        clean(tool),
        clean(why)
    )
}

/// The test binary's name, without cargo's hash (`any_graph-0123abcd` is `any_graph`).
fn binary() -> String {
    let exe = std::env::current_exe().ok();
    let stem = exe
        .as_deref()
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name.to_string()
        }
        _ => stem,
    }
}

/// The test's name: libtest (and nextest, which runs libtest's binaries) names each test's
/// thread after it.
fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("(unnamed thread)")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::ledger_line;

    #[test]
    fn a_ledger_line_keeps_its_four_fields_whatever_the_words() {
        let line = ledger_line("links", "a::b", "nauty", "no\tgeng\nat all");
        assert_eq!(line, "links\ta::b\tnauty\tno geng at all\n");
        assert_eq!(
            line.trim_end().split('\t').count(),
            super::LEDGER_COLUMNS.len()
        );
    }
}
