//! Who picks a side's next move: the heuristic (Shannon's machine) and the perfect
//! players built on [`switching::perfect`].

use heuristic::{Edge, Model, Position};

use crate::exact;
use crate::margin::FLOAT_MARGIN;

/// The heuristic's move when the float solve leaves no doubt: one largest drop, clear of
/// the runner-up by [`FLOAT_MARGIN`]. Otherwise (near or exact ties) `None`: only the
/// exact solve can tell. Exact solves of the `reference` network need big integers from
/// M=5 on, so this saves the search most of its time.
fn clear_choice(position: &Position, model: Model) -> Option<Edge> {
    let circuit = model.circuit::<f64>(position.size());
    let voltages = heuristic::solve(position, &circuit).ok()?;
    let ranking = heuristic::rank(position, voltages.values()).ok()??;
    let clear = ranking.tied.len() == 1
        && ranking
            .runner_up
            .is_none_or(|r| ranking.best - r > FLOAT_MARGIN);
    clear.then_some(ranking.choice)
}

/// The heuristic's move for the side to move: the resistor with the largest exact drop,
/// ties to the first in reading order. Shannon's machine plays it as Cut; as Short it
/// shorts that resistor, the same measurement read the other way.
pub fn heuristic_move(position: &Position, model: Model) -> Option<Edge> {
    position.to_move()?;
    clear_choice(position, model)
        .or_else(|| exact::solve_model(position, model).rank().map(|r| r.choice))
}

/// Every move the heuristic might make when exact ties are broken either way: the
/// resistors tied at the largest drop, in reading order.
pub fn heuristic_moves(position: &Position, model: Model) -> Vec<Edge> {
    if position.to_move().is_none() {
        return Vec::new();
    }
    if let Some(edge) = clear_choice(position, model) {
        return vec![edge];
    }
    exact::solve_model(position, model)
        .rank()
        .map(|r| r.tied.into_iter().collect())
        .unwrap_or_default()
}

/// The perfect player's move for the side to move: its first winning move in reading
/// order. From a lost position every move loses against perfect play; it then plays the
/// first resistor in reading order, so that its games stay reproducible.
pub fn perfect_move(position: &Position) -> Option<Edge> {
    switching::perfect::winning_move(position).or_else(|| position.resistors().next())
}

/// A machine that answers from the position alone. (`birdcage play` also offers the
/// firmware on an emulated board, which needs the game's moves: see
/// [`crate::emulated::firmware_reply`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Shannon's largest-drop heuristic over the exact drops of a network model.
    Heuristic(Model),
    /// The Lehman solver's first winning move; once lost (the person has a winning
    /// strategy), the heuristic's move on the ideal network, so the person must still
    /// find the win.
    Perfect,
}

impl Opponent {
    /// The opponent's move for the side to move, `None` once the game is over.
    pub fn reply(&self, position: &Position) -> Option<Edge> {
        match *self {
            Opponent::Heuristic(model) => heuristic_move(position, model),
            Opponent::Perfect => switching::perfect::winning_move(position)
                .or_else(|| heuristic_move(position, Model::Ideal)),
        }
    }

    /// The opponent's move on a graph (an edge index) for the side to move, `None` once
    /// the game is over: the heuristic's largest drop (ties in file order), or the perfect
    /// player's first winning move and, once lost, the heuristic's move on the ideal network.
    /// A graph past the solver's limits is an error, not a panic ([`crate::graphs::check`]).
    pub fn reply_on_graph(
        &self,
        play: &switching::Play,
    ) -> Result<Option<usize>, crate::graphs::GraphSizeError> {
        if play.to_move().is_none() {
            return Ok(None);
        }
        let heuristic =
            |model| crate::graphs::try_heuristic_moves(play, model).map(|t| t.first().copied());
        Ok(match *self {
            Opponent::Heuristic(model) => heuristic(model)?,
            Opponent::Perfect => match switching::perfect::winning_move(play) {
                Some(edge) => Some(edge),
                None => heuristic(Model::Ideal)?.or_else(|| play.resistors().next()),
            },
        })
    }

    /// How the opponent is named to the player.
    pub fn describe(&self) -> String {
        match self {
            Opponent::Heuristic(model) => format!("Shannon's heuristic ({model} network)"),
            Opponent::Perfect => "the perfect player".to_string(),
        }
    }
}
