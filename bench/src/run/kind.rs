//! `--scenario`: which games a run plays, by name, and the games it names.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use heuristic::Size;

use super::scenario::{MAX_RECORDS_BYTES, Scenario, ScenarioError};

/// The scenarios by name: the words of [`ScenarioKind::NAMED`], or `records:FILE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioKind {
    /// Every position of the M=3 tree.
    Tree3,
    /// Random M=4 games.
    Random4,
    /// The operator makes the moves on a cage without fixture.
    Guided,
    /// The fault campaign (not games: it writes faults.csv and faults.md).
    Faults,
    /// The glitch campaign on the virtual board (trials: it writes glitches.csv and
    /// glitches.md).
    Glitches,
    /// One game record per line of a file.
    Records(PathBuf),
}

/// A `--scenario` that names none: the error lists [`ScenarioKind::names`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown scenario `{0}` (expected {names})",
    names = boards::Listed(ScenarioKind::names(), " or ")
)]
pub struct UnknownScenario(pub String);

/// Why the games of a scenario could not be made from the run's options.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioChoiceError {
    /// A fixed scenario was given another size.
    #[error("--scenario {name} is M={m}; --size does not apply to it")]
    FixedSize {
        /// The scenario.
        name: &'static str,
        /// Its size.
        m: u32,
    },
    /// A scenario whose games are fixed was given a game count.
    #[error("--scenario {name} {why}; --games does not apply to it")]
    FixedGames {
        /// The scenario.
        name: &'static str,
        /// What decides its games.
        why: &'static str,
    },
    /// The records file could not be read.
    #[error("cannot read records file {}", .file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        #[source]
        source: boards::read::ReadError,
    },
    /// The records file holds no record.
    #[error("records file {} holds no game (one record per line, # comments)", .0.display())]
    Empty(PathBuf),
    /// A record that does not parse or replay.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// `faults` or `glitches` names a campaign, which has no games.
    #[error("--scenario {0} is a campaign, not a list of games")]
    Campaign(&'static str),
}

impl ScenarioKind {
    /// The scenarios named by one word, in the order `--scenario`'s error lists them (then
    /// `records:FILE`): the one table its parser, its words and its error read.
    pub const NAMED: [ScenarioKind; 5] = [
        ScenarioKind::Tree3,
        ScenarioKind::Random4,
        ScenarioKind::Guided,
        ScenarioKind::Faults,
        ScenarioKind::Glitches,
    ];

    /// What comes before the file of a records scenario.
    pub const RECORDS: &'static str = "records:";

    /// Its name: its word, or `records:FILE` (the file as a placeholder).
    pub fn name(&self) -> &'static str {
        match self {
            ScenarioKind::Tree3 => "tree3",
            ScenarioKind::Random4 => "random4",
            ScenarioKind::Guided => "guided",
            ScenarioKind::Faults => "faults",
            ScenarioKind::Glitches => "glitches",
            ScenarioKind::Records(_) => "records:FILE",
        }
    }

    /// Every scenario's name, in order: [`ScenarioKind::NAMED`]'s, then `records:FILE`.
    pub fn names() -> impl Iterator<Item = &'static str> + Clone {
        let records = ScenarioKind::Records(std::path::PathBuf::new()).name();
        ScenarioKind::NAMED
            .map(|kind| kind.name())
            .into_iter()
            .chain([records])
    }

    /// The games: `size` is `--size` (M; `guided` and records default to 4), `games` is
    /// `--games` (random4 defaults to 100 games, guided to 1), `seed` draws them. A fixed
    /// scenario refuses a size or count it would ignore.
    pub fn scenario(
        &self,
        size: Option<Size>,
        games: Option<u32>,
        seed: u64,
    ) -> Result<Scenario, ScenarioChoiceError> {
        let fixed = |name: &'static str, m: u32| match size {
            Some(s) if u32::from(s.get()) != m => Err(ScenarioChoiceError::FixedSize { name, m }),
            _ => Ok(Size::new(m).expect("3 and 4 are board sizes")),
        };
        let count = |default: u32| games.unwrap_or(default) as usize;
        let chosen = size.unwrap_or(Size::new(4).expect("4 is a board size"));
        Ok(match self {
            ScenarioKind::Tree3 => {
                let size = fixed(self.name(), 3)?;
                if games.is_some() {
                    return Err(ScenarioChoiceError::FixedGames {
                        name: self.name(),
                        why: "plays every branch of the tree",
                    });
                }
                Scenario::tree(size)
            }
            ScenarioKind::Random4 => Scenario::random(fixed(self.name(), 4)?, count(100), seed),
            ScenarioKind::Guided => Scenario::guided(chosen, count(1), seed),
            ScenarioKind::Records(file) => {
                if games.is_some() {
                    return Err(ScenarioChoiceError::FixedGames {
                        name: self.name(),
                        why: "plays the file's games",
                    });
                }
                let text = boards::read::text(file, MAX_RECORDS_BYTES).map_err(|source| {
                    ScenarioChoiceError::Read {
                        file: file.clone(),
                        source,
                    }
                })?;
                let scenario = Scenario::records(chosen, &text, &file.display().to_string())?;
                if scenario.games.is_empty() {
                    return Err(ScenarioChoiceError::Empty(file.clone()));
                }
                scenario
            }
            ScenarioKind::Faults | ScenarioKind::Glitches => {
                return Err(ScenarioChoiceError::Campaign(self.name()));
            }
        })
    }
}

