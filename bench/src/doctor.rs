//! Bring-up, one step at a time: connects the way a run would ([`Config::open`], so each
//! connection is written once), turning each connection step into a [`Check`], then runs the
//! protocol's steps ([`protocol_checks`]). A command line prints the steps.

use std::path::{Path, PathBuf};

use heuristic::Size;

use crate::check::protocol::{Check, Steps, protocol_checks};
use crate::config::{Config, ConfigError, Wiring};
use crate::dut::hil::{BOARD_ELF, Probe};
use crate::dut::pil::Link;
use crate::dut::{Dut, DutError, Lost, Stage};
use crate::machine::{QEMU, firmware_elf, qemu_available, virtual_board_binary};

const PROBE: &str = "probe found";
const CHIP: &str = "chip matches the profile";
const FLASHED: &str = "ELF flashed";
const RTT: &str = "RTT control block found";

const BUILD_QEMU_FIRMWARE: &str = "cargo build -p firmware --bin firmware-qemu --features qemu --target thumbv7em-none-eabihf --profile fw";
const BUILD_BOARD_FIRMWARE: &str = "build the board firmware (`cargo fw`) and pass \
     --elf target/thumbv7em-none-eabihf/fw/firmware";

/// Why bring-up cannot start: bad input, named before anything connects.
#[derive(Debug, thiserror::Error)]
pub enum DoctorError {
    /// The board profile cannot be read.
    #[error(transparent)]
    Board(#[from] boards::file::FileError),
    /// The ELF given is for another machine (a host program): no step of bring-up applies,
    /// and a target that never answers would be reported as lost.
    #[error("{}: not an ARM ELF ({})", path.display(), machine.name())]
    NotArm {
        /// The file.
        path: PathBuf,
        /// Its machine.
        machine: gdb_probe::arch::Foreign,
    },
}

/// Every step of bring-up through `probe` on `board` (a profile name or file) with the cage
/// of `size` plugged in: the connection's steps, then, connected, the protocol's.
pub fn doctor(
    probe: &Probe,
    board: &str,
    elf: Option<&Path>,
    size: Size,
) -> Result<Vec<Check>, DoctorError> {
    let (profile, base) = boards::file::load_with_base(board)?;
    if let Some(path) = elf
        && let Some(machine) = foreign_machine(path)
    {
        return Err(DoctorError::NotArm {
            path: path.to_path_buf(),
            machine,
        });
    }
    let mut bringup = Bringup {
        elf,
        board,
        profile,
        base,
        size,
        checks: Steps::new(),
    };
    let target = match probe {
        Probe::Qemu => bringup.qemu(),
        Probe::Virtual => bringup.virtual_board(),
        Probe::Board(_) | Probe::Gdb(_) | Probe::Dap(_) => bringup.board_probe(probe),
    };
    let mut checks = bringup.checks.into_checks();
    if let Some(mut target) = target {
        checks.extend(protocol_checks(target.as_mut(), profile, base, size));
    }
    Ok(checks)
}

/// What bring-up connects with, and the steps it has found so far.
struct Bringup<'a> {
    elf: Option<&'a Path>,
    board: &'a str,
    profile: &'static boards::Profile,
    base: &'static boards::Profile,
    size: Size,
    checks: Steps,
}

/// The configuration that reaches `probe` with `elf`: HIL, or without probe-rs in this build,
/// PIL over RTT through QEMU's gdbstub (the bench's own reader stands in for probe-rs).
fn config(probe: Probe, board: &str, elf: PathBuf) -> Config {
    let by_probe_rs = cfg!(feature = "probe") || probe != Probe::Qemu;
    Config {
        stage: if by_probe_rs { Stage::Hil } else { Stage::Pil },
        probe: by_probe_rs.then_some(probe),
        compare_sil: false,
        board: board.to_string(),
        elf: Some(elf),
        timeout_s: 10.0,
        link: (!by_probe_rs).then_some(Link::Rtt),
        poll_ms: None,
        retry_ms: None,
    }
}

fn qemu_version() -> String {
    crate::machine::qemu_version().unwrap_or_else(|| QEMU.to_string())
}

/// What is wrong with `elf` as a firmware file before anything connects: a file that cannot
/// be read, or is not ELF, is the ELF step's failure (not a lost target's).
fn elf_problem(elf: &Path) -> Option<String> {
    use std::io::Read;
    let path = elf.display();
    if let Err(problem) = boards::read::check(elf) {
        return Some(format!("{path}: {problem}"));
    }
    let mut magic = [0u8; 4];
    let read = std::fs::File::open(elf).and_then(|mut f| f.read_exact(&mut magic));
    match read {
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Some(format!(
            "{path} is not an ELF file (shorter than its 4-byte magic)"
        )),
        Err(e) => Some(format!("{path}: cannot be read: {e}")),
        Ok(()) if magic != *b"\x7fELF" => Some(format!(
            "{path} is not an ELF file (it does not start with \\x7fELF)"
        )),
        Ok(()) => None,
    }
}

