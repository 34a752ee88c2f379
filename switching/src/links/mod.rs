//! Every minimal weak link on N vertices, up to isomorphism, as Steane searched for them:
//! nauty's `geng` lists the connected graphs, the [sieve](crate::link::sieve) keeps the
//! terminal pairs that might carry one, the [solver](crate::link::solve) decides, and
//! `labelg` keeps one link per isomorphism class (the terminals a colour class of their own,
//! so swapping them is an isomorphism).
//!
//! The search splits into independent parts with geng's `res/mod`: [`run_shard`] runs one,
//! [`LinksShard`]'s text form stores it, and [`merge`] makes the report from all of them, so the
//! parts of a large run can go to a cluster as a job array and come back as files.
//! [`reference::search`] is the same report by another road, for tests and CI to hold the
//! split and the merge against.

mod canonical;
mod direct;
pub mod hook;
pub mod paper;
pub mod reference;
mod report;
mod run;
mod shard;
mod store;

pub use canonical::{Canonical, canonical_forms};
pub use direct::strong_links_shard;
pub use report::{Report, Spread, WeakLink, merge};
pub use run::{run_shard, small_adjacency};
pub use shard::{Found, LinksShard, ShardId, ShardIdError};
pub use store::{
    StoredShardError, links_job, load_shards, save_shard, shard_from_body, shard_path,
    stored_shards,
};

use crate::enumerate::NautyError;

/// The most vertices a search takes (geng's graphs on 12 vertices number 1.6 × 10^11).
pub const MAX_VERTICES: usize = 12;

/// The number of connected graphs on n vertices, n = 0..=[`MAX_VERTICES`] (OEIS A001349),
/// for progress bars and to check that every part came back.
pub const CONNECTED_GRAPHS: [u64; MAX_VERTICES + 1] = crate::enumerate::CONNECTED;

/// Why a search or a merge failed.
#[derive(Debug, thiserror::Error)]
pub enum LinksError {
    /// nauty failed.
    #[error(transparent)]
    Nauty(#[from] NautyError),
    /// Vertex count out of range.
    #[error("{0} vertices: the search takes 3 to {MAX_VERTICES}")]
    Vertices(usize),
    /// A part file that does not read.
    #[error("line {line}: {message}")]
    PartFile {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Parts of different searches, or missing ones.
    #[error("{0}")]
    Parts(String),
    /// The reference run with a geng that prunes.
    #[error(
        "the reference reads every connected graph, and the geng on PATH has the PRUNE hook \
         (it lists fewer): run it with Debian's geng"
    )]
    PrunedReference,
}
