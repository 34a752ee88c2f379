//! Button debouncing by integration: the raw level must agree for a number of consecutive
//! samples before the debounced state follows it.

/// A change of the debounced state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Transition {
    /// The button went down.
    Pressed,
    /// The button came up.
    Released,
}

/// An integrating debouncer: a counter climbs by one per pressed sample and falls by one per
/// released sample, saturating at 0 and `threshold`; the state flips only at the ends. Bounce
/// shorter than `threshold` samples never flips it, and a press needs a release before the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Debouncer {
    threshold: u8,
    count: u8,
    pressed: bool,
}

impl Debouncer {
    /// Mechanical push buttons bounce for up to about 10 ms; sampled every millisecond, 20
    /// agreeing samples are comfortably past that and still feel immediate.
    pub const DEFAULT_THRESHOLD: u8 = 20;

    /// A debouncer that needs `threshold` (at least 1) agreeing samples; starts released.
    pub fn new(threshold: u8) -> Debouncer {
        Debouncer {
            threshold: threshold.max(1),
            count: 0,
            pressed: false,
        }
    }

    /// The debounced state.
    pub fn is_pressed(&self) -> bool {
        self.pressed
    }

    /// Feeds one raw sample (`true` = pressed); returns the transition it completes, if any.
    pub fn update(&mut self, raw_pressed: bool) -> Option<Transition> {
        self.count = if raw_pressed {
            (self.count + 1).min(self.threshold)
        } else {
            self.count.saturating_sub(1)
        };
        if !self.pressed && self.count == self.threshold {
            self.pressed = true;
            Some(Transition::Pressed)
        } else if self.pressed && self.count == 0 {
            self.pressed = false;
            Some(Transition::Released)
        } else {
            None
        }
    }
}

impl Default for Debouncer {
    fn default() -> Debouncer {
        Debouncer::new(Debouncer::DEFAULT_THRESHOLD)
    }
}