/// The machine of `elf` when it is an ELF for another machine than 32-bit ARM; anything it
/// cannot read is left to [`elf_problem`], the ELF step's.
fn foreign_machine(elf: &Path) -> Option<gdb_probe::arch::Foreign> {
    use std::io::Read;
    let mut header = Vec::with_capacity(20);
    std::fs::File::open(elf)
        .ok()?
        .take(20)
        .read_to_end(&mut header)
        .ok()?;
    gdb_probe::arch::foreign(&header)
}

/// The virtual board's probe step: the binary, and once it started, what the target says it
/// reached (its stub's socket, in a folder of the bench's own made when the board starts; a
/// board that did not start has none to name).
fn virtual_stub(binary: &Path, started: Option<String>) -> String {
    match started {
        Some(what) => format!(
            "the virtual board ({}), {what}, opened by probe-rs (the socket's folder is the \
             bench's own, removed when the board ends)",
            binary.display()
        ),
        None => format!(
            "the virtual board ({}), its GDB stub to be opened by probe-rs in a folder of the \
             bench's own",
            binary.display()
        ),
    }
}

/// The bring-up step an error of the connection belongs to: the ELF's own (it cannot be
/// read or downloaded) or, once the firmware has run (it stopped and said why, or RTT did not
/// come up), the RTT step, where the bench first waits on it.
fn failed_step(error: &ConfigError) -> &'static str {
    match error {
        ConfigError::Dut(DutError::Lost(Lost::Machine { .. } | Lost::Rtt { .. })) => RTT,
        _ => FLASHED,
    }
}

/// The bring-up step a fault of the path fails: attaching (a core held in reset, a WAIT or
/// FAULT from the DP), flashing (read protection), or RTT (a core that locked up once run).
#[cfg(feature = "probe")]
fn path_step(fault: &crate::dut::hil::PathFault) -> &'static str {
    use crate::dut::hil::PathFault;
    match fault {
        PathFault::HeldInReset | PathFault::Wait { .. } | PathFault::Fault { .. } => CHIP,
        PathFault::ReadProtected => FLASHED,
        PathFault::LockedUp { .. } => RTT,
    }
}

