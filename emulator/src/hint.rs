//! The hint of a game against the machine, on the cage and on any graph, shared by
//! `birdcage play` and the web app: against the heuristic, a move of a strategy that beats
//! this very machine ([`crate::beat::plan`]) where the board is small enough; otherwise the
//! verdict of perfect play ([`switching::perfect`]) and its first winning move.

use heuristic::{Model, Side};

use crate::beat::{Arena, Plan, Ties};

/// The largest board (in edges) on which the hint searches for a strategy against the
/// heuristic: the M=5 cage. Larger boards take seconds per hint on the reference network
/// (each position an exact solve in big integers), so they get perfect play's hint.
pub const HINT_EDGES: usize = 41;

/// The hint search's budget, in positions times the square of the board's edges (about
/// what solving them costs): 224,000 positions at M=4, never reached there (a test checks
/// random positions), 83,283 at M=5, under a second here.
const HINT_WORK: usize = 140_000_000;

/// How many positions the hint's search may solve on a board of `edges` edges, if it
/// searches at all.
pub fn hint_limit(edges: usize) -> Option<usize> {
    (edges <= HINT_EDGES).then(|| HINT_WORK / (edges * edges).max(1))
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
/// ([`crate::beat::plan`], with its own tie rule), when there is one: perfect play may
/// say the machine wins, yet it blunders. Otherwise, and against the perfect player or the
/// firmware, the verdict of perfect play and its first winning move; when the hint falls
/// back to it against a machine that is not perfect, the line says first why (the search
/// was not run, or gave up), so the verdict is not read as one on this machine.
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
    // Why the hint falls back to perfect play's verdict, if it does: said first, so that
    // the verdict is not read as one on this machine.
    let fallback = match rival {
        Rival::Heuristic(_) if hint_limit(edges).is_none() => Some(format!(
            "no strategy against this machine was searched (the board has {edges} edges; \
             past {HINT_EDGES} the search would take too long)"
        )),
        Rival::Heuristic(model) => {
            let limit = hint_limit(edges).unwrap_or(0);
            match crate::beat::plan(board, model, Ties::ReadingOrder, limit) {
                Plan::Wins {
                    first,
                    perfect: false,
                } => {
                    let line = format!(
                        "Hint: {}: it starts a strategy that beats this machine whatever it \
                         does, though with perfect play the machine would win.",
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
