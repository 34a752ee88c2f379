//! A run's configuration, typed: the stage, the probe, the link, the scenario and the
//! options that go with them, checked together, and the one function from a configuration to
//! an open target ([`Config::open`]). A command line only parses into it and prints.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use heuristic::Size;

use crate::dut::hil::BOARD_ELF;
use crate::dut::hil::Probe;
use crate::dut::lockstep::Lockstep;
use crate::dut::pil::{Link, Pil, PilTarget, RttPil};
use crate::dut::retry::Polling;
use crate::dut::sil::Sil;
use crate::dut::{Dut, DutError, Stage};
use crate::machine::{ELF_ENV, ElfError, MAX_ELF_BYTES, PilOptions, firmware_elf};
use crate::report::Depends;

#[cfg(feature = "clap")]
pub mod args;
mod spec;

pub use spec::{DEFAULT_PACE_MS, GlitchOptions, RunSpec, RunSpecError};

/// A day bounds a wait: longer is a typo, and 1e19 s overflows a Duration.
pub const MAX_TIMEOUT_S: f64 = 86_400.0;

/// Who makes the cage's moves: the bench's fixture, or the operator's hands (the guided
/// game: a cage without fixture, wired through the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wiring {
    /// The fixture wires each move.
    Fixture,
    /// The operator wires each move by hand.
    ByHand,
}

/// What a run drives and how: everything but the scenario's games and the report. The
/// command line's options of it are these fields (feature `clap`), and its JSON their words.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct Config {
    /// Test stage (`--target`, its name before, still works: scripts use it).
    #[cfg_attr(feature = "clap", arg(long, alias = "target", value_parser = args::stage))]
    pub stage: Stage,
    /// HIL: the probe (`VID:PID[:SERIAL]`) or the chip, as BIRDCAGE_HIL_PROBE; `qemu`, the
    /// firmware in QEMU (`--elf`: the QEMU firmware) behind QEMU's gdbstub as a probe-rs
    /// probe, on the emulated board; or `virtual`, the board ELF (`--elf`, default `cargo
    /// fw`'s) on the virtual NUCLEO-F446RE (the `virtual-board` binary), its coverage written
    /// to the report; or a board someone serves: a GDB stub (`gdb:unix:PATH`,
    /// `gdb:tcp:HOST:PORT`, `virtual-board serve --gdb`) or a DAP server (`dap:unix:PATH`,
    /// `dap:tcp:HOST:PORT`, `virtual-board serve --dap`).
    #[serde(with = "shards::options::text::option")]
    #[cfg_attr(feature = "clap", arg(long, value_parser = args::parsed::<Probe>))]
    pub probe: Option<Probe>,
    /// PIL, or HIL with `--probe qemu` or `--probe virtual`: run SIL on the same board in
    /// lockstep and stop at the first reply that differs.
    #[cfg_attr(feature = "clap", arg(long))]
    pub compare_sil: bool,
    /// Board profile: a name or a profile file (TOML; the firmware in QEMU or on a board runs
    /// the file's base, the bench predicts the file's board).
    #[cfg_attr(feature = "clap", arg(long, default_value = "nucleo-f446re"))]
    pub board: String,
    /// The firmware ELF: to flash (HIL), or to run in QEMU (PIL; built with cargo when not
    /// given, or taken from BIRDCAGE_PIL_ELF).
    #[cfg_attr(feature = "clap", arg(long))]
    pub elf: Option<PathBuf>,
    /// PIL: longest wait in seconds for the firmware's next frame before it counts as hung.
    #[serde(rename = "timeout")]
    #[cfg_attr(feature = "clap", arg(long = "timeout", default_value_t = 10.0))]
    pub timeout_s: f64,
    /// PIL: the link to the firmware in QEMU: `semihosting` (QEMU's stdin and stderr) or
    /// `rtt` (the board's RTT layout through QEMU's gdbstub, as a probe reads a board);
    /// semihosting when not given.
    #[serde(with = "shards::options::text::option")]
    #[cfg_attr(feature = "clap", arg(long, value_parser = args::parsed::<Link>))]
    pub link: Option<Link>,
    /// PIL over RTT: pause between two polls of the guest, in milliseconds (default 0.2).
    #[cfg_attr(feature = "clap", arg(long))]
    pub poll_ms: Option<f64>,
    /// PIL over RTT: how long without a reply, in milliseconds, before the command is sent
    /// again with its number (default 1000).
    #[cfg_attr(feature = "clap", arg(long))]
    pub retry_ms: Option<f64>,
}

