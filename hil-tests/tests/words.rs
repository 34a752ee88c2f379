//! Every word list a user reads beside the table it comes from (issue 65): the parsers, their
//! errors and the board's answers name their words from the tables, but `--help`'s doc
//! comments and the READMEs are literal text, so each of their lists is read here and held to
//! its table. A list that drifts fails the one test below, named with the word it lacks or
//! has beyond its table.

use std::path::Path;
use std::process::Command;

use bench::dut::pil::Link;
use bench::faults::board::BoardVerdict;
use bench::faults::glitches::GlitchClass;
use bench::faults::kinds::FaultKind;
use bench::{ScenarioKind, Stage};
use boards::virtual_board::{BoardFault, End, GlitchKind, Shown};

/// One word list as written, and the table it must say.
struct List {
    /// Where it is written.
    name: &'static str,
    /// The table's words.
    table: Vec<String>,
    /// The words as written (empty when the list was not found).
    written: Vec<String>,
    /// Whether the order must be the table's too.
    ordered: bool,
}

impl List {
    /// What is wrong with the list, if anything: the words it lacks, those beyond the table,
    /// or its order.
    fn drift(&self) -> Option<String> {
        let missing: Vec<&String> = self
            .table
            .iter()
            .filter(|w| !self.written.contains(w))
            .collect();
        let extra: Vec<&String> = self
            .written
            .iter()
            .filter(|w| !self.table.contains(w))
            .collect();
        let mut wrong = Vec::new();
        if !missing.is_empty() {
            wrong.push(format!("lacks {missing:?}"));
        }
        if !extra.is_empty() {
            wrong.push(format!("has {extra:?} beyond its table"));
        }
        if wrong.is_empty() && self.ordered && self.written != self.table {
            wrong.push(format!("is in another order than {:?}", self.table));
        }
        (!wrong.is_empty()).then(|| {
            format!(
                "{}: {} (written: {:?})",
                self.name,
                wrong.join(", "),
                self.written
            )
        })
    }
}

fn words<I: IntoIterator<Item = S>, S: ToString>(words: I) -> Vec<String> {
    words.into_iter().map(|w| w.to_string()).collect()
}

/// The text between `from` and the next `to` after it, if both are there.
fn between<'a>(text: &'a str, from: &str, to: &str) -> Option<&'a str> {
    let start = text.find(from)? + from.len();
    let end = text[start..].find(to)?;
    Some(&text[start..start + end])
}

/// `a, b, c` or `a, b and c` as its words.
fn split_list(text: Option<&str>) -> Vec<String> {
    text.map_or_else(Vec::new, |t| {
        t.split([',', ' '])
            .filter(|w| !w.is_empty() && *w != "and" && *w != "or")
            .map(|w| w.trim_matches('`').to_string())
            .collect()
    })
}

/// The words in backquotes that a ` (` follows: the named items of a list in prose
/// (`` `tree3` (every position...), `random4` (...) ``).
fn named_items(text: &str) -> Vec<String> {
    text.split('`')
        .collect::<Vec<_>>()
        .windows(2)
        .enumerate()
        .filter(|(i, pair)| i % 2 == 1 && pair[1].starts_with(" ("))
        .map(|(_, pair)| pair[0].to_string())
        .collect()
}

/// An option's text in `hil-tests run --help` (on the option's line or below it), its lines
/// joined by single spaces.
fn option_help(help: &str, option: &str) -> String {
    let mut lines = help.lines().skip_while(|l| {
        !l.trim_start()
            .strip_prefix(option)
            .is_some_and(|rest| rest.starts_with(' ') || rest.is_empty())
    });
    let first = lines.next().unwrap_or_default().trim_start();
    let first = first.get(option.len()..).unwrap_or_default().trim_start();
    let first = match first.strip_prefix('<') {
        Some(value) => value.split_once('>').map_or("", |(_, text)| text),
        None => first,
    };
    let below = lines.take_while(|l| l.starts_with("          "));
    flat(
        &std::iter::once(first)
            .chain(below)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The text with every run of white space one space: a README's lists wrap anywhere.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The values of `option` in a synopsis (`--scenario a|b|c`), its alternatives' words.
fn synopsis_values(text: &str, option: &str) -> Vec<String> {
    text.split(&format!("{option} "))
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .find(|values| values.contains('|'))
        .map_or_else(Vec::new, |values| words(values.split('|')))
}

/// A README's section (from its `## ` heading to the next).
fn section<'a>(readme: &'a str, heading: &str) -> &'a str {
    let start = readme.find(heading).unwrap_or(readme.len());
    let rest = &readme[start..];
    let end = rest[heading.len()..]
        .find("\n## ")
        .map_or(rest.len(), |e| e + heading.len());
    &rest[..end]
}

