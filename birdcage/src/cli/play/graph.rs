//! A game on a graph file against the machine: the cage's opponents (the heuristic as Cut
//! or as Short, the perfect player) on any board, the board shown as its list of edges.
//! The game itself is the library's session ([`emulator::session`]); this module draws it.

use anyhow::Result;
use emulator::players::Opponent;
use emulator::session::{Game as _, GraphGame, Machine, Session};
use heuristic::{Model, Side};
use switching::{Graph, Play};

use super::{Front, none_if_empty};
use crate::cli::analyze::graph_lines_with_drops;
use crate::cli::{graph_lines, graph_text};

/// One game on a graph in progress.
#[derive(Debug)]
pub(crate) struct GraphSession {
    name: String,
    /// The network whose drops `drops` shows.
    model: Model,
    played: Session<GraphGame>,
}

impl GraphSession {
    /// A new game on `graph` (read from the file `name`), Cut first.
    pub(crate) fn new(
        name: &str,
        graph: &Graph,
        you: Side,
        opponent: Opponent,
        model: Model,
    ) -> Self {
        GraphSession {
            name: name.to_string(),
            model,
            played: Session::new(
                GraphGame::new(graph.clone()),
                you,
                Machine::Player(opponent),
            ),
        }
    }

    /// The game as it stands.
    pub(crate) fn play(&self) -> Play<'_> {
        self.played.game().as_play()
    }

    fn name_of(&self, edge: usize) -> &str {
        self.played.game().edge_name(edge)
    }

    /// The machine's move, if it is the machine's turn.
    pub(crate) fn reply(&mut self) -> Result<Option<usize>> {
        Ok(self.played.reply()?)
    }

    /// Plays the edge `edge` for the person.
    pub(crate) fn play_edge(&mut self, edge: usize) -> Result<usize> {
        Ok(self.played.play(edge)?)
    }

    /// The machine's last move, if it has moved.
    pub(crate) fn last_machine_move(&self) -> Option<usize> {
        self.played.last_machine_move().map(|(_, edge)| edge)
    }

    /// The edge the hint suggests, if any, the hint's line and its reasons (see
    /// [`emulator::hint`]).
    pub(crate) fn suggest(&self) -> emulator::hint::Hint<usize> {
        self.played.hint()
    }

    /// The board as lines, `marker(i)` before edge i; with `drops`, each resistor's drop.
    pub(crate) fn lines(&self, marker: impl Fn(usize) -> &'static str, drops: bool) -> Vec<String> {
        if drops {
            graph_lines_with_drops(&self.play(), self.model, marker)
        } else {
            graph_lines(&self.play(), marker)
        }
    }
}

impl Front for GraphSession {
    fn names_begin(&self, prefix: &str) -> bool {
        let prefix = prefix.to_lowercase();
        self.play()
            .graph()
            .edges()
            .iter()
            .any(|e| e.name.to_lowercase().starts_with(&prefix))
    }

    fn header(&self) -> String {
        format!(
            "{} ({} edges): you play {} against {}. Cut moves first.",
            self.name,
            self.played.game().graph().edges().len(),
            self.played.you(),
            self.played.machine().describe()
        )
    }

    fn board(&self) -> String {
        graph_text(&self.play())
    }

    fn answer(&mut self) -> Result<Option<String>> {
        Ok(self.reply()?.map(|e| self.name_of(e).to_string()))
    }

    fn play_text(&mut self, text: &str) -> Result<String> {
        let edge = self.played.play_named(text)?;
        Ok(self.name_of(edge).to_string())
    }

    fn names_edge(&self, word: &str) -> bool {
        self.played.game().parse(word).is_ok()
    }

    fn hint(&self) -> (String, String) {
        let hint = self.suggest();
        (hint.line, hint.why)
    }

    fn drops(&self) -> String {
        let mut out = format!("Drops ({} network), in % of the supply:\n", self.model);
        for line in self.lines(|_| "  ", true) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    fn undo(&mut self) -> bool {
        self.played.undo()
    }

    fn record(&self) -> String {
        none_if_empty(self.played.record())
    }

    fn winner(&self) -> Option<Side> {
        self.played.winner()
    }

    fn you(&self) -> Side {
        self.played.you()
    }

    fn outcome(&self) -> Option<String> {
        self.played.outcome()
    }
}
