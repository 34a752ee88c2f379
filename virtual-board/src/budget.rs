//! The firmware's instruction budget: instructions per function over a fixed, deterministic
//! scenario (a simulated visitor's game on a drawn board, `virtual-board budget`), compared
//! with a baseline kept in the repository (`firmware/budget.txt`). A function on the hot path
//! (at least [`HOT_SHARE_PERCENT`] of the baseline's total) that grows by more than
//! [`GROWTH_PERCENT`] fails; a function that shrinks, is new, or is off the hot path is only
//! printed. The virtual board counts instructions exactly (time is the count), so a run equals
//! the last one and any difference is the firmware's.

use std::fmt::{self, Write as _};

/// A hot function may grow by this much (percent of its baseline) before the budget fails:
/// the count does not vary run to run, so this tolerates deliberate small changes (a check
/// added to a hot loop) and catches a hot path made markedly slower.
pub const GROWTH_PERCENT: u64 = 10;

/// A function is on the hot path if its baseline count is at least this share (percent) of
/// the baseline's total.
pub const HOT_SHARE_PERCENT: u64 = 1;

/// Instructions per function, as written: one `COUNT NAME` a line, `#` comments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// (function, instructions), most first.
    pub rows: Vec<(String, u64)>,
}

/// A line of a budget table that is not `COUNT NAME`.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {what} (want `INSTRUCTIONS FUNCTION`)")]
pub struct ParseError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub what: String,
}

impl Table {
    /// Reads a table (the baseline file, or the profile `VIRTUAL_BOARD_PROFILE` writes).
    pub fn parse(text: &str) -> Result<Table, ParseError> {
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |what: String| ParseError { line: i + 1, what };
            let (count, name) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| error(format!("`{line}` has no function name")))?;
            let count = count
                .parse::<u64>()
                .map_err(|_| error(format!("`{count}` is not a count of instructions")))?;
            let name = name.trim();
            if rows.iter().any(|(n, _)| n == name) {
                return Err(error(format!("{name} appears twice")));
            }
            rows.push((name.to_string(), count));
        }
        Ok(Table { rows })
    }

    /// The table as the baseline file keeps it: a header saying what it is and how it is
    /// rewritten, then one `COUNT NAME` a line, most first.
    pub fn render(&self, scenario: &str) -> String {
        let mut text = format!(
            "# Instructions per firmware function, counted by the virtual board\n\
             # (virtual-board/src/budget.rs), over {scenario}.\n\
             # Checked by `.ci/run`; rewritten on purpose by `virtual-board budget --write`\n\
             # (firmware/README.md, Instruction budget).\n"
        );
        for (name, count) in &self.rows {
            let _ = writeln!(text, "{count:>12} {name}");
        }
        text
    }

    fn get(&self, name: &str) -> Option<u64> {
        self.rows.iter().find(|(n, _)| n == name).map(|r| r.1)
    }

    fn total(&self) -> u64 {
        self.rows.iter().map(|r| r.1).sum()
    }
}

/// One function's counts in the baseline and the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The function.
    pub name: String,
    /// Its baseline count (None: new).
    pub before: Option<u64>,
    /// Its count in the run (None: it no longer runs, or no longer exists).
    pub after: Option<u64>,
    /// On the hot path (by its baseline share).
    pub hot: bool,
    /// Over budget: hot, and grown by more than [`GROWTH_PERCENT`].
    pub over: bool,
}

/// The run against the baseline: every function whose count changed, and the totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The changed functions, baseline's order first, then the new ones.
    pub changed: Vec<Row>,
    /// Functions whose count is the same.
    pub unchanged: usize,
    /// The totals, baseline and run.
    pub totals: (u64, u64),
}

impl Comparison {
    /// Whether a hot function grew past its budget.
    pub fn over(&self) -> bool {
        self.changed.iter().any(|r| r.over)
    }
}

