//! The fault campaigns in shards. Fault `k` of the campaign on the M-th size asked is item
//! `offset(M) + k`; shard K/P injects the faults it owns ([`ShardId::owns`]), each on a board
//! repaired first and played as game `k + 1` (the converter's noise is drawn per game), after
//! the intact board's reference game, which every shard plays for itself. The merge puts the
//! trials back in fault order and writes `faults.csv` and `faults.md` as the one-process run
//! does. The virtual board's board-fault campaign (`BoardFaults`, feature `probe`) is split
//! the same way.

use std::ops::ControlFlow;
use std::path::Path;

use heuristic::Size;
use serde::{Deserialize, Serialize};
use shards::ShardId;

use crate::faults::kinds::DefectTarget;
use crate::faults::table::write_fault_report;
use crate::faults::{
    FaultCampaignError, FaultRun, FaultShard, fault_campaign_shard, planned_faults,
};

/// Why a fault campaign's shard could not be run or merged.
#[derive(Debug, thiserror::Error)]
pub enum FaultShardError {
    /// The campaign failed.
    #[error(transparent)]
    Campaign(#[from] FaultCampaignError),
    /// The shard was stopped before its last fault: it writes nothing.
    #[error("stopped after {done} of the shard's {owned} faults on M={size}; run the shard again")]
    Stopped {
        /// Board size.
        size: u8,
        /// Faults finished.
        done: usize,
        /// Faults the shard owns on that size.
        owned: usize,
    },
    /// A shard's body that does not fit this campaign (the shard model's hashes already
    /// refuse a damaged or foreign file).
    #[error("shard {shard}: {why}")]
    Body {
        /// The shard, `K/P` (`*/P`: no shard).
        shard: String,
        /// What is wrong.
        why: String,
    },
    /// The report could not be written.
    #[error("cannot write the fault report in {}: {}", .dir.display(), why(error))]
    Write {
        /// The folder.
        dir: std::path::PathBuf,
        /// Why: the file and its cause (the one writer, `shards::safe`).
        error: shards::FileError,
    },
}

/// The one writer's error and its cause in one line: `writing PATH: CAUSE`.
fn why(error: &shards::FileError) -> String {
    match std::error::Error::source(error) {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    }
}

/// What a shard of a fault campaign writes: its part of each size's campaign.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Body {
    parts: Vec<FaultShard>,
}

/// A fault campaign on the emulated cage, on each size asked.
#[derive(Debug)]
pub struct CageFaults {
    /// The board the bench predicts with.
    pub profile: &'static boards::Profile,
    /// The sizes, in order.
    pub sizes: Vec<Size>,
    /// `--board` as given, for the report's title.
    pub board_arg: String,
    /// The board's parts seed.
    pub board_seed: Option<u64>,
}

impl CageFaults {
    /// The first item of each size's faults, and the faults of every size.
    fn offsets(&self) -> (Vec<usize>, usize) {
        let mut offsets = Vec::new();
        let mut all = 0;
        for &size in &self.sizes {
            offsets.push(all);
            all += planned_faults(self.profile, size).len();
        }
        (offsets, all)
    }

    /// Runs shard `id`'s faults, each size's board from `connect`; `progress(size, done,
    /// owned)` after each fault stops the run by breaking. The one-process run (shard 1/1)
    /// keeps what it finished, as before; another shard that is stopped writes nothing.
    pub fn run_shard<E>(
        &self,
        id: ShardId,
        connect: &mut dyn FnMut(Size) -> Result<Box<dyn DefectTarget>, E>,
        progress: &mut dyn FnMut(Size, usize, usize) -> ControlFlow<()>,
    ) -> Result<Body, E>
    where
        E: From<FaultShardError>,
    {
        let (offsets, _) = self.offsets();
        let mut body = Body::default();
        for (&size, &offset) in self.sizes.iter().zip(&offsets) {
            let owns = |k: usize| id.owns((offset + k) as u64);
            let planned = planned_faults(self.profile, size).len();
            let owned = (0..planned).filter(|&k| owns(k)).count();
            if owned == 0 {
                continue;
            }
            let mut target = connect(size)?;
            let part =
                fault_campaign_shard(target.as_mut(), self.profile, size, &owns, &mut |done| {
                    progress(size, done, owned)
                })
                .map_err(FaultShardError::from)?;
            let done = part.trials.len();
            body.parts.push(part);
            if done < owned {
                if id == ShardId::WHOLE {
                    break;
                }
                return Err(FaultShardError::Stopped {
                    size: size.get(),
                    done,
                    owned,
                }
                .into());
            }
        }
        Ok(body)
    }

