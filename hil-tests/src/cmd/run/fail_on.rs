//! `--fail-on CLASS,...`: the classes of a campaign's trials that fail the run. A campaign
//! measures failures (faults the firmware misses, glitches it shows), so its exit status
//! says whether the measurement met the criterion a team sets, not whether faults happened.

use std::path::Path;
use std::str::FromStr;

use anyhow::bail;

use crate::exit::Verdict;

/// The class words given to `--fail-on` (`none`: no class fails the campaign).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailOn(Vec<String>);

impl FromStr for FailOn {
    type Err = String;

    fn from_str(text: &str) -> Result<FailOn, String> {
        if text.trim() == "none" {
            return Ok(FailOn(Vec::new()));
        }
        let mut words: Vec<String> = Vec::new();
        for word in text.split(',').map(str::trim) {
            if word.is_empty() {
                return Err(format!(
                    "{} has an empty class (expected CLASS,... or none)",
                    heuristic::Echo(text)
                ));
            }
            if words.iter().any(|w| w == word) {
                return Err(format!("{} is named twice", heuristic::Echo(word)));
            }
            words.push(word.to_string());
        }
        Ok(FailOn(words))
    }
}

impl FailOn {
    /// The default criterion, `words`, for the scenario.
    pub fn of(words: &[&str]) -> FailOn {
        FailOn(words.iter().map(|w| (*w).to_string()).collect())
    }

    /// Whether `word`'s class fails the run.
    pub fn names(&self, word: &str) -> bool {
        self.0.iter().any(|w| w == word)
    }

    /// Refuses a word that is not one of the scenario's classes, naming it and them.
    pub fn check(&self, classes: &[&str], scenario: &str) -> anyhow::Result<()> {
        if let Some(unknown) = self.0.iter().find(|w| !classes.contains(&w.as_str())) {
            bail!(
                "--fail-on: {} is not a class of --scenario {scenario} (its classes: {}, or none)",
                heuristic::Echo(unknown),
                classes.join(", ")
            );
        }
        Ok(())
    }

    /// The campaign's verdict from its trials' class words: failed when any is named.
    pub fn verdict<'a>(&self, trials: impl IntoIterator<Item = &'a str>, out: &Path) -> Verdict {
        let mut counts: Vec<(&str, usize)> = self.0.iter().map(|w| (w.as_str(), 0)).collect();
        for word in trials {
            if let Some((_, n)) = counts.iter_mut().find(|(w, _)| *w == word) {
                *n += 1;
            }
        }
        let hit: Vec<String> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(w, n)| format!("{n} {w}"))
            .collect();
        if hit.is_empty() {
            Verdict::Passed
        } else {
            Verdict::Failed(format!(
                "--fail-on {}: {}; the report is in {}",
                self.0.join(","),
                hit.join(", "),
                out.display()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FailOn;
    use crate::exit::Verdict;
    use std::path::Path;

    #[test]
    fn a_named_class_fails_and_others_pass() {
        let fail: FailOn = "silent,hang".parse().unwrap();
        let out = Path::new("r");
        assert_eq!(
            fail.verdict(["no-effect", "detected"], out),
            Verdict::Passed
        );
        assert_eq!(
            fail.verdict(["detected", "silent", "silent", "hang"], out),
            Verdict::Failed("--fail-on silent,hang: 2 silent, 1 hang; the report is in r".into())
        );
        let none: FailOn = "none".parse().unwrap();
        assert_eq!(none.verdict(["silent"], out), Verdict::Passed);
    }

    #[test]
    fn bad_words_are_refused_by_name() {
        assert!("silent,,hang".parse::<FailOn>().is_err());
        assert!("silent,silent".parse::<FailOn>().is_err());
        let fail: FailOn = "silnt".parse().unwrap();
        let e = fail.check(&["silent", "hang"], "glitches").unwrap_err();
        assert!(e.to_string().contains("silnt"), "{e}");
        assert!(e.to_string().contains("silent, hang"), "{e}");
    }
}
