//! Why a study of the tree split at a ply (`--split-ply D`) cannot run or merge: a leaf
//! module, so that both the study trait's errors (`study`) and the study that splits its tree
//! (`quantisation::split`) name it without importing each other.

/// Why a split study cannot run or merge.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A ply past the longest game.
    #[error(
        "--split-ply {ply}: past the end of every M={m} game ({edges} edges, so plies \
         0..={edges}); take a ply from 0 to {edges}"
    )]
    PastTheGame {
        /// The ply asked.
        ply: u32,
        /// The board size.
        m: u8,
        /// Its edges: the most moves a game has.
        edges: usize,
    },
    /// More shards than ply D has positions: some would own nothing.
    #[error(
        "--split-ply {ply}: ply {ply} of the M={m} tree has {positions} position(s), fewer \
         than the {count} shards asked; take at most {positions} shards or a deeper ply"
    )]
    TooManyShards {
        /// The ply asked.
        ply: u32,
        /// The board size.
        m: u8,
        /// Positions at that ply.
        positions: usize,
        /// P.
        count: u32,
    },
    /// A decision of the rebuilt tree that no shard read (a shard of another tree).
    #[error("no shard holds decision {index} of the tree ({record})")]
    Missing {
        /// Its index in the tree.
        index: u32,
        /// Its record.
        record: String,
    },
    /// Results of positions that are not decisions of the tree, or two results of one.
    #[error("the shards hold {held} decisions where the tree has {tree}: not this tree's")]
    Foreign {
        /// Decisions held.
        held: usize,
        /// The tree's decisions.
        tree: usize,
    },
    /// Two shards read one position differently (a result that is not a function of the
    /// position: a bug).
    #[error("two shards read the position of key {0} differently")]
    Disagree(String),
    /// A shard body that does not decode.
    #[error("not a split quantisation part: {0}")]
    Body(&'static str),
}
