//! Shannon's Bird Cage in the browser: the workspace's crates (`heuristic`, `switching`,
//! `emulator`'s exact solver, perfect play, beat search and board model) compiled to
//! WebAssembly behind one small API, [`App`], that the page's JavaScript calls.
//!
//! The JavaScript only puts the HTML and SVG this crate writes on the page and forwards
//! clicks, keys and the URL: every rule, coordinate, current, choice, hint and word comes
//! from here. The same code runs on the host (`cargo test -p birdcage-web`).
//!
//! - [`settings`]: the URL (`#size=4&moves=A7,c5&you=cut&network=reference`) both ways;
//! - [`game`]: the library's play session ([`emulator::session`]) on the cage or a graph,
//!   with edges named by index, and the drops;
//! - [`draw`]: the board as SVG (circuit, Gale's dots, a graph on its [`layout`]);
//! - [`words`]: hover lines, the ranking, why the machine moved, the legend;
//! - [`reading`]: what a board's ADC reads and the firmware's move from it.
#![forbid(unsafe_code)]

pub mod colour;
pub mod draw;
pub mod game;
pub mod html;
pub mod layout;
pub mod reading;
pub mod settings;
pub mod words;

use std::fmt::Write as _;

use emulator::hint::Hint;
use heuristic::{MAX_SIZE, MIN_SIZE, Model, Side};
use wasm_bindgen::prelude::wasm_bindgen;

use game::Game;
use html::escape;
use settings::{Opponent, Settings, View};

/// What Play says with an empty Move field (a hint fills it).
const EMPTY_MOVE: &str = "The Move field is empty: type a move (c5), press Hint to fill it, or \
                          click a resistor.";

/// The page's state: the settings from the URL, the game, the messages to show.
#[wasm_bindgen]
#[derive(Debug)]
pub struct App {
    settings: Settings,
    game: Game,
    messages: Vec<String>,
    hint: Option<Hint<usize>>,
    /// The drops of the position, its hover lines and why the machine moved: solved once
    /// a move, when the page first draws it, then drawn as often as it likes.
    drops: game::Drops,
    info: Vec<String>,
    why: String,
    fresh: bool,
}

#[wasm_bindgen]
impl App {
    /// The page for a URL hash (`size=4&moves=A7,c5`, with or without `#`). Whatever in it
    /// is wrong is named in [`App::message`] and the rest is used; when it is the machine's
    /// turn, the machine moves at once.
    #[wasm_bindgen(constructor)]
    pub fn new(hash: &str) -> App {
        let (mut settings, mut messages) = Settings::parse(hash);
        let (game, problem) = match Game::new(&settings) {
            Ok(made) => made,
            Err(e) => {
                messages.push(format!("{e}. Playing the cage instead."));
                settings.graph = None;
                Game::new(&settings).expect("the cage always builds")
            }
        };
        messages.extend(problem);
        let mut app = App {
            settings,
            game,
            messages,
            hint: None,
            drops: game::Drops::default(),
            info: Vec::new(),
            why: String::new(),
            fresh: false,
        };
        app.game.reply();
        app
    }

    /// Solves the position for the page, once after it changed.
    fn refresh(&mut self) {
        if !self.fresh {
            self.drops = self.game.drops();
            self.info = words::edge_info(&self.game, &self.drops);
            self.why = words::why_html(&self.game);
            self.fresh = true;
        }
    }

    /// The board as SVG.
    pub fn svg(&mut self) -> String {
        self.refresh();
        let scene = draw::Scene {
            game: &self.game,
            drops: &self.drops,
            info: &self.info,
            hint: self.hint.as_ref().and_then(|h| h.mv),
            show_drops: self.settings.drops,
            gale: self.settings.view == View::Gale && self.game.graph().is_none(),
            states: self.game.states(),
            your_turn: self.game.to_move() == Some(self.game.you()),
            last: self.game.last_machine_move().map(|(_, e)| e),
        };
        scene.svg()
    }

    /// The record so far, in the project's notation (`A7,c5,C7`).
    pub fn record(&self) -> String {
        self.game.record()
    }

