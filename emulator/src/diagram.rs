//! The board drawn as the original program drew it: `●` nodes, `|` and `-` resistors,
//! `‖` and `=` wires, blanks where Cut has cut; terminal rows joined by `=`.

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
        (_, EdgeState::Cut) => " ",
        (Orientation::Vertical, EdgeState::Resistor) => "|",
        (Orientation::Vertical, EdgeState::Short) => "‖",
        (Orientation::Horizontal, EdgeState::Resistor) => "-",
        (Orientation::Horizontal, EdgeState::Short) => "=",
    }
}

/// Lays the board out row by row, top terminal first, each cell `width` wide, with row
/// numbers on the left and column letters below. `label` may replace an edge's symbol.
fn layout(
    position: &Position,
    width: usize,
    label: impl Fn(Edge, EdgeState) -> Option<String>,
) -> String {
    let size = position.size();
    let span = size.span();
    let margin = if span >= 10 { 3 } else { 2 };
    let mut out = String::new();
    for y in (0..=2 * size.get()).rev() {
        let row = if (1..=span).contains(&y) {
            y.to_string()
        } else {
            String::new()
        };
        let mut line = format!("{row:<margin$}");
        for x in 1..=span {
            let text = match cell(size, x, y, position) {
                Cell::Node => "●".to_string(),
                Cell::Rail => "=".to_string(),
                Cell::Gap => String::new(),
                Cell::Edge(e, s) => label(e, s).unwrap_or_else(|| symbol(e, s).to_string()),
            };
            line.push_str(&format!("{text:^width$}"));
            if x < span {
                line.push(' ');
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut letters = " ".repeat(margin);
    for x in 1..=span {
        let letter = heuristic::column_letter(x);
        letters.push_str(&format!("{letter:^width$}"));
        if x < span {
            letters.push(' ');
        }
    }
    out.push_str(letters.trim_end());
    out.push('\n');
    out
}

/// The position drawn with the original program's symbols.
///
/// ```
/// use heuristic::{Position, Side, Size};
/// let p = Position::from_record(Size::new(2).unwrap(), Side::Cut, "A3,b2").unwrap();
/// assert_eq!(
///     emulator::diagram::board(&p),
///     "  ● = ●\n3     |\n2 ● = ●\n1 |   |\n  ● = ●\n  A B C\n"
/// );
/// ```
pub fn board(position: &Position) -> String {
    layout(position, 1, |_, _| None)
}

/// The board with a number in place of every resistor (cuts and shorts keep their
/// symbols), each cell as wide as the widest number.
pub fn labelled(position: &Position, label: impl Fn(Edge) -> Option<String>) -> String {
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
