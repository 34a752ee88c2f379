//! The screens as a person would see them: what fits 80×24, colours or none.

use std::io::Write;

use crossterm::queue;
use crossterm::style::{Color, SetForegroundColor};
use heuristic::{Edge, Side};

use super::ink::HEAT;
use super::*;
use crate::cli::play::heat;
use crate::cli::play::{Machine, Session, View, YouArg};
use emulator::players::Opponent;
use heuristic::{Model, Size};

/// Escape codes that set a colour: foreground, background, or back to the default.
const COLOUR_CODES: [&str; 4] = ["\x1b[38;", "\x1b[48;", "\x1b[39m", "\x1b[49m"];

/// A game against the heuristic after `moves` of the person's (each answered).
fn game(m: u32, view: View, you: YouArg, moves: &[&str]) -> Session {
    let you = match you {
        YouArg::Short => Side::Short,
        YouArg::Cut => Side::Cut,
    };
    let model = Model::Ideal;
    let machine = Machine::Player(Opponent::Heuristic(model));
    let mut game = Session::new(Size::new(m).unwrap(), you, machine, model, view);
    game.reply().unwrap();
    for mv in moves {
        game.play(mv).unwrap();
        game.reply().unwrap();
    }
    game
}

fn scene<'a>(game: &'a Session, selected: &str, drops: bool, colours: bool) -> Scene<'a> {
    Scene {
        game,
        selected: Edge::parse(game.position().size(), selected).ok(),
        drops,
        typed: "c",
        message: "Hint: c7: it starts a strategy that beats this machine whatever it does, \
                  though with perfect play the machine would win.",
        colours,
    }
}

fn painted(frame: &Frame) -> String {
    let mut out = Vec::new();
    paint(&mut out, frame).unwrap();
    String::from_utf8(out).unwrap()
}

fn lines(frame: &Frame) -> Vec<String> {
    frame.lines.iter().map(text).collect()
}

#[test]
fn every_board_and_view_fits_80_by_24_with_the_status_board_and_prompt() {
    for m in 2..=8 {
        for view in [View::Circuit, View::Gale] {
            // Both sides have moved, so wires and cuts are on the board.
            let game = game(m, view, YouArg::Short, &["c3"]);
            assert_eq!(game.position().to_move(), Some(Side::Short));
            for drops in [false, true] {
                for colours in [false, true] {
                    let what = format!("M={m} {view:?} drops {drops} colours {colours}");
                    let frame = frame(&scene(&game, "A1", drops, colours), 80, 24);
                    let shown = lines(&frame);
                    assert!(shown.len() <= 24, "{what}: {}", shown.len());
                    for line in &shown {
                        assert!(line.chars().count() <= 80, "{what}: {line}");
                    }
                    assert!(shown.iter().any(|l| l.starts_with("Your move (Short).")));
                    // The board's column letters, and the prompt where the cursor is.
                    let letters = (1..=Size::new(m).unwrap().span())
                        .map(|x| heuristic::column_letter(x).to_string())
                        .collect::<Vec<_>>();
                    let last = letters.last().unwrap();
                    assert!(
                        shown.iter().any(|l| l.trim_end().ends_with(last.as_str())),
                        "{what}: no column {last}\n{}",
                        shown.join("\n")
                    );
                    let (column, row) = frame.cursor;
                    assert_eq!(shown[usize::from(row)], "> c", "{what}");
                    assert_eq!(column, 3, "{what}");
                    // The whole hint: the message outranks the keys and the header.
                    assert!(shown.iter().any(|l| l.starts_with("Hint: c7")), "{what}");
                    assert!(
                        shown.iter().any(|l| l.ends_with("the machine would win.")),
                        "{what}"
                    );
                }
            }
        }
    }
}

