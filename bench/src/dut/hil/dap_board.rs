//! A virtual board behind a DAP (`--probe dap:unix:PATH` on `virtual-board serve --dap`): the
//! bench's path to a board, probe-rs's own `STM32F446RETx` target and flash algorithm, with
//! the few things a board has no register for asked over the protocol's one request of ours,
//! `monitor` (each game's noise stream, what the LEDs show, the coverage file). A server that
//! does not answer it (pyOCD's probe server in front of a real board) is a board: no
//! emulation, and `--compare-sil` is refused by name.

use std::path::Path;
use std::time::Duration;

use boards::virtual_board::{Lit, Monitor, Waited};
use dap_probe::Connection;
use firmware::LedPattern;
use probe_rs::config::Registry;
use probe_rs::probe::list::Lister;

use super::probe::lost_with_sources;
use super::{Emulation, Hil};
use crate::dut::retry::Polling;
use crate::dut::{DutError, Lost, lost};

/// The HIL target through a server of pyOCD's remote-probe protocol (a DAP) through probe-rs's
/// lister, attached as the profile's chip from probe-rs's built-in targets: the DAP is the
/// chip's own, so probe-rs's ARM stack, the vendor's sequences and flash algorithm run as on a
/// board. A virtual board behind it ([`DapBoard::behind`]) is the run's emulation.
pub fn connect(
    address: gdb_probe::Address,
    profile: &'static boards::Profile,
    elf: &Path,
) -> Result<Hil, DutError> {
    let chip = profile.probe_rs_chip.ok_or(Lost::NoChip(profile.name))?;
    let selector = dap_probe::selector(&address);
    let lister = Lister::with_lister(Box::new(dap_probe::DapLister::new([address.clone()])));
    let probe = lister.open(selector).map_err(lost_with_sources)?;
    let emulation = dap_probe::connection(&address)
        .and_then(DapBoard::behind)
        .map(|board| Box::new(board) as Box<dyn Emulation>);
    let registry = Registry::from_builtin_families();
    Hil::attach(probe, chip, &registry, elf, None, emulation, Polling::BOARD)
}

/// How much longer than a wait's own limit its answer may take (a loaded machine).
const ANSWER_MARGIN: Duration = Duration::from_secs(5);

/// The virtual board's side of the bench over its DAP.
pub struct DapBoard {
    connection: Connection,
}

impl DapBoard {
    /// The virtual board behind `connection`, if it is one: it answers `monitor leds`.
    pub fn behind(connection: Connection) -> Option<DapBoard> {
        let answer = connection.monitor(&Monitor::Leds.to_string()).ok()?;
        answer.trim().parse::<Lit>().ok()?;
        Some(DapBoard { connection })
    }
}

impl Emulation for DapBoard {
    fn describe(&self) -> Option<String> {
        Some("a virtual board (`virtual-board serve --dap`): it answers the bench's monitor".into())
    }

    fn start_game(&mut self, game: usize) {
        // A board gone here shows at the next exchange.
        let _ = self
            .connection
            .monitor(&Monitor::Game(game as u64).to_string());
    }

    /// `monitor wait` over the DAP: the bench sleeps in its read of the answer while the
    /// board runs until an RTT offset moves (as over the GDB stub).
    fn wait(&mut self, words: &[(u32, u32)], limit: Duration) -> Option<Result<(), DutError>> {
        let ms = u32::try_from(limit.as_millis().max(1)).unwrap_or(u32::MAX);
        let command = Monitor::Wait {
            ms,
            words: words.to_vec(),
        };
        let answer = self
            .connection
            .monitor_timeout(&command.to_string(), limit + ANSWER_MARGIN);
        Some(match answer {
            Ok(said) => match said.trim().parse::<Waited>() {
                Ok(_) => Ok(()),
                Err(_) => Err(Lost::Probe(format!("monitor wait: {}", said.trim()).into()).into()),
            },
            Err(e) => Err(lost(e)),
        })
    }

    fn finish(&mut self) -> Result<(), DutError> {
        self.connection
            .monitor(&Monitor::Coverage.to_string())
            .map(|_| ())
            .map_err(lost)
    }

    fn lit(&mut self) -> Option<Result<LedPattern, DutError>> {
        Some(
            self.connection
                .monitor(&Monitor::Leds.to_string())
                .map_err(lost)
                .and_then(|answer| {
                    let Lit { rows, columns } =
                        answer
                            .trim()
                            .parse()
                            .map_err(|e: boards::virtual_board::LitError| {
                                Lost::Probe(e.to_string().into())
                            })?;
                    Ok(LedPattern { rows, columns })
                }),
        )
    }
}
