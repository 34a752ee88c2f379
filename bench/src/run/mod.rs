//! Running the bench: scenarios, games played step by step, whole campaigns into a report,
//! and games an operator guides.

pub mod game;
pub mod guided;
pub mod kind;
pub mod scenario;

use std::ops::ControlFlow;

use firmware::protocol::{Command, Reply};

use crate::check::Predictor;
use crate::dut::{Dut, DutError, Lost};
use crate::report::played::GamePlayed;
use crate::report::{Depends, GameSink, Header, ReportError};
use game::play_game;
use scenario::{Scenario, Script};

/// Why a campaign stopped.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The target failed.
    #[error(transparent)]
    Dut(#[from] DutError),
    /// The report could not be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The caller stopped the run between two games (the CLI does on Ctrl-C).
    #[error("stopped after game {games} of {known}")]
    Stopped {
        /// Games finished.
        games: usize,
        /// Games known by then (a tree grows as it goes).
        known: usize,
    },
}

/// Identifies the target and builds the report header.
pub fn header(
    target: &mut dyn Dut,
    profile: &boards::Profile,
    scenario: &Scenario,
    board_seed: Option<u64>,
) -> Result<Header, DutError> {
    match target.exchange(Command::Identify)? {
        Reply::Identity(id) => Ok(Header {
            stage: target.stage(),
            firmware: id.version.to_string(),
            board: id.board.to_string(),
            profile: None,
            board_seed,
            scenario: scenario.name.clone(),
            size: scenario.size.get(),
            games: scenario.games.len(),
            depends: Depends {
                profile_sha256: Some(Depends::profile(profile)),
                records_sha256: scenario.source_sha256.clone(),
                ..Depends::default()
            },
        }),
        reply => Err(Lost::Unexpected {
            expected: "its identity",
            reply,
        }
        .into()),
    }
}

/// Plays every game of `scenario` not yet in `report` (a [`crate::Report`], or the games a
/// shard owns: [`crate::report::Collected`]), writing each step as it comes;
/// `progress(done, known)` is called after each game, and stops the run by breaking. A tree
/// grows breadth first from its root branch, one game per branch.
pub fn play_scenario(
    target: &mut dyn Dut,
    profile: &'static boards::Profile,
    scenario: &Scenario,
    report: &mut dyn GameSink,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<(), PlayError> {
    let predictor = Predictor::new(profile, scenario.size);
    let mut games: std::collections::VecDeque<Script> = scenario.games.iter().cloned().collect();
    let mut index = 0;
    while let Some(script) = games.pop_front() {
        let branches = match report.done(index) {
            Some(b) => b,
            None => {
                let before = target.retry_stats().map_or(0, |r| r.rerequests);
                let start = std::time::Instant::now();
                let mut steps = Vec::new();
                let b = play_game(
                    target,
                    &predictor,
                    scenario.size,
                    index,
                    &script,
                    &mut |s| steps.push(s),
                )?;
                let took = start.elapsed();
                for s in steps {
                    report.step(&s)?;
                }
                report.end_game(index, b)?;
                let after = target.retry_stats().map_or(0, |r| r.rerequests);
                report.note_played(
                    index,
                    GamePlayed {
                        resent: after.saturating_sub(before),
                        took,
                    },
                );
                b
            }
        };
        if let Script::Branch(path) = &script {
            for i in 0..branches.min(usize::from(u8::MAX)) {
                let mut child = path.clone();
                child.push(i as u8);
                games.push_back(Script::Branch(child));
            }
        }
        index += 1;
        let known = index + games.len();
        if progress(index, known).is_break() && !games.is_empty() {
            return Err(PlayError::Stopped {
                games: index,
                known,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Existing, Report};

    #[test]
    fn a_campaign_notes_each_game_it_plays_with_its_time() {
        let profile = &boards::NUCLEO_F446RE;
        let scenario = Scenario::random(heuristic::Size::M3, 2, 1);
        let mut sil = crate::Sil::new(profile, scenario.size, None).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let header = header(&mut sil, profile, &scenario, None).unwrap();
        let before = std::time::SystemTime::now();
        let mut report = Report::open(dir.path(), header, Existing::Refuse).unwrap();
        play_scenario(&mut sil, profile, &scenario, &mut report, &mut |_, _| {
            ControlFlow::Continue(())
        })
        .unwrap();
        let played = report.resent();
        assert!(played.started >= before, "{played:?}");
        assert_eq!(played.games.keys().copied().collect::<Vec<_>>(), [0, 1]);
        // A game of several decisions through the SIL firmware takes some time; none is 0.
        for game in played.games.values() {
            assert!(game.took > std::time::Duration::ZERO, "{played:?}");
            assert!(game.took < std::time::Duration::from_secs(60), "{played:?}");
        }
    }
}
