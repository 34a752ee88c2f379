//! The classes a glitch trial is judged into, by what the visitor saw, and their words.

/// What the visitor saw in a trial, judged press by press against the intact game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GlitchClass {
    /// The same moves and verdict as the intact game.
    NoEffect,
    /// Noticed (the self-check's fault pattern, a panic, the watchdog, LEDs that show no
    /// move, a core fault) before any wrong move or verdict was shown.
    Detected,
    /// A wrong move or verdict shown, then noticed (or the machine stopped showing moves).
    Late,
    /// A wrong move or verdict shown, and nothing ever noticed.
    Silent,
    /// No wrong move shown, then no progress: no verdict, the watchdog not fed, no reset.
    Stopped,
    /// No wrong move shown, then still running and feeding its watchdog past the limit.
    Slow,
}

impl GlitchClass {
    /// The tables' columns.
    pub const ALL: [GlitchClass; 6] = [
        GlitchClass::NoEffect,
        GlitchClass::Detected,
        GlitchClass::Late,
        GlitchClass::Silent,
        GlitchClass::Stopped,
        GlitchClass::Slow,
    ];

    /// Every [`GlitchClass::word`], as `--fail-on` lists them.
    pub const WORDS: [&'static str; 6] =
        ["no-effect", "detected", "late", "silent", "stopped", "slow"];

    /// Its one word on a command line (`--fail-on late,silent`).
    pub const fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }

    /// Its name in the CSV's `class` column and the tables.
    pub fn name(self) -> &'static str {
        match self {
            GlitchClass::NoEffect => "no effect",
            GlitchClass::Detected => "detected",
            GlitchClass::Late => "late",
            GlitchClass::Silent => "silent",
            GlitchClass::Stopped => "stopped",
            GlitchClass::Slow => "slow",
        }
    }

    /// Whether the visitor was shown a wrong move or verdict.
    pub fn showed_a_wrong_move(self) -> bool {
        matches!(self, GlitchClass::Late | GlitchClass::Silent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_one_word_and_one_name() {
        for class in GlitchClass::ALL {
            assert_eq!(GlitchClass::WORDS[class as usize], class.word());
        }
        let names: Vec<&str> = GlitchClass::ALL.map(GlitchClass::name).to_vec();
        // The words, exactly (the CSV's `class` column).
        assert_eq!(
            names,
            ["no effect", "detected", "late", "silent", "stopped", "slow"]
        );
    }
}
