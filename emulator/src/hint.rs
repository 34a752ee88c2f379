//! The hint of a game against the machine, on the cage and on any graph, shared by
//! `birdcage play` and the web app: against the heuristic, a move of a strategy that beats
//! this very machine ([`crate::beat::plan_within`]); otherwise the verdict of perfect play
//! ([`switching::perfect`]) and its first winning move; from a lost position the best
//! defence ([`best_defence`]), so that the person's turn always gets a move.

use heuristic::{Model, Side};

use crate::beat::{Arena, Plan, Ties};

/// The hint search's budget, in positions times the square of the board's edges. Strategies
/// of any length are searched ([`crate::beat::plan_within`]: one depth deepening a move of
/// the person's at a time, one diving to eight moves at once) until the budget is spent: a
/// win against this machine is mostly a few moves deep, but not always within the three
/// moves of those `birdcage beat` found from the start (issue 63: after moves of one's own at
/// M=6 every hint fell back on perfect play). That is 63,155 positions at M=6 and 32,525 at
/// M=7, where a search that finds nothing ends in 1.2 s and 1.1 to 1.3 s on this 2-core
/// machine (`cargo bench -p emulator --bench hint`). The square, not the cube of the exact solve's
/// elimination: a position cost 24 µs at M=6 and 34 µs at M=7, and with the cube (at
/// 20e9, 88,113 positions at M=6) the wait at M=6 was twice that at M=7, 2.1 s against 1.1 s,
/// with the same wins found at M=6 (139 of 160 positions, `hint_reach`'s games).
const HINT_WORK: u64 = 235_000_000;

/// How many positions the hint's search may solve on a board of `edges` edges.
pub fn hint_limit(edges: usize) -> usize {
    let square = (edges as u64).pow(2).max(1);
    usize::try_from(HINT_WORK / square).unwrap_or(usize::MAX)
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

/// A hint: the move, one sentence a person reads at a glance, and the reasoning behind it
/// for whoever asks why (the terminal's `w`, the page's disclosure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint<M> {
    /// The move suggested; `None` only once the game is over or on the machine's turn.
    pub mv: Option<M>,
    /// `Hint: `, the move as the record writes it (or `none`), then what it achieves:
    /// `Hint: c7: it wins against this machine.`
    pub line: String,
    /// `Why: ` and the long reasoning: which search said what, and why this move.
    pub why: String,
}

impl<M> Hint<M> {
    fn none(reason: &str) -> Self {
        Hint {
            mv: None,
            line: format!("Hint: none, {reason}."),
            why: format!("Why: {reason}, so there is no move to suggest."),
        }
    }
}

/// What a suggested move achieves, in the few words of the hint's line.
const WINS_HERE: &str = "it wins against this machine";
const WINS_ALWAYS: &str = "it wins, even against perfect play";
const LOST_HERE: &str = "best try; the position is lost against this machine";
const NOT_FOUND: &str = "best try; no win against this machine was found";
const LOST_PERFECT: &str = "best try; the position is lost against perfect play";

