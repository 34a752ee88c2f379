//! The fault campaign: every single fault of each kind at every place of the cage, each on a
//! fresh emulated board, against one fixed reference game; does the firmware's self-check
//! report it, take it for a move, or miss it (and then, does the machine still move as on the
//! intact board)?
//!
//! The reference game is the intact board's own game against its mirror: Short shorts the
//! edge the heuristic would cut ([`Script::Mirror`]), which needs no seed and, unlike random
//! replies (which lose in three or four moves along the bottom row), makes a game across the
//! whole board. Each faulty board replays it as a record
//! ([`Script::Record`], through [`play_game`]): Short's moves are the reference's, and the
//! replay stops where the machine leaves it, which is where a fault changed its move.

use std::ops::ControlFlow;

use emulator::emulated::{Defect, DefectError};
use firmware::Outcome;
use firmware::protocol::{Command, Reply};
use heuristic::{EdgeState, Position, Record, Side, Size};

use crate::check::{Class, Predictor, Step};
use crate::dut::{Dut, DutError, Lost};
use crate::faults::kinds::{DefectTarget, FaultKind, place};
use crate::run::game::play_game;
use crate::run::scenario::Script;

/// What became of one fault.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// The firmware refused to move: its self-check (or its game-over reading) reported a
    /// fault at the press after `after` of its moves.
    Detected {
        /// The machine's moves made before the report.
        after: usize,
        /// The firmware's words.
        fault: String,
    },
    /// The firmware took the fault for play: after `after` of its moves its tracker held
    /// another position than on the intact board (it explained the codes with a wrong
    /// short), or it called the game wrongly, or it read the cage as the other size.
    Misread {
        /// The machine's moves made before.
        after: usize,
        /// What it took the cage for.
        what: String,
    },
    /// Nothing noticed, and the machine's moves are the intact board's.
    Silent,
    /// Nothing noticed, but after `after` of its moves the machine cut another edge than on
    /// the intact board (the replay stops there).
    Changed {
        /// The machine's moves before the one that differs.
        after: usize,
        /// Whether its cut is still one of the exact ideal network's tied best edges (then
        /// the fault only broke a tie another way).
        tied: bool,
        /// What it cut, and what the intact board cut.
        what: String,
    },
    /// The fault never changed the cage in the reference game (a wire left where the
    /// machine never cut, a swap of two edges that were always alike).
    Idle,
}

impl Verdict {
    /// Every [`Verdict::word`], as `--fail-on` lists them.
    pub const WORDS: [&'static str; 6] =
        ["detected", "misread", "silent", "changed", "tied", "idle"];

    /// Its one word, as `hil-tests run --fail-on` names it: `changed` is a changed move outside
    /// the exact ideal tie set, `tied` one within it.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Detected { .. } => "detected",
            Verdict::Misread { .. } => "misread",
            Verdict::Silent => "silent",
            Verdict::Changed { tied: false, .. } => "changed",
            Verdict::Changed { tied: true, .. } => "tied",
            Verdict::Idle => "idle",
        }
    }
}

/// One fault's run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Trial {
    /// The game's M.
    pub size: u8,
    /// Its kind.
    pub kind: FaultKind,
    /// Where: [`place`].
    pub place: String,
    /// What became of it.
    pub verdict: Verdict,
    /// The first decision (machine moves played before it) whose cage the fault changed;
    /// `None` if none did.
    pub active_from: Option<usize>,
    /// Whether the bench's own band test saw codes out of band in the game (the firmware
    /// uses the same band: a silent fault the bench sees is one the self-check misses).
    pub bench_saw: bool,
    /// How long the trial took, for JUnit's `time` (dashboards chart it). `None` in a shard
    /// written before it was measured: no time is better than a made-up 0. Never in
    /// `faults.md` or `faults.csv`, which stay the same from run to run.
    #[serde(default)]
    pub took: Option<std::time::Duration>,
}

/// Two trials are the same when they found the same: how long each took is the machine's,
/// not the firmware's (PIL and SIL, a shard and the plain campaign, are compared this way).
impl PartialEq for Trial {
    fn eq(&self, other: &Trial) -> bool {
        let Trial {
            size,
            kind,
            place,
            verdict,
            active_from,
            bench_saw,
            took: _,
        } = self;
        (size, kind, place, verdict, active_from, bench_saw)
            == (
                &other.size,
                &other.kind,
                &other.place,
                &other.verdict,
                &other.active_from,
                &other.bench_saw,
            )
    }
}