/// An option that does not go with the others, or a target that could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The temporary folder (`TMPDIR`) cannot hold the machines' sockets: said once, before
    /// any machine starts, naming TMPDIR rather than the program that would fail.
    #[error(transparent)]
    TempDir(#[from] crate::machine::private::TempDirError),
    /// A file the run writes (the virtual board's coverage) has something other than a
    /// regular file at its name: a link or a FIFO planted in the report folder.
    #[error(transparent)]
    File(#[from] shards::FileError),
    /// `--link` without PIL.
    #[error("--link chooses PIL's link to QEMU: use it with --stage pil")]
    LinkNeedsPil,
    /// Pacing without RTT.
    #[error("--poll-ms and --retry-ms pace PIL over RTT: use them with --link rtt")]
    PacingNeedsRtt,
    /// A pace out of range.
    #[error("--{option} must be a number of milliseconds from 0 to a day, not {value:?}")]
    Pace {
        /// The option.
        option: &'static str,
        /// Its value.
        value: f64,
    },
    /// A timeout out of range.
    #[error(
        "--timeout must be a positive number of seconds up to {MAX_TIMEOUT_S} (a day), not {0:?}"
    )]
    Timeout(f64),
    /// Lockstep beside a board that is not emulated.
    #[error(
        "--compare-sil compares an emulated board with SIL: use it with --stage pil, \
         --probe qemu, --probe virtual or --probe dap: on a virtual board (virtual-board serve \
         --dap)"
    )]
    CompareNeedsEmulated,
    /// `--probe` without HIL.
    #[error("--probe names the HIL target's probe: use it with --stage hil")]
    ProbeNeedsHil,
    /// A real board, no ELF to flash.
    #[error("--stage hil needs --elf (the firmware to flash)")]
    HilNeedsElf,
    /// No probe named and the board has no chip.
    #[error("{board} has no probe-rs chip; set {env}")]
    NoChip {
        /// The board.
        board: &'static str,
        /// The environment variable.
        env: &'static str,
    },
    /// The virtual board, no board ELF.
    #[error("--probe virtual runs the board ELF: build it with `cargo fw` or pass --elf")]
    NoBoardElf,
    /// HIL in a build without probe-rs.
    #[error(
        "the HIL target needs the bench library's `probe` feature (probe-rs; hil-tests always has it)"
    )]
    NoProbeFeature,
    /// The ELF could not be read.
    #[error("cannot read the ELF {}", .path.display())]
    ReadElf {
        /// The ELF.
        path: PathBuf,
        /// Why.
        #[source]
        source: boards::read::ReadError,
    },
    /// The QEMU firmware could not be found or built.
    #[error(transparent)]
    Elf(#[from] ElfError),
    /// The target could not be opened.
    #[error(transparent)]
    Dut(#[from] DutError),
}

/// The target a run drives: one, or SIL and another in lockstep (kept whole to report what
/// was compared).
pub enum Opened {
    /// One target.
    One(Box<dyn Dut>),
    /// SIL beside an emulated board.
    Both(Box<Lockstep<Sil, Box<dyn Dut>>>),
}

impl fmt::Debug for Opened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stage = match self {
            Opened::One(target) => target.stage(),
            Opened::Both(both) => both.stage(),
        };
        write!(f, "Opened({stage})")
    }
}

impl Opened {
    /// The target.
    pub fn target(&mut self) -> &mut dyn Dut {
        match self {
            Opened::One(target) => target.as_mut(),
            Opened::Both(both) => both.as_mut(),
        }
    }

    /// The target, boxed.
    pub fn into_target(self) -> Box<dyn Dut> {
        match self {
            Opened::One(target) => target,
            Opened::Both(both) => both,
        }
    }
}