    /// The URL hash (without `#`) that gives this position back.
    pub fn hash(&self) -> String {
        self.settings.hash(&self.game.record())
    }

    /// The messages about bad input (empty when all is well), one a line.
    pub fn message(&self) -> String {
        self.messages.join("\n")
    }

    /// `light`, `dark`, or empty: follow the system.
    pub fn theme(&self) -> String {
        self.settings.theme.unwrap_or("").to_string()
    }

    /// Whose turn and the result, one line.
    pub fn status(&self) -> String {
        if let Some(outcome) = self.game.outcome() {
            return outcome;
        }
        match self.game.to_move() {
            Some(s) if s == self.game.you() => format!("Your move ({s})."),
            Some(s) => format!("The machine's move ({s})."),
            None => "No move is left.".to_string(),
        }
    }

    /// Plays the person's move on the edge named `name`, then the machine's reply. On a
    /// bad move, false and the message says why.
    /// The hint stays until a move is played: a refused one leaves its mark on the board.
    pub fn play(&mut self, name: &str) -> bool {
        self.messages.clear();
        if name.trim().is_empty() {
            self.messages.push(EMPTY_MOVE.to_string());
            return false;
        }
        match self.game.play(name) {
            Ok(()) => {
                self.hint = None;
                self.game.reply();
                self.fresh = false;
                true
            }
            Err(e) => {
                self.messages
                    .push(format!("{}: {e}.", heuristic::Echo(name)));
                false
            }
        }
    }

    /// Takes back moves until it is the person's turn again.
    pub fn undo(&mut self) -> bool {
        self.messages.clear();
        self.hint = None;
        let done = self.game.undo();
        self.fresh = false;
        if !done {
            self.messages.push("Nothing to undo.".to_string());
        }
        done
    }

    /// The hint (`birdcage play`'s): it knows the machine. Its line, one sentence; the
    /// move is marked on the board, [`App::hint_move`] names it for the Move field, and the
    /// panel holds its reasons behind a disclosure.
    pub fn hint(&mut self) -> String {
        let hint = self.game.hint();
        let line = hint.line.clone();
        self.hint = Some(hint);
        line
    }

    /// The last hint's move as the Move field takes it (the name the record gives it, as
    /// the edge's `data-edge` holds it); empty without a hint or a move.
    pub fn hint_move(&self) -> String {
        self.hint
            .as_ref()
            .and_then(|h| h.mv)
            .map_or(String::new(), |e| self.game.move_name(self.game.you(), e))
    }

    /// The last hint's reasons (`Why: ...`); empty without a hint.
    pub fn hint_why(&self) -> String {
        self.hint.as_ref().map_or(String::new(), |h| h.why.clone())
    }

    /// The URL hash with one setting changed (`size`, `you`, `opponent`, `network`, `view`,
    /// `drops`, `board`, `seed`, `theme`); a new game for a new size or side. Empty when
    /// the value is refused, and the message says why.
    pub fn with_setting(&mut self, key: &str, value: &str) -> String {
        let mut s = self.settings.clone();
        if let Err(e) = s.set(key, value) {
            self.messages = vec![e.replace(" in the link", "")];
            return String::new();
        }
        let moves = match key {
            "size" | "you" => String::new(),
            _ => self.game.record(),
        };
        if key == "size" {
            s.graph = None;
        }
        s.hash(&moves)
    }

    /// The URL hash of a new game on a graph file's text; empty when the file does not
    /// read, and the message names the line at fault.
    pub fn with_graph(&mut self, text: &str) -> String {
        if let Err(e) = text.parse::<switching::Graph>() {
            self.messages = vec![format!("The graph file: {e}.")];
            return String::new();
        }
        let mut s = self.settings.clone();
        s.graph = Some(text.to_string());
        s.view = View::Circuit;
        s.hash("")
    }

    /// The URL hash of a new game with the same settings (on the cage when `cage`).
    pub fn new_game(&self, cage: bool) -> String {
        let mut s = self.settings.clone();
        if cage {
            s.graph = None;
        }
        s.hash("")
    }

