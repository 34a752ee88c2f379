//! What the state machine says of itself: where it is ([`Phase`]) and what an event led to
//! ([`Outcome`]). Below the application, which makes them, and the protocol, which carries
//! them to the bench.

use core::fmt;

use heuristic::Side;
use serde::{Deserialize, Serialize};

use crate::{Fault, Square};

/// Where the state machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Phase {
    /// Not started: the first press (or `start`) begins a new game.
    Idle,
    /// Every LED lit; the next press makes the machine's first move.
    NewGame,
    /// The machine's move is shown; the next press checks the cage and moves again.
    Playing,
    /// The result is shown; the next press begins a new game.
    Over,
    /// The error pattern is shown; the next press checks again (put the cage right first).
    Fault,
}

/// What an event led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Outcome {
    /// A new game on a board of this size; every LED lit.
    NewGame {
        /// M.
        size: u8,
    },
    /// The machine cuts this edge; its row and column lit.
    Move(Square),
    /// The bottom terminal shows the game is over: who has won.
    GameOver(#[serde(with = "crate::wire::side")] Side),
    /// The machine will not move; the error pattern lit.
    Fault(Fault),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::NewGame { size } => write!(f, "new game on M={size}"),
            Outcome::Move(edge) => write!(f, "Cut plays {edge}"),
            Outcome::GameOver(winner) => write!(f, "{winner} has won"),
            Outcome::Fault(fault) => write!(f, "{fault}"),
        }
    }
}
