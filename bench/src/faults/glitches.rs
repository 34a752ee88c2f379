//! The glitch campaign on the virtual board (`hil-tests run --target hil --probe virtual
//! --scenario glitches --trials N --seed S`): the unmodified board binary, a simulated
//! visitor's game from power-on (perfect Short, the cage wired by hand, game 0's ADC noise),
//! and in each trial one fault at one instant drawn across that game, as a lab glitches a
//! board: an instruction skipped, a bit of a core register flipped, a bit of the SRAM in use
//! flipped (stack or statics), one ADC conversion corrupted; or (`--kinds kept`) a bit of the
//! state the machine keeps between presses, flipped while it waits for the next one.
//!
//! The board injects and plays each trial in its own process (`monitor trial`, one answer a
//! game: a few tens of milliseconds, where the bench's lockstep game path over probe-rs takes
//! seconds); the bench draws the trials from `--seed` and judges each against the intact
//! game: the same moves and verdict is no effect; the firmware's self-check, a panic, the
//! watchdog, the visitor's check (LEDs that show no move) or a core fault is detected; nothing
//! lit, or no verdict within the limit, is a hang; another move or verdict that nobody
//! noticed is a **silent wrong move** (the intact game is the heuristic's: the visitor's game
//! equals SIL's, virtual-board's tests).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::Path;

use boards::virtual_board::{BoardFault, End, GlitchKind, Monitor, Trial, TrialEnd};
use gdb_probe::{Gdb, GdbError};

use crate::machine::{MachineError, VirtualBoard};

pub use super::glitch_plan::{Kinds, KindsError, Plan, Window, WindowError};

/// The game's noise stream (`monitor game`): the visitor's game is always the same.
pub const GAME: u64 = 0;
/// The intact game's limit, in instructions (it takes about 17 million, 1.3 s of its
/// 84 MHz): within the stub's answer timeout (5 s) at the board's 100-odd million a second.
const INTACT_LIMIT: u64 = 200_000_000;
/// A glitched game may take the intact game's instructions and this many more before it is a
/// hang: 1.25 times the board binary's watchdog ([`firmware::timing`]) in core cycles. Time
/// runs at least as fast as instructions (a poll of SysTick skips ahead), so a firmware that
/// stops feeding it is reset (detected) before its trial is called a hang.
const HANG_MARGIN: u64 =
    firmware::timing::SYSCLK_HZ as u64 * firmware::timing::WATCHDOG_MS as u64 / 1000 * 5 / 4;
/// The longest a trial's answer may take: a trial that polls a peripheral to its limit runs
/// on the models' callbacks, ten or more times slower than the intact game's instructions.
const TRIAL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// What a trial did, judged against the intact game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The same moves and verdict as the intact game.
    NoEffect,
    /// Something noticed: the self-check, a panic, the watchdog, the visitor, a core fault.
    Detected,
    /// Nothing lit after a press, or no verdict within the limit.
    Hang,
    /// Another move or verdict than the heuristic's, and nothing noticed.
    Silent,
}

impl Class {
    /// The tables' columns.
    pub const ALL: [Class; 4] = [Class::NoEffect, Class::Detected, Class::Hang, Class::Silent];

    /// Every [`Class::word`], as `--fail-on` lists them.
    pub const WORDS: [&'static str; 4] = ["no-effect", "detected", "hang", "silent"];

    /// Its one word, as `hil-tests run --fail-on` names it.
    pub fn word(self) -> &'static str {
        match self {
            Class::NoEffect => "no-effect",
            Class::Detected => "detected",
            Class::Hang => "hang",
            Class::Silent => "silent",
        }
    }