/// The backquoted words of the first column of the first table in `text`.
fn first_column(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("| "))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| between(l, "| `", "`"))
        .map(str::to_string)
        .collect()
}

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every list: `hil-tests run --help`'s, hil-tests/README.md's, virtual-board/README.md's.
fn lists() -> Vec<List> {
    let out = Command::new(env!("CARGO_BIN_EXE_hil-tests"))
        .args(["run", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success(), "hil-tests run --help failed");
    let help = String::from_utf8(out.stdout).unwrap();
    let kinds = option_help(&help, "--kinds");
    let fail_on = option_help(&help, "--fail-on");
    let hil_raw = read("README.md");
    let board_raw = read("../virtual-board/README.md");
    let hil = flat(&hil_raw);
    let glitch_campaign = section(&hil_raw, "## Glitch campaign on the virtual board");
    let glitch_trials = flat(section(&board_raw, "## Glitch trials (`monitor trial`)"));

    let kinds_table = words(GlitchKind::ALL);
    let at_the_instant = words(GlitchKind::AT_THE_INSTANT);
    let not_at_the_instant: Vec<String> = kinds_table
        .iter()
        .filter(|k| !at_the_instant.contains(k))
        .cloned()
        .collect();
    let scenarios = words(ScenarioKind::names());
    let glitch_classes = words(GlitchClass::WORDS);
    let fault_classes = words(bench::faults::Verdict::WORDS);
    let board_classes: Vec<String> = words(BoardVerdict::WORDS)
        .into_iter()
        .filter(|w| !fault_classes.contains(w))
        .collect();
    let fault_kinds = words(FaultKind::ALL.map(FaultKind::label));
    let list = |name, table: &Vec<String>, written, ordered| List {
        name,
        table: table.clone(),
        written,
        ordered,
    };
    vec![
        list(
            "run --help, --kinds (the default kinds)",
            &at_the_instant,
            split_list(between(&kinds, "separated by commas: ", " (these")),
            true,
        ),
        list(
            "run --help, --kinds (the kinds besides)",
            &not_at_the_instant,
            split_list(between(&kinds, "each at its instant) and ", " (")),
            true,
        ),
        list(
            "run --help, --scenario",
            &scenarios,
            named_items(&option_help(&help, "--scenario")),
            true,
        ),
        list(
            "run --help, --fail-on (glitches)",
            &glitch_classes,
            split_list(between(&fail_on, "for `glitches` ", " (default")),
            true,
        ),
        list(
            "run --help, --fail-on (faults)",
            &fault_classes,
            split_list(between(
                &fail_on,
                "for `faults` ",
                ", and on the virtual board",
            )),
            true,
        ),
        list(
            "run --help, --fail-on (board faults)",
            &board_classes,
            split_list(between(&fail_on, "on the virtual board ", " (default")),
            true,
        ),
        list(
            "hil-tests/README.md, the command line's --scenario",
            &scenarios,
            synopsis_values(section(&hil_raw, "## The command line"), "--scenario"),
            true,
        ),
        list(
            "hil-tests/README.md, the glitch campaign's default kinds",
            &at_the_instant,
            split_list(between(glitch_campaign, "(default `", "`)")),
            true,
        ),
        list(
            "hil-tests/README.md, the glitch campaign's table of kinds",
            &kinds_table,
            first_column(glitch_campaign),
            false,
        ),
        list(
            "hil-tests/README.md, --fail-on's glitch classes",
            &glitch_classes,
            split_list(between(&hil, "the visitor saw; its classes: ", ");")),
            true,
        ),
        list(
            "hil-tests/README.md, --fail-on's fault classes",
            &fault_classes,
            split_list(
                between(
                    &hil,
                    "a measurement; its classes: ",
                    ", and on the virtual board",
                )
                .map(|t| t.replace(" (a changed move outside the tie set)", ""))
                .as_deref(),
            ),
            true,
        ),
        list(
            "hil-tests/README.md, --fail-on's board fault classes",
            &board_classes,
            split_list(between(&hil, "and on the virtual board `", "),").map(|t| t.trim())),
            true,
        ),
        list(
            "virtual-board/README.md, the board faults' table",
            &words(BoardFault::FORMS),
            first_column(section(&board_raw, "## Board faults (`--fault`)")),
            false,
        ),
        list(
            "virtual-board/README.md, the glitch trials' kinds",
            &kinds_table,
            named_items(between(&glitch_trials, "The kinds:", "AT is").unwrap_or_default()),
            true,
        ),
        list(
            "hil-tests/README.md, the command line's --stage",
            &words(Stage::ALL.map(Stage::arg)),
            synopsis_values(section(&hil_raw, "## The command line"), "--stage"),
            true,
        ),
        list(
            "hil-tests/README.md, the command line's --link",
            &words(Link::ALL),
            synopsis_values(section(&hil_raw, "## The command line"), "--link"),
            true,
        ),
        list(
            "run --help, --link",
            &words(Link::ALL),
            named_items(&option_help(&help, "--link")),
            true,
        ),
        list(
            "hil-tests/README.md, Scenarios",
            &scenarios,
            section(&hil_raw, "## Scenarios")
                .lines()
                .filter_map(|l| between(l, "- `", "`:"))
                .map(str::to_string)
                .collect(),
            false,
        ),
        list(
            "hil-tests/README.md, the fault campaign's M=3 table",
            &fault_kinds,
            plain_first_column(between(&hil_raw, "\nM=3:\n", "\nM=4:").unwrap_or_default()),
            true,
        ),
        list(
            "hil-tests/README.md, the fault campaign's M=4 table",
            &fault_kinds,
            plain_first_column(between(&hil_raw, "\nM=4:\n", "\nWhy:").unwrap_or_default()),
            true,
        ),
        list(
            "hil-tests/README.md, the hardening table's classes",
            &words(GlitchClass::ALL.map(GlitchClass::name)),
            classes_after_trials(&hil_raw),
            true,
        ),
        list(
            "hil-tests/hardening.sh, the table it prints",
            &words(GlitchClass::ALL.map(GlitchClass::name)),
            classes_after_trials(&read("hardening.sh")),
            true,
        ),
        list(
            "virtual-board/README.md, the glitch trials' fixed LED words",
            &words(Shown::NAMED.map(|(_, word)| word)),
            quoted_once(
                between(&glitch_trials, "`A1,C1,fault`: an edge, ", ", or `lit:")
                    .unwrap_or_default(),
            ),
            true,
        ),
        list(
            "virtual-board/README.md, the glitch trials' ends",
            &words(End::WORDS.map(|(_, word)| word)),
            quoted_once(between(&glitch_trials, "END is ", ". The PC").unwrap_or_default()),
            true,
        ),
    ]
}

/// The class columns of the first table headed `| build | campaign | trials | ...` in `text`.
fn classes_after_trials(text: &str) -> Vec<String> {
    const HEAD: &str = "| build | campaign | trials |";
    text.lines()
        .find_map(|line| line.split_once(HEAD))
        .map(|(_, cells)| {
            let cells = cells.trim_end_matches('"').trim_end().trim_end_matches('|');
            cells.split('|').map(|c| c.trim().to_string()).collect()
        })
        .unwrap_or_default()
}

/// The first column of the first table in `text`, below its header.
fn plain_first_column(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("| "))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .filter_map(|l| l.split('|').nth(1))
        .map(|cell| cell.trim().to_string())
        .collect()
}

