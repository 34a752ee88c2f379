//! The glitch campaign's report files: `glitches.md` (tables by kind, press and function,
//! each count with its interval; examples) and `glitches.csv` (one line a trial).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use boards::virtual_board::GlitchKind;

use super::class::GlitchClass;
use super::error::GlitchError;
use super::results::GlitchResults;
use super::trial_board::GAME;
use crate::faults::interval::with_interval;

/// A row of counts by class.
type Counts = [u64; 6];

fn count(rows: &mut BTreeMap<String, Counts>, key: String, class: GlitchClass) {
    rows.entry(key).or_default()[class as usize] += 1;
}

/// A table of `rows`, each count with its 95 % Clopper-Pearson interval in its row.
fn table(out: &mut String, first: &str, rows: &[(String, Counts)]) {
    let _ = writeln!(
        out,
        "| {first} | trials | {} |",
        GlitchClass::ALL.map(GlitchClass::name).join(" | ")
    );
    let _ = writeln!(
        out,
        "| --- | ---: |{}",
        " ---: |".repeat(GlitchClass::ALL.len())
    );
    for (key, counts) in rows {
        let total: u64 = counts.iter().sum();
        let cells: Vec<String> = counts.iter().map(|&c| with_interval(c, total)).collect();
        let _ = writeln!(out, "| {key} | {total} | {} |", cells.join(" | "));
    }
}

/// The rows of `rows` and an **all** row that sums them.
fn with_total(rows: BTreeMap<String, Counts>) -> Vec<(String, Counts)> {
    let mut rows: Vec<_> = rows.into_iter().collect();
    let mut all = [0; 6];
    for (_, c) in &rows {
        for (a, b) in all.iter_mut().zip(c) {
            *a += b;
        }
    }
    rows.push(("**all**".to_string(), all));
    rows
}

/// The most functions the per-function table lists (by wrong moves shown, then trials).
pub const FUNCTIONS_LISTED: usize = 30;

