//! The glitch campaign on the virtual board (`hil-tests run --target hil --probe virtual
//! --scenario glitches --trials N --seed S`): the unmodified board binary, a simulated
//! visitor's game from power-on (perfect Short, the cage wired by hand, game 0's ADC noise),
//! and in each trial one fault, as a lab glitches a board: an instruction skipped, a bit of a
//! core register or flag flipped, a bit of an FPU register flipped, a bit of the SRAM in use
//! flipped (stack or statics), one ADC conversion corrupted, each at an instant of the
//! machine's work (the core's clock); or (`--kinds kept`) a bit of the state the machine keeps
//! between presses, flipped at a moment of the visit (the visitor's clock, their turns
//! included).
//!
//! The board injects and plays each trial in its own process (`monitor trial`, one answer a
//! game) and says what its LEDs showed after each press; the bench draws the trials from
//! `--seed` and judges each by what the visitor saw ([`GlitchClass::of`]), press by press
//! against the intact game, which must be SIL's game for the same board and noise.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::Path;

use boards::virtual_board::{BoardFault, End, GlitchKind, Monitor, Trial as GlitchTrial, TrialEnd};
use gdb_probe::{Gdb, GdbError};

use super::interval::with_interval;
use crate::machine::{MachineError, VirtualBoard};

pub use super::glitch_plan::{Clocks, Kinds, KindsError, Plan, Window, WindowError};

/// The game's noise stream (`monitor game`): the visitor's game is always the same.
pub const GAME: u64 = 0;
/// The intact game's limit, in instructions (it takes about 17 million, 1.3 s of its
/// 84 MHz): within the stub's answer timeout (5 s) at the board's 100-odd million a second.
const INTACT_LIMIT: u64 = 200_000_000;
/// A glitched game may take the intact game's instructions and this many more before it is
/// ended (stopped or slow): 1.25 times the board binary's watchdog ([`firmware::timing`]) in
/// core cycles. Time runs at least as fast as instructions (a poll of SysTick skips ahead), so
/// a firmware that stops feeding it is reset (detected) before its trial is ended.
const HANG_MARGIN: u64 =
    firmware::timing::SYSCLK_HZ as u64 * firmware::timing::WATCHDOG_MS as u64 / 1000 * 5 / 4;
/// The longest a trial's answer may take: a trial that polls a peripheral to its limit runs
/// on the models' callbacks, ten or more times slower than the intact game's instructions.
const TRIAL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// What the visitor saw in a trial, judged press by press against the intact game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GlitchClass {
    /// The same moves and verdict as the intact game.
    NoEffect,
    /// Noticed (the self-check's fault pattern, a panic, the watchdog, LEDs that show no
    /// move, a core fault) before any wrong move or verdict was shown.
    Detected,
    /// A wrong move or verdict shown, then noticed (or the machine stopped showing moves).
    Late,
    /// A wrong move or verdict shown, and nothing ever noticed.
    Silent,
    /// No wrong move shown, then no progress: no verdict, the watchdog not fed, no reset.
    Stopped,
    /// No wrong move shown, then still running and feeding its watchdog past the limit.
    Slow,
}

/// How a trial is judged: its class, and the first press whose LEDs showed a wrong move or
/// verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// What the visitor saw.
    pub class: GlitchClass,
    /// The press (from 1) of the first wrong move or verdict shown, if one was.
    pub wrong: Option<u32>,
}

impl GlitchClass {
    /// The tables' columns.
    pub const ALL: [GlitchClass; 6] = [
        GlitchClass::NoEffect,
        GlitchClass::Detected,
        GlitchClass::Late,
        GlitchClass::Silent,
        GlitchClass::Stopped,
        GlitchClass::Slow,
    ];

    /// Every [`GlitchClass::word`], as `--fail-on` lists them.
    pub const WORDS: [&'static str; 6] =
        ["no-effect", "detected", "late", "silent", "stopped", "slow"];

    /// Its one word on a command line (`--fail-on late,silent`).
    pub const fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }

    /// Its name in the CSV's `class` column and the tables.
    pub fn name(self) -> &'static str {
        match self {
            GlitchClass::NoEffect => "no effect",
            GlitchClass::Detected => "detected",
            GlitchClass::Late => "late",
            GlitchClass::Silent => "silent",
            GlitchClass::Stopped => "stopped",
            GlitchClass::Slow => "slow",
        }
    }

    /// Whether the visitor was shown a wrong move or verdict.
    pub fn showed_a_wrong_move(self) -> bool {
        matches!(self, GlitchClass::Late | GlitchClass::Silent)
    }

    /// `end` judged against the intact game's `intact`, press by press: the first press
    /// whose LEDs showed a move or verdict other than the intact game's at that press is
    /// the first wrong one; what came after it (or the end, without one) gives the class.
    pub fn of(end: &TrialEnd, intact: &TrialEnd) -> Judgement {
        let wrong = end
            .shown
            .iter()
            .enumerate()
            .find(|(i, shown)| shown.is_a_move_or_verdict() && intact.shown.get(*i) != Some(*shown))
            .map(|(i, _)| i as u32 + 1);
        let class = match (end.end, wrong) {
            (End::Verdict, None) => GlitchClass::NoEffect,
            (End::Verdict, Some(_)) => GlitchClass::Silent,
            (_, Some(_)) => GlitchClass::Late,
            (End::Stopped, None) => GlitchClass::Stopped,
            (End::Slow, None) => GlitchClass::Slow,
            (_, None) => GlitchClass::Detected,
        };
        Judgement { class, wrong }
    }
}

/// Why the campaign could not run.
#[derive(Debug, thiserror::Error)]
pub enum GlitchError {
    /// The virtual board did not start.
    #[error(transparent)]
    Board(#[from] MachineError),
    /// Its stub did not answer.
    #[error("the virtual board's stub: {0}")]
    Gdb(#[from] GdbError),
    /// It answered a trial with something else.
    #[error("trial {index} (`monitor {command}`): {why}")]
    Answer {
        /// Which trial (0: the intact game).
        index: u64,
        /// The command.
        command: String,
        /// What it said.
        why: String,
    },
    /// The intact game did not end with a verdict: nothing to judge against.
    #[error(
        "the intact game ended `{0}` instead of a verdict: check the board first (virtual-board visit)"
    )]
    Intact(String),
    /// The intact game is not SIL's for the same board and noise: the judge's reference
    /// would be wrong.
    #[error(
        "the intact game on the virtual board ({board}) is not SIL's for the same board and noise ({sil}): the campaign would judge against a wrong game; refused"
    )]
    Sil {
        /// The virtual board's record and winner.
        board: String,
        /// SIL's.
        sil: String,
    },
    /// A report file could not be written whole, or something not a regular file (a
    /// link, a FIFO) stands at its name.
    #[error(transparent)]
    File(#[from] shards::FileError),
    /// The report could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// One trial's result.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The trial, as sent (`monitor` + its `Display` replays it).
    pub trial: GlitchTrial,
    /// The board's answer.
    pub end: TrialEnd,
    /// Judged against the intact game.
    pub judgement: Judgement,
    /// Wall-clock milliseconds it took (the board's and the stub's): printed, never in the
    /// report files, which the same command writes byte for byte alike.
    pub ms: f64,
}

/// A campaign's results.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// The intact game.
    pub intact: TrialEnd,
    /// Each trial, in order.
    pub trials: Vec<Judged>,
    /// What was drawn.
    pub plan: Plan,
    /// Wall-clock seconds the trials took.
    pub seconds: f64,
}

/// A virtual board serving glitch trials: the board binary on a cage without fixture.
#[derive(Debug)]
pub struct TrialBoard {
    /// Declared first: the connection closes before the board is killed.
    gdb: Gdb,
    _board: VirtualBoard,
}