    /// The graph file's text, when the game is on one.
    pub fn graph_text(&self) -> String {
        self.settings.graph.clone().unwrap_or_default()
    }

    /// The controls: every choice the page offers, with the current one selected.
    pub fn controls(&self) -> String {
        let s = &self.settings;
        let mut out = String::new();
        let select =
            |out: &mut String, key: &str, label: &str, options: &[(String, String, bool)]| {
                let _ = write!(out, "<label>{label} <select data-setting=\"{key}\">");
                for (value, text, selected) in options {
                    let _ = write!(
                        out,
                        "<option value=\"{}\"{}>{}</option>",
                        escape(value),
                        if *selected { " selected" } else { "" },
                        escape(text)
                    );
                }
                out.push_str("</select></label>");
            };
        let on_cage = s.graph.is_none();
        let sizes: Vec<_> = (MIN_SIZE..=MAX_SIZE)
            .map(|m| {
                (
                    m.to_string(),
                    format!("M={m}"),
                    on_cage && s.size.get() == m,
                )
            })
            .chain((!on_cage).then(|| (String::new(), "graph file".to_string(), true)))
            .collect();
        select(&mut out, "size", "Board", &sizes);
        select(
            &mut out,
            "you",
            "You play",
            &[
                (
                    "short".into(),
                    "Short (the machine cuts)".into(),
                    s.you == Side::Short,
                ),
                (
                    "cut".into(),
                    "Cut (the machine shorts)".into(),
                    s.you == Side::Cut,
                ),
            ],
        );
        select(
            &mut out,
            "opponent",
            "Against",
            &[
                (
                    "heuristic".into(),
                    "the heuristic (largest drop)".into(),
                    s.opponent == Opponent::Heuristic,
                ),
                (
                    "perfect".into(),
                    "the perfect player".into(),
                    s.opponent == Opponent::Perfect,
                ),
            ],
        );
        let networks: Vec<_> = Model::ALL
            .iter()
            .map(|m| (m.name().to_string(), m.name().to_string(), s.network == *m))
            .collect();
        select(&mut out, "network", "Network", &networks);
        if on_cage {
            select(
                &mut out,
                "view",
                "View",
                &[
                    (
                        "circuit".into(),
                        "Shannon's circuit".into(),
                        s.view == View::Circuit,
                    ),
                    (
                        "gale".into(),
                        "Gale's dots (Bridj-It)".into(),
                        s.view == View::Gale,
                    ),
                ],
            );
        }
        let _ = write!(
            out,
            "<label><input type=\"checkbox\" data-setting=\"drops\"{}> drops in %</label>",
            if s.drops { " checked" } else { "" }
        );
        let boards: Vec<_> =
            std::iter::once(("none".to_string(), "none".to_string(), s.board.is_none()))
                .chain(boards::PROFILES.iter().map(|p| {
                    (
                        p.name.to_string(),
                        p.name.to_string(),
                        s.board.map(|b| b.name) == Some(p.name),
                    )
                }))
                .collect();
        select(&mut out, "board", "Board's ADC", &boards);
        let _ = write!(
            out,
            "<label>Tolerance seed <input data-setting=\"seed\" inputmode=\"numeric\" size=\"6\" \
             placeholder=\"nominal\" value=\"{}\"></label>",
            s.seed.map_or(String::new(), |v| v.to_string())
        );
        out
    }

