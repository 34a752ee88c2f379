//! Board size M and the counts that follow from it.

/// Smallest supported board (2 links wide).
pub const MIN_SIZE: u8 = 2;
/// Largest supported board; fixes the capacity of every stack collection in the crate.
pub const MAX_SIZE: u8 = 8;
/// Edges on the largest board: M² + (M−1)².
pub const MAX_EDGES: usize = (MAX_SIZE as usize).pow(2) + (MAX_SIZE as usize - 1).pow(2);
/// Nodes on the largest board: M(M−1) internal nodes plus the two terminals.
pub const MAX_NODES: usize = MAX_SIZE as usize * (MAX_SIZE as usize - 1) + 2;

/// A board size M in `MIN_SIZE..=MAX_SIZE`.
///
/// Columns `A..` are x = 1..=2M−1 and rows y = 1..=2M−1 counted from the bottom; the
/// top terminal Q is row 2M and the bottom terminal 0 is row 0.
///
/// ```
/// use heuristic::Size;
/// let m3 = Size::new(3).unwrap();
/// assert_eq!((m3.edge_count(), m3.internal_node_count()), (13, 6));
/// assert!(Size::new(9).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Size(u8);

/// A board size outside `MIN_SIZE..=MAX_SIZE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("board size M={0} is out of range (supported: {MIN_SIZE}..={MAX_SIZE})")]
pub struct SizeError(pub u32);

impl Size {
    /// The classic M=3 machine.
    pub const M3: Size = Size(3);
    /// The classic M=4 machine: the cage every board profile wires.
    pub const M4: Size = Size(4);
    /// The smallest supported board.
    pub const MIN: Size = Size(MIN_SIZE);
    /// The largest supported board: the capacity of every table.
    pub const MAX: Size = Size(MAX_SIZE);

    /// Every supported size, smallest first.
    pub const ALL: [Size; (MAX_SIZE - MIN_SIZE + 1) as usize] = [
        Size(2),
        Size(3),
        Size(4),
        Size(5),
        Size(6),
        Size(7),
        Size(8),
    ];

    /// Checked constructor.
    pub const fn new(m: u32) -> Result<Size, SizeError> {
        if m >= MIN_SIZE as u32 && m <= MAX_SIZE as u32 {
            Ok(Size(m as u8))
        } else {
            Err(SizeError(m))
        }
    }

    /// M.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Highest row or column coordinate of an edge: 2M−1.
    pub const fn span(self) -> u8 {
        2 * self.0 - 1
    }

    /// M² + (M−1)².
    pub const fn edge_count(self) -> usize {
        let m = self.0 as usize;
        m * m + (m - 1) * (m - 1)
    }

    /// M(M−1): the nodes that are not terminals.
    pub const fn internal_node_count(self) -> usize {
        let m = self.0 as usize;
        m * (m - 1)
    }

    /// Internal nodes plus the two terminals.
    pub const fn node_count(self) -> usize {
        self.internal_node_count() + 2
    }
}

impl core::fmt::Display for Size {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "M={}", self.0)
    }
}
