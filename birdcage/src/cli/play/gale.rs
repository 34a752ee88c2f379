//! The cage drawn as Gale's game (Bridg-It, Bridj-It 2.0): two interleaved grids of dots.
//!
//! On the cage of size M, Short's wires join the nodes at odd columns and even rows
//! (x = 1, 3, …, 2M−1; y = 0, 2, …, 2M): M columns of M+1 dots whose top and bottom rows
//! are the terminals, so Short joins top to bottom. Cut's grid is the dual: its dots sit
//! at even columns and odd rows (x = 0, 2, …, 2M; y = 1, 3, …, 2M−1), M+1 columns of M
//! dots, the outer columns x = 0 and x = 2M being the board's left and right sides. Every
//! edge square (x + y even) lies between two dots of each grid: a short is Short's bridge
//! between its two nodes (`|` on an odd column, `-` on an even one) and a cut is Cut's
//! bridge across it, between the two dual dots (`-` on an odd column, `|` on an even one).
//! Cut wins when its bridges join left to right: no path of uncut edges is left from top
//! to bottom. Unclaimed edges are blank.

use heuristic::{Edge, EdgeState, Position, Side, Size, column_letter};

/// Whose colour a piece of the drawing is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ink {
    Plain,
    Side(Side),
}

/// A piece of the drawing: its text, its ink, and the edge it stands on, if any (so that
/// the terminal game can mark the selected edge and the machine's last move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub(crate) text: String,
    pub(crate) ink: Ink,
    pub(crate) edge: Option<Edge>,
}

impl Piece {
    fn plain(text: String) -> Piece {
        Piece {
            text,
            ink: Ink::Plain,
            edge: None,
        }
    }
}

/// A line of the drawing: its pieces, every cell one of its own, cells one blank apart.
pub(crate) type Line = Vec<Piece>;

/// Characters before column x = 0: room for the row numbers.
pub(crate) fn margin(size: Size) -> usize {
    if size.span() >= 10 { 3 } else { 2 }
}

/// What is drawn at (x, y), 0 ≤ x, y ≤ 2M.
fn cell(position: &Position, x: u8, y: u8) -> (char, Ink) {
    let short = Ink::Side(Side::Short);
    let cut = Ink::Side(Side::Cut);
    match (x % 2, y % 2) {
        (1, 0) => ('●', short),
        (0, 1) => ('○', cut),
        _ => match Edge::new(position.size(), x, y).map(|e| position.state(e)) {
            Some(EdgeState::Short) if x % 2 == 1 => ('|', short),
            Some(EdgeState::Short) => ('-', short),
            Some(EdgeState::Cut) if x % 2 == 1 => ('-', cut),
            Some(EdgeState::Cut) => ('|', cut),
            Some(EdgeState::Resistor) | None => (' ', Ink::Plain),
        },
    }
}

/// The drawing, top row first: the grids with row numbers on the left, column letters
/// below (the squares' names, as in the records), and a legend naming who is who.
pub(crate) fn lines(position: &Position, you: Side) -> Vec<Line> {
    let size = position.size();
    let top = 2 * size.get();
    let margin = margin(size);
    let mut lines = Vec::new();
    for y in (0..=top).rev() {
        let label = if (1..top).contains(&y) {
            y.to_string()
        } else {
            String::new()
        };
        let mut line = vec![Piece::plain(format!("{label:<margin$}"))];
        for x in 0..=top {
            if x > 0 {
                line.push(Piece::plain(" ".to_string()));
            }
            let (c, ink) = cell(position, x, y);
            line.push(Piece {
                text: c.to_string(),
                ink,
                edge: Edge::new(size, x, y),
            });
        }
        lines.push(line);
    }
    let letters: Vec<String> = (0..=top)
        .map(|x| match x {
            0 => " ".to_string(),
            x if x == top => " ".to_string(),
            x => column_letter(x).to_string(),
        })
        .collect();
    lines.push(vec![Piece::plain(format!(
        "{}{}",
        " ".repeat(margin),
        letters.join(" ")
    ))]);
    let who = |side: Side| if side == you { "you" } else { "the machine" };
    let dot = |text: &str, side| Piece {
        text: text.to_string(),
        ink: Ink::Side(side),
        edge: None,
    };
    lines.push(vec![
        dot("●", Side::Short),
        Piece::plain(format!(
            " Short ({}) joins top to bottom   ",
            who(Side::Short)
        )),
        dot("○", Side::Cut),
        Piece::plain(format!(" Cut ({}) joins left to right", who(Side::Cut))),
    ]);
    lines
}

