//! Can Shannon's machine be beaten? An AND-OR search for a Short strategy that wins
//! against the heuristic (Cut moves first) whatever it does, with the Lehman solver
//! closing every branch where the machine has blundered into a lost position.
//!
//! Short's nodes are OR (some move must work), the machine's are AND over the moves it
//! may make: its single reading-order choice, or with [`Ties::Any`] every resistor tied at
//! the largest drop. A machine node where Short wins against perfect play (Lehman's
//! criterion holds with Cut to move) is a win: the perfect Short player takes over.

use std::collections::{HashMap, HashSet};

use heuristic::{Edge, Model, Move, Position, Side, Size};

use crate::players::{heuristic_move, heuristic_moves, perfect_move};
use switching::perfect;

/// How the machine breaks exact ties between resistors with the largest drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ties {
    /// As the original did: the first in reading order.
    ReadingOrder,
    /// Any of them: Short must win whatever the machine picks.
    Any,
}

impl Ties {
    /// `reading-order` or `any`.
    pub fn name(self) -> &'static str {
        match self {
            Ties::ReadingOrder => "reading-order",
            Ties::Any => "any",
        }
    }
}

/// The answer to "can the machine be beaten?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeatReport {
    /// Board size.
    pub size: Size,
    /// The network the machine measures.
    pub model: Model,
    /// How it breaks ties.
    pub ties: Ties,
    /// Whether Short has a strategy that wins every game against the machine.
    pub beatable: bool,
    /// A game: the strategy against the machine's reading-order choices, then the
    /// perfect Short player once the machine has blundered. When not beatable: the
    /// perfect Short player against the machine (after an unbeaten opening for `Any`).
    pub line: Vec<Move>,
    /// Short-to-move positions where the strategy names a move, up to each blunder.
    pub strategy_positions: usize,
    /// With [`Ties::Any`]: the machine's tied openings after which Short cannot force a
    /// win (empty when beatable, or with [`Ties::ReadingOrder`]).
    pub unbeaten_openings: Vec<Edge>,
    /// Positions the search visited (both sides to move).
    pub searched: usize,
    /// When beatable: the fewest Short moves within which the strategy makes the machine
    /// blunder into a position lost against perfect play, whatever it does.
    pub budget: Option<u8>,
}

/// What the search knows of a position: proven won for Short (with some budget), or not
/// won within a budget of Short moves.
#[derive(Clone, Copy, Debug)]
enum Known {
    Won,
    NotWithin(u8),
}

/// The search state: answers per position, memoised.
///
/// The search deepens iteratively over a budget of Short moves before the machine must
/// have blundered: strategies that beat the machine make it blunder early, and a short
/// budget keeps the search out of the deep subtrees of moves that do not work. A budget
/// that never ran out proves a "no" exact.
struct Search {
    model: Model,
    ties: Ties,
    /// Short to move.
    short: HashMap<(u128, u128), Known>,
    /// Machine to move.
    machine: HashMap<(u128, u128), Known>,
    /// Machine to move: the moves it may make.
    choices: HashMap<(u128, u128), Vec<Edge>>,
    /// Short to move: whether Short wins against perfect play.
    perfect: HashMap<(u128, u128), bool>,
    /// Whether some branch of the current iteration was cut for want of budget.
    ran_out: bool,
}

fn after(position: &Position, edge: Edge) -> Position {
    let mut child = position.clone();
    child
        .play_edge(edge)
        .expect("search moves are resistors of an open game");
    child
}

fn lookup(table: &HashMap<(u128, u128), Known>, key: (u128, u128), budget: u8) -> Option<bool> {
    match table.get(&key)? {
        Known::Won => Some(true),
        Known::NotWithin(b) if *b >= budget => Some(false),
        Known::NotWithin(_) => None,
    }
}

fn store(table: &mut HashMap<(u128, u128), Known>, key: (u128, u128), budget: u8, won: bool) {
    table.insert(
        key,
        if won {
            Known::Won
        } else {
            Known::NotWithin(budget)
        },
    );
}

impl Search {
    /// The moves the machine may make here, each position solved once.
    fn machine_moves(&mut self, position: &Position) -> Vec<Edge> {
        let (model, ties) = (self.model, self.ties);
        self.choices
            .entry(perfect::key(position))
            .or_insert_with(|| match ties {
                Ties::ReadingOrder => heuristic_move(position, model).into_iter().collect(),
                Ties::Any => heuristic_moves(position, model),
            })
            .clone()
    }

    /// Short to move, with `budget` moves to make the machine blunder: is there a move
    /// after which the machine loses whatever it does?
    fn short_wins(&mut self, position: &Position, budget: u8) -> bool {
        if let Some(w) = position.winner() {
            return w == Side::Short;
        }
        if budget == 0 {
            self.ran_out = true;
            return false;
        }
        let key = perfect::key(position);
        if let Some(known) = lookup(&self.short, key, budget) {
            return known;
        }
        // The machine has blundered: Short wins against perfect play from here.
        let won = self.lost_for_cut(position) || {
            if budget == 1 {
                self.ran_out = true;
                false
            } else {
                // No move of Short's loses the machine at once here, so each child must
                // be searched.
                let children: Vec<Position> =
                    position.resistors().map(|f| after(position, f)).collect();
                children.iter().any(|c| self.machine_loses(c, budget - 1))
            }
        };
        store(&mut self.short, key, budget, won);
        won
    }

