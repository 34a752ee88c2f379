//! The hint of a game against the machine, on the cage and on any graph, shared by
//! `birdcage play` and the web app: against the heuristic, a move of a strategy that beats
//! this very machine ([`crate::beat::plan_within`]); otherwise the verdict of perfect play
//! ([`switching::perfect`]) and its first winning move.

use heuristic::{Model, Side};

use crate::beat::{Arena, Plan, Ties};

/// The largest board (in edges) on which the hint searches strategies of any length: the
/// M=5 cage. Larger boards take seconds per deep search on the reference network (each
/// position an exact solve in big integers), so there the hint looks only for strategies
/// of [`HINT_SHORT`] moves, the length of those that beat the cage's machine at every
/// size from 3 to 8 (whose moves it tries first, [`crate::beaten`]).
pub const HINT_EDGES: usize = 41;

/// How many moves of the person's a strategy may take on a board larger than
/// [`HINT_EDGES`], the position after the machine's blunder counted: what `birdcage beat`
/// found at every size from 3 to 8 (README, "Results": two Short moves make the machine's
/// third cut a blunder, from where the perfect player wins).
pub const HINT_SHORT: u8 = 3;

/// The hint search's budget, in positions times the square of the board's edges (about
/// what solving them costs): 224,000 positions at M=4, never reached there (a test checks
/// random positions), 83,283 at M=5, under a second here.
const HINT_WORK: usize = 140_000_000;

/// How many positions the hint's search may solve on a board of `edges` edges, and how
/// many moves of the person's its strategies may take (`u8::MAX`: any number).
pub fn hint_limit(edges: usize) -> (usize, u8) {
    let positions = HINT_WORK / (edges * edges).max(1);
    if edges <= HINT_EDGES {
        (positions, u8::MAX)
    } else {
        (positions, HINT_SHORT)
    }
}

/// What the hint knows of the machine in front of the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rival {
    /// Shannon's heuristic on this network, ties in reading (or file) order: the hint
    /// searches for a strategy that beats it.
    Heuristic(Model),
    /// The perfect player: only perfect play wins.
    Perfect,
    /// The firmware, whose moves come from its board's readings, not the exact drops:
    /// the hint assumes perfect play.
    Firmware,
}

/// The hint on the cage and on any graph: the move it suggests, if any, and one line:
/// `Hint: ` and the move (named by `name`, as the record writes it) or `none`, then why.
///
/// Against the heuristic, a move of a strategy that beats this very machine from here
/// ([`crate::beat::plan_within`], with its own tie rule), when there is one: perfect play may
/// say the machine wins, yet it blunders. Otherwise, and against the perfect player or the
/// firmware, the verdict of perfect play and its first winning move; when the hint falls
/// back to it against a machine that is not perfect, the line says first why (the search
/// gave up, or found no strategy as short as it looks for), so the verdict is not read as
/// one on this machine.
pub fn hint<B: Arena>(
    board: &B,
    edges: usize,
    you: Side,
    rival: Rival,
    name: impl Fn(Side, B::Move) -> String,
) -> (Option<B::Move>, String) {
    let Some(side) = board.to_move() else {
        return (None, "Hint: none, the game is over.".to_string());
    };
    if side != you {
        return (None, "Hint: none, it is the machine's turn.".to_string());
    }
    // "Starts" a strategy on the person's first move only: with the person to move, fewer
    // than two moves played means none of them was the person's.
    let first_move = board.plies() < 2;
    // Why the hint falls back to perfect play's verdict, if it does: said first, so that
    // the verdict is not read as one on this machine.
    let fallback = match rival {
        Rival::Heuristic(model) => {
            let (limit, moves) = hint_limit(edges);
            match crate::beat::plan_within(board, model, Ties::ReadingOrder, limit, moves) {
                Plan::Wins {
                    first,
                    perfect: false,
                } => {
                    let what = if first_move {
                        "it starts a strategy that beats this machine whatever it does"
                    } else {
                        "it is the next move of a strategy that beats this machine whatever \
                         it does from here"
                    };
                    let line = format!(
                        "Hint: {}: {what}, though with perfect play the machine would win.",
                        name(side, first)
                    );
                    return (Some(first), line);
                }
                Plan::Loses => {
                    let line = "Hint: none: no move of yours wins, neither against perfect \
                                play nor against this machine.";
                    return (None, line.to_string());
                }
                // The machine has blundered: the perfect verdict says so.
                Plan::Wins { perfect: true, .. } => None,
                Plan::GaveUp { visited } => Some(format!(
                    "the search for a strategy against this machine stopped after {visited} \
                     positions, without an answer"
                )),
                Plan::NotWithin { moves } => Some(format!(
                    "no strategy against this machine was found that makes it blunder within \
                     {} moves of yours (on a board of {edges} edges the search goes no \
                     deeper)",
                    moves.saturating_sub(1)
                )),
            }
        }
        Rival::Perfect => None,
        Rival::Firmware => Some(
            "no strategy against the firmware is searched (its moves come from what its \
             board reads)"
                .to_string(),
        ),
    };
    let first = switching::perfect::winning_move(board);
    let line = match (first, fallback) {
        (Some(mv), None) => format!(
            "Hint: {}: with perfect play you win, and this move keeps the win.",
            name(side, mv)
        ),
        (None, None) => "Hint: none: with perfect play the machine wins; no move of yours \
                         wins against it."
            .to_string(),
        (Some(mv), Some(why)) => format!(
            "Hint: {}: {why}. With perfect play you win, and this move keeps the win.",
            name(side, mv)
        ),
        (None, Some(why)) => format!(
            "Hint: none: {why}. With perfect play the machine would win, but this machine \
             need not play perfectly."
        ),
    };
    (first, line)
}
