//! HIL over probe-rs (feature `probe`): find the probe (or the one named), attach to the
//! profile's chip, flash the ELF, attach RTT with a timeout and retries, decode defmt on up
//! channel 0, speak the bench protocol on up channel 1 and down channel 0.
//!
//! A reply the board's `NoBlockSkip` up channel dropped is asked for again with the same
//! number ([`crate::dut::retry`]). A probe is a USB probe (`VID:PID[:SERIAL]`), a chip
//! name, a GDB stub (`gdb:unix:PATH`, `gdb:tcp:HOST:PORT`, opened through
//! [`gdb_probe::probe::GdbLister`] like any probe) or a DAP server (`dap:unix:PATH`,
//! `dap:tcp:HOST:PORT`, through [`dap_probe::DapLister`]). Run against the firmware in QEMU
//! (`--probe qemu`, [`super::qemu`]); never against a board yet.

use std::path::Path;
use std::time::{Duration, Instant};

use firmware::LedPattern;
use firmware::protocol::{Command, FrameReader, ProtocolError, Reply};
use gdb_probe::probe::{GdbLister, GdbTarget};
use probe_rs::MemoryInterface;
use probe_rs::config::Registry;
use probe_rs::flashing::{DownloadOptions, ElfLoader, ElfOptions, download_file_with_options};
use probe_rs::probe::Probe;
use probe_rs::probe::list::Lister;
use probe_rs::rtt::{Rtt, ScanRegion, find_rtt_control_block_in_raw_file, try_attach_to_rtt};
use probe_rs::{Permissions, Session};

use super::image;
use super::path::{self, PathFault};
use crate::dut::defmt::DefmtLog;
use crate::dut::frame::{Sequence, encode_command};
use crate::dut::retry::{self, Backend, Polled, Polling, RetryStats};
use crate::dut::{Cage, Dut, DutError, Fixture, Lost, lost};
use crate::machine::Elf;

/// How long RTT attach keeps trying (the control block appears once the firmware has run
/// its `rtt_init!`), and how many times the whole attach is retried.
const RTT_TIMEOUT: Duration = Duration::from_secs(2);
const RTT_ATTEMPTS: u32 = 3;
/// How long a reply may take: a decision reads every node several times.
const REPLY_TIMEOUT: Duration = Duration::from_secs(3);

/// The real board (or the firmware in QEMU, or the virtual board, behind a GDB stub).
pub struct Hil {
    session: Session,
    rtt: Rtt,
    defmt: DefmtLog,
    seq: Sequence,
    /// A channel pair the host answers (QEMU's ADC); a board has none.
    service: Option<Box<dyn Service>>,
    /// The cage under the board: the fixture the firmware drives, unless set otherwise.
    cage: Box<dyn Cage>,
    /// Reply bytes read and not yet a whole frame (a copy may straddle two reads).
    reader: FrameReader,
    polling: Polling,
    stats: RetryStats,
    /// The ELF's functions, to name where a hung core is.
    functions: gdb_probe::symbols::Functions,
    /// Where the chip keeps its reset flags (an STM32F4's RCC_CSR), if the bench knows.
    reset_flags: Option<u64>,
    /// The emulated machine behind the probe, watched (QEMU's process, the virtual board's):
    /// declared after the session, so dropped after it.
    emulation: Option<Box<dyn Emulation>>,
    /// Whether [`Emulation::finish`] ran: once, by [`Dut::finish`] or else on drop.
    finished: bool,
    /// What flash held before the bench flashed it, said when something went wrong (a
    /// download cut mid-way).
    found: Option<String>,
    /// The RTT control block's number of up channels, once read ([`Link::moving_words`]).
    rtt_max_up: Option<u64>,
}

impl std::fmt::Debug for Hil {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hil").finish_non_exhaustive()
    }
}

