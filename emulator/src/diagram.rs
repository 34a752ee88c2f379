//! The board drawn as the original program drew it: `●` nodes, `|` and `-` resistors,
//! `‖` and `=` wires, terminal rows joined by `=`; where Cut has cut, `×` (the original left
//! a blank, which reads as a missing edge and no colour can show). The one drawing `play`,
//! `solve` and `analyze` print.

use heuristic::{Edge, EdgeState, Orientation, Position, Size};

/// What sits at one character cell of the drawing.
enum Cell {
    Node,
    /// A terminal row's built-in wire between two of its nodes.
    Rail,
    Edge(Edge, EdgeState),
    Gap,
}

fn cell(size: Size, x: u8, y: u8, position: &Position) -> Cell {
    let terminal = y == 0 || y == 2 * size.get();
    match (x % 2, y % 2) {
        (1, 0) => Cell::Node,
        (0, 0) if terminal => Cell::Rail,
        _ => match Edge::new(size, x, y) {
            Some(e) => Cell::Edge(e, position.state(e)),
            None => Cell::Gap,
        },
    }
}

fn symbol(edge: Edge, state: EdgeState) -> &'static str {
    match (edge.orientation(), state) {
        (_, EdgeState::Cut) => "×",
        (Orientation::Vertical, EdgeState::Resistor) => "|",
        (Orientation::Vertical, EdgeState::Short) => "‖",
        (Orientation::Horizontal, EdgeState::Resistor) => "-",
        (Orientation::Horizontal, EdgeState::Short) => "=",
    }
}

/// What a piece of the drawing shows, so that a caller can style it (the terminal game
/// colours wires and cuts, and marks edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Row numbers, column letters and the blanks between cells.
    Text,
    /// A node.
    Node,
    /// A terminal row's built-in wire between two of its nodes.
    Rail,
    /// An edge, as it stands.
    Edge(Edge, EdgeState),
}

/// A line of the drawing: pieces of text with what each shows.
pub type Pieces = Vec<(String, Piece)>;

/// Lays the board out row by row, top terminal first, each cell `width` wide, with row
/// numbers on the left and column letters below. `label` may replace an edge's symbol.
/// Every cell is a piece of its own, and cells are one blank apart.
fn layout(
    position: &Position,
    width: usize,
    label: impl Fn(Edge, EdgeState) -> Option<String>,
) -> Vec<Pieces> {
    let size = position.size();
    let span = size.span();
    let margin = if span >= 10 { 3 } else { 2 };
    let mut lines = Vec::new();
    for y in (0..=2 * size.get()).rev() {
        let row = if (1..=span).contains(&y) {
            y.to_string()
        } else {
            String::new()
        };
        let mut line = vec![(format!("{row:<margin$}"), Piece::Text)];
        for x in 1..=span {
            let (text, part) = match cell(size, x, y, position) {
                Cell::Node => ("●".to_string(), Piece::Node),
                Cell::Rail => ("=".to_string(), Piece::Rail),
                Cell::Gap => (String::new(), Piece::Text),
                Cell::Edge(e, s) => (
                    label(e, s).unwrap_or_else(|| symbol(e, s).to_string()),
                    Piece::Edge(e, s),
                ),
            };
            line.push((format!("{text:^width$}"), part));
            if x < span {
                line.push((" ".to_string(), Piece::Text));
            }
        }
        lines.push(line);
    }
    let mut letters = vec![(" ".repeat(margin), Piece::Text)];
    for x in 1..=span {
        let letter = heuristic::column_letter(x);
        letters.push((format!("{letter:^width$}"), Piece::Text));
        if x < span {
            letters.push((" ".to_string(), Piece::Text));
        }
    }
    lines.push(letters);
    lines
}

/// The lines joined into text, each trimmed at the end.
fn text(lines: Vec<Pieces>) -> String {
    let mut out = String::new();
    for line in lines {
        let joined: String = line.into_iter().map(|(t, _)| t).collect();
        out.push_str(joined.trim_end());
        out.push('\n');
    }
    out
}

/// [`board`] as pieces, for a caller that styles them.
pub fn board_pieces(position: &Position) -> Vec<Pieces> {
    layout(position, 1, |_, _| None)
}

/// [`labelled`] as pieces, for a caller that styles them.
pub fn labelled_pieces(position: &Position, label: impl Fn(Edge) -> Option<String>) -> Vec<Pieces> {
    let width = position
        .size()
        .edges()
        .filter_map(&label)
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    layout(position, width, |e, s| {
        if s == EdgeState::Resistor {
            label(e)
        } else {
            None
        }
    })
}

/// The position drawn with the original program's symbols, cuts as `×`.
///
/// ```
/// use heuristic::{Position, Side, Size};
/// let p = Position::from_record(Size::new(2).unwrap(), Side::Cut, "A3,b2").unwrap();
/// assert_eq!(
///     emulator::diagram::board(&p),
///     "  ● = ●\n3 ×   |\n2 ● = ●\n1 |   |\n  ● = ●\n  A B C\n"
/// );
/// ```
pub fn board(position: &Position) -> String {
    text(board_pieces(position))
}

/// The board with a number in place of every resistor (cuts and shorts keep their
/// symbols), each cell as wide as the widest number.
pub fn labelled(position: &Position, label: impl Fn(Edge) -> Option<String>) -> String {
    text(labelled_pieces(position, label))
}
