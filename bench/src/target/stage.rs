//! The test stage: one type for what `--stage` chooses, what a target says it is and what a
//! report's header records.

use std::fmt;
use std::str::FromStr;

/// Where the firmware runs, alone or beside SIL in lockstep (`--compare-sil`).
///
/// Written the way reports have always written it (`SIL`, `PIL`, `HIL`, `SIL=PIL`,
/// `SIL=HIL`); read from that or from the command line's lower case (`sil`, `pil`, `hil`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The firmware application in-process on the emulated board.
    Sil,
    /// The firmware built for the Cortex-M4F, in QEMU, on the emulated board.
    Pil,
    /// A board over probe-rs: a real one, the firmware in QEMU, or the virtual board.
    Hil,
    /// SIL in lockstep with PIL.
    SilPil,
    /// SIL in lockstep with HIL.
    SilHil,
}

/// A stage's name that is none of the five.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown stage {} (expected {chosen})",
    heuristic::Echo(.0),
    chosen = boards::Listed(Stage::CHOSEN.map(Stage::arg), " or ")
)]
pub struct StageError(pub String);

impl Stage {
    /// The stages a run is asked for by name (`--stage`); lockstep is `--compare-sil`.
    pub const CHOSEN: [Stage; 3] = [Stage::Sil, Stage::Pil, Stage::Hil];

    /// SIL in lockstep with this stage (SIL beside PIL or HIL; `None` for SIL or a lockstep
    /// already).
    pub fn beside_sil(self) -> Option<Stage> {
        match self {
            Stage::Pil => Some(Stage::SilPil),
            Stage::Hil => Some(Stage::SilHil),
            _ => None,
        }
    }

    /// The command line's name (`sil`, `pil`, `hil`; `sil=pil` for a lockstep).
    pub fn arg(self) -> String {
        self.to_string().to_ascii_lowercase()
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Sil => "SIL",
            Stage::Pil => "PIL",
            Stage::Hil => "HIL",
            Stage::SilPil => "SIL=PIL",
            Stage::SilHil => "SIL=HIL",
        })
    }
}

impl FromStr for Stage {
    type Err = StageError;

    fn from_str(text: &str) -> Result<Stage, StageError> {
        [
            Stage::Sil,
            Stage::Pil,
            Stage::Hil,
            Stage::SilPil,
            Stage::SilHil,
        ]
        .into_iter()
        .find(|stage| stage.to_string().eq_ignore_ascii_case(text))
        .ok_or_else(|| StageError(text.to_string()))
    }
}

impl serde::Serialize for Stage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Stage {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Stage, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words are the reports' since the first wave: a header written by an older bench
    /// (`"stage":"SIL=PIL"`) reads back as the same stage.
    #[test]
    fn every_stage_reads_back_from_its_words_and_its_json() {
        for (stage, words) in [
            (Stage::Sil, "SIL"),
            (Stage::Pil, "PIL"),
            (Stage::Hil, "HIL"),
            (Stage::SilPil, "SIL=PIL"),
            (Stage::SilHil, "SIL=HIL"),
        ] {
            assert_eq!(stage.to_string(), words);
            assert_eq!(words.parse::<Stage>(), Ok(stage));
            assert_eq!(words.to_lowercase().parse::<Stage>(), Ok(stage));
            let json = serde_json::to_string(&stage).unwrap();
            assert_eq!(json, format!("\"{words}\""));
            assert_eq!(serde_json::from_str::<Stage>(&json).unwrap(), stage);
        }
    }

    #[test]
    fn an_unknown_stage_is_named() {
        let e = "qemu".parse::<Stage>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown stage `qemu` (expected sil, pil or hil)"
        );
        assert!(serde_json::from_str::<Stage>("\"SIL+PIL\"").is_err());
    }

    #[test]
    fn lockstep_puts_sil_beside_an_emulated_or_real_board_only() {
        assert_eq!(Stage::Pil.beside_sil(), Some(Stage::SilPil));
        assert_eq!(Stage::Hil.beside_sil(), Some(Stage::SilHil));
        assert_eq!(Stage::Sil.beside_sil(), None);
        assert_eq!(Stage::SilPil.beside_sil(), None);
        assert_eq!(Stage::CHOSEN.map(Stage::arg), ["sil", "pil", "hil"]);
    }
}