/// The words in backquotes, each once, in the order they first appear.
fn quoted_once(text: &str) -> Vec<String> {
    let mut seen = Vec::new();
    for word in text.split('`').skip(1).step_by(2) {
        if !seen.iter().any(|w| w == word) {
            seen.push(word.to_string());
        }
    }
    seen
}

/// The GDB stubs' kinds are one table, `KINDS`; bench/README.md says its rows in prose
/// (`the virtual board's, QEMU's, then any stub with no quirks`): one item a row, each but
/// the last (the catch-all) the start of its row's name.
#[test]
fn the_bench_readme_names_each_stub_kind() {
    use bench::dut::hil::stub::KINDS;
    let readme = flat(&read("../bench/README.md"));
    let items: Vec<&str> = between(&readme, "(`KINDS`: ", ")")
        .expect("bench/README.md lists KINDS")
        .split(", ")
        .map(|item| item.trim_start_matches("then "))
        .collect();
    assert_eq!(
        items.len(),
        KINDS.len(),
        "bench/README.md lists {items:?} for the stub kinds {KINDS:?}"
    );
    for (item, kind) in items.iter().zip(&KINDS[..KINDS.len() - 1]) {
        assert!(
            kind.name.starts_with(item),
            "bench/README.md says {item:?} for the stub kind {:?}",
            kind.name
        );
    }
}

/// The figure of issue 65: 0 drifted word lists. Each list above is found (a list that
/// moved is a failure too, not a pass on nothing) and says its table's words.
#[test]
fn every_word_list_says_its_table() {
    let drifted: Vec<String> = lists().iter().filter_map(List::drift).collect();
    assert!(
        drifted.is_empty(),
        "{} drifted word lists:\n{}",
        drifted.len(),
        drifted.join("\n")
    );
}

/// The reader above finds what it is meant to: a list with a word gone, one too many or two
/// swapped is named, so the test above cannot pass by reading nothing.
#[test]
fn a_drifted_list_is_named_with_its_word() {
    let table = words(["skip", "register", "fpu"]);
    let drift = |written: &str, ordered| {
        List {
            name: "a list",
            table: table.clone(),
            written: split_list(Some(written)),
            ordered,
        }
        .drift()
    };
    assert_eq!(drift("skip, register and fpu", true), None);
    assert_eq!(
        drift("skip, register", true).unwrap(),
        "a list: lacks [\"fpu\"] (written: [\"skip\", \"register\"])"
    );
    assert!(
        drift("skip, register, fpu, zap", true)
            .unwrap()
            .contains("has [\"zap\"]")
    );
    assert!(
        drift("register, skip, fpu", true)
            .unwrap()
            .contains("another order")
    );
    assert_eq!(drift("register, skip, fpu", false), None);
    assert_eq!(
        named_items("`tree3` (all), with `--size`, or `records:FILE` (one)"),
        ["tree3", "records:FILE"]
    );
}
