//! Who wins a position under perfect play, for the outcome impact of a divergence.
//!
//! Studies take the winner as a function, so any solver can serve; the tolerance study passes
//! [`switching::perfect::winner`] (Lehman's theorem).

use heuristic::{Position, Side};

/// Perfect-play winner of a position (`None` when the solver cannot tell).
pub type Winner<'a> = &'a (dyn Fn(&Position) -> Option<Side> + Sync);