    /// The campaigns from the shards' bodies (in shard order), each size's trials in fault
    /// order. A one-process run (one body) may stop early: its report is marked interrupted.
    pub fn runs(&self, bodies: Vec<Body>) -> Result<Vec<FaultRun>, FaultShardError> {
        let count = bodies.len();
        let mut parts: Vec<(usize, FaultShard)> = Vec::new();
        for (k, body) in bodies.into_iter().enumerate() {
            parts.extend(body.parts.into_iter().map(|p| (k, p)));
        }
        let mut runs = Vec::new();
        for &size in &self.sizes {
            let mine: Vec<&(usize, FaultShard)> =
                parts.iter().filter(|(_, p)| p.size == size.get()).collect();
            let Some((_, first)) = mine.first() else {
                if count == 1 {
                    break; // the one-process run stopped before this size
                }
                return Err(FaultShardError::Body {
                    shard: format!("*/{count}"),
                    why: format!("no shard holds the campaign on M={size}"),
                });
            };
            for (k, part) in &mine {
                if (&part.stage, &part.reference, part.planned)
                    != (&first.stage, &first.reference, first.planned)
                {
                    return Err(FaultShardError::Body {
                        shard: format!("{}/{count}", k + 1),
                        why: format!(
                            "its M={size} campaign ran on another target or reference game ({} `{}`)",
                            part.stage, part.reference
                        ),
                    });
                }
            }
            let trials = in_fault_order(
                mine.iter().map(|(k, p)| (*k, p.trials.as_slice())),
                first.planned,
                count,
                size.get(),
            )?;
            let done = trials.len();
            runs.push(FaultRun {
                stage: first.stage,
                size: size.get(),
                reference: first.reference.clone(),
                trials,
                planned: first.planned,
            });
            if done < first.planned {
                break;
            }
        }
        Ok(runs)
    }

    /// Writes `faults.csv` and `faults.md` in `dir` from the campaigns merged
    /// ([`CageFaults::runs`]); returns the Markdown.
    pub fn write(&self, dir: &Path, runs: &[FaultRun]) -> Result<String, FaultShardError> {
        write_fault_report(dir, runs, &self.board_arg, self.board_seed).map_err(|error| {
            FaultShardError::Write {
                dir: dir.to_path_buf(),
                error,
            }
        })
    }
}

