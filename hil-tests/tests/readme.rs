//! The READMEs agree with the bench's command line: every runnable `hil-tests` line in them
//! exits and prints as written, and this crate's summary of the command line names every
//! subcommand, option and value `--help` lists. The marking and its reader are the
//! birdcage CLI's, shared (one reader for every README).

#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use std::path::Path;

#[path = "../../birdcage/tests/runnable/mod.rs"]
mod runnable;

#[test]
fn every_runnable_hil_tests_line_exits_and_prints_as_its_readme_says() {
    let ran = runnable::run_all("hil-tests", Path::new(env!("CARGO_BIN_EXE_hil-tests")));
    assert!(
        ran >= 3,
        "only {ran} runnable hil-tests lines in the READMEs"
    );
}

#[test]
fn the_command_line_summary_names_every_subcommand_option_and_value() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let summary = runnable::summary(&readme, "## The command line");
    assert!(summary.len() >= 5, "{summary:?}");
    let missing = runnable::check_summary(
        "hil-tests",
        Path::new(env!("CARGO_BIN_EXE_hil-tests")),
        &summary,
    );
    assert!(
        missing.is_empty(),
        "hil-tests/README.md, The command line:\n{}",
        missing.join("\n")
    );
}