impl GlitchResults {
    /// The report: which clock each kind's instants are on, a table per fault kind, per
    /// press and per function hit (every count with its 95 % interval), how detections were
    /// made, and an example of each kind and class, reproducible by its command.
    pub fn markdown(&self, command: &str) -> String {
        let mut out = String::new();
        let n = self.trials.len();
        let _ = writeln!(
            out,
            "# Glitch campaign: {n} trials, seed {}\n",
            self.plan.seed
        );
        let shown: Vec<String> = self
            .intact
            .presses
            .iter()
            .map(ToString::to_string)
            .collect();
        let _ = writeln!(
            out,
            "`{command}`\n\nIntact game (noise of game {GAME}, equal to SIL's): {} instructions, \
             a visit of {:.1} s at a turn of {:.1} s, record {}, shown {}, winner {}.\n",
            self.intact.instructions,
            self.intact.visit_us as f64 / 1e6,
            self.plan.pace_ms as f64 / 1000.0,
            self.intact.record,
            shown.join(","),
            self.intact.winner.map_or("-", |s| s.name()),
        );
        let (visitor, core): (Vec<GlitchKind>, Vec<GlitchKind>) = self
            .plan
            .kinds
            .as_slice()
            .iter()
            .partition(|k| k.on_the_visitors_clock());
        let words = |kinds: &[GlitchKind]| {
            kinds
                .iter()
                .map(|k| k.word())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "Clocks (window {}):", self.plan.window);
        if !core.is_empty() {
            let _ = writeln!(
                out,
                "- {}: instants uniform over the intact game's instructions (the core's clock).",
                words(&core)
            );
        }
        if !visitor.is_empty() {
            let _ = writeln!(
                out,
                "- {}: moments uniform over the visit (the visitor's clock: the machine's time \
                 and a turn of {:.1} s before each press); a flip strikes as the visitor \
                 reaches for the next press.",
                words(&visitor),
                self.plan.pace_ms as f64 / 1000.0
            );
        }
        let _ = writeln!(
            out,
            "\nClasses, by what the LEDs showed press by press against the intact game: **no \
             effect** (the same), **detected** (noticed before any wrong move), **late** (a \
             wrong move or verdict shown, then noticed), **silent** (a wrong move or verdict \
             shown, never noticed), **stopped** (no progress, the watchdog not fed, no reset), \
             **slow** (still running and feeding it, past the limit). Each count with its 95 % \
             Clopper-Pearson interval; a count of none with its one-sided 95 % upper bound, \
             1 − 0.05^(1/N).\n"
        );
        let mut kinds = BTreeMap::new();
        let mut presses = BTreeMap::new();
        let mut functions = BTreeMap::new();
        let mut how: BTreeMap<String, usize> = BTreeMap::new();
        for j in &self.trials {
            let class = j.judgement.class;
            let kind = j.trial.glitch.map_or("-".into(), |g| g.kind.to_string());
            count(&mut kinds, kind, class);
            let press = j
                .end
                .struck
                .map_or("not fired".to_string(), |p| format!("{p:>2}"));
            count(&mut presses, press, class);
            let function = match (&j.end.function, j.end.pc) {
                (Some(f), _) => f.clone(),
                (None, Some(_)) => "(no symbol)".into(),
                (None, None) => "(not fired: the game ended first)".into(),
            };
            count(&mut functions, function, class);
            if matches!(class, GlitchClass::Detected | GlitchClass::Late) {
                *how.entry(j.judgement.noticed_by(&j.end).to_string())
                    .or_default() += 1;
            }
        }
        let _ = writeln!(out, "## By fault kind\n");
        table(&mut out, "kind", &with_total(kinds));
        let how: Vec<String> = how.iter().map(|(w, n)| format!("{w} {n}")).collect();
        let _ = writeln!(
            out,
            "\nNoticed by (detected and late): {}.\n",
            if how.is_empty() {
                "nothing".to_string()
            } else {
                how.join(", ")
            }
        );
        let _ = writeln!(
            out,
            "## By press (the press a kept flip struck before, or an instant's press: 0 is \
             power-on)\n"
        );
        table(&mut out, "press", &with_total(presses));
        let mut functions: Vec<_> = functions.into_iter().collect();
        functions.sort_by_key(|(name, c)| {
            (
                std::cmp::Reverse(c[GlitchClass::Silent as usize] + c[GlitchClass::Late as usize]),
                std::cmp::Reverse(c.iter().sum::<u64>()),
                name.clone(),
            )
        });
        let listed = functions.len().min(FUNCTIONS_LISTED);
        let _ = writeln!(
            out,
            "\n## By function hit (the PC's when it struck; {listed} of {}, most wrong moves \
             first)\n",
            functions.len()
        );
        table(&mut out, "function", &functions[..listed]);
        let _ = writeln!(
            out,
            "\n## Examples (replay one: `virtual-board serve --fault no-fixture ...`, then \
             `monitor` and the command)\n"
        );
        for kind in GlitchKind::ALL {
            for class in GlitchClass::ALL.iter().rev() {
                if let Some((i, j)) = self.trials.iter().enumerate().find(|(_, j)| {
                    j.judgement.class == *class && j.trial.glitch.map(|g| g.kind) == Some(kind)
                }) {
                    let _ = writeln!(
                        out,
                        "- {kind}, {}: trial {} `{}`: {} in `{}` → {}{}",
                        class.name(),
                        i + 1,
                        j.trial,
                        j.end.target.as_deref().unwrap_or("not fired"),
                        j.end.function.as_deref().unwrap_or("-"),
                        j.end.end.word(),
                        if j.end.record.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", j.end.record)
                        },
                    );
                }
            }
        }
        out
    }

    /// One line a trial: `trial,kind,at,pick,press,wrong_press,target,pc,function,end,class,
    /// record,shown,winner`.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "trial,kind,at,pick,press,wrong_press,target,pc,function,end,class,record,shown,winner\n",
        );
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        let or_empty = |p: Option<u32>| p.map_or(String::new(), |p| p.to_string());
        for (i, j) in self.trials.iter().enumerate() {
            let Some(g) = j.trial.glitch else { continue };
            let shown: Vec<String> = j.end.presses.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                i + 1,
                g.kind,
                g.at,
                g.pick,
                or_empty(j.end.struck),
                or_empty(j.judgement.wrong),
                j.end.target.as_deref().unwrap_or(""),
                j.end.pc.map_or(String::new(), |pc| format!("{pc:#010x}")),
                quote(j.end.function.as_deref().unwrap_or("")),
                j.end.end.word(),
                j.judgement.class.name(),
                quote(&j.end.record),
                quote(&shown.join(",")),
                j.end.winner.map_or("", |s| s.name()),
            );
        }
        out
    }

    /// Writes `glitches.md` and `glitches.csv` into `dir`; returns the markdown.
    /// `verdict` is the campaign's judgement under the command's `--fail-on`, one line,
    /// written last so that the report says whether it passed, and by which rule.
    pub fn write(&self, dir: &Path, command: &str, verdict: &str) -> Result<String, GlitchError> {
        let md = format!("{}\n## Verdict\n\n{verdict}\n", self.markdown(command));
        // Whole or not at all, and never through a link planted in a shared --out.
        let put = |name: &str, text: &str| -> Result<(), GlitchError> {
            shards::safe::create_dir_all(dir).map_err(|e| match e {
                shards::FileError::Write { source, .. } => GlitchError::Write {
                    path: dir.display().to_string(),
                    source,
                },
                e => GlitchError::File(e),
            })?;
            Ok(shards::safe::write_file(&dir.join(name), text.as_bytes())?)
        };
        put("glitches.csv", &self.csv())?;
        put("glitches.md", &md)?;
        Ok(md)
    }
}

