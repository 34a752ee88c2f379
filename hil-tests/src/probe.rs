//! HIL over probe-rs (feature `probe`): find the probe (or the one named), attach to the
//! profile's chip, flash the ELF, attach RTT with a timeout and retries, decode defmt on up
//! channel 0, speak the bench protocol on up channel 1 and down channel 0.
//!
//! A reply the board's `NoBlockSkip` up channel dropped is asked for again with the same
//! number ([`crate::link`]). Run against the firmware in QEMU through [`qemu::QemuProbe`]
//! (`--probe qemu`); never against a board yet.

mod in_qemu;
pub mod qemu;

use std::path::Path;
use std::time::{Duration, Instant};

use firmware::protocol::{Command, FrameReader, ProtocolError, Reply};
use heuristic::Position;
use probe_rs::config::Registry;
use probe_rs::flashing::{ElfLoader, ElfOptions, download_file};
use probe_rs::probe::Probe;
use probe_rs::probe::list::Lister;
use probe_rs::rtt::{Rtt, ScanRegion, find_rtt_control_block_in_raw_file, try_attach_to_rtt};
use probe_rs::{Permissions, Session};

use crate::defmt_log::DefmtLog;
use crate::link::{Awaiting, LinkStats, Polling};
use crate::target::{CageError, Lost, Sequence, Target, TargetError, encode_command, lost};

/// How long RTT attach keeps trying (the control block appears once the firmware has run
/// its `rtt_init!`), and how many times the whole attach is retried.
const RTT_TIMEOUT: Duration = Duration::from_secs(2);
const RTT_ATTEMPTS: u32 = 3;
/// How long a reply may take: a decision reads every node several times.
const REPLY_TIMEOUT: Duration = Duration::from_secs(3);

/// The real board (or the firmware in QEMU behind [`qemu::QemuProbe`]).
pub struct Hil {
    session: Session,
    rtt: Rtt,
    defmt: DefmtLog,
    seq: Sequence,
    service: Option<Box<dyn Service>>,
    /// Reply bytes read and not yet a whole frame (a copy may straddle two reads).
    reader: FrameReader,
    polling: Polling,
    stats: LinkStats,
}

impl std::fmt::Debug for Hil {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hil").finish_non_exhaustive()
    }
}

