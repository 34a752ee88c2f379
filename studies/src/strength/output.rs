//! The study's report: the shards' counts summed, its markdown, CSV and plot, and the files
//! written.

use std::path::Path;

use shards::ShardId;

use super::{
    FamilyCounts, Heuristic, Loss, Plan, Report, Row, StrengthError, StrengthShard, run_shard,
};
use crate::Control;
use crate::plot::{self, Axes, Panel, PlotResult, Scale, Series, Title};
use crate::report::{CsvWriter, Output, WriteError, rate_text};

/// The report from every shard's part (in shard order): each family's counts summed, the
/// smallest loss the least (vertices, edges, then board number) of the shards'. A family
/// some shard did not finish is left out, and the report says interrupted.
pub fn report(plan: &Plan, (name, command): (&str, &str), parts: Vec<StrengthShard>) -> Report {
    let finished = parts.iter().map(|p| p.families.len()).min().unwrap_or(0);
    let mut families: Vec<FamilyCounts> = Vec::new();
    let mut smallest: [Option<(u64, Loss)>; 2] = [None, None];
    for part in parts {
        for (k, f) in part.families.into_iter().take(finished).enumerate() {
            match families.get_mut(k) {
                None => families.push(f),
                Some(m) => {
                    for (a, b) in m.counts.iter_mut().flatten().zip(f.counts.iter().flatten()) {
                        *a += b;
                    }
                }
            }
        }
        for (best, found) in smallest.iter_mut().zip(part.smallest) {
            let key = |(i, l): &(u64, Loss)| (l.vertices, l.edges, *i);
            if let Some(found) = found
                && best.as_ref().is_none_or(|b| key(&found) < key(b))
            {
                *best = Some(found);
            }
        }
    }
    Report::new(plan, (name, command), families, smallest)
}

impl Report {
    /// The report of `families` (in plan order) and each side's smallest loss.
    pub(super) fn new(
        plan: &Plan,
        (name, command): (&str, &str),
        families: Vec<FamilyCounts>,
        smallest: [Option<(u64, Loss)>; 2],
    ) -> Report {
        Report {
            study: "heuristic",
            command: command.to_string(),
            heuristic: name.to_string(),
            plan: plan.clone(),
            rows: families.iter().flat_map(FamilyCounts::rows).collect(),
            smallest_losses: smallest.into_iter().flatten().map(|(_, l)| l).collect(),
            interrupted: families.len() < plan.families(),
        }
    }
}

impl Report {
    /// One CSV row per family, size and side, with a header.
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let header = CSV_HEADER.map(String::from).to_vec();
        core::iter::once(header)
            .chain(self.rows.iter().map(Row::csv))
            .collect()
    }

    /// The summary people read (Markdown).
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "# Shannon's heuristic away from the bird cage\n\n`{}` (heuristic: {}; seed {}).\n\n\
             For each start where the heuristic's side, moving first, wins with perfect play: \
             does the heuristic keep the win against a perfect opponent who tries every reply?\n\n\
             | family | size | side | boards | winnable | kept | unfinished | kept rate (95 %) |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |\n",
            self.command, self.heuristic, self.plan.seed
        );
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                r.family.kind,
                r.family.size,
                r.side,
                r.boards,
                r.winnable,
                r.kept,
                r.unfinished,
                rate_text(&r.rate)
            ));
        }
        for l in &self.smallest_losses {
            s.push_str(&format!(
                "\nSmallest loss as {} ({} {}): {} vertices, {} edges; losing line `{}` (the \
                 heuristic's losing move is move {}, `{}`)\n\n```text\n{}```\n",
                l.side,
                l.family.kind,
                l.family.size,
                l.vertices,
                l.edges,
                l.line,
                l.mistake,
                l.line
                    .split(',')
                    .nth(l.mistake.saturating_sub(1))
                    .unwrap_or("?"),
                l.graph
            ));
        }
        if self.smallest_losses.is_empty() {
            s.push_str("\nThe heuristic kept every winnable start.\n");
        }
        if self.interrupted {
            s.push_str("\nINTERRUPTED: the rows cover the families finished.\n");
        }
        s
    }

    /// `heuristic.svg`: the share of winnable starts the heuristic *loses* (the CSV's
    /// `lost_rate`), against vertices, over every game, one line per side. Losses, not the
    /// kept rate: kept rates sit within a few percent of 100, where a 0..100 axis shows nothing.
    pub fn plot(&self, path: &Path) -> PlotResult {
        let series: Vec<Series> = [("cut", "Cut"), ("short", "Short")]
            .iter()
            .enumerate()
            .map(|(i, &(side, name))| {
                Series::new(
                    format!("heuristic as {name}"),
                    i,
                    self.rows
                        .iter()
                        .filter(|r| r.family.kind == "games" && r.side == side)
                        .filter_map(|r| Some((r.vertices as f64, Some(r.lost_rate()?))))
                        .collect(),
                )
            })
            .collect();
        let caption = format!(
            "every game of 2 to {} vertices · ideal network, ties to the first edge · seed {}",
            self.plan.max_vertices, self.plan.seed
        );
        plot::lines(
            path,
            Title {
                title: "Shannon's heuristic loses a perfect-play win",
                caption: &caption,
            },
            &[Panel {
                heading: "",
                axes: Axes {
                    x: "vertices",
                    y: "lost (% of winnable starts)",
                    x_scale: Scale::Integer,
                    y_scale: Scale::Percent,
                },
                series: &series,
            }],
        )
    }
}