    /// Its name in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Class::NoEffect => "no effect",
            Class::Detected => "detected",
            Class::Hang => "hang",
            Class::Silent => "silent wrong move",
        }
    }

    /// `end` judged against the intact game's `intact`.
    pub fn of(end: &TrialEnd, intact: &TrialEnd) -> Class {
        match end.end {
            End::Verdict if end.record == intact.record && end.winner == intact.winner => {
                Class::NoEffect
            }
            End::Verdict => Class::Silent,
            End::Hang => Class::Hang,
            End::SelfCheck | End::Trouble | End::Panic | End::Watchdog | End::CoreFault => {
                Class::Detected
            }
        }
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
    pub trial: Trial,
    /// The board's answer.
    pub end: TrialEnd,
    /// Judged against the intact game.
    pub class: Class,
    /// Wall-clock milliseconds it took (the board's and the stub's).
    pub ms: f64,
}

/// A campaign's results.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// The intact game.
    pub intact: TrialEnd,
    /// Each trial, in order.
    pub trials: Vec<Judged>,
    /// `--seed`.
    pub seed: u64,
    /// Wall-clock seconds the trials took.
    pub seconds: f64,
}

/// A virtual board serving trials: the board binary on a cage without fixture.
#[derive(Debug)]
pub struct Bench {
    /// Declared first: the connection closes before the board is killed.
    gdb: Gdb,
    _board: VirtualBoard,
}

impl Bench {
    /// Starts the virtual board (`elf`, `profile`, `board_seed`) and connects to its stub.
    pub fn start(elf: &Path, profile: &str, board_seed: Option<u64>) -> Result<Bench, GlitchError> {
        let board = VirtualBoard::start(elf, profile, board_seed, None, &[BoardFault::NoFixture])?;
        let mut gdb = Gdb::connect(&board.address(), crate::virtual_board::QUIRKS)?;
        gdb.set_answer_timeout(TRIAL_TIMEOUT)?;
        Ok(Bench { gdb, _board: board })
    }

