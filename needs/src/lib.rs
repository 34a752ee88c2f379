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
//!
//! A test that needs a condition of the machine rather than a tool (to run as root, to be the
//! only test starting boards) calls [`skip_condition`] instead: a hosted runner that is not
//! root lacks nothing CI could install, so the skip goes to the ledger, with the condition's
//! name, and never fails, whatever [`REQUIRE_ENV`] says.
//!
//! [`snapshot`]: what a committed snapshot holds of a file whose bytes move for no reader's
//! reason (an SVG's last float digits), shared by the test crates that pin reports.

#![cfg_attr(test, allow(clippy::disallowed_methods))] // tests write their fixtures freely (clippy.toml)

pub mod snapshot;

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
    record(tool, &why);
}

/// The test in hand cannot run on this machine as it is (`condition`, a row of xtask's
/// `CONDITIONS`: `root`, ...), for the reason `why`: says `skipped: WHY` and records it in the
/// ledger, under [`REQUIRE_ENV`] too. The caller returns after it.
pub fn skip_condition(condition: &str, why: impl Display) {
    record(condition, &why.to_string());
}

/// Says `skipped: WHY` and appends the ledger's line.
fn record(tool: &str, why: &str) {
    println!("skipped: {why}");
    eprintln!("skipped: {why}");
    if let Some(path) = std::env::var_os(LEDGER_ENV) {
        let line = ledger_line(&binary(), &test_name(), tool, why);
        // O_APPEND: test processes side by side each add one whole line. The tests' own
        // ledger, and this crate is under `shards` (its dev-dependency), so not through
        // `shards::safe` (clippy.toml).
        #[allow(clippy::disallowed_methods)]
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
    use std::process::Command;

    /// Runs this test binary's test `name` (an ignored one) with [`super::REQUIRE_ENV`] set
    /// and a ledger: whether it passed, and the ledger's text.
    fn run_required(name: &str) -> (bool, String) {
        let dir = std::env::temp_dir().join(format!("needs-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ledger = dir.join("skipped.tsv");
        let status = Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--ignored", "--test-threads=1"])
            .env(super::REQUIRE_ENV, "1")
            .env(super::LEDGER_ENV, &ledger)
            .output()
            .unwrap()
            .status;
        let text = std::fs::read_to_string(&ledger).unwrap_or_default();
        std::fs::remove_dir_all(&dir).unwrap();
        (status.success(), text)
    }

    #[test]
    #[ignore = "run by a_condition_skips_into_the_ledger_and_a_tool_fails_under_require"]
    fn skips_for_a_tool() {
        super::skip("nauty", "no geng");
    }

    #[test]
    #[ignore = "run by a_condition_skips_into_the_ledger_and_a_tool_fails_under_require"]
    fn skips_for_a_condition() {
        super::skip_condition("root", "not root");
    }

    #[test]
    fn a_condition_skips_into_the_ledger_and_a_tool_fails_under_require() {
        let (passed, ledger) = run_required("tests::skips_for_a_condition");
        assert!(passed, "a condition never fails under the variable");
        assert!(
            ledger.ends_with("tests::skips_for_a_condition\troot\tnot root\n"),
            "{ledger:?}"
        );
        let (passed, ledger) = run_required("tests::skips_for_a_tool");
        assert!(!passed, "a tool's skip fails under the variable");
        assert_eq!(ledger, "", "and is no skip");
    }

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
