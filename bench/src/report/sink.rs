//! Where a campaign's games go: the report's lines, and the sink a report or a shard's
//! collected games implements.

use super::*;

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Line {
    Header(Box<Header>),
    Step(Box<StepLine>),
    GameEnd(usize, usize),
    Misfit(Box<Misfit>),
}

/// Where a campaign's games go: a [`Report`] written as the run goes, or the lines of a
/// shard's games ([`Collected`]).
pub trait GameSink {
    /// Whether game `index` needs no playing here, and the branches it left (tree).
    fn done(&self, index: usize) -> Option<usize>;
    /// Records one step.
    fn step(&mut self, step: &Step) -> Result<(), ReportError>;
    /// Records the end of game `index`, which left `branches` replies of Short (tree).
    fn end_game(&mut self, index: usize, branches: usize) -> Result<(), ReportError>;
    /// Notes how game `index` went in this process: its time, its commands sent again.
    fn note_played(&mut self, index: usize, game: GamePlayed) {
        let _ = (index, game);
    }
}

/// A line's body as the report writes it (before its seal).
pub(super) fn body(line: &Line) -> Result<String, ReportError> {
    serde_json::to_string(line).map_err(|e| ReportError::Io {
        path: PathBuf::from(STEPS),
        error: e.into(),
    })
}

/// The report lines of the games a shard owns, kept whole per game: what
/// [`Report::replay`] writes back in the one-process run's order. The games it does not own
/// count as done (none of them is a tree, whose games depend on each other).
pub struct Collected<'a> {
    owns: &'a dyn Fn(usize) -> bool,
    pending: Vec<String>,
    games: Vec<(usize, Vec<String>)>,
}

impl std::fmt::Debug for Collected<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collected")
            .field("games", &self.games.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Collected<'a> {
    /// Collects the games `owns` picks by index.
    pub fn new(owns: &'a dyn Fn(usize) -> bool) -> Collected<'a> {
        Collected {
            owns,
            pending: Vec::new(),
            games: Vec::new(),
        }
    }

    /// Each finished game's lines (bodies, unsealed), by game index.
    pub fn into_games(self) -> Vec<(usize, Vec<String>)> {
        self.games
    }
}

impl GameSink for Collected<'_> {
    fn done(&self, index: usize) -> Option<usize> {
        (!(self.owns)(index)).then_some(0)
    }

    fn step(&mut self, step: &Step) -> Result<(), ReportError> {
        self.pending.push(body(&Line::Step(Box::new(step.line())))?);
        Ok(())
    }

    fn end_game(&mut self, index: usize, branches: usize) -> Result<(), ReportError> {
        self.pending.push(body(&Line::GameEnd(index, branches))?);
        let lines = std::mem::take(&mut self.pending);
        self.games.push((index, lines));
        Ok(())
    }
}
