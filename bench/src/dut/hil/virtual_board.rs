//! `--stage hil --probe virtual`: the HIL target's probe-rs path against the unmodified board
//! ELF on the virtual NUCLEO-F446RE (the `virtual-board` binary, a process of its own).
//!
//! probe-rs opens the board's GDB stub like any probe (`gdb:unix:PATH`, through
//! [`gdb_probe::probe::GdbLister`]), downloads the ELF (as memory writes: no flash algorithm
//! runs on the virtual board), resets and attaches RTT, exactly as [`Hil::connect`] does on a
//! board. The board binary sets the cage through its own fixture (the bench's `set edges`
//! over the protocol) and converts with its own ADC; the host only starts each game's noise
//! stream, as SIL's `start_game` does, so that profile + seed read what SIL reads.

use std::path::Path;
use std::time::Duration;

use boards::virtual_board::{BoardFault, Lit, Monitor, Waited};
use firmware::LedPattern;
use firmware::protocol::Command;
use gdb_probe::Quirks;
use gdb_probe::probe::{GdbLister, GdbTarget, SharedGdb};
use heuristic::{EdgeState, Move, Position, Side};
use probe_rs::probe::list::Lister;

use super::{Emulation, Hil};
use crate::dut::retry::Polling;
use crate::dut::{Cage, CageError, DutError, Lost, lost};
use crate::machine::{Launch, MachineError, VirtualBoard};

/// The virtual NUCLEO-F446RE's stub (a gdbstub crate server): it models the device registers
/// itself, its monitor resets the system, and it answers memory packets between instruction
/// blocks while the core runs; on the same machine its SRAM is a memory window, reached with
/// no packet at all.
pub const QUIRKS: Quirks = Quirks {
    target_xml_first: false,
    drops_device_writes: false,
    reset_command: Some(Monitor::RESET),
    reads_while_running: true,
    window_command: Some(Monitor::WINDOW),
};

/// The virtual NUCLEO-F446RE as probe-rs sees it: the STM32F446RE's flash and SRAM, both
/// written by a download directly (no flash algorithm runs on it).
pub const VIRTUAL_NUCLEO_F446RE_YAML: &str = include_str!("virtual_nucleo_f446re.yaml");
/// The chip's name in [`VIRTUAL_NUCLEO_F446RE_YAML`].
pub const VIRTUAL_NUCLEO_F446RE: &str = "VIRTUAL_NUCLEO_F446RE";

/// `virtual-board --fault no-fixture`: a cage without fixture, wired by hand (`monitor wire`).
pub const NO_FIXTURE: BoardFault = BoardFault::NoFixture;

/// The HIL target on a virtual board started as `launch` says (its faults made at register
/// level; its cage wired through the stub under [`NO_FIXTURE`]).
pub fn connect(launch: &Launch<'_>) -> Result<Hil, DutError> {
    let board = VirtualBoard::start(launch)?;
    let address = board.address();
    attach(
        &address,
        Some(board),
        launch.faults.contains(&NO_FIXTURE),
        launch.elf,
    )
}