#[test]
fn without_colours_no_colour_code_is_written_and_marks_remain() {
    // M=4 after A7 (the machine), c7 (you), and the machine's answer.
    let game = game(4, View::Circuit, YouArg::Short, &["c7"]);
    let last = game.last_machine_move().unwrap().to_string();
    assert_eq!(last, "C5");
    for drops in [false, true] {
        let frame = frame(&scene(&game, "E1", drops, false), 80, 24);
        let out = painted(&frame);
        for code in COLOUR_CODES {
            assert!(!out.contains(code), "drops {drops}: {code:?} in {out:?}");
        }
        let shown = lines(&frame).join("\n");
        // The selection: reverse video and brackets; the machine's move: < >.
        assert!(out.contains("\x1b[7m"), "drops {drops}");
        let row = shown.lines().find(|l| l.starts_with('1')).unwrap();
        let (_, inside) = row.split_once('[').unwrap();
        let (inside, _) = inside.split_once(']').unwrap();
        let e1 = Edge::parse(Size::new(4).unwrap(), "E1").unwrap();
        let cell = if drops {
            game.heat().label(e1).unwrap()
        } else {
            "|".to_string()
        };
        assert_eq!(inside.trim(), cell, "drops {drops}:\n{shown}");
        let row = shown.lines().find(|l| l.starts_with('5')).unwrap();
        let (_, inside) = row.split_once('<').unwrap();
        let (inside, _) = inside.split_once('>').unwrap();
        assert_eq!(inside.trim(), "×", "drops {drops}:\n{shown}");
    }
    // The drops: percent, and the largest in bold underlined, named in the legend.
    let frame = frame(&scene(&game, "E1", true, false), 80, 24);
    let shown = lines(&frame).join("\n");
    assert!(
        shown.contains("Drops in % of the supply. Largest (bold, underlined):"),
        "{shown}"
    );
    let underlined: Vec<&Span> = frame
        .lines
        .iter()
        .flatten()
        .filter(|s| s.style.underline)
        .collect();
    assert!(!underlined.is_empty());
    let heat = game.heat();
    for span in underlined {
        let edge = span.edge.unwrap();
        assert!(heat.largest().contains(&edge), "{edge}");
        assert!(span.style.bold);
        assert_eq!(span.text.trim(), heat.label(edge).unwrap());
    }
}

#[test]
fn colours_ink_wires_cuts_and_the_heat_steps() {
    let game = game(4, View::Circuit, YouArg::Short, &["c7"]);
    let board = painted(&frame(&scene(&game, "E1", false, true), 80, 24));
    let code = |c: Color| {
        let mut s = String::new();
        queue!(s_writer(&mut s), SetForegroundColor(c)).unwrap();
        s
    };
    assert!(
        board.contains(&format!("{}‖", code(SHORT_INK))),
        "{board:?}"
    );
    assert!(board.contains(&format!("{}×", code(CUT_INK))), "{board:?}");
    // The heat map: every resistor on its step, the largest alone on the top one.
    let frame = frame(&scene(&game, "E1", true, true), 80, 24);
    let heat = game.heat();
    let mut resistors = 0;
    for span in frame.lines.iter().flatten() {
        let Some(edge) = span.edge else { continue };
        let Some(level) = heat.level(edge) else {
            continue;
        };
        resistors += 1;
        assert_eq!(span.style.bg, Some(HEAT[level]), "{edge}");
        assert_eq!(
            level == heat::LEVELS - 1,
            heat.largest().contains(&edge),
            "{edge}"
        );
    }
    assert_eq!(resistors, game.position().resistors().count());
    let legend = lines(&frame)
        .into_iter()
        .find(|l| l.starts_with("Drop, % of supply:"))
        .unwrap();
    let top = heat.largest()[0];
    assert!(
        legend.ends_with(&format!(" {} largest: {top}", heat::percent(heat.max()))),
        "{legend}"
    );
}

/// A `fmt::Write` string as an `io::Write`, to read the codes crossterm writes.
fn s_writer(s: &mut String) -> impl Write + '_ {
    struct W<'a>(&'a mut String);
    impl Write for W<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.push_str(std::str::from_utf8(buf).unwrap());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    W(s)
}

