//! The glitch campaign's plan (`--trials`, `--seed`, `--window`, `--kinds`) and its draws:
//! apart from the campaign, which needs the virtual board (feature `probe`), so that a run's
//! spec (`RunSpec`) holds it in every build.

use boards::virtual_board::{Glitch, GlitchKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The stream of `--seed` the glitches are drawn from (`litch` in ASCII): not the games' (stream 0,
/// `run::scenario::game_rng`), so a seed never draws the same numbers for both.
const GLITCH_STREAM: u64 = 0x006c_6974_6368;
/// The part of the intact game a campaign draws its instants from, in whole percent of its
/// length on each kind's clock (`--window FROM..TO`; the whole game, `0..100`, unless it is given). Uniform
/// instants over the whole game land mostly in the start-up's threshold solving and the
/// self-check; the machine decides its late cuts in the game's last part (85..100 puts about
/// a quarter of the instants in the heuristic's code, against 4 % over the whole game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// First percent.
    pub from: u8,
    /// Percent the window ends before.
    pub to: u8,
}

impl Window {
    /// The whole game.
    pub const WHOLE: Window = Window { from: 0, to: 100 };

    /// The instants of a game of `instructions` the window holds.
    pub fn instants(self, instructions: u64) -> std::ops::Range<u64> {
        let at = |percent: u8| instructions * u64::from(percent) / 100;
        let start = at(self.from);
        start..at(self.to).max(start + 1)
    }
}

/// A `--window` that is not `FROM..TO` with 0 <= FROM < TO <= 100.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a window of the game: FROM..TO in whole percent, 0 <= FROM < TO <= 100 (85..100: the last 15 %)"
)]
pub struct WindowError(String);

impl std::str::FromStr for Window {
    type Err = WindowError;

    fn from_str(text: &str) -> Result<Window, WindowError> {
        let bad = || WindowError(text.to_string());
        let (from, to) = text.split_once("..").ok_or_else(bad)?;
        let percent = |t: &str| t.parse::<u8>().ok().filter(|&p| p <= 100);
        match (percent(from), percent(to)) {
            (Some(from), Some(to)) if from < to => Ok(Window { from, to }),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Window {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.from, self.to)
    }
}

/// The fault kinds a campaign draws in turn (`--kinds skip,adc`): by default the five a
/// glitch makes at its instant ([`GlitchKind::AT_THE_INSTANT`]); `kept` aims at the state
/// the machine keeps between presses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kinds(Vec<GlitchKind>);

impl Default for Kinds {
    fn default() -> Kinds {
        Kinds(GlitchKind::AT_THE_INSTANT.to_vec())
    }
}

impl Kinds {
    /// The kinds, in turn.
    pub fn as_slice(&self) -> &[GlitchKind] {
        &self.0
    }
}

/// A `--kinds` that is not a list of glitch kinds, each once.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a list of glitch kinds, each once, separated by commas: {kinds}",
    kinds = boards::Listed(GlitchKind::ALL, ", ")
)]
pub struct KindsError(String);

impl std::str::FromStr for Kinds {
    type Err = KindsError;

    fn from_str(text: &str) -> Result<Kinds, KindsError> {
        let bad = || KindsError(text.to_string());
        let mut kinds = Vec::new();
        for word in text.split(',') {
            let kind: GlitchKind = word.parse().map_err(|_| bad())?;
            if kinds.contains(&kind) {
                return Err(bad());
            }
            kinds.push(kind);
        }
        Ok(Kinds(kinds))
    }
}

impl std::fmt::Display for Kinds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<&str> = self.0.iter().map(|k| k.word()).collect();
        f.write_str(&words.join(","))
    }
}

/// What a campaign draws: how many trials, from which seed, where in the game and of which
/// kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `--trials`.
    pub trials: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--window`.
    pub window: Window,
    /// `--kinds`.
    pub kinds: Kinds,
    /// `--pace-ms`: the visitor's turn.
    pub pace_ms: u64,
}

/// The intact game's length on each clock: what a plan draws its instants over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Its instructions (the core's clock).
    pub instructions: u64,
    /// Its visit, in microseconds (the visitor's clock: the machine's time and the turns).
    pub visit_us: u64,
}

impl Plan {
    /// The glitches of the plan's trials across its window of the intact game: its kinds in
    /// turn (trial i is kind `i % kinds`), each instant uniform over the window of its kind's
    /// clock (the instructions, or the visit's microseconds for a kind [on the visitor's
    /// clock](GlitchKind::on_the_visitors_clock)), each pick a uniform word.
    pub fn draw(&self, clocks: Clocks) -> Vec<Glitch> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(GLITCH_STREAM);
        let kinds = self.kinds.as_slice();
        (0..self.trials)
            .map(|i| {
                let kind = kinds[(i % kinds.len() as u64) as usize];
                let length = if kind.on_the_visitors_clock() {
                    clocks.visit_us
                } else {
                    clocks.instructions
                };
                Glitch {
                    kind,
                    at: rng.random_range(self.window.instants(length)),
                    pick: rng.random(),
                }
            })
            .collect()
    }
}
