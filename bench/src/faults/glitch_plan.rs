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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A plan made by hand (the glitch campaign's tests use it too).
    pub(crate) fn plan(trials: u64, seed: u64, window: Window, kinds: Kinds) -> Plan {
        Plan {
            trials,
            seed,
            window,
            kinds,
            pace_ms: 5000,
        }
    }

    fn draw(seed: u64, trials: u64, instructions: u64, window: Window) -> Vec<Glitch> {
        plan(trials, seed, window, Kinds::default()).draw(Clocks {
            instructions,
            visit_us: instructions * 100,
        })
    }

    #[test]
    fn a_seed_draws_the_same_glitches_and_another_seed_others() {
        let a = draw(7, 40, 1_000_000, Window::WHOLE);
        assert_eq!(a, draw(7, 40, 1_000_000, Window::WHOLE));
        assert_ne!(a, draw(8, 40, 1_000_000, Window::WHOLE));
        assert!(a.iter().all(|g| g.at < 1_000_000));
        assert_eq!(a[6].kind, GlitchKind::Register);
        // Drawn over the whole game, some instants fall in its first half.
        assert!(a.iter().any(|g| g.at < 500_000));
    }

    #[test]
    fn a_window_holds_every_instant_and_is_written_as_it_is_read() {
        let late: Window = "85..100".parse().unwrap();
        assert_eq!(late, Window { from: 85, to: 100 });
        assert_eq!(late.to_string(), "85..100");
        let drawn = draw(7, 400, 1_000_000, late);
        assert!(drawn.iter().all(|g| (850_000..1_000_000).contains(&g.at)));
        // Spread over it, not piled at one end.
        assert!(drawn.iter().any(|g| g.at < 900_000) && drawn.iter().any(|g| g.at >= 950_000));
        // A window too narrow for an instant of its own still holds one.
        assert_eq!(Window { from: 0, to: 1 }.instants(50), 0..1);
        for bad in [
            "", "85", "85..", "..100", "90..80", "50..50", "0..101", "-1..5", "a..b", "85...100",
        ] {
            let e = bad.parse::<Window>().unwrap_err();
            assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
        }
    }

    #[test]
    fn kinds_are_drawn_in_turn_and_written_as_they_are_read() {
        let kinds: Kinds = "kept,adc".parse().unwrap();
        assert_eq!(kinds.as_slice(), [GlitchKind::Kept, GlitchKind::Adc]);
        assert_eq!(kinds.to_string(), "kept,adc");
        assert_eq!(
            Kinds::default().to_string(),
            "skip,register,sram,adc,fpu",
            "the default is the five a glitch makes at its instant"
        );
        let drawn = plan(6, 7, Window::WHOLE, kinds).draw(Clocks {
            instructions: 1_000,
            visit_us: 1_000_000,
        });
        // Kept on the visitor's clock, adc on the core's.
        assert!(
            drawn
                .iter()
                .any(|g| g.kind == GlitchKind::Kept && g.at >= 1_000)
        );
        assert!(
            drawn
                .iter()
                .all(|g| g.kind == GlitchKind::Kept || g.at < 1_000)
        );
        let drawn: Vec<GlitchKind> = drawn.iter().map(|g| g.kind).collect();
        assert_eq!(
            drawn,
            [
                GlitchKind::Kept,
                GlitchKind::Adc,
                GlitchKind::Kept,
                GlitchKind::Adc,
                GlitchKind::Kept,
                GlitchKind::Adc
            ]
        );
        for bad in ["", "kept,", "kept,kept", "flip", "skip adc"] {
            let e = bad.parse::<Kinds>().unwrap_err();
            assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
        }
    }
}
