//! [`RunSpec`]: everything a bench run is, typed once. The command line parses into it (feature
//! `clap`), [`RunSpec::check`] holds every scenario's option rules, its JSON is the shards'
//! spec (so an option cannot be left out of the hash), [`RunSpec::to_args`] is the command a
//! shard or a Slurm task runs, and [`RunSpec::open`] is the one path from it to a target.

use std::path::Path;

use heuristic::Size;
use serde::{Deserialize, Serialize};

#[cfg(feature = "clap")]
use super::args;
use super::{Config, ConfigError, Opened, Wiring};
use crate::dut::Stage;
use crate::dut::hil::Probe;
use crate::dut::lockstep::Lockstep;
use crate::dut::sil::Sil;
use crate::faults::glitch_plan::{Kinds, Plan, Window};
use crate::faults::kinds::DefectTarget;
use crate::report::Depends;
use crate::run::kind::ScenarioKind;
use crate::shard::seeds::BoardSeeds;
use shards::options::text;

/// A bench run: what it drives ([`Config`]), the scenario and its games, the seeds, the board
/// size, the sweep of drawn boards and the glitch campaign's plan. Not in it: where the report
/// goes and how the run treats a report already there, which change no byte of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RunSpec {
    /// What the run drives and how.
    #[serde(flatten)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub config: Config,
    /// `tree3` (every position of the M=3 tree), `random4` (random M=4 games), `guided`
    /// (the operator makes the moves on a cage without fixture; `--size` gives M), `faults`
    /// (every single fault at every place of the emulated cage, writing faults.csv and
    /// faults.md; with `--probe virtual`, every board fault at every pin, writing
    /// board-faults.csv and board-faults.md), `glitches` (with `--probe virtual`: `--trials`
    /// glitches drawn from `--seed` across a visitor's game, writing glitches.csv and
    /// glitches.md), or `records:FILE` (one game record per line; `--size` gives M).
    #[serde(with = "text")]
    #[cfg_attr(feature = "clap", arg(long, value_parser = args::parsed::<ScenarioKind>))]
    pub scenario: ScenarioKind,
    /// Seed of the emulated board's parts and ADC (SIL); nominal parts without it.
    #[cfg_attr(
        feature = "clap",
        arg(long, allow_negative_numbers = true, value_parser = args::seed)
    )]
    pub board_seed: Option<u64>,
    /// A sweep of drawn boards, one per seed: `A..B` (seeds A to B-1) or `A..=B`, each
    /// playing the scenario's games; each board's report in `board-SEED/` inside `--out`,
    /// and `sweep.md` and `sweep.csv` beside them.
    #[serde(with = "text::option")]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "A..B", conflicts_with = "board_seed", value_parser = args::parsed::<BoardSeeds>)
    )]
    pub board_seeds: Option<BoardSeeds>,
    /// Games of `random4` (default 100) or `guided` (default 1).
    #[cfg_attr(
        feature = "clap",
        arg(long, allow_negative_numbers = true, value_parser = args::games)
    )]
    pub games: Option<u32>,
    /// The glitch campaign's plan.
    #[serde(flatten)]
    #[cfg_attr(feature = "clap", command(flatten))]
    pub glitches: GlitchOptions,
    /// Seed of `random4`'s games (and of Short's drawn moves in `guided`, of the glitches
    /// of `glitches`).
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = args::seed)
    )]
    pub seed: u64,
    /// M for `records:FILE` and `guided` (default 4), or `faults` (default both 3 and 4; on
    /// the virtual board 4).
    #[cfg_attr(
        feature = "clap",
        arg(long, allow_negative_numbers = true, value_parser = args::m)
    )]
    pub size: Option<u32>,
}

