//! A game in progress on a [`Graph`]: the state of every edge, the side to move, the
//! winner, and the record (edge names as written in the file, sides alternating from the
//! first player).

use heuristic::{EdgeState, Side};
use petgraph::unionfind::UnionFind;

use crate::graph::Graph;

/// A move the rules or the record's text refuse. The game it was played on is untouched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphMoveError {
    /// No edge has this name.
    #[error("{} is not an edge of this graph", heuristic::Echo(.0))]
    Unknown(String),
    /// The edge has been played before.
    #[error("{name} was already {}", if *.state == EdgeState::Cut { "cut" } else { "shorted" })]
    AlreadyPlayed {
        /// The edge.
        name: String,
        /// What it is now.
        state: EdgeState,
    },
    /// Somebody has already won.
    #[error("the game is over: {winner} has won")]
    GameOver {
        /// Who won.
        winner: Side,
    },
}

/// A record on a graph that does not replay, with the 1-based number of the bad move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number}: {error}")]
pub struct GraphRecordError {
    /// 1-based index of the move in the record.
    pub number: usize,
    /// What is wrong with it.
    pub error: GraphMoveError,
}

/// A position of the switching game on a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play<'g> {
    graph: &'g Graph,
    states: Vec<EdgeState>,
    first: Side,
    to_move: Side,
    winner: Option<Side>,
    moves: Vec<usize>,
}

impl<'g> Play<'g> {
    /// The start: every edge a resistor, `first` to move.
    pub fn new(graph: &'g Graph, first: Side) -> Play<'g> {
        Play {
            graph,
            states: vec![EdgeState::Resistor; graph.edges().len()],
            first,
            to_move: first,
            winner: None,
            moves: Vec::new(),
        }
    }

    /// Replays a record: edge names separated by commas, sides alternating from `first`.
    /// A name matches its edge exactly or, failing that, in any case ([`Graph::find_edge`]).
    ///
    /// ```
    /// use heuristic::Side;
    /// let g: switching::Graph = "terminals s t\ns a\na t\ns t".parse().unwrap();
    /// let p = switching::Play::from_record(&g, Side::Cut, "s-t, s-a").unwrap();
    /// assert_eq!(p.to_move(), Some(Side::Cut));
    /// assert_eq!(p.record(), "s-t,s-a");
    /// let err = switching::Play::from_record(&g, Side::Cut, "s-t,s-t").unwrap_err();
    /// assert_eq!(err.to_string(), "move 2: s-t was already cut");
    /// ```
    pub fn from_record(
        graph: &'g Graph,
        first: Side,
        record: &str,
    ) -> Result<Play<'g>, GraphRecordError> {
        let mut play = Play::new(graph, first);
        if record.trim().is_empty() {
            return Ok(play);
        }
        for (i, token) in record.split(',').enumerate() {
            let number = i + 1;
            let name = token.trim();
            let edge = graph.find_edge(name).ok_or_else(|| GraphRecordError {
                number,
                error: GraphMoveError::Unknown(name.to_owned()),
            })?;
            play.play(edge)
                .map_err(|error| GraphRecordError { number, error })?;
        }
        Ok(play)
    }

    /// The graph played on.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// Every edge's state, in file order.
    pub fn states(&self) -> &[EdgeState] {
        &self.states
    }

    /// The side that opened.
    pub fn first(&self) -> Side {
        self.first
    }

    /// The side to move; `None` once somebody has won.
    pub fn to_move(&self) -> Option<Side> {
        self.winner.is_none().then_some(self.to_move)
    }

    /// The winner, once there is one.
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// The edges played so far, in order.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The record: edge names joined by commas.
    pub fn record(&self) -> String {
        let names: Vec<&str> = self
            .moves
            .iter()
            .map(|&e| self.graph.edges()[e].name.as_str())
            .collect();
        names.join(",")
    }

    /// The edges still resistors, in file order.
    pub fn resistors(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.states.len()).filter(|&e| self.states[e] == EdgeState::Resistor)
    }

    /// Plays `edge` for the side to move.
    pub fn play(&mut self, edge: usize) -> Result<(), GraphMoveError> {
        if let Some(winner) = self.winner {
            return Err(GraphMoveError::GameOver { winner });
        }
        let state = self.states[edge];
        if state != EdgeState::Resistor {
            return Err(GraphMoveError::AlreadyPlayed {
                name: self.graph.edges()[edge].name.clone(),
                state,
            });
        }
        self.states[edge] = match self.to_move {
            Side::Cut => EdgeState::Cut,
            Side::Short => EdgeState::Short,
        };
        self.moves.push(edge);
        self.to_move = self.to_move.opponent();
        self.winner = winner(self.graph, &self.states);
        Ok(())
    }

    /// Gives the move to `side` (for analysing a position with the other side to move).
    pub fn set_to_move(&mut self, side: Side) {
        self.to_move = side;
    }
}

/// Who has won with these edge states: Short once wires join the terminals, Cut once no
/// path of uncut edges does.
pub fn winner(graph: &Graph, states: &[EdgeState]) -> Option<Side> {
    let [s, t] = graph.terminals();
    let joined = |keep: fn(EdgeState) -> bool| {
        let mut sets = UnionFind::new(graph.vertices().len());
        for (e, &state) in graph.edges().iter().zip(states) {
            if keep(state) {
                sets.union(e.ends[0], e.ends[1]);
            }
        }
        sets.equiv(s, t)
    };
    if joined(|s| s == EdgeState::Short) {
        Some(Side::Short)
    } else if !joined(|s| s != EdgeState::Cut) {
        Some(Side::Cut)
    } else {
        None
    }
}
