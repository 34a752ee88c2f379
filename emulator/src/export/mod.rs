//! Positions as files other tools open: an ngspice netlist of exactly the circuit a model
//! solved ([`spice`]), and a CircuitJS1 circuit to play in the browser ([`circuitjs`]).

pub mod circuitjs;
pub mod spice;

use heuristic::{Model, Node};

use crate::physical::{Board, Parts, PullupState, Pullups};

/// The network a position is exported on.
#[derive(Clone, Debug, PartialEq)]
pub enum Network {
    /// One of the exact models.
    Model(Model),
    /// A physical board with these parts.
    Board {
        /// The board.
        board: Box<Board>,
        /// Its parts (nominal or drawn).
        parts: Parts,
    },
}

impl Network {
    /// One line for file headers.
    pub fn describe(&self, pullups: PullupState) -> String {
        match self {
            Network::Model(m) => format!("{} network", m.name()),
            Network::Board { board, parts } => {
                let values = match parts.seed {
                    Some(s) => format!("parts drawn from tolerance seed {s}"),
                    None => "nominal parts".to_string(),
                };
                let pulls = match (pullups, board.pullups) {
                    (PullupState::On, _) => "pull-ups on",
                    (PullupState::Released, Pullups::SharedRail { .. }) => "pull-up rail released",
                    (PullupState::Released, _) => "pull-ups released",
                };
                format!("board {}, {values}, {pulls}", board.name)
            }
        }
    }
}

/// A node's name in exported files: `a6`, `q` (top terminal), `bottom` (terminal 0).
///
/// ```
/// use heuristic::{Node, Size};
/// let m4 = Size::new(4).unwrap();
/// let a6 = Node::internal(m4, 1, 6).unwrap();
/// assert_eq!(emulator::export::node_name(a6), "a6");
/// assert_eq!(emulator::export::node_name(Node::Bottom), "bottom");
/// ```
pub fn node_name(node: Node) -> String {
    match node {
        Node::Top => "q".to_string(),
        Node::Bottom => "bottom".to_string(),
        n => n.to_string().to_lowercase(),
    }
}
