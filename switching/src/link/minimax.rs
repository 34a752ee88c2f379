//! Plain minimax for the vertex game: every order of every move to the end of the game, no
//! memo, no early end, no pruning. Exponential (k! lines for k play vertices), and so simple
//! that it serves as the reference the [`solve`](super::solve) solver is checked against.

use super::{Link, Set};

/// The most play vertices [`short_wins`] takes: 10! = 3,628,800 lines at most, a few seconds,
/// the play area of a link on 12 vertices (`examples/links_check.rs` checks N = 12's by it).
pub const MAX_PLAY: usize = 10;

/// Whether Short wins moving first (`true`) or second, by playing every game to its end:
/// Short wins when, all vertices claimed, his vertices join the terminals.
///
/// # Panics
/// With more than [`MAX_PLAY`] play vertices.
pub fn short_wins(link: &Link, short_first: bool) -> bool {
    short_wins_after(link, 0, 0, short_first)
}

/// Whether Short wins once he holds `short` and Cut holds `cut`, with Short to move when
/// `short_to_move`.
///
/// # Panics
/// With more than [`MAX_PLAY`] free play vertices.
pub fn short_wins_after(link: &Link, short: Set, cut: Set, short_to_move: bool) -> bool {
    let free = link.play_area() & !short & !cut;
    assert!(
        free.count_ones() as usize <= MAX_PLAY,
        "plain minimax stops at {MAX_PLAY} play vertices"
    );
    play(link, short, free, short_to_move)
}

fn play(link: &Link, short: Set, free: Set, short_to_move: bool) -> bool {
    if free == 0 {
        return link.joined(short);
    }
    let mut rest = free;
    while rest != 0 {
        let v = rest.trailing_zeros();
        rest &= rest - 1;
        let next_free = free & !(1 << v);
        let short_won = if short_to_move {
            play(link, short | 1 << v, next_free, false)
        } else {
            play(link, short, next_free, true)
        };
        if short_won == short_to_move {
            return short_to_move;
        }
    }
    !short_to_move
}
