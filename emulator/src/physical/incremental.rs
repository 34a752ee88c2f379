//! Solving a game move by move: one move changes one edge, which changes the conductance
//! matrix by a rank-one term g·(e_a − e_b)(e_a − e_b)ᵀ, so the Cholesky factor is updated
//! in O(n²) instead of refactored in O(n³). A move that changes which parts are cut off
//! (possible only with the pull-ups released and no fixture) refactors from scratch.

use heuristic::{Edge, Move, MoveError, Position};
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

use super::network::{PullupState, branches, edge_branches};
use super::solve::{Numbering, Solution, SolveError, solved};
use super::{Board, Parts};

/// A position on a board with its factored system, kept up to date as moves are played.
///
/// ```
/// use emulator::physical::{Board, Incremental, Parts, PullupState, solve};
/// use heuristic::{Move, Position, Side, Size};
/// let m4 = Size::new(4).unwrap();
/// let board = Board::from_profile(&boards::NUCLEO_F446RE);
/// let parts = Parts::draw(&board, m4, 1);
/// let start = Position::new(m4, Side::Cut);
/// let mut game = Incremental::new(&board, &parts, start, PullupState::On).unwrap();
/// for mv in ["A7", "c5", "C7"] {
///     game.play(Move::parse(m4, mv).unwrap()).unwrap();
/// }
/// let fresh = solve(&board, &parts, game.position(), PullupState::On).unwrap();
/// for (a, b) in game.solution().unwrap().all_volts().iter().zip(fresh.all_volts()) {
///     assert!((a.unwrap() - b.unwrap()).abs() < 1e-9);
/// }
/// ```
#[derive(Debug)]
pub struct Incremental<'a> {
    board: &'a Board,
    parts: &'a Parts,
    position: Position,
    pullups: PullupState,
    numbering: Numbering,
    factor: Cholesky<f64, Dyn>,
    rhs: DVector<f64>,
    /// Scratch for the update vector.
    x: DVector<f64>,
}

/// Why a move could not be played on an [`Incremental`] solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The rules refuse the move.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The new position's network cannot be solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl<'a> Incremental<'a> {
    /// Factors the system of `position`.
    pub fn new(
        board: &'a Board,
        parts: &'a Parts,
        position: Position,
        pullups: PullupState,
    ) -> Result<Self, SolveError> {
        let numbering = Numbering::new(board, parts, &position, pullups);
        let (factor, rhs) = factor(board, parts, &position, pullups, &numbering)?;
        Ok(Incremental {
            board,
            parts,
            position,
            pullups,
            numbering,
            x: DVector::zeros(rhs.len()),
            factor,
            rhs,
        })
    }

    /// The position solved.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays `mv` and updates the factor.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let before = self.edge_conductance(mv.edge);
        self.position.play(mv)?;
        let numbering = Numbering::new(self.board, self.parts, &self.position, self.pullups);
        if numbering != self.numbering {
            let (factor, rhs) = factor(
                self.board,
                self.parts,
                &self.position,
                self.pullups,
                &numbering,
            )?;
            self.x = DVector::zeros(rhs.len());
            (self.numbering, self.factor, self.rhs) = (numbering, factor, rhs);
            return Ok(());
        }
        // All of an edge's branches join the same two nodes: one rank-one term.
        let delta = self.edge_conductance(mv.edge) - before;
        let size = self.position.size();
        let supply = self.board.supply_volts;
        let (a, b) = mv.edge.ends(size);
        let end = |n| self.numbering.unknown(size, super::End::Node(n), supply);
        let (ea, eb) = (end(a), end(b));
        self.x.fill(0.0);
        match (ea, eb) {
            (Ok(p), Ok(q)) => {
                self.x[p] = 1.0;
                self.x[q] = -1.0;
                self.factor.rank_one_update(&self.x, delta);
            }
            (Ok(p), Err(Some(v))) | (Err(Some(v)), Ok(p)) => {
                self.x[p] = 1.0;
                self.factor.rank_one_update(&self.x, delta);
                self.rhs[p] += delta * v;
            }
            _ => {}
        }
        Ok(())
    }

    /// Node voltages of the current position (two triangular solves); an error when an
    /// update left the factor unusable.
    pub fn solution(&self) -> Result<Solution, SolveError> {
        let v = self.factor.solve(&self.rhs);
        let solution =
            self.numbering
                .solution(self.position.size(), self.board.supply_volts, v.as_slice());
        solved(solution, self.numbering.unknowns())
    }

    /// Total conductance of `edge`'s branches in the current position.
    fn edge_conductance(&self, edge: Edge) -> f64 {
        let size = self.position.size();
        let mut g = 0.0;
        let state = self.position.state(edge);
        edge_branches(
            self.board,
            self.parts,
            size,
            edge.index(size),
            edge,
            state,
            |b| {
                g += 1.0 / b.ohms;
            },
        );
        g
    }
}

fn factor(
    board: &Board,
    parts: &Parts,
    position: &Position,
    pullups: PullupState,
    numbering: &Numbering,
) -> Result<(Cholesky<f64, Dyn>, DVector<f64>), SolveError> {
    let n = numbering.unknowns();
    let (size, supply) = (position.size(), board.supply_volts);
    let mut g = DMatrix::zeros(n, n);
    let mut i = DVector::zeros(n);
    branches(board, parts, position, pullups, |b| {
        numbering.stamp(size, supply, &b, |p, q, c| g[(p, q)] += c, |p, c| i[p] += c);
    });
    let factor = Cholesky::new(g).ok_or(SolveError::NotPositiveDefinite { unknowns: n })?;
    Ok((factor, i))
}
