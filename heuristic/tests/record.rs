//! Game records: the notation both ways, syntax errors apart from rule errors.

use heuristic::{
    Edge, Move, MoveError, NotationError, ParseRecordError, PlayError, Position, Record,
    RecordFull, Side, Size,
};
use proptest::prelude::*;

fn parse(text: &str) -> Result<Record, ParseRecordError> {
    text.parse()
}

#[test]
fn text_reads_into_moves_in_order() {
    let record = parse(" A5 , c5,C3,a1").unwrap();
    assert_eq!(record.first(), Side::Cut);
    let moves: Vec<(Side, u8, u8)> = record
        .moves()
        .iter()
        .map(|m| (m.side, m.edge.x(), m.edge.y()))
        .collect();
    assert_eq!(
        moves,
        [
            (Side::Cut, 1, 5),
            (Side::Short, 3, 5),
            (Side::Cut, 3, 3),
            (Side::Short, 1, 1)
        ]
    );
    assert_eq!(record.to_string(), "A5,c5,C3,a1");
}

#[test]
fn no_moves_is_the_empty_string_and_cut_opens() {
    for text in ["", "  "] {
        let record = parse(text).unwrap();
        assert!(record.is_empty());
        assert_eq!(record.first(), Side::Cut);
        assert_eq!(record.to_string(), "");
    }
    assert_eq!(Record::new(Side::Short).to_string(), "");
}

#[test]
fn the_first_move_names_the_opener() {
    let record = parse("c5,A5").unwrap();
    assert_eq!(record.first(), Side::Short);
    let p = record.replay(Size::M3).unwrap();
    assert_eq!(
        p,
        Position::from_record(Size::M3, Side::Short, "c5,A5").unwrap()
    );
}

#[test]
fn syntax_errors_name_the_move_and_the_text() {
    let cases = [
        (
            "A5,5A",
            "move 2: `5A` is not an edge name (expected a column letter and a row number, like C3)",
        ),
        (
            "A5,,c3",
            "move 2: `` is not an edge name (expected a column letter and a row number, like C3)",
        ),
        (
            "b3",
            "move 1: b3 is not an edge (column and row must both be odd or both even)",
        ),
        (
            "A5,c5,Z9",
            "move 3: Z9 is off the M=8 board (columns A..O, rows 1..15)",
        ),
    ];
    for (text, message) in cases {
        let err = parse(text).unwrap_err();
        assert_eq!(err.to_string(), message, "{text}");
        assert!(matches!(err, ParseRecordError::Notation { .. }), "{text}");
    }
}

#[test]
fn a_record_longer_than_any_game_is_refused_at_the_first_move_too_many() {
    // Every edge of M=8 plays once in 113 moves; one more cannot be stored.
    let edges: Vec<String> = Size::MAX.edges().map(|e| e.to_string()).collect();
    let mut text = edges.join(",");
    assert!(parse(&text).is_ok());
    text.push_str(",A1");
    let err = parse(&text).unwrap_err();
    assert_eq!(err, ParseRecordError::TooLong { number: 114 });
    assert_eq!(
        err.to_string(),
        "move 114: a record holds at most 113 moves (every edge of the largest board)"
    );
}

#[test]
fn rule_errors_come_from_replay_with_the_move_number() {
    let cases = [
        ("A5,a5", "move 2: a5 was already cut"),
        ("A5,c5,C5", "move 3: C5 was already shorted"),
        ("A5,C3", "move 2: it is Short's turn, not Cut's"),
        ("A1,b2,C1,a3", "move 4: the game is over: Cut has won"),
    ];
    for (text, message) in cases {
        let size = if text.starts_with("A1,b2") {
            Size::MIN
        } else {
            Size::M3
        };
        let record = parse(text).unwrap();
        let err = record.replay(size).unwrap_err();
        assert_eq!(err.to_string(), message, "{text}");
        assert!(matches!(err.error, PlayError::Move(_)), "{text}");
    }
}