    /// Whether Short wins against perfect play here (Short to move), solved once.
    fn lost_for_cut(&mut self, position: &Position) -> bool {
        *self
            .perfect
            .entry(perfect::key(position))
            .or_insert_with(|| perfect::winner(position) == Side::Short)
    }

    /// Machine to move: does Short win whatever the machine picks?
    fn machine_loses(&mut self, position: &Position, budget: u8) -> bool {
        if let Some(w) = position.winner() {
            return w == Side::Short;
        }
        let key = perfect::key(position);
        if let Some(known) = lookup(&self.machine, key, budget) {
            return known;
        }
        let won = self
            .machine_moves(position)
            .into_iter()
            .all(|e| self.short_wins(&after(position, e), budget));
        store(&mut self.machine, key, budget, won);
        won
    }

    /// The strategy's move at a Short-to-move position it wins within `budget`: the
    /// perfect player's once the machine has blundered, else the first move in reading
    /// order that wins.
    fn strategy_move(&mut self, position: &Position, budget: u8) -> Option<Edge> {
        if self.lost_for_cut(position) {
            return perfect::winning_move(position);
        }
        let rest = budget.checked_sub(1)?;
        let moves: Vec<Edge> = position.resistors().collect();
        moves
            .into_iter()
            .find(|&f| self.machine_loses(&after(position, f), rest))
    }

    /// Counts the Short-to-move positions of the strategy below a machine node it wins,
    /// up to and including those where the machine has just blundered.
    fn count(&mut self, position: &Position, budget: u8, seen: &mut HashSet<(u128, u128)>) {
        if position.winner().is_some() {
            return;
        }
        for e in self.machine_moves(position) {
            let short_turn = after(position, e);
            if short_turn.winner().is_some() || !seen.insert(perfect::key(&short_turn)) {
                continue;
            }
            if self.lost_for_cut(&short_turn) {
                continue;
            }
            if let Some(f) = self.strategy_move(&short_turn, budget) {
                self.count(&after(&short_turn, f), budget.saturating_sub(1), seen);
            }
        }
    }

    /// Plays the machine (reading-order choices) against the strategy while it has one,
    /// then against the perfect Short player, to the end.
    fn line(&mut self, mut position: Position, mut budget: Option<u8>) -> Vec<Move> {
        let mut moves = Vec::new();
        while let Some(side) = position.to_move() {
            let edge = match (side, budget) {
                (Side::Cut, _) => heuristic_move(&position, self.model),
                (Side::Short, Some(b)) => {
                    let mv = self.strategy_move(&position, b);
                    budget = mv.map(|_| b.saturating_sub(1));
                    mv.or_else(|| perfect_move(&position))
                }
                (Side::Short, _) => perfect_move(&position),
            }
            .expect("an open game has a resistor");
            moves.push(Move { side, edge });
            position = after(&position, edge);
        }
        moves
    }
}

/// Searches for a Short strategy that beats the machine on an M board, Cut first.
pub fn beat(size: Size, model: Model, ties: Ties) -> BeatReport {
    let mut search = Search {
        model,
        ties,
        short: HashMap::new(),
        machine: HashMap::new(),
        choices: HashMap::new(),
        perfect: HashMap::new(),
        ran_out: false,
    };
    let start = Position::new(size, Side::Cut);
    // Short makes at most every other move; a budget that large never runs out.
    let most = (size.edge_count() / 2 + 1) as u8;
    let mut budget = 0;
    let beatable = loop {
        budget += 1;
        search.ran_out = false;
        if perfect::short_wins_second(&start) || search.machine_loses(&start, budget) {
            break true;
        }
        if !search.ran_out || budget >= most {
            break false;
        }
    };
    let unbeaten_openings = match ties {
        Ties::Any if !beatable => search
            .machine_moves(&start)
            .into_iter()
            .filter(|&e| !search.short_wins(&after(&start, e), budget))
            .collect(),
        _ => Vec::new(),
    };
    let mut strategy_positions = 0;
    if beatable {
        let mut seen = HashSet::new();
        search.count(&start, budget, &mut seen);
        strategy_positions = seen.len();
    }
    // The line opens with an unbeaten opening when there is one.
    let line = match unbeaten_openings.first() {
        Some(&opening) => {
            let mut line = vec![Move {
                side: Side::Cut,
                edge: opening,
            }];
            line.extend(search.line(after(&start, opening), None));
            line
        }
        None => search.line(start, beatable.then_some(budget)),
    };
    BeatReport {
        size,
        model,
        ties,
        beatable,
        line,
        strategy_positions,
        unbeaten_openings,
        searched: search.short.len() + search.machine.len(),
        budget: beatable.then_some(budget),
    }
}
