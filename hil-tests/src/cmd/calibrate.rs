//! `hil-tests calibrate`: a board's part values fitted from a report's steps.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Calibrate {
    /// Report folder holding steps.jsonl; gets calibration.json and a summary.md section.
    #[arg(long)]
    out: PathBuf,
    /// Board profile (a name or a profile file), when not the one the report names.
    #[arg(long)]
    board: Option<String>,
}

impl Calibrate {
    /// Calibrates the report in `--out` and prints the summary's section.
    pub fn run(&self) -> anyhow::Result<()> {
        calibrate(&self.out, self.board.as_deref())
    }
}

/// Calibrates the report in `out` and prints the summary's section.
pub(crate) fn calibrate(out: &std::path::Path, board: Option<&str>) -> anyhow::Result<()> {
    // The error's own line says it all (its source is part of it).
    let calibration =
        bench::calibrate::calibrate_report(out, board).map_err(|e| anyhow::anyhow!("{e}"))?;
    out!("\n{}", calibration.markdown());
    Ok(())
}