/// Why the virtual board's stub could not be dialled ([`dial`]).
#[derive(Debug, thiserror::Error)]
pub enum DialError {
    /// The virtual board did not start.
    #[error(transparent)]
    Board(#[from] MachineError),
    /// Its stub did not answer.
    #[error("the virtual board's stub: {0}")]
    Gdb(#[from] gdb_probe::GdbError),
}

/// The virtual board started as `launch` says, with its stub dialled directly, not
/// through probe-rs: for a client of its `monitor` commands alone (the glitch campaign's
/// trials, each played in a process of the board's own). The connection comes first, so that
/// dropped in order it closes before the board is killed.
pub fn dial(launch: &Launch<'_>) -> Result<(gdb_probe::Gdb, VirtualBoard), DialError> {
    let board = VirtualBoard::start(launch)?;
    let gdb = gdb_probe::Gdb::connect(&board.address(), QUIRKS)?;
    Ok((gdb, board))
}

/// Whether the stub behind `gdb` is a virtual board: it answers `monitor window` (with its
/// memory window, or that it has none), which QEMU's stub does not know.
pub fn answers(gdb: &mut gdb_probe::Gdb) -> bool {
    gdb.monitor_output(Monitor::WINDOW)
        .is_ok_and(|said| said.trim_start().starts_with(Monitor::WINDOW))
}

/// The HIL target on a virtual board someone else started and named (`--probe
/// gdb:unix:PATH`, `virtual-board serve --gdb unix:PATH`): as [`connect`], but its process
/// stays theirs, and its cage is its fixture (a board started with `--fault no-fixture`
/// is wired by its owner).
pub fn connect_served(address: &gdb_probe::Address, elf: &Path) -> Result<Hil, DutError> {
    attach(address, None, false, elf)
}

/// Attaches probe-rs to the virtual board at `address` (`board`: its process, when the bench
/// started it); `hands`: its cage is wired through the stub.
fn attach(
    address: &gdb_probe::Address,
    mut board: Option<VirtualBoard>,
    hands: bool,
    elf: &Path,
) -> Result<Hil, DutError> {
    let (registry, ram) =
        super::probe::emulated_target(VIRTUAL_NUCLEO_F446RE_YAML, VIRTUAL_NUCLEO_F446RE)?;
    let lister = Lister::with_lister(Box::new(GdbLister::new([GdbTarget {
        address: address.clone(),
        quirks: QUIRKS,
        ram,
    }])));
    let probe = match lister.open(gdb_probe::probe::selector(address)) {
        Ok(probe) => probe,
        Err(e) => {
            let error = lost(e);
            return Err(match board.as_mut() {
                Some(board) => said(board, error),
                None => error,
            });
        }
    };
    let gdb = gdb_probe::probe::connection(address)
        .ok_or_else(|| Lost::Probe("the gdb probe holds no connection".into()))?;
    let hands = hands.then(|| Hands { gdb: gdb.clone() });
    let process = BoardProcess {
        gdb,
        board,
        address: address.clone(),
    };
    let hil = Hil::attach(
        probe,
        VIRTUAL_NUCLEO_F446RE,
        &registry,
        elf,
        None,
        Some(Box::new(process)),
        Polling::VIRTUAL,
    )?;
    Ok(match hands {
        Some(hands) => hil.with_cage(Box::new(hands)),
        None => hil,
    })
}

/// `error`, with what the board said if it has stopped.
fn said(board: &mut VirtualBoard, error: DutError) -> DutError {
    match board.said() {
        Some(line) => Lost::Machine {
            said: line,
            then: error.to_string(),
        }
        .into(),
        None => error,
    }
}

/// How the virtual board's `monitor coverage` answers when it cannot write the file
/// (virtual-board/src/gdb.rs), before why.
const COVERAGE_NOT_WRITTEN: &str = "coverage: cannot write: ";

/// The virtual board's side of the bench: each game's noise stream, one stop per poll, and
/// the board's process (killed when the target is dropped).
struct BoardProcess {
    gdb: SharedGdb,
    board: Option<VirtualBoard>,
    /// Where its stub is, as `--probe gdb:` names it.
    address: gdb_probe::Address,
}

/// The virtual board's hands: a cage without fixture, wired through the stub (`monitor
/// wire`), as the guided game's operator wires a board without one.
struct Hands {
    gdb: SharedGdb,
}

impl Cage for Hands {
    fn set(&mut self, position: &Position) -> Result<Option<Command>, DutError> {
        let states = boards::cage_states(position).map_err(CageError::from)?;
        let moves = boards::CAGE_SIZE
            .edges()
            .zip(states)
            .filter_map(|(edge, state)| {
                let side = match state {
                    EdgeState::Resistor => return None,
                    EdgeState::Cut => Side::Cut,
                    EdgeState::Short => Side::Short,
                };
                Some(Move { side, edge })
            })
            .collect();
        let command = Monitor::Wire(moves).to_string();
        let said = self.gdb.monitor_output(&command).map_err(lost)?;
        if said.trim().is_empty() {
            Ok(None)
        } else {
            Err(Lost::Probe(said.trim().to_string().into()).into())
        }
    }
}

impl Emulation for BoardProcess {
    fn describe(&self) -> Option<String> {
        let address = &self.address;
        Some(match self.board {
            Some(_) => format!("started by the bench, its GDB stub at gdb:{address}"),
            None => {
                format!("a virtual board (`virtual-board serve`), its GDB stub at gdb:{address}")
            }
        })
    }

    fn start_game(&mut self, game: usize) {
        // A board gone here shows at the next exchange, with what it said.
        // Sent with the core running: one round trip, not three.
        let _ = self
            .gdb
            .monitor_running(&Monitor::Game(game as u64).to_string());
    }

    fn hold(&mut self, on: bool) -> Result<(), DutError> {
        self.gdb.hold(on).map_err(lost)
    }

    /// `monitor wait`, sent with the core running: the bench sleeps in its read of the answer
    /// while the board runs until an RTT offset moves.
    fn wait(&mut self, words: &[(u32, u32)], limit: Duration) -> Option<Result<(), DutError>> {
        let ms = u32::try_from(limit.as_millis().max(1)).unwrap_or(u32::MAX);
        let command = Monitor::Wait {
            ms,
            words: words.to_vec(),
        };
        Some(match self.gdb.monitor_running(&command.to_string()) {
            Ok(said) => match said.parse::<Waited>() {
                Ok(_) => Ok(()),
                Err(_) => Err(Lost::Probe(format!("monitor wait: {}", said.trim()).into()).into()),
            },
            Err(e) => Err(lost(e)),
        })
    }

    fn said(&mut self) -> Option<String> {
        self.board.as_mut()?.said()
    }

    fn finish(&mut self) -> Result<(), DutError> {
        // The coverage file (`--coverage`) is written when asked: the process is killed next.
        // The board says in its answer when it cannot write it (issue 52: a run ended 0 with
        // the report short of its coverage). A board gone here failed the run already.
        let said = self
            .gdb
            .monitor_output(&Monitor::Coverage.to_string())
            .unwrap_or_default();
        match said
            .lines()
            .find_map(|line| line.strip_prefix(COVERAGE_NOT_WRITTEN))
        {
            Some(why) => Err(DutError::Coverage(why.trim().to_string())),
            None => Ok(()),
        }
    }

    fn lit(&mut self) -> Option<Result<LedPattern, DutError>> {
        Some(
            self.gdb
                .monitor_output(&Monitor::Leds.to_string())
                .map_err(lost)
                .and_then(|answer| {
                    let Lit { rows, columns } =
                        answer
                            .parse()
                            .map_err(|e: boards::virtual_board::LitError| {
                                Lost::Probe(e.to_string().into())
                            })?;
                    Ok(LedPattern { rows, columns })
                }),
        )
    }
}