impl TrialBoard {
    /// Starts the virtual board (`elf`, `profile`, `board_seed`) and connects to its stub.
    pub fn start(
        elf: &Path,
        profile: &str,
        board_seed: Option<u64>,
    ) -> Result<TrialBoard, GlitchError> {
        let board = VirtualBoard::start(
            &crate::machine::Launch::new(elf, profile)
                .seed(board_seed)
                .faults(&[BoardFault::NoFixture]),
        )?;
        let mut gdb = Gdb::connect(&board.address(), crate::virtual_board::QUIRKS)?;
        gdb.set_answer_timeout(TRIAL_TIMEOUT)?;
        Ok(TrialBoard { gdb, _board: board })
    }

    /// Plays `trial` (the `index`-th, for what an error says).
    pub fn ask(&mut self, index: u64, trial: GlitchTrial) -> Result<TrialEnd, GlitchError> {
        let command = Monitor::Trial(trial).to_string();
        let said = self.gdb.monitor_output(&command)?;
        said.trim()
            .parse()
            .map_err(|e: boards::virtual_board::TrialError| GlitchError::Answer {
                index,
                command,
                why: e.to_string(),
            })
    }

    /// The intact game at the visitor's `pace_ms`: its answer, which must be a verdict.
    pub fn intact(&mut self, pace_ms: u64) -> Result<TrialEnd, GlitchError> {
        let intact = self.ask(
            0,
            GlitchTrial {
                game: GAME,
                limit: INTACT_LIMIT,
                pace_ms,
                glitch: None,
            },
        )?;
        if intact.end != End::Verdict {
            return Err(GlitchError::Intact(intact.to_string()));
        }
        Ok(intact)
    }
}

/// The limit of a glitched trial, from the intact game's instructions.
pub fn limit(intact: &TrialEnd) -> u64 {
    intact.instructions.saturating_add(HANG_MARGIN)
}

/// The board a campaign runs on: `--board` as given (a name or a profile file, which the
/// virtual board reads), the board the bench models and the built-in profile its firmware runs.
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    /// `--board` as given.
    pub arg: &'a str,
    /// The board modelled (a profile file's own).
    pub profile: &'static boards::Profile,
    /// The built-in profile the firmware runs.
    pub base: &'static boards::Profile,
    /// The parts' seed.
    pub seed: Option<u64>,
}

/// SIL's game on `board` with game [`GAME`]'s noise, against the same perfect Short: its
/// record and winner, as the board's answer words them.
pub fn sil_game(board: Board<'_>) -> Result<String, GlitchError> {
    let size = heuristic::Size::M4;
    let cage = emulator::emulated::EmulatedCage::new(board.profile, size, board.seed)
        .map_err(|e| GlitchError::Intact(e.to_string()))?;
    cage.start_game(GAME);
    let mut app = cage.app(board.base, firmware::Config::default());
    let log = emulator::emulated::run_game(&cage, &mut app, |p| {
        emulator::players::perfect_move(p).unwrap_or_else(|| size.edges().next().expect("an edge"))
    });
    let winner = match log.result {
        Ok(heuristic::Side::Cut) => "cut",
        Ok(heuristic::Side::Short) => "short",
        Err(_) => "-",
    };
    Ok(format!("{} {winner}", log.record()))
}

/// Refuses an intact game that is not SIL's ([`sil_game`]).
fn check_against_sil(intact: &TrialEnd, board: Board<'_>) -> Result<(), GlitchError> {
    let sil = sil_game(board)?;
    let winner = match intact.winner {
        Some(heuristic::Side::Cut) => "cut",
        Some(heuristic::Side::Short) => "short",
        None => "-",
    };
    let on_board = format!("{} {winner}", intact.record);
    if on_board != sil {
        return Err(GlitchError::Sil {
            board: on_board,
            sil,
        });
    }
    Ok(())
}

