//! The physical cage is wired for M=4; M=3 is played on it with jumpers (see [`crate::PinMap`]).
//! This maps a position of either size onto the 25 edges of the M=4 cage, for an edge fixture
//! (or an emulated cage) that must set every physical edge.

use heuristic::{Edge, EdgeState, Position, Size};

/// The size the physical cage is wired for: every pin map, fixture and count of pins follows
/// from it.
///
/// ```
/// use boards::{CAGE_EDGES, INTERNAL_NODES, LED_PINS, MEASURED_NODES};
/// assert_eq!((CAGE_EDGES, INTERNAL_NODES, MEASURED_NODES, LED_PINS), (25, 12, 13, 14));
/// ```
pub const CAGE_SIZE: Size = Size::M4;
/// Edges of the M=4 cage.
pub const CAGE_EDGES: usize = CAGE_SIZE.edge_count();

const M4: Size = CAGE_SIZE;

/// A position of size M=3 or M=4 that the M=4 cage cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("{0} cannot be played on the M=4 cage (only M=3 and M=4)")]
pub struct CageSizeError(pub Size);

/// The state of every edge of the M=4 cage, in M=4 reading order, that plays `position`.
///
/// M=4 maps one to one. M=3 keeps its edges at the same coordinates; A7, C7 and E7 are wires
/// (they join A6, C6 and E6 to Q, which makes row 6 M=3's top terminal), and column G with
/// B6, D6 and F6 is left empty (cut).
///
/// ```
/// use heuristic::{EdgeState, Position, Side, Size};
/// let m3 = Position::from_record(Size::new(3).unwrap(), Side::Cut, "A5,c3").unwrap();
/// let cage = boards::cage_states(&m3).unwrap();
/// assert_eq!(cage[0], EdgeState::Short); // A7: jumper
/// assert_eq!(cage[3], EdgeState::Cut); // G7: empty
/// assert_eq!(cage[7], EdgeState::Cut); // A5: cut by the record
/// ```
pub fn cage_states(position: &Position) -> Result<[EdgeState; CAGE_EDGES], CageSizeError> {
    let size = position.size();
    let mut states = [EdgeState::Resistor; CAGE_EDGES];
    match size.get() {
        4 => states.copy_from_slice(position.states()),
        3 => {
            for (slot, edge) in states.iter_mut().zip(M4.edges()) {
                *slot = match Edge::new(size, edge.x(), edge.y()) {
                    Some(own) => position.state(own),
                    // Row 7 above columns A, C, E: the jumpers to Q.
                    None if edge.y() == M4.span() && edge.x() < M4.span() => EdgeState::Short,
                    None => EdgeState::Cut,
                };
            }
        }
        _ => return Err(CageSizeError(size)),
    }
    Ok(states)
}