/// The options of `--scenario glitches` alone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct GlitchOptions {
    /// Trials of `glitches` (default 100).
    #[cfg_attr(feature = "clap", arg(long, value_parser = args::trials))]
    pub trials: Option<u64>,
    /// The part of the game `glitches` draws its instants from, in whole percent of its
    /// instructions: `85..100` is the last 15 %, where the machine decides its late cuts
    /// (the whole game, `0..100`, without it).
    #[serde(with = "text::option")]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "FROM..TO", value_parser = args::parsed::<Window>)
    )]
    pub window: Option<Window>,
    /// The fault kinds `glitches` draws in turn, separated by commas: skip, register, sram,
    /// adc, fpu (these five without it, each at its instant) and kept (a bit of the state the
    /// machine keeps between presses, flipped while it waits for the next one).
    #[serde(with = "text::option")]
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "KIND,...", value_parser = args::parsed::<Kinds>)
    )]
    pub kinds: Option<Kinds>,
    /// The visitor's turn in milliseconds (default 5000): the wait between the machine's move
    /// and the next press, over which `glitches` draws the moments of its `kept` flips.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "MS", allow_negative_numbers = true, value_parser = args::pace_ms)
    )]
    pub pace_ms: Option<u64>,
}

/// The visitor's turn when `--pace-ms` is not given: reading the machine's move off its
/// LEDs, cutting that resistor and shorting one on the cage by hand, and reaching for the
/// button: five seconds is a quick visitor (a slower one only lengthens every turn alike, so
/// the per-press spread of the draws barely moves).
pub const DEFAULT_PACE_MS: u64 = 5_000;

/// Trials of the glitch campaign when `--trials` is not given.
pub const DEFAULT_TRIALS: u64 = 100;