/// The hint on the cage and on any graph: the move it suggests, its line and its reasons,
/// the move named by `name` as the record writes it. Only a finished game, or the
/// machine's turn, gets no move.
///
/// Against the heuristic, a move of a strategy that beats this very machine from here
/// ([`crate::beat::plan_within`], with its own tie rule, deepening until [`hint_limit`]),
/// when there is one: perfect play may say the machine wins, yet it blunders. Otherwise,
/// and against the perfect player or the firmware, perfect play's first winning move; when
/// the person has none, the move that keeps the most chances ([`best_defence`]), said to be
/// a best try, and whether the position is proven lost against this machine or no win was
/// found. The words hold no figure of the search's: a player cannot use one.
pub fn hint<B: Arena>(
    board: &B,
    edges: usize,
    you: Side,
    rival: Rival,
    name: impl Fn(Side, B::Move) -> String,
) -> Hint<B::Move> {
    let Some(side) = board.to_move() else {
        return Hint::none("the game is over");
    };
    if side != you {
        return Hint::none("it is the machine's turn");
    }
    let said = |mv: B::Move, what: &str, why: String| Hint {
        mv: Some(mv),
        line: format!("Hint: {}: {what}.", name(side, mv)),
        why: format!("Why: {why}."),
    };
    // "Starts" a strategy on the person's first move only: with the person to move, fewer
    // than two moves played means none of them was the person's.
    let first_move = board.plies() < 2;
    // Why the hint falls back on perfect play, if it does: said first.
    let fallback = match rival {
        Rival::Heuristic(model) => {
            let limit = hint_limit(edges);
            match crate::beat::plan_within(board, model, Ties::ReadingOrder, limit, u8::MAX) {
                Plan::Wins {
                    first,
                    perfect: false,
                } => {
                    let what = if first_move {
                        "starts a strategy that beats this machine whatever it does"
                    } else {
                        "is the next move of a strategy that beats this machine whatever it \
                         does from here"
                    };
                    let why = format!(
                        "{} {what}, though with perfect play the machine would win",
                        name(side, first)
                    );
                    return said(first, WINS_HERE, why);
                }
                // The machine has blundered: the perfect verdict says so.
                Plan::Wins { perfect: true, .. } => Fallback::None,
                Plan::Loses => Fallback::Proven,
                Plan::GaveUp { .. } | Plan::NotWithin { .. } => Fallback::NotFound,
            }
        }
        Rival::Perfect => Fallback::None,
        Rival::Firmware => Fallback::Firmware,
    };
    if let Some(mv) = switching::perfect::winning_move(board) {
        let named = name(side, mv);
        let why = match fallback {
            Fallback::Firmware => format!(
                "{FIRMWARE}; with perfect play you win, and {named} keeps the win, whatever \
                 the machine does"
            ),
            // A win against perfect play beats any machine: nothing to say first.
            _ => format!(
                "with perfect play you win, and {named} keeps the win, whatever the machine \
                 does"
            ),
        };
        return said(mv, WINS_ALWAYS, why);
    }
    let (what, why) = match fallback {
        Fallback::None => (
            LOST_PERFECT,
            "with perfect play the machine wins whatever you do".to_string(),
        ),
        Fallback::Proven => (
            LOST_HERE,
            "no move of yours wins, neither against perfect play nor against this machine \
             (the hint's search went through every strategy)"
                .to_string(),
        ),
        Fallback::NotFound => (
            NOT_FOUND,
            "no sure win against this machine was found within the hint's search, and with \
             perfect play it would win"
                .to_string(),
        ),
        Fallback::Firmware => (
            LOST_PERFECT,
            format!("{FIRMWARE}, and with perfect play it would win"),
        ),
    };
    let Some((best, chances)) = best_defence(board) else {
        // Unreachable with the game open (it has a resistor), but never a panic.
        return Hint {
            mv: None,
            line: "Hint: none.".to_string(),
            why: format!("Why: {why}."),
        };
    };
    if chances > 0 {
        let named = name(side, best);
        let why = format!(
            "{why}; {named} keeps the most chances: it leaves the machine the most replies \
             that lose against perfect play"
        );
        return said(best, what, why);
    }
    // Every reply wins for the machine whatever you play: perfect play ranks no move above
    // another. Against the heuristic, its own choice for your side (the largest drop, which
    // it measures anyway); otherwise the first resistor left.
    let nothing = "no move of yours leaves the machine a reply that loses against perfect play";
    let heuristic = match rival {
        Rival::Heuristic(model) => board
            .machine_moves(model, Ties::ReadingOrder)
            .first()
            .copied(),
        Rival::Perfect | Rival::Firmware => None,
    };
    match heuristic {
        Some(mv) => {
            let named = name(side, mv);
            let why = format!(
                "{why}; {nothing}, so {named} is only Shannon's heuristic's choice for your \
                 side, the largest drop"
            );
            said(mv, what, why)
        }
        None => {
            let named = name(side, best);
            let why =
                format!("{why}; {nothing}, so {named}, the first resistor left, is as good as any");
            said(best, what, why)
        }
    }
}

/// What the hint says first when it falls back on perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fallback {
    /// Nothing: perfect play's verdict is the whole answer (the perfect player, or a
    /// machine that has already blundered).
    None,
    /// The search proved that no strategy beats this machine.
    Proven,
    /// The search found no strategy within its bounds (budget or depth).
    NotFound,
    /// No search: the firmware's moves come from its readings.
    Firmware,
}

/// Why the hint does not search against the firmware.
const FIRMWARE: &str =
    "no strategy against the firmware is searched (its moves come from what its board reads)";

