//! What a report says it is: the run's header line (what was run, on what, and the digests of
//! what it read), a guided game's misfit, and the words for two headers that differ.

use super::*;

/// What was run, on what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// SIL, PIL or HIL.
    pub stage: crate::dut::Setup,
    /// The firmware's version, as it identified itself.
    pub firmware: String,
    /// The board profile, as it identified itself.
    pub board: String,
    /// The profile the bench predicted with, when not the board's own name: a profile file
    /// (whose board the bench models while the firmware runs its base). `calibrate` reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The emulated board's parts seed (SIL/PIL), if any.
    pub board_seed: Option<u64>,
    /// The scenario.
    pub scenario: String,
    /// Board size.
    pub size: u8,
    /// Games in the scenario.
    pub games: usize,
    /// What the run depends on beyond its options, so `--resume` can refuse to mix two
    /// boards, two firmwares or two records files under the same names.
    #[serde(default)]
    pub depends: Depends,
}

/// SHA-256 digests (hex) of what a run reads, for [`Header::depends`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Depends {
    /// The board the bench predicts with: its validated profile, built-in or from a file
    /// (so a file's comments may change, its values may not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_sha256: Option<String>,
    /// The firmware ELF run in QEMU or flashed (PIL, HIL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elf_sha256: Option<String>,
    /// The records file of a `records:FILE` scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records_sha256: Option<String>,
    /// The `virtual-board` binary a run on the virtual board (`--probe virtual`) starts: its
    /// model of the chip and of the visitor decides what the firmware sees and how a glitch
    /// trial is judged, so two builds of it are two specs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_board_sha256: Option<String>,
    /// QEMU's version (its `--version`'s first line) when the firmware runs in QEMU (PIL, or
    /// HIL through QEMU's gdbstub): another QEMU is another machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qemu: Option<String>,
}

impl Depends {
    /// The digest of the board the bench predicts with: its validated values, whatever
    /// their source.
    pub fn profile(profile: &boards::Profile) -> String {
        chain::digest(format!("{profile:?}").as_bytes())
    }

    /// The digest of a file's bytes (an ELF, a records file).
    pub fn file(bytes: &[u8]) -> String {
        chain::digest(bytes)
    }
}

/// A guided game's cage that did not fit the position the operator was asked to make: kept
/// so the report shows every correction, not only the game played once it was fixed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Misfit {
    /// 0-based game.
    pub game: usize,
    /// The moves up to and including the one the operator was asked to make.
    pub record: String,
    /// The node codes measured.
    pub codes: Vec<u16>,
    /// Which nodes were off their band, and by how much.
    pub why: String,
}

/// Fields of two headers that differ, as `field: this run's value, the report's value`; what
/// the run depends on ([`Depends`]) in words, with the digests' first 12 digits.
pub(super) fn differences(ours: &Header, theirs: &Header) -> String {
    fn flat(value: serde_json::Value) -> BTreeMap<String, serde_json::Value> {
        let mut out = BTreeMap::new();
        if let serde_json::Value::Object(map) = value {
            for (key, value) in map {
                match value {
                    serde_json::Value::Object(_) => out.extend(
                        flat(value)
                            .into_iter()
                            .map(|(k, v)| (format!("{key}.{k}"), v)),
                    ),
                    value => {
                        out.insert(key, value);
                    }
                }
            }
        }
        out
    }
    let (Ok(a), Ok(b)) = (serde_json::to_value(ours), serde_json::to_value(theirs)) else {
        return "its header".to_string();
    };
    let (a, b) = (flat(a), flat(b));
    let null = serde_json::Value::Null;
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k).unwrap_or(&null) != b.get(*k).unwrap_or(&null))
        .map(|k| {
            let (here, there) = (a.get(k).unwrap_or(&null), b.get(k).unwrap_or(&null));
            let what = match k.as_str() {
                "depends.profile_sha256" => Some("the board profile's values changed"),
                "depends.elf_sha256" => Some("the firmware ELF changed"),
                "depends.records_sha256" => Some("the records file changed"),
                "depends.virtual_board_sha256" => Some("the virtual-board binary changed"),
                _ => None,
            };
            let short = |v: &serde_json::Value| match v.as_str() {
                Some(d) => d.get(..12).unwrap_or(d).to_string(),
                None => "not recorded".to_string(),
            };
            match what {
                Some(what) => format!(
                    "{what} (sha256 {} here, {} in the report)",
                    short(here),
                    short(there)
                ),
                None => format!("{k}: {here} here, {there} in the report"),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}
