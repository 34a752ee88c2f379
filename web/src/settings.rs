//! The page's settings as the URL gives them: `#size=4&moves=A7,c5&you=cut&network=reference`.
//!
//! Every key is optional; a value that does not read is named in a message and its default
//! used, so a bad link still opens a usable page. The hash the page writes back holds the
//! size and the record, and every other setting only where it is not the default.

use std::fmt::Write as _;

use heuristic::{Echo, Model, Side, Size};

/// Who the machine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The heuristic: Shannon's machine (Cut, cuts the largest drop) or Bridj-It 2.0's
    /// (Short, shorts it).
    Heuristic,
    /// The perfect player (Lehman's theorem).
    Perfect,
}

/// How the cage is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Resistors, wires and gaps, as Shannon drew the circuit.
    Circuit,
    /// Gale's game (Bridg-It, Bridj-It 2.0): two grids of dots.
    Gale,
}

/// Everything the URL can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Board size M (the cage).
    pub size: Size,
    /// The record as given, not yet replayed.
    pub moves: String,
    /// The person's side.
    pub you: Side,
    /// The machine.
    pub opponent: Opponent,
    /// The network the heuristic measures.
    pub network: Model,
    /// Circuit or Gale's dots.
    pub view: View,
    /// Every resistor's drop written on the board.
    pub drops: bool,
    /// A board profile whose ADC reading is shown (built-in name).
    pub board: Option<&'static boards::Profile>,
    /// The board's tolerance seed; `None`: nominal parts.
    pub seed: Option<u64>,
    /// A graph file's text, played in place of the cage.
    pub graph: Option<String>,
    /// `light` or `dark`, if the link asks for one (the page follows the system otherwise).
    pub theme: Option<&'static str>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            size: Size::M4,
            moves: String::new(),
            you: Side::Short,
            opponent: Opponent::Heuristic,
            network: Model::Ideal,
            view: View::Circuit,
            drops: false,
            board: None,
            seed: None,
            graph: None,
            theme: None,
        }
    }
}

impl Settings {
    /// Reads a URL hash (with or without its `#`); every value that does not read gets one
    /// message and its default.
    pub fn parse(hash: &str) -> (Settings, Vec<String>) {
        let mut s = Settings::default();
        let mut errors = Vec::new();
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        for pair in hash.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = decode(value);
            if let Err(e) = s.set(key, &value) {
                errors.push(e);
            }
        }
        (s, errors)
    }

    /// Sets one value by its URL key; the message names the key and what is wrong.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let v = value.trim();
        // Echoed bounded, as the CLI echoes (a 10 KB link gives a short message).
        let bad = |what: &str| format!("{} in the link: {what}", Echo(&format!("{key}={value}")));
        match key {
            "size" => {
                let m: u32 = v.parse().map_err(|_| bad("not a board size"))?;
                self.size = Size::new(m).map_err(|e| bad(&e.to_string()))?;
            }
            "moves" => self.moves = v.to_string(),
            "you" => {
                self.you = match v {
                    "short" => Side::Short,
                    "cut" => Side::Cut,
                    _ => return Err(bad("you play `short` or `cut`")),
                }
            }
            "opponent" => {
                self.opponent = match v {
                    "heuristic" => Opponent::Heuristic,
                    "perfect" => Opponent::Perfect,
                    _ => return Err(bad("the opponent is `heuristic` or `perfect`")),
                }
            }
            "network" => {
                self.network = v
                    .parse()
                    .map_err(|e: heuristic::ModelError| bad(&e.to_string()))?
            }
            "view" => {
                self.view = match v {
                    "circuit" => View::Circuit,
                    "gale" => View::Gale,
                    _ => return Err(bad("the view is `circuit` or `gale`")),
                }
            }
            "drops" => self.drops = matches!(v, "on" | "1" | "true"),
            "board" => {
                self.board = match v {
                    "" | "none" => None,
                    name => Some(boards::by_name(name).map_err(|e| bad(&e.to_string()))?),
                }
            }
            "seed" => {
                self.seed = match v {
                    "" | "nominal" => None,
                    s => Some(s.parse().map_err(|_| bad("a seed is a whole number"))?),
                }
            }
            "graph" => self.graph = (!value.trim().is_empty()).then(|| value.to_string()),
            "theme" => {
                self.theme = match v {
                    "light" => Some("light"),
                    "dark" => Some("dark"),
                    _ => None,
                }
            }
            _ => {
                return Err(format!(
                    "{} in the link is not a setting of this page",
                    Echo(key)
                ));
            }
        }
        Ok(())
    }

    /// The hash that gives these settings back (without `#`), with `moves` as the record.
    pub fn hash(&self, moves: &str) -> String {
        let d = Settings::default();
        let mut h = String::new();
        match &self.graph {
            Some(text) => {
                let _ = write!(h, "graph={}", encode(text));
            }
            None => {
                let _ = write!(h, "size={}", self.size.get());
            }
        }
        let _ = write!(h, "&moves={}", encode(moves));
        if self.you != d.you {
            h.push_str("&you=cut");
        }
        if self.opponent == Opponent::Perfect {
            h.push_str("&opponent=perfect");
        }
        if self.network != d.network {
            let _ = write!(h, "&network={}", self.network.name());
        }
        if self.view == View::Gale {
            h.push_str("&view=gale");
        }
        if self.drops {
            h.push_str("&drops=on");
        }
        if let Some(board) = self.board {
            let _ = write!(h, "&board={}", board.name);
        }
        if let Some(seed) = self.seed {
            let _ = write!(h, "&seed={seed}");
        }
        if let Some(theme) = self.theme {
            let _ = write!(h, "&theme={theme}");
        }
        h
    }
}

/// Percent-decoding of a URL component (`%2C` is `,`); a malformed escape stays as it is.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encoding of a URL component: all but letters, digits, `-_.~` and the record's
/// commas.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~,".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_reads_back() {
        let (s, errors) = Settings::parse("#size=3&moves=A5,c5&you=cut&network=reference");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(s.size.get(), 3);
        assert_eq!(s.you, Side::Cut);
        assert_eq!(s.network, Model::Reference);
        assert_eq!(
            s.hash("A5,c5"),
            "size=3&moves=A5,c5&you=cut&network=reference"
        );
    }

    #[test]
    fn bad_values_are_named_and_defaulted() {
        let (s, errors) = Settings::parse("size=9&you=both&colour=red");
        assert_eq!(s, Settings::default());
        assert_eq!(
            errors,
            [
                "`size=9` in the link: board size M=9 is out of range (supported: 2..=8)",
                "`you=both` in the link: you play `short` or `cut`",
                "`colour` in the link is not a setting of this page",
            ]
        );
    }

    #[test]
    fn graph_text_round_trips() {
        let text = "terminals s t\ns a\na t # the path\ns t";
        let s = Settings {
            graph: Some(text.to_string()),
            ..Settings::default()
        };
        let (back, errors) = Settings::parse(&s.hash("s-t"));
        assert!(errors.is_empty());
        assert_eq!(back.graph.as_deref(), Some(text));
        assert_eq!(back.moves, "s-t");
    }
}
