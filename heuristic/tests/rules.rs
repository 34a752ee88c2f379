//! Rules: legal moves, typed errors, winner detection on hand-made games.

use heuristic::{Edge, EdgeState, Move, MoveError, PlayError, Position, Side, Size};

fn m(size: u32) -> Size {
    Size::new(size).unwrap()
}

#[test]
fn short_wins_with_a_column_of_wires() {
    // Short shorts A5, A3, A1 while Cut plays elsewhere.
    let p = Position::from_record(m(3), Side::Cut, "E5,a5,E3,a3,D2,a1").unwrap();
    assert_eq!(p.winner(), Some(Side::Short));
    assert_eq!(p.to_move(), None);
    // A zig-zag path through horizontal wires also counts.
    let p = Position::from_record(m(3), Side::Cut, "A3,a5,E5,b4,A1,c3,E1,c1").unwrap();
    assert_eq!(p.winner(), Some(Side::Short));
}

#[test]
fn cut_wins_when_a_row_is_gone() {
    let p = Position::from_record(m(2), Side::Cut, "A1,b2,C1").unwrap();
    assert_eq!(p.winner(), Some(Side::Cut));
    // Not yet after one of the two.
    let p = Position::from_record(m(2), Side::Cut, "A1,b2").unwrap();
    assert_eq!(p.winner(), None);
    assert_eq!(p.to_move(), Some(Side::Cut));
    // M=3: cutting the top row wins even with shorts below.
    let p = Position::from_record(m(3), Side::Cut, "A5,a1,C5,c1,E5").unwrap();
    assert_eq!(p.winner(), Some(Side::Cut));
}

#[test]
fn a_stair_cut_separates_the_terminals() {
    // With A1, B2, C3 and E3 cut, row 4 only reaches A2, a dead end.
    let p = Position::from_record(m(3), Side::Cut, "A1,a5,B2,c5,C3,b4").unwrap();
    assert_eq!(p.winner(), None);
    let p = Position::from_record(m(3), Side::Cut, "A1,a5,B2,c5,C3,b4,E3").unwrap();
    assert_eq!(p.winner(), Some(Side::Cut));
}

#[test]
fn errors_name_what_is_wrong_and_leave_the_position_alone() {
    let size = m(3);
    let mut p = Position::from_record(size, Side::Cut, "A5").unwrap();
    let before = p.clone();
    let a5 = Edge::parse(size, "A5").unwrap();
    let c3 = Edge::parse(size, "C3").unwrap();
    let err = p
        .play(Move {
            side: Side::Short,
            edge: a5,
        })
        .unwrap_err();
    assert_eq!(
        err,
        MoveError::AlreadyPlayed {
            side: Side::Short,
            edge: a5,
            state: EdgeState::Cut
        }
    );
    // Short's move is named in lower case, as the record writes it (issue 52 item 2).
    assert_eq!(err.to_string(), "a5 was already cut");
    let err = p
        .play(Move {
            side: Side::Cut,
            edge: c3,
        })
        .unwrap_err();
    assert_eq!(err.to_string(), "it is Short's turn, not Cut's");
    assert_eq!(p, before);

    let err = Position::from_record(size, Side::Cut, "A5,a5").unwrap_err();
    assert_eq!(err.number, 2);
    assert_eq!(err.to_string(), "move 2: a5 was already cut");
    let err = Position::from_record(size, Side::Cut, "A5,c5,C5").unwrap_err();
    assert_eq!(err.to_string(), "move 3: C5 was already shorted");
    let err = Position::from_record(size, Side::Cut, "A5,z9").unwrap_err();
    assert!(matches!(err.error, PlayError::Notation(_)));
    assert_eq!(
        err.to_string(),
        "move 2: z9 is off the M=3 board (columns A..E, rows 1..5)"
    );
    let err = Position::from_record(size, Side::Cut, "A5,,c3").unwrap_err();
    assert_eq!(err.number, 2);

    let err = Position::from_record(m(2), Side::Cut, "A1,b2,C1,a3").unwrap_err();
    assert_eq!(err.to_string(), "move 4: the game is over: Cut has won");
}

#[test]
fn short_may_open() {
    let p = Position::from_record(m(3), Side::Short, "c5,A5").unwrap();
    assert_eq!(p.to_move(), Some(Side::Short));
    assert!(Position::from_record(m(3), Side::Short, "C5").is_err());
    assert_eq!(p.plies(), 2);
    assert_eq!(p.resistors().count(), 11);
}