/// Compares `run` against `baseline`.
pub fn compare(baseline: &Table, run: &Table) -> Comparison {
    let total = baseline.total();
    let mut changed = Vec::new();
    let mut unchanged = 0;
    for (name, before) in &baseline.rows {
        let after = run.get(name);
        if after == Some(*before) {
            unchanged += 1;
            continue;
        }
        let hot = before * 100 >= total * HOT_SHARE_PERCENT;
        let grown = after.is_some_and(|a| a * 100 > before * (100 + GROWTH_PERCENT));
        changed.push(Row {
            name: name.clone(),
            before: Some(*before),
            after,
            hot,
            over: hot && grown,
        });
    }
    for (name, after) in &run.rows {
        if baseline.get(name).is_none() {
            changed.push(Row {
                name: name.clone(),
                before: None,
                after: Some(*after),
                hot: false,
                over: false,
            });
        }
    }
    Comparison {
        changed,
        unchanged,
        totals: (total, run.total()),
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |n: Option<u64>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        writeln!(
            f,
            "{:>12} {:>12} {:>8}  function (hot: >= {HOT_SHARE_PERCENT} % of the total; \
             over: hot and grown > {GROWTH_PERCENT} %)",
            "baseline", "run", "change"
        )?;
        for row in &self.changed {
            let change = match (row.before, row.after) {
                (Some(b), Some(a)) if b > 0 => {
                    format!("{:+.1}%", (a as f64 - b as f64) * 100.0 / b as f64)
                }
                (None, _) => "new".into(),
                (_, None) => "gone".into(),
                _ => "-".into(),
            };
            let mark = match (row.over, row.hot) {
                (true, _) => "  OVER",
                (false, true) => "  hot",
                _ => "",
            };
            writeln!(
                f,
                "{:>12} {:>12} {change:>8}  {}{mark}",
                count(row.before),
                count(row.after),
                row.name
            )?;
        }
        let (b, a) = self.totals;
        write!(
            f,
            "{:>12} {:>12}  total; {} functions changed, {} unchanged",
            b,
            a,
            self.changed.len(),
            self.unchanged
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[(&str, u64)]) -> Table {
        Table {
            rows: rows.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
        }
    }

    /// A baseline of 10,000 instructions: `search` 9,000 and `main` 900 on the hot path, `cold`
    /// 99 (0.99 %) and `tiny` 1 off it.
    fn baseline() -> Table {
        table(&[("search", 9_000), ("main", 900), ("cold", 99), ("tiny", 1)])
    }

    #[test]
    fn the_same_run_is_within_budget_and_shows_no_change() {
        let c = compare(&baseline(), &baseline());
        assert!(!c.over());
        assert!(c.changed.is_empty());
        assert_eq!(c.unchanged, 4);
    }

    #[test]
    fn a_hot_function_grown_past_ten_percent_fails() {
        let run = table(&[("search", 9_901), ("main", 900), ("cold", 99), ("tiny", 1)]);
        let c = compare(&baseline(), &run);
        assert!(c.over());
        assert_eq!(c.changed.len(), 1);
        assert_eq!(c.changed[0].name, "search");
        assert!(c.to_string().contains("+10.0%  search  OVER"), "{c}");
    }

    #[test]
    fn ten_percent_exactly_is_the_boundary_and_passes() {
        let run = table(&[("search", 9_900), ("main", 990), ("cold", 99), ("tiny", 1)]);
        assert!(!compare(&baseline(), &run).over());
        let run = table(&[("search", 9_000), ("main", 991), ("cold", 99), ("tiny", 1)]);
        assert!(compare(&baseline(), &run).over(), "main at 1 % is hot");
    }

    #[test]
    fn a_shrunk_a_new_a_gone_or_a_cold_grown_function_does_not_fail() {
        let run = table(&[
            ("search", 4_000),
            ("cold", 990),
            ("tiny", 1_000),
            ("brand_new", 50_000),
        ]);
        let c = compare(&baseline(), &run);
        assert!(!c.over(), "{c}");
        let text = c.to_string();
        assert!(text.contains("new  brand_new"), "{text}");
        assert!(text.contains("gone  main"), "{text}");
        assert_eq!(c.totals, (10_000, 55_990));
    }

    #[test]
    fn a_table_round_trips_through_its_file() {
        let t = table(&[
            ("firmware::app::App<S,L,P,D,F>::try_start", 7_493_236),
            ("<T as core::fmt::Debug>::fmt", 3),
        ]);
        assert_eq!(Table::parse(&t.render("a test")).unwrap(), t);
    }

    #[test]
    fn bad_lines_are_named_with_their_number() {
        let e = Table::parse("# c\n12 a\nx b\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("`x` is not a count"), "{e}");
        assert_eq!(Table::parse("12\n").unwrap_err().line, 1);
        assert!(
            Table::parse("1 a\n2 a\n")
                .unwrap_err()
                .to_string()
                .contains("a appears twice")
        );
    }

    #[test]
    fn the_repository_baseline_parses_and_has_a_hot_path() {
        let text = include_str!("../../firmware/budget.txt");
        let t = Table::parse(text).unwrap();
        assert!(t.rows.len() > 10, "{} functions", t.rows.len());
        let total = t.total();
        let hot = t.rows.iter().filter(|r| r.1 * 100 >= total).count();
        assert!(hot >= 2, "{hot} hot functions");
    }
}
