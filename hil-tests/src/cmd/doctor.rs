//! `hil-tests doctor`: prints bring-up's steps ([`bench::doctor::doctor`]), one line each, and writes
//! them as JUnit.

use std::path::{Path, PathBuf};

use bench::Probe;

#[derive(Debug, clap::Args)]
#[command(after_help = crate::exit::TABLE)]
pub struct Doctor {
    /// `qemu` (the firmware in QEMU, reached through its gdbstub), `virtual` (the board ELF on
    /// the virtual NUCLEO-F446RE), a probe (`VID:PID[:SERIAL]`) or chip for a board, a GDB
    /// stub (`gdb:unix:PATH`, `gdb:tcp:HOST:PORT`) or a DAP server (`dap:unix:PATH`,
    /// `dap:tcp:HOST:PORT`): a board served by `virtual-board serve` is named as one.
    #[arg(long, default_value = "qemu", value_parser = bench::config::args::parsed::<Probe>)]
    probe: Probe,
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
    pub fn run(&self) -> anyhow::Result<crate::exit::Verdict> {
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
    probe: &Probe,
    board: &str,
    elf: Option<&Path>,
    size: heuristic::Size,
    junit: Option<&Path>,
) -> anyhow::Result<crate::exit::Verdict> {
    let checks = bench::doctor::doctor(probe, board, elf, size)?;
    for check in &checks {
        outln!("{check}");
    }
    if let Some(path) = junit {
        let mut properties = vec![("probe", probe.to_string()), ("board", board.to_string())];
        if let Some(elf) = elf.and_then(|e| std::fs::read(e).ok()) {
            properties.push(("elf_sha256", bench::report::Depends::file(&elf)));
        }
        bench::report::junit::write(&bench::report::junit::bring_up(&checks, &properties), path)?;
    }
    let failed = checks.iter().filter(|c| c.failed()).count();
    if failed > 0 {
        outln!("\n{failed} of {} steps failed.", checks.len());
        return Ok(crate::exit::Verdict::Failed(format!(
            "{failed} of {} bring-up steps",
            checks.len()
        )));
    }
    let skipped = checks
        .iter()
        .filter(|c| matches!(c.verdict, bench::check::protocol::StepVerdict::Skip(_)))
        .count();
    out!("\n");
    let steps = format!("{} bring-up steps, none failed", checks.len());
    Ok(crate::exit::Verdict::Passed(match skipped {
        0 => steps,
        n => format!("{steps} ({n} skipped)"),
    }))
}
