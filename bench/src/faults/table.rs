//! The fault campaign's report: one row per kind of fault (the table the README publishes),
//! `faults.csv` with one line per fault, and `faults.md` with the tables and every fault the
//! firmware misread or that changed the machine's move.

use std::fmt::Write as _;
use std::path::Path;

use crate::faults::kinds::FaultKind;
use crate::faults::{FaultRun, Trial, Verdict};

/// One kind of fault, summed over its places.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaultRow {
    /// Places it was injected at.
    pub places: usize,
    /// Reported by the firmware.
    pub detected: usize,
    /// For each detected one, the machine's moves between the fault reaching the cage and
    /// the report ([`Trial::latency`]).
    pub latencies: Vec<usize>,
    /// Taken for play.
    pub misread: usize,
    /// Unnoticed, the machine's moves those of the intact board.
    pub silent_same: usize,
    /// Unnoticed, and a move of the machine changed.
    pub silent_changed: usize,
    /// Of those, the ones whose changed move is still an exact ideal best edge.
    pub changed_tied: usize,
    /// Never on the cage in the reference game.
    pub idle: usize,
}

impl FaultRow {
    /// The median and the largest latency, if any was detected (the median of an even count
    /// is the mean of the middle two).
    pub fn latency(&self) -> Option<(f64, usize)> {
        let mut l = self.latencies.clone();
        l.sort_unstable();
        let n = l.len();
        let max = *l.last()?;
        let median = if n % 2 == 1 {
            l[n / 2] as f64
        } else {
            (l[n / 2 - 1] + l[n / 2]) as f64 / 2.0
        };
        Some((median, max))
    }
}

/// The rows of `trials`, one per kind present, in [`FaultKind::ALL`] order.
pub fn fault_rows(trials: &[Trial]) -> Vec<(FaultKind, FaultRow)> {
    FaultKind::ALL
        .iter()
        .filter_map(|&kind| {
            let mut row = FaultRow::default();
            for t in trials.iter().filter(|t| t.kind == kind) {
                row.places += 1;
                match &t.verdict {
                    Verdict::Detected { .. } => {
                        row.detected += 1;
                        row.latencies.extend(t.latency());
                    }
                    Verdict::Misread { .. } => row.misread += 1,
                    Verdict::Silent => row.silent_same += 1,
                    Verdict::Changed { tied, .. } => {
                        row.silent_changed += 1;
                        row.changed_tied += usize::from(*tied);
                    }
                    Verdict::Idle => row.idle += 1,
                }
            }
            (row.places > 0).then_some((kind, row))
        })
        .collect()
}

/// The per-kind table of `trials` in Markdown.
pub fn fault_table(trials: &[Trial]) -> String {
    let mut md = String::from(
        "| kind | places | detected | moves to detection (median / max) | misread | \
         silent, same moves | silent, changed move (of which tied) | never on the cage |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (kind, r) in fault_rows(trials) {
        let latency = r
            .latency()
            .map_or_else(|| "–".to_string(), |(m, x)| format!("{m} / {x}"));
        let changed = match (r.silent_changed, r.changed_tied) {
            (0, _) => "0".to_string(),
            (n, t) => format!("{n} ({t})"),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {latency} | {} | {} | {changed} | {} |",
            kind.label(),
            r.places,
            r.detected,
            r.misread,
            r.silent_same,
            r.idle
        );
    }
    md
}

/// What one fault came to, in words.
pub fn fault_detail(trial: &Trial) -> (String, Option<usize>, String) {
    match &trial.verdict {
        Verdict::Detected { after, fault } => ("detected".into(), Some(*after), fault.clone()),
        Verdict::Misread { after, what } => ("misread".into(), Some(*after), what.clone()),
        Verdict::Silent => ("silent".into(), None, String::new()),
        Verdict::Changed { after, tied, what } => (
            if *tied {
                "changed within the tie".into()
            } else {
                "changed".into()
            },
            Some(*after),
            what.clone(),
        ),
        Verdict::Idle => ("never on the cage".into(), None, String::new()),
    }
}