#[test]
fn the_status_keeps_the_end_of_a_long_record() {
    let mut game = game(8, View::Circuit, YouArg::Cut, &[]);
    // Cut plays the first resistor in reading order, the machine answers, until the
    // record is longer than the screen is wide.
    while game.record().len() <= 45 {
        let edge = game.position().resistors().next().unwrap();
        game.play_edge(edge).unwrap();
        game.reply().unwrap();
    }
    assert_eq!(game.position().to_move(), Some(Side::Cut));
    let record = game.record();
    assert!(record.len() > 40, "{record}");
    let frame = frame(&scene(&game, "A1", false, true), 40, 24);
    let shown = lines(&frame);
    let status = shown
        .iter()
        .find(|l| l.starts_with("Your move (Cut)."))
        .unwrap();
    assert!(status.chars().count() <= 40, "{status}");
    assert!(status.contains("Record: …"), "{status}");
    let tail = record.rsplit(',').next().unwrap();
    assert!(status.ends_with(&format!(",{tail}")), "{status}");
}

#[test]
fn a_terminal_too_small_says_so() {
    let game = game(8, View::Circuit, YouArg::Short, &[]);
    let shown = lines(&frame(&scene(&game, "A1", false, true), 80, 12));
    assert_eq!(
        shown.join(" "),
        "The terminal is 80×12; this board needs 32×20. Enlarge it, or q to quit."
    );
}

#[test]
fn the_graph_screen_fits_and_marks_the_selection() {
    let graph = switching::Graph::cage(Size::new(8).unwrap());
    let mut game = crate::cli::play::graph::GraphSession::new(
        "cage.txt",
        &graph,
        Side::Short,
        Opponent::Heuristic(Model::Ideal),
        Model::Ideal,
    );
    game.reply().unwrap();
    for colours in [false, true] {
        let scene = GraphScene {
            game: &game,
            selected: 60,
            drops: true,
            typed: "",
            message: "Machine: A15",
            colours,
        };
        let frame = graph_frame(&scene, 80, 24);
        let shown = lines(&frame);
        assert_eq!(shown.len(), 24);
        assert!(shown.iter().all(|l| l.chars().count() <= 80), "{shown:?}");
        assert!(
            shown.iter().any(|l| l.starts_with("  (edges ")),
            "{shown:?}"
        );
        let selected: Vec<&Span> = frame
            .lines
            .iter()
            .flatten()
            .filter(|s| s.style.reverse)
            .collect();
        assert_eq!(selected.len(), 1);
        let name = &graph.edges()[60].name;
        assert!(selected[0].text.starts_with(&format!("> {name} ")));
        let out = painted(&frame);
        for code in COLOUR_CODES {
            assert_eq!(out.contains(code), colours && code == COLOUR_CODES[0]);
        }
    }
}

/// Gale's view inks each side as the circuit view does (birdcage/README.md says so): Short's
/// dots and bridges in Okabe and Ito's blue, Cut's in vermillion, whichever side the person
/// plays (not Bridj-It 2.0's red machine and green player).
#[test]
fn gale_inks_short_blue_and_cut_vermillion_whoever_plays_which() {
    for you in [YouArg::Short, YouArg::Cut] {
        let mut game = game(4, View::Gale, you, &[]);
        for _ in 0..3 {
            let edge = game.position().resistors().next().unwrap();
            game.play_edge(edge).unwrap();
            game.reply().unwrap();
        }
        let position = game.position();
        let frame = frame(&scene(&game, "", false, true), 80, 24);
        let (mut short, mut cut) = (0, 0);
        for span in frame.lines.iter().flatten() {
            let side = match (span.text.as_str(), span.edge.map(|e| position.state(e))) {
                ("●", _) | (_, Some(heuristic::EdgeState::Short)) => Side::Short,
                ("○", _) | (_, Some(heuristic::EdgeState::Cut)) => Side::Cut,
                _ => continue,
            };
            let (ink, n) = match side {
                Side::Short => (SHORT_INK, &mut short),
                Side::Cut => (CUT_INK, &mut cut),
            };
            assert_eq!(span.style.fg, Some(ink), "{side:?}: {span:?}");
            *n += 1;
        }
        // Every dot, the legend's, and three bridges of each side at least.
        assert!(short >= 20 + 1 + 3 && cut >= 20 + 1 + 3, "{short} {cut}");
    }
}
