//! The boards the project knows, looked up by name.

use core::fmt;

use crate::{ARDUINO_MEGA, NUCLEO_F446RE, Profile};

/// Every known profile, in the order listings show them.
pub static PROFILES: &[&Profile] = &[&ARDUINO_MEGA, &NUCLEO_F446RE];

/// Bytes of the unknown name kept in [`UnknownBoard`]; longer names are cut at a character
/// boundary and shown with `…`. Control characters are kept escaped (`\n`), so that the error
/// stays one line whatever the name (a profile file's `base` may hold a newline).
pub const UNKNOWN_NAME_CAPACITY: usize = 24;

/// A board name that is not in [`PROFILES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("unknown board `{name}{}` (expected {})", if *.truncated { "…" } else { "" }, KnownNames)]
pub struct UnknownBoard {
    name: heapless::String<UNKNOWN_NAME_CAPACITY>,
    truncated: bool,
}

impl UnknownBoard {
    /// The name asked for, control characters escaped, possibly cut to
    /// [`UNKNOWN_NAME_CAPACITY`] bytes.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether [`UnknownBoard::name`] was cut.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    fn new(text: &str) -> UnknownBoard {
        let (name, truncated) = heuristic::escaped(text);
        UnknownBoard { name, truncated }
    }
}

/// The profile called `name` (ASCII case ignored).
///
/// ```
/// let nucleo = boards::by_name("nucleo-f446re").unwrap();
/// assert_eq!(nucleo.probe_rs_chip, Some("STM32F446RETx"));
/// assert_eq!(
///     boards::by_name("uno").unwrap_err().to_string(),
///     "unknown board `uno` (expected arduino-mega or nucleo-f446re)"
/// );
/// ```
pub fn by_name(name: &str) -> Result<&'static Profile, UnknownBoard> {
    PROFILES
        .iter()
        .copied()
        .find(|profile| profile.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| UnknownBoard::new(name))
}

/// The registry's names, as "a or b" / "a, b or c".
struct KnownNames;

impl fmt::Display for KnownNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = PROFILES.len().saturating_sub(1);
        for (i, profile) in PROFILES.iter().enumerate() {
            let separator = match i {
                0 => "",
                i if i == last => " or ",
                _ => ", ",
            };
            write!(f, "{separator}{}", profile.name)?;
        }
        Ok(())
    }
}
