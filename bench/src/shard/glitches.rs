//! The glitch campaign in shards. Trial `k` (from 0) is the plan's glitch `k`; shard K/P
//! plays the trials it owns ([`ShardId::owns`]) on a virtual board of its own, after the
//! intact game, which every shard plays (and checks against SIL) for itself. The merge puts
//! the trials back in order, judges each against the intact game and writes `glitches.csv`
//! and `glitches.md` as the one-process run ([`crate::faults::glitches::run`]) does.

use std::ops::ControlFlow;
use std::path::PathBuf;

use boards::virtual_board::{Monitor, TrialEnd};
use serde::{Deserialize, Serialize};
use shards::ShardId;

use crate::faults::glitches::{
    CampaignBoard, GlitchClass, GlitchError, GlitchResults, Judged, Plan, Prepared, TrialBoard,
};

/// The trials a one-process campaign plays between two stored files: a killed campaign
/// loses at most these, and `--resume` goes on from the files.
pub const CHUNK: u64 = 50;

/// The chunks a one-process campaign of `trials` is stored in.
pub fn chunks(trials: u64) -> u32 {
    trials
        .div_ceil(CHUNK)
        .clamp(1, u64::from(shards::MAX_SHARDS)) as u32
}

/// What a shard stores: the intact game and its trials, each in the board's own words.
#[derive(Debug, Serialize, Deserialize)]
pub struct Body {
    intact: String,
    planned: u64,
    trials: Vec<Played>,
}

/// One trial as played: its index, the command sent, the answer and how long it took.
#[derive(Debug, Serialize, Deserialize)]
pub struct Played {
    index: u64,
    trial: String,
    end: String,
    ms: f64,
}

/// Why a shard of the glitch campaign could not be run or merged.
#[derive(Debug, thiserror::Error)]
pub enum GlitchShardError {
    /// The campaign failed.
    #[error(transparent)]
    Campaign(#[from] GlitchError),
    /// The shard was stopped before its last trial: it writes nothing.
    #[error("stopped after {done} of the shard's {owned} trials; run it again (--resume)")]
    Stopped {
        /// Trials finished.
        done: usize,
        /// Trials the shard owns.
        owned: usize,
    },
    /// A shard's body that does not fit this campaign (the shard model's hashes already
    /// refuse a damaged or foreign file).
    #[error("shard {shard}: {why}")]
    Body {
        /// The shard, `K/P`.
        shard: String,
        /// What is wrong.
        why: String,
    },
}

/// A glitch campaign on the virtual board.
#[derive(Clone, Debug)]
pub struct GlitchCampaign {
    /// The board binary.
    pub elf: PathBuf,
    /// `--board` as given.
    pub board_arg: String,
    /// The board modelled.
    pub profile: &'static boards::Profile,
    /// The built-in profile the firmware runs.
    pub base: &'static boards::Profile,
    /// The board's parts seed.
    pub board_seed: Option<u64>,
    /// What is drawn.
    pub plan: Plan,
}

impl GlitchCampaign {
    /// The board it runs on.
    pub fn board(&self) -> CampaignBoard<'_> {
        CampaignBoard {
            arg: &self.board_arg,
            profile: self.profile,
            base: self.base,
            seed: self.board_seed,
        }
    }

    /// The campaign's intact game on `board`, the spec's virtual board for [`Self::elf`]
    /// (`RunSpec::trial_board`), and its glitches
    /// ([`Prepared`]), for [`GlitchCampaign::run_shard_on`].
    pub fn prepare(&self, board: TrialBoard) -> Result<Prepared, GlitchShardError> {
        Ok(Prepared::on(board, self.board(), &self.plan)?)
    }