impl Config {
    /// The options that must go together, checked before anything is built or started (a
    /// typo costs nothing).
    pub fn check(&self) -> Result<(), ConfigError> {
        self.check_link()?;
        // A DAP may have the virtual board behind it: found out when it is opened.
        let maybe_emulated = |p: &Probe| p.is_emulated() || matches!(p, Probe::Dap(_));
        if self.compare_sil
            && !(self.stage == Stage::Pil || self.probe.as_ref().is_some_and(maybe_emulated))
        {
            return Err(ConfigError::CompareNeedsEmulated);
        }
        if self.probe.is_some() && self.stage != Stage::Hil {
            return Err(ConfigError::ProbeNeedsHil);
        }
        Ok(())
    }

    /// The options of PIL's link: the link, its pacing and the timeout (a campaign of faults,
    /// which takes no probe, checks these alone).
    pub fn check_link(&self) -> Result<(), ConfigError> {
        self.polling()?;
        if self.stage == Stage::Pil {
            self.timeout()?;
        }
        Ok(())
    }

    fn timeout(&self) -> Result<Duration, ConfigError> {
        if !(self.timeout_s > 0.0 && self.timeout_s <= MAX_TIMEOUT_S) {
            return Err(ConfigError::Timeout(self.timeout_s));
        }
        Ok(Duration::from_secs_f64(self.timeout_s))
    }

    /// Whether the run is on the virtual board.
    pub fn is_virtual_board(&self) -> bool {
        self.stage == Stage::Hil && self.probe == Some(Probe::Virtual)
    }