impl Hil {
    /// Connects to a USB probe (`VID:PID[:SERIAL]`) or the first probe attached, as `request`
    /// names it (a chip name picks the chip), and attaches as the profile's chip unless the
    /// request names one. A `gdb:` stub goes through [`super::stub`] instead.
    pub(super) fn connect_board(
        request: &str,
        profile: &'static boards::Profile,
        elf: &Path,
    ) -> Result<Hil, DutError> {
        let lister = Lister::new();
        let probes = lister.list_all();
        let named = request.contains(':');
        let info = probes
            .iter()
            .find(|p| {
                !named || {
                    let id = format!("{:04x}:{:04x}", p.vendor_id, p.product_id);
                    let full = format!("{id}:{}", p.serial_number.as_deref().unwrap_or(""));
                    request.eq_ignore_ascii_case(&id) || request.eq_ignore_ascii_case(&full)
                }
            })
            .ok_or_else(|| DutError::NoProbe {
                request: request.to_string(),
                attached: probes
                    .iter()
                    .map(|p| {
                        let id = format!("{:04x}:{:04x}", p.vendor_id, p.product_id);
                        match &p.serial_number {
                            Some(serial) => format!("{id}:{serial}"),
                            None => id,
                        }
                    })
                    .collect(),
            })?;
        let chip = match (named, profile.probe_rs_chip) {
            (false, _) => request.to_string(),
            (true, Some(chip)) => chip.to_string(),
            (true, None) => return Err(Lost::NoChip(profile.name).into()),
        };
        let probe = lister.open(info).map_err(lost)?;
        let registry = Registry::from_builtin_families();
        Hil::attach(probe, &chip, &registry, elf, None, None, Polling::BOARD)
    }

    /// A GDB stub through probe-rs's lister, attached as `chip` of `registry`.
    pub(super) fn connect_stub(
        target: GdbTarget,
        chip: &str,
        registry: &Registry,
        elf: &Path,
        emulation: Option<Box<dyn Emulation>>,
        polling: Polling,
    ) -> Result<Hil, DutError> {
        let selector = gdb_probe::probe::selector(&target.address);
        let lister = Lister::with_lister(Box::new(GdbLister::new([target])));
        let probe = lister.open(selector).map_err(lost)?;
        Hil::attach(probe, chip, registry, elf, None, emulation, polling)
    }

    /// Attaches `probe` to `chip` of `registry`, flashes `elf`, resets and attaches RTT: the
    /// path every probe takes, a board's ([`Hil::connect`]) or QEMU's
    /// ([`super::qemu::connect`]). `service` answers a second channel pair while the bench
    /// waits for a reply (QEMU's emulated ADC); `emulation` is the emulated machine behind
    /// the probe, which lives as long as the target; a board has neither. `polling` paces the
    /// wait for a reply.
    pub fn attach(
        probe: Probe,
        chip: &str,
        registry: &Registry,
        elf: &Path,
        service: Option<Box<dyn Service>>,
        mut emulation: Option<Box<dyn Emulation>>,
        polling: Polling,
    ) -> Result<Hil, DutError> {
        // Read first: a missing ELF is named as such, not as probe-rs's IO error mid-download.
        let bytes = Elf::read(elf)?.bytes;
        match Self::bring_up(probe, chip, registry, elf, &bytes) {
            Ok((session, rtt, defmt, found)) => Ok(Hil {
                found,
                reset_flags: super::reset::flags_of(chip),
                cage: Box::new(Fixture),
                session,
                rtt,
                functions: gdb_probe::symbols::Functions::parse(&bytes),
                defmt,
                seq: Sequence::default(),
                service,
                reader: FrameReader::new(),
                polling,
                stats: RetryStats::default(),
                emulation,
                finished: false,
                rtt_max_up: None,
            }),
            // A machine that stopped meanwhile (a firmware that panics at boot) says why:
            // probe-rs alone sees only a probe that stopped answering.
            Err(error) => Err(match emulation.as_mut().and_then(|e| e.said()) {
                Some(said) => Lost::Machine {
                    said,
                    then: error.to_string(),
                }
                .into(),
                None => error,
            }),
        }
    }