#[test]
fn an_edge_of_a_larger_board_is_off_this_one_on_replay() {
    let record = parse("A5,c5,G7").unwrap();
    assert!(record.replay(Size::M4).is_ok());
    let err = record.replay(Size::M3).unwrap_err();
    assert_eq!(err.number, 3);
    assert!(matches!(
        err.error,
        PlayError::Notation(NotationError::OffBoard { .. })
    ));
    assert_eq!(
        err.to_string(),
        "move 3: G7 is off the M=3 board (columns A..E, rows 1..5)"
    );
}

#[test]
fn read_names_the_board_and_stops_at_the_first_bad_move() {
    let err = Record::read(Size::M3, Side::Cut, "A5,z9").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 2: z9 is off the M=3 board (columns A..E, rows 1..5)"
    );
    // A rule error before a syntax error is the one reported.
    let err = Record::read(Size::M3, Side::Cut, "A5,a5,5A").unwrap_err();
    assert_eq!(err.to_string(), "move 2: a5 was already cut");
    // The opener is the caller's: a record that starts with the other side's move is wrong.
    let err = Record::read(Size::M3, Side::Short, "A5").unwrap_err();
    assert_eq!(
        err.error,
        PlayError::Move(MoveError::WrongSide {
            expected: Side::Short,
            got: Side::Cut
        })
    );
    let record = Record::read(Size::M3, Side::Short, "").unwrap();
    assert_eq!(record.first(), Side::Short);
}

#[test]
fn pushed_moves_print_as_a_record_and_a_full_record_refuses_more() {
    let a5 = Edge::new(Size::M3, 1, 5).unwrap();
    let c5 = Edge::new(Size::M3, 3, 5).unwrap();
    let mut record = Record::new(Side::Cut);
    record
        .push(Move {
            side: Side::Cut,
            edge: a5,
        })
        .unwrap();
    record
        .push(Move {
            side: Side::Short,
            edge: c5,
        })
        .unwrap();
    assert_eq!(record.to_string(), "A5,c5");
    assert_eq!(
        Record::from_moves(Side::Cut, record.moves()).unwrap(),
        record
    );
    record.truncate(1);
    assert_eq!(record.to_string(), "A5");

    let mut full = Record::new(Side::Cut);
    let mv = Move {
        side: Side::Cut,
        edge: a5,
    };
    for _ in 0..113 {
        full.push(mv).unwrap();
    }
    assert_eq!(full.push(mv), Err(RecordFull));
    assert_eq!(Record::from_moves(Side::Cut, &[mv; 114]), Err(RecordFull));
}

/// A random legal game: a size, an opener and picks (pick k plays the k-th resistor left).
fn game() -> impl Strategy<Value = (Size, Side, Vec<usize>)> {
    (
        prop::sample::select(Size::ALL.to_vec()),
        prop::bool::ANY.prop_map(|cut| if cut { Side::Cut } else { Side::Short }),
        prop::collection::vec(any::<usize>(), 0..120),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_round_trip((size, first, picks) in game()) {
        let mut position = Position::new(size, first);
        let mut record = Record::new(first);
        for k in picks {
            let Some(side) = position.to_move() else { break };
            let left: Vec<Edge> = position.resistors().collect();
            let mv = Move { side, edge: left[k % left.len()] };
            position.play(mv).unwrap();
            record.push(mv).unwrap();
        }
        let text = record.to_string();
        let again: Record = text.parse().unwrap();
        // The text names the opener through its first move; with none it reads as Cut's.
        if record.is_empty() {
            prop_assert_eq!(again, Record::new(Side::Cut));
        } else {
            prop_assert_eq!(&again, &record);
        }
        prop_assert_eq!(record.replay(size).unwrap(), position.clone());
        prop_assert_eq!(Record::read(size, first, &text).unwrap(), record);
        prop_assert_eq!(Position::from_record(size, first, &text).unwrap(), position);
    }

    #[test]
    fn garbage_reads_as_an_error_not_a_panic(text in ".{0,60}") {
        if let Ok(record) = text.parse::<Record>() {
            // Whatever reads prints back to text that reads the same.
            prop_assert_eq!(record.to_string().parse::<Record>().unwrap(), record);
        }
    }
}
