//! The test stage: one type for what `--stage` chooses and where a target's firmware runs,
//! and one for what a report's header records (a stage alone, or SIL beside it in lockstep).

use std::fmt;
use std::str::FromStr;

/// Where the firmware runs: what `--stage` chooses. Lockstep is not a stage but SIL beside
/// one ([`Setup::BesideSil`], `--compare-sil`).
///
/// Written the way reports have always written it (`SIL`, `PIL`, `HIL`); read from that or
/// from the command line's lower case (`sil`, `pil`, `hil`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The firmware application in-process on the emulated board.
    Sil,
    /// The firmware built for the Cortex-M4F, in QEMU, on the emulated board.
    Pil,
    /// A board over probe-rs: a real one, the firmware in QEMU, or the virtual board.
    Hil,
}

/// A stage's name that is none of the three.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown stage {} (expected {all})",
    heuristic::Echo(.0),
    all = boards::Listed(Stage::ALL.map(Stage::arg), " or ")
)]
pub struct StageError(pub String);

impl Stage {
    /// Every stage, in the order `--help` names them.
    pub const ALL: [Stage; 3] = [Stage::Sil, Stage::Pil, Stage::Hil];

    /// SIL in lockstep with this stage (SIL beside PIL or HIL; `None` for SIL itself).
    pub fn beside_sil(self) -> Option<Setup> {
        (self != Stage::Sil).then_some(Setup::BesideSil(self))
    }

    /// The command line's name (`sil`, `pil`, `hil`).
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
        })
    }
}

impl FromStr for Stage {
    type Err = StageError;

    fn from_str(text: &str) -> Result<Stage, StageError> {
        Stage::ALL
            .into_iter()
            .find(|stage| stage.to_string().eq_ignore_ascii_case(text))
            .ok_or_else(|| StageError(text.to_string()))
    }
}

/// What a target is and a report ran on: one stage, or SIL in lockstep beside one
/// (`--compare-sil`), written `SIL=PIL` or `SIL=HIL` as reports always have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setup {
    /// The stage alone.
    Alone(Stage),
    /// SIL in lockstep beside the stage (PIL or HIL), stopping at the first reply that differs.
    BesideSil(Stage),
}

impl Setup {
    /// The stage whose firmware is checked: the one beside SIL in lockstep.
    pub fn stage(self) -> Stage {
        match self {
            Setup::Alone(stage) | Setup::BesideSil(stage) => stage,
        }
    }

    /// Its words in lower case (`sil`, `sil=pil`), as a JUnit suite's name has them.
    pub fn arg(self) -> String {
        self.to_string().to_ascii_lowercase()
    }
}

impl From<Stage> for Setup {
    fn from(stage: Stage) -> Setup {
        Setup::Alone(stage)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setup::Alone(stage) => write!(f, "{stage}"),
            Setup::BesideSil(stage) => write!(f, "{}={stage}", Stage::Sil),
        }
    }
}

impl FromStr for Setup {
    type Err = StageError;

    /// `SIL`, `PIL`, `HIL`, or `SIL=PIL`/`SIL=HIL` (a report's header), in any case.
    fn from_str(text: &str) -> Result<Setup, StageError> {
        let unknown = || StageError(text.to_string());
        match text.split_once('=') {
            None => text.parse().map(Setup::Alone),
            Some((sil, stage)) if sil.eq_ignore_ascii_case("sil") => stage
                .parse::<Stage>()
                .ok()
                .and_then(Stage::beside_sil)
                .ok_or_else(unknown),
            Some(_) => Err(unknown()),
        }
    }
}

/// Both types are written in JSON as their words.
macro_rules! serde_as_words {
    ($type:ty) => {
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<$type, D::Error> {
                let text = String::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_as_words!(Stage);
serde_as_words!(Setup);

#[cfg(test)]
mod tests {
    use super::*;

    /// The words are the reports' since the first wave: a header written by an older bench
    /// (`"stage":"SIL=PIL"`) reads back as the same setup.
    #[test]
    fn every_setup_reads_back_from_its_words_and_its_json() {
        for (setup, words) in [
            (Setup::Alone(Stage::Sil), "SIL"),
            (Setup::Alone(Stage::Pil), "PIL"),
            (Setup::Alone(Stage::Hil), "HIL"),
            (Setup::BesideSil(Stage::Pil), "SIL=PIL"),
            (Setup::BesideSil(Stage::Hil), "SIL=HIL"),
        ] {
            assert_eq!(setup.to_string(), words);
            assert_eq!(words.parse::<Setup>(), Ok(setup));
            assert_eq!(words.to_lowercase().parse::<Setup>(), Ok(setup));
            let json = serde_json::to_string(&setup).unwrap();
            assert_eq!(json, format!("\"{words}\""));
            assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
        }
    }

    /// A configuration's stage is one of three: lockstep is `--compare-sil`, not a stage, so
    /// `"stage":"SIL=PIL"` in a configuration is refused.
    #[test]
    fn an_unknown_stage_is_named() {
        let e = "qemu".parse::<Stage>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown stage `qemu` (expected sil, pil or hil)"
        );
        assert!(serde_json::from_str::<Stage>("\"SIL=PIL\"").is_err());
        for bad in ["SIL+PIL", "SIL=SIL", "PIL=HIL", "SIL=", "=PIL"] {
            assert!(bad.parse::<Setup>().is_err(), "{bad}");
        }
    }

    #[test]
    fn lockstep_puts_sil_beside_an_emulated_or_real_board_only() {
        assert_eq!(Stage::Pil.beside_sil(), Some(Setup::BesideSil(Stage::Pil)));
        assert_eq!(Stage::Hil.beside_sil(), Some(Setup::BesideSil(Stage::Hil)));
        assert_eq!(Stage::Sil.beside_sil(), None);
        assert_eq!(Stage::ALL.map(Stage::arg), ["sil", "pil", "hil"]);
        assert_eq!(Setup::BesideSil(Stage::Hil).stage(), Stage::Hil);
    }
}