    /// [`Hil::attach`]'s steps: attach, flash, reset, RTT.
    fn bring_up(
        probe: Probe,
        chip: &str,
        registry: &Registry,
        elf: &Path,
        bytes: &[u8],
    ) -> Result<(Session, Rtt, DefmtLog, Option<String>), DutError> {
        // The faults probe-rs's attach trips on without naming them: a core held in reset
        // (its attach halts the core), flash read-protected, a DP that answers WAIT or FAULT.
        let (probe, fault) = path::look(probe, chip);
        if let Some(fault) = fault {
            return Err(DutError::Path(fault));
        }
        let mut session = probe
            .attach_with_registry(chip, Permissions::default(), registry)
            .map_err(|e| named_or_lost(e, "attaching"))?;
        // What flash holds first: a download cut mid-way is said, then flashed over.
        let found = match image::look(&mut session, bytes) {
            Some(Ok(found)) => found.line(),
            Some(Err(e)) => return Err(named_or_lost(e, "reading flash")),
            None => None,
        };
        if let Some(line) = &found {
            eprintln!("bench: {line}");
        }
        // Verified: read back whole, as a flash algorithm's programming can fail silently.
        let mut options = DownloadOptions::default();
        options.verify = true;
        download_file_with_options(&mut session, elf, ElfLoader(ElfOptions::default()), options)
            .map_err(|e| named_or_lost(e, "downloading"))?;
        let defmt = DefmtLog::new(bytes).map_err(Lost::Defmt)?;
        let region = match find_rtt_control_block_in_raw_file(bytes) {
            Ok(Some(addr)) => ScanRegion::Exact(addr),
            _ => ScanRegion::Ram,
        };
        let mut last = None;
        for _ in 0..RTT_ATTEMPTS {
            let mut core = session.core(0).map_err(lost)?;
            core.reset().map_err(lost)?;
            match try_attach_to_rtt(&mut core, RTT_TIMEOUT, &region) {
                Ok(rtt) => {
                    // The reset flags from before the session cleared: one found set later
                    // says what reset the board under the bench.
                    if let Some(csr) = super::reset::flags_of(chip) {
                        let flags = core.read_word_32(csr).map_err(lost)?;
                        core.write_word_32(csr, flags | super::reset::RMVF)
                            .map_err(lost)?;
                    }
                    drop(core);
                    return Ok((session, rtt, defmt, found));
                }
                Err(e) => last = Some(e),
            }
        }
        // A core that faulted before RTT came up and had no handler to take it.
        if let Ok(mut core) = session.core(0)
            && let Some(pc) = path::locked_up(&mut core)
        {
            let symbol = gdb_probe::symbols::Functions::parse(bytes)
                .at(pc)
                .map(|f| f.name.clone());
            return Err(DutError::Path(PathFault::LockedUp {
                pc,
                symbol,
                at_boot: true,
            }));
        }
        Err(Lost::Rtt {
            attempts: RTT_ATTEMPTS,
            last: last.map(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>),
        }
        .into())
    }
}

/// A fault of the path (a WAIT or FAULT the DP answered) met `during` a step, or else a lost
/// target in probe-rs's words.
fn named_or_lost(
    e: impl std::error::Error + Send + Sync + 'static,
    during: &'static str,
) -> DutError {
    match path::named(&e, during) {
        Some(fault) => DutError::Path(fault),
        None => lost(e),
    }
}

/// A lost target in probe-rs's words and its sources' ("The debug probe could not be created."
/// alone hides the DAP server's answer, which is a source of it).
pub(super) fn lost_with_sources(e: impl std::error::Error + Send + Sync + 'static) -> DutError {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    Lost::Probe(text.into()).into()
}

impl Drop for Hil {
    fn drop(&mut self) {
        // Before the session's own drop detaches the probe. A run that ended otherwise than
        // by `finish` (stopped, lost) has said why already: what the machine says is moot.
        let _ = Dut::finish(self);
    }
}

impl Hil {
    /// The board with `cage` under it instead of its fixture: an emulated machine's cage,
    /// or the operator's in the guided game.
    pub fn with_cage(mut self, cage: Box<dyn Cage>) -> Hil {
        self.cage = cage;
        self
    }