impl Bringup<'_> {
    /// QEMU through its gdbstub: the bench's own debugger stands in for the probe.
    fn qemu(&mut self) -> Option<Box<dyn Dut>> {
        let (elf, board, profile, base, size) =
            (self.elf, self.board, self.profile, self.base, self.size);
        let checks = &mut self.checks;
        if !qemu_available() {
            checks.push(Check::fail(
                PROBE,
                format!("{QEMU} is not installed"),
                "install it (Debian: `apt install qemu-system-arm`)",
            ));
            return None;
        }
        let (how, loaded) = if cfg!(feature = "probe") {
            (
                "as a probe-rs probe (gdb-probe's GdbProbe, opened by its gdb:unix: selector)",
                "downloaded by probe-rs through the QEMU probe",
            )
        } else {
            (
                "read by the bench itself (no probe-rs in this build)",
                "loaded by QEMU, -kernel",
            )
        };
        checks.push(Check::pass(
            PROBE,
            format!("QEMU's gdbstub ({}), {how}", qemu_version()),
        ));
        checks.push(Check::pass(
            CHIP,
            format!(
                "QEMU's mps2-an386 (Cortex-M4F) stands in for {}: the firmware-qemu binary",
                profile.probe_rs_chip.unwrap_or(profile.name)
            ),
        ));
        let elf = match elf {
            Some(elf) => elf.to_path_buf(),
            None => match firmware_elf() {
                Ok(elf) => elf,
                Err(e) => {
                    checks.push(Check::fail(
                        FLASHED,
                        e.to_string(),
                        format!("build it: {BUILD_QEMU_FIRMWARE}"),
                    ));
                    return None;
                }
            },
        };
        let pass_the_elf = format!("pass the firmware-qemu ELF: {BUILD_QEMU_FIRMWARE}");
        if let Some(problem) = elf_problem(&elf) {
            checks.push(Check::fail(FLASHED, problem, pass_the_elf));
            return None;
        }
        let opened = config(Probe::Qemu, board, elf.clone()).open(
            profile,
            base,
            size,
            None,
            None,
            Wiring::Fixture,
        );
        match opened.map(|o| o.into_target()) {
            Ok(mut target) => {
                checks.push(Check::pass(
                    FLASHED,
                    format!("{} ({loaded})", elf.display()),
                ));
                checks.push(Check::pass(RTT, target.rtt_layout().unwrap_or_default()));
                Some(target)
            }
            Err(e @ ConfigError::Dut(DutError::Lost(Lost::Elf { .. }))) => {
                checks.push(Check::fail(FLASHED, e.to_string(), pass_the_elf));
                None
            }
            Err(e) => {
                checks.push(Check::fail(
                    RTT,
                    e.to_string(),
                    "pass the firmware-qemu ELF built from this checkout (it declares RTT when \
                 started with link=rtt)",
                ));
                None
            }
        }
    }

    /// The board ELF on the virtual NUCLEO-F446RE, through probe-rs as a board is reached.
    fn virtual_board(&mut self) -> Option<Box<dyn Dut>> {
        let (elf, board, profile, base, size) =
            (self.elf, self.board, self.profile, self.base, self.size);
        let checks = &mut self.checks;
        let binary = match virtual_board_binary() {
            Ok(binary) => binary,
            Err(e) => {
                checks.push(Check::fail(
                    PROBE,
                    e.to_string(),
                    "cargo build --release -p virtual-board (needs cmake and libclang-dev)",
                ));
                return None;
            }
        };
        let elf = elf.map_or_else(|| PathBuf::from(BOARD_ELF), Path::to_path_buf);
        if let Some(problem) = elf_problem(&elf) {
            checks.push(Check::pass(PROBE, virtual_stub(&binary, None)));
            checks.push(Check::fail(FLASHED, problem, BUILD_BOARD_FIRMWARE));
            return None;
        }
        let downloaded = format!(
            "{} (downloaded by probe-rs as memory writes)",
            elf.display()
        );
        let opened = config(Probe::Virtual, board, elf).open(
            profile,
            base,
            size,
            None,
            None,
            Wiring::Fixture,
        );
        let target = opened.map(|o| o.into_target());
        let started = target.as_ref().ok().and_then(|t| t.behind());
        checks.push(Check::pass(PROBE, virtual_stub(&binary, started)));
        match target {
            Ok(mut target) => {
                checks.push(Check::pass(
                    CHIP,
                    format!(
                        "the virtual {} (unicorn's Cortex-M4, register models, the cage of {})",
                        profile.mcu, profile.name
                    ),
                ));
                checks.push(Check::pass(FLASHED, downloaded));
                checks.push(Check::pass(RTT, target.rtt_layout().unwrap_or_default()));
                Some(target)
            }
            Err(ConfigError::NoProbeFeature) => {
                checks.push(Check::fail(
                    FLASHED,
                    "this build has no probe-rs, which the virtual board is reached with",
                    "build the bench with its `probe` feature (hil-tests always has it): cargo run -p hil-tests -- doctor --probe virtual",
                ));
                None
            }
            Err(e) => {
                match failed_step(&e) {
                    FLASHED => checks.push(Check::fail(
                        FLASHED,
                        e.to_string(),
                        "the virtual board's line says what it refused (virtual-board/README.md)",
                    )),
                    step => {
                        checks.push(Check::pass(
                            CHIP,
                            format!("the virtual {} (attached by probe-rs)", profile.mcu),
                        ));
                        checks.push(Check::pass(FLASHED, downloaded));
                        checks.push(Check::fail(
                            step,
                            e.to_string(),
                            "the firmware ran and stopped before RTT was read: the board's line \
                         (first) says how, a panic with its message and place; fix the firmware \
                         there",
                        ));
                    }
                }
                None
            }
        }
    }

    /// A board behind a probe-rs probe (or chip).
    fn board_probe(&mut self, probe: &Probe) -> Option<Box<dyn Dut>> {
        let request = probe.to_string();
        let (elf, board, profile) = (self.elf, self.board, self.profile);
        let checks = &mut self.checks;
        if !cfg!(feature = "probe") {
            checks.push(Check::fail(
                PROBE,
                format!("this build has no probe-rs, so it cannot look for {request}"),
                "build the bench with its `probe` feature (hil-tests always has it): cargo run -p hil-tests -- doctor --probe ...",
            ));
            return None;
        }
        let Some(elf) = elf else {
            checks.push(Check::fail(FLASHED, "no --elf given", BUILD_BOARD_FIRMWARE));
            return None;
        };
        if let Some(problem) = elf_problem(elf) {
            checks.push(Check::fail(FLASHED, problem, BUILD_BOARD_FIRMWARE));
            return None;
        }
        let probe = probe.clone();
        let opened = config(probe, board, elf.to_path_buf()).open(
            profile,
            profile,
            Size::MIN,
            None,
            None,
            Wiring::Fixture,
        );
        match opened.map(|o| o.into_target()) {
            Ok(mut target) => {
                // A board served by `virtual-board serve` says so: what was found is named.
                let found = match target.behind() {
                    Some(what) => format!("the probe for {request}: {what}"),
                    None => format!("the probe for {request}"),
                };
                checks.push(Check::pass(PROBE, found));
                checks.push(Check::pass(
                    CHIP,
                    profile.probe_rs_chip.unwrap_or(profile.name).to_string(),
                ));
                // A download cut mid-way found and flashed over is said there.
                let flashed = match target.flashed() {
                    Some(found) => format!("{} ({found})", elf.display()),
                    None => elf.display().to_string(),
                };
                checks.push(Check::pass(FLASHED, flashed));
                checks.push(Check::pass(RTT, target.rtt_layout().unwrap_or_default()));
                Some(target)
            }
            #[cfg(feature = "probe")]
            Err(ConfigError::Dut(DutError::Path(fault))) => {
                let step = path_step(&fault);
                checks.push(Check::pass(PROBE, format!("the probe for {request}")));
                if step != CHIP {
                    checks.push(Check::pass(
                        CHIP,
                        profile.probe_rs_chip.unwrap_or(profile.name).to_string(),
                    ));
                }
                if step == RTT {
                    checks.push(Check::pass(FLASHED, elf.display().to_string()));
                }
                checks.push(Check::fail(step, fault.to_string(), fault.remedy()));
                None
            }
            Err(e @ ConfigError::Dut(DutError::NoProbe { .. })) => {
                checks.push(Check::fail(
                    PROBE,
                    e.to_string(),
                    "plug the NUCLEO's ST-LINK USB in, check `probe-rs list`, and on Linux the \
                 udev rules (probe.rs/docs/getting-started/probe-setup)",
                ));
                None
            }
            Err(e) => {
                checks.push(Check::fail(
                    RTT,
                    e.to_string(),
                    "see the runbook in hil-tests/README.md: RTT does not attach",
                ));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_elf_is_the_flashing_steps_failure() {
        let dir = tempfile::tempdir().unwrap();
        let short = dir.path().join("short");
        std::fs::write(&short, b"\x7fE").unwrap();
        let text = dir.path().join("text");
        std::fs::write(&text, b"not a firmware").unwrap();
        let elf = dir.path().join("elf");
        std::fs::write(&elf, b"\x7fELF and the rest").unwrap();
        assert!(
            elf_problem(&short)
                .unwrap()
                .ends_with("shorter than its 4-byte magic)")
        );
        assert!(
            elf_problem(&text)
                .unwrap()
                .ends_with("does not start with \\x7fELF)")
        );
        assert_eq!(elf_problem(&elf), None);
        assert!(elf_problem(&dir.path().join("missing")).is_some());
    }

    /// An x86-64 ELF (the header a host program starts with) is bad input, named before
    /// anything connects; before issue 52 QEMU ran it and the target was "lost".
    #[test]
    fn an_elf_for_another_machine_is_refused_before_bring_up() {
        let dir = tempfile::tempdir().unwrap();
        let host = dir.path().join("host-program");
        let mut header = vec![0u8; 64];
        header[..7].copy_from_slice(b"\x7fELF\x02\x01\x01");
        header[16] = 2;
        header[18] = 62; // EM_X86_64
        std::fs::write(&host, header).unwrap();
        for probe in [Probe::Qemu, Probe::Virtual] {
            let e = doctor(&probe, "nucleo-f446re", Some(&host), Size::MIN).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("{}: not an ARM ELF (x86-64)", host.display())
            );
        }
    }

    /// Before issue 52 the line ended `gdb:unix:`, naming no socket; before issue 63 it named
    /// a pattern with the word RANDOM in it: the line names the socket the board opened.
    #[test]
    fn the_virtual_boards_line_names_its_socket() {
        let socket = "gdb:unix:/tmp/birdcage-virtual-1-0123456789abcdef/board.sock";
        let line = virtual_stub(
            Path::new("/opt/virtual-board"),
            Some(format!("started by the bench, its GDB stub at {socket}")),
        );
        assert!(
            line.contains(&format!("{socket}, opened by probe-rs")),
            "{line}"
        );
        let line = virtual_stub(Path::new("/opt/virtual-board"), None);
        assert!(!line.contains("RANDOM"), "{line}");
    }

    /// A board probe names no step beyond the first that failed, and in a build without
    /// probe-rs says so at the probe's step, before any ELF is asked for.
    #[test]
    fn a_board_probe_fails_at_its_first_step() {
        let checks = doctor(
            &Probe::Board("0000:0000".into()),
            "nucleo-f446re",
            None,
            Size::MIN,
        )
        .unwrap();
        assert_eq!(checks.len(), 1, "{checks:?}");
        let step = if cfg!(feature = "probe") {
            FLASHED
        } else {
            PROBE
        };
        assert_eq!(checks[0].step, step);
        assert!(checks[0].failed());
    }
}
