//! The bench's long runs in shards, on the `shards` crate's model: the games of a scenario
//! on one board or on a sweep of drawn boards ([`games`]), and the fault campaigns
//! ([`faults`]). A shard is a pure function of (the run's [`Spec`], its index), so the shards
//! of one run may be played on any machine, in any order, any number of times; the merge
//! writes the report a one-process run writes, byte for byte.

pub mod faults;
pub mod games;
pub mod seeds;
pub mod sweep;

use serde::Serialize;

use crate::report::Depends;

/// Everything that decides a bench run's bytes: its shards' spec hash is made of it (with the
/// bench's version), so a shard of another run is never merged into this one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spec {
    /// `sil`, `pil` or `hil` (as the command line writes it).
    #[serde(serialize_with = "lower_case")]
    pub stage: crate::Stage,
    /// The HIL probe (`virtual`, `qemu`, a probe or chip).
    pub probe: Option<crate::Probe>,
    /// PIL's link (`semihosting`, `rtt`).
    pub link: Option<crate::Link>,
    /// SIL in lockstep.
    pub compare_sil: bool,
    /// The scenario as named (`random4`, `faults`, `records:FILE`).
    pub scenario: crate::ScenarioKind,
    /// `--games`.
    pub games: Option<u32>,
    /// `--seed`.
    pub seed: u64,
    /// `--size`.
    pub size: Option<u32>,
    /// `--board`.
    pub board: String,
    /// `--board-seed`.
    pub board_seed: Option<u64>,
    /// `--board-seeds`.
    pub board_seeds: Option<seeds::BoardSeeds>,
    /// The board profile's, firmware's and records file's digests.
    pub depends: Depends,
}

/// A stage as the command line writes it (`sil`): a spec's bytes, and so its hash, are
/// those of the options given.
fn lower_case<S: serde::Serializer>(
    stage: &crate::Stage,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&stage.arg())
}

impl Spec {
    /// The shard files' stem: `bench-` and the scenario's kind.
    pub fn job_name(&self) -> String {
        let scenario = self.scenario.to_string();
        let kind = match scenario.split_once(':') {
            Some((kind, _)) => kind,
            None => &scenario,
        };
        let kind: String = kind
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let sweep = if self.board_seeds.is_some() {
            "-sweep"
        } else {
            ""
        };
        // The virtual board's faults are the board's, not the cage's: files of their own.
        let board = match self.probe {
            Some(crate::Probe::Virtual) if kind == "faults" => "board-",
            _ => "",
        };
        format!("bench-{board}{kind}{sweep}")
    }

    /// The run as a shard job: its name, spec hash (this spec and `version`, the running
    /// program's, with the commit it was built from) and `command`, the one-process command
    /// line (program first, with `--out DIR`).
    pub fn job(&self, command: Vec<String>, version: &str) -> shards::Job {
        shards::Job::new(&self.job_name(), self, version, command)
    }
}

/// Makes the report folder `dir` if missing; refuses a path that is not a folder.
pub fn folder(dir: &std::path::Path) -> Result<(), crate::ReportError> {
    if dir.exists() && !dir.is_dir() {
        return Err(crate::ReportError::NotAFolder(dir.to_path_buf()));
    }
    std::fs::create_dir_all(dir).map_err(|error| crate::ReportError::Io {
        path: dir.to_path_buf(),
        error,
    })
}

/// Locks the report folder `dir` (made if missing) for a one-process run, `command` saying
/// which: a second run into it, a shard or a merge is refused while this one holds it, naming
/// its process id, host and command. It is the shard model's folder lock, the one every
/// shard task and merge respects; it dies with the process.
pub fn lock(dir: &std::path::Path, command: &str) -> Result<shards::Lock, crate::ReportError> {
    folder(dir)?;
    Ok(shards::lock_folder(dir, command)?)
}
