//! The board a glitch campaign runs on.

/// The board a campaign runs on: `--board` as given (a name or a profile file, which the
/// virtual board reads), the board the bench models and the built-in profile its firmware runs.
#[derive(Clone, Copy, Debug)]
pub struct CampaignBoard<'a> {
    /// `--board` as given.
    pub arg: &'a str,
    /// The board modelled (a profile file's own).
    pub profile: &'static boards::Profile,
    /// The built-in profile the firmware runs.
    pub base: &'static boards::Profile,
    /// The parts' seed.
    pub seed: Option<u64>,
}