impl fmt::Display for ScenarioKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioKind::Records(file) => write!(f, "{}{}", ScenarioKind::RECORDS, file.display()),
            named => f.write_str(named.name()),
        }
    }
}

impl FromStr for ScenarioKind {
    type Err = UnknownScenario;

    fn from_str(text: &str) -> Result<ScenarioKind, UnknownScenario> {
        if let Some(named) = ScenarioKind::NAMED.into_iter().find(|k| k.name() == text) {
            return Ok(named);
        }
        match text.strip_prefix(ScenarioKind::RECORDS) {
            Some(file) => Ok(ScenarioKind::Records(file.into())),
            None => Err(UnknownScenario(text.to_string())),
        }
    }
}

impl serde::Serialize for ScenarioKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_reads_back_from_its_name() {
        for name in [
            "tree3",
            "random4",
            "guided",
            "faults",
            "glitches",
            "records:games/a b.txt",
        ] {
            let kind: ScenarioKind = name.parse().unwrap();
            assert_eq!(kind.to_string(), name);
        }
        assert_eq!(
            "records:x.txt".parse::<ScenarioKind>().unwrap(),
            ScenarioKind::Records("x.txt".into())
        );
        let e = "tree4".parse::<ScenarioKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown scenario `tree4` (expected tree3, random4, guided, faults, glitches or records:FILE)"
        );
    }

    #[test]
    fn a_fixed_scenario_refuses_what_it_would_ignore() {
        let m = |m| Size::new(m).ok();
        let e = ScenarioKind::Tree3.scenario(m(4), None, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--scenario tree3 is M=3; --size does not apply to it"
        );
        let e = ScenarioKind::Tree3.scenario(None, Some(5), 1).unwrap_err();
        assert!(e.to_string().contains("--games does not apply"), "{e}");
        assert_eq!(
            ScenarioKind::Tree3
                .scenario(m(3), None, 1)
                .unwrap()
                .size
                .get(),
            3
        );
        let random = ScenarioKind::Random4.scenario(None, None, 1).unwrap();
        assert_eq!((random.size.get(), random.games.len()), (4, 100));
        let guided = ScenarioKind::Guided.scenario(m(5), None, 1).unwrap();
        assert_eq!((guided.size.get(), guided.games.len()), (5, 1));
        assert!(matches!(
            ScenarioKind::Faults.scenario(None, None, 1),
            Err(ScenarioChoiceError::Campaign("faults"))
        ));
    }

    #[test]
    fn a_records_file_is_read_and_an_empty_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("games.txt");
        std::fs::write(&file, "# none\n").unwrap();
        let kind = ScenarioKind::Records(file.clone());
        let e = kind.scenario(None, None, 1).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("holds no game (one record per line, # comments)")
        );
        std::fs::write(&file, "A1,c5\n").unwrap();
        assert_eq!(kind.scenario(None, None, 1).unwrap().games.len(), 1);
        let missing = ScenarioKind::Records(dir.path().join("missing.txt"));
        assert!(matches!(
            missing.scenario(None, None, 1),
            Err(ScenarioChoiceError::Read { .. })
        ));
    }
}