impl Trial {
    /// Moves from the fault reaching the cage to the report, for a detected fault.
    pub fn latency(&self) -> Option<usize> {
        match self.verdict {
            Verdict::Detected { after, .. } => {
                Some(after.saturating_sub(self.active_from.unwrap_or(0)))
            }
            _ => None,
        }
    }
}

/// A fault campaign on one board size.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FaultRun {
    /// The target's stage.
    pub stage: crate::dut::Setup,
    /// The game's M.
    pub size: u8,
    /// The reference game's record (the intact board's game).
    pub reference: String,
    /// One per fault, in [`FaultKind::ALL`] and place order.
    pub trials: Vec<Trial>,
    /// Faults the campaign has (all of them once it finished).
    pub planned: usize,
}

/// Why a fault campaign stopped.
#[derive(Debug, thiserror::Error)]
pub enum FaultCampaignError {
    /// The target failed.
    #[error(transparent)]
    Dut(#[from] DutError),
    /// The emulated board refused a fault.
    #[error(transparent)]
    Fault(#[from] DefectError),
    /// The intact board did not play its reference game to the end.
    #[error("the intact board does not finish its reference game: {0}")]
    Reference(String),
}

/// What the firmware answered along one game, as the bench drove it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Seen {
    /// The answer to the new game.
    start: Option<Outcome>,
    /// Each decision, with the tracker's position before its move when it moved.
    decisions: Vec<(Outcome, Option<Vec<EdgeState>>)>,
}

/// A target that remembers every decision and asks, after each move, what the firmware
/// believes the cage holds (one `Status` more per move; nothing else changes).
struct Observer<'a> {
    target: &'a mut dyn Dut,
    size: Size,
    seen: Seen,
}

impl Observer<'_> {
    fn belief(&mut self) -> Result<Vec<EdgeState>, DutError> {
        let status = match self.target.exchange(Command::Status)? {
            Reply::Status(status) => status,
            reply => {
                return Err(Lost::Unexpected {
                    expected: "its status",
                    reply,
                }
                .into());
            }
        };
        let mut edges: Vec<EdgeState> = status.edges.to_vec();
        // The position before the move: the pending cut back in.
        if let Some(i) = status
            .pending_cut
            .and_then(|s| s.edge(self.size))
            .map(|e| e.index(self.size))
            .filter(|&i| i < edges.len())
        {
            edges[i] = EdgeState::Resistor;
        }
        Ok(edges)
    }
}

impl Dut for Observer<'_> {
    fn stage(&self) -> crate::dut::Setup {
        self.target.stage()
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        let (start, decide) = (
            matches!(command, Command::NewGame),
            matches!(command, Command::Decide),
        );
        let reply = self.target.exchange(command)?;
        if let Reply::Turn(outcome) = reply {
            if start {
                self.seen.start = Some(outcome);
            } else if decide {
                let belief = match outcome {
                    Outcome::Move(_) => Some(self.belief()?),
                    _ => None,
                };
                self.seen.decisions.push((outcome, belief));
            }
        }
        Ok(reply)
    }

    fn logs(&mut self) -> Vec<String> {
        self.target.logs()
    }

    fn cage(&mut self) -> &mut dyn crate::dut::Cage {
        self.target.cage()
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), DutError> {
        self.target.set_cage(position)
    }

    /// Each trial plays on a fresh board's first noise stream, whatever its index (the
    /// campaign's reports were made so).
    fn start_game(&mut self, _game: usize) {}
}

/// Plays `script` on `target` as a fresh board; returns what the firmware answered and the
/// bench's steps.
pub(crate) fn observe(
    target: &mut dyn Dut,
    predictor: &Predictor,
    size: Size,
    index: usize,
    script: &Script,
) -> Result<(Seen, Vec<Step>), DutError> {
    let mut observer = Observer {
        target,
        size,
        seen: Seen::default(),
    };
    let mut steps = Vec::new();
    play_game(&mut observer, predictor, size, index, script, &mut |s| {
        steps.push(s)
    })?;
    Ok((observer.seen, steps))
}

/// The reference game: the intact board against its mirror.
pub(crate) struct Reference {
    /// Its moves (the board fault campaign replays them).
    pub(crate) record: Record,
    seen: Seen,
    /// The position at each decision.
    positions: Vec<Position>,
}

