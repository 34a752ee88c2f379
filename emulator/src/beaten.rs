//! How the project beats the machine on the cage: the start of each line `birdcage beat`
//! found against Shannon's heuristic (reading-order ties, Cut first) at every size from 3 to
//! 8, on both networks. The hint ([`crate::hint`]) tries these moves first: its search then
//! proves the strategy in a few hundred positions, where in board order its budget ends first
//! (M=8 on the reference network: `beat` searched 13,363 positions from the start).
//!
//! Each line is the machine's opening, two Short moves and the machine's third cut, a blunder
//! into a position Short wins with perfect play (README, "Results"). A test replays each
//! against the heuristic and the perfect verdict, and compares it with `beat`'s own line.

use heuristic::{Edge, Model, Move, Position, Side};

/// `birdcage beat --size M --network N`: the first five moves of its `Line:`.
pub const LINES: &[(u8, Model, &str)] = &[
    (3, Model::Ideal, "A5,c5,C3,a1,B4"),
    (3, Model::Reference, "A1,c1,C3,a5,B2"),
    (4, Model::Ideal, "A7,c7,C5,a3,B6"),
    (4, Model::Reference, "A1,c1,C3,a5,B2"),
    (5, Model::Ideal, "A9,c9,C7,a5,B8"),
    (5, Model::Reference, "A1,c1,C3,a5,B2"),
    (6, Model::Ideal, "A11,c11,C9,a7,B10"),
    (6, Model::Reference, "A1,c1,C3,a5,B2"),
    (7, Model::Ideal, "A13,c13,C11,a9,B12"),
    (7, Model::Reference, "A1,c1,C3,a5,B2"),
    (8, Model::Ideal, "A15,c15,C13,a11,B14"),
    (8, Model::Reference, "A1,c1,C3,a5,B2"),
];

/// The known line's next move from `position`, when the game so far is that line's start
/// (the machine measuring `model`, Cut first); `None` off the line or past its end.
pub fn next_move(position: &Position, model: Model) -> Option<Edge> {
    let size = position.size();
    let (_, _, line) = LINES
        .iter()
        .find(|&&(m, net, _)| m == size.get() && net == model)?;
    let moves: Vec<&str> = line.split(',').collect();
    let played = position.plies();
    let next = Move::parse(size, moves.get(played)?).ok()?;
    let start = Position::from_record(size, Side::Cut, &moves[..played].join(",")).ok()?;
    (start == *position && position.to_move() == Some(next.side)).then_some(next.edge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use heuristic::Size;

    #[test]
    fn on_the_line_it_names_the_next_move_and_off_it_nothing() {
        let size = Size::new(8).unwrap();
        let after = |record: &str| Position::from_record(size, Side::Cut, record).unwrap();
        let name = |edge: Option<Edge>| edge.map(|e| e.to_string());
        assert_eq!(
            name(next_move(&after("A1"), Model::Reference)).as_deref(),
            Some("C1")
        );
        assert_eq!(
            name(next_move(&after("A1,c1,C3"), Model::Reference)).as_deref(),
            Some("A5")
        );
        assert_eq!(next_move(&after("A1,c3"), Model::Reference), None);
        assert_eq!(next_move(&after("A1"), Model::Ideal), None);
        assert_eq!(next_move(&after("A1,c1,C3,a5,B2"), Model::Reference), None);
    }
}