    /// What the board's LEDs show, as a person at the board sees them: `None` on a real board,
    /// where nothing but a person sees them.
    pub fn lit(&mut self) -> Option<Result<LedPattern, DutError>> {
        self.emulation.as_mut()?.lit()
    }
}

/// A channel pair the firmware asks the host on, answered while the bench waits for a reply:
/// QEMU's firmware asks for every conversion this way (it has no ADC). A board has none.
pub trait Service {
    /// The channel pair (up, down).
    fn channels(&self) -> (usize, usize);
    /// Takes what came up on [`Service::channels`]; returns the bytes to send down.
    fn serve(&mut self, bytes: &[u8]) -> Result<Vec<u8>, DutError>;
}

/// The emulated machine behind a probe, watched: its run control around a poll, the line it
/// says when it stops, what it shows lit, its coverage and each game's noise. QEMU's and the
/// virtual board's; a real board has none.
pub trait Emulation {
    /// What the probe reached, in a person's words, when the machine can say (the virtual
    /// board, and where its stub is): bring-up's probe line says it found an emulated board.
    fn describe(&self) -> Option<String> {
        None
    }
    /// A new game starts (the virtual board draws its noise per game).
    fn start_game(&mut self, game: usize) {
        let _ = game;
    }
    /// A poll of the channels begins (`true`) or ends. QEMU cannot be read while its guest
    /// runs, so its probe stops the guest for each access; held, the guest stays stopped from
    /// the first access of a poll to its end (one stop per poll instead of some ten).
    fn hold(&mut self, on: bool) -> Result<(), DutError> {
        let _ = on;
        Ok(())
    }
    /// What the machine said when it stopped (the virtual board's one line), if it has.
    fn said(&mut self) -> Option<String> {
        None
    }
    /// The run is over, the session still open (the virtual board writes its coverage); an
    /// error says what the machine could not write, which the report then lacks.
    fn finish(&mut self) -> Result<(), DutError> {
        Ok(())
    }
    /// What a person at the board sees lit, if the machine shows it (the virtual board).
    fn lit(&mut self) -> Option<Result<LedPattern, DutError>> {
        None
    }
    /// Blocks until a word of `words` (target address, value) holds another value or `limit`
    /// passes, if the machine can say so (the virtual board's `monitor wait`); `None`: it
    /// cannot, and the bench pauses between polls instead.
    fn wait(&mut self, words: &[(u32, u32)], limit: Duration) -> Option<Result<(), DutError>> {
        let _ = (words, limit);
        None
    }
}

/// A registry holding the one target family of `yaml`, and the RAM of its target `name`: what
/// an emulated machine (QEMU's, the virtual board) is to probe-rs, and what its probe may write.
pub(crate) fn emulated_target(
    yaml: &str,
    name: &str,
) -> Result<(Registry, Vec<std::ops::Range<u64>>), DutError> {
    let mut registry = Registry::new();
    registry.add_target_family_from_yaml(yaml).map_err(lost)?;
    let target = registry.get_target_by_name(name).map_err(lost)?;
    let ram = target
        .memory_map
        .iter()
        .filter_map(|region| match region {
            probe_rs::config::MemoryRegion::Ram(ram) => Some(ram.range.clone()),
            _ => None,
        })
        .collect();
    Ok((registry, ram))
}

/// The longest single wait on the machine: the bench's own clocks (its retry, its timeout) are
/// looked at between waits.
const WAIT_CAP: Duration = Duration::from_millis(100);

/// Where a SEGGER RTT control block keeps its channels' offsets (32-bit target): the header
/// is the 16-byte id and the two channel counts, each channel six words (name, buffer, size,
/// write offset, read offset, flags), the up channels first.
mod rtt_layout {
    /// The number of up channels.
    pub const MAX_UP: u64 = 16;
    /// The first channel.
    pub const CHANNELS: u64 = 24;
    /// One channel.
    pub const CHANNEL: u64 = 24;
    /// The write offset in a channel.
    pub const WRITE: u64 = 12;
    /// The read offset in a channel.
    pub const READ: u64 = 16;
}

