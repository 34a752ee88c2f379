//! `hil-tests doctor`: connects the way the run would, turning each connection step into a
//! line, then runs the protocol's steps ([`bench::protocol_checks`]).

use std::path::{Path, PathBuf};

use bench::{Check, Target};

#[derive(Debug, clap::Args)]
pub struct Doctor {
    /// `qemu` (the firmware in QEMU, reached through its gdbstub), `virtual` (the board ELF on
    /// the virtual NUCLEO-F446RE), or a probe (`VID:PID[:SERIAL]`) or chip for a board (the
    /// last two need `--features probe`).
    #[arg(long, default_value = "qemu")]
    probe: String,
    /// Board profile: a name or a profile file.
    #[arg(long, default_value = "nucleo-f446re")]
    board: String,
    /// The firmware ELF (QEMU: built with cargo when not given; virtual: `cargo fw`'s).
    #[arg(long)]
    elf: Option<PathBuf>,
    /// M of the cage plugged in (2..=8).
    #[arg(long, default_value = "4", allow_negative_numbers = true, value_parser = crate::args::size)]
    size: heuristic::Size,
    /// Also write the steps as JUnit XML to FILE (one test case per step).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
}

impl Doctor {
    /// Runs bring-up; whether every step passed.
    pub fn run(&self) -> anyhow::Result<bool> {
        run(
            &self.probe,
            &self.board,
            self.elf.as_deref(),
            self.size,
            self.junit.as_deref(),
        )
    }
}