/// A campaign ready to play: the virtual board, its intact game (SIL's, checked) and the
/// glitches drawn from the plan over it. Trial `k` (from 0) is glitch `k`; any subset of the
/// trials may be played, in any process, with the same answers.
#[derive(Debug)]
pub struct Prepared {
    board: TrialBoard,
    /// The intact game.
    pub intact: TrialEnd,
    /// Every trial's glitch, in order.
    pub glitches: Vec<boards::virtual_board::Glitch>,
    limit: u64,
    pace_ms: u64,
}

impl Prepared {
    /// Starts the virtual board (`elf` on `on`), plays its intact game, refuses one that is
    /// not SIL's, and draws `plan`'s glitches over it.
    pub fn start(elf: &Path, on: Board<'_>, plan: &Plan) -> Result<Prepared, GlitchError> {
        let mut board = TrialBoard::start(elf, on.arg, on.seed)?;
        let intact = board.intact(plan.pace_ms)?;
        check_against_sil(&intact, on)?;
        let glitches = plan.draw(Clocks {
            instructions: intact.instructions,
            visit_us: intact.visit_us,
        });
        Ok(Prepared {
            board,
            limit: limit(&intact),
            intact,
            glitches,
            pace_ms: plan.pace_ms,
        })
    }

    /// Plays trial `k` (from 0) and judges it.
    pub fn play(&mut self, k: usize) -> Result<Judged, GlitchError> {
        let trial = GlitchTrial {
            game: GAME,
            limit: self.limit,
            pace_ms: self.pace_ms,
            glitch: self.glitches.get(k).copied(),
        };
        let begun = std::time::Instant::now();
        let end = self.board.ask(k as u64 + 1, trial)?;
        let ms = begun.elapsed().as_secs_f64() * 1000.0;
        Ok(Judged {
            judgement: GlitchClass::of(&end, &self.intact),
            trial,
            end,
            ms,
        })
    }
}