/// One exchange's hold on the board: one probe-rs `Core` for all its sends, polls and
/// waits, and the parts of [`Hil`] they use. A `Core` opens the AP's memory interface anew
/// (SELECT, the AP's IDR, CFG and CSW: five debug-port transactions) and starts with its
/// CSW and TAR caches empty, so one per exchange rather than one per poll: over the board's
/// own debug port that was half the transactions of the M=3 tree (hil-tests/README.md).
struct Link<'s> {
    core: probe_rs::Core<'s>,
    rtt: &'s mut Rtt,
    defmt: &'s mut DefmtLog,
    reader: &'s mut FrameReader,
    service: &'s mut Option<Box<dyn Service>>,
    emulation: &'s mut Option<Box<dyn Emulation>>,
    /// The control block's number of up channels, read once (the firmware's `rtt_init!` set
    /// it; a reset attaches RTT anew).
    max_up: &'s mut Option<u64>,
}

impl Link<'_> {
    /// The words whose change means the firmware moved (RTT offsets, read now): an up
    /// channel's write offset against the read offset the bench left (data to read), and with
    /// `room` the down channel's read offset (the firmware took bytes).
    fn moving_words(&mut self, room: bool) -> Result<Vec<(u32, u32)>, DutError> {
        use rtt_layout::*;
        let block = self.rtt.ptr();
        let max_up = match *self.max_up {
            Some(max_up) => max_up,
            None => {
                let read = u64::from(self.core.read_word_32(block + MAX_UP).map_err(lost)?);
                *self.max_up.insert(read)
            }
        };
        let up = |n: u64| block + CHANNELS + n * CHANNEL;
        let down = |n: u64| block + CHANNELS + (max_up + n) * CHANNEL;
        // The offsets in one block read (one TAR and one DRW burst over a DAP), from up
        // channel 0's read offset to the last word wanted.
        let first = up(0) + READ;
        let last = if room { down(0) + READ } else { up(1) + READ };
        let mut values = vec![0u32; ((last - first) / 4 + 1) as usize];
        self.core.read_32(first, &mut values).map_err(lost)?;
        let at = |address: u64| values[((address - first) / 4) as usize];
        let mut words = Vec::with_capacity(3);
        for channel in [1, 0] {
            words.push(((up(channel) + WRITE) as u32, at(up(channel) + READ)));
        }
        if room {
            let at_down = down(0) + READ;
            words.push((at_down as u32, at(at_down)));
        }
        Ok(words)
    }
}

impl Hil {
    /// The ELF's function holding `pc`.
    fn symbol(&self, pc: u32) -> Option<String> {
        self.functions.at(pc).map(|f| f.name.clone())
    }

    /// What reset the board under the bench, if its reset flags say a watchdog did.
    fn reset_cause(&mut self) -> Option<&'static str> {
        let csr = self.reset_flags?;
        let mut core = self.session.core(0).ok()?;
        super::reset::watchdog(core.read_word_32(csr).ok()?)
    }

    /// `error` with what the machine said, if it stopped, a board that reset, or (no reply)
    /// where the core is.
    fn explain(&mut self, error: DutError) -> DutError {
        if let Some(mut line) = self.emulation.as_mut().and_then(|e| e.said()) {
            // Its last error on RTT (a panic's message), when the bench read it before the
            // machine could: the machine's line then lacks it.
            if let Some(last) = self.defmt.last_error() {
                let last = last.lines().collect::<Vec<_>>().join(" | ");
                if !line.contains(&last) {
                    line = format!("{line}; the firmware's last error on RTT: {last}");
                }
            }
            return Lost::Machine {
                said: line,
                then: error.to_string(),
            }
            .into();
        }
        if let Some(cause) = self.reset_cause() {
            let then = match &error {
                DutError::Lost(lost) => lost.to_string(),
                other => other.to_string(),
            };
            return DutError::Reset { cause, then };
        }
        let DutError::NoReply { seq } = error else {
            return error;
        };
        // A core that locked up (a fault it could not take) is not hanging: DHCSR says so.
        let locked = self
            .session
            .core(0)
            .ok()
            .and_then(|mut core| path::locked_up(&mut core));
        if let Some(pc) = locked {
            return DutError::Path(PathFault::LockedUp {
                pc,
                symbol: self.symbol(pc),
                at_boot: false,
            });
        }
        let pc = self
            .session
            .core(0)
            .ok()
            .and_then(|mut core| core.halt(Duration::from_millis(500)).ok())
            .map(|info| info.pc as u32);
        match pc {
            Some(pc) => DutError::Hangs {
                seq,
                pc,
                symbol: self.symbol(pc),
            },
            None => error,
        }
    }
}

