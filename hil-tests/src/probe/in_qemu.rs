//! `--target hil --probe qemu`: the HIL target's probe-rs path against the firmware in QEMU,
//! through [`QemuProbe`] over QEMU's gdbstub.
//!
//! QEMU starts with no image (`-S`, no `-kernel`): the firmware gets into its memory only by
//! probe-rs's `download_file`, and runs only after probe-rs's reset, as on a board. Its
//! command line (`PROFILE link=rtt`) comes from `-semihosting-config arg=`, since `-append`
//! needs `-kernel`. Until the download, the CPU sits in its reset state with no vector table;
//! letting it run then would lock it up, which QEMU 7.2 answers by aborting.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use emulator::emulated::EmulatedCage;
use firmware::pil::Up;
use firmware::protocol::FrameReader;
use heuristic::{Position, Size};
use probe_rs::config::{MemoryRegion, Registry};

use super::qemu::{CHIP, QemuProbe, Stub, TARGET_YAML};
use super::{Hil, Service};
use crate::gdb::{Gdb, GdbError};
use crate::pil::{Adc, qemu_machine};
use crate::target::{CageError, Lost, TargetError, wire};

/// How long QEMU may take to open its gdb socket.
const SOCKET_TIMEOUT: Duration = Duration::from_secs(5);

/// The gdb connection, shared by the probe and the bench's polls ([`Service::hold`]).
#[derive(Clone, Debug)]
struct SharedGdb(Arc<Mutex<Held>>);

#[derive(Debug)]
struct Held {
    gdb: Gdb,
    /// A poll is under way: the probe's resumes wait for its end.
    hold: bool,
    /// The probe resumed during the poll: the guest is stopped and runs at its end.
    deferred: bool,
}