/// The CSV file's columns.
const CSV_HEADER: [&str; 12] = [
    "family",
    "size",
    "vertices",
    "side",
    "boards",
    "winnable",
    "kept",
    "unfinished",
    "kept_rate",
    "low95",
    "high95",
    "lost_rate",
];

impl Row {
    /// The row as CSV fields, in [`CSV_HEADER`]'s order.
    fn csv(&self) -> Vec<String> {
        vec![
            self.family.kind.to_string(),
            self.family.size.clone(),
            self.vertices.to_string(),
            self.side.clone(),
            self.boards.to_string(),
            self.winnable.to_string(),
            self.kept.to_string(),
            self.unfinished.to_string(),
            crate::report::fmt_f64(self.rate.rate),
            crate::report::fmt_f64(self.rate.low),
            crate::report::fmt_f64(self.rate.high),
            self.lost_rate()
                .map(crate::report::fmt_f64)
                .unwrap_or_default(),
        ]
    }
}

/// Runs the study and writes `heuristic.json`, `heuristic.csv`, `summary.md` and
/// `heuristic.svg` into `out`; returns the summary.
pub fn write(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    name: &str,
    command: &str,
    control: &Control<'_>,
    out: &Output,
) -> Result<String, StrengthError> {
    let mut csv = out.csv("heuristic.csv").map_err(WriteError::from)?;
    let part = write_shard(plan, heuristic, control, ShardId::WHOLE, Some(&mut csv))?;
    write_report(plan, (name, command), vec![part], out, true)
}

/// Shard `shard` of the study [`write`] runs; `csv` (the one-process run's) gets each
/// family's rows as the family finishes, so a killed run keeps them.
pub fn write_shard(
    plan: &Plan,
    heuristic: Heuristic<'_>,
    control: &Control<'_>,
    shard: ShardId,
    mut csv: Option<&mut CsvWriter>,
) -> Result<StrengthShard, StrengthError> {
    if let Some(csv) = csv.as_deref_mut() {
        csv.row(&CSV_HEADER).map_err(WriteError::from)?;
    }
    run_shard(
        plan,
        heuristic,
        control,
        shard,
        &mut |rows| match csv.as_deref_mut() {
            Some(csv) => rows
                .iter()
                .try_for_each(|r| csv.row(&r.csv()))
                .map_err(WriteError::from),
            None => Ok(()),
        },
    )
}

/// The files [`write`] writes, from every shard's part; `streamed`: `heuristic.csv` was
/// written as the one process ran.
pub fn write_report(
    plan: &Plan,
    (name, command): (&str, &str),
    parts: Vec<StrengthShard>,
    out: &Output,
    streamed: bool,
) -> Result<String, StrengthError> {
    write_files(&report(plan, (name, command), parts), out, streamed)
}

/// `heuristic.csv` (unless `streamed`), the JSON, the summary and the plot.
pub(super) fn write_files(
    report: &Report,
    out: &Output,
    streamed: bool,
) -> Result<String, StrengthError> {
    if !streamed {
        out.csv_rows("heuristic.csv", &report.csv_rows())
            .map_err(WriteError::from)?;
    }
    let summary = report.markdown();
    Ok(crate::report::finish(
        out,
        "heuristic",
        &report,
        summary,
        || report.plot(&out.path("heuristic.svg")),
    )?)
}