#[cfg(test)]
mod tests {
    use boards::virtual_board::{End, Glitch, Trial as GlitchTrial, TrialEnd};

    use super::*;
    use crate::faults::glitch_plan::{Kinds, Window};
    use crate::faults::glitches::judge::Judged;
    use crate::faults::glitches::testing::{end, plan};

    #[test]
    fn the_tables_are_never_written_through_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let campaign = GlitchResults {
            intact: end(End::Verdict, "A7,cut-won"),
            trials: Vec::new(),
            plan: plan(0, 1, Window::WHOLE, Kinds::default()),
            seconds: 0.0,
        };
        for name in ["glitches.csv", "glitches.md"] {
            std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
            let e = campaign
                .write(dir.path(), "hil-tests run", "passed: none")
                .unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "{} is a symbolic link, not a regular file: refused (remove it)",
                    dir.path().join(name).display()
                )
            );
            assert_eq!(std::fs::read(&victim).unwrap(), b"keep me", "{name}");
            std::fs::remove_file(dir.path().join(name)).unwrap();
        }
        campaign
            .write(dir.path(), "hil-tests run", "passed: none")
            .unwrap();
        assert!(std::fs::read_to_string(dir.path().join("glitches.md")).is_ok());
    }

    #[test]
    fn each_count_in_the_report_carries_its_interval() {
        let intact = end(End::Verdict, "A1,cut-won");
        let trial = |kind, class_end: TrialEnd| {
            let judgement = GlitchClass::of(&class_end, &intact);
            Judged {
                trial: GlitchTrial {
                    game: GAME,
                    limit: 9,
                    pace_ms: 5000,
                    glitch: Some(Glitch {
                        kind,
                        at: 3,
                        pick: 4,
                    }),
                },
                end: class_end,
                judgement,
                ms: 1.0,
            }
        };
        let campaign = GlitchResults {
            intact: intact.clone(),
            trials: vec![
                trial(GlitchKind::Kept, end(End::Verdict, "A1,cut-won")),
                trial(GlitchKind::Kept, end(End::Verdict, "C3,cut-won")),
            ],
            plan: plan(2, 1, Window::WHOLE, "kept".parse().unwrap()),
            seconds: 0.0,
        };
        let md = campaign.markdown("cmd");
        // 0 of 2: the one-sided 95 % bound 1 - 0.05^(1/2) = 77.6 %.
        assert!(
            md.contains("| kept | 2 | 1 (1.3–99 %) | 0 (≤ 78 %) | 0 (≤ 78 %) | 1 (1.3–99 %) | 0 (≤ 78 %) | 0 (≤ 78 %) |"),
            "{md}"
        );
        assert!(
            md.contains("- kept: moments uniform over the visit"),
            "{md}"
        );
        let csv = campaign.csv();
        assert_eq!(
            csv.lines().nth(2).unwrap(),
            "2,kept,3,4,,1,,,\"\",verdict,silent,\"\",\"C3,cut-won\",cut"
        );
    }
}
