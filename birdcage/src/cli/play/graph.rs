//! A game on a graph file against the machine: the cage's opponents (the heuristic as Cut
//! or as Short, the perfect player) on any board, the board shown as its list of edges.

use anyhow::{Result, anyhow, bail};
use emulator::players::Opponent;
use heuristic::{Model, Side};
use switching::{Graph, GraphMoveError, Play};

use super::{Game, Rival};
use crate::cli::analyze::graph_lines_with_drops;
use crate::cli::{graph_lines, graph_text};

/// One game on a graph in progress.
#[derive(Debug)]
pub(crate) struct GraphSession<'g> {
    name: String,
    you: Side,
    opponent: Opponent,
    /// The network whose drops `drops` shows.
    model: Model,
    play: Play<'g>,
}

impl<'g> GraphSession<'g> {
    /// A new game on `graph` (read from the file `name`), Cut first.
    pub(crate) fn new(
        name: &str,
        graph: &'g Graph,
        you: Side,
        opponent: Opponent,
        model: Model,
    ) -> Self {
        GraphSession {
            name: name.to_string(),
            you,
            opponent,
            model,
            play: Play::new(graph, Side::Cut),
        }
    }

    pub(crate) fn play(&self) -> &Play<'g> {
        &self.play
    }

    fn name_of(&self, edge: usize) -> &str {
        &self.play.graph().edges()[edge].name
    }

    /// The machine's move, if it is the machine's turn.
    pub(crate) fn reply(&mut self) -> Result<Option<usize>> {
        let Some(side) = self.play.to_move().filter(|&s| s != self.you) else {
            return Ok(None);
        };
        // As on the cage: the heuristic, or the first winning move and once lost the
        // heuristic's move.
        let edge = self.opponent.reply_on_graph(&self.play)?;
        let Some(edge) = edge else {
            bail!("the machine has no move for {side} on this graph");
        };
        self.play
            .play(edge)
            .map_err(|e| anyhow!("the machine's move {}: {e}", self.name_of(edge)))?;
        Ok(Some(edge))
    }

    /// Plays the edge `edge` for the person.
    pub(crate) fn play_edge(&mut self, edge: usize) -> Result<usize> {
        if let Some(side) = self.play.to_move().filter(|&s| s != self.you) {
            bail!("it is {side}'s turn");
        }
        self.play.play(edge)?;
        Ok(edge)
    }

    /// Plays the edge the person names (exactly, or in another case if only one matches).
    pub(crate) fn play_name(&mut self, text: &str) -> Result<usize> {
        let graph = self.play.graph();
        let edge = graph
            .find_edge(text)
            .ok_or_else(|| GraphMoveError::Unknown(text.to_string()))?;
        self.play_edge(edge)
    }

    /// Who played move i of the game.
    fn side_of(&self, i: usize) -> Side {
        let first = self.play.first();
        if i.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        }
    }

    /// The machine's last move, if it has moved.
    pub(crate) fn last_machine_move(&self) -> Option<usize> {
        let moves = self.play.moves();
        (0..moves.len())
            .rev()
            .find(|&i| self.side_of(i) != self.you)
            .map(|i| moves[i])
    }

    /// Takes back moves until it is the person's turn again, one of theirs at least.
    pub(crate) fn take_back(&mut self) -> bool {
        let moves = self.play.moves().to_vec();
        let first = self.play.first();
        let Some(last_own) = (0..moves.len())
            .rev()
            .find(|&i| self.side_of(i) == self.you)
        else {
            return false;
        };
        let mut play = Play::new(self.play.graph(), first);
        for &edge in &moves[..last_own] {
            play.play(edge).expect("a prefix of a legal game is legal");
        }
        self.play = play;
        true
    }

    /// The edge the hint suggests, if any, and the hint's line (see [`super::hint`]).
    pub(crate) fn suggest(&self) -> (Option<usize>, String) {
        let rival = match self.opponent {
            Opponent::Heuristic(model) => Rival::Heuristic(model),
            Opponent::Perfect => Rival::Perfect,
        };
        let edges = self.play.graph().edges().len();
        super::hint(&self.play, edges, self.you, rival, |_, edge| {
            self.name_of(edge).to_string()
        })
    }

    /// The board as lines, `marker(i)` before edge i; with `drops`, each resistor's drop.
    pub(crate) fn lines(&self, marker: impl Fn(usize) -> &'static str, drops: bool) -> Vec<String> {
        if drops {
            graph_lines_with_drops(&self.play, self.model, marker)
        } else {
            graph_lines(&self.play, marker)
        }
    }
}

impl Game for GraphSession<'_> {
    fn header(&self) -> String {
        format!(
            "{} ({} edges): you play {} against {}. Cut moves first.",
            self.name,
            self.play.graph().edges().len(),
            self.you,
            self.opponent.describe()
        )
    }

    fn board(&self) -> String {
        graph_text(&self.play)
    }

    fn answer(&mut self) -> Result<Option<String>> {
        Ok(self.reply()?.map(|e| self.name_of(e).to_string()))
    }

    fn play_text(&mut self, text: &str) -> Result<String> {
        let edge = self.play_name(text)?;
        Ok(self.name_of(edge).to_string())
    }

    fn names_edge(&self, word: &str) -> bool {
        self.play.graph().find_edge(word).is_some()
    }

    fn hint(&self) -> String {
        self.suggest().1
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
        self.take_back()
    }

    fn record(&self) -> String {
        if self.play.moves().is_empty() {
            return "(none)".to_string();
        }
        self.play.record()
    }

    fn winner(&self) -> Option<Side> {
        self.play.winner()
    }

    fn you(&self) -> Side {
        self.you
    }
}
