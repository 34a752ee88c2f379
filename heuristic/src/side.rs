//! The two players: below the notation (which names a move's side) and the position (which
//! plays them).

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Side {
    /// Removes resistors; wins when no path of uncut edges joins the terminals.
    Cut,
    /// Replaces resistors with wires; wins when wires alone join the terminals.
    Short,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::Cut => Side::Short,
            Side::Short => Side::Cut,
        }
    }

    /// `"cut"` or `"short"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Cut => "cut",
            Side::Short => "short",
        }
    }
}

impl core::fmt::Display for Side {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Side::Cut => "Cut",
            Side::Short => "Short",
        })
    }
}
