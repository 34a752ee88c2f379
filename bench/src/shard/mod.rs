//! The bench's long runs in shards, on the `shards` crate's model: the games of a scenario
//! on one board or on a sweep of drawn boards ([`games`]), the glitch campaign ([`glitches`],
//! feature `probe`) and the fault campaigns
//! ([`faults`]). A shard is a pure function of (the run's `RunSpec`, its index), so the shards
//! of one run may be played on any machine, in any order, any number of times; the merge
//! writes the report a one-process run writes, byte for byte.

pub mod faults;
pub mod games;
#[cfg(feature = "probe")]
pub mod glitches;
pub mod seeds;
pub mod sweep;

/// Makes the report folder `dir` if missing; refuses a path that is not a folder.
pub fn folder(dir: &std::path::Path) -> Result<(), crate::ReportError> {
    if dir.exists() && !dir.is_dir() {
        return Err(crate::ReportError::NotAFolder(dir.to_path_buf()));
    }
    shards::safe::create_dir_all(dir).map_err(|e| crate::report::file_error(e, dir))
}

/// Locks the report folder `dir` (made if missing) for a one-process run, `command` saying
/// which: a second run into it, a shard or a merge is refused while this one holds it, naming
/// its process id, host and command. It is the shard model's folder lock, the one every
/// shard task and merge respects; it dies with the process.
pub fn lock(dir: &std::path::Path, command: &str) -> Result<shards::Lock, crate::ReportError> {
    folder(dir)?;
    Ok(shards::lock_folder(dir, command)?)
}