pub(crate) fn reference(
    target: &mut dyn Dut,
    predictor: &Predictor,
    size: Size,
) -> Result<Reference, FaultCampaignError> {
    let (seen, steps) = observe(target, predictor, size, 0, &Script::Mirror)?;
    let last = steps
        .last()
        .ok_or_else(|| FaultCampaignError::Reference("no decision was made".to_string()))?;
    if !matches!(seen.decisions.last(), Some((Outcome::GameOver(_), _))) {
        return Err(FaultCampaignError::Reference(format!(
            "after {} it answered {}",
            last.record, last.outcome
        )));
    }
    if let Some(s) = steps.iter().find(|s| s.class.is_fault()) {
        return Err(FaultCampaignError::Reference(format!(
            "after {} it answered {}: {}",
            s.record, s.outcome, s.detail
        )));
    }
    let bad = |e: &dyn std::fmt::Display| FaultCampaignError::Reference(e.to_string());
    let record = last.record.clone();
    let mut position = Position::new(size, Side::Cut);
    let mut positions = vec![position.clone()];
    for mv in record.moves() {
        position.play(*mv).map_err(|e| bad(&e))?;
        if position.to_move() == Some(Side::Cut) || position.winner().is_some() {
            positions.push(position.clone());
        }
    }
    Ok(Reference {
        record,
        seen,
        positions,
    })
}

/// The faults of the campaign on `size`: every kind at every place, in [`FaultKind::ALL`] and
/// place order.
pub fn planned_faults(profile: &boards::Profile, size: Size) -> Vec<(FaultKind, Defect)> {
    FaultKind::ALL
        .iter()
        .flat_map(|&k| {
            k.faults(size, profile.full_scale_code())
                .into_iter()
                .map(move |f| (k, f))
        })
        .collect()
}

/// A part of a fault campaign on one size: the trials of the faults a shard owns, by their
/// index in [`planned_faults`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FaultShard {
    /// The target's stage.
    pub stage: crate::dut::Setup,
    /// The game's M.
    pub size: u8,
    /// The reference game's record.
    pub reference: String,
    /// Faults the whole campaign has.
    pub planned: usize,
    /// The faults run, in order, each with its index.
    pub trials: Vec<(usize, Trial)>,
}

