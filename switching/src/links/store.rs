//! Parts kept as shard files ([`shards`]): written whole or not at all with the search's spec
//! hash, read back only whole and only into the same search, so an interrupted search
//! resumes and a cluster's parts come back.

use std::path::{Path, PathBuf};

use serde::Serialize;
use shards::{Job, ShardError};

use super::{LinksError, LinksShard, ShardId};

/// What a search computes: its spec, hashed into every part's file.
#[derive(Serialize)]
struct Spec<'a> {
    vertices: usize,
    /// geng's version ([`crate::enumerate::geng_version`]): the graphs a part lists are its.
    geng: &'a str,
    /// With a pruned geng, the sha256 of the prune.c it was built from ([`super::hook`]):
    /// what it drops. Absent otherwise, so a plain search's spec hash is what it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    prune_c_sha256: Option<&'a str>,
}

/// The search on `vertices` vertices as a sharded job named `links-N`, its graphs listed by
/// `geng` (its version line) built with the hook of `prune_c_sha256` if any
/// ([`super::hook::checked_on_path`]), computed by `version` of the program, run by `command`
/// (the one-process command line).
pub fn links_job(
    vertices: usize,
    geng: &str,
    prune_c_sha256: Option<&str>,
    version: &str,
    command: Vec<String>,
) -> Job {
    Job::new(
        &format!("links-{vertices}"),
        &Spec {
            vertices,
            geng,
            prune_c_sha256,
        },
        version,
        command,
    )
}

/// The file of part `id` in `dir`.
pub fn shard_path(dir: &Path, job: &Job, id: ShardId) -> PathBuf {
    shards::shard_path(dir, job, id)
}

/// Writes a part's file whole or not at all.
pub fn save_shard(dir: &Path, job: &Job, part: &LinksShard) -> Result<PathBuf, shards::FileError> {
    shards::write_shard(dir, job, part.id, part.to_string().as_bytes())
}

/// Why stored parts could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoredShardError {
    /// Missing, repeated, corrupt or foreign shard files.
    #[error(transparent)]
    Shards(#[from] ShardError),
    /// A whole shard whose body is not a part of this search.
    #[error("{path}: {error}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: LinksError,
    },
}

/// Reads a part from its shard body; it must be part `id` of `vertices` vertices.
pub fn shard_from_body(
    path: &Path,
    body: &[u8],
    vertices: usize,
    id: ShardId,
) -> Result<LinksShard, StoredShardError> {
    let bad = |error| StoredShardError::Bad {
        path: path.to_path_buf(),
        error,
    };
    let text = std::str::from_utf8(body).map_err(|_| {
        bad(LinksError::PartFile {
            line: 1,
            message: "not text".into(),
        })
    })?;
    let part: LinksShard = text.parse().map_err(bad)?;
    if part.vertices != vertices || part.id != id {
        return Err(bad(LinksError::Parts(format!(
            "holds part {} on {} vertices, not part {id} on {vertices}",
            part.id, part.vertices
        ))));
    }
    Ok(part)
}

/// The parts of a split into `count` already whole in `dir`, by index; files of another
/// search or corrupt ones refuse the run (a resumed run must not mix them in).
pub fn stored_shards(
    dir: &Path,
    job: &Job,
    vertices: usize,
    count: u32,
) -> Result<Vec<Option<LinksShard>>, StoredShardError> {
    let survey = shards::survey(dir, job, count)?;
    if let Some(e) = survey.refused.into_iter().next() {
        return Err(e.into());
    }
    let mut out: Vec<Option<LinksShard>> = vec![None; count as usize];
    for (k, (path, body)) in survey.done {
        let id = ShardId { index: k, count };
        out[k as usize - 1] = Some(shard_from_body(&path, &body, vertices, id)?);
    }
    Ok(out)
}

/// Every part of a split into `count` from `dir`, in order: each whole, once, of this search.
pub fn load_shards(
    dir: &Path,
    job: &Job,
    vertices: usize,
    count: u32,
) -> Result<Vec<LinksShard>, StoredShardError> {
    let bodies = shards::read_shards(dir, job, count)?;
    bodies
        .iter()
        .zip(ShardId::all(count))
        .map(|(body, id)| shard_from_body(&shard_path(dir, job, id), body, vertices, id))
        .collect()
}