impl Hil {
    /// Connects: `request` names the probe (`VID:PID[:SERIAL]`) or the chip; the chip defaults
    /// to the profile's. Flashes `elf` and attaches RTT.
    pub fn connect(
        request: &str,
        profile: &'static boards::Profile,
        elf: &Path,
    ) -> Result<Hil, TargetError> {
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
            .ok_or_else(|| TargetError::NoProbe {
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
        Hil::attach(probe, &chip, &registry, elf, None, Polling::BOARD)
    }

    /// Attaches `probe` to `chip` of `registry`, flashes `elf`, resets and attaches RTT: the
    /// path every probe takes, a board's ([`Hil::connect`]) or QEMU's ([`qemu::connect`]).
    /// `service` answers a second channel pair while the bench waits for a reply (QEMU's
    /// emulated ADC); a board has none. `polling` paces the wait for a reply.
    pub fn attach(
        probe: Probe,
        chip: &str,
        registry: &Registry,
        elf: &Path,
        service: Option<Box<dyn Service>>,
        polling: Polling,
    ) -> Result<Hil, TargetError> {
        // Read first: a missing ELF is named as such, not as probe-rs's IO error mid-download.
        let bytes = std::fs::read(elf).map_err(|error| Lost::Elf {
            path: elf.to_path_buf(),
            error,
        })?;
        let mut session = probe
            .attach_with_registry(chip, Permissions::default(), registry)
            .map_err(lost)?;
        download_file(&mut session, elf, ElfLoader(ElfOptions::default())).map_err(lost)?;
        let defmt = DefmtLog::new(&bytes).map_err(Lost::Defmt)?;
        let region = match find_rtt_control_block_in_raw_file(&bytes) {
            Ok(Some(addr)) => ScanRegion::Exact(addr),
            _ => ScanRegion::Ram,
        };
        let mut last = None;
        for _ in 0..RTT_ATTEMPTS {
            let mut core = session.core(0).map_err(lost)?;
            core.reset().map_err(lost)?;
            match try_attach_to_rtt(&mut core, RTT_TIMEOUT, &region) {
                Ok(rtt) => {
                    drop(core);
                    return Ok(Hil {
                        session,
                        rtt,
                        defmt,
                        seq: Sequence::default(),
                        service,
                        reader: FrameReader::new(),
                        polling,
                        stats: LinkStats::default(),
                    });
                }
                Err(e) => last = Some(e),
            }
        }
        Err(Lost::Rtt {
            attempts: RTT_ATTEMPTS,
            last: last.map(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>),
        }
        .into())
    }
}

impl Hil {
    /// Where RTT's control block is and the channels it declares (names and sizes), as
    /// probe-rs found them: for bring-up.
    pub fn rtt_layout(&mut self) -> String {
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
        format!("at {ptr:#010x}; up: {up}; down: {down}")
    }
}

/// A channel pair the host answers while the bench waits for a reply: the emulated ADC of
/// the firmware in QEMU, whose sampler asks the host for every conversion. It also holds the
/// cage the bench sets, since that firmware has no fixture to set one with.
pub trait Service {
    /// The up channel the firmware asks on.
    fn up(&self) -> usize;
    /// The down channel the answers go to.
    fn down(&self) -> usize;
    /// Takes what came up; returns the bytes to send down.
    fn serve(&mut self, bytes: &[u8]) -> Result<Vec<u8>, TargetError>;
    /// Sets the cage the service measures.
    fn set_cage(&mut self, position: &Position) -> Result<(), TargetError>;
    /// A new game starts (the emulated board's noise is drawn per game).
    fn start_game(&mut self, game: usize);
    /// A poll of the channels begins (`true`) or ends. QEMU cannot be read while its guest
    /// runs, so its probe stops the guest for each access; held, the guest stays stopped from
    /// the first access of a poll to its end (one stop per poll instead of some ten).
    fn hold(&mut self, on: bool) -> Result<(), TargetError> {
        let _ = on;
        Ok(())
    }
}

/// Reads what up channel 0 holds and decodes every whole defmt frame.
fn pump_logs(
    rtt: &mut Rtt,
    defmt: &mut DefmtLog,
    core: &mut probe_rs::Core<'_>,
) -> Result<(), TargetError> {
    let mut buf = [0u8; 1024];
    let Some(up) = rtt.up_channel(0) else {
        return Ok(());
    };
    let n = up.read(core, &mut buf).map_err(lost)?;
    defmt.received(&buf[..n]);
    Ok(())
}

/// Tells the service a poll begins (`true`) or ends.
fn hold(service: &mut Option<Box<dyn Service>>, on: bool) -> Result<(), TargetError> {
    match service {
        Some(service) => service.hold(on),
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
) -> Result<bool, TargetError> {
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

/// Writes a command frame to the bench down channel (0), with the guest running: the
/// firmware takes the bytes as they come, so a frame never stays torn.
fn send(
    rtt: &mut Rtt,
    core: &mut probe_rs::Core<'_>,
    frame: &[u8],
    seq: u16,
) -> Result<(), TargetError> {
    if write_all(rtt, core, 0, frame)? {
        Ok(())
    } else {
        Err(TargetError::NoReply { seq })
    }
}

/// Answers what the service's up channel holds; whether there was anything.
fn serve(
    rtt: &mut Rtt,
    service: &mut dyn Service,
    core: &mut probe_rs::Core<'_>,
) -> Result<bool, TargetError> {
    let mut buf = [0u8; 256];
    let number = service.up();
    let up = rtt.up_channel(number).ok_or(Lost::NoChannel {
        direction: "up",
        number,
    })?;
    let n = up.read(core, &mut buf).map_err(lost)?;
    if n == 0 {
        return Ok(false);
    }
    let answer = service.serve(&buf[..n])?;
    // The firmware waits for each answer before it asks again: there is room, held or not.
    let number = service.down();
    if !write_all(rtt, core, number, &answer)? {
        return Err(Lost::Service(number).into());
    }
    Ok(true)
}

impl Target for Hil {
    fn stage(&self) -> &'static str {
        "HIL"
    }

    fn exchange(&mut self, command: Command) -> Result<Reply, TargetError> {
        let seq = self.seq.take();
        let frame = encode_command(seq, command)?;
        let mut core = self.session.core(0).map_err(lost)?;
        send(&mut self.rtt, &mut core, &frame, seq)?;
        let mut wait = Awaiting::new(seq, self.polling);
        let mut buf = [0u8; 256];
        let start = Instant::now();
        while start.elapsed() < REPLY_TIMEOUT {
            self.stats.polls += 1;
            hold(&mut self.service, true)?;
            let polled = (|| {
                let up = self.rtt.up_channel(1).ok_or(Lost::NoChannel {
                    direction: "up",
                    number: 1,
                })?;
                let n = up.read(&mut core, &mut buf).map_err(lost)?;
                for &b in &buf[..n] {
                    if let Some(frame) = self.reader.push::<Reply>(b) {
                        wait.take(frame?, &mut self.stats)?;
                    }
                }
                // The log channel drops what does not fit: keep it drained while the board
                // works.
                pump_logs(&mut self.rtt, &mut self.defmt, &mut core)?;
                let served = match &mut self.service {
                    Some(service) => serve(&mut self.rtt, service.as_mut(), &mut core)?,
                    None => false,
                };
                Ok::<_, TargetError>(n > 0 || served)
            })();
            hold(&mut self.service, false)?;
            let busy = polled?;
            if let Some(answer) = wait.answer(&mut self.stats) {
                return Ok(answer);
            }
            // A reply dropped by the full up channel: ask again with the same number (not
            // held: the firmware must be running to make room for it).
            if wait.due() {
                send(&mut self.rtt, &mut core, &frame, seq)?;
                wait.repeated(&mut self.stats);
            }
            if !busy {
                std::thread::sleep(self.polling.interval);
            }
        }
        Err(TargetError::NoReply { seq })
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

    fn link_stats(&self) -> Option<LinkStats> {
        Some(self.stats)
    }

    fn start_game(&mut self, game: usize) {
        if let Some(service) = &mut self.service {
            service.start_game(game);
        }
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), TargetError> {
        if let Some(service) = &mut self.service {
            return service.set_cage(position);
        }
        let states = boards::cage_states(position).map_err(CageError::from)?;
        match self.exchange(Command::SetEdges(states))? {
            Reply::Done => Ok(()),
            Reply::Error(ProtocolError::NoFixture) => Err(CageError::NoFixture.into()),
            Reply::Error(e) => Err(CageError::Refused(e).into()),
            reply => Err(Lost::Unexpected {
                expected: "Done",
                reply,
            }
            .into()),
        }
    }
}