/// `faults.csv`: a header and one line per fault of every run.
pub fn fault_csv(runs: &[FaultRun]) -> String {
    let mut out =
        String::from("size,kind,place,verdict,after_moves,active_from,latency,bench_saw,detail\n");
    let opt = |v: Option<usize>| v.map_or_else(String::new, |v| v.to_string());
    for t in runs.iter().flat_map(|r| &r.trials) {
        let (verdict, after, words) = fault_detail(t);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},\"{}\"",
            t.size,
            t.kind.label(),
            t.place,
            verdict,
            opt(after),
            opt(t.active_from),
            opt(t.latency()),
            t.bench_saw,
            words.replace('"', "\"\"")
        );
    }
    out
}

/// A game's record as the reports quote it: in backticks, or in words when no move was
/// played (two backticks read as a slip of the pen, not as an empty game).
pub fn record_words(record: &str) -> String {
    match record.trim() {
        "" => "no move (the empty record)".to_string(),
        moves => format!("`{moves}`"),
    }
}

/// `faults.md`: per run, how it was made, the table, and every misread fault and every
/// silent one that changed the machine's move.
pub fn fault_markdown(runs: &[FaultRun], board: &str, board_seed: Option<u64>) -> String {
    let parts = match board_seed {
        Some(s) => format!("parts and ADC drawn from seed {s}"),
        None => "nominal parts, a noiseless converter".to_string(),
    };
    let mut md = format!("# Fault campaign on {board} ({parts})\n");
    for run in runs {
        let stopped = if run.trials.len() < run.planned {
            format!(
                " **INTERRUPTED** after {} of {} faults.",
                run.trials.len(),
                run.planned
            )
        } else {
            String::new()
        };
        let _ = write!(
            md,
            "\n## M={} ({})\n\nReference game (the intact board against its mirror, Short \
             shorting the edge the heuristic would cut): {}.{stopped}\n\n{}",
            run.size,
            run.stage,
            record_words(&run.reference),
            fault_table(&run.trials)
        );
        let notable: Vec<&Trial> = run
            .trials
            .iter()
            .filter(|t| matches!(t.verdict, Verdict::Misread { .. } | Verdict::Changed { .. }))
            .collect();
        if !notable.is_empty() {
            md.push_str("\nMisread, or silent with a changed move:\n\n");
            for t in notable {
                let (verdict, after, words) = fault_detail(t);
                let after = after.map_or_else(String::new, |k| format!(" after {k} moves"));
                let bench = if t.bench_saw {
                    "; the bench saw codes out of band"
                } else {
                    "; the codes stayed in band"
                };
                let verdict = match verdict.as_str() {
                    "misread" => verdict,
                    changed => format!("silent, move {changed}"),
                };
                let _ = writeln!(
                    md,
                    "- {} at {}: {verdict}{after}: {words}{bench}",
                    t.kind.label(),
                    t.place
                );
            }
        }
    }
    md
}

/// Writes `faults.csv` and `faults.md` into `dir` (created if missing).
pub fn write_fault_report(
    dir: &Path,
    runs: &[FaultRun],
    board: &str,
    board_seed: Option<u64>,
) -> Result<String, shards::FileError> {
    // Whole or not at all, and never through a link planted in a shared --out.
    shards::safe::create_dir_all(dir)?;
    shards::safe::write_file(&dir.join("faults.csv"), fault_csv(runs).as_bytes())?;
    let md = fault_markdown(runs, board, board_seed);
    shards::safe::write_file(&dir.join("faults.md"), md.as_bytes())?;
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before issue 63 an empty reference game was quoted as two backticks.
    #[test]
    fn an_empty_record_is_said_in_words() {
        assert_eq!(record_words("A1,c1"), "`A1,c1`");
        assert_eq!(record_words(""), "no move (the empty record)");
        let run = FaultRun {
            stage: crate::dut::Stage::Sil.into(),
            size: 3,
            reference: String::new(),
            trials: Vec::new(),
            planned: 0,
        };
        let md = fault_markdown(&[run], "nucleo-f446re", None);
        assert!(!md.contains("``"), "{md}");
        assert!(md.contains("cut): no move (the empty record)."), "{md}");
    }
}
