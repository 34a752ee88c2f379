//! The session against the machine: expected moves come from the players and the solver
//! called directly on positions built here, never from the session itself.

use heuristic::{Edge, EdgeState, Model, MoveError, Position, Side, Size};
use switching::{Graph, GraphMoveError};

use super::*;
use crate::players::{Opponent, heuristic_move};

fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

fn against(m: u32, you: Side, opponent: Opponent) -> Session<CageGame> {
    Session::new(CageGame::new(size(m)), you, Machine::Player(opponent))
}

/// The position after `edges`, played for the side to move from Cut's opening.
fn position_after(m: u32, edges: &[Edge]) -> Position {
    let mut p = Position::new(size(m), Side::Cut);
    for &e in edges {
        p.play_edge(e).unwrap();
    }
    p
}

#[test]
fn the_machine_answers_with_the_heuristics_move_and_undo_goes_back_to_the_persons_turn() {
    let mut s = against(4, Side::Short, Opponent::Heuristic(Model::Ideal));
    // Cut opens: the machine moves first, with the heuristic's move on the empty cage.
    let first = s.reply().unwrap().unwrap();
    assert_eq!(
        Some(first),
        heuristic_move(&position_after(4, &[]), Model::Ideal)
    );
    assert!(s.your_turn());
    // Its reply is not undone on its own: nothing of the person's to take back.
    assert!(!s.undo());
    assert_eq!(s.game().moves(), vec![first]);
    // The person's move and the machine's answer go back together.
    let mine = position_after(4, &[first]).resistors().next().unwrap();
    assert_eq!(s.play(mine).unwrap(), mine);
    let answer = s.reply().unwrap().unwrap();
    assert_eq!(
        Some(answer),
        heuristic_move(&position_after(4, &[first, mine]), Model::Ideal)
    );
    assert_eq!(s.last_machine_move(), Some((2, answer)));
    assert!(s.undo());
    assert_eq!(s.game().moves(), vec![first]);
    assert_eq!(s.game().position(), &position_after(4, &[first]));
    assert!(s.your_turn());
    assert_eq!(s.last_machine_move(), Some((0, first)));
    // The record names Cut's moves in upper case and Short's in lower case.
    assert_eq!(s.record(), first.to_string());
    assert_eq!(s.name(Side::Short, mine), mine.to_string().to_lowercase());
}

#[test]
fn no_reply_on_the_persons_turn() {
    let mut s = against(3, Side::Cut, Opponent::Perfect);
    assert_eq!(s.reply().unwrap(), None);
    assert!(s.game().moves().is_empty());
}

#[test]
fn the_hint_against_the_perfect_player_is_its_first_winning_move() {
    // Against the perfect player the hint is perfect play's move, on the cage and on the
    // same cage as a graph (whose edge i is the cage's edge i); from a lost position (Short
    // second) the best defence, never no move.
    for m in 2..=4 {
        for you in [Side::Cut, Side::Short] {
            let mut s = against(m, you, Opponent::Perfect);
            s.reply().unwrap();
            let position = s.game().position().clone();
            let expected = switching::perfect::winning_move(&position)
                .or_else(|| crate::hint::best_defence(&position).map(|(e, _)| e));
            assert!(expected.is_some(), "M={m} {you}");
            let hint = s.hint();
            assert_eq!(hint.mv, expected, "M={m} {you}");
            assert!(hint.line.starts_with("Hint: "), "{}", hint.line);

            let graph = Graph::cage(size(m));
            let mut g = Session::new(
                GraphGame::new(graph),
                you,
                Machine::Player(Opponent::Perfect),
            );
            g.reply().unwrap();
            let index = g.hint().mv;
            let s_idx = expected.map(|e| e.index(size(m)));
            assert_eq!(index, s_idx, "M={m} {you} on the graph");
        }
    }
}

#[test]
fn the_hint_says_none_on_the_machines_turn_and_once_over() {
    let s = against(3, Side::Short, Opponent::Perfect);
    let hint = s.hint();
    assert_eq!(
        (hint.mv, hint.line.as_str()),
        (None, "Hint: none, it is the machine's turn.")
    );
}