/// The drawing as plain text, no colours: `●` Short's dots, `○` Cut's.
pub(crate) fn plain(position: &Position, you: Side) -> String {
    let mut out = String::new();
    for line in lines(position, you) {
        let text: String = line.into_iter().map(|p| p.text).collect();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny union-find over grid points.
    struct Sets(Vec<usize>);

    impl Sets {
        fn find(&mut self, mut i: usize) -> usize {
            while self.0[i] != i {
                self.0[i] = self.0[self.0[i]];
                i = self.0[i];
            }
            i
        }
        fn union(&mut self, a: usize, b: usize) {
            let (a, b) = (self.find(a), self.find(b));
            self.0[a] = b;
        }
    }

    /// Reads the drawing back: whether Short's bridges join its top row to its bottom row,
    /// and whether Cut's join its left column to its right column.
    fn joined(text: &str, size: Size) -> (bool, bool) {
        let top = usize::from(2 * size.get());
        let margin = margin(size);
        let grid: Vec<Vec<char>> = text
            .lines()
            .take(top + 1)
            .map(|l| l.chars().collect())
            .collect();
        let at = |x: usize, y: usize| grid[top - y].get(margin + 2 * x).copied().unwrap_or(' ');
        let id = |x: usize, y: usize| y * (top + 1) + x;
        let mut short = Sets((0..(top + 1) * (top + 1)).collect());
        let mut cut = Sets((0..(top + 1) * (top + 1)).collect());
        for x in (1..top).step_by(2) {
            short.union(id(x, 0), id(1, 0));
            short.union(id(x, top), id(1, top));
        }
        for y in (1..top).step_by(2) {
            cut.union(id(0, y), id(0, 1));
            cut.union(id(top, y), id(top, 1));
        }
        for y in 1..top {
            for x in 1..top {
                match (x % 2, y % 2, at(x, y)) {
                    (1, 1, '|') => short.union(id(x, y - 1), id(x, y + 1)),
                    (1, 1, '-') => cut.union(id(x - 1, y), id(x + 1, y)),
                    (0, 0, '-') => short.union(id(x - 1, y), id(x + 1, y)),
                    (0, 0, '|') => cut.union(id(x, y - 1), id(x, y + 1)),
                    (1, 0, '●') | (0, 1, '○') | (_, _, ' ') => {}
                    other => panic!("unexpected {other:?} at ({x}, {y})"),
                }
            }
        }
        let short_won = short.find(id(1, 0)) == short.find(id(1, top));
        let cut_won = cut.find(id(0, 1)) == cut.find(id(top, 1));
        (short_won, cut_won)
    }

    #[test]
    fn the_drawing_shows_who_has_won() {
        // Every position of many random games on M=2..=6: Short's bridges join top to
        // bottom exactly when Short has won, Cut's join left to right exactly when Cut has
        // (the dual grid: no uncut path is left from top to bottom).
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for m in 2..=6 {
            let size = Size::new(m).unwrap();
            for game in 0..200 {
                let first = if game % 2 == 0 {
                    Side::Cut
                } else {
                    Side::Short
                };
                let mut position = Position::new(size, first);
                loop {
                    let (short_won, cut_won) = joined(&plain(&position, Side::Short), size);
                    assert_eq!(short_won, position.winner() == Some(Side::Short));
                    assert_eq!(cut_won, position.winner() == Some(Side::Cut));
                    if position.winner().is_some() {
                        break;
                    }
                    let resistors: Vec<Edge> = position.resistors().collect();
                    let pick = resistors[(next() % resistors.len() as u64) as usize];
                    position.play_edge(pick).unwrap();
                }
            }
        }
    }
}
