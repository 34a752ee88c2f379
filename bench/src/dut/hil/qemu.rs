//! `--stage hil --probe qemu`: the HIL target's probe-rs path against the firmware in QEMU.
//!
//! QEMU starts with no image (`-S`, no `-kernel`), its gdbstub on a socket; probe-rs opens the
//! stub like any probe (`gdb:unix:PATH`, through [`gdb_probe::probe::GdbLister`]), and the
//! firmware gets into QEMU's memory only by probe-rs's `download_file`, and runs only after
//! probe-rs's reset, as on a board. Its command line (`PROFILE link=rtt`) comes from
//! `-semihosting-config arg=`, since `-append` needs `-kernel`. Until the download, the CPU
//! sits in its reset state with no vector table; letting it run then would lock it up, which
//! QEMU 7.2 answers by aborting.

use std::path::Path;
use std::process::Stdio;

use emulator::emulated::EmulatedCage;
use firmware::pil::Up;
use firmware::protocol::FrameReader;
use gdb_probe::probe::{GdbLister, GdbTarget, SharedGdb};
use gdb_probe::targets::{MPS2_AN386, MPS2_AN386_YAML};
use heuristic::Size;
use probe_rs::probe::list::Lister;

use super::{Emulation, Hil, Service};
use crate::dut::retry::Polling;
use crate::dut::{CageError, DutError, Lost, lost};
use crate::machine::{Adc, GdbMachine, qemu_machine, spawn_with_gdbstub};

/// The HIL target on the firmware in QEMU: probe-rs attaches to QEMU's `mps2-an386` through
/// the gdbstub, downloads `elf`, resets and attaches RTT, exactly as [`Hil::connect`] does on
/// a board; the cage and its ADC are the emulated board of `profile` (drawn from `seed`),
/// answered on the firmware's ADC channels. `firmware` is the profile the firmware runs (a
/// profile file's base).
pub fn connect(
    elf: &Path,
    profile: &'static boards::Profile,
    firmware: &'static boards::Profile,
    size: Size,
    seed: Option<u64>,
) -> Result<Hil, DutError> {
    let cage = EmulatedCage::new(profile, size, seed).map_err(CageError::from)?;
    let (registry, ram) = super::probe::emulated_target(MPS2_AN386_YAML, MPS2_AN386)?;
    let mut command = qemu_machine();
    // `native`: semihosting (the firmware's command line, its exit) stays QEMU's with a
    // debugger attached. QEMU's option syntax doubles a comma inside a value.
    command
        .arg("-semihosting-config")
        .arg(format!(
            "enable=on,target=native,arg=firmware-qemu,arg={},arg=link=rtt",
            firmware.name.replace(',', ",,")
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let (machine, _) = spawn_with_gdbstub(command, false)?;
    let address = machine.address();
    let lister = Lister::with_lister(Box::new(GdbLister::new([GdbTarget {
        address: address.clone(),
        quirks: gdb_probe::Quirks::QEMU,
        ram,
    }])));
    let probe = lister
        .open(gdb_probe::probe::selector(&address))
        .map_err(lost)?;
    let gdb = gdb_probe::probe::connection(&address)
        .ok_or_else(|| Lost::Probe("the gdb probe holds no connection".into()))?;
    let service = AdcService {
        adc: Adc::new(&cage),
        reader: FrameReader::new(),
    };
    let qemu = Qemu {
        gdb,
        _process: machine,
    };
    // The host holds the cage: QEMU's firmware asks it for every conversion.
    let hil = Hil::attach(
        probe,
        MPS2_AN386,
        &registry,
        elf,
        Some(Box::new(service)),
        Some(Box::new(qemu)),
        Polling::QEMU,
    )?;
    Ok(hil.with_cage(Box::new(cage)))
}

/// The firmware's ADC channels (up 2 / down 1), answered from the emulated cage.
struct AdcService {
    adc: Adc,
    reader: FrameReader,
}

/// QEMU's process behind its gdbstub: its guest is stopped for the length of a poll.
struct Qemu {
    gdb: SharedGdb,
    _process: GdbMachine,
}

impl Emulation for Qemu {
    fn hold(&mut self, on: bool) -> Result<(), DutError> {
        self.gdb.hold(on).map_err(lost)
    }
}

impl Service for AdcService {
    fn channels(&self) -> (usize, usize) {
        (firmware::rtt::ADC_UP, firmware::rtt::ADC_DOWN)
    }

    fn serve(&mut self, bytes: &[u8]) -> Result<Vec<u8>, DutError> {
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
}