/// The move of the side to move that leaves the opponent the most replies that lose
/// against perfect play, and how many: from a lost position every move loses against
/// perfect play, so the best defence is the one that makes the opponent's win the
/// narrowest path (Lehman's verdict on each reply, [`switching::perfect::solve`], one
/// solve per move). Ties go to the first move in board order. `None` once the game is over.
pub fn best_defence<B: Arena>(board: &B) -> Option<(B::Move, usize)> {
    let you = board.to_move()?;
    let mut best: Option<(B::Move, usize)> = None;
    for mv in board.open() {
        let after = board.after(mv);
        let chances = match after.winner() {
            Some(w) if w == you => usize::MAX,
            Some(_) => 0,
            None => {
                let winning = switching::perfect::solve(&after).winning_moves.len();
                after.open().len().saturating_sub(winning)
            }
        };
        if best.is_none_or(|(_, most)| chances > most) {
            best = Some((mv, chances));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use heuristic::{Move, Position, Size};
    use rand::SeedableRng;

    /// The opponent's replies to `mv` after which the person wins against perfect play,
    /// counted one reply at a time with the winner alone (not the winning-move lists
    /// [`best_defence`] reads).
    fn losing_replies(position: &Position, mv: heuristic::Edge) -> usize {
        let you = position.to_move().unwrap();
        let after = position.after(mv);
        if after.winner().is_some() {
            return usize::from(after.winner() == Some(you)) * usize::MAX;
        }
        after
            .open()
            .into_iter()
            .filter(|&e| switching::perfect::winner(&after.after(e)) == you)
            .count()
    }

    #[test]
    fn the_best_defence_leaves_the_opponent_the_most_losing_replies() {
        // Random positions lost for the side to move, either side, M=3 and M=4.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(52);
        let mut lost = 0;
        for m in [3, 4] {
            let size = Size::new(m).unwrap();
            for plies in 1..=8 {
                for _ in 0..6 {
                    let p = crate::games::random_position(&mut rng, size, Side::Cut, plies);
                    if p.winner().is_some() || switching::perfect::winning_move(&p).is_some() {
                        continue;
                    }
                    lost += 1;
                    let (mv, chances) = best_defence(&p).unwrap();
                    let counts: Vec<usize> = p
                        .open()
                        .into_iter()
                        .map(|f| losing_replies(&p, f))
                        .collect();
                    let most = *counts.iter().max().unwrap();
                    assert_eq!(chances, most, "{p:?}");
                    assert_eq!(losing_replies(&p, mv), most, "{p:?} {mv}");
                    // Ties to the first in board order.
                    let first = counts.iter().position(|&c| c == most).unwrap();
                    assert_eq!(mv, p.open()[first], "{p:?}");
                }
            }
        }
        assert!(lost >= 20, "only {lost} lost positions drawn");
    }

    fn cage_hint(size: u32, record: &str, rival: Rival) -> (Option<heuristic::Edge>, String) {
        let size = Size::new(size).unwrap();
        let p = Position::from_record(size, Side::Cut, record).unwrap();
        let hint = hint(&p, size.edge_count(), Side::Short, rival, |side, edge| {
            Move { side, edge }.to_string()
        });
        (hint.mv, format!("{} {}", hint.line, hint.why))
    }

    /// Issue 63, item 5: at M=6 after `A11,h10,C11,c9,E11` the machine can be beaten (four
    /// moves of the person's before it blunders), yet the hint's search spent its budget on
    /// the moves it tried first and fell back on a best try. It finds the win now; that the
    /// move wins is checked by playing it out against the machine: the machine's own moves,
    /// the hint's while it names a strategy, perfect play once the machine has blundered, and
    /// the game's rules say who won.
    #[test]
    fn at_m6_after_h10_c9_the_hint_finds_the_win_against_this_machine() {
        plays_the_hints_to_a_win(6, "A11,h10,C11,c9,E11");
    }

    /// Issue 63, item 5: at M=7 after `A13,k1,K3,d4,M3,a5,I3` the machine can be beaten
    /// with five moves of the person's, yet ruling out a strategy of four took the hint's
    /// whole budget, and it fell back on a best try. Played out as at M=6.
    #[test]
    fn at_m7_after_k1_d4_a5_the_hint_finds_the_win_against_this_machine() {
        plays_the_hints_to_a_win(7, "A13,k1,K3,d4,M3,a5,I3");
    }

    /// Issue 63, item 5: at M=7 after `A13,l12,C13,e11,E13,m11,G13` a win five moves deep
    /// (`i13`) was found only with ten times the hint's budget: deepening a move at a time
    /// spent 217,388 positions on strategies of up to four moves. The dive to eight moves
    /// finds it within a few hundred.
    #[test]
    fn at_m7_after_l12_e11_m11_the_hint_finds_the_win_against_this_machine() {
        plays_the_hints_to_a_win(7, "A13,l12,C13,e11,E13,m11,G13");
    }

    /// A "no" one depth of the search stored, read by another, proves no loss (it may rest
    /// on branches cut for want of the first depth's budget). Where they were read as
    /// proofs, the hint called these positions lost against this machine; each is won.
    #[test]
    fn a_no_within_a_budget_read_by_another_depth_proves_no_loss() {
        for record in [
            "A11,e9,E11,c5,C11,i9,G11,f8,I11",
            "A11,g9,G11,a7,C11,a3,E11,f10,I11",
        ] {
            plays_the_hints_to_a_win(6, record);
        }
    }

    /// Asserts that the hint at the M cage after `record` (the person to move) says it
    /// wins, then plays it out: every later hint must say so too, and the person wins.
    fn plays_the_hints_to_a_win(m: u32, record: &str) {
        let rival = Rival::Heuristic(Model::Ideal);
        let (first, said) = cage_hint(m, record, rival);
        assert!(
            said.starts_with(&format!("Hint: {}: {WINS_HERE}.", short(first))),
            "{said}"
        );
        let size = Size::new(m).unwrap();
        let mut p = Position::from_record(size, Side::Cut, record).unwrap();
        assert_eq!(
            switching::perfect::winner(&p),
            Side::Cut,
            "lost against perfect play"
        );
        let mut game = vec![record.to_string()];
        let mut mv = first;
        while p.winner().is_none() {
            let edge = match p.to_move() {
                Some(Side::Cut) => crate::players::heuristic_move(&p, Model::Ideal),
                _ if switching::perfect::winner(&p) == Side::Short => {
                    crate::players::perfect_move(&p)
                }
                _ => mv.take(),
            }
            .unwrap_or_else(|| panic!("no winning move after {}", game.join(",")));
            game.push(
                Move {
                    side: p.to_move().unwrap(),
                    edge,
                }
                .to_string(),
            );
            p = p.after(edge);
            if p.to_move() == Some(Side::Short) && switching::perfect::winner(&p) != Side::Short {
                let (next, said) = cage_hint(m, &game.join(","), rival);
                assert!(said.contains(WINS_HERE), "{}: {said}", game.join(","));
                mv = next;
            }
        }
        assert_eq!(p.winner(), Some(Side::Short), "{}", game.join(","));
    }

    fn short(edge: Option<heuristic::Edge>) -> String {
        let edge = edge.expect("a move");
        Move {
            side: Side::Short,
            edge,
        }
        .to_string()
    }

    #[test]
    fn a_lost_position_still_gets_a_resistor_and_no_figure() {
        // M=4 after A7,c5,C7: the person has left the strategy that beats the machine
        // (c7) and perfect play's win is long gone. Every rival still gets a move.
        let size = Size::new(4).unwrap();
        let p = Position::from_record(size, Side::Cut, "A7,c5,C7").unwrap();
        assert_eq!(switching::perfect::winning_move(&p), None);
        for rival in [
            Rival::Heuristic(Model::Ideal),
            Rival::Heuristic(Model::Reference),
            Rival::Perfect,
            Rival::Firmware,
        ] {
            let (mv, line) = cage_hint(4, "A7,c5,C7", rival);
            let mv = mv.unwrap_or_else(|| panic!("{rival:?}: {line}"));
            assert!(p.resistors().any(|e| e == mv), "{rival:?}: {line}");
            let named = Move {
                side: Side::Short,
                edge: mv,
            }
            .to_string();
            assert!(line.starts_with(&format!("Hint: {named}: ")), "{line}");
            assert!(
                !line
                    .replace(&named, "")
                    .contains(|c: char| c.is_ascii_digit()),
                "{rival:?}: {line}"
            );
        }
    }
}
