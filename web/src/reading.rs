//! The machine as built: what a board's ADC reads on the position where Cut last had to
//! move, the firmware's move from those codes, and whether it leaves the exact ideal tied
//! set. The library path of `birdcage analyze --board P --tolerance-seed S`
//! ([`emulator::analysis::analyze`] with a [`Reader::Board`], one seeded draw of the board),
//! so the page and the command line read the same board.

use std::fmt::Write as _;

use emulator::physical::Board;
use emulator::reading::Reader;
use heuristic::{Model, Side};

use crate::game::Game;
use crate::html::escape;

/// The reading as HTML, or why there is none.
pub fn reading_html(
    game: &Game,
    profile: &'static boards::Profile,
    seed: Option<u64>,
) -> Result<String, String> {
    let size = game
        .size()
        .ok_or("a board reads the cage it wires; a graph file has exact drops only")?;
    // The latest position with Cut to move: the one the firmware reads (now, or before
    // Cut's last move).
    let mut plies = game.moves().len();
    let mut earlier = game.clone();
    loop {
        earlier.truncate(plies);
        if earlier.to_move() == Some(Side::Cut) {
            break;
        }
        if plies == 0 {
            return Err("no position with Cut to move".to_string());
        }
        plies -= 1;
    }
    let record = earlier.record();
    let reader = Reader::Board {
        board: Box::new(Board::from_profile(profile)),
        seed,
    };
    let analysis =
        emulator::analysis::analyze(size, Side::Cut, &record, Model::Ideal, Some(&reader))
            .map_err(|e| format!("{}: {e}", profile.name))?;
    let mut out = String::new();
    let seed_text = seed.map_or("nominal parts".to_string(), |s| {
        format!("tolerance seed {s}")
    });
    let _ = write!(
        out,
        "<h2>The machine as built: {} ({seed_text})</h2><p>What its ADC reads {}, Cut to \
         move.</p>",
        escape(profile.name),
        if record.is_empty() {
            "at the start".to_string()
        } else {
            format!("after {}", escape(&record))
        }
    );
    let name = |e: Option<heuristic::Edge>| e.map_or("none".to_string(), |e| e.to_string());
    let tied: Vec<String> = analysis.tied.iter().map(ToString::to_string).collect();
    let verdict = match analysis.diverges {
        Some(true) => "<strong>diverges</strong>: its move is not one of the ideal tied set",
        Some(false) => "agrees with the ideal choice",
        None => "makes no move here",
    };
    let _ = write!(
        out,
        "<p class=\"firmware\">The firmware's move from the codes: <b>{}</b>; the exact ideal \
         choice: <b>{}</b>{}. The firmware {verdict}.</p>",
        name(analysis.firmware_choice),
        name(analysis.choice),
        if tied.len() > 1 {
            format!(" (exactly tied: {})", crate::words::some_of(&tied))
        } else {
            String::new()
        }
    );
    if let Some(nodes) = &analysis.nodes {
        out.push_str(
            "<table class=\"codes\"><thead><tr><th>node</th><th>mV</th><th>code</th></tr>\
             </thead><tbody>",
        );
        for n in nodes {
            let volts = n
                .volts
                .map_or("–".to_string(), |v| format!("{:.0}", v * 1000.0));
            let code = n.code.map_or("–".to_string(), |c| c.to_string());
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{volts}</td><td>{code}</td></tr>",
                escape(&n.node)
            );
        }
        out.push_str("</tbody></table>");
    }
    let _ = write!(
        out,
        "<details><summary>The same report as <code>birdcage analyze --size {} --moves {} \
         --board {}{}</code></summary><pre>{}</pre></details>",
        size.get(),
        escape(if record.is_empty() { "''" } else { &record }),
        escape(profile.name),
        seed.map_or(String::new(), |s| format!(" --tolerance-seed {s}")),
        escape(&analysis.to_text())
    );
    Ok(out)
}