    /// Plays shard `id`'s trials on `board`, one of its own; `progress(done, owned)` after each
    /// stops the run by breaking, and a stopped shard is an error: it writes nothing.
    pub fn run_shard(
        &self,
        board: TrialBoard,
        id: ShardId,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<Body, GlitchShardError> {
        self.run_shard_on(&mut self.prepare(board)?, id, progress)
    }

    /// [`GlitchCampaign::run_shard`] on a board already started: a one-process campaign plays
    /// its chunks on one board (a trial's answer depends on its words alone).
    pub fn run_shard_on(
        &self,
        prepared: &mut Prepared,
        id: ShardId,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<Body, GlitchShardError> {
        let owned: Vec<usize> = (0..prepared.glitches.len())
            .filter(|&k| id.owns(k as u64))
            .collect();
        let mut trials = Vec::with_capacity(owned.len());
        for (done, &k) in owned.iter().enumerate() {
            let judged = prepared.play(k)?;
            trials.push(Played {
                index: k as u64,
                trial: Monitor::Trial(judged.trial).to_string(),
                end: judged.end.to_string(),
                ms: judged.ms,
            });
            if progress(done + 1, owned.len()).is_break() {
                break;
            }
        }
        // Stopped: nothing is stored, whatever the split. A partial 1/1 stored as whole was
        // merged and judged as the whole campaign, exit 0 (issue 62: `--shard 1/1`, which
        // `--slurm --shards 1` submits, and a one-chunk campaign of 50 trials or fewer).
        if trials.len() < owned.len() {
            return Err(GlitchShardError::Stopped {
                done: trials.len(),
                owned: owned.len(),
            });
        }
        Ok(Body {
            intact: prepared.intact.to_string(),
            planned: self.plan.trials,
            trials,
        })
    }

    /// The campaign from the shards' bodies (in shard order), its trials in order. A
    /// one-process run (one body) may have stopped early.
    pub fn campaign(&self, bodies: Vec<Body>) -> Result<GlitchResults, GlitchShardError> {
        let count = bodies.len();
        let mut intact: Option<TrialEnd> = None;
        let mut played = Vec::new();
        for (k, body) in bodies.into_iter().enumerate() {
            let shard = format!("{}/{count}", k + 1);
            let bad = |why: String| GlitchShardError::Body {
                shard: shard.clone(),
                why,
            };
            let its: TrialEnd = body
                .intact
                .parse()
                .map_err(|e| bad(format!("its intact game: {e}")))?;
            if body.planned != self.plan.trials || intact.as_ref().is_some_and(|i| *i != its) {
                return Err(bad(format!(
                    "a campaign of {} trials on the intact game `{its}`, not this one's",
                    body.planned
                )));
            }
            intact = Some(its.clone());
            for p in body.trials {
                let trial = match p.trial.parse::<Monitor>() {
                    Ok(Monitor::Trial(trial)) => trial,
                    _ => {
                        return Err(bad(format!(
                            "trial {} is not a trial: {}",
                            p.index, p.trial
                        )));
                    }
                };
                let end: TrialEnd = p
                    .end
                    .parse()
                    .map_err(|e| bad(format!("trial {}'s answer: {e}", p.index)))?;
                played.push((p.index, trial, end, p.ms));
            }
        }
        let intact = intact.ok_or_else(|| GlitchShardError::Body {
            shard: format!("*/{count}"),
            why: "no shard".into(),
        })?;
        played.sort_by_key(|(index, ..)| *index);
        let whole = count == 1 && (played.len() as u64) < self.plan.trials;
        for (i, (index, ..)) in played.iter().enumerate() {
            if *index != i as u64 {
                return Err(GlitchShardError::Body {
                    shard: format!("*/{count}"),
                    why: format!("trial {} is missing or twice", i + 1),
                });
            }
        }
        if !whole && played.len() as u64 != self.plan.trials {
            return Err(GlitchShardError::Body {
                shard: format!("*/{count}"),
                why: format!(
                    "{} trials of the campaign's {}",
                    played.len(),
                    self.plan.trials
                ),
            });
        }
        let trials: Vec<Judged> = played
            .into_iter()
            .map(|(_, trial, end, ms)| Judged {
                judgement: GlitchClass::of(&end, &intact),
                trial,
                end,
                ms,
            })
            .collect();
        Ok(GlitchResults {
            seconds: trials.iter().map(|t| t.ms).sum::<f64>() / 1000.0,
            intact,
            trials,
            plan: self.plan.clone(),
        })
    }
}
