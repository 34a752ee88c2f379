//! The node sampler: ADC codes of the cage's nodes, with the pull-ups on or released.

use heuristic::{MAX_NODES, Node, Size};

/// Reads the cage.
///
/// Nodes are named by their coordinates on the M=4 cage (an M=3 node keeps its M=4 name), or
/// [`Node::Bottom`] for the bottom terminal; the top terminal Q is the supply and is never read.
/// Codes are raw ADC codes at the board's resolution (0..=1023 at 10 bits).
pub trait Sampler {
    /// What can go wrong reading the hardware.
    type Error: core::fmt::Debug;

    /// Switches the node pull-ups on (measuring) or releases them (game-over reading).
    fn set_pullups(&mut self, on: bool) -> Result<(), Self::Error>;

    /// One conversion of the voltage at `node`.
    fn read(&mut self, node: Node) -> Result<u16, Self::Error>;

    /// `out.len()` conversions of `node` in a row (at most [`BURST`]), in order. The default
    /// reads them one by one; a sampler whose conversions travel (PIL, where each one is a
    /// round trip to the bench) asks for them at once.
    fn read_burst(&mut self, node: Node, out: &mut [u16]) -> Result<(), Self::Error> {
        for slot in out {
            *slot = self.read(node)?;
        }
        Ok(())
    }
}

/// Most conversions asked for in one [`Sampler::read_burst`]: what one bench frame carries.
pub const BURST: usize = 32;

/// One ADC code per node of a board, in [`Size::nodes`] order (internal nodes in reading order,
/// then Q, then 0): what [`heuristic::rank`] takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Codes {
    size: Size,
    values: [u16; MAX_NODES],
}

impl Codes {
    /// Codes given in [`Size::nodes`] order; `None` unless there is exactly one per node.
    pub fn new(size: Size, values: &[u16]) -> Option<Codes> {
        (values.len() == size.node_count()).then(|| {
            let mut all = [0; MAX_NODES];
            all[..values.len()].copy_from_slice(values);
            Codes { size, values: all }
        })
    }

    /// The board size the codes are laid out for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// One code per node, in [`Size::nodes`] order.
    pub fn values(&self) -> &[u16] {
        &self.values[..self.size.node_count()]
    }

    /// The code of `node`.
    pub fn get(&self, node: Node) -> u16 {
        self.values[node.index(self.size)]
    }
}

/// Reads every node of a board of `size`, averaging `samples` conversions each (rounded; at
/// least one). Q is not read: it is the supply, `full_scale` on a ratiometric ADC.
pub fn measure<S: Sampler>(
    sampler: &mut S,
    size: Size,
    full_scale: u16,
    samples: u8,
) -> Result<Codes, S::Error> {
    let mut values = [0; MAX_NODES];
    for (slot, node) in values.iter_mut().zip(size.nodes()) {
        *slot = match node {
            Node::Top => full_scale,
            node => average(sampler, node, samples)?,
        };
    }
    Ok(Codes { size, values })
}

/// The rounded mean of `samples` conversions of `node` (at least one).
pub(crate) fn average<S: Sampler>(
    sampler: &mut S,
    node: Node,
    samples: u8,
) -> Result<u16, S::Error> {
    let n = usize::from(samples.max(1));
    let mut burst = [0u16; BURST];
    let mut sum = 0u32;
    let mut left = n;
    while left > 0 {
        let codes = &mut burst[..left.min(BURST)];
        sampler.read_burst(node, codes)?;
        sum += codes.iter().map(|&c| u32::from(c)).sum::<u32>();
        left -= codes.len();
    }
    Ok(rounded_mean(sum, n as u32))
}

/// The mean of `n` conversions summing to `sum`, rounded half up: the one averaging the
/// firmware does and the emulator models.
///
/// ```
/// assert_eq!(firmware::rounded_mean(4 + 5 + 5 + 5, 4), 5); // 4.75
/// assert_eq!(firmware::rounded_mean(4 + 4 + 5 + 5, 4), 5); // 4.5 rounds up
/// assert_eq!(firmware::rounded_mean(4 + 4 + 4 + 5, 4), 4); // 4.25
/// ```
pub fn rounded_mean(sum: u32, n: u32) -> u16 {
    let n = n.max(1);
    ((sum + n / 2) / n) as u16
}
