//! Fitting text to the terminal: the status line, lines cut to the width, words wrapped.

use heuristic::Side;

use super::{Line, Span, text};
use crate::cli::play::Game;

/// Whose turn it is (or who has won) and the record (cut at its start by `fit`).
pub(super) fn status(game: &impl Game, to_move: Option<Side>, you: Side) -> String {
    let turn = match (game.outcome(), to_move) {
        (Some(outcome), _) => outcome,
        (None, Some(side)) if side == you => format!("Your move ({side})."),
        (None, _) => "The machine's move.".to_string(),
    };
    format!("{turn}   Record: {}", game.record())
}

/// Cuts a line to `width` characters; a status line keeps the end of its record.
pub(super) fn fit(line: Line, width: usize) -> Line {
    let count: usize = line.iter().map(|s| s.text.chars().count()).sum();
    if count <= width {
        return line;
    }
    let whole = text(&line);
    if line.len() == 1
        && let Some(at) = whole.find("Record: ")
    {
        // Keep the latest moves: "Record: …,C5,b4".
        let head = &whole[..at + "Record: ".len()];
        let room = width.saturating_sub(head.chars().count() + 1);
        let moves: Vec<char> = whole[head.len()..].chars().collect();
        let tail: String = moves[moves.len().saturating_sub(room)..].iter().collect();
        if room > 0 {
            return vec![Span::plain(format!("{head}…{tail}"))];
        }
    }
    let mut left = width;
    let mut out = Vec::new();
    for mut span in line {
        let n = span.text.chars().count();
        if n > left {
            span.text = span.text.chars().take(left).collect();
        }
        left -= span.text.chars().count();
        out.push(span);
        if left == 0 {
            break;
        }
    }
    out
}

/// Words of `text` in lines of at most `width` characters (a longer word is cut).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let word: String = word.chars().take(width.max(1)).collect();
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