/// A run whose options do not go together: each names the option refused and why.
#[derive(Debug, thiserror::Error)]
pub enum RunSpecError {
    /// The configuration's own rules.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// An option of one scenario given to another, or an option the scenario has no use for.
    #[error("{0}")]
    DoesNotApply(&'static str),
    /// A campaign on a target it cannot break.
    #[error("{0}")]
    Dut(&'static str),
    /// A board size the fault campaign does not play.
    #[error("the fault campaign runs on the M=3 and M=4 cage, not M={0}")]
    FaultSize(u32),
    /// A board size the board-fault campaign does not play.
    #[error("the board-fault campaign plays the M=3 or M=4 cage, not M={0}")]
    BoardFaultSize(u32),
    /// A program the run depends on could not be read for its digest.
    #[error("cannot read {} for the run's spec: {source}", path.display())]
    Program {
        /// The program.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The spec has no JSON (it always has: its fields are words and numbers).
    #[error("cannot write the run's spec as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl RunSpec {
    /// Every scenario's option rules, checked before anything is built or started: an option
    /// the scenario does not use is refused by name, never ignored.
    pub fn check(&self) -> Result<(), RunSpecError> {
        use RunSpecError::{DoesNotApply, Dut};
        let config = &self.config;
        config.check()?;
        let glitch = &self.glitches;
        match &self.scenario {
            ScenarioKind::Glitches => {
                if !config.is_virtual_board() {
                    return Err(Dut(
                        "the glitch campaign glitches the virtual board's core: use it with \
                         --stage hil --probe virtual",
                    ));
                }
                if self.games.is_some() || self.size.is_some() || self.board_seeds.is_some() {
                    return Err(DoesNotApply(
                        "--scenario glitches plays one visitor's game (M=4) per trial: --games, \
                         --size and --board-seeds do not apply to it",
                    ));
                }
                if config.compare_sil {
                    return Err(DoesNotApply(
                        "--compare-sil does not apply to --scenario glitches: each glitched \
                         game differs from SIL on purpose",
                    ));
                }
                return Ok(());
            }
            ScenarioKind::Faults => self.check_faults()?,
            ScenarioKind::Guided if self.board_seeds.is_some() => {
                return Err(DoesNotApply(
                    "--scenario guided is one operator's game: it runs on one board, in one \
                     process",
                ));
            }
            _ => {}
        }
        if glitch.trials.is_some() {
            return Err(DoesNotApply(
                "--trials counts the trials of --scenario glitches",
            ));
        }
        if glitch.window.is_some() {
            return Err(DoesNotApply(
                "--window is the part of the game --scenario glitches draws its instants from",
            ));
        }
        if glitch.kinds.is_some() {
            return Err(DoesNotApply(
                "--kinds are the fault kinds --scenario glitches draws",
            ));
        }
        if glitch.pace_ms.is_some() {
            return Err(DoesNotApply(
                "--pace-ms is the visitor's turn in --scenario glitches",
            ));
        }
        Ok(())
    }

    fn check_faults(&self) -> Result<(), RunSpecError> {
        use RunSpecError::{DoesNotApply, Dut};
        if self.games.is_some() {
            return Err(DoesNotApply(
                "--scenario faults plays one reference game per fault; --games does not apply \
                 to it",
            ));
        }
        if self.board_seeds.is_some() {
            return Err(DoesNotApply(
                "--board-seeds sweeps a scenario's games over drawn boards; the fault campaign \
                 breaks one board (--board-seed)",
            ));
        }
        let virtual_board = self.config.is_virtual_board();
        if self.config.stage == Stage::Hil && !virtual_board {
            return Err(Dut(
                "the fault campaign breaks an emulated cage (--stage sil or pil) or the virtual \
                 board (--stage hil --probe virtual); a real board is broken by hand",
            ));
        }
        if virtual_board && self.config.compare_sil {
            return Err(DoesNotApply(
                "--compare-sil does not apply to the board-fault campaign: each faulty board \
                 differs from SIL on purpose, and the intact one plays the reference game",
            ));
        }
        self.fault_sizes().map(|_| ())
    }

    /// The board sizes of the fault campaign: `--size`, or M=3 and M=4 on an emulated cage
    /// and M=4 on the virtual board.
    pub fn fault_sizes(&self) -> Result<Vec<Size>, RunSpecError> {
        let virtual_board = self.config.is_virtual_board();
        let sizes = match (self.size, virtual_board) {
            (None, false) => vec![3, 4],
            (None, true) => vec![4],
            (Some(m @ (3 | 4)), _) => vec![m],
            (Some(m), false) => return Err(RunSpecError::FaultSize(m)),
            (Some(m), true) => return Err(RunSpecError::BoardFaultSize(m)),
        };
        Ok(sizes
            .into_iter()
            .filter_map(|m| Size::new(m).ok())
            .collect())
    }

    /// The glitch campaign's plan: its options, or their defaults.
    pub fn glitch_plan(&self) -> Plan {
        Plan {
            trials: self.glitches.trials.unwrap_or(DEFAULT_TRIALS),
            seed: self.seed,
            window: self.glitches.window.unwrap_or(Window::WHOLE),
            kinds: self.glitches.kinds.clone().unwrap_or_default(),
            pace_ms: self.glitches.pace_ms.unwrap_or(DEFAULT_PACE_MS),
        }
    }

    /// The command-line options that parse back into this spec ([`shards::options::to_args`]):
    /// the options are the JSON's fields, so a field cannot be left out of the command.
    pub fn to_args(&self) -> Result<Vec<String>, RunSpecError> {
        Ok(shards::options::to_args(self)?)
    }

    /// What the run's bytes depend on besides the spec: the board's validated profile, the
    /// firmware's and the records file's contents, by digest; the virtual board's binary on
    /// the virtual board, QEMU's version in QEMU. A program that cannot be found is left out:
    /// the run that needs it stops naming it.
    pub fn depends(
        &self,
        profile: &boards::Profile,
        records_sha256: Option<String>,
    ) -> Result<Depends, RunSpecError> {
        let virtual_board_sha256 = match self.config.is_virtual_board() {
            true => match crate::machine::virtual_board_binary() {
                Ok(binary) => Some(Depends::file(&std::fs::read(&binary).map_err(
                    |source| RunSpecError::Program {
                        path: binary.clone(),
                        source,
                    },
                )?)),
                Err(_) => None,
            },
            false => None,
        };
        Ok(Depends {
            profile_sha256: Some(Depends::profile(profile)),
            elf_sha256: self.config.elf_digest()?,
            records_sha256,
            virtual_board_sha256,
            qemu: self
                .config
                .runs_qemu()
                .then(crate::machine::qemu_version)
                .flatten(),
        })
    }

    /// The shard files' stem: `bench-` and the scenario's kind (`bench-board-faults` for the
    /// virtual board's, `-sweep` for a sweep of drawn boards).
    pub fn job_name(&self) -> String {
        let scenario = self.scenario.to_string();
        let kind = match scenario.split_once(':') {
            Some((kind, _)) => kind,
            None => &scenario,
        };
        let kind: String = kind
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let sweep = if self.board_seeds.is_some() {
            "-sweep"
        } else {
            ""
        };
        // The virtual board's faults are the board's, not the cage's: files of their own.
        let board = match self.config.probe {
            Some(Probe::Virtual) if kind == "faults" => "board-",
            _ => "",
        };
        format!("bench-{board}{kind}{sweep}")
    }

    /// The run as a shard job: its name, its spec hash (this spec, what it `depends` on, and
    /// `version`, the running program's with its commit) and `command`, the one-process
    /// command line (program first, with `--out DIR`).
    pub fn job(&self, depends: &Depends, command: Vec<String>, version: &str) -> shards::Job {
        /// The hashed value: the spec's fields beside its inputs' digests.
        #[derive(Serialize)]
        struct Hashed<'a> {
            #[serde(flatten)]
            run: &'a RunSpec,
            depends: &'a Depends,
        }
        let hashed = Hashed { run: self, depends };
        shards::Job::new(&self.job_name(), &hashed, version, command)
    }

    /// The target on the board drawn from `seed`, as the spec says: `profile` is the board
    /// the bench models, `base` the built-in profile firmware runs, `coverage` where the
    /// virtual board writes its coverage (a one-process run's).
    pub fn open(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
        coverage: Option<&Path>,
    ) -> Result<Opened, ConfigError> {
        let wiring = match self.scenario {
            ScenarioKind::Guided => Wiring::ByHand,
            _ => Wiring::Fixture,
        };
        self.config
            .open(profile, base, size, seed, coverage, wiring)
    }

    /// The emulated cage the fault campaign breaks, at `size`: SIL, PIL, or both in lockstep
    /// (`--compare-sil`), on the spec's drawn board.
    pub fn fault_target(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
    ) -> Result<Box<dyn DefectTarget>, ConfigError> {
        let (config, seed) = (&self.config, self.board_seed);
        Ok(match config.stage {
            Stage::Pil if config.compare_sil => Box::new(Lockstep::new(
                Sil::new(profile, size, seed)?,
                config.pil(profile, base, size, seed)?,
            )),
            Stage::Pil => Box::new(config.pil(profile, base, size, seed)?),
            _ => Box::new(Sil::new(profile, size, seed)?),
        })
    }

    /// The virtual board running `elf` (the spec's board ELF, found once by the campaign)
    /// with `faults` made at register level, on the spec's drawn board: the board-fault
    /// campaign's target.
    #[cfg(feature = "probe")]
    pub fn faulty_board(
        &self,
        elf: &Path,
        faults: &[boards::virtual_board::BoardFault],
    ) -> Result<crate::dut::hil::Hil, crate::dut::DutError> {
        crate::dut::hil::virtual_board::connect(
            &crate::machine::Launch::new(elf, &self.config.board)
                .seed(self.board_seed)
                .faults(faults),
        )
    }

    /// The virtual board running `elf` (the spec's board ELF, found once by the campaign)
    /// on the spec's drawn board, serving glitch trials: the glitch campaign's target.
    #[cfg(feature = "probe")]
    pub fn trial_board(
        &self,
        elf: &Path,
    ) -> Result<crate::faults::glitches::TrialBoard, crate::faults::glitches::GlitchError> {
        crate::faults::glitches::TrialBoard::start(elf, &self.config.board, self.board_seed)
    }
}
