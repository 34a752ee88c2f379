//! The core's one hook for a campaign: a stop at an instruction count and what runs there
//! (the glitch trials arm it); the core knows no campaign.

use crate::board::ResetCause;
use crate::elf::Elf;
use crate::stop::Stop;

use super::Core;

/// What runs at an [`Instant`]: the campaign's hook, given the core stopped there.
pub type Hook = fn(&mut Core<'_>, &Elf) -> Result<(), Stop>;

/// A stop at an instruction count, the core's one hook for a campaign: the block hook stops
/// before the block that would run past [`Instant::at`], and the run calls [`Instant::hook`]
/// there (which may execute the rest exactly, and arm the next instant).
pub struct Instant {
    /// The instruction count (`u64::MAX`: never).
    pub at: u64,
    /// The block hook stopped before it: the hook is due.
    pub(super) due: bool,
    /// What runs at the instant.
    pub hook: Option<Hook>,
    /// The first reset of the chip since the instant was armed, and why.
    pub first_reset: Option<ResetCause>,
    /// The campaign's own state, which its hook reads and writes.
    pub data: Option<Box<dyn std::any::Any>>,
}

impl Default for Instant {
    fn default() -> Self {
        Instant {
            at: u64::MAX,
            due: false,
            hook: None,
            first_reset: None,
            data: None,
        }
    }
}

impl Instant {
    /// An instant at `at` running `hook`, with the campaign's `data`.
    pub fn arm(at: u64, hook: Hook, data: Box<dyn std::any::Any>) -> Instant {
        Instant {
            at,
            hook: Some(hook),
            data: Some(data),
            ..Instant::default()
        }
    }
}

impl std::fmt::Debug for Instant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instant")
            .field("at", &self.at)
            .field("due", &self.due)
            .field("first_reset", &self.first_reset)
            .finish_non_exhaustive()
    }
}
