//! Step counts per class: what a summary adds up.

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

    /// Steps of `class`.
    pub fn count(&self, class: Class) -> usize {
        self.classes
            .iter()
            .find(|(c, _)| *c == class)
            .map_or(0, |(_, n)| *n)
    }
}