impl SharedGdb {
    fn new(gdb: Gdb) -> SharedGdb {
        SharedGdb(Arc::new(Mutex::new(Held {
            gdb,
            hold: false,
            deferred: false,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        // A panic while the lock was held left a gdb connection that is still usable.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds the guest stopped across a poll's accesses (`true`), or lets it run again.
    fn hold(&self, on: bool) -> Result<(), GdbError> {
        let mut held = self.lock();
        held.hold = on;
        if !on && held.deferred {
            held.deferred = false;
            held.gdb.resume()?;
        }
        Ok(())
    }
}

impl Stub for SharedGdb {
    type Error = GdbError;

    fn halt(&mut self) -> Result<(), GdbError> {
        let mut held = self.lock();
        if held.deferred {
            // Still stopped since the resume that was held back: it now stays stopped.
            held.deferred = false;
            return Ok(());
        }
        held.gdb.halt()
    }

    fn resume(&mut self) -> Result<(), GdbError> {
        let mut held = self.lock();
        if held.hold {
            held.deferred = true;
            return Ok(());
        }
        held.gdb.resume()
    }

    fn step(&mut self) -> Result<(), GdbError> {
        self.lock().gdb.step()
    }

    fn read_memory(&mut self, address: u32, buf: &mut [u8]) -> Result<(), GdbError> {
        self.lock().gdb.read_memory(address, buf)
    }

    fn write_memory(&mut self, address: u32, bytes: &[u8]) -> Result<(), GdbError> {
        self.lock().gdb.write_memory(address, bytes)
    }

    fn read_register(&mut self, number: u32) -> Result<u32, GdbError> {
        self.lock().gdb.read_register(number)
    }

    fn write_register(&mut self, number: u32, value: u32) -> Result<(), GdbError> {
        self.lock().gdb.write_register(number, value)
    }

    fn system_reset(&mut self) -> Result<(), GdbError> {
        self.lock().gdb.monitor("system_reset")
    }
}

/// QEMU and its socket, removed with the probe.
#[derive(Debug)]
struct QemuProcess {
    child: Child,
    socket: PathBuf,
}

impl Drop for QemuProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.socket);
    }
}

/// Starts QEMU halted with its gdbstub on a fresh socket, and connects.
fn start(firmware: &'static boards::Profile) -> Result<(Gdb, QemuProcess), TargetError> {
    let socket = crate::pil::gdb_socket();
    let _ = std::fs::remove_file(&socket);
    let child = qemu_machine()
        // `native`: semihosting (the firmware's command line, its exit) stays QEMU's with a
        // debugger attached. QEMU's option syntax doubles a comma inside a value.
        .arg("-semihosting-config")
        .arg(format!(
            "enable=on,target=native,arg=firmware-qemu,arg={},arg=link=rtt",
            firmware.name.replace(',', ",,")
        ))
        .arg("-gdb")
        .arg(format!("unix:{},server=on,wait=off", socket.display()))
        .arg("-S")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(Lost::Start)?;
    let mut process = QemuProcess { child, socket };
    let start = Instant::now();
    // The socket file appears when QEMU binds it, a moment before it listens. Only one
    // connection is made: gdb clients connecting and leaving are not what the VM should see.
    loop {
        if process.socket.exists() {
            match Gdb::connect(&process.socket) {
                Ok(gdb) => return Ok((gdb, process)),
                Err(GdbError::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => {}
                Err(e) => return Err(Lost::Probe(Box::new(e)).into()),
            }
        }
        if let Ok(Some(status)) = process.child.try_wait() {
            return Err(Lost::Probe(format!("QEMU exited at start: {status}").into()).into());
        }
        if start.elapsed() > SOCKET_TIMEOUT {
            return Err(Lost::Probe(
                format!("QEMU opened no gdb socket in {SOCKET_TIMEOUT:?}").into(),
            )
            .into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The HIL target on the firmware in QEMU: probe-rs attaches to [`CHIP`] through the gdbstub,
/// downloads `elf`, resets and attaches RTT, exactly as [`Hil::connect`] does on a board; the
/// cage and its ADC are the emulated board of `profile` (drawn from `seed`), answered on the
/// firmware's ADC channels. `firmware` is the profile the firmware runs (a profile file's base).
pub fn connect(
    elf: &Path,
    profile: &'static boards::Profile,
    firmware: &'static boards::Profile,
    size: Size,
    seed: Option<u64>,
) -> Result<Hil, TargetError> {
    let cage = EmulatedCage::new(profile, size, seed).map_err(CageError::from)?;
    let mut registry = Registry::new();
    registry
        .add_target_family_from_yaml(TARGET_YAML)
        .map_err(|e| Lost::Probe(Box::new(e)))?;
    let target = registry
        .get_target_by_name(CHIP)
        .map_err(|e| Lost::Probe(Box::new(e)))?;
    let ram = target
        .memory_map
        .iter()
        .filter_map(|region| match region {
            MemoryRegion::Ram(ram) => Some(ram.range.clone()),
            _ => None,
        })
        .collect();
    let (gdb, process) = start(firmware)?;
    let gdb = SharedGdb::new(gdb);
    let probe = QemuProbe::new(gdb.clone(), ram, Some(Box::new(process)));
    let service = AdcService {
        adc: Adc::new(&cage),
        cage,
        reader: FrameReader::new(),
        gdb,
    };
    Hil::attach(
        probe.into_probe(),
        CHIP,
        &registry,
        elf,
        Some(Box::new(service)),
        crate::Polling::QEMU,
    )
}

/// The firmware's ADC channels (up 2 / down 1), answered from the emulated cage.
struct AdcService {
    cage: EmulatedCage,
    adc: Adc,
    reader: FrameReader,
    gdb: SharedGdb,
}

impl Service for AdcService {
    fn up(&self) -> usize {
        firmware::rtt::ADC_UP
    }

    fn down(&self) -> usize {
        firmware::rtt::ADC_DOWN
    }

    fn serve(&mut self, bytes: &[u8]) -> Result<Vec<u8>, TargetError> {
        let mut out = Vec::new();
        for &b in bytes {
            if let Some(frame) = self.reader.push::<Up>(b) {
                let frame = frame?;
                if let Some(answer) = self.adc.answer(frame.seq, frame.body)? {
                    out.extend(answer);
                }
            }
        }
        Ok(out)
    }

    fn set_cage(&mut self, position: &Position) -> Result<(), TargetError> {
        wire(&self.cage, position)
    }

    fn start_game(&mut self, game: usize) {
        self.cage.start_game(game as u64);
    }

    fn hold(&mut self, on: bool) -> Result<(), TargetError> {
        self.gdb
            .hold(on)
            .map_err(|e| Lost::Probe(Box::new(e)).into())
    }
}
