//! The game-over reading: the bottom terminal's code with the pull-ups released, and the
//! thresholds that tell "Cut has won" and "Short has won" from "play on".
//!
//! With the pull-ups released (driven low on the Nucleo's rail, so they act as pull-downs; off
//! on the Arduino), the bottom terminal 0 sits on the series resistor Rs and its own pull-down:
//!
//! - **Short has won**: wires join Q to 0, so 0 reads the supply: full scale.
//! - **Cut has won**: nothing joins Q to 0, so 0 reads 0 V: code 0.
//! - **play on**: every path from Q to 0 holds at least one resistor, and one path has no cut.
//!   - Upper bound. Let W be the nodes wired to 0 (0 included). Every edge leaving W is a
//!     resistor or cut; joining every node outside W to Q and dropping the pull-downs inside W
//!     only raises V0 (Rayleigh monotonicity), which leaves n resistors R from Q to W in parallel
//!     against Rs ∥ Rpu: `V0 / Vs ≤ n / (n + R/Rs + R/Rpu)`, with n the largest number of edges
//!     leaving a connected W ∌ Q ([`max_boundary`]).
//!   - Lower bound. The weakest uncut path is taken to be the longest: every internal node in
//!     series, each with its pull-down, a ladder of M(M−1)+1 resistors ending in Rs ∥ Rpu
//!     ([`ladder_fraction`]). This one is not proven minimal (a shorter path could carry
//!     side branches that load it); `tests/game_over.rs` checks it against an independent solve
//!     on random positions, and the threshold keeps half of it as margin.
//!
//! The thresholds sit half way between each bound and the ideal reading, which leaves both
//! sides the same margin for ADC offset, noise and resistor tolerance. For the NUCLEO-F446RE
//! (R = Rs = 1 kΩ, Rpu = 30 kΩ, 10 bits) the tests pin the numbers: see
//! `tests/game_over.rs` and the crate README.

use boards::Profile;
use heuristic::{Node, Side, Size};

/// Where the bottom terminal's code says the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct GameOverThresholds {
    /// Lowest code a game still in play can read (the ladder bound).
    pub play_low: u16,
    /// Highest code a game still in play can read (the boundary bound).
    pub play_high: u16,
    /// Codes at or below this: Cut has won.
    pub cut_at_most: u16,
    /// Codes at or above this: Short has won.
    pub short_at_least: u16,
}

impl GameOverThresholds {
    /// The thresholds for a cage of `size` on `profile`, from the profile's nominal values.
    pub fn derive(profile: &Profile, size: Size) -> GameOverThresholds {
        let r = profile.resistor_ohms().max(1) as f32;
        let g_series = r / profile.series_ohms().max(1) as f32;
        let g_pullup = r / profile.pullup_ohms().max(1) as f32;
        let n = max_boundary(size) as f32;
        let high = n / (n + g_series + g_pullup);
        let low = ladder_fraction(size.internal_node_count(), g_series, g_pullup);
        let full_scale = profile.full_scale_code();
        let code = |fraction: f32| -> u16 {
            let scaled = fraction * (f32::from(full_scale) + 1.0);
            (scaled as u16).min(full_scale)
        };
        let (play_low, play_high) = (code(low), code(high));
        GameOverThresholds {
            play_low,
            play_high,
            cut_at_most: play_low / 2,
            short_at_least: play_high + (full_scale - play_high).div_ceil(2),
        }
    }

    /// The winner the bottom terminal's code shows, or `None` to play on.
    pub fn judge(&self, bottom_code: u16) -> Option<Side> {
        if bottom_code <= self.cut_at_most {
            Some(Side::Cut)
        } else if bottom_code >= self.short_at_least {
            Some(Side::Short)
        } else {
            None
        }
    }
}

/// V0 / Vs for a ladder of `internal + 1` unit resistors from Q to 0, with a pull-down of
/// conductance `g_pullup` (in units of 1/R) at each of the `internal` nodes between, and
/// `g_series + g_pullup` from 0 to ground.
pub fn ladder_fraction(internal: usize, g_series: f32, g_pullup: f32) -> f32 {
    // Walk up from 0 with V0 = 1: each resistor adds the current below it, each node's
    // pull-down adds to that current; the supply needed at Q scales the result.
    let mut volts = 1.0f32;
    let mut amps = volts * (g_series + g_pullup);
    for _ in 0..internal {
        volts += amps;
        amps += volts * g_pullup;
    }
    volts += amps;
    1.0 / volts
}

/// The most edges that can leave a set W of nodes joined to the bottom terminal (0 and internal
/// nodes, connected through edges, never Q): the most resistors that can stand in parallel
/// between Q and the bottom terminal's wired group while Short has not won.
///
/// Enumerates every such set up to 16 internal nodes (M ≤ 4); larger boards get the trivial
/// bound, the number of edges.
pub fn max_boundary(size: Size) -> usize {
    let internal = size.internal_node_count();
    if internal > 16 {
        return size.edge_count();
    }
    let bottom = Node::Bottom.index(size);
    let ends = |e: usize| size.edge_ends(e);
    let mut best = 0;
    for mask in 0u32..(1 << internal) {
        let members = mask | (1 << bottom);
        // Grow the part of W reachable from 0 inside W until it stops growing.
        let mut reached = 1u32 << bottom;
        loop {
            let before = reached;
            for e in 0..size.edge_count() {
                let (a, b) = ends(e);
                let (a, b) = (1u32 << a, 1u32 << b);
                if members & a != 0 && members & b != 0 && reached & (a | b) != 0 {
                    reached |= a | b;
                }
            }
            if reached == before {
                break;
            }
        }
        if reached != members {
            continue;
        }
        let leaving = (0..size.edge_count())
            .filter(|&e| {
                let (a, b) = ends(e);
                (members >> a & 1) != (members >> b & 1)
            })
            .count();
        best = best.max(leaving);
    }
    best
}
