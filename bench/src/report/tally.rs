//! Step counts per class: what a summary adds up, and how it says how many games were played.

use crate::check::{Class, StepLine};

/// Step counts per class.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Games played to their end (or to the board's fault).
    pub games: usize,
    /// Checked steps.
    pub steps: usize,
    /// Steps per class, in [`Class`] order.
    pub classes: Vec<(Class, usize)>,
    /// Guided moves whose codes did not fit until the operator fixed the cage.
    #[serde(default)]
    pub misfits: usize,
}

impl Tally {
    /// Counts one step.
    pub fn add(&mut self, step: &StepLine) {
        self.steps += 1;
        match self.classes.iter_mut().find(|(c, _)| *c == step.class) {
            Some((_, n)) => *n += 1,
            None => {
                self.classes.push((step.class, 1));
                self.classes.sort_by_key(|(c, _)| *c as u8);
            }
        }
    }

    /// Steps that failed their game ([`Class::is_failure`]).
    pub fn failures(&self) -> usize {
        self.classes
            .iter()
            .filter(|(c, _)| c.is_failure())
            .map(|(_, n)| n)
            .sum()
    }

    /// Steps of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.classes
            .iter()
            .find(|(c, _)| *c == class)
            .map_or(0, |(_, n)| *n)
    }
}

/// How a tree scenario's name begins (`run`'s tree scenario names it so): a tree's games
/// are not planned but grow as it goes, one branch a game, so no count of them is known
/// before the run ends.
pub const TREE: &str = "tree";

/// The summary's words for the games played: `3 of 1000 planned games played` for a list of
/// games (`planned` is the header's count), `781 games played (a tree: its games grow as it
/// goes)` for a tree (whose header counts only the root).
pub fn games_played(scenario: &str, played: usize, planned: usize) -> String {
    let games = |n: usize| if n == 1 { "game" } else { "games" };
    if scenario.starts_with(TREE) {
        format!(
            "{played} {} played (a tree: its games grow as it goes)",
            games(played)
        )
    } else {
        format!("{played} of {planned} planned {} played", games(planned))
    }
}

#[cfg(test)]
mod tests {
    use super::games_played;

    #[test]
    fn a_tree_has_no_plan_and_a_list_has_one() {
        assert_eq!(
            games_played("tree3", 781, 1),
            "781 games played (a tree: its games grow as it goes)"
        );
        assert_eq!(
            games_played("random4 (1000 games, seed 3)", 1000, 1000),
            "1000 of 1000 planned games played"
        );
        assert_eq!(
            games_played("records games.txt", 1, 1),
            "1 of 1 planned game played"
        );
        assert_eq!(
            games_played("guided3 (5 games, seed 0)", 2, 5),
            "2 of 5 planned games played"
        );
    }
}