    /// The panel beside the board: who plays whom, why the machine moved, the drops now,
    /// the hint, and the board's reading.
    pub fn panel(&mut self) -> String {
        self.refresh();
        let mut out = String::new();
        let board = match self.game.size() {
            Some(size) => format!("The M={} cage", size.get()),
            None => {
                let g = self.game.graph().expect("a graph when not the cage");
                let [s, t] = g.terminal_names();
                format!(
                    "A graph of {} edges (terminals {}, {})",
                    g.edges().len(),
                    escape(s),
                    escape(t)
                )
            }
        };
        let _ = write!(
            out,
            "<p class=\"who\">{board}: you play <b>{}</b> against {}. Cut moves first.</p>\
             <p class=\"status\" role=\"status\">{}</p>",
            self.game.you(),
            escape(&self.game.machine()),
            escape(&self.status())
        );
        if let Some(hint) = &self.hint {
            let _ = write!(
                out,
                "<p class=\"hint\">{}</p><details class=\"hint-why\"><summary>Why this \
                 move</summary><p>{}</p></details>",
                escape(&hint.line),
                escape(&hint.why)
            );
        }
        out.push_str(&self.why);
        if self.game.winner().is_none() {
            out.push_str("<h2>The drops now</h2>");
            out.push_str(&words::ranking_html(&self.game, &self.drops));
        }
        out.push_str(&words::legend_html(&self.drops));
        if let Some(profile) = self.settings.board {
            match reading::reading_html(&self.game, profile, self.settings.seed) {
                Ok(html) => out.push_str(&html),
                Err(e) => {
                    let _ = write!(out, "<p class=\"error\">Board reading: {}</p>", escape(&e));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_answers_a_link_at_once() {
        // `birdcage next --size 4 --moves A7,c5` prints C7.
        let app = App::new("#size=4&moves=A7,c5");
        assert_eq!(app.record(), "A7,c5,C7");
        assert_eq!(app.hash(), "size=4&moves=A7,c5,C7");
        assert_eq!(app.message(), "");
    }

    #[test]
    fn the_opening_is_the_machines() {
        assert_eq!(App::new("").record(), "A7");
        // As Cut, the person opens.
        assert_eq!(App::new("you=cut").record(), "");
    }

    #[test]
    fn a_click_plays_and_the_machine_replies() {
        let mut app = App::new("size=4");
        assert!(app.svg().contains("data-edge=\"c7\""));
        assert!(app.play("c7"));
        assert_eq!(app.record().split(',').count(), 3);
        assert!(!app.play("c7"));
        assert!(app.message().contains("c7"), "{}", app.message());
        assert!(app.undo());
        assert_eq!(app.record(), "A7");
    }

    #[test]
    fn why_the_machine_moved_is_told_truly() {
        // C7 is the machine's choice after A7,c5; A1 (given by the link) is not.
        let mut app = App::new("size=4&moves=A7,c5");
        assert!(app.panel().contains("Why the machine played C7"));
        let mut app = App::new("size=4&moves=A7,c5,A1");
        let panel = app.panel();
        assert!(
            panel.contains("It came with the record; the machine would have played C7"),
            "{panel}"
        );
    }

    #[test]
    fn a_long_link_is_echoed_bounded_as_the_cli_echoes() {
        // 10 KB in each place the page repeats: a move, a value, a key, the move field.
        let long = "x".repeat(10_000);
        for hash in [
            format!("size=4&moves=A7,{long}"),
            format!("size={long}"),
            format!("{long}=1"),
        ] {
            let app = App::new(&hash);
            let message = app.message();
            assert!(
                message.chars().count() < 300 && message.contains("more characters"),
                "{} characters: {}",
                message.len(),
                &message[..message.len().min(300)]
            );
        }
        let mut app = App::new("size=4");
        assert!(!app.play(&long));
        assert!(
            app.message().chars().count() < 300,
            "{}",
            app.message().len()
        );
    }

    #[test]
    fn a_tie_set_is_named_once_in_each_part_of_the_panel() {
        // M=8 before any move (64 resistors tied) and after the opening (the machine's
        // reason, then the drops now): each part names each resistor of a tie set once.
        for hash in ["size=8&you=cut", "size=8"] {
            let mut app = App::new(hash);
            let panel = app.panel();
            for part in panel.split("<h2>") {
                let body = part.split_once("</h2>").map_or(part, |(_, body)| body);
                let names: Vec<&str> = body
                    .split(['>', '<', ',', ' ', ':', '.', '(', ')'])
                    .filter(|w| w.len() >= 2 && w.chars().next().unwrap().is_ascii_uppercase())
                    .filter(|w| w[1..].chars().all(|c| c.is_ascii_digit()))
                    .collect();
                // A15, first of the opening's tie set (64 resistors), once at most.
                let a15 = names.iter().filter(|&&n| n == "A15").count();
                assert!(a15 <= 1, "{hash}: A15 {a15} times in {part}");
            }
            assert!(panel.contains("A15"), "{hash}: {panel}");
        }
    }

    #[test]
    fn the_hint_at_m8_starts_a_strategy_that_beats_the_machine() {
        // README "Results": beaten at every size from 3 to 8 by two Short moves.
        let mut app = App::new("size=8");
        let hint = app.hint();
        let named = app.hint_move();
        assert_eq!(
            hint,
            format!("Hint: {named}: it wins against this machine.")
        );
        let why = app.hint_why();
        assert!(
            why.starts_with(&format!(
                "Why: {named} starts a strategy that beats this machine whatever it does"
            )),
            "{why}"
        );
        // The reasons stand in the panel, behind a disclosure.
        assert!(app.panel().contains("<details class=\"hint-why\">"));
    }

    #[test]
    fn play_after_hint_plays_the_hinted_move() {
        // Issue 63: Hint did not fill the Move field, and Play then said "`` is not an
        // edge name" and cleared the hint's mark. The page fills the field with
        // `hint_move`; an empty field is named and keeps the mark.
        for hash in [
            "size=4&moves=A7",
            "size=6&moves=A11,g9,G11,i9",
            "size=3&you=cut",
        ] {
            let mut app = App::new(hash);
            let before = app.record();
            app.hint();
            let named = app.hint_move();
            assert!(!named.is_empty(), "{hash}");
            assert!(!app.play(""), "{hash}");
            assert_eq!(app.message(), EMPTY_MOVE, "{hash}");
            assert!(app.svg().contains(" hinted"), "{hash}");
            assert!(app.play(&named), "{hash}: {}", app.message());
            let record = app.record();
            let played: Vec<&str> = record.split(',').collect();
            let had = before.split(',').filter(|m| !m.is_empty()).count();
            assert_eq!(played[had], named, "{hash}: {record}");
            // Played: the mark and the reasons are gone.
            assert!(!app.svg().contains(" hinted"), "{hash}");
            assert_eq!(app.hint_why(), "", "{hash}");
        }
    }

    #[test]
    fn after_moves_of_ones_own_the_hint_still_marks_a_move() {
        // Issue 52 at M=6: g9 and i9 are no strategy the search knows, and the hint said
        // `none` with a count of moves. It names a move now and the board marks it.
        let mut app = App::new("size=6&moves=A11,g9,G11,i9");
        assert_eq!(app.record(), "A11,g9,G11,i9,I11");
        let hint = app.hint();
        assert!(
            hint.starts_with("Hint: ") && !hint.starts_with("Hint: none"),
            "{hint}"
        );
        assert!(app.svg().contains(" hinted"), "{hint}");
    }

    #[test]
    fn an_illegal_move_in_the_link_is_named() {
        let app = App::new("size=4&moves=A7,a7,C3");
        assert_eq!(app.record(), "A7");
        assert!(app.message().contains("move 2 `a7`"), "{}", app.message());
    }

    #[test]
    fn a_bad_graph_is_named_and_the_cage_stays() {
        let mut app = App::new("size=3");
        assert_eq!(app.with_graph("terminals s t\ns"), "");
        assert!(
            app.message().starts_with("The graph file:"),
            "{}",
            app.message()
        );
        let mut app = App::new("graph=terminals%20s%20t%0As");
        assert!(app.message().starts_with("The graph file:"));
        assert!(app.svg().contains("M=4 bird cage"));
    }

    #[test]
    fn a_graph_game_is_played_by_names() {
        let mut app = App::new("");
        let hash = app.with_graph("terminals s t\ns a\na t\ns b\nb t\na b");
        let mut app = App::new(&hash);
        assert_eq!(app.record().split(',').count(), 1);
        assert!(app.svg().contains("data-edge="));
        let hint = app.hint();
        assert!(hint.starts_with("Hint: "), "{hint}");
        let _ = app.panel();
    }

    #[test]
    fn every_view_draws_at_every_size() {
        for m in MIN_SIZE..=MAX_SIZE {
            for view in ["circuit", "gale"] {
                let mut app = App::new(&format!("size={m}&view={view}&drops=on"));
                let svg = app.svg();
                assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
                assert!(!app.panel().is_empty());
            }
        }
    }

    #[test]
    fn the_board_reading_is_analyzes() {
        let mut app = App::new("size=4&moves=A7,c5&board=nucleo-f446re&seed=7");
        let panel = app.panel();
        assert!(
            panel.contains("The firmware's move from the codes"),
            "{panel}"
        );
        assert!(panel.contains("tolerance seed 7"));
    }

    /// Issue 52: an M=8 panel listed its 64 equal largest drops and then 56 runners-up; each
    /// set now names a few edges and counts the rest.
    #[test]
    fn an_m8_panel_names_a_few_edges_of_each_set() {
        let mut app = App::new("size=8&you=cut");
        let panel = app.panel();
        let names = |text: &str| {
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| {
                    let mut chars = w.chars();
                    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                        && w.len() > 1
                        && chars.all(|c| c.is_ascii_digit())
                })
                .count()
        };
        let largest = panel
            .split("<p>")
            .find(|p| p.starts_with("Largest drop"))
            .unwrap_or_else(|| panic!("{panel}"));
        assert!(largest.contains(" more (exactly equal)"), "{largest}");
        assert!(names(largest) <= words::FEW, "{largest}");
        assert!(names(&panel) < 40, "{} names: {panel}", names(&panel));
    }

    /// The attribute `name` of an SVG element's text, as a number.
    fn attr(element: &str, name: &str) -> Option<f64> {
        let at = element.find(&format!(" {name}=\""))? + name.len() + 3;
        element[at..].split('"').next()?.parse().ok()
    }

    /// Issue 52: the circuit's drop labels overlapped the resistors' zig-zags. Every label's
    /// box (12 px text, 0.6 em a character) is apart from every zig-zag's box (its points,
    /// widened by half its halo's stroke), on the whole M=4 board with drops shown.
    #[test]
    fn drop_labels_stand_clear_of_the_zigzags() {
        let svg = App::new("size=4&drops=on&moves=A7,c5").svg();
        let mut zigzags = Vec::new();
        for element in svg
            .split('<')
            .filter(|e| e.starts_with("path class=\"halo\""))
        {
            let d = element
                .split(" d=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let numbers: Vec<f64> = d
                .split(['M', 'L', ' '])
                .filter(|w| !w.is_empty())
                .map(|w| w.parse().unwrap())
                .collect();
            let half = attr(element, "stroke-width").unwrap() / 2.0;
            let xs: Vec<f64> = numbers.iter().copied().step_by(2).collect();
            let ys: Vec<f64> = numbers.iter().copied().skip(1).step_by(2).collect();
            let min = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
            let max = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max);
            zigzags.push([
                min(&xs) - half,
                max(&xs) + half,
                min(&ys) - half,
                max(&ys) + half,
            ]);
        }
        let mut labels = 0;
        for element in svg
            .split('<')
            .filter(|e| e.starts_with("text class=\"pct\""))
        {
            let (x, y) = (attr(element, "x").unwrap(), attr(element, "y").unwrap());
            let text = element.split('>').nth(1).unwrap();
            let width = 12.0 * 0.6 * text.chars().count() as f64;
            let left = if element.contains("text-anchor=\"start\"") {
                x
            } else {
                x - width / 2.0
            };
            let label = [left, left + width, y - 6.0, y + 6.0];
            for z in &zigzags {
                let apart =
                    label[1] <= z[0] || z[1] <= label[0] || label[3] <= z[2] || z[3] <= label[2];
                assert!(apart, "label {text:?} {label:?} overlaps a zig-zag {z:?}");
            }
            labels += 1;
        }
        assert!(
            labels > 10 && zigzags.len() >= labels,
            "{labels} labels, {} zig-zags",
            zigzags.len()
        );
    }
}
