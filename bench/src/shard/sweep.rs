//! A sweep's table: one row per drawn board (its seed, games, steps and steps per class),
//! with the whole sweep's totals, as `sweep.md` and `sweep.csv` beside the boards' reports.

use std::fmt::Write as _;
use std::path::Path;

use crate::check::Class;
use crate::report::tally::Tally;
use crate::report::{Header, ReportError};
use crate::shard::seeds::BoardSeeds;

/// The Markdown table's file name.
pub const SWEEP_MD: &str = "sweep.md";

/// The CSV table's file name.
pub const SWEEP_CSV: &str = "sweep.csv";

/// The folder of the board drawn from `seed`, inside the sweep's.
pub fn board_folder(seed: u64) -> String {
    format!("board-{seed}")
}

/// Writes `sweep.md` and `sweep.csv` into `dir` from each board's header and tally, in seed
/// order; returns the Markdown.
pub(crate) fn write(
    dir: &Path,
    seeds: BoardSeeds,
    boards: &[(Option<u64>, Header, Tally)],
) -> Result<String, ReportError> {
    let mut total = Tally::default();
    for (_, _, t) in boards {
        total.games += t.games;
        total.steps += t.steps;
        for &(class, n) in &t.classes {
            match total.classes.iter_mut().find(|(c, _)| *c == class) {
                Some((_, m)) => *m += n,
                None => total.classes.push((class, n)),
            }
        }
    }
    let first = boards.first().map(|(_, h, _)| h);
    let stage = first.map_or_else(String::new, |h| h.stage.to_string());
    let (scenario, board, firmware, size) = first.map_or_else(Default::default, |h| {
        (
            h.scenario.as_str(),
            h.board.as_str(),
            h.firmware.as_str(),
            h.size,
        )
    });
    let mut md = format!(
        "# {stage} bench: {scenario} on {} drawn {board} boards (seeds {seeds})\n\n\
         Firmware {firmware}, M={size}; each board plays the same games. {} games in all, \
         {} steps.\n\n| board seed | games | steps |",
        boards.len(),
        total.games,
        total.steps,
    );
    let mut csv = String::from("board_seed,games,steps");
    for class in Class::ALL {
        let _ = write!(md, " {class:?} |");
        let _ = write!(csv, ",{}", format!("{class:?}").to_lowercase());
    }
    md.push_str(" report |\n| ---: | ---: | ---: |");
    md.push_str(&" ---: |".repeat(Class::ALL.len()));
    md.push_str(" --- |\n");
    csv.push('\n');
    for (seed, _, t) in boards {
        let folder = seed.map_or_else(String::new, |s| {
            format!("{}/{}", board_folder(s), crate::report::SUMMARY_MD)
        });
        let seed = seed.map_or_else(String::new, |s| s.to_string());
        let _ = write!(md, "| {seed} | {} | {} |", t.games, t.steps);
        let _ = write!(csv, "{seed},{},{}", t.games, t.steps);
        for class in Class::ALL {
            let _ = write!(md, " {} |", t.count(class));
            let _ = write!(csv, ",{}", t.count(class));
        }
        let _ = writeln!(md, " [{folder}]({folder}) |");
        csv.push('\n');
    }
    let _ = write!(md, "| all | {} | {} |", total.games, total.steps);
    for class in Class::ALL {
        let _ = write!(md, " {} |", total.count(class));
    }
    md.push_str(" |\n");
    for (name, text) in [(SWEEP_MD, &md), (SWEEP_CSV, &csv)] {
        let path = dir.join(name);
        // Whole or not at all, and never through a link planted in a shared --out.
        shards::safe::write_file(&path, text.as_bytes())
            .map_err(|e| crate::report::file_error(e, &path))?;
    }
    Ok(md)
}