/// Runs every fault of every kind on `target` (a board for games of `size`, `profile`'s
/// firmware) against the reference game. `progress(done, planned)` is called after each
/// fault and stops the campaign by breaking (the run then holds the faults done).
///
/// The campaign as the bench ran it before shards: one plain loop, no part, no shard, no
/// merge. It is the independent reference the merged shards of a campaign are checked
/// against (issue 49), so it shares with [`fault_campaign_shard`] only each fault's trial.
pub fn fault_campaign(
    target: &mut dyn DefectTarget,
    profile: &'static boards::Profile,
    size: Size,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<FaultRun, FaultCampaignError> {
    let predictor = Predictor::new(profile, size);
    target.repair();
    let reference = reference(target, &predictor, size)?;
    let faults = planned_faults(profile, size);
    let mut run = FaultRun {
        stage: target.stage(),
        size: size.get(),
        reference: reference.record.to_string(),
        trials: Vec::new(),
        planned: faults.len(),
    };
    for (i, &(kind, fault)) in faults.iter().enumerate() {
        let trial = fault_trial(target, &predictor, size, &reference, i, (kind, fault))?;
        run.trials.push(trial);
        if progress(i + 1, faults.len()).is_break() {
            break;
        }
    }
    target.repair();
    Ok(run)
}

/// Runs the faults `owns` picks (by index in [`planned_faults`]) on `target`, after the
/// intact board's reference game: each on the board repaired first, played as game
/// `index + 1`, so a fault's trial is the same whichever others run before it.
/// `progress(done)` is called after each fault and stops the part by breaking.
pub fn fault_campaign_shard(
    target: &mut dyn DefectTarget,
    profile: &'static boards::Profile,
    size: Size,
    owns: &dyn Fn(usize) -> bool,
    progress: &mut dyn FnMut(usize) -> ControlFlow<()>,
) -> Result<FaultShard, FaultCampaignError> {
    let predictor = Predictor::new(profile, size);
    target.repair();
    let reference = reference(target, &predictor, size)?;
    let faults = planned_faults(profile, size);
    let mut run = FaultShard {
        stage: target.stage(),
        size: size.get(),
        reference: reference.record.to_string(),
        trials: Vec::new(),
        planned: faults.len(),
    };
    for (i, &fault) in faults.iter().enumerate() {
        if !owns(i) {
            continue;
        }
        let trial = fault_trial(target, &predictor, size, &reference, i, fault)?;
        run.trials.push((i, trial));
        if progress(run.trials.len()).is_break() {
            break;
        }
    }
    target.repair();
    Ok(run)
}

/// Fault `i` of the campaign on the board repaired first, played as game `i + 1` with the
/// reference game's moves.
fn fault_trial(
    target: &mut dyn DefectTarget,
    predictor: &Predictor,
    size: Size,
    reference: &Reference,
    i: usize,
    (kind, fault): (FaultKind, Defect),
) -> Result<Trial, FaultCampaignError> {
    let begun = std::time::Instant::now();
    let script = Script::Record(Box::new(reference.record.clone()));
    target.repair();
    target.inject(fault)?;
    let (seen, steps) = observe(target, predictor, size, i + 1, &script)?;
    let active_from = if acts_through_states(fault) {
        reference
            .positions
            .iter()
            .position(|p| Defect::on_cage(&[fault], p).states() != p.states())
    } else {
        Some(0)
    };
    let verdict = match classify(reference, &seen, &steps, size) {
        Verdict::Silent if active_from.is_none() => Verdict::Idle,
        v => v,
    };
    Ok(Trial {
        size: size.get(),
        kind,
        place: place(fault),
        verdict,
        active_from,
        bench_saw: steps
            .iter()
            .any(|s| s.worst.as_ref().is_some_and(|(_, d)| *d > s.band)),
        took: Some(begun.elapsed()),
    })
}

/// Whether the fault acts only through the edges' states (so it is on the cage only in some
/// positions); the others change a part or a channel from the start.
fn acts_through_states(fault: Defect) -> bool {
    matches!(fault, Defect::WireLeft(_) | Defect::Swapped(..))
}

/// The faulty board's game against the intact board's: the first report, misreading or
/// changed move decides.
pub(crate) fn classify(reference: &Reference, run: &Seen, steps: &[Step], size: Size) -> Verdict {
    if run.start != reference.seen.start {
        let what = match run.start {
            Some(Outcome::NewGame { size }) => format!("reads the cage as M={size}"),
            Some(other) => format!("answers the new game with `{other}`"),
            None => "does not answer the new game".to_string(),
        };
        return Verdict::Misread { after: 0, what };
    }
    for (k, (outcome, belief)) in run.decisions.iter().enumerate() {
        let Some((expected, expected_belief)) = reference.seen.decisions.get(k) else {
            break;
        };
        match (outcome, expected) {
            (Outcome::Fault(fault), _) => {
                return Verdict::Detected {
                    after: k,
                    fault: fault.to_string(),
                };
            }
            (Outcome::GameOver(_), _) | (_, Outcome::GameOver(_)) if outcome != expected => {
                return Verdict::Misread {
                    after: k,
                    what: format!("says `{outcome}` where the intact board says `{expected}`"),
                };
            }
            _ => {}
        }
        let truth = reference.positions.get(k).map(|p| p.states().to_vec());
        if belief != expected_belief && *belief != truth {
            return Verdict::Misread {
                after: k,
                what: misread_words(size, belief.as_deref(), truth.as_deref()),
            };
        }
        if outcome != expected {
            let step = steps.get(k);
            return Verdict::Changed {
                after: k,
                tied: step.is_some_and(|s| matches!(s.class, Class::Agree | Class::Tie)),
                what: format!(
                    "{outcome} where the intact board {expected}{}",
                    step.map_or_else(String::new, |s| format!(
                        " (exact tied set: {})",
                        s.tied
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    ))
                ),
            };
        }
    }
    Verdict::Silent
}

/// The edges the tracker holds wrongly: `believes D4 short (it is a resistor)`.
fn misread_words(size: Size, belief: Option<&[EdgeState]>, truth: Option<&[EdgeState]>) -> String {
    let (Some(belief), Some(truth)) = (belief, truth) else {
        return "believes another position".to_string();
    };
    let wrong: Vec<String> = belief
        .iter()
        .zip(truth)
        .enumerate()
        .filter(|(_, (b, t))| b != t)
        .map(|(i, (b, t))| {
            let edge = size
                .edges()
                .nth(i)
                .map_or_else(|| format!("edge {i}"), |e| e.to_string());
            format!("{edge} {} (it is {})", b.name(), t.name())
        })
        .collect();
    format!("believes {}", wrong.join(", "))
}