    /// Plays `trial` (the `index`-th, for what an error says).
    pub fn ask(&mut self, index: u64, trial: Trial) -> Result<TrialEnd, GlitchError> {
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

    /// The intact game: its answer, which must be a verdict.
    pub fn intact(&mut self) -> Result<TrialEnd, GlitchError> {
        let intact = self.ask(
            0,
            Trial {
                game: GAME,
                limit: INTACT_LIMIT,
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

/// Runs the trials of `plan` on the virtual board (`elf`, `profile`, `board_seed`);
/// `tick(done, of)` after each (Break stops early, the trials done kept).
pub fn run(
    elf: &Path,
    profile: &str,
    board_seed: Option<u64>,
    plan: &Plan,
    tick: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<Campaign, GlitchError> {
    let mut bench = Bench::start(elf, profile, board_seed)?;
    let intact = bench.intact()?;
    let limit = limit(&intact);
    let glitches = plan.draw(intact.instructions);
    let started = std::time::Instant::now();
    let mut judged = Vec::with_capacity(glitches.len());
    for (i, glitch) in glitches.iter().enumerate() {
        let trial = Trial {
            game: GAME,
            limit,
            glitch: Some(*glitch),
        };
        let begun = std::time::Instant::now();
        let end = bench.ask(i as u64 + 1, trial)?;
        let ms = begun.elapsed().as_secs_f64() * 1000.0;
        let class = Class::of(&end, &intact);
        judged.push(Judged {
            trial,
            end,
            class,
            ms,
        });
        if tick(i + 1, glitches.len()).is_break() {
            break;
        }
    }
    Ok(Campaign {
        intact,
        trials: judged,
        seed: plan.seed,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A row of counts by class.
type Counts = [usize; 4];

fn count(rows: &mut BTreeMap<String, Counts>, key: String, class: Class) {
    rows.entry(key).or_default()[class as usize] += 1;
}

fn table(out: &mut String, first: &str, rows: &[(String, Counts)]) {
    let _ = writeln!(
        out,
        "| {first} | trials | {} |",
        Class::ALL.map(Class::name).join(" | ")
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: |");
    for (key, counts) in rows {
        let total: usize = counts.iter().sum();
        let cells: Vec<String> = counts.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "| {key} | {total} | {} |", cells.join(" | "));
    }
}

/// The most functions the per-function table lists (by silent wrong moves, then trials).
pub const FUNCTIONS_LISTED: usize = 30;

impl Campaign {
    /// The median trial's wall-clock milliseconds.
    pub fn median_ms(&self) -> f64 {
        let mut ms: Vec<f64> = self.trials.iter().map(|j| j.ms).collect();
        ms.sort_by(f64::total_cmp);
        ms.get(ms.len() / 2).copied().unwrap_or(0.0)
    }

    /// The report: a table per fault kind, one per function hit, how detections were made,
    /// and an example of each kind and class, reproducible by its command.
    pub fn markdown(&self, command: &str) -> String {
        let mut out = String::new();
        let n = self.trials.len();
        let _ = writeln!(out, "# Glitch campaign: {n} trials, seed {}\n", self.seed);
        let _ = writeln!(
            out,
            "`{command}`\n\nIntact game (noise of game {GAME}): {} instructions, record {}, \
             winner {}. Trials: {:.1} s, {:.1} ms each on average, median {:.1} ms, slowest {:.0} ms.\n",
            self.intact.instructions,
            self.intact.record,
            self.intact.winner.map_or("-", |s| s.name()),
            self.seconds,
            1000.0 * self.seconds / n.max(1) as f64,
            self.median_ms(),
            self.trials.iter().map(|j| j.ms).fold(0.0, f64::max),
        );
        let mut kinds = BTreeMap::new();
        let mut functions = BTreeMap::new();
        let mut how: BTreeMap<String, usize> = BTreeMap::new();
        for j in &self.trials {
            let kind = j.trial.glitch.map_or("-".into(), |g| g.kind.to_string());
            count(&mut kinds, kind, j.class);
            let function = match (&j.end.function, j.end.pc) {
                (Some(f), _) => f.clone(),
                (None, Some(_)) => "(no symbol)".into(),
                (None, None) => "(not fired: the game ended first)".into(),
            };
            count(&mut functions, function, j.class);
            if j.class == Class::Detected {
                *how.entry(j.end.end.word().to_string()).or_default() += 1;
            }
        }
        let _ = writeln!(out, "## By fault kind\n");
        let mut kinds: Vec<_> = kinds.into_iter().collect();
        let mut all = [0; 4];
        for (_, c) in &kinds {
            for (a, b) in all.iter_mut().zip(c) {
                *a += b;
            }
        }
        kinds.push(("**all**".to_string(), all));
        table(&mut out, "kind", &kinds);
        let _ = writeln!(
            out,
            "\nDetected by: {}.\n",
            how.iter()
                .map(|(w, n)| format!("{w} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut functions: Vec<_> = functions.into_iter().collect();
        functions.sort_by_key(|(name, c)| {
            (
                std::cmp::Reverse(c[Class::Silent as usize]),
                std::cmp::Reverse(c.iter().sum::<usize>()),
                name.clone(),
            )
        });
        let listed = functions.len().min(FUNCTIONS_LISTED);
        let _ = writeln!(
            out,
            "## By function hit (the PC's at the instant; {listed} of {}, most silent first)\n",
            functions.len()
        );
        table(&mut out, "function", &functions[..listed]);
        let _ = writeln!(
            out,
            "\n## Examples (replay one: `virtual-board serve --fault no-fixture ...`, then \
             `monitor` and the command)\n"
        );
        for kind in GlitchKind::ALL {
            for class in [Class::Silent, Class::Hang, Class::Detected, Class::NoEffect] {
                if let Some((i, j)) =
                    self.trials.iter().enumerate().find(|(_, j)| {
                        j.class == class && j.trial.glitch.map(|g| g.kind) == Some(kind)
                    })
                {
                    let _ = writeln!(
                        out,
                        "- {kind}, {}: trial {} `{}`: {} in `{}` → {} {}",
                        class.name(),
                        i + 1,
                        j.trial,
                        j.end.target.as_deref().unwrap_or("not fired"),
                        j.end.function.as_deref().unwrap_or("-"),
                        j.end.end.word(),
                        if j.end.record.is_empty() {
                            String::new()
                        } else {
                            format!("({})", j.end.record)
                        },
                    );
                }
            }
        }
        out
    }

    /// One line a trial: `trial,kind,at,pick,target,pc,function,end,class,record,winner,ms`.
    pub fn csv(&self) -> String {
        let mut out =
            String::from("trial,kind,at,pick,target,pc,function,end,class,record,winner,ms\n");
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        for (i, j) in self.trials.iter().enumerate() {
            let Some(g) = j.trial.glitch else { continue };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{:.1}",
                i + 1,
                g.kind,
                g.at,
                g.pick,
                j.end.target.as_deref().unwrap_or(""),
                j.end.pc.map_or(String::new(), |pc| format!("{pc:#010x}")),
                quote(j.end.function.as_deref().unwrap_or("")),
                j.end.end.word(),
                j.class.name(),
                quote(&j.end.record),
                j.end.winner.map_or("", |s| s.name()),
                j.ms,
            );
        }
        out
    }

    /// Writes `glitches.md` and `glitches.csv` into `dir`; returns the markdown.
    pub fn write(&self, dir: &Path, command: &str) -> Result<String, GlitchError> {
        let md = self.markdown(command);
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
    use boards::virtual_board::Glitch;

    fn end(end: End, record: &str) -> TrialEnd {
        TrialEnd {
            end,
            instructions: 1,
            winner: Some(heuristic::Side::Cut),
            record: record.into(),
            target: None,
            pc: None,
            function: None,
        }
    }

    #[test]
    fn the_tables_are_never_written_through_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let campaign = Campaign {
            intact: end(End::Verdict, "A7,c5"),
            trials: Vec::new(),
            seed: 1,
            seconds: 0.0,
        };
        for name in ["glitches.csv", "glitches.md"] {
            std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
            let e = campaign.write(dir.path(), "hil-tests run").unwrap_err();
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
        campaign.write(dir.path(), "hil-tests run").unwrap();
        assert!(std::fs::read_to_string(dir.path().join("glitches.md")).is_ok());
    }

    #[test]
    fn a_trial_is_judged_against_the_intact_game() {
        let intact = end(End::Verdict, "A7,c5");
        assert_eq!(
            Class::of(&end(End::Verdict, "A7,c5"), &intact),
            Class::NoEffect
        );
        assert_eq!(
            Class::of(&end(End::Verdict, "B7,c5"), &intact),
            Class::Silent
        );
        let mut lost = end(End::Verdict, "A7,c5");
        lost.winner = Some(heuristic::Side::Short);
        assert_eq!(
            Class::of(&lost, &intact),
            Class::Silent,
            "a wrong game-over"
        );
        assert_eq!(Class::of(&end(End::Watchdog, ""), &intact), Class::Detected);
        assert_eq!(Class::of(&end(End::Hang, ""), &intact), Class::Hang);
    }

    fn draw(seed: u64, trials: u64, instructions: u64, window: Window) -> Vec<Glitch> {
        let plan = Plan {
            trials,
            seed,
            window,
            kinds: Kinds::default(),
        };
        plan.draw(instructions)
    }

    #[test]
    fn a_seed_draws_the_same_glitches_and_another_seed_others() {
        let a = draw(7, 40, 1_000_000, Window::WHOLE);
        assert_eq!(a, draw(7, 40, 1_000_000, Window::WHOLE));
        assert_ne!(a, draw(8, 40, 1_000_000, Window::WHOLE));
        assert!(a.iter().all(|g| g.at < 1_000_000));
        assert_eq!(a[5].kind, GlitchKind::Register);
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
            "skip,register,sram,adc",
            "the default is the four a glitch makes at its instant"
        );
        let plan = Plan {
            trials: 6,
            seed: 7,
            window: Window::WHOLE,
            kinds,
        };
        let drawn: Vec<GlitchKind> = plan.draw(1_000).iter().map(|g| g.kind).collect();
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
