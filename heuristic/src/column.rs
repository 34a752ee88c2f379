//! A column's letter, the one rule A1 notation, edges and nodes name columns by: below
//! the notation (which reads edges) and the edges and nodes (which print it).

/// The letter that names column `x` (1 = A) in A1 notation; `?` past Z, where no board reaches,
/// so that a corrupt coordinate still prints.
///
/// ```
/// use heuristic::column_letter;
/// assert_eq!((column_letter(1), column_letter(15), column_letter(26)), ('A', 'O', 'Z'));
/// assert_eq!((column_letter(0), column_letter(27)), ('?', '?'));
/// ```
pub fn column_letter(x: u8) -> char {
    match x {
        1..=26 => char::from(b'A' + x - 1),
        _ => '?',
    }
}
