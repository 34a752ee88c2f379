//! How far apart two float drops must be for the float solve alone to rank them: one
//! constant for the cage's players and the graph solver, in a module of its own so that
//! neither imports the other for it (they did, both ways).

/// How far (in units of the supply) the largest float drop must stand above every other
/// for the float solve alone to decide the heuristic's move: a thousand times the error
/// the solver tests allow against the exact solve (1e-12).
pub(crate) const FLOAT_MARGIN: f64 = 1e-9;