#[test]
fn a_game_ends_and_then_refuses_moves() {
    // The person plays Short's first resistor every time against the heuristic on M=2;
    // somebody wins within the cage's edges.
    let mut s = against(2, Side::Short, Opponent::Heuristic(Model::Ideal));
    let mut shadow = Position::new(size(2), Side::Cut);
    while !s.is_over() {
        if let Some(e) = s.reply().unwrap() {
            assert_eq!(Some(e), heuristic_move(&shadow, Model::Ideal));
            shadow.play_edge(e).unwrap();
            continue;
        }
        let mine = shadow.resistors().next().unwrap();
        s.play(mine).unwrap();
        shadow.play_edge(mine).unwrap();
    }
    let winner = shadow.winner().expect("the shadow game is over too");
    assert_eq!(s.winner(), Some(winner));
    assert_eq!(s.to_move(), None);
    assert_eq!(s.reply().unwrap(), None);
    let who = if winner == Side::Short {
        "you win"
    } else {
        "the machine wins"
    };
    assert_eq!(s.outcome(), Some(format!("{winner} has won: {who}.")));
    let any = size(2).edges().next().unwrap();
    assert_eq!(s.play(any).unwrap_err(), PlayError::GameOver { winner });
    let hint = s.hint();
    assert_eq!(
        (hint.mv, hint.line.as_str()),
        (None, "Hint: none, the game is over.")
    );
}

#[test]
fn refused_moves_are_typed_and_leave_the_game_alone() {
    let mut s = against(3, Side::Short, Opponent::Heuristic(Model::Ideal));
    // Cut opens: not the person's turn yet.
    let e = size(3).edges().next().unwrap();
    assert_eq!(
        s.play(e).unwrap_err(),
        PlayError::NotYourTurn { side: Side::Cut }
    );
    assert_eq!(
        s.play_named("a1").unwrap_err().to_string(),
        "it is Cut's turn"
    );
    let cut = s.reply().unwrap().unwrap();
    // The machine's edge is taken.
    assert_eq!(
        s.play(cut).unwrap_err(),
        PlayError::Refused(heuristic::PlayError::Move(MoveError::AlreadyPlayed {
            side: Side::Short,
            edge: cut,
            state: EdgeState::Cut,
        }))
    );
    // A name that is no edge.
    assert!(matches!(
        s.play_named("Z9").unwrap_err(),
        PlayError::Refused(heuristic::PlayError::Notation(_))
    ));
    assert_eq!(s.game().moves(), vec![cut]);

    let graph: Graph = "terminals s t\ns a\na t\ns t".parse().unwrap();
    let mut g = Session::new(
        GraphGame::new(graph),
        Side::Cut,
        Machine::Player(Opponent::Perfect),
    );
    assert_eq!(
        g.play_named("x-y").unwrap_err(),
        PlayError::Refused(GraphMoveError::Unknown("x-y".to_string()))
    );
    assert_eq!(g.play_named("S-T").unwrap(), 2);
    assert_eq!(
        g.play_named("s-a").unwrap_err(),
        PlayError::NotYourTurn { side: Side::Short }
    );
    let reply = g.reply().unwrap().unwrap();
    assert!(matches!(
        g.play(reply).unwrap_err(),
        PlayError::Refused(GraphMoveError::AlreadyPlayed { .. })
    ));
    assert_eq!(g.record(), format!("s-t,{}", g.game().edge_name(reply)));
}

#[test]
fn the_firmware_plays_no_graph() {
    let graph = Graph::cage(size(3));
    let machine = Machine::Firmware {
        profile: &boards::NUCLEO_F446RE,
        seed: None,
    };
    let mut g = Session::new(GraphGame::new(graph), Side::Short, machine);
    assert!(matches!(g.reply(), Err(ReplyError::FirmwareOnGraph)));
    assert_eq!(machine.rival(), Rival::Firmware);
}
