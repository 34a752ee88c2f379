//! `--fail-on CLASS,...`: the classes of a campaign's trials that fail the run. A campaign
//! measures failures (faults the firmware misses, glitches it shows), so its exit status
//! says whether the measurement met the criterion a team sets, not whether faults happened.

use std::str::FromStr;

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
    pub fn check(&self, classes: &[&str], scenario: &str) -> Result<(), NotAClass> {
        match self.0.iter().find(|w| !classes.contains(&w.as_str())) {
            Some(unknown) => Err(NotAClass {
                word: heuristic::Echo(unknown).to_string(),
                scenario: scenario.to_string(),
                classes: classes.join(", "),
            }),
            None => Ok(()),
        }
    }

    /// The criterion as the command line gives it: `--fail-on late,silent`, `--fail-on none`.
    fn option(&self) -> String {
        match self.0.is_empty() {
            true => "--fail-on none".into(),
            false => format!("--fail-on {}", self.0.join(",")),
        }
    }

    /// The verdict as the report's last line says it: `passed: ...` or `failed: ...`.
    pub fn line<'a>(&self, trials: impl IntoIterator<Item = &'a str>) -> String {
        match self.judge(trials) {
            Ok(held) => format!("passed: {held}"),
            Err(hit) => format!("failed: {hit}"),
        }
    }

    /// What the criterion found in words: a pass (`Ok`) says which classes none of the
    /// trials fell in and the option that named them; a failure, how many fell in each.
    pub fn judge<'a>(&self, trials: impl IntoIterator<Item = &'a str>) -> Result<String, String> {
        let mut counts: Vec<(&str, usize)> = self.0.iter().map(|w| (w.as_str(), 0)).collect();
        let mut all = 0usize;
        for word in trials {
            all += 1;
            if let Some((_, n)) = counts.iter_mut().find(|(w, _)| *w == word) {
                *n += 1;
            }
        }
        let hit: Vec<String> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(w, n)| format!("{n} {w}"))
            .collect();
        let trials = match all {
            1 => "1 trial".to_string(),
            n => format!("{} trials", grouped(n)),
        };
        if !hit.is_empty() {
            return Err(format!("{}: {}", self.option(), hit.join(", ")));
        }
        Ok(match self.0.split_last() {
            None => format!(
                "{trials} measured, no class fails the campaign ({})",
                self.option()
            ),
            Some((last, [])) => format!("none of {trials} {last} ({})", self.option()),
            Some((last, rest)) => format!(
                "none of {trials} {} or {last} ({})",
                rest.join(", "),
                self.option()
            ),
        })
    }
}

/// A count with its thousands grouped by commas (`1,234`), as every count the bench prints.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A `--fail-on` word that is none of the campaign's classes.
#[derive(Debug, thiserror::Error)]
#[error(
    "--fail-on: {word} is not a class of --scenario {scenario} (its classes: {classes}, or none)"
)]
pub struct NotAClass {
    /// The word, as given.
    word: String,
    /// The campaign.
    scenario: String,
    /// Its classes, in words.
    classes: String,
}

#[cfg(test)]
mod tests {
    use super::FailOn;

    #[test]
    fn a_named_class_fails_and_others_pass() {
        let fail: FailOn = "silent,hang".parse().unwrap();
        assert_eq!(
            fail.judge(["no-effect", "detected"]),
            Ok("none of 2 trials silent or hang (--fail-on silent,hang)".into())
        );
        assert_eq!(
            fail.judge(["detected", "silent", "silent", "hang"]),
            Err("--fail-on silent,hang: 2 silent, 1 hang".into())
        );
        let none: FailOn = "none".parse().unwrap();
        assert_eq!(
            none.judge(["silent"]),
            Ok("1 trial measured, no class fails the campaign (--fail-on none)".into())
        );
        let late: FailOn = "late,silent,stopped".parse().unwrap();
        assert_eq!(
            late.judge(std::iter::repeat_n("detected", 1234)),
            Ok(
                "none of 1,234 trials late, silent or stopped (--fail-on late,silent,stopped)"
                    .into()
            )
        );
        assert_eq!(super::grouped(1_234_567), "1,234,567");
        assert_eq!(super::grouped(999), "999");
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
