//! Positions, sides, moves and the rules that end a game.

use crate::union_find::UnionFind;
use crate::{Edge, MAX_EDGES, Move, Node, NotationError, Side, Size};

/// What an edge currently is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum EdgeState {
    /// Not yet played: a resistor in the network.
    #[default]
    Resistor,
    /// Removed by Cut: an open circuit.
    Cut,
    /// Replaced by Short with a wire.
    Short,
}

impl EdgeState {
    /// `"resistor"`, `"cut"` or `"short"`.
    pub fn name(self) -> &'static str {
        match self {
            EdgeState::Resistor => "resistor",
            EdgeState::Cut => "cut",
            EdgeState::Short => "short",
        }
    }
}

/// A move the rules refuse. The position it was played on is left untouched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MoveError {
    /// The edge has been played before. The move is named as the record writes it (`c5`
    /// for Short's), as the player wrote it.
    #[error(
        "{} was already {}",
        Move { side: *.side, edge: *.edge },
        if *.state == EdgeState::Cut { "cut" } else { "shorted" }
    )]
    AlreadyPlayed {
        /// Who tried to play it.
        side: Side,
        /// The edge named.
        edge: Edge,
        /// What it is now.
        state: EdgeState,
    },
    /// Somebody has already won.
    #[error("the game is over: {winner} has won")]
    GameOver {
        /// Who won.
        winner: Side,
    },
    /// The move belongs to the other side.
    #[error("it is {expected}'s turn, not {got}'s")]
    WrongSide {
        /// The side to move.
        expected: Side,
        /// The side the move was written for.
        got: Side,
    },
}

/// Why a move of a game record could not be played: its notation or the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PlayError {
    /// The text does not name an edge of the board.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The rules refuse the move.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A bird-cage position: the state of every edge, the side to move, and the winner once
/// there is one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Position {
    size: Size,
    edges: [EdgeState; MAX_EDGES],
    to_move: Side,
    winner: Option<Side>,
    plies: u16,
}

impl Position {
    /// The start position: every edge a resistor, `first` to move.
    pub fn new(size: Size, first: Side) -> Position {
        Position {
            size,
            edges: [EdgeState::Resistor; MAX_EDGES],
            to_move: first,
            winner: None,
            plies: 0,
        }
    }

    /// A position set up edge by edge, as a cage is wired by hand (or by the edge fixture):
    /// `states` in reading order, `to_move` to move; the winner follows from the states.
    /// `None` unless there is one state per edge.
    ///
    /// ```
    /// use heuristic::{EdgeState, Position, Side, Size};
    /// let m2 = Size::new(2).unwrap();
    /// let mut states = [EdgeState::Resistor; 5];
    /// states[0] = EdgeState::Cut; // A3
    /// let p = Position::set_up(m2, &states, Side::Short).unwrap();
    /// assert_eq!(p, Position::from_record(m2, Side::Cut, "A3").unwrap());
    /// assert!(Position::set_up(m2, &states[..4], Side::Cut).is_none());
    /// ```
    pub fn set_up(size: Size, states: &[EdgeState], to_move: Side) -> Option<Position> {
        if states.len() != size.edge_count() {
            return None;
        }
        let mut position = Position::new(size, to_move);
        position.edges[..states.len()].copy_from_slice(states);
        position.plies = states.iter().filter(|s| **s != EdgeState::Resistor).count() as u16;
        position.winner = position.decide_winner();
        Some(position)
    }

    /// Board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// State of one edge.
    pub fn state(&self, edge: Edge) -> EdgeState {
        self.edges[edge.index(self.size)]
    }

    /// Every edge with its state, in reading order.
    pub fn edges(&self) -> impl Iterator<Item = (Edge, EdgeState)> + Clone + '_ {
        self.size.edges().zip(self.edges.iter().copied())
    }

    /// Every edge's state in reading order (indexed like [`Edge::index`]).
    pub fn states(&self) -> &[EdgeState] {
        &self.edges[..self.size.edge_count()]
    }

    /// The side to move, or `None` once somebody has won.
    pub fn to_move(&self) -> Option<Side> {
        self.winner.is_none().then_some(self.to_move)
    }

    /// The winner, if the game is over.
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// Moves played so far.
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// Whether `mv` is legal here, without playing it.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        if let Some(winner) = self.winner {
            return Err(MoveError::GameOver { winner });
        }
        if mv.side != self.to_move {
            return Err(MoveError::WrongSide {
                expected: self.to_move,
                got: mv.side,
            });
        }
        match self.state(mv.edge) {
            EdgeState::Resistor => Ok(()),
            state => Err(MoveError::AlreadyPlayed {
                side: mv.side,
                edge: mv.edge,
                state,
            }),
        }
    }

    /// Plays a move; on error the position is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.check(mv)?;
        self.edges[mv.edge.index(self.size)] = match mv.side {
            Side::Cut => EdgeState::Cut,
            Side::Short => EdgeState::Short,
        };
        self.plies += 1;
        self.to_move = mv.side.opponent();
        self.winner = self.decide_winner();
        Ok(())
    }

    /// Plays `edge` for the side to move.
    pub fn play_edge(&mut self, edge: Edge) -> Result<(), MoveError> {
        let side = match self.winner {
            Some(winner) => return Err(MoveError::GameOver { winner }),
            None => self.to_move,
        };
        self.play(Move { side, edge })
    }

    /// Hands the turn to `side` without a move, for a player that does not see every move: the
    /// firmware learns Short's move only from its measurements, and without its self-check it
    /// never does. Edge states and the winner are untouched.
    ///
    /// ```
    /// use heuristic::{Position, Side, Size};
    /// let mut p = Position::from_record(Size::new(3).unwrap(), Side::Cut, "A5").unwrap();
    /// p.set_to_move(Side::Cut);
    /// assert_eq!(p.to_move(), Some(Side::Cut));
    /// ```
    pub fn set_to_move(&mut self, side: Side) {
        self.to_move = side;
    }

    /// Edges still resistors, in reading order: the legal moves of either side.
    pub fn resistors(&self) -> impl Iterator<Item = Edge> + '_ {
        self.edges()
            .filter(|&(_, s)| s == EdgeState::Resistor)
            .map(|(e, _)| e)
    }

    /// Joins the ends of every edge for which `joins` holds.
    fn connectivity(&self, joins: impl Fn(EdgeState) -> bool) -> UnionFind {
        let mut sets: UnionFind = UnionFind::new();
        for (i, &state) in self.states().iter().enumerate() {
            if joins(state) {
                let (a, b) = self.size.edge_ends(i);
                sets.union(a, b);
            }
        }
        sets
    }

    fn decide_winner(&self) -> Option<Side> {
        let (top, bottom) = (Node::Top.index(self.size), Node::Bottom.index(self.size));
        if self
            .connectivity(|s| s == EdgeState::Short)
            .same(top, bottom)
        {
            Some(Side::Short)
        } else if !self.connectivity(|s| s != EdgeState::Cut).same(top, bottom) {
            Some(Side::Cut)
        } else {
            None
        }
    }
}