    /// How to poll PIL over RTT (`None`: the link is semihosting). The pacing options belong
    /// to that link alone: given to another, they are refused rather than ignored.
    pub fn polling(&self) -> Result<Option<Polling>, ConfigError> {
        let rtt = self.link == Some(Link::Rtt);
        if self.link.is_some() && self.stage != Stage::Pil {
            return Err(ConfigError::LinkNeedsPil);
        }
        if !rtt && (self.poll_ms.is_some() || self.retry_ms.is_some()) {
            return Err(ConfigError::PacingNeedsRtt);
        }
        if !rtt {
            return Ok(None);
        }
        let ms = |option: &'static str, v: Option<f64>, default: Duration| {
            let Some(value) = v else {
                return Ok(default);
            };
            if !(0.0..=MAX_TIMEOUT_S * 1000.0).contains(&value) {
                return Err(ConfigError::Pace { option, value });
            }
            Ok(Duration::from_secs_f64(value / 1000.0))
        };
        let qemu = Polling::QEMU;
        Ok(Some(Polling {
            interval: ms("poll-ms", self.poll_ms, qemu.interval)?,
            retry: ms("retry-ms", self.retry_ms, qemu.retry)?,
        }))
    }

    /// The board ELF for the virtual board: `elf`, or `cargo fw`'s.
    pub fn board_elf(&self) -> Result<PathBuf, ConfigError> {
        match &self.elf {
            Some(elf) => Ok(elf.clone()),
            None if Path::new(BOARD_ELF).is_file() => Ok(BOARD_ELF.into()),
            None => Err(ConfigError::NoBoardElf),
        }
    }

    /// Whether the run builds the QEMU firmware with cargo: it runs it (PIL, or HIL through
    /// QEMU's probe) and neither `elf` nor [`ELF_ENV`] names one. A command line says so
    /// before the wait.
    pub fn builds_qemu_firmware(&self) -> bool {
        self.runs_qemu()
            && self.elf.is_none()
            && std::env::var_os(ELF_ENV).is_none_or(|v| v.is_empty())
    }

    /// Whether the firmware runs in QEMU: PIL, or HIL through QEMU's gdbstub.
    pub fn runs_qemu(&self) -> bool {
        self.stage == Stage::Pil || (self.stage == Stage::Hil && self.probe == Some(Probe::Qemu))
    }

    /// The QEMU firmware: `elf`, [`ELF_ENV`], or built with cargo.
    pub fn qemu_elf(&self) -> Result<PathBuf, ConfigError> {
        Ok(match &self.elf {
            Some(elf) => elf.clone(),
            None => firmware_elf()?,
        })
    }

    /// The firmware the run drives (PIL and HIL; `None` on SIL or a real board with no ELF).
    pub fn firmware(&self) -> Result<Option<PathBuf>, ConfigError> {
        Ok(match (self.stage, &self.probe) {
            (Stage::Sil, _) => None,
            (Stage::Hil, Some(Probe::Virtual)) => Some(self.board_elf()?),
            (Stage::Hil, Some(Probe::Board(_) | Probe::Gdb(_) | Probe::Dap(_)) | None) => {
                self.elf.clone()
            }
            (Stage::Pil | Stage::Hil, _) => Some(self.qemu_elf()?),
        })
    }

    /// The digest of the firmware the run drives, for a report's header: a `--resume` with
    /// another ELF under the same path is refused.
    pub fn elf_digest(&self) -> Result<Option<String>, ConfigError> {
        let Some(elf) = self.firmware()? else {
            return Ok(None);
        };
        let bytes =
            boards::read::bytes(&elf, MAX_ELF_BYTES).map_err(|source| ConfigError::ReadElf {
                path: elf.clone(),
                source,
            })?;
        Ok(Some(Depends::file(&bytes)))
    }

    /// The firmware in QEMU over the link chosen.
    pub fn pil(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
    ) -> Result<PilTarget, ConfigError> {
        // Checked before a firmware is built or QEMU started: a typo costs nothing.
        let timeout = self.timeout()?;
        let polling = self.polling()?;
        let mut options = PilOptions::new(self.qemu_elf()?);
        options.timeout = timeout;
        Ok(match polling {
            None => {
                PilTarget::Semihosting(Box::new(Pil::start(&options, profile, base, size, seed)?))
            }
            Some(polling) => PilTarget::Rtt(Box::new(RttPil::start(
                &options, polling, profile, base, size, seed,
            )?)),
        })
    }

    /// The temporary folder the machines' sockets go in, checked when this stage starts one
    /// (PIL, HIL): a run calls it before it builds or starts anything, so a wrong `TMPDIR` is
    /// one line naming it, not a failure of QEMU or the virtual board later.
    pub fn check_temp_folder(&self) -> Result<(), ConfigError> {
        if self.stage != Stage::Sil {
            crate::machine::private::temp_folder()?;
        }
        Ok(())
    }

    /// The target on the board drawn from `seed`: `profile` is the board the bench models,
    /// `base` the built-in profile firmware runs; `coverage` is where the virtual board
    /// writes its coverage (a one-process run's); `wiring`: who makes the cage's moves.
    pub fn open(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
        coverage: Option<&Path>,
        wiring: Wiring,
    ) -> Result<Opened, ConfigError> {
        let sil = || Sil::new(profile, size, seed);
        self.check_temp_folder()?;
        let other: Box<dyn Dut> = match self.stage {
            Stage::Sil => return Ok(Opened::One(Box::new(sil()?))),
            Stage::Pil => Box::new(self.pil(profile, base, size, seed)?),
            Stage::Hil => self.hil(profile, base, size, seed, coverage, wiring)?,
        };
        Ok(if self.compare_sil {
            Opened::Both(Box::new(Lockstep::new(sil()?, other)))
        } else {
            Opened::One(other)
        })
    }

    /// HIL: the virtual board, QEMU's firmware through its gdbstub, or a board, through
    /// probe-rs (a build without it says so).
    fn hil(
        &self,
        profile: &'static boards::Profile,
        base: &'static boards::Profile,
        size: Size,
        seed: Option<u64>,
        coverage: Option<&Path>,
        wiring: Wiring,
    ) -> Result<Box<dyn Dut>, ConfigError> {
        #[cfg(not(feature = "probe"))]
        {
            let _ = (profile, base, size, seed, coverage, wiring);
            Err(ConfigError::NoProbeFeature)
        }
        #[cfg(feature = "probe")]
        {
            use crate::dut::hil::{Hil, qemu, virtual_board};
            let probe = match &self.probe {
                Some(Probe::Virtual) => {
                    let faults: &[boards::virtual_board::BoardFault] = match wiring {
                        Wiring::ByHand => &[virtual_board::NO_FIXTURE],
                        Wiring::Fixture => &[],
                    };
                    // Refused here by name, not as a lost target: a FIFO planted there
                    // would block the board's write at the end of the run.
                    if let Some(path) = coverage {
                        shards::safe::replaceable(path)?;
                    }
                    let elf = self.board_elf()?;
                    let board = virtual_board::connect(
                        &crate::machine::Launch::new(&elf, &self.board)
                            .seed(seed)
                            .coverage(coverage)
                            .faults(faults),
                    )?;
                    return Ok(Box::new(board));
                }
                Some(Probe::Qemu) => {
                    let elf = self.qemu_elf()?;
                    return Ok(Box::new(qemu::connect(&elf, profile, base, size, seed)?));
                }
                Some(probe @ (Probe::Board(_) | Probe::Gdb(_) | Probe::Dap(_))) => probe.clone(),
                None => match (Probe::from_env(), profile.probe_rs_chip) {
                    (Some(probe), _) => probe,
                    (None, Some(chip)) => Probe::Board(chip.to_string()),
                    (None, None) => {
                        return Err(ConfigError::NoChip {
                            board: profile.name,
                            env: crate::dut::hil::PROBE_ENV,
                        });
                    }
                },
            };
            let elf = self.elf.as_ref().ok_or(ConfigError::HilNeedsElf)?;
            let mut board = Hil::connect_probe(&probe, profile, elf)?;
            // Lockstep needs SIL's noise per game: a DAP with a virtual board behind it (it
            // shows its LEDs); a real board's DAP server is refused by name.
            if self.compare_sil
                && matches!(self.probe, Some(Probe::Dap(_)))
                && board.lit().is_none()
            {
                return Err(ConfigError::CompareNeedsEmulated);
            }
            // The guided game's cage is under the operator's hands, not the fixture's.
            Ok(Box::new(match wiring {
                Wiring::ByHand => board.with_cage(Box::new(crate::dut::ByHand)),
                Wiring::Fixture => board,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(stage: Stage) -> Config {
        Config {
            stage,
            probe: None,
            compare_sil: false,
            board: "nucleo-f446re".into(),
            elf: None,
            timeout_s: 10.0,
            link: None,
            poll_ms: None,
            retry_ms: None,
        }
    }

    /// Each option that belongs to another is refused by name, before anything starts.
    #[test]
    fn options_that_do_not_go_together_are_refused() {
        let refused = |c: Config| c.check().unwrap_err().to_string();
        let mut c = config(Stage::Sil);
        c.link = Some(Link::Rtt);
        assert!(refused(c).contains("--link chooses PIL's link"));
        let mut c = config(Stage::Pil);
        c.poll_ms = Some(1.0);
        assert!(refused(c).contains("use them with --link rtt"));
        let mut c = config(Stage::Pil);
        c.link = Some(Link::Rtt);
        c.retry_ms = Some(-1.0);
        assert!(refused(c).starts_with("--retry-ms must be a number of milliseconds"));
        let mut c = config(Stage::Sil);
        c.compare_sil = true;
        assert!(refused(c).starts_with("--compare-sil compares an emulated board"));
        let mut c = config(Stage::Hil);
        c.compare_sil = true;
        c.probe = Some(Probe::Board("0483:374b".into()));
        assert!(refused(c).starts_with("--compare-sil compares an emulated board"));
        let mut c = config(Stage::Pil);
        c.probe = Some(Probe::Qemu);
        assert!(refused(c).starts_with("--probe names the HIL target's probe"));

        let mut fine = config(Stage::Hil);
        fine.compare_sil = true;
        fine.probe = Some(Probe::Virtual);
        assert!(fine.check().is_ok());
        let mut rtt = config(Stage::Pil);
        rtt.link = Some(Link::Rtt);
        rtt.poll_ms = Some(0.5);
        let polling = rtt.polling().unwrap().unwrap();
        assert_eq!(polling.interval, Duration::from_micros(500));
        assert_eq!(polling.retry, Polling::QEMU.retry);
    }

    #[test]
    fn sil_drives_no_firmware_and_opens_in_process() {
        let profile = boards::by_name("nucleo-f446re").unwrap();
        let size = Size::new(3).unwrap();
        let c = config(Stage::Sil);
        assert_eq!(c.elf_digest().unwrap(), None);
        let mut opened = c
            .open(profile, profile, size, Some(1), None, Wiring::Fixture)
            .unwrap();
        assert_eq!(opened.target().stage(), Stage::Sil.into());
        let mut pil = config(Stage::Pil);
        pil.timeout_s = 0.0;
        assert!(matches!(
            pil.pil(profile, profile, size, None),
            Err(ConfigError::Timeout(_))
        ));
    }
}