/// Reads what up channel 0 holds and decodes every whole defmt frame.
fn pump_logs(
    rtt: &mut Rtt,
    defmt: &mut DefmtLog,
    core: &mut probe_rs::Core<'_>,
) -> Result<(), DutError> {
    let mut buf = [0u8; 1024];
    let Some(up) = rtt.up_channel(0) else {
        return Ok(());
    };
    let n = up.read(core, &mut buf).map_err(lost)?;
    defmt.received(&buf[..n]);
    Ok(())
}

/// Tells the emulated machine a poll begins (`true`) or ends.
fn hold(emulation: &mut Option<Box<dyn Emulation>>, on: bool) -> Result<(), DutError> {
    match emulation {
        Some(emulation) => emulation.hold(on),
        None => Ok(()),
    }
}

/// Writes all of `bytes` to down channel `number`, waiting while the firmware makes room;
/// whether it was all written within [`REPLY_TIMEOUT`].
fn write_all(
    rtt: &mut Rtt,
    core: &mut probe_rs::Core<'_>,
    number: usize,
    bytes: &[u8],
) -> Result<bool, DutError> {
    let down = rtt.down_channel(number).ok_or(Lost::NoChannel {
        direction: "down",
        number,
    })?;
    let mut sent = 0;
    let start = Instant::now();
    while sent < bytes.len() {
        sent += down.write(core, &bytes[sent..]).map_err(lost)?;
        if start.elapsed() > REPLY_TIMEOUT {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Answers what the service's up channel holds; whether there was anything.
fn serve(
    rtt: &mut Rtt,
    service: &mut dyn Service,
    core: &mut probe_rs::Core<'_>,
) -> Result<bool, DutError> {
    let (up_number, down_number) = service.channels();
    let mut buf = [0u8; 256];
    let up = rtt.up_channel(up_number).ok_or(Lost::NoChannel {
        direction: "up",
        number: up_number,
    })?;
    let n = up.read(core, &mut buf).map_err(lost)?;
    if n == 0 {
        return Ok(false);
    }
    let answer = service.serve(&buf[..n])?;
    // The firmware waits for each answer before it asks again: there is room, held or not.
    if !write_all(rtt, core, down_number, &answer)? {
        return Err(Lost::Service(down_number).into());
    }
    Ok(true)
}

impl Dut for Hil {
    fn stage(&self) -> crate::dut::Setup {
        crate::dut::Stage::Hil.into()
    }

    /// As probe-rs found them.
    fn rtt_layout(&mut self) -> Option<String> {
        let list = |channels: Vec<(Option<String>, usize)>| {
            channels
                .into_iter()
                .map(|(name, size)| format!("\"{}\" {size} B", name.unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let ptr = self.rtt.ptr();
        let up = list(
            self.rtt
                .up_channels()
                .iter()
                .map(|c| (c.name().map(str::to_string), c.buffer_size()))
                .collect(),
        );
        let down = list(
            self.rtt
                .down_channels()
                .iter()
                .map(|c| (c.name().map(str::to_string), c.buffer_size()))
                .collect(),
        );
        Some(format!("at {ptr:#010x}; up: {up}; down: {down}"))
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, DutError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        let polling = self.polling;
        let mut stats = RetryStats::default();
        let reply = match self.session.core(0) {
            Ok(core) => {
                let mut link = Link {
                    core,
                    rtt: &mut self.rtt,
                    defmt: &mut self.defmt,
                    reader: &mut self.reader,
                    service: &mut self.service,
                    emulation: &mut self.emulation,
                    max_up: &mut self.rtt_max_up,
                };
                retry::exchange(&mut link, seq, &frame, polling, REPLY_TIMEOUT, &mut stats)
            }
            Err(e) => Err(lost(e)),
        };
        self.stats += stats;
        reply.map_err(|e| self.explain(e))
    }

    fn logs(&mut self) -> Vec<String> {
        if let Ok(mut core) = self.session.core(0) {
            // A probe gone here shows at the next exchange; the logs so far are kept.
            let _ = pump_logs(&mut self.rtt, &mut self.defmt, &mut core);
        }
        let lines = self.defmt.take();
        for line in &lines {
            self.stats.log_line(line);
        }
        lines
    }

    fn retry_stats(&self) -> Option<RetryStats> {
        Some(self.stats)
    }

    fn flashed(&self) -> Option<String> {
        self.found.clone()
    }

    fn behind(&self) -> Option<String> {
        self.emulation.as_ref()?.describe()
    }

    fn start_game(&mut self, game: usize) {
        self.cage.start_game(game);
        if let Some(emulation) = &mut self.emulation {
            emulation.start_game(game);
        }
    }

    fn cage(&mut self) -> &mut dyn Cage {
        self.cage.as_mut()
    }

    fn finish(&mut self) -> Result<(), DutError> {
        if std::mem::replace(&mut self.finished, true) {
            return Ok(());
        }
        match &mut self.emulation {
            Some(emulation) => emulation.finish(),
            None => Ok(()),
        }
    }
}

impl Backend for Link<'_> {
    /// Writes the frame to the bench down channel (0) with the guest running (not held: the
    /// firmware takes the bytes as they come, so a frame never stays torn).
    fn send(&mut self, frame: &[u8]) -> Result<bool, DutError> {
        write_all(self.rtt, &mut self.core, 0, frame)
    }

    fn poll(&mut self) -> Result<Polled, DutError> {
        hold(self.emulation, true)?;
        let polled = (|| {
            let mut buf = [0u8; 256];
            let up = self.rtt.up_channel(1).ok_or(Lost::NoChannel {
                direction: "up",
                number: 1,
            })?;
            let n = up.read(&mut self.core, &mut buf).map_err(lost)?;
            let replies = buf[..n]
                .iter()
                .filter_map(|&b| self.reader.push::<Reply>(b))
                .collect();
            // The log channel drops what does not fit: keep it drained while the board works.
            pump_logs(self.rtt, self.defmt, &mut self.core)?;
            let served = match self.service {
                Some(service) => serve(self.rtt, service.as_mut(), &mut self.core)?,
                None => false,
            };
            Ok::<_, DutError>(Polled {
                replies,
                busy: n > 0 || served,
            })
        })();
        hold(self.emulation, false)?;
        polled
    }

    /// On a machine that can say when the firmware moved, blocks on it (the bench sleeps
    /// while the board runs: issue 52, a bench that yielded between polls took 14 times as
    /// long beside two busy processes); elsewhere the pause.
    fn idle(&mut self, room: bool, interval: Duration, limit: Duration) -> Result<(), DutError> {
        let limit = limit.min(WAIT_CAP);
        if self.emulation.is_some() && !limit.is_zero() {
            let words = self.moving_words(room)?;
            if let Some(waited) = self.emulation.as_mut().and_then(|e| e.wait(&words, limit)) {
                return waited;
            }
        }
        retry::pause(interval);
        Ok(())
    }

    fn bad_frame(&mut self, error: ProtocolError) -> DutError {
        DutError::Link(error)
    }

    fn timed_out(&mut self, seq: u16) -> DutError {
        DutError::NoReply { seq }
    }
}