/// The trials of one campaign's parts (each with its shard's number, from 0) in fault order,
/// each fault once: every fault of the `planned` when the parts are `count` > 1 shards; the
/// faults before its stop when they are a one-process run's.
fn in_fault_order<'a, T: Clone + 'a>(
    parts: impl IntoIterator<Item = (usize, &'a [(usize, T)])>,
    planned: usize,
    count: usize,
    size: u8,
) -> Result<Vec<T>, FaultShardError> {
    let mut slots: Vec<Option<T>> = vec![None; planned];
    for (k, trials) in parts {
        let bad = |why: String| FaultShardError::Body {
            shard: format!("{}/{count}", k + 1),
            why,
        };
        for (i, trial) in trials {
            match slots.get_mut(*i) {
                Some(slot @ None) => *slot = Some(trial.clone()),
                Some(Some(_)) => return Err(bad(format!("fault {i} on M={size} twice"))),
                None => return Err(bad(format!("fault {i} of {planned}"))),
            }
        }
    }
    // A stopped one-process run holds the faults before the stop; shards hold all.
    let done = slots.iter().take_while(|s| s.is_some()).count();
    if slots[done..].iter().any(Option::is_some) || (count > 1 && done < planned) {
        return Err(FaultShardError::Body {
            shard: format!("*/{count}"),
            why: format!("no shard holds fault {done} on M={size}"),
        });
    }
    Ok(slots.into_iter().flatten().collect())
}

/// The board-fault campaign of the virtual board (`--stage hil --probe virtual --scenario
/// faults`) in shards: fault `k` belongs to shard k mod P, each on a fresh virtual board after
/// the intact board's reference game, which every shard plays for itself. The merge writes
/// `board-faults.csv` and `board-faults.md` as the one-process run does.
#[cfg(feature = "probe")]
#[derive(Debug)]
pub struct BoardFaults {
    /// The board the bench predicts with.
    pub profile: &'static boards::Profile,
    /// The game's M.
    pub size: Size,
    /// The faults, in campaign order.
    pub faults: Vec<crate::faults::board::BoardFaultCase>,
    /// `--board` as given, for the report's title.
    pub board_arg: String,
    /// The board's parts seed.
    pub board_seed: Option<u64>,
}

#[cfg(feature = "probe")]
impl BoardFaults {
    /// Runs shard `id`'s faults on virtual boards from `connect` (given the faults to make);
    /// `progress(done, owned)` after each fault stops the run by breaking. The one-process
    /// run (shard 1/1) keeps what it finished; another shard that is stopped writes nothing.
    pub fn run_shard<E>(
        &self,
        id: ShardId,
        connect: &mut dyn FnMut(
            &[boards::virtual_board::BoardFault],
        ) -> Result<crate::Hil, crate::DutError>,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<crate::faults::board::BoardFaultShard, E>
    where
        E: From<FaultShardError>,
    {
        let owns = |k: usize| id.owns(k as u64);
        let owned = (0..self.faults.len()).filter(|&k| owns(k)).count();
        let part = crate::faults::board::board_fault_campaign_shard(
            connect,
            self.profile,
            self.size,
            &self.faults,
            &owns,
            &mut |done| progress(done, owned),
        )
        .map_err(FaultShardError::from)?;
        if part.trials.len() < owned && id != ShardId::WHOLE {
            return Err(FaultShardError::Stopped {
                size: self.size.get(),
                done: part.trials.len(),
                owned,
            }
            .into());
        }
        Ok(part)
    }

    /// The campaign from the shards' bodies (in shard order), its trials in fault order. A
    /// one-process run (one body) may stop early: its report is marked interrupted.
    pub fn run(
        &self,
        bodies: Vec<crate::faults::board::BoardFaultShard>,
    ) -> Result<crate::faults::board::BoardFaultRun, FaultShardError> {
        let count = bodies.len();
        let mut parts = Vec::new();
        for (k, part) in bodies.into_iter().enumerate() {
            if (part.size, part.planned) != (self.size.get(), self.faults.len())
                || parts.first().is_some_and(
                    |(_, f): &(usize, crate::faults::board::BoardFaultShard)| {
                        f.reference != part.reference
                    },
                )
            {
                return Err(FaultShardError::Body {
                    shard: format!("{}/{count}", k + 1),
                    why: format!(
                        "a campaign of {} faults on M={} with reference `{}`, not this one's",
                        part.planned, part.size, part.reference
                    ),
                });
            }
            parts.push((k, part));
        }
        let Some((_, first)) = parts.first() else {
            return Err(FaultShardError::Body {
                shard: format!("*/{count}"),
                why: "no shard".into(),
            });
        };
        Ok(crate::faults::board::BoardFaultRun {
            size: first.size,
            reference: first.reference.clone(),
            trials: in_fault_order(
                parts.iter().map(|(k, p)| (*k, p.trials.as_slice())),
                first.planned,
                count,
                first.size,
            )?,
            planned: first.planned,
        })
    }

    /// Writes `board-faults.csv` and `board-faults.md` in `dir` from the campaign merged
    /// ([`BoardFaults::run`]); returns the Markdown.
    pub fn write(
        &self,
        dir: &Path,
        run: &crate::faults::board::BoardFaultRun,
    ) -> Result<String, FaultShardError> {
        crate::faults::board::write_board_fault_report(dir, run, &self.board_arg, self.board_seed)
            .map_err(|error| FaultShardError::Write {
                dir: dir.to_path_buf(),
                error,
            })
    }
}