/// Runs every step, prints one line each; whether all passed.
fn run(
    probe: &str,
    board: &str,
    elf: Option<&Path>,
    size: heuristic::Size,
    junit: Option<&Path>,
) -> anyhow::Result<bool> {
    let (profile, base) = boards::file::load_with_base(board)?;
    let mut checks = Vec::new();
    let target = match probe.parse::<bench::Probe>()? {
        bench::Probe::Qemu => qemu(elf, profile, base, size, &mut checks),
        bench::Probe::Virtual => virtual_board(elf, board, profile, &mut checks),
        bench::Probe::Board(request) => board_probe(&request, elf, profile, &mut checks),
    };
    if let Some(mut target) = target {
        checks.extend(bench::protocol_checks(target.as_mut(), profile, base, size));
    }
    for check in &checks {
        outln!("{check}");
    }
    if let Some(path) = junit {
        let mut properties = vec![("probe", probe.to_string()), ("board", board.to_string())];
        if let Some(elf) = elf.and_then(|e| std::fs::read(e).ok()) {
            properties.push(("elf_sha256", bench::Depends::file(&elf)));
        }
        bench::report::junit::write(&bench::report::junit::bring_up(&checks, &properties), path)?;
    }
    let failed = checks.iter().filter(|c| c.failed()).count();
    if failed == 0 {
        outln!("\nAll {} steps passed.", checks.len());
    } else {
        outln!("\n{failed} of {} steps failed.", checks.len());
    }
    Ok(failed == 0)
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

const PROBE: &str = "probe found";
const CHIP: &str = "chip matches the profile";
const FLASHED: &str = "ELF flashed";
const RTT: &str = "RTT control block found";

/// QEMU through its gdbstub: the bench's own debugger stands in for the probe.
fn qemu(
    elf: Option<&Path>,
    profile: &'static boards::Profile,
    base: &'static boards::Profile,
    size: heuristic::Size,
    checks: &mut Vec<Check>,
) -> Option<Box<dyn Target>> {
    if !bench::qemu_available() {
        checks.push(Check::fail(
            PROBE,
            format!("{} is not installed", bench::QEMU),
            "install it (Debian: `apt install qemu-system-arm`)",
        ));
        return None;
    }
    let how = if cfg!(feature = "probe") {
        "as a probe-rs probe (gdb-probe's GdbProbe, opened by its gdb:unix: selector)"
    } else {
        "read by the bench itself (no probe-rs in this build)"
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
        None => match bench::firmware_elf() {
            Ok(elf) => elf,
            Err(e) => {
                checks.push(Check::fail(
                    FLASHED,
                    e.to_string(),
                    "build it: cargo build -p firmware --bin firmware-qemu --features qemu \
                     --target thumbv7em-none-eabihf --profile fw",
                ));
                return None;
            }
        },
    };
    if let Some(problem) = elf_problem(&elf) {
        checks.push(Check::fail(
            FLASHED,
            problem,
            "pass the firmware-qemu ELF: cargo build -p firmware --bin firmware-qemu \
             --features qemu --target thumbv7em-none-eabihf --profile fw",
        ));
        return None;
    }
    match connect_qemu(&elf, profile, base, size) {
        Ok((target, layout, how)) => {
            checks.push(Check::pass(FLASHED, format!("{} ({how})", elf.display())));
            checks.push(Check::pass(RTT, layout));
            Some(target)
        }
        Err(e @ bench::TargetError::Lost(bench::Lost::Elf { .. })) => {
            checks.push(Check::fail(
                FLASHED,
                e.to_string(),
                "pass the firmware-qemu ELF: cargo build -p firmware --bin firmware-qemu \
                 --features qemu --target thumbv7em-none-eabihf --profile fw",
            ));
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

/// With probe-rs built in: the `Hil` target through the QEMU probe (probe-rs downloads the ELF
/// and attaches RTT, as on a board).
#[cfg(feature = "probe")]
fn connect_qemu(
    elf: &Path,
    profile: &'static boards::Profile,
    base: &'static boards::Profile,
    size: heuristic::Size,
) -> Result<(Box<dyn Target>, String, &'static str), bench::TargetError> {
    let mut hil = bench::qemu::connect(elf, profile, base, size, None)?;
    let layout = hil.rtt_layout();
    Ok((
        Box::new(hil),
        layout,
        "downloaded by probe-rs through the QEMU probe",
    ))
}

/// Without probe-rs: the bench's own RTT reader through QEMU's gdbstub.
#[cfg(not(feature = "probe"))]
fn connect_qemu(
    elf: &Path,
    profile: &'static boards::Profile,
    base: &'static boards::Profile,
    size: heuristic::Size,
) -> Result<(Box<dyn Target>, String, &'static str), bench::TargetError> {
    let options = bench::PilOptions::new(elf);
    let polling = bench::Polling::default();
    let pil = bench::RttPil::start(&options, polling, profile, base, size, None)?;
    let block = pil.control_block();
    let list = |channels: &[gdb_probe::rtt::Channel]| {
        channels
            .iter()
            .map(|c| format!("\"{}\" {} B {}", c.name, c.size, mode(c.mode)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let layout = format!(
        "at {:#010x}; up: {}; down: {}",
        block.addr(),
        list(&block.up),
        list(&block.down)
    );
    Ok((Box::new(pil), layout, "loaded by QEMU, -kernel"))
}

/// SEGGER's mode bits.
#[cfg(not(feature = "probe"))]
fn mode(bits: u32) -> &'static str {
    match bits {
        0 => "NoBlockSkip",
        1 => "NoBlockTrim",
        2 => "BlockIfFull",
        _ => "unknown mode",
    }
}

fn qemu_version() -> String {
    std::process::Command::new(bench::QEMU)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(str::to_string)
        })
        .unwrap_or_else(|| bench::QEMU.to_string())
}

/// The board ELF on the virtual NUCLEO-F446RE, through probe-rs as a board is reached.
fn virtual_board(
    elf: Option<&Path>,
    board: &str,
    profile: &'static boards::Profile,
    checks: &mut Vec<Check>,
) -> Option<Box<dyn Target>> {
    let binary = match bench::virtual_board_binary() {
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
    checks.push(Check::pass(
        PROBE,
        format!(
            "the virtual board ({}), its GDB stub opened by probe-rs as gdb:unix:",
            binary.display()
        ),
    ));
    let elf = elf.map_or_else(|| PathBuf::from(bench::BOARD_ELF), Path::to_path_buf);
    if let Some(problem) = elf_problem(&elf) {
        checks.push(Check::fail(
            FLASHED,
            problem,
            "build the board firmware (`cargo fw`) and pass \
             --elf target/thumbv7em-none-eabihf/fw/firmware",
        ));
        return None;
    }
    connect_virtual(&elf, board, profile, checks)
}

#[cfg(feature = "probe")]
fn connect_virtual(
    elf: &Path,
    board: &str,
    profile: &'static boards::Profile,
    checks: &mut Vec<Check>,
) -> Option<Box<dyn Target>> {
    match bench::virtual_board::connect(elf, board, None, None, &[]) {
        Ok(mut hil) => {
            checks.push(Check::pass(
                CHIP,
                format!(
                    "the virtual {} (unicorn's Cortex-M4, register models, the cage of {})",
                    profile.mcu, profile.name
                ),
            ));
            checks.push(Check::pass(
                FLASHED,
                format!(
                    "{} (downloaded by probe-rs as memory writes)",
                    elf.display()
                ),
            ));
            checks.push(Check::pass(RTT, hil.rtt_layout()));
            Some(Box::new(hil))
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
                    checks.push(Check::pass(
                        FLASHED,
                        format!(
                            "{} (downloaded by probe-rs as memory writes)",
                            elf.display()
                        ),
                    ));
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

/// The bring-up step an error of the probe's path belongs to: the ELF's own (it cannot be
/// read or downloaded) or, once the firmware has run (it stopped and said why, or RTT did not
/// come up), the RTT step, where the bench first waits on it.
#[cfg(feature = "probe")]
fn failed_step(error: &bench::TargetError) -> &'static str {
    match error {
        bench::TargetError::Lost(bench::Lost::Machine { .. } | bench::Lost::Rtt { .. }) => RTT,
        _ => FLASHED,
    }
}

#[cfg(not(feature = "probe"))]
fn connect_virtual(
    _elf: &Path,
    _board: &str,
    _profile: &'static boards::Profile,
    checks: &mut Vec<Check>,
) -> Option<Box<dyn Target>> {
    checks.push(Check::fail(
        FLASHED,
        "this build has no probe-rs, which the virtual board is reached with",
        "cargo run -p hil-tests --features probe -- doctor --probe virtual",
    ));
    None
}

#[cfg(not(feature = "probe"))]
fn board_probe(
    probe: &str,
    _elf: Option<&Path>,
    _profile: &'static boards::Profile,
    checks: &mut Vec<Check>,
) -> Option<Box<dyn Target>> {
    checks.push(Check::fail(
        PROBE,
        format!("this build has no probe-rs, so it cannot look for {probe}"),
        "cargo run -p hil-tests --features probe -- doctor --probe ...",
    ));
    None
}

#[cfg(feature = "probe")]
fn board_probe(
    probe: &str,
    elf: Option<&Path>,
    profile: &'static boards::Profile,
    checks: &mut Vec<Check>,
) -> Option<Box<dyn Target>> {
    let Some(elf) = elf else {
        checks.push(Check::fail(
            FLASHED,
            "no --elf given",
            "build the board firmware (`cargo fw`) and pass \
             --elf target/thumbv7em-none-eabihf/fw/firmware",
        ));
        return None;
    };
    if let Some(problem) = elf_problem(elf) {
        checks.push(Check::fail(
            FLASHED,
            problem,
            "build the board firmware (`cargo fw`) and pass \
             --elf target/thumbv7em-none-eabihf/fw/firmware",
        ));
        return None;
    }
    match bench::Hil::connect(probe, profile, elf) {
        Ok(mut hil) => {
            checks.push(Check::pass(PROBE, format!("the probe for {probe}")));
            checks.push(Check::pass(
                CHIP,
                profile.probe_rs_chip.unwrap_or(profile.name).to_string(),
            ));
            checks.push(Check::pass(FLASHED, elf.display().to_string()));
            checks.push(Check::pass(RTT, hil.rtt_layout()));
            Some(Box::new(hil))
        }
        Err(e @ bench::TargetError::NoProbe { .. }) => {
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