/// Runs the trials of `plan` on the virtual board (`elf` on `board`), one after another in
/// this process: the plain loop the sharded campaign (the `shard::glitches` module) is checked
/// against. `tick(done, of)` after each (Break stops early, the trials done kept).
pub fn run(
    elf: &Path,
    board: Board<'_>,
    plan: &Plan,
    tick: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<Campaign, GlitchError> {
    let mut prepared = Prepared::start(elf, board, plan)?;
    let started = std::time::Instant::now();
    let count = prepared.glitches.len();
    let mut judged = Vec::with_capacity(count);
    for k in 0..count {
        judged.push(prepared.play(k)?);
        if tick(k + 1, count).is_break() {
            break;
        }
    }
    Ok(Campaign {
        intact: prepared.intact,
        trials: judged,
        plan: plan.clone(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

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

impl Campaign {
    /// The median trial's wall-clock milliseconds.
    pub fn median_ms(&self) -> f64 {
        let mut ms: Vec<f64> = self.trials.iter().map(|j| j.ms).collect();
        ms.sort_by(f64::total_cmp);
        ms.get(ms.len() / 2).copied().unwrap_or(0.0)
    }

    /// How long the trials took (for the terminal: never in a report file).
    pub fn timing(&self) -> String {
        let n = self.trials.len();
        format!(
            "Trials: {:.1} s, {:.1} ms each on average, median {:.1} ms, slowest {:.0} ms.",
            self.seconds,
            1000.0 * self.seconds / n.max(1) as f64,
            self.median_ms(),
            self.trials.iter().map(|j| j.ms).fold(0.0, f64::max),
        )
    }

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
        let shown: Vec<String> = self.intact.shown.iter().map(ToString::to_string).collect();
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
                *how.entry(j.end.end.word().to_string()).or_default() += 1;
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
            let shown: Vec<String> = j.end.shown.iter().map(ToString::to_string).collect();
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
            std::fs::create_dir_all(dir).map_err(|source| GlitchError::Write {
                path: dir.display().to_string(),
                source,
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
    use super::*;
    use boards::virtual_board::{Glitch, Shown};
    use heuristic::Side;

    /// An answer that ended `end` after the LEDs showed `shown` (words, by press).
    fn end(end: End, shown: &str) -> TrialEnd {
        let shown: Vec<Shown> = shown
            .split(',')
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect();
        TrialEnd {
            end,
            instructions: 1,
            visit_us: 1,
            winner: shown.iter().find_map(|s| match s {
                Shown::Won(side) => Some(*side),
                _ => None,
            }),
            record: String::new(),
            shown,
            struck: None,
            target: None,
            pc: None,
            function: None,
        }
    }

    fn plan(trials: u64, seed: u64, window: Window, kinds: Kinds) -> Plan {
        Plan {
            trials,
            seed,
            window,
            kinds,
            pace_ms: 5000,
        }
    }

    #[test]
    fn the_tables_are_never_written_through_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let campaign = Campaign {
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
    fn a_trial_is_judged_by_what_the_visitor_saw_press_by_press() {
        use GlitchClass::*;
        let intact = end(End::Verdict, "A1,C1,E1,G1,cut-won");
        let judge = |e: TrialEnd| {
            let j = GlitchClass::of(&e, &intact);
            (j.class, j.wrong)
        };
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E1,G1,cut-won")),
            (NoEffect, None)
        );
        // A wrong cut at press 3, the game played on to a verdict: silent.
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E3,G1,F2,cut-won")),
            (Silent, Some(3))
        );
        // The right moves and a wrong verdict (Short's win lit at press 5): silent.
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E1,G1,short-won")),
            (Silent, Some(5))
        );
        // A verdict a press early is a wrong verdict.
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E1,cut-won")),
            (Silent, Some(4))
        );
        // Noticed before anything wrong was shown: detected, whatever noticed it.
        for noticed in [
            End::SelfCheck,
            End::Panic,
            End::Watchdog,
            End::CoreFault,
            End::Trouble,
        ] {
            assert_eq!(
                judge(end(noticed, "A1,C1")),
                (Detected, None),
                "{noticed:?}"
            );
        }
        assert_eq!(judge(end(End::SelfCheck, "A1,C1,fault")), (Detected, None));
        // A wrong cut the visitor made, then the self-check a press later: late, not detected.
        assert_eq!(judge(end(End::SelfCheck, "A1,C3,fault")), (Late, Some(2)));
        assert_eq!(judge(end(End::Panic, "A1,C3")), (Late, Some(2)));
        assert_eq!(judge(end(End::Watchdog, "B2,other")), (Late, Some(1)));
        // A wrong move, then the machine stopped or went slow: the visitor notices, late.
        assert_eq!(judge(end(End::Stopped, "A1,C3,dark")), (Late, Some(2)));
        // Nothing wrong shown, then no progress: stopped or slow by the watchdog's feeding.
        assert_eq!(judge(end(End::Stopped, "A1,dark")), (Stopped, None));
        assert_eq!(judge(end(End::Slow, "A1")), (Slow, None));
        // The fault pattern or an unreadable pattern is never a wrong move.
        assert_eq!(judge(end(End::Trouble, "other")), (Detected, None));
    }

    #[test]
    fn an_intact_game_that_is_not_sils_is_refused() {
        let profile = &boards::NUCLEO_F446RE;
        let board = Board {
            arg: profile.name,
            profile,
            base: profile,
            seed: Some(7),
        };
        // SIL's own game passes; one move changed, or another winner, is refused by name.
        let sil = sil_game(board).unwrap();
        let (record, winner) = sil.split_once(' ').unwrap();
        let mut intact = end(End::Verdict, "");
        intact.record = record.to_string();
        intact.winner = Some(if winner == "cut" {
            Side::Cut
        } else {
            Side::Short
        });
        check_against_sil(&intact, board).unwrap();
        intact.winner = intact.winner.map(Side::opponent);
        let e = check_against_sil(&intact, board).unwrap_err().to_string();
        assert!(e.contains("is not SIL's") && e.contains(record), "{e}");
        intact.winner = intact.winner.map(Side::opponent);
        intact.record.push_str(",A1");
        assert!(check_against_sil(&intact, board).is_err());
    }

    #[test]
    fn every_class_has_one_word_and_one_name() {
        for class in GlitchClass::ALL {
            assert_eq!(GlitchClass::WORDS[class as usize], class.word());
        }
        let names: Vec<&str> = GlitchClass::ALL.map(GlitchClass::name).to_vec();
        // The words, exactly (the CSV's `class` column).
        assert_eq!(
            names,
            ["no effect", "detected", "late", "silent", "stopped", "slow"]
        );
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
        let campaign = Campaign {
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

    fn draw(seed: u64, trials: u64, instructions: u64, window: Window) -> Vec<Glitch> {
        plan(trials, seed, window, Kinds::default()).draw(Clocks {
            instructions,
            visit_us: instructions * 100,
        })
    }

    #[test]
    fn a_seed_draws_the_same_glitches_and_another_seed_others() {
        let a = draw(7, 40, 1_000_000, Window::WHOLE);
        assert_eq!(a, draw(7, 40, 1_000_000, Window::WHOLE));
        assert_ne!(a, draw(8, 40, 1_000_000, Window::WHOLE));
        assert!(a.iter().all(|g| g.at < 1_000_000));
        assert_eq!(a[6].kind, GlitchKind::Register);
        // Drawn over the whole game, some instants fall in its first half.
        assert!(a.iter().any(|g| g.at < 500_000));
    }

    #[test]
    fn a_window_holds_every_instant_and_is_written_as_it_is_read() {
        let late: Window = "85..100".parse().unwrap();
        assert_eq!(late, Window { from: 85, to: 100 });
        assert_eq!(late.to_string(), "85..100");
        let drawn = draw(7, 400, 1_000_000, late);
        assert!(drawn.iter().all(|g| (850_000..1_000_000).contains(&g.at)));
        // Spread over it, not piled at one end.
        assert!(drawn.iter().any(|g| g.at < 900_000) && drawn.iter().any(|g| g.at >= 950_000));
        // A window too narrow for an instant of its own still holds one.
        assert_eq!(Window { from: 0, to: 1 }.instants(50), 0..1);
        for bad in [
            "", "85", "85..", "..100", "90..80", "50..50", "0..101", "-1..5", "a..b", "85...100",
        ] {
            let e = bad.parse::<Window>().unwrap_err();
            assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
        }
    }

    #[test]
    fn kinds_are_drawn_in_turn_and_written_as_they_are_read() {
        let kinds: Kinds = "kept,adc".parse().unwrap();
        assert_eq!(kinds.as_slice(), [GlitchKind::Kept, GlitchKind::Adc]);
        assert_eq!(kinds.to_string(), "kept,adc");
        assert_eq!(
            Kinds::default().to_string(),
            "skip,register,sram,adc,fpu",
            "the default is the five a glitch makes at its instant"
        );
        let drawn = plan(6, 7, Window::WHOLE, kinds).draw(Clocks {
            instructions: 1_000,
            visit_us: 1_000_000,
        });
        // Kept on the visitor's clock, adc on the core's.
        assert!(
            drawn
                .iter()
                .any(|g| g.kind == GlitchKind::Kept && g.at >= 1_000)
        );
        assert!(
            drawn
                .iter()
                .all(|g| g.kind == GlitchKind::Kept || g.at < 1_000)
        );
        let drawn: Vec<GlitchKind> = drawn.iter().map(|g| g.kind).collect();
        assert_eq!(
            drawn,
            [
                GlitchKind::Kept,
                GlitchKind::Adc,
                GlitchKind::Kept,
                GlitchKind::Adc,
                GlitchKind::Kept,
                GlitchKind::Adc
            ]
        );
        for bad in ["", "kept,", "kept,kept", "flip", "skip adc"] {
            let e = bad.parse::<Kinds>().unwrap_err();
            assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
        }
    }
}
