//! The screens as a person would see them: what fits 80×24, colours or none.

use std::io::Write;

use crossterm::queue;
use crossterm::style::{Color, SetForegroundColor};
use heuristic::{Edge, Side};

use super::ink::HEAT;
use super::*;
use crate::cli::play::heat;
use crate::cli::play::{Front, Machine, Session, View, YouArg};
use emulator::players::Opponent;
use heuristic::{Model, Size};

/// Escape codes that set a colour: foreground, background, or back to the default.
const COLOUR_CODES: [&str; 4] = ["\x1b[38;", "\x1b[48;", "\x1b[39m", "\x1b[49m"];

/// A game against the heuristic after `moves` of the person's (each answered).
pub(crate) fn game(m: u32, view: View, you: YouArg, moves: &[&str]) -> Session {
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

pub(crate) fn scene<'a>(
    game: &'a Session,
    selected: &str,
    drops: bool,
    colours: bool,
) -> Scene<'a> {
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

pub(crate) fn lines(frame: &Frame) -> Vec<String> {
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
        shown.contains("Drops in % of the supply.   Largest (bold, underlined):"),
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
    // The legend's items: each step's floor, the last naming the largest.
    let shown = lines(&frame).join("\n");
    assert!(shown.contains("Drop, % of supply:"), "{shown}");
    let top = heat.largest()[0];
    assert!(
        shown.contains(&format!(" {} largest: {top}", heat::percent(heat.max()))),
        "{shown}"
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

/// The words of the lines of `frame`.
fn words(frame: &Frame) -> Vec<String> {
    lines(frame)
        .iter()
        .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// Checks that `frame` fits `width`×`height`, shows the quit key, and has only whole
/// words: each one of `whole` (the words of the same screens on a large terminal), or the
/// record's latest moves after `…`.
fn assert_whole(frame: &Frame, (width, height): (u16, u16), whole: &[String], record: &str) {
    let shown = lines(frame);
    let all = shown.join("\n");
    assert!(shown.len() <= usize::from(height), "{all}");
    for line in &shown {
        assert!(line.chars().count() <= usize::from(width), "{line}\n{all}");
    }
    assert!(all.contains("q quit") || all.contains("Esc quit"), "{all}");
    for word in words(frame) {
        if let Some(tail) = word.strip_prefix('…') {
            assert!(record.ends_with(tail), "{word} of {record}\n{all}");
        } else {
            assert!(whole.contains(&word), "`{word}` is cut\n{all}");
        }
    }
}

/// The words a small screen may show: those of the same scene on a large terminal, with
/// and without the drops, and the status line's short forms.
fn whole_words(game: &Session, selected: &str) -> Vec<String> {
    let mut whole: Vec<String> = [false, true]
        .into_iter()
        .flat_map(|drops| words(&frame(&scene(game, selected, drops, false), 300, 100)))
        .collect();
    let notes = (50..100)
        .map(super::cage::drops_note)
        .collect::<Vec<_>>()
        .join(" ");
    whole.extend(
        format!("Your move. The machine's move. You win. The machine wins. {notes}")
            .split_whitespace()
            .map(str::to_string),
    );
    whole
}

#[test]
fn small_terminals_show_whole_words_the_board_and_the_quit_key() {
    for m in 2..=8 {
        for view in [View::Circuit, View::Gale] {
            for you in [YouArg::Short, YouArg::Cut] {
                let game = match you {
                    YouArg::Short => game(m, view, you, &["c3"]),
                    YouArg::Cut => game(m, view, you, &["C3"]),
                };
                let whole = whole_words(&game, "A1");
                let record = game.record();
                for drops in [false, true] {
                    for size in [(60, 20), (80, 24)] {
                        let what = format!("M={m} {view:?} {you:?} drops {drops} {size:?}");
                        let frame = frame(&scene(&game, "A1", drops, false), size.0, size.1);
                        assert_whole(&frame, size, &whole, &record);
                        let shown = lines(&frame);
                        let letters = heuristic::column_letter(Size::new(m).unwrap().span());
                        assert!(
                            shown
                                .iter()
                                .any(|l| l.contains(&format!(" {letters}")) && l.starts_with("  ")),
                            "{what}: no board\n{}",
                            shown.join("\n")
                        );
                        let (_, row) = frame.cursor;
                        assert!(shown[usize::from(row)].starts_with("> c"), "{what}");
                        assert!(shown.iter().any(|l| l.starts_with("Your move (")), "{what}");
                        // The message's start at least: the hint's move.
                        assert!(
                            shown.iter().any(|l| l.contains("Hint: c7: it")),
                            "{what}\n{}",
                            shown.join("\n")
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_key_line_gives_way_whole_at_60_columns() {
    // The screen: M=4 at 60×20 cut the key line to `? hint  v dro`.
    let game = game(4, View::Circuit, YouArg::Short, &[]);
    let shown = lines(&frame(&scene(&game, "A1", false, false), 60, 20));
    assert!(
        shown.contains(&"? hint  v drops  u undo  q quit".to_string()),
        "{}",
        shown.join("\n")
    );
    // At 80 columns the whole line, with a move for the person's side.
    let shown = lines(&frame(&scene(&game, "A1", false, false), 80, 24));
    assert!(
        shown.contains(
            &"arrows + Enter, or a move (d4) + Enter: play   ? hint  v drops  u undo  q quit"
                .to_string()
        ),
        "{}",
        shown.join("\n")
    );
    let cut = self::game(4, View::Circuit, YouArg::Cut, &[]);
    let shown = lines(&frame(&scene(&cut, "A1", false, false), 80, 24)).join("\n");
    assert!(shown.contains("or a move (D4) + Enter"), "{shown}");
    // M=8 at 60×20: no row is left below the board, the keys go beside it; at 40×20 there
    // is no room beside it either, and they share the prompt's line.
    let game = self::game(8, View::Circuit, YouArg::Short, &[]);
    let shown = lines(&frame(&scene(&game, "A1", false, false), 60, 20));
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("2  ●") && l.ends_with("q quit")),
        "{}",
        shown.join("\n")
    );
    let frame = frame(&scene(&game, "A1", false, false), 40, 20);
    let shown = lines(&frame);
    let prompt = &shown[usize::from(frame.cursor.1)];
    assert!(prompt.starts_with("> c "), "{prompt}");
    assert!(prompt.ends_with("q quit"), "{prompt}");
    assert_eq!(frame.cursor, (3, 19));
}

#[test]
fn a_tiny_terminal_keeps_the_quit_key_or_says_how_large_it_must_be() {
    for m in [2, 4, 8] {
        let game = game(m, View::Circuit, YouArg::Short, &["c3"]);
        for (width, height) in [(20, 6), (0, 0), (1, 1), (6, 1), (5, 3), (10, 30), (30, 10)] {
            for drops in [false, true] {
                let frame = frame(&scene(&game, "A1", drops, false), width, height);
                let shown = lines(&frame);
                let all = shown.join(" ");
                assert!(
                    shown.len() <= usize::from(height),
                    "{width}×{height}: {all}"
                );
                assert!(
                    shown
                        .iter()
                        .all(|l| l.chars().count() <= usize::from(width)),
                    "{width}×{height}: {all}"
                );
                if width >= 6 && height >= 1 {
                    assert!(
                        all.contains("q quit") || all.contains("q to quit"),
                        "M={m} {width}×{height}: {all}"
                    );
                }
            }
        }
        let shown = lines(&frame(&scene(&game, "A1", false, false), 20, 6)).join(" ");
        assert!(
            shown.starts_with("The terminal is 20×6; this board"),
            "{shown}"
        );
        assert!(shown.ends_with("or q to quit."), "{shown}");
    }
}

#[test]
fn the_drops_keep_their_cells_width_from_move_to_move() {
    // A game in which the widest drop changes width (`100`, `8.8`, `0.12`): every cell is
    // as wide as the widest can be, so the board does not shift under the cursor.
    let mut widths = std::collections::BTreeSet::new();
    for m in 2..=4 {
        let mut game = game(m, View::Circuit, YouArg::Short, &[]);
        let last = heuristic::column_letter(Size::new(m).unwrap().span());
        let mut widest = std::collections::BTreeSet::new();
        let mut on_screen = std::collections::BTreeSet::new();
        let mut in_text = std::collections::BTreeSet::new();
        // Every position of the game, the person's turn or the machine's.
        while game.position().winner().is_none() {
            let heat = game.heat();
            let labels = game.position().resistors().filter_map(|e| heat.label(e));
            widest.insert(labels.map(|l| l.chars().count()).max());
            // 40 columns: nothing stands beside the board.
            let shown = lines(&frame(&scene(&game, "A1", true, false), 40, 30));
            let letters =
                |l: &&str| l.trim_start().starts_with("A ") && l.trim_end().ends_with(last);
            let row = shown.iter().map(String::as_str).find(letters);
            on_screen.insert(row.map(|l| l.trim_end().to_string()));
            let text = heat.to_text(game.position());
            in_text.insert(text.lines().find(letters).map(str::to_string));
            if game.reply().unwrap().is_none() {
                let edge = game.position().resistors().last().unwrap();
                game.play_edge(edge).unwrap();
            }
        }
        assert_eq!(on_screen.len(), 1, "M={m}: {on_screen:#?}");
        assert_eq!(in_text.len(), 1, "M={m}: {in_text:#?}");
        assert_eq!(on_screen, in_text);
        widths.insert(widest.len());
    }
    // Some game's widest drop changed width, so the test can fail.
    assert!(widths.iter().any(|&n| n > 1), "{widths:?}");
}

#[test]
fn the_graph_screen_gives_way_whole_and_keeps_the_quit_key() {
    let graph = switching::Graph::cage(Size::new(4).unwrap());
    let mut game = crate::cli::play::graph::GraphSession::new(
        "a/rather/long/path/to/the/cage/of/size/four.txt",
        &graph,
        Side::Short,
        Opponent::Heuristic(Model::Ideal),
        Model::Ideal,
    );
    game.reply().unwrap();
    let message = "Hint: c7: it starts a strategy that beats this machine whatever it does.";
    let scene = |drops| GraphScene {
        game: &game,
        selected: 3,
        drops,
        typed: "",
        message,
        colours: false,
    };
    for drops in [false, true] {
        let mut whole = words(&graph_frame(&scene(drops), 300, 100));
        for size in [(60, 20), (80, 24), (48, 14)] {
            let frame = graph_frame(&scene(drops), size.0, size.1);
            let shown = lines(&frame);
            // The window's range is the board's, not cut to fit.
            if let Some(range) = shown.iter().find(|l| l.starts_with("  (edges ")) {
                whole.extend(range.split_whitespace().map(str::to_string));
            }
            if shown[0].starts_with("The terminal is") {
                continue;
            }
            assert_whole(&frame, size, &whole, &game.record());
        }
    }
}

#[test]
fn a_message_without_room_shows_its_start() {
    // M=3 at 30×12: no room for the whole hint below the board or beside it.
    let game = game(3, View::Circuit, YouArg::Short, &[]);
    let shown = lines(&frame(&scene(&game, "A1", false, false), 30, 12));
    let all = shown.join("\n");
    let cut = shown.iter().find(|l| l.ends_with(" …")).expect(&all);
    assert!(all.contains("Hint: c7: it"), "{all}");
    assert!(cut.chars().count() <= 30, "{all}");
    assert!(all.contains("q quit"), "{all}");
}
